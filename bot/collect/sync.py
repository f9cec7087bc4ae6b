"""What to fetch: make sure a span of time is in the archive, asking GitHub only for gaps.

A span the archive covers costs zero requests. A past gap is fetched with the search API;
the window in progress (or one that ended minutes ago, before GitHub's search index caught
up) by incremental sync from the stored cursor. Whatever is fetched is stored before it is
reported, and only a complete fetch records coverage, so an interrupted run never leaves a
window that looks whole. Comment threads are read once per window, for the items asked.

PyGithub is imported only when a gap must be fetched (see `default_collector`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.collect.source import Collected, GitHubSource
from bot.model.report import ActivityItem, CommentRecord, PullDetails
from bot.model.windows import Release, Window, WindowError, format_local
from bot.store import Lookup, Span, Store

if TYPE_CHECKING:
    from bot.collect.client import Collector

log = logging.getLogger(__name__)

# GitHub's search index trails events by seconds to minutes: a window that ended this
# recently is synced from the issues listing instead of searched.
SEARCH_INDEX_LAG = timedelta(minutes=10)
# Clocks differ a little; coverage from a sync stops this far before our own "now".
CLOCK_MARGIN = timedelta(minutes=2)
CURSOR_REUSE = timedelta(days=1)


# How long the newest release read stays the answer to `since last release`: vLLM releases
# about twice a month, so an hour late is at worst an hour of a new release's news missed.
RELEASES_FRESH = timedelta(hours=1)


def _spellings(tag: str) -> tuple[str, ...]:
    """A tag as typed and as vLLM writes it: `0.33.0` is `v0.33.0`."""
    return (tag,) if tag.startswith("v") else (tag, f"v{tag}")


@dataclass(frozen=True)
class Archived:
    """A window made sure of: whether the archive now holds all of it, and what to tell."""

    complete: bool
    notes: tuple[str, ...]


def default_collector(source: GitHubSource) -> Collector:
    from bot.collect.client import Collector

    return Collector(source)


class Archiver:
    """Answers "is this span archived?" by fetching only what is missing."""

    def __init__(
        self,
        store: Store,
        source: GitHubSource,
        collector: Callable[[GitHubSource], Collector] = default_collector,
        fetch: bool = True,
    ) -> None:
        self.store = store
        self.source = source
        self._make_collector = collector
        self.fetch = fetch  # False: answer from the archive alone (the site, charts)

    @property
    def make_collector(self) -> Callable[[GitHubSource], Collector]:
        """How this archive opens a GitHub client (the review queue opens its own the same way)."""
        return self._make_collector

    def reading_only(self) -> Archiver:
        """The same archive, never asking GitHub (what it lacks stays missing, and says so)."""
        return Archiver(self.store, self.source, self._make_collector, fetch=False)

    def window(self, repo: str, window: Window, now: datetime, refresh: bool = False) -> Archived:
        """Collect the window's gaps; complete when it has ended and nothing is missing."""
        notes = self.span(repo, Span(window.start, window.end), now, refresh)
        remaining = self.store.coverage.gaps(repo, Span(window.start, min(window.end, now)))
        if not window.is_past(now):
            local_now = now.astimezone(window.start.tzinfo)
            notes.append(f"window in progress: activity up to {format_local(local_now)}")
        elif remaining:
            notes.append("some of this window could not be collected: counts may be low")
        return Archived(window.is_past(now) and not remaining, tuple(notes))

    def span(self, repo: str, span: Span, now: datetime, refresh: bool = False) -> list[str]:
        """Fetch and store whatever part of `span` the archive does not cover yet."""
        wanted = Span(span.start, min(span.end, now))
        if wanted.end <= wanted.start:
            return []
        gaps = [wanted] if refresh else self.store.coverage.gaps(repo, wanted)
        if not gaps or not self.fetch:
            log.info("%s..%s answered from the archive", wanted.start, wanted.end)
            return []
        with self.github(repo) as github:
            if span.end <= now - SEARCH_INDEX_LAG:
                return self._search(repo, github(), gaps, now)
            return self._sync(repo, github(), gaps[0].start, now)

    def items(self, repo: str, span: Span) -> list[ActivityItem]:
        return self.store.items.touching(repo, span)

    def covers(self, repo: str, spans: Sequence[Span]) -> list[bool]:
        """For each of `spans`, whether the archive holds all of it."""
        held = self.store.coverage.spans(repo)
        return [any(h.start <= s.start and s.end <= h.end for h in held) for s in spans]

    def threads(
        self, repo: str, numbers: Iterable[int], window: Window, now: datetime
    ) -> dict[int, list[CommentRecord]]:
        """The comment threads of `numbers`, each read once per window (one request each)."""
        wanted = list(numbers)
        span = Span(window.start, min(window.end, now))
        unread = [n for n in wanted if not self.store.threads.known(repo, n, span)]
        if unread and self.fetch:
            with self.github(repo) as github:
                for number in unread:
                    thread = github().comments_since(number, window.start)
                    self.store.threads.save(repo, number, thread, window.start, now)
        return self.store.threads.of(repo, wanted)

    def pull_details(
        self, repo: str, items: Iterable[ActivityItem], now: datetime
    ) -> dict[int, PullDetails]:
        """Size and reviewers of these PRs, read from GitHub only when the stored copy is older
        than the item (a merged PR is read once)."""
        wanted = [it for it in items if it.kind == "pr"]
        known = self.store.pulls.of(repo, [it.number for it in wanted])
        found = {n: details for n, (details, _) in known.items()}
        stale = [
            it for it in wanted if it.number not in known or known[it.number][1] < it.updated_at
        ]
        if stale and self.fetch:
            with self.github(repo) as github:
                read = github().pulls_details([(it.number, it.author) for it in stale])
                for item, details in zip(stale, read, strict=True):
                    self.store.pulls.save(repo, details, item.updated_at, now)
                    found[item.number] = details
        return found

    def user_exists(self, login: str) -> bool:
        """Whether GitHub knows `login` (one request; someone subscribing asks)."""
        from bot.collect.people import user_exists

        with self.github(self.source.repo) as github:
            return user_exists(github(), login)

    def label_names(self, repo: str) -> list[str]:
        """`repo`'s labels as GitHub has them now (a request per 100)."""
        from bot.collect.people import label_names

        with self.github(repo) as github:
            return label_names(github())

    def release(self, repo: str, tag: str | None, now: datetime) -> Release:
        """When `repo`'s release `tag` came out (None: its newest release that is no
        pre-release), from the archive or GitHub's releases, then its tags (the archive
        keeps what it read; the newest is read again after RELEASES_FRESH). WindowError
        (one sentence) when the repository has no such release or tag."""
        kept = self._kept_release(repo, tag, now)
        if kept is not None:
            return kept
        if not self.fetch:
            raise WindowError(f"the archive holds no release {tag or ''} of {repo}".strip())
        return self._read_release(repo, tag, now)

    def _kept_release(self, repo: str, tag: str | None, now: datetime) -> Release | None:
        if tag is None:
            newest = self.store.releases.newest(repo)
            fresh = newest is not None and (not self.fetch or now - newest[1] < RELEASES_FRESH)
            return newest[0] if newest is not None and fresh else None
        for name in _spellings(tag):
            kept = self.store.releases.of(repo, name)
            if kept is not None:
                return kept
        return None

    def _read_release(self, repo: str, tag: str | None, now: datetime) -> Release:
        from bot.collect.releases import published, tagged

        with self.github(repo) as github:
            found = published(github())
            self.store.releases.save(repo, found, now)
            stable = [r for r, pre in found if not pre]
            if tag is None:
                if not stable:
                    raise WindowError(f"{repo} has published no release on GitHub yet")
                return stable[0]
            by_tag = {r.tag: r for r, _ in found}
            listed = next((by_tag[n] for n in _spellings(tag) if n in by_tag), None)
            if listed is not None:
                return listed
            for name in _spellings(tag):  # a tag with no release: dated by its commit
                dated = tagged(github(), name)
                if dated is not None:
                    self.store.releases.save(repo, [(dated, "rc" in name)], now)
                    return dated
        hint = f"; its newest release is {stable[0].tag}" if stable else ""
        raise WindowError(f"{repo} has no release or tag `{tag}`{hint}")

    def named(self, repo: str, numbers: Iterable[int]) -> list[ActivityItem]:
        """The archived items among `numbers` (items outside a window that it names)."""
        return self.store.items.many(repo, numbers)

    def looked_up(self, repo: str, keys: Iterable[str]) -> dict[str, Lookup]:
        """What GitHub answered before about these numbers (`#N`) and commits (their sha)
        of `repo` (`look_up`): from the archive alone."""
        return self.store.lookups.of(repo, keys)

    def look_up(self, repo: str, key: str, now: datetime) -> ActivityItem | None:
        """Ask GitHub about one number (`#N`: its issue or PR) or commit (its sha: the merged
        pull request that brought it) of `repo`, one request, and archive the answer: the
        item (in the items, with the lookup), or None when GitHub has none."""
        with self.github(repo) as github:
            if key.startswith("#"):
                found = github().find_item(int(key[1:]))
            else:
                pulls = github().pulls_of_commit(key) or []
                merged = [pull for pull in pulls if pull.merged_at is not None]
                found = min(merged, key=lambda pull: pull.merged_at or now) if merged else None
        held = (
            None
            if found is None or key.startswith("#")
            else self.store.items.get(repo, found.number)
        )
        if found is not None and held is not None:
            # A PR from a commit's listing carries no comment or reaction counts: the
            # archive's are kept, the rest (its merge) is newer.
            found = replace(
                found,
                comments=held.comments,
                reactions=held.reactions,
                state_reason=held.state_reason,
            )
        if found is not None:
            self.store.items.save([found], now)
        self.store.lookups.save(repo, key, found.number if found is not None else None, now)
        return found

    def look_up_numbers(
        self, repo: str, numbers: Sequence[int], now: datetime
    ) -> dict[str, ActivityItem | None]:
        """Ask GitHub about these numbers of `repo` at once (`bot.collect.numbers`: one
        GraphQL request per 100 with a token, else one REST request each) and archive each
        answer as `look_up` does; by `#N`."""
        from bot.collect.numbers import items_by_number

        with self.github(repo) as github:
            found = items_by_number(github(), repo, numbers, "the look-up of vLLM numbers")
        held = {it.number: it for it in self.store.items.many(repo, found)}
        kept = {
            number: _keeping(item, held.get(number)) if item is not None else None
            for number, item in found.items()
        }
        self.store.items.save([item for item in kept.values() if item is not None], now)
        for number, item in kept.items():
            self.store.lookups.save(repo, f"#{number}", item.number if item else None, now)
        return {f"#{number}": item for number, item in kept.items()}

    def item(self, repo: str, number: int, now: datetime) -> ActivityItem:
        """One item from the archive, fetched (one request) when it is not there."""
        found = self.store.items.get(repo, number)
        if found is None:
            with self.github(repo) as github:
                found = github().fetch_item(number)
            self.store.items.save([found], now)
        return found

    # -- fetching ------------------------------------------------------------------------

    @contextmanager
    def github(self, repo: str) -> Iterator[Callable[[], Collector]]:
        """A collector for `repo`, opened on first use and closed after (also for readers
        of other archived facts, such as `bot.features.radar.collect_pins`: they check `fetch`
        first)."""
        opened: list[Collector] = []

        def get() -> Collector:
            if not opened:
                opened.append(self._make_collector(replace(self.source, repo=repo)))
            return opened[0]

        try:
            yield get
        finally:
            for collector in opened:
                collector.close()

    def _search(self, repo: str, github: Collector, gaps: list[Span], now: datetime) -> list[str]:
        notes: list[str] = []
        for gap in gaps:
            collected = github.search_span(gap.start, gap.end)
            self._save(collected, now)
            if collected.complete:
                self.store.coverage.add(repo, gap, "search", now)
            notes.extend(collected.notes)
        return notes

    def _sync(self, repo: str, github: Collector, gap_start: datetime, now: datetime) -> list[str]:
        # In steady state the archive ends where the cursor is; an older cursor (the bot was
        # down for days) is not worth replaying in full, the gap's start is enough.
        cursor = self.store.coverage.cursor(repo)
        reuse = cursor is not None and gap_start - CURSOR_REUSE <= cursor <= gap_start
        since = cursor if reuse and cursor is not None else gap_start
        collected = github.updated_since(since)
        self._save(collected, now)
        covered_until = now - CLOCK_MARGIN
        if collected.complete and covered_until > since:
            self.store.coverage.add(repo, Span(since, covered_until), "sync", now)
            self.store.coverage.set_cursor(repo, covered_until, now)
        return collected.notes

    def _save(self, collected: Collected, now: datetime) -> None:
        saved = self.store.items.save(collected.items.values(), now)
        log.info("stored %d items", saved)


def _keeping(found: ActivityItem, held: ActivityItem | None) -> ActivityItem:
    """A looked-up item with what the look-up does not carry (labels, comment and reaction
    counts) kept from the archive's copy: the rest (its state, its merge) is newer."""
    if held is None:
        return found
    return replace(
        found,
        labels=held.labels,
        comments=held.comments,
        reactions=held.reactions,
        state_reason=held.state_reason,
    )
