"""The breakage radar's warnings, as the radar shows and keeps them: which upstream vLLM PR
(open, approved or merged) takes away something a watched plugin uses, at which lines; what
could not be evaluated and why; and how past warnings were graded by what the plugins did
after the PR merged.

`bot.features.radar.predict` finds the breaks (pure `ast`, helper types of its own); this
is the radar's flat, frozen record of them (strings and numbers, kept as JSON by
`bot.features.radar.store_corrections.WarningLedger`), built by
`bot.features.radar.warnings`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

# How far an upstream PR has come: a warning is sent again to a subscriber only when its PR
# reaches a later stage than the one it was sent at.
STAGES = ("open", "approved", "merged")
# What later plugin activity made of a warning whose PR merged (`missed`: a culprit the
# radar named that no warning foretold).
GRADES = ("confirmed", "not-confirmed", "missed")
# A warning whose PR merged this long ago, with the plugin's sites still as they were, is
# not confirmed: plugins meet a vLLM change within days (pins.json: vllm-ascend's p90 lag
# at an update is 14 days; gaudi and tpu-inference pin main within hours).
GRADE_AFTER_DAYS = 14


def stage_rank(stage: str) -> int:
    return STAGES.index(stage) if stage in STAGES else 0


@dataclass(frozen=True)
class Site:
    """One line of a plugin that a change breaks, and how it uses the vLLM name."""

    file: str
    line: int
    kind: str = ""  # import, attribute, call, subclass, override, inherited, patch
    name: str = ""  # the vLLM name it uses, as the plugin wrote it

    @property
    def text(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Warned:
    """An upstream PR's change that breaks a plugin: the PR and how far it has come, what it
    takes away (`kind`: `bot.features.radar.predict.model.BREAK_KINDS`), and the plugin's
    lines it breaks (`sites`: they fail as soon as it lands; `guarded`: behind a version
    check, `try/except ImportError`, `hasattr` or `TYPE_CHECKING`)."""

    plugin_repo: str
    number: int
    title: str
    stage: str  # one of STAGES
    kind: str
    name: str  # the vLLM name that changed: `vllm.x.f`, `vllm.x.Cls.method`, `vllm.x`
    file: str  # vLLM's file it was in, before
    line: int
    detail: str = ""
    now: str | None = None  # where it went: a renamed or moved name, a moved module
    before: str | None = None  # a signature's parameters before, as written
    after: str | None = None
    sites: tuple[Site, ...] = ()
    guarded: tuple[Site, ...] = ()
    head: str = ""  # the PR's head commit the warning was made at
    # Lines that may break without failing at once (an override of a method vLLM dropped
    # or now calls with a new parameter): counted apart, like the guarded ones.
    possible: tuple[Site, ...] = ()

    @property
    def change(self) -> str:
        """What the warning is about, within its PR: sent once per PR and change."""
        return f"{self.kind}:{self.name}"

    @property
    def count(self) -> int:
        return len(self.sites)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.plugin_repo, self.number, self.change)


@dataclass(frozen=True)
class NotEvaluated:
    """What the warnings could not be said for, and why: a plugin whose source could not be
    read (`number` None), or an upstream PR whose change could not (`plugin_repo` None, or
    the plugin whose part of it was not read)."""

    why: str
    plugin_repo: str | None = None
    number: int | None = None
    # A plugin read in part: `unread` of its `files` Python files could not be read (its
    # other lines were evaluated). Said beside the warnings, no news alone.
    unread: int = 0
    files: int = 0

    @property
    def partial(self) -> bool:
        return self.unread > 0 and self.files > 0


@dataclass(frozen=True)
class Graded:
    """How a plugin's past warnings fared (`GRADES`), and how many wait for the plugin."""

    plugin_repo: str
    confirmed: int = 0
    not_confirmed: int = 0
    missed: int = 0
    pending: int = 0

    @property
    def graded(self) -> int:
        return self.confirmed + self.not_confirmed + self.missed


@dataclass(frozen=True)
class Forecast:
    """The warnings of a window: every watched plugin's, the most sites first; what was not
    evaluated; how many upstream PRs were evaluated; and the plugins' grades so far."""

    plugins: tuple[str, ...]
    warnings: tuple[Warned, ...] = ()
    not_evaluated: tuple[NotEvaluated, ...] = ()
    evaluated: int = 0  # upstream PRs whose change was read against the plugins
    grades: tuple[Graded, ...] = ()
    made_at: datetime | None = None
    label: str = ""  # the window's label (`2026-03-25`, `last 7 days`)

    def of_plugin(self, repo: str) -> Forecast:
        return self.of_plugins((repo,))

    def of_plugins(self, repos: Iterable[str]) -> Forecast:
        """These plugins' part (what no PR could be evaluated for stays: it is all's)."""
        wanted = tuple(repos)
        return replace(
            self,
            plugins=tuple(p for p in self.plugins if p in wanted) or wanted,
            warnings=tuple(w for w in self.warnings if w.plugin_repo in wanted),
            not_evaluated=tuple(
                n for n in self.not_evaluated if n.plugin_repo is None or n.plugin_repo in wanted
            ),
            grades=tuple(g for g in self.grades if g.plugin_repo in wanted),
        )

    @property
    def news(self) -> bool:
        """Whether there is anything to tell: a warning, or something not evaluated (a
        plugin read in part alone is not: its other lines were)."""
        return bool(self.warnings) or any(not n.partial for n in self.not_evaluated)


def ordered(warnings: Iterable[Warned]) -> tuple[Warned, ...]:
    """The most sites first, then the PR furthest along, then by PR and name."""
    return tuple(
        sorted(
            warnings,
            key=lambda w: (-w.count, -stage_rank(w.stage), -len(w.guarded), w.number, w.name),
        )
    )


# -- kept as JSON ------------------------------------------------------------------------------


def site_to_dict(site: Site) -> dict[str, Any]:
    return {"file": site.file, "line": site.line, "kind": site.kind, "name": site.name}


def site_of(data: Mapping[str, Any]) -> Site:
    return Site(
        str(data["file"]),
        int(data["line"]),
        str(data.get("kind") or ""),
        str(data.get("name") or ""),
    )


def warned_to_dict(warned: Warned) -> dict[str, Any]:
    return {
        "plugin_repo": warned.plugin_repo,
        "number": warned.number,
        "title": warned.title,
        "stage": warned.stage,
        "kind": warned.kind,
        "name": warned.name,
        "file": warned.file,
        "line": warned.line,
        "detail": warned.detail,
        "now": warned.now,
        "before": warned.before,
        "after": warned.after,
        "sites": [site_to_dict(s) for s in warned.sites],
        "guarded": [site_to_dict(s) for s in warned.guarded],
        "possible": [site_to_dict(s) for s in warned.possible],
        "head": warned.head,
    }


def warned_of(data: Mapping[str, Any]) -> Warned:
    return Warned(
        plugin_repo=str(data["plugin_repo"]),
        number=int(data["number"]),
        title=str(data.get("title") or ""),
        stage=str(data.get("stage") or "open"),
        kind=str(data["kind"]),
        name=str(data["name"]),
        file=str(data.get("file") or ""),
        line=int(data.get("line") or 0),
        detail=str(data.get("detail") or ""),
        now=data.get("now"),
        before=data.get("before"),
        after=data.get("after"),
        sites=tuple(site_of(s) for s in data.get("sites") or ()),
        guarded=tuple(site_of(s) for s in data.get("guarded") or ()),
        head=str(data.get("head") or ""),
        possible=tuple(site_of(s) for s in data.get("possible") or ()),
    )


def forecast_to_dict(forecast: Forecast) -> dict[str, Any]:
    return {
        "plugins": list(forecast.plugins),
        "warnings": [warned_to_dict(w) for w in forecast.warnings],
        "not_evaluated": [
            {
                "why": n.why,
                "plugin_repo": n.plugin_repo,
                "number": n.number,
                "unread": n.unread,
                "files": n.files,
            }
            for n in forecast.not_evaluated
        ],
        "evaluated": forecast.evaluated,
        "grades": [
            {
                "plugin_repo": g.plugin_repo,
                "confirmed": g.confirmed,
                "not_confirmed": g.not_confirmed,
                "missed": g.missed,
                "pending": g.pending,
            }
            for g in forecast.grades
        ],
        "made_at": forecast.made_at.isoformat() if forecast.made_at else None,
        "label": forecast.label,
    }


def forecast_of(data: Mapping[str, Any]) -> Forecast:
    made = data.get("made_at")
    return Forecast(
        plugins=tuple(str(p) for p in data.get("plugins") or ()),
        warnings=tuple(warned_of(w) for w in data.get("warnings") or ()),
        not_evaluated=tuple(
            NotEvaluated(
                str(n["why"]),
                n.get("plugin_repo"),
                n.get("number"),
                int(n.get("unread") or 0),
                int(n.get("files") or 0),
            )
            for n in data.get("not_evaluated") or ()
        ),
        evaluated=int(data.get("evaluated") or 0),
        grades=tuple(
            Graded(
                str(g["plugin_repo"]),
                int(g.get("confirmed") or 0),
                int(g.get("not_confirmed") or 0),
                int(g.get("missed") or 0),
                int(g.get("pending") or 0),
            )
            for g in data.get("grades") or ()
        ),
        made_at=datetime.fromisoformat(made) if made else None,
        label=str(data.get("label") or ""),
    )
