"""Archive first: a covered window costs no request; partial data never passes as whole."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.collect.source import CollectError, GitHubSource
from bot.collect.sync import Archiver
from bot.model.report import ListName, Report
from bot.model.rules import load_rules
from bot.model.windows import Window
from bot.report_files import ReportFiles
from bot.service.reports import ReportQuery, Reports
from bot.store import Span, Store
from tests.anchor_data import REPO, anchor_days
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault

DAY = anchor_days()[1]
WINDOW = Window(DAY.start, DAY.end, "UTC", DAY.label)
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def counts(
    store: Store, fake: FakeGitHub, window: Window, now: datetime = NOW, refresh: bool = False
) -> Report:
    """The counts-only report of `window` as the pipeline answers it at `now`."""
    source = GitHubSource(repo=REPO, api_url=fake.url, request_interval=0, backoff=0.01, retries=2)
    pipeline = Reports(Archiver(store, source), load_rules(), ReportFiles(Path(".")), lambda: now)
    return pipeline.report(ReportQuery(REPO, window, counts_only=True, refresh=refresh))


def test_cold_then_warm(store: Store, fake_github: FakeGitHub) -> None:
    """First ask: four searches. Second ask: zero requests, the same report."""
    cold = counts(store, fake_github, WINDOW, NOW)
    cold_requests = len(fake_github.requests)
    warm = counts(store, fake_github, WINDOW, NOW)
    assert cold_requests == 4
    assert len(fake_github.requests) == cold_requests
    assert warm.lists == cold.lists and warm.complete and cold.complete
    assert warm.stats[ListName.NEW_PRS] == DAY.counts["new_prs"]


def test_refresh_fetches_again_and_sees_changes(store: Store, fake_github: FakeGitHub) -> None:
    """--refresh re-asks GitHub, and an item closed meanwhile moves to the closed list."""
    counts(store, fake_github, WINDOW, NOW)
    number = DAY.lists["new_issues"][0]
    reopened = fake_github.items[number]
    reopened.closed_at = reopened.updated_at = DAY.start + timedelta(hours=23)
    stale = counts(store, fake_github, WINDOW, NOW)
    fresh = counts(store, fake_github, WINDOW, NOW, refresh=True)
    assert number not in stale.lists[ListName.CLOSED_ISSUES]
    assert number in fresh.lists[ListName.CLOSED_ISSUES]


def test_a_failed_collection_records_no_coverage(store: Store, fake_github: FakeGitHub) -> None:
    """GitHub fails mid-way: the error surfaces, and the next run fetches the window again."""
    fake_github.fault_rule = lambda index, path: Fault.server_error() if index >= 2 else None
    with pytest.raises(CollectError):
        counts(store, fake_github, WINDOW, NOW)
    assert store.coverage.gaps(REPO, Span(WINDOW.start, WINDOW.end)) == [
        Span(WINDOW.start, WINDOW.end)
    ]
    fake_github.fault_rule = None
    fake_github.reset_log()
    report = counts(store, fake_github, WINDOW, NOW)
    assert report.complete and len(fake_github.requests) == 4


def test_incomplete_search_gives_an_incomplete_report(
    store: Store, fake_github: FakeGitHub
) -> None:
    """Incomplete search results: complete is false, a note says why, and nothing is covered."""
    fake_github.fail_next(Fault(incomplete=True))
    report = counts(store, fake_github, WINDOW, NOW)
    assert not report.complete
    assert any("timed out" in note for note in report.notes)
    fake_github.reset_log()
    counts(store, fake_github, WINDOW, NOW)
    assert len(fake_github.requests) == 4  # asked again, not served from a partial archive


def _as_of(items: list[FakeItem], moment: datetime) -> list[FakeItem]:
    """GitHub as it looked at `moment`: later items absent, later closures not yet made."""
    seen = []
    for it in items:
        if it.created_at >= moment:
            continue
        copy = FakeItem(**{**it.__dict__})
        if copy.closed_at and copy.closed_at >= moment:
            copy.closed_at = copy.merged_at = None
            copy.updated_at = copy.created_at
        seen.append(copy)
    return seen


def test_live_window_syncs_incrementally_and_the_cursor_survives_restart(
    store_url: str, fake_github: FakeGitHub
) -> None:
    """The window in progress uses issues?since=; after a restart the cursor is reused."""
    now = DAY.start + timedelta(hours=12)
    live = Window(DAY.start, DAY.end, "UTC", DAY.label)
    with FakeGitHub(REPO, _as_of(list(fake_github.items.values()), now)) as fake:
        first_store = Store(store_url)
        partial = counts(first_store, fake, live, now)
        first_store.close()
        assert not partial.complete
        assert any("in progress" in note for note in partial.notes)
        assert {r.path for r in fake.requests} == {f"/repos/{REPO}/issues"}
        assert fake.requests[0].query["since"] == [DAY.start.strftime("%Y-%m-%dT%H:%M:%SZ")]
        expected_new = {n for n in DAY.lists["new_prs"] if fake_github.items[n].created_at < now}
        assert set(partial.lists[ListName.NEW_PRS]) == expected_new

        # A PR arrives; a restarted process syncs from the stored cursor, not the window start.
        arrival = now + timedelta(minutes=30)
        fake.add(FakeItem(99001, "pr", "[Bugfix] arrives later", "dev", [], arrival, arrival))
        fake.reset_log()
        second_store = Store(store_url)
        cursor = second_store.coverage.cursor(REPO)
        again = counts(second_store, fake, live, now + timedelta(hours=1))
        second_store.close()
    assert cursor == now - timedelta(minutes=2)
    assert fake.requests[0].query["since"] == [cursor.strftime("%Y-%m-%dT%H:%M:%SZ")]
    assert len(fake.requests) == 1
    assert set(again.lists[ListName.NEW_PRS]) == expected_new | {99001}


def test_window_edges_through_github_search(store: Store) -> None:
    """Items at start-1s, start, end-1s and end: the search and the trim keep the middle two."""
    second = timedelta(seconds=1)
    moments = {1: WINDOW.start - second, 2: WINDOW.start, 3: WINDOW.end - second, 4: WINDOW.end}
    items = [
        FakeItem(n, "issue", f"[Bug] edge {n}", "dev", [], at, at) for n, at in moments.items()
    ]
    closed_before = WINDOW.start - timedelta(days=3)
    items += [
        FakeItem(10 + n, "pr", f"[CI] edge {n}", "dev", [], closed_before, at, at, at)
        for n, at in moments.items()
    ]
    with FakeGitHub(REPO, items) as fake:
        report = counts(store, fake, WINDOW, NOW)
    assert report.lists[ListName.NEW_ISSUES] == (2, 3)
    assert report.lists[ListName.MERGED_PRS] == (12, 13)
    assert report.lists[ListName.NEW_PRS] == ()
