"""The breakage radar: for a window, what the hardware plugins fixed for upstream vLLM,
which upstream changes broke them, and how far each plugin's pin of upstream lags.

Each plugin's window is collected like the main repository's (the same archive: a window
archived once costs no request again); the reading is `bot.analyze.radar`'s. Pins are read
now, through the contents API, and only for a window that ends in the last two days: the
contents API shows the file as it is today, which says nothing of an older window.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.analyze.radar import culprits, plugin_links
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.model.asking import AskError, did_you_mean
from bot.model.radar import UPSTREAM, Pin, PluginLink, Radar
from bot.model.report import Report
from bot.model.windows import Window
from bot.store import Span

log = logging.getLogger(__name__)

EVER = Span(datetime(1970, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC))
PIN_FRESH = timedelta(days=2)  # a window ending longer ago than this is shown without pins
LOOK_UP = 12  # culprit titles a daily report may fetch (a day has a handful)


@dataclass(frozen=True)
class PinFile:
    """Where a plugin writes the upstream it was last verified against."""

    path: str
    ref: str
    pattern: re.Pattern[str]  # its first group is the commit or release tag

    @property
    def where(self) -> str:
        return f"{self.path} on {self.ref}"


_SHA = re.compile(r"\b([0-9a-f]{40})\b")
# From ../shared/fixtures/radar/pins.json: each plugin's own mechanism.
PIN_FILES = {
    "vllm-project/vllm-gaudi": PinFile(
        "VLLM_STABLE_COMMIT", "vllm/last-good-commit-for-vllm-gaudi", _SHA
    ),
    "vllm-project/tpu-inference": PinFile(".buildkite/vllm_lkg.version", "main", _SHA),
    "vllm-project/vllm-ascend": PinFile(".github/vllm-main-verified.commit", "main", _SHA),
    "vllm-project/vllm-spyre": PinFile(
        "pyproject.toml", "main", re.compile(r'vllm[^\n]*rev\s*=\s*"(v[\w.]+)"')
    ),
    "vllm-project/vllm-metal": PinFile(
        "install.sh", "main", re.compile(r'VLLM_VERSION="?(\d[\w.]*)"?')
    ),
    "vllm-project/vllm-omni": PinFile(
        "docker/Dockerfile.ci", "main", re.compile(r"wheel commit:\s*([0-9a-f]{40})")
    ),
}


class RadarService:
    def __init__(
        self,
        archiver: Archiver,
        plugins: Sequence[str],
        clock: Callable[[], datetime],
        late_after_days: float = 7.0,
    ) -> None:
        self.archiver = archiver
        self.plugins = tuple(plugins)
        self.clock = clock
        self.late_after_days = late_after_days

    def plugin(self, name: str) -> str:
        """A watched plugin by the name people use: `gaudi`, `vllm-gaudi` or the whole
        `vllm-project/vllm-gaudi`; AskError (one sentence) for any other."""
        said = name.strip().lower()
        for repo in self.plugins:
            short = repo.split("/", 1)[1].lower()
            if said in (repo.lower(), short, short.removeprefix("vllm-")):
                return repo
        names = [repo.split("/", 1)[1] for repo in self.plugins]
        hint = did_you_mean(said, [*names, *(n.removeprefix("vllm-") for n in names)]) or "."
        raise AskError(
            f"'{name}' is not a watched plugin{hint} Watched: {', '.join(names)} "
            "(VLLM_REPORT_PLUGINS)."
        )

    def radar(self, window: Window, plugin: str | None = None, *, look_up: int = 0) -> Radar:
        """The radar of `window` (one plugin, or every watched one). `look_up`: how many
        culprits the archive has no title for may be fetched (a request each, archived, so
        free on every later look): the daily report's, where a bare number tells a reader
        little."""
        now = self.clock()
        watched = (plugin,) if plugin else self.plugins
        links: list[PluginLink] = []
        notes: list[str] = []
        complete = True
        for repo in watched:
            try:
                archived = self.archiver.window(repo, window, now)
            except CollectError as exc:  # one plugin unreadable: the others still count
                complete = False
                notes.append(f"{repo} could not be read: {exc}")
                continue
            complete = complete and archived.complete
            notes += [f"{repo}: {note}" for note in archived.notes]
            items = self.archiver.items(repo, Span(window.start, window.end))
            # A bare #N above the plugin's own numbers cannot be one of them.
            own_max = max((it.number for it in items), default=0)
            links += plugin_links(repo, items, own_max)
        titles = self._titles(links, look_up, now)
        fresh = now - window.end <= PIN_FRESH
        pins = tuple(self._pin(repo) if fresh else _old(repo) for repo in watched)
        links.sort(key=lambda link: (link.at, link.plugin_repo, link.number), reverse=True)
        return Radar(
            window=window,
            plugins=watched,
            links=tuple(links),
            culprits=tuple(culprits(links, titles)),
            pins=pins,
            complete=complete,
            notes=tuple(notes),
            late_after_days=self.late_after_days,
        )

    def broken_by(self, number: int) -> list[PluginLink]:
        """The archived plugin fixes that name upstream #number as what broke them (what
        `explain` says of an upstream PR). From the archive alone: no request."""
        found = []
        for repo in self.plugins:
            items = self.archiver.items(repo, EVER)
            own_max = max((it.number for it in items), default=0)
            found += [
                link
                for link in plugin_links(repo, items, own_max)
                if link.relation == "breakage-fix"
                and any(ref.number == number and ref.kind != "issue" for ref in link.upstream)
            ]
        return found

    def _titles(self, links: list[PluginLink], look_up: int, now: datetime) -> dict[int, str]:
        """Upstream titles as the archive holds them. The daily reports archive every
        upstream PR of their windows, so a recent culprit is there; an older one shows by
        number unless `look_up` allows fetching it."""
        numbers = {ref.number for link in links for ref in link.upstream if ref.number}
        titles = {it.number: it.title for it in self.archiver.named(UPSTREAM, numbers)}
        culprits = [
            ref.number
            for link in links
            if link.relation == "breakage-fix"
            for ref in link.upstream
            if ref.number is not None and ref.number not in titles
        ]
        for number in list(dict.fromkeys(culprits))[:look_up] if self.archiver.fetch else ():
            try:
                titles[number] = self.archiver.item(UPSTREAM, number, now).title
            except CollectError as exc:  # the number alone still says which change
                log.info("upstream #%d has no title in the radar: %s", number, exc)
        return titles

    def _pin(self, repo: str) -> Pin:
        try:
            return self.pin(repo)
        except CollectError as exc:
            return Pin(repo, _where(repo), None, None, None, f"GitHub could not be read: {exc}")

    def pin(self, repo: str) -> Pin:
        """The plugin's pin as its file says today, and how far upstream main is past it."""
        spec = PIN_FILES.get(repo)
        if spec is None:
            return Pin(repo, "none", None, None, None, "no pin file is known for this plugin")
        text = self.archiver.file_text(repo, spec.path, spec.ref)
        if text is None:
            return Pin(repo, spec.where, None, None, None, f"{spec.where} was not found")
        found = spec.pattern.search(text)
        if found is None:
            return Pin(repo, spec.where, None, None, None, f"{spec.where} names no vLLM commit")
        pinned = found.group(1)
        if pinned[0].isdigit() and "." in pinned:  # a release (`0.27.1`): its tag is v0.27.1
            pinned = "v" + pinned
        lag = self.archiver.behind(UPSTREAM, pinned)
        if lag is None:
            why = f"GitHub cannot compare {pinned[:12]} with vLLM main"
            return Pin(repo, spec.where, pinned, None, None, why)
        commits, pinned_at, head_at = lag
        days = round((head_at - pinned_at).total_seconds() / 86400, 1)
        return Pin(repo, spec.where, pinned, commits, max(0.0, days))


def with_radar(report: Report, radar: RadarService) -> Report:
    """The daily report with its plugins' radar: the plugins are vLLM's, so a report of
    another repository (VLLM_REPORT_REPO) or an empty VLLM_REPORT_PLUGINS has none."""
    if report.repo != UPSTREAM or not radar.plugins:
        return report
    return replace(report, radar=radar.radar(report.window, look_up=LOOK_UP))


def _where(repo: str) -> str:
    return PIN_FILES[repo].where if repo in PIN_FILES else "none"


def _old(repo: str) -> Pin:
    why = "a pin is read as it is today, so it is shown for recent windows only"
    return Pin(repo, _where(repo), None, None, None, why)
