"""The pipeline on one screen: archive check → collect what is missing → store → analyze.

A window already covered by the archive costs zero GitHub requests. A past window that is
not is fetched with the search API; the window in progress (or one that ended minutes ago,
before GitHub's search index caught up) by incremental sync from the stored cursor.
Whatever is fetched is stored before it is reported, and only a complete fetch records
coverage, so an interrupted run never leaves a window that looks whole.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.analyze import build_report
from bot.collect import Collected, Collector
from bot.report import Report
from bot.store import Span, Store
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
    ) -> None:
        self.store = store
        self.repo = repo
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
        notes = self.collect(window, now=now, refresh=refresh)
        wanted = Span(window.start, min(window.end, now))
        remaining = self.store.gaps(self.repo, wanted)
        complete = window.is_past(now) and not remaining
        if not window.is_past(now):
            local_now = now.astimezone(window.start.tzinfo)
            notes.append(f"window in progress: activity up to {format_local(local_now)}")
        elif remaining:
            notes.append("some of this window could not be collected: counts may be low")
        items = self.store.items_touching(self.repo, Span(window.start, window.end))
        return build_report(
            items, window, repo=self.repo, complete=complete, notes=notes, generated_at=now
        )

    def collect(self, window: Window, *, now: datetime, refresh: bool = False) -> list[str]:
        """Fetch and store whatever part of `window` the archive does not cover yet."""
        wanted = Span(window.start, min(window.end, now))
        gaps = [wanted] if refresh else self.store.gaps(self.repo, wanted)
        if not gaps:
            log.info("window %s answered from the archive", window.label)
            return []
        if window.end <= now - SEARCH_INDEX_LAG:
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
