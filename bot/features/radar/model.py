"""The breakage radar's facts: which plugin PRs name which upstream vLLM changes, the
upstream changes that broke plugins, and how far each plugin's pin of upstream lags.

Each upstream change a plugin PR names has a `role` (what the words around it make it, read
by `bot.features.radar.reading`) and, once GitHub was asked about it
(`bot.features.radar.service`), a
`verdict`. Only a cause (`culprit` of a break, or what an upgrade `adapted` to) counts as a
link, and only a cause GitHub confirmed (`verified`: a merged vLLM pull request, merged
before the fix) is ever shown as a culprit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.features.radar.forecast import Forecast
from bot.model.subscriptions import KeyForm, SubscriptionKey
from bot.model.windows import Window

UPSTREAM = "vllm-project/vllm"
RELATIONS = ("breakage-fix", "upgrade", "mention-only")
# What a named upstream change is to the plugin PR that names it.
ROLES = (
    "culprit",  # named as what broke the plugin
    "adapted",  # what an upgrade adapted to
    "upstream-fix",  # upstream fixed something, so a plugin patch or pin goes away
    "pending",  # an upstream PR the plugin waits for or depends on
    "ported",  # copied or ported from upstream
    "related",  # named for comparison ("similar to", "related PR")
    "pin",  # the upstream commit the plugin moves its pin to
    "baseline",  # the upstream commit the PR was tested on
    "issue",  # an upstream issue: it reports a break, it is not the change that made it
    "mentioned",  # named by a PR that only mentions upstream
)
CAUSES = ("culprit", "adapted")  # the roles that count as links
NOT_NAMED = ("pin", "baseline")  # where the plugin stands, not why it changed
# What GitHub said of a cause: only `verified` is shown as a culprit.
VERDICTS = (
    "verified",  # a merged vLLM pull request, merged before the fix
    "issue",  # GitHub says the number is an issue
    "missing",  # GitHub has no such number (404)
    "unmerged",  # a pull request not merged (when the fix was made)
    "after-fix",  # merged after the fix: it cannot have broken it
    "long-before",  # merged over LONG_BEFORE_DAYS before the fix was opened: not what broke it
    "no-pr",  # a commit no merged pull request brought to vLLM
    "unverified",  # GitHub could not be asked (budget spent, GitHub down)
    "corrected",  # a person said it is not the cause (`/vllm-radar wrong`): never shown again
)
# A cause merged this long before the plugin PR was opened is not what broke it. Plugins
# meet an upstream change when they move their pin past it: gaudi and tpu-inference pin
# main within hours (pins.json: p90 lag at an update 166 h and 4.6 h), vllm-ascend within
# 14 days (p90 328 h), and the longest any pin stood still was 21.7 days; spyre follows
# releases, a few weeks apart. In the 221 links of the 2025 records
# (tests/data/radar/links-2025.json) the upstream PR was *opened*, as its number dates it,
# at most about 155 days before the plugin PR (95% within 75): its merge came later still.
# 180 days keeps every one of them with room, and drops a number from another age
# (vllm#1670, merged 2024-08, named by vllm-gaudi#1660 in 2026).
LONG_BEFORE_DAYS = 180
# A pin unchanged this long while upstream moves is a lag that grows (gaudi and
# tpu-inference bump theirs every few hours, vllm-ascend every four days or so).
GROWING_AFTER_DAYS = 3.0
# The subscriptions the radar answers: `plugins` (the daily report's Plugins section) and
# `radar:vllm-ascend` (one plugin's part of it).
PLUGINS_TOPIC = "plugins"
RADAR_TOPIC = "radar:"
PLUGINS_DIGEST = "Plugins (breakage radar)"  # what a `plugins` subscriber gets, named


def is_plugins(key: SubscriptionKey) -> bool:
    """The daily report's Plugins section: whole (`plugins`) or one plugin's (`radar:`)."""
    return key.kind in (PLUGINS_TOPIC, _RADAR)


def plugin_of(key: SubscriptionKey) -> str | None:
    """`radar:vllm-ascend` → `vllm-ascend`; None for the other kinds."""
    return key.value if key.kind == _RADAR else None


def plugin_key(repo: str) -> SubscriptionKey:
    """The key of one watched plugin's radar, `radar:vllm-ascend`, from its repository
    (`vllm-project/vllm-ascend`) or its short name."""
    return SubscriptionKey(_RADAR, repo.split("/", 1)[-1].lower())


def _named(key: SubscriptionKey) -> str:
    plugin = plugin_of(key)
    return PLUGINS_DIGEST if plugin is None else f"{PLUGINS_DIGEST} of {plugin}"


def _stored_as(key: SubscriptionKey) -> SubscriptionKey | None:
    """`radar:gaudi`, typed for a plugin no longer watched: it was stored by its repository's
    name, `radar:vllm-gaudi`."""
    plugin = plugin_of(key)
    return plugin_key(f"vllm-{plugin}") if plugin is not None else None


_RADAR = RADAR_TOPIC.removesuffix(":")
KEY_FORMS = (
    KeyForm(PLUGINS_TOPIC, alone=True, name=_named),
    KeyForm(
        _RADAR,
        prefixed=True,
        missing="name a plugin: `radar:<plugin>`, e.g. `radar:vllm-ascend` (see `/vllm-topics`)",
        name=_named,
        stored_as=_stored_as,
    ),
)


@dataclass(frozen=True)
class UpstreamRef:
    repo: str
    kind: str  # pr, issue, commit, pr-or-issue
    number: int | None = None  # a commit's, once GitHub said which PR brought it
    sha: str | None = None
    role: str = "culprit"  # one of ROLES
    verdict: str | None = None  # one of VERDICTS; None: GitHub was not asked

    @property
    def key(self) -> str:
        """`#N` or the first 7 characters of a commit: what a link is compared by."""
        return f"#{self.number}" if self.number is not None else (self.sha or "")[:7]

    @property
    def cause(self) -> bool:
        """Named as a cause: what broke the plugin, or what an upgrade adapted to."""
        return self.role in CAUSES

    @property
    def confirmed(self) -> bool:
        """A cause GitHub confirmed: the only kind ever shown as a culprit."""
        return self.cause and self.verdict == "verified"


@dataclass(frozen=True)
class Reading:
    relation: str  # breakage-fix, upgrade, mention-only, or none (no upstream named)
    upstream: tuple[UpstreamRef, ...]  # every upstream change named, each with its role

    @property
    def links(self) -> tuple[UpstreamRef, ...]:
        """The causes: what the plugin PR says broke it, or what an upgrade adapted to."""
        return tuple(ref for ref in self.upstream if ref.cause)


@dataclass(frozen=True)
class PluginLink:
    """A plugin PR or issue of the window and the upstream changes it names."""

    plugin_repo: str
    number: int
    kind: str  # pr or issue
    title: str
    url: str
    author: str | None
    state: str  # merged, open, closed
    at: datetime  # merged, else opened
    relation: str  # one of RELATIONS
    upstream: tuple[UpstreamRef, ...]  # named, each with its role (pins and baselines left out)
    opened_at: datetime | None = None  # when the plugin PR or issue was opened

    @property
    def confirmed(self) -> tuple[UpstreamRef, ...]:
        """The causes GitHub confirmed: what this fix is shown as having fixed for."""
        return tuple(ref for ref in self.upstream if ref.confirmed)


@dataclass(frozen=True)
class Revert:
    """A merged upstream PR that reverted a culprit (titled "Revert …", naming it)."""

    number: int
    title: str
    merged_at: datetime


@dataclass(frozen=True)
class Culprit:
    """An upstream change plugins had to fix for, with the fixes, and who to ask about it:
    its author, when it merged, and whether upstream has since reverted it (all from the
    archive: `bot.features.radar.culprits` adds them)."""

    ref: UpstreamRef  # a vLLM pull request GitHub confirmed (a commit: the PR that merged it)
    title: str | None  # from the archive, when it holds the upstream PR
    fixes: tuple[PluginLink, ...]
    author: str | None = None  # the upstream PR's author (a GitHub login)
    merged_at: datetime | None = None
    reverted_by: Revert | None = None
    # Every vLLM PR merged from the culprit's merge up to this moment is archived (and none
    # reverted it, unless `reverted_by`); None: the archive does not hold vLLM since then.
    reverts_read_until: datetime | None = None

    @property
    def plugins(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(link.plugin_repo for link in self.fixes))

    @property
    def reverted(self) -> bool | None:
        """Reverted upstream since it merged: yes, no, or None (not known: the archive does
        not hold vLLM's PRs since its merge)."""
        if self.reverted_by is not None:
            return True
        return False if self.reverts_read_until is not None else None


@dataclass(frozen=True)
class Correction:
    """A person's word that `upstream_number` did not break `plugin_repo#plugin_number`
    (`/vllm-radar wrong`, `vllm-report radar wrong`): the radar never shows it as that fix's
    culprit again, and counts it against its precision."""

    plugin_repo: str
    plugin_number: int
    upstream_number: int
    by: str  # who said it: `slack:U123`, `discord:456`, `cli`
    at: datetime

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.plugin_repo, self.plugin_number, self.upstream_number)


@dataclass(frozen=True)
class Pin:
    """Where a plugin pinned upstream at a moment (`at`: a window's end), and how far
    upstream main had moved on by then, from the pin file's history."""

    plugin_repo: str
    where: str  # the file (and branch) it is read from, or "none"
    upstream_commit: str | None
    behind_commits: int | None
    behind_days: float | None
    unknown: str | None = None  # why the lag cannot be said, when it cannot
    at: datetime | None = None  # the moment told
    since: datetime | None = None  # when the file took this pin (its lag grows from then)

    @property
    def unchanged_days(self) -> float | None:
        """Days the pin stood still up to `at`, while upstream main moved on."""
        if self.at is None or self.since is None:
            return None
        return round(max(0.0, (self.at - self.since).total_seconds()) / 86400, 1)

    @property
    def growing(self) -> bool:
        """The lag grows: the pin stood still GROWING_AFTER_DAYS or more while upstream main
        moved on (behind by commits), rather than being bumped on its usual cadence."""
        still = self.unchanged_days
        return bool(self.behind_commits) and still is not None and still >= GROWING_AFTER_DAYS


@dataclass(frozen=True)
class OpenBreak:
    """A plugin PR or issue still open at the window's end that says it is broken by
    upstream (`why`: broken, revert, bump; `bot.features.radar.open_breakage`)."""

    plugin_repo: str
    number: int
    kind: str  # pr or issue
    title: str
    url: str
    author: str | None
    opened_at: datetime
    age_days: float  # open this long at the window's end
    why: str  # "broken" (names upstream as the cause), "revert" (of its pin), "bump" (stuck)
    upstream: tuple[str, ...]  # the upstream changes it names as the cause (#N, a short sha)


@dataclass(frozen=True)
class Unread:
    """A watched plugin whose repository GitHub could not be read for the window, and why
    (GitHub's failure as bot.collect words it: a 404, a refused token, the rate limit …)."""

    plugin_repo: str
    why: str

    @property
    def note(self) -> str:
        """How the radar's notes (and its JSON) say it, whole."""
        return f"{self.plugin_repo} could not be read: {self.why}"


@dataclass(frozen=True)
class Radar:
    window: Window
    plugins: tuple[str, ...]
    links: tuple[PluginLink, ...]
    culprits: tuple[Culprit, ...]  # the most-breaking first
    pins: tuple[Pin, ...]
    complete: bool
    notes: tuple[str, ...] = field(default_factory=tuple)
    late_after_days: float = 7.0  # a pin further behind main is news (VLLM_REPORT_PIN_LAG_DAYS)
    corrections: tuple[Correction, ...] = ()  # those that took a culprit off this radar's fixes
    open: tuple[OpenBreak, ...] = ()  # open breakage at the window's end, the oldest first
    # The plugins GitHub could not be read for, each with GitHub's sentence (also in `notes`,
    # as `<repo> could not be read: <sentence>`): what people are told in one sentence.
    unread: tuple[Unread, ...] = ()
    # The warnings: upstream PRs of the window that will break the plugins' lines
    # (`bot.features.radar.warnings`); None when not asked for (only the daily run's and
    # `radar --predict` are).
    forecast: Forecast | None = None

    def of_plugin(self, repo: str) -> Radar:
        """This radar as one plugin's maintainers read it: its fixes, the upstream changes
        that broke it (with its fixes only), its open breakage, its pin."""
        mine = tuple(
            replace(c, fixes=tuple(f for f in c.fixes if f.plugin_repo == repo))
            for c in self.culprits
            if repo in c.plugins
        )
        return replace(
            self,
            plugins=(repo,),
            links=tuple(link for link in self.links if link.plugin_repo == repo),
            culprits=mine,
            pins=tuple(pin for pin in self.pins if pin.plugin_repo == repo),
            corrections=tuple(c for c in self.corrections if c.plugin_repo == repo),
            open=tuple(b for b in self.open if b.plugin_repo == repo),
            unread=tuple(u for u in self.unread if u.plugin_repo == repo),
            forecast=self.forecast.of_plugin(repo) if self.forecast is not None else None,
        )

    @property
    def attributions(self) -> int:
        """The culprits the radar names for its fixes: (fix, upstream PR) pairs GitHub
        confirmed and nobody corrected."""
        return sum(len(link.confirmed) for link in self.links if link.relation == "breakage-fix")

    @property
    def confirmed(self) -> int:
        """The attributions upstream confirmed by reverting the culprit since (the one sign
        beyond the plugin's own word the archive can establish); the rest are unconfirmed:
        a plugin named it, and GitHub says only that it is a vLLM PR merged before the fix."""
        reverted = {c.ref.key for c in self.culprits if c.reverted}
        return sum(
            1
            for link in self.links
            if link.relation == "breakage-fix"
            for ref in link.confirmed
            if ref.key in reverted
        )

    @property
    def precision(self) -> float | None:
        """The share of culprit attributions shown that readers did not correct: those that
        stand / (those + the corrected ones); None when the radar has neither. Not a
        measured precision: an attribution nobody looked at counts as right."""
        said = self.attributions + len(self.corrections)
        return self.attributions / said if said else None
