"""The pipeline on one screen: archive check → collect what is missing → store → analyze.

A window already covered by the archive costs zero GitHub requests. A past window that is
not is fetched with the search API; the window in progress (or one that ended minutes ago,
before GitHub's search index caught up) by incremental sync from the stored cursor.
Whatever is fetched is stored before it is reported, and only a complete fetch records
coverage, so an interrupted run never leaves a window that looks whole.

A full report also needs the seven days before the window (trends; searched once, then
archived like any window) and the comment threads of the likeliest hot discussions (one
request each, at most `CANDIDATES`, skipped when a thread was read after the window ended).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.analyze import analyze, build_report
from bot.analyze.discussions import candidates
from bot.analyze.topics import classify
from bot.analyze.trends import BASELINE_DAYS
from bot.collect import Collected, Collector
from bot.prose import ProseWriter
from bot.report import ActivityItem, CommentRecord, Report
from bot.store import Span, Store
from bot.topic_rules import TopicRules
from bot.windows import Window, format_local

log = logging.getLogger(__name__)

# GitHub's search index trails events by seconds to minutes: a window that ended this
# recently is synced from the issues listing instead of searched.
SEARCH_INDEX_LAG = timedelta(minutes=10)
# Clocks differ a little; coverage from a sync stops this far before our own "now".
CLOCK_MARGIN = timedelta(minutes=2)
CURSOR_REUSE = timedelta(days=1)


class ReportPipeline:
    """Answers "what happened in this window?" from the archive, fetching only what is missing."""

    def __init__(
        self,
        store: Store,
        repo: str,
        collector_factory: Callable[[], Collector],
        rules: TopicRules | None = None,
        prose: ProseWriter | None = None,
    ) -> None:
        self.store = store
        self.repo = repo
        self.rules = rules
        self.prose = prose
        self._collector_factory = collector_factory
        self._collector: Collector | None = None

    @property
    def collector(self) -> Collector:
        # Built on first use, so a fully archived window never even opens a connection.
        if self._collector is None:
            self._collector = self._collector_factory()
        return self._collector

    def close(self) -> None:
        if self._collector is not None:
            self._collector.close()

    def report(self, window: Window, *, now: datetime, refresh: bool = False) -> Report:
        """The five counts and lists (no sections): the cheapest answer."""
        notes, complete = self._window(window, now, refresh)
        items = self.store.items_touching(self.repo, Span(window.start, window.end))
        return build_report(
            items, window, repo=self.repo, complete=complete, notes=notes, generated_at=now
        )

    def full_report(
        self,
        window: Window,
        *,
        now: datetime,
        refresh: bool = False,
        topic: str | None = None,
        lang: str = "en",
    ) -> Report:
        """Counts, lists and every section; with `topic`, only that topic's items."""
        if self.rules is None:
            raise ValueError("full_report needs topic rules")
        rules = self.rules
        notes, complete = self._window(window, now, refresh)
        baseline = Span(window.start - timedelta(days=BASELINE_DAYS), window.start)
        notes += self.collect(baseline, now=now, refresh=False)
        baseline_days = self._covered_days(baseline)
        if baseline_days < BASELINE_DAYS:
            notes.append(f"trend baseline: {baseline_days} of {BASELINE_DAYS} days archived")
        items = self.store.items_touching(self.repo, Span(window.start, window.end))
        baseline_items = self.store.items_touching(self.repo, baseline)
        if topic is not None:
            items = [it for it in items if topic in classify(it, rules)]
            baseline_items = [it for it in baseline_items if topic in classify(it, rules)]
        counts = build_report(items, window, repo=self.repo, complete=complete)
        comments = self._threads(list(counts.items.values()), window, now, rules)
        report = analyze(
            items,
            window,
            repo=self.repo,
            rules=rules,
            complete=complete,
            baseline_items=baseline_items,
            baseline_days=baseline_days,
            comments=comments,
            notes=notes,
            generated_at=now,
        )
        if self.prose is None:
            return report
        prose, problem = self.prose.write(report, lang)
        if problem:
            return replace(report, notes=(*report.notes, problem))
        return replace(report, prose=prose)

    # -- collection --------------------------------------------------------------------

    def _window(self, window: Window, now: datetime, refresh: bool) -> tuple[list[str], bool]:
        span = Span(window.start, window.end)
        notes = self.collect(span, now=now, refresh=refresh)
        remaining = self.store.gaps(self.repo, Span(window.start, min(window.end, now)))
        if not window.is_past(now):
            local_now = now.astimezone(window.start.tzinfo)
            notes.append(f"window in progress: activity up to {format_local(local_now)}")
        elif remaining:
            notes.append("some of this window could not be collected: counts may be low")
        return notes, window.is_past(now) and not remaining

    def collect(self, span: Span, *, now: datetime, refresh: bool = False) -> list[str]:
        """Fetch and store whatever part of `span` the archive does not cover yet."""
        wanted = Span(span.start, min(span.end, now))
        if wanted.end <= wanted.start:
            return []
        gaps = [wanted] if refresh else self.store.gaps(self.repo, wanted)
        if not gaps:
            log.info("%s..%s answered from the archive", wanted.start, wanted.end)
            return []
        if span.end <= now - SEARCH_INDEX_LAG:
            return self._search(gaps, now)
        return self._sync(gaps[0].start, now)

    def _search(self, gaps: list[Span], now: datetime) -> list[str]:
        notes: list[str] = []
        for gap in gaps:
            collected = self.collector.search_span(gap.start, gap.end)
            self._save(collected, now)
            if collected.complete:
                self.store.add_coverage(self.repo, gap, "search", now)
            notes.extend(collected.notes)
        return notes

    def _sync(self, gap_start: datetime, now: datetime) -> list[str]:
        # In steady state the archive ends where the cursor is; an older cursor (the bot was
        # down for days) is not worth replaying in full, the gap's start is enough.
        cursor = self.store.sync_cursor(self.repo)
        reuse = cursor is not None and gap_start - CURSOR_REUSE <= cursor <= gap_start
        since = cursor if reuse and cursor is not None else gap_start
        collected = self.collector.updated_since(since)
        self._save(collected, now)
        covered_until = now - CLOCK_MARGIN
        if collected.complete and covered_until > since:
            self.store.add_coverage(self.repo, Span(since, covered_until), "sync", now)
            self.store.set_sync_cursor(self.repo, covered_until, now)
        return collected.notes

    def _save(self, collected: Collected, now: datetime) -> None:
        saved = self.store.save_items(collected.items.values(), now)
        log.info("stored %d items", saved)

    def item(self, number: int, now: datetime) -> ActivityItem:
        """One item from the archive, fetched (one request) when it is not there."""
        found = self.store.item(self.repo, number)
        if found is None:
            found = self.collector.fetch_item(number)
            self.store.save_items([found], now)
        return found

    def _covered_days(self, span: Span) -> int:
        uncovered = sum(
            (gap.end - gap.start for gap in self.store.gaps(self.repo, span)), timedelta()
        )
        return max(0, round(((span.end - span.start) - uncovered) / timedelta(days=1)))

    def _threads(
        self, items: list[ActivityItem], window: Window, now: datetime, rules: TopicRules
    ) -> dict[int, list[CommentRecord]]:
        """Comment threads of the hot-discussion candidates, read once per window."""
        wanted = candidates(items, window, rules)
        span = Span(window.start, min(window.end, now))
        for number in wanted:
            if self.store.comments_known(self.repo, number, span):
                continue
            thread = self.collector.comments_since(number, window.start)
            self.store.save_comments(self.repo, number, thread, window.start, now)
        return self.store.comments_for(self.repo, wanted)
