"""The breakage radar: for a window, what the hardware plugins fixed for upstream vLLM,
which upstream changes broke them, and how far each plugin's pin of upstream lags.

Each plugin's window is collected like the main repository's (the same archive: a window
archived once costs no request again); the reading is `bot.features.radar.reading`'s. Each pin is
where the plugin's pin file stood at the window's end, from the file's commit history
(`bot.features.radar.collect_pins`, archived: a past day's pins cost nothing after the first look).

Before an upstream change is shown as what broke a plugin (or what an upgrade adapted to),
GitHub is asked about it, once (archived: the item in the items, the answer in the
lookups): numbers a hundred to a GraphQL request with a token (`Archiver.look_up_numbers`:
a PR or an issue, or none), else `GET …/issues/N` each, and a commit (`Archiver.look_up`,
`GET …/commits/{sha}/pulls`: the merged PR that brought it). What the archive already
holds is not asked again: a merged PR or an issue is settled; an open PR, a number GitHub
did not have and a commit no PR merged are asked again only when the answer is older than
the fix it is checked for. `look_up` caps the requests; what was not asked (the cap
reached, GitHub failing) is said in the radar's notes, the radar is marked incomplete, and
it is never shown as a culprit.

Each culprit is shown with its upstream PR's title, author and merge time (the item it was
confirmed with) and whether upstream has since reverted it (the archive's merged "Revert …"
PRs; `bot.features.radar.culprits`): nothing more is asked of GitHub for them. A person may
say a culprit is wrong (`correct`: `/vllm-radar wrong`, `vllm-report radar wrong`); every
radar after applies it, and counts it against its precision.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.collect.numbers import PER_QUERY
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.radar.collect_pins import PinHistory
from bot.features.radar.culprits import corrected, detailed
from bot.features.radar.forecast import Forecast
from bot.features.radar.model import (
    UPSTREAM,
    Correction,
    Culprit,
    OpenBreak,
    PluginLink,
    Radar,
    Unread,
)
from bot.features.radar.open_breakage import OPEN_LOOK_BACK, open_breaks
from bot.features.radar.outline import RadarPart
from bot.features.radar.reading import culprits, fact_key, plugin_links, verify
from bot.features.radar.store_corrections import RadarCorrections, Reverts
from bot.features.radar.warnings import Warnings, culprits_by_plugin
from bot.model.asking import AskError, did_you_mean
from bot.model.report import ActivityItem, Report
from bot.model.windows import Window
from bot.store import Span

if TYPE_CHECKING:
    from bot.features import FeatureContext

log = logging.getLogger(__name__)

EVER = Span(datetime(1970, 1, 1, tzinfo=UTC), datetime(9999, 1, 1, tzinfo=UTC))
# How many requests one radar may make to ask GitHub about upstream numbers and commits
# (each is asked once and archived): with a token a request asks about up to 100 numbers (a
# year names about 350) and one commit; without one, one number or commit. A daily
# report's day names a handful; a month or a year asked for, a few hundred at most.
LOOK_UP = 30
LOOK_UP_ASKED = 200


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
        self.corrections = RadarCorrections.of_store(archiver.store)
        self.reverts = Reverts.of_store(archiver.store)
        self.history = PinHistory(archiver)
        self.warnings = Warnings(archiver, self.plugins, clock)

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

    def radar(
        self,
        window: Window,
        plugin: str | None = None,
        *,
        look_up: int = LOOK_UP_ASKED,
        predict: bool = False,
    ) -> Radar:
        """The radar of `window` (one plugin, or every watched one). `look_up`: how many
        requests may ask GitHub about the upstream numbers and commits the archive has no
        answer for (archived, so free on every later look) to check the culprits.
        `predict`: with its warnings (`forecast`), read last, after everything else."""
        now = self.clock()
        watched = (plugin,) if plugin else self.plugins
        links: list[PluginLink] = []
        still_open: list[OpenBreak] = []
        notes: list[str] = []
        unread: list[Unread] = []
        complete = True
        moment = min(window.end, now)
        for repo in watched:
            try:
                archived = self.archiver.window(repo, window, now)
                # What was still open at the end may have been opened before the window.
                looked = Span(window.end - OPEN_LOOK_BACK, window.end)
                notes += [f"{repo}: {note}" for note in self.archiver.span(repo, looked, now)]
            except CollectError as exc:  # one plugin unreadable: the others still count
                complete = False
                unread.append(Unread(repo, str(exc)))
                notes.append(unread[-1].note)
                # GitHub's whole sentence, for -v (people are told it short: render.py).
                log.info("radar: %s", unread[-1].note)
                continue
            complete = complete and archived.complete
            notes += [f"{repo}: {note}" for note in archived.notes]
            items = self.archiver.items(repo, Span(window.start, window.end))
            recent = self.archiver.items(repo, looked)
            # A bare #N above the plugin's own numbers cannot be one of them.
            own_max = max((it.number for it in (*items, *recent)), default=0)
            links += plugin_links(repo, items, own_max)
            still_open += open_breaks(repo, recent, moment, own_max)
        checked = self._checked(links, look_up, now)
        links, applied = corrected(checked.links, self.corrections.of(watched))
        notes = [*notes, *checked.notes]
        complete = complete and not checked.notes
        pins = tuple(self.history.at(repo, window.end, now) for repo in watched)
        links.sort(key=lambda link: (link.at, link.plugin_repo, link.number), reverse=True)
        found = self._detailed(culprits(links, checked.titles), checked.items)
        # A fix in review already shown under its culprit is not told again as open.
        shown = {(f.plugin_repo, f.number) for c in found for f in c.fixes}
        still_open = _uncorrected(still_open, self.corrections.of(watched))
        still_open.sort(key=lambda b: (b.opened_at, b.plugin_repo, b.number))
        forecast = self._forecast(window, plugin, found) if predict else None
        return Radar(
            window=window,
            plugins=watched,
            links=tuple(links),
            culprits=tuple(found),
            pins=pins,
            complete=complete,
            notes=tuple(notes),
            late_after_days=self.late_after_days,
            corrections=applied,
            open=tuple(b for b in still_open if (b.plugin_repo, b.number) not in shown),
            unread=tuple(unread),
            forecast=forecast,
        )

    def _forecast(self, window: Window, plugin: str | None, found: list[Culprit]) -> Forecast:
        """Every watched plugin's warnings, kept and graded (the culprits confirm or count
        as missed); one plugin's read alone, nothing kept or graded."""
        if plugin is None:
            return self.warnings.forecast(window, culprits_by_plugin(found))
        return self.warnings.alone(plugin).forecast(window, keep=False)

    def forecast(self, window: Window, plugin: str | None = None) -> Forecast:
        """`vllm-report radar --predict`: the warnings alone, the window's vLLM PRs
        collected first (the archive's when it holds them); kept and graded as the daily
        run's over every watched plugin (a plugin PR naming a warned PR: the daily run's)."""
        for note in self.archiver.window(UPSTREAM, window, self.clock()).notes:
            log.info("radar: %s", note)
        alone = self.warnings if plugin is None else self.warnings.alone(plugin)
        return alone.forecast(window, keep=plugin is None)

    def last_forecast(self, plugin: str | None = None) -> Forecast | None:
        """The warnings the last run made, from the archive alone (`/vllm-radar predict`)."""
        held = self.warnings.latest()
        return held.of_plugins((plugin,)) if held is not None and plugin else held

    def archived(self, window: Window) -> Radar | None:
        """The radar of `window` from the archive alone, over the watched plugins whose
        window (and look-back) the archive holds (a daily run, or `radar`, read them): the
        Plugins section `show`, a slash command and the site add to that day's report, the
        one the run posted. None when it holds none: a person's look at a day never asks
        GitHub about six plugins."""
        span = Span(min(window.start, window.end - OPEN_LOOK_BACK), window.end)
        if not window.is_past(self.clock()):
            return None
        # The plugins the run read (one watched since, or one GitHub failed on, is not).
        read = tuple(
            repo for repo in self.plugins if not self.archiver.store.coverage.gaps(repo, span)
        )
        if not read:
            return None
        reader = RadarService(self.archiver.reading_only(), read, self.clock, self.late_after_days)
        forecast = self.warnings.archived(window)
        forecast = forecast.of_plugins(read) if forecast is not None else None
        return replace(reader.radar(window, look_up=0), forecast=forecast)

    def _detailed(self, found: list[Culprit], items: dict[int, ActivityItem]) -> list[Culprit]:
        """The culprits with their authors, merge times and reverts, from the archive."""
        merged = [
            item.merged_at
            for c in found
            if c.ref.number is not None
            and (item := items.get(c.ref.number)) is not None
            and item.merged_at is not None
        ]
        if not merged:
            return found
        reverts = self.reverts.merged_since(UPSTREAM, min(merged))
        covered = [(span.start, span.end) for span in self.archiver.store.coverage.spans(UPSTREAM)]
        return detailed(found, items, reverts, covered)

    def broken_by(self, number: int) -> list[PluginLink]:
        """The archived plugin fixes that name upstream #number as what broke them (what
        `explain` says of an upstream PR), checked as the radar checks them. From the archive
        alone: no request."""
        found = []
        for repo in self.plugins:
            items = self.archiver.items(repo, EVER)
            own_max = max((it.number for it in items), default=0)
            named = [
                link
                for link in plugin_links(repo, items, own_max)
                if link.relation == "breakage-fix"
                and any(r.cause and (r.number in (None, number)) for r in link.upstream)
            ]
            checked, _ = corrected(
                self._checked(named, 0, self.clock()).links, self.corrections.of()
            )
            found += [
                link for link in checked if any(ref.number == number for ref in link.confirmed)
            ]
        return found

    def correct(self, plugin_pr: str, upstream_pr: str, by: str) -> str:
        """Keep a person's word that `upstream_pr` did not break `plugin_pr` (`vllm-ascend#123`,
        `ascend#123` or its URL; `45678`, `#45678`, `vllm#45678` or its URL): every later
        radar leaves it out. The answer in one sentence; AskError (one sentence) for a PR
        that is not one, a plugin not watched, or a pair the radar never claimed. From the
        archive alone: no request."""
        repo, number = self._plugin_pr(plugin_pr)
        upstream = _upstream_number(upstream_pr)
        name = f"{repo.split('/', 1)[1]}#{number}"
        claimed = self._claimed(repo, number)
        if claimed is None:
            raise AskError(
                f"{name} is not in the archive: the radar never read it, so it named no "
                "culprit for it."
            )
        earlier = {c.key: c for c in self.corrections.of([repo])}
        if (repo, number, upstream) in earlier:
            said = earlier[(repo, number, upstream)]
            return (
                f"vllm#{upstream} was already corrected as not what broke {name} "
                f"(by {said.by} on {said.at.date().isoformat()}); the radar does not show it."
            )
        if upstream not in claimed:
            named = ", ".join(f"vllm#{n}" for n in sorted(claimed))
            also = f" (it names {named})" if named else " (it names no culprit for it)"
            raise AskError(f"the radar never named vllm#{upstream} as what broke {name}{also}.")
        self.corrections.add(Correction(repo, number, upstream, by, self.clock()))
        left = sorted(claimed - {upstream})
        rest = (
            f"it still names {', '.join(f'vllm#{n}' for n in left)}"
            if left
            else "it shows as unattributed"
        )
        return (
            f"Noted: vllm#{upstream} did not break {name}. The radar no longer shows it as "
            f"that fix's culprit; {rest}."
        )

    def _plugin_pr(self, said: str) -> tuple[str, int]:
        """A watched plugin's PR as typed: its repository and number."""
        found = _PLUGIN_PR.match(said.strip())
        if found is None:
            raise AskError(
                f"'{said}' is not a plugin PR: say it as plugin#number, e.g. vllm-ascend#3221."
            )
        number = found.group("n")
        if number.startswith("0"):
            raise AskError(f"'{said}' is not a plugin PR: its number has a leading zero.")
        return self.plugin(found.group("name")), int(number)

    def _claimed(self, repo: str, number: int) -> set[int] | None:
        """The upstream PRs the radar names as what broke `repo#number`, corrected or not
        (from the archive: a fix the radar showed is archived, and so is what it checked);
        None when the archive does not hold it."""
        items = self.archiver.named(repo, [number])
        if not items:
            return None
        # Its own number as the plugin's highest: every reading of a window holding it
        # reads at most these as upstream.
        links = plugin_links(repo, items, number)
        checked = self._checked(links, 0, self.clock()).links
        return {
            ref.number
            for link in checked
            if link.relation == "breakage-fix"
            for ref in link.confirmed
            if ref.number is not None
        }

    def _checked(self, links: list[PluginLink], look_up: int, now: datetime) -> Checked:
        """The links with their causes checked against what GitHub says of them (asking it
        about at most `look_up` the archive cannot answer), and the culprits' titles."""
        wanted: dict[str, datetime] = {}
        # A fix's causes before an upgrade's, so a capped look-up checks culprits first.
        for link in sorted(links, key=lambda link: link.relation != "breakage-fix"):
            for ref in link.upstream:
                if ref.cause:
                    key = fact_key(ref)
                    wanted[key] = max(wanted.get(key, link.at), link.at)
        facts, asked, failure = self._facts(wanted, look_up, now)
        checked = [verify(link, facts) for link in links]
        unverified = sorted({k for k in wanted if k not in facts})
        notes = []
        if unverified:
            why = failure or (
                f"one radar makes at most {look_up} requests to GitHub for them"
                if self.archiver.fetch
                else "only the archive was read"
            )
            shown = ", ".join(key[:9] for key in unverified[:8])  # a commit by its short sha
            rest = unverified[8:]
            more = f" and {len(rest)} more" if rest else ""
            notes.append(
                f"{len(unverified)} upstream changes named as causes could not be checked "
                f"with GitHub ({why}): {shown}{more}; they are not shown as culprits"
            )
        if asked:
            log.info("radar: asked GitHub about %d upstream numbers and commits", asked)
        titles = {f"#{item.number}": item.title for item in facts.values() if item is not None}
        items = {item.number: item for item in facts.values() if item is not None}
        return Checked(checked, titles, tuple(notes), items)

    def _facts(
        self, wanted: dict[str, datetime], look_up: int, now: datetime
    ) -> tuple[dict[str, ActivityItem | None], int, str | None]:
        """What GitHub says of each wanted number or commit: from the archive when it can
        tell, else asked (up to `look_up`, stopping at the first failure). Also how many
        were asked, and the failure."""
        answers = self.archiver.looked_up(UPSTREAM, wanted)
        numbers = {int(key[1:]) for key in wanted if key.startswith("#")}
        numbers |= {a.number for a in answers.values() if a.number is not None}
        items = {it.number: it for it in self.archiver.named(UPSTREAM, numbers)}
        facts: dict[str, ActivityItem | None] = {}
        unknown = []
        for key, fixed_at in wanted.items():
            answer = answers.get(key)
            fresh = answer is not None and answer.fetched_at >= fixed_at
            known, fact = _archived(key, answer.number if answer else None, fresh, items)
            if known:
                facts[key] = fact
            else:
                unknown.append(key)
        asked, failure = 0, None
        for keys in self._asks(unknown)[:look_up] if self.archiver.fetch else ():
            try:
                if keys[0].startswith("#"):
                    batch = [int(key[1:]) for key in keys]
                    facts.update(self.archiver.look_up_numbers(UPSTREAM, batch, now))
                else:
                    facts[keys[0]] = self.archiver.look_up(UPSTREAM, keys[0], now)
            except CollectError as exc:  # GitHub down or the limit spent: the rest unasked
                failure = f"GitHub could not be read: {exc}"
                break
            asked += len(keys)
        return facts, asked, failure

    def _asks(self, unknown: list[str]) -> list[list[str]]:
        """The requests that ask GitHub about `unknown`, in order, a list of keys each. With
        a token the numbers go first, PER_QUERY to a GraphQL request (a year's few hundred
        causes: a handful of requests); a commit is one REST request. Without one, one REST
        request each, a fix's causes first (as `unknown` is ordered)."""
        if not self.archiver.source.token:
            return [[key] for key in unknown]
        numbers = [key for key in unknown if key.startswith("#")]
        batches = [numbers[i : i + PER_QUERY] for i in range(0, len(numbers), PER_QUERY)]
        return [*batches, *([key] for key in unknown if not key.startswith("#"))]


@dataclass(frozen=True)
class Checked:
    links: list[PluginLink]  # each cause with GitHub's verdict
    titles: dict[str, str]  # upstream PRs' titles by `#N`, as archived
    notes: tuple[str, ...]  # what could not be checked
    items: dict[int, ActivityItem]  # the upstream items GitHub confirmed them with, by number


# A plugin PR as people write it: `vllm-ascend#3221`, `ascend#3221`,
# `vllm-project/vllm-ascend#3221`, or its URL (`…/pull/3221`, `…/issues/3221`).
_PLUGIN_PR = re.compile(
    r"^(?:https?://(?:www\.)?github\.com/)?(?:[\w.-]+/)?(?P<name>[\w.-]+)"
    r"(?:#|/pull/|/issues/)(?P<n>\d{1,7})/?$",
    re.I,
)
# An upstream PR: `45678`, `#45678`, `vllm#45678`, `vllm-project/vllm#45678`, or its URL.
_UPSTREAM_PR = re.compile(
    r"^(?:https?://(?:www\.)?github\.com/vllm-project/vllm/pull/|(?:vllm-project/)?vllm#|#)?"
    r"(?P<n>[1-9]\d{0,6})/?$",
    re.I,
)


def _upstream_number(said: str) -> int:
    found = _UPSTREAM_PR.match(said.strip())
    if found is None:
        raise AskError(
            f"'{said}' is not an upstream PR number: say it as 45678, #45678 or vllm#45678."
        )
    return int(found.group("n"))


def _archived(
    key: str, found: int | None, fresh: bool, items: dict[int, ActivityItem]
) -> tuple[bool, ActivityItem | None]:
    """Whether the archive can say what GitHub says of `key`, and what. `found`: the
    number an earlier lookup found (a commit's PR); `fresh`: that lookup is newer than the
    fix. Settled: an issue, a closed (or merged) PR, a commit's merged PR. Not settled (asked
    again unless `fresh`): an open PR, a number GitHub did not have, a commit no PR merged."""
    if not key.startswith("#"):  # a commit: only a lookup tells which PR merged it
        merged = items.get(found) if found is not None else None
        if merged is not None:
            return True, merged
        return (True, None) if fresh and found is None else (False, None)
    item = items.get(int(key[1:]))
    if item is None:
        return (True, None) if fresh and found is None else (False, None)
    settled = item.kind == "issue" or item.closed_at is not None
    return (True, item) if settled or fresh else (False, None)


def with_radar(report: Report, radar: RadarService, *, ask: bool = True) -> Report:
    """The daily report with its plugins' radar: the plugins are vLLM's, so a report of
    another repository (VLLM_REPORT_REPO) or an empty VLLM_REPORT_PLUGINS has none.
    `ask` False: the radar the archive holds for the day (`archived`), if any."""
    if report.repo != UPSTREAM or not radar.plugins:
        return report
    window = report.window
    found = radar.radar(window, look_up=LOOK_UP, predict=True) if ask else radar.archived(window)
    return report.with_part(RadarPart(found)) if found is not None else report


def plugins_unread(
    plugins: Sequence[str], report: Report, topic: str | None, now: datetime
) -> str | None:
    """What `show` says beside a past day's report that has no Plugins section because no
    run read the plugins that day (a person's look never asks GitHub about six plugins: a
    day is about 25 searches and the pins, and needs a token), and how to get it; None
    when the section is there, had no news, or is not the report's to have."""
    window = report.window
    one_day = timedelta(hours=23) <= window.duration <= timedelta(hours=25)
    if not plugins or report.repo != UPSTREAM or topic is not None or report.part("plugins"):
        return None
    if not one_day or not window.is_past(now):
        return None
    return (
        f"no Plugins section: the plugins were not read for {window.label} (the daily run "
        f"reads them); `vllm-report radar {window.label}` reads them, then `show` has it"
    )


def _uncorrected(found: list[OpenBreak], said: Sequence[Correction]) -> list[OpenBreak]:
    """Open breakage without the causes people said were wrong; an item whose every named
    cause was corrected is left out (the radar said it was broken by those alone)."""
    wrong = {(c.plugin_repo, c.plugin_number, f"#{c.upstream_number}") for c in said}
    kept = []
    for item in found:
        causes = tuple(k for k in item.upstream if (item.plugin_repo, item.number, k) not in wrong)
        if item.upstream and not causes:
            continue
        kept.append(replace(item, upstream=causes))
    return kept


def radar_service(ctx: FeatureContext) -> RadarService:
    """The breakage radar over the watched plugins (VLLM_REPORT_PLUGINS)."""
    settings = ctx.settings
    return RadarService(ctx.archiver, settings.plugin_list, ctx.clock, settings.pin_lag_days)
