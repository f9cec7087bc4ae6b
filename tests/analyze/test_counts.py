"""The five counts: exact definitions and exact window edges."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.analyze import build_report
from bot.model.report import ListName
from tests.factories import REPO, WINDOW_0326, item

WINDOW = WINDOW_0326
SECOND = timedelta(seconds=1)
EDGES = {
    "start-1s": (WINDOW.start - SECOND, False),
    "start": (WINDOW.start, True),
    "end-1s": (WINDOW.end - SECOND, True),
    "end": (WINDOW.end, False),
}
BEFORE = datetime(2026, 3, 1, tzinfo=UTC)


def report(*items):
    return build_report(items, WINDOW, repo=REPO, complete=True)


@pytest.mark.parametrize("edge", EDGES)
def test_created_edges(edge: str) -> None:
    """Start is inside, end is outside, to the second, for issues and PRs alike."""
    moment, inside = EDGES[edge]
    result = report(item(1, created_at=moment), item(2, "pr", created_at=moment))
    assert result.lists[ListName.NEW_ISSUES] == ((1,) if inside else ())
    assert result.lists[ListName.NEW_PRS] == ((2,) if inside else ())


@pytest.mark.parametrize("edge", EDGES)
def test_closed_and_merged_edges(edge: str) -> None:
    """Closures and merges use the same half-open window."""
    moment, inside = EDGES[edge]
    result = report(
        item(1, closed_at=moment),
        item(2, "pr", closed_at=moment, merged_at=moment),
        item(3, "pr", closed_at=moment),
    )
    assert result.lists[ListName.CLOSED_ISSUES] == ((1,) if inside else ())
    assert result.lists[ListName.MERGED_PRS] == ((2,) if inside else ())
    assert result.lists[ListName.CLOSED_UNMERGED_PRS] == ((3,) if inside else ())


def test_an_item_can_be_new_and_closed_in_one_window() -> None:
    """Created and merged on the same day: on both lists, counted in both."""
    inside = WINDOW.start + timedelta(hours=1)
    result = report(item(7, "pr", created_at=inside, closed_at=inside, merged_at=inside))
    assert result.stats[ListName.NEW_PRS] == 1
    assert result.stats[ListName.MERGED_PRS] == 1
    assert result.stats[ListName.CLOSED_UNMERGED_PRS] == 0


def test_merged_pr_is_not_a_closed_issue_or_an_unmerged_closure() -> None:
    """PRs never count as issues; a merged PR is not 'closed unmerged'."""
    inside = WINDOW.start + timedelta(hours=3)
    result = report(item(8, "pr", closed_at=inside, merged_at=inside))
    assert result.stats == {
        ListName.NEW_ISSUES: 0,
        ListName.CLOSED_ISSUES: 0,
        ListName.NEW_PRS: 0,
        ListName.MERGED_PRS: 1,
        ListName.CLOSED_UNMERGED_PRS: 0,
    }


def test_stale_sweeps_are_counted_and_split_out() -> None:
    """Closed by the stale sweep still counts as closed, and is reported separately."""
    inside = WINDOW.start + timedelta(hours=2)
    result = report(
        item(1, closed_at=inside, labels=("bug",)),
        item(2, closed_at=inside, labels=("stale",)),
        item(3, closed_at=inside, labels=("unstale",)),
        item(4, "pr", closed_at=inside, labels=("stale", "rocm")),
    )
    assert result.stats[ListName.CLOSED_ISSUES] == 3
    split = result.closures[ListName.CLOSED_ISSUES]
    assert (split.resolved, split.stale) == (2, 1)
    pr_split = result.closures[ListName.CLOSED_UNMERGED_PRS]
    assert (pr_split.resolved, pr_split.stale) == (0, 1)


def test_lists_run_by_event_time_and_items_outside_are_left_out() -> None:
    """The appendix lists events in time order; unrelated items are not in `items`."""
    t = WINDOW.start
    result = report(
        item(30, created_at=t + timedelta(hours=5)),
        item(10, created_at=t + timedelta(hours=1)),
        item(20, created_at=BEFORE),
    )
    assert result.lists[ListName.NEW_ISSUES] == (10, 30)
    assert set(result.items) == {10, 30}


def test_other_repositories_items_are_ignored() -> None:
    """A shared store may hold several repositories; a report sees only its own."""
    inside = WINDOW.start + timedelta(hours=1)
    other = item(5, created_at=inside, repo="sgl-project/sglang")
    assert report(other).stats[ListName.NEW_ISSUES] == 0
