"""Reports: any window's report, its history, its files — archived → analyzed → (prose).

`Reports.report` answers any window (the CLI's `show`, the slash commands, the daily run,
the site): make sure the window and its 7-day trend baseline are archived, read the
likeliest hot threads and the key-change candidates' sizes, analyze, add the review queue
when asked (`queue`, given by the composition root) and model prose when a writer is
configured. `write` puts a report's Markdown and JSON into the report files. Posting is
the daily run's (bot.service.daily_run).

A report of a past, complete window is kept in memory for a few minutes, behind a lock (the
daily run, the site and slash commands ask from several threads): a slash command asking
for the day the bot just posted costs no recomputation.

A full report of one day knows its past (bot.analyze.continuity): what the reports
published in the 14 days before it featured — a day counts as published when its report
files were written (the daily run, `post`, `backfill`; `show` publishes nothing), so a
day asked for alone, or a first day, stands alone as before. What a published day
featured is worked out again from the archive alone (its window, threads and pull
details as stored; no GitHub request, no trend baseline, no model), once per process: each
day's featuring is remembered, for every copy of this pipeline (`reading_only`,
`facts_only`). It is read from the report as analyzed, before its own past is applied, so
it never depends on the order days were asked in.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from datetime import time as time_of_day
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.analyze import analyze, build_report, candidates, key_change_candidates
from bot.analyze.continuity import LOOKBACK_DAYS, phase, state_at, with_continuity
from bot.analyze.history import history
from bot.analyze.references import referenced
from bot.analyze.topics import classify_all
from bot.analyze.trends import baseline_windows
from bot.collect import deadline
from bot.collect.sync import Archiver
from bot.model.errors import InputError, ServiceError
from bot.model.history import History
from bot.model.query import ReportQuery
from bot.model.report import BASELINE_DAYS, ActivityItem, CommentRecord, Featured, Report
from bot.model.rules import TopicRules
from bot.model.windows import Window, current_day, day_window
from bot.report_files import ReportFiles
from bot.store import Span
from formatters.json_report import render_json
from formatters.markdown import render_markdown
from formatters.outline import featured

if TYPE_CHECKING:
    from bot.prose import ProseWriter

__all__ = ["CHART_DAYS", "ReportQuery", "Reports"]

log = logging.getLogger(__name__)

CHART_DAYS = 14  # the trend charts of a post and a page: the last two weeks of report days
# The review queue is "as GitHub shows it now": it goes with reports made when their window
# closes or soon after (the daily post and its catch-up, 3 days by default), never under an
# older date.
QUEUE_FRESH = timedelta(days=3)
CACHE_SIZE = 64
CACHE_SECONDS = 600.0
FEATURED_KEPT = 256  # report days whose featuring is remembered (a few bytes each)
LANGS = ("en", "zh")  # a day is published when its report files exist in either


class FeaturedDays:
    """What each report day featured, by (repo, label, start), the oldest forgotten first;
    shared by a pipeline's copies, behind a lock of its own."""

    def __init__(self) -> None:
        self._days: OrderedDict[tuple[str, str, datetime], tuple[Featured, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, repo: str, window: Window) -> tuple[Featured, ...] | None:
        with self._lock:
            return self._days.get((repo, window.label, window.start))

    def put(self, repo: str, window: Window, found: tuple[Featured, ...]) -> tuple[Featured, ...]:
        with self._lock:
            self._days[(repo, window.label, window.start)] = found
            while len(self._days) > FEATURED_KEPT:
                self._days.popitem(last=False)
        return found


@dataclass(frozen=True)
class Asking:
    """How a report is being made, as what a feature adds to it needs to know."""

    query: ReportQuery
    ask: bool  # the daily run: read the feature's source fresh (else the archive alone)
    fresh: bool  # the window ended within QUEUE_FRESH (what GitHub shows now still fits it)
    one_day: bool  # a single report day (a range or `7d` has no daily parts)


# A feature's share of every report: its name (for the note when it cannot be added) and
# what adds it (returning the report unchanged when it has nothing to add).
PartSource = tuple[str, Callable[[Report, Asking], Report]]


class Reports:
    def __init__(
        self,
        archiver: Archiver,
        rules: TopicRules,
        files: ReportFiles,
        clock: Callable[[], datetime],
        prose: ProseWriter | None = None,
        parts: Sequence[PartSource] = (),
        featured_days: FeaturedDays | None = None,
    ) -> None:
        self.archiver = archiver
        self.rules = rules
        self.files = files
        self.clock = clock
        self.prose = prose
        # What features add to a report (the review queue, the plugins' radar, Red on main),
        # each by its name, in order; each decides from `Asking` whether and how.
        self.parts = tuple(parts)
        self._cache: OrderedDict[ReportQuery, tuple[float, Report]] = OrderedDict()
        self._lock = threading.Lock()
        # What each report day featured: a day's entry is the same whoever works it out.
        self._featured = featured_days if featured_days is not None else FeaturedDays()

    def report(self, query: ReportQuery) -> Report:
        """The report `query` asks for, fetching only what the archive lacks."""
        cached = self._cached(query)
        if cached is not None:
            return cached
        now, repo, window = self.clock(), query.repo, query.window
        archived = self.archiver.window(repo, window, now, query.refresh)  # 1. archived
        items = self.archiver.items(repo, Span(window.start, window.end))
        notes = list(archived.notes)
        if query.counts_only and query.topic is None:
            return build_report(
                items, window, repo=repo, complete=archived.complete, notes=notes, generated_at=now
            )
        baseline = Span(window.start - timedelta(days=BASELINE_DAYS), window.start)
        notes += self.archiver.span(repo, baseline, now)
        report, threads = self._analyzed(  # 2. analyzed
            self.archiver, repo, window, items, now, archived.complete, notes, query.topic
        )
        report = self._sections(report, query, now)
        if self.prose is not None:  # 3. prose, checked, when a model is configured
            prose, problem = self.prose.write(
                report, query.lang, ask=self.archiver.fetch, threads=threads
            )
            report = replace(report, prose=prose) if prose else report
            if problem:  # the operator's business: readers are not told a server's answers
                log.warning("%s for %s %s", problem, report.repo, window.label)
        self._remember(query, report)
        return report

    def _sections(self, report: Report, query: ReportQuery, now: datetime) -> Report:
        """`report` with the sections other services add: its past, the review queue, the
        plugins' radar and Red on main, each read fresh only by the daily run."""
        window = report.window
        ask = bool(query.queue and self.archiver.fetch)
        if _one_day(window):  # its past, when one was published (a digest's too)
            report = self._continued(report, now, ask and now - window.end <= QUEUE_FRESH)
        asking = Asking(query, ask, now - window.end <= QUEUE_FRESH, _one_day(window))
        for name, add in self.parts:
            report = self._with(name, add, report, asking)
        return report

    def _analyzed(
        self,
        archiver: Archiver,
        repo: str,
        window: Window,
        items: Sequence[ActivityItem],
        now: datetime,
        complete: bool,
        notes: Sequence[str] = (),
        topic: str | None = None,
        *,
        baseline: bool = True,
    ) -> tuple[Report, dict[int, list[CommentRecord]]]:
        """The window analyzed from what `archiver` holds (and fetches, if it may): the
        likeliest hot threads, the key-change candidates' sizes, the items named; with
        `baseline`, the 7 days before it for the trends. Also the threads read."""
        listed = build_report(items, window, repo=repo, complete=complete).items
        shortlist = [
            listed[n] for n in key_change_candidates(list(listed.values()), window, self.rules)
        ]
        hot = candidates(listed.values(), window, self.rules)
        threads = archiver.threads(repo, hot, window, now)
        before = Span(window.start - timedelta(days=BASELINE_DAYS), window.start)
        days_before = [Span(day.start, day.end) for day in baseline_windows(window)]
        report = analyze(
            items,
            window,
            repo=repo,
            rules=self.rules,
            complete=complete,
            baseline_items=archiver.items(repo, before) if baseline else (),
            baseline_covered=archiver.covers(repo, days_before)
            if baseline
            else (False,) * BASELINE_DAYS,
            comments=threads,
            details=archiver.pull_details(repo, shortlist, now),
            context=archiver.named(repo, referenced(listed.values(), repo) - set(listed)),
            notes=notes,
            generated_at=now,
            topic=topic,
        )
        return report, threads

    # -- continuity: what the reports published before featured ------------------------------

    def _continued(self, report: Report, now: datetime, fresh: bool = False) -> Report:
        """`report` with its past (bot.analyze.continuity): nothing changes when no report
        was published in the look-back. The archive alone is read, except when `fresh` (the
        daily run, as its window closes): then the reviews of featured PRs still open are
        read where the archive's copy is older than the PR (one GraphQL request per 50)."""
        repo, window = report.repo, report.window
        if report.complete and report.topic is None:  # what the day features, for later days
            self._featured.put(repo, window, featured(report))
        past = [
            r for day in self._published(repo, window) for r in self._featured_of(repo, day, now)
        ]
        if not past:
            return report
        archived = self.archiver.named(repo, {r.number for r in past})
        last_end = max(r.day_end for r in past)
        between = (
            self.archiver.items(repo, Span(last_end, window.start))
            if last_end < window.start
            else []
        )
        reader = self.archiver if fresh else self.archiver.reading_only()
        still_open = [it for it in archived if phase(state_at(it, window.end)) == "open"]
        details = reader.pull_details(repo, still_open, now)
        verdicts = {n: d.verdicts for n, d in details.items()}
        continued = with_continuity(report, past, archived, between, verdicts)
        return continued if report.topic is None else _of_topic(continued, report.topic, self.rules)

    def _published(self, repo: str, window: Window) -> list[Window]:
        """The report days of the look-back before `window` whose report files were written
        and whose window the archive holds, oldest first."""
        tz = ZoneInfo(window.timezone)
        cutoff = window.start.astimezone(tz).time()
        first = current_day(window.start, tz, cutoff)
        days = [
            day_window(first - timedelta(days=back), tz, cutoff)
            for back in range(LOOKBACK_DAYS, 0, -1)
        ]
        written = [d for d in days if any(self.files.exists(repo, d, lang) for lang in LANGS)]
        held = self.archiver.covers(repo, [Span(d.start, d.end) for d in written])
        return [d for d, ok in zip(written, held, strict=True) if ok]

    def _featured_of(self, repo: str, window: Window, now: datetime) -> tuple[Featured, ...]:
        """What the report of a published day featured, as analyzed (without its own past),
        worked out from the archive alone once per process."""
        found = self._featured.get(repo, window)
        if found is not None:
            return found
        reader = self.archiver.reading_only()
        items = reader.items(repo, Span(window.start, window.end))
        report, _ = self._analyzed(reader, repo, window, items, now, True, baseline=False)
        return self._featured.put(repo, window, featured(report))

    def _with(
        self, part: str, add: Callable[[Report, Asking], Report], report: Report, asking: Asking
    ) -> Report:
        """The report with a feature's part (the review queue, the plugins' radar, Red on
        main); one its source cannot give (an anonymous rate limit, a refused query) is a
        note, never a lost report. Its sources have PART_SECONDS in all: past them, what it
        could not read is said and the report goes on without waiting."""
        try:
            with deadline.limited(f"the {part} section", deadline.PART_SECONDS):
                return add(report, asking)
        except (InputError, ServiceError) as exc:
            log.warning("the report of %s has no %s: %s", report.window.label, part, exc)
            return replace(report, notes=(*report.notes, f"{part}: {exc}"))

    def story_of(self, item: ActivityItem, tz: ZoneInfo, cutoff: time_of_day) -> str:
        """Which story `item` is in, in the report of the day of its last event, and why (a
        sentence for `explain`; the report is made only when the archive holds that day)."""
        last = max(t for t in (item.created_at, item.closed_at, item.merged_at) if t)
        window = day_window(current_day(last, tz, cutoff), tz, cutoff)
        if self.archiver.store.coverage.gaps(item.repo, Span(window.start, window.end)):
            return f"story: {window.label} is not archived (run `vllm-report show {window.label}`)"
        report = self.report(ReportQuery(item.repo, window))
        story = report.sections.story_of(item.number) if report.sections else None
        if story is None or len(story.numbers) == 1:
            return f"story: none on {window.label} (no other item links to it or shares its title)"
        others = [f"#{n}" for n in story.numbers if n not in (item.number, story.lead)]
        lead = "it leads" if story.lead == item.number else f"led by #{story.lead}"
        also = f", with {', '.join(others)}" if others else ""
        return f"story on {window.label}: {lead}{also} ({'; '.join(story.reasons)})"

    def facts_only(self) -> Reports:
        """The same archive, without model prose or the review queue: what `check` judges a
        text against (checking a report must not ask a model to write one)."""
        return Reports(
            self.archiver, self.rules, self.files, self.clock, featured_days=self._featured
        )

    def reading_only(self) -> Reports:
        """A pipeline that answers from the archive alone: no GitHub request, no model call
        (cached model text is used). The site and the charts are built with it."""
        return Reports(
            self.archiver.reading_only(),
            self.rules,
            self.files,
            self.clock,
            self.prose,
            # The archive's parts alone: its archiver never fetches, so nothing is asked.
            parts=self.parts,
            featured_days=self._featured,
        )

    def history(self, repo: str, last: Window, days: int, topic: str | None = None) -> History:
        """The `days` report days ending with `last`'s last day, from the archive alone (a day
        it does not hold is marked so, never fetched here and never drawn as zero)."""
        tz = ZoneInfo(last.timezone)
        cutoff = last.start.astimezone(tz).time()
        final = (last.end.astimezone(tz) - timedelta(days=1)).date()
        windows = [
            day_window(final - timedelta(days=back), tz, cutoff) for back in range(days - 1, -1, -1)
        ]
        return self.history_of(repo, windows, topic)

    def history_of(self, repo: str, windows: Sequence[Window], topic: str | None = None) -> History:
        """One point per window (consecutive report days), from the archive alone."""
        items = self.archiver.items(repo, Span(windows[0].start, windows[-1].end))
        covered = self.archiver.covers(repo, [Span(w.start, w.end) for w in windows])
        return history(items, windows, covered, repo=repo, rules=self.rules, topic=topic)

    def write(self, report: Report, lang: str) -> list[Path]:
        """4. rendered and written: the report's Markdown and JSON files."""
        markdown = render_markdown(report, lang)
        return self.files.write(report, lang, markdown, render_json(report, lang))

    # -- the short-lived memory of finished reports ----------------------------------------

    def _cached(self, query: ReportQuery) -> Report | None:
        if query.refresh:
            return None
        with self._lock:
            entry = self._cache.get(query)
            if entry is None or time.monotonic() - entry[0] > CACHE_SECONDS:
                return None
            self._cache.move_to_end(query)
            return entry[1]

    def _remember(self, query: ReportQuery, report: Report) -> None:
        # Only a whole past window is final enough to reuse; one in progress changes.
        if not report.complete:
            return
        key = replace(query, refresh=False)
        with self._lock:
            self._cache[key] = (time.monotonic(), report)
            self._cache.move_to_end(key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)


def _of_topic(report: Report, topic: str, rules: TopicRules) -> Report:
    """A topic digest's past: what landed since last time, of its topic alone (the day's
    featuring is the full report's; a digest tells its own part of it)."""
    continuity = report.continuity
    if continuity is None:
        return report
    landed = [continuity.items[e.number] for e in continuity.since if e.number in continuity.items]
    ours = {n for n, found in classify_all(landed, rules).items() if topic in found}
    since = tuple(e for e in continuity.since if e.number in ours)
    items = {n: it for n, it in continuity.items.items() if n in ours}
    return replace(report, continuity=replace(continuity, since=since, items=items))


def _one_day(window: Window) -> bool:
    """A single report day (a range, or `7d`, has no past of its own)."""
    return timedelta(hours=23) <= window.duration <= timedelta(hours=25)
