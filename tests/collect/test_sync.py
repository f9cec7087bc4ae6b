"""The collector against the fake GitHub: few requests, retries, limits, clear failures."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from bot.collect.client import CollectError, Collector, GitHubSource
from tests.anchor_data import REPO, anchor_days
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault

DAY = anchor_days()[2]  # 2026-03-25, 118 PR closures: two pages


def collector(fake: FakeGitHub, **overrides: object) -> Collector:
    options: dict[str, object] = {
        "repo": REPO,
        "api_url": fake.url,
        "request_interval": 0,
        "backoff": 0.05,
        "retries": 3,
    }
    options.update(overrides)
    return Collector(GitHubSource(**options))  # type: ignore[arg-type]


def test_a_day_costs_one_request_per_result_page(fake_github: FakeGitHub) -> None:
    """Four searches, paged by 100; no request per item (merged_at comes with the search)."""
    result = collector(fake_github).search_span(DAY.start, DAY.end)
    paths = [r.path for r in fake_github.requests]
    assert paths == ["/search/issues"] * 5
    assert result.complete
    merged = {n for n, it in result.items.items() if it.merged_at is not None}
    assert set(DAY.lists["merged_prs"]) <= merged


def test_search_sends_explicit_utc_times_and_a_kind(fake_github: FakeGitHub) -> None:
    """Each query names is:issue or is:pr and full UTC times (a bare date is a UTC day)."""
    collector(fake_github).search_span(DAY.start, DAY.end)
    queries = {r.query["q"][0] for r in fake_github.requests}
    assert (
        f"repo:{REPO} is:issue created:2026-03-25T03:43:00+00:00..2026-03-26T03:42:59+00:00"
        in queries
    )
    assert all(" is:issue " in q or " is:pr " in q for q in queries)


def test_more_than_1000_results_are_split_until_complete() -> None:
    """2,300 PRs in one day pass the search cap; splitting the window still finds all."""
    start = datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
    items = [
        FakeItem(
            n,
            "pr",
            f"[Perf] pr {n}",
            "dev",
            [],
            start + timedelta(seconds=37 * n),
            start + timedelta(seconds=37 * n),
        )
        for n in range(1, 2301)
    ]
    with FakeGitHub(REPO, items) as fake:
        result = collector(fake).search_span(start, start + timedelta(days=1))
        requests = len(fake.requests)
    assert len(result.items) == 2300
    assert result.complete
    # Cut up front into parts that fit: the pages the items need (8 per part of ~767), one
    # first page that only told the total, and one request for each of the 3 empty searches.
    assert requests == 3 * 8 + 1 + 3


def test_incomplete_search_marks_the_collection_incomplete(fake_github: FakeGitHub) -> None:
    """GitHub's incomplete_results flag is never ignored."""
    fake_github.fail_next(Fault(incomplete=True))
    result = collector(fake_github).search_span(DAY.start, DAY.end)
    assert not result.complete
    assert any("timed out" in note for note in result.notes)


def test_an_incomplete_first_page_of_several_is_not_taken_for_whole(
    fake_github: FakeGitHub,
) -> None:
    """GitHub flags a page incomplete page by page: the first of two pages flagged, the last
    not, is still an incomplete search (the flag of the last page alone once decided)."""
    collector(fake_github).search_span(DAY.start, DAY.end)
    queries = [r.query for r in fake_github.requests]
    paged = next(q["q"][0] for q in queries if q.get("page") == ["2"])
    first_page = next(i for i, q in enumerate(queries) if q["q"][0] == paged)
    fake_github.reset_log()
    fake_github.fail_next(*[Fault(status=0)] * first_page, Fault(incomplete=True))
    result = collector(fake_github).search_span(DAY.start, DAY.end)
    assert not result.complete
    assert any("timed out" in note for note in result.notes)


def test_server_errors_are_retried(fake_github: FakeGitHub) -> None:
    """Two 502s then success: the data is whole and the retries are on the wire."""
    fake_github.fail_next(Fault.server_error(502), Fault.server_error(503))
    result = collector(fake_github).search_span(DAY.start, DAY.end)
    assert result.complete
    statuses = [r.status for r in fake_github.requests]
    assert statuses[:3] == [502, 503, 200]


def test_secondary_rate_limit_honours_retry_after(fake_github: FakeGitHub) -> None:
    """A 403 secondary limit with Retry-After: 1 waits at least a second, then goes on."""
    fake_github.fail_next(Fault.secondary_limit(retry_after=1))
    began = time.monotonic()
    result = collector(fake_github).search_span(DAY.start, DAY.end)
    assert result.complete
    assert time.monotonic() - began >= 1.0
    assert [r.status for r in fake_github.requests][:2] == [403, 200]


def test_exhausted_primary_limit_says_when_it_resets(fake_github: FakeGitHub) -> None:
    """A reset an hour away is beyond the wait we allow: stop and say when to come back."""
    fake_github.fail_next(Fault.primary_limit(reset_in=3600))
    with pytest.raises(CollectError, match=r"rate limit is used up \(it resets at .* UTC\)"):
        collector(fake_github, max_rate_limit_wait=60).search_span(DAY.start, DAY.end)
    assert len(fake_github.requests) == 1


def test_primary_limit_resetting_soon_is_waited_for(fake_github: FakeGitHub) -> None:
    """A reset within the allowed wait is waited out, and the collection completes."""
    fake_github.fail_next(Fault.primary_limit(reset_in=1))
    result = collector(fake_github, max_rate_limit_wait=30).search_span(DAY.start, DAY.end)
    assert result.complete


def test_persistent_errors_end_in_a_clear_error(fake_github: FakeGitHub) -> None:
    """After the retries are spent, one sentence that says what happened."""
    fake_github.fault_rule = lambda index, path: Fault.server_error(502)
    with pytest.raises(CollectError, match="kept failing after 3 retries"):
        collector(fake_github).search_span(DAY.start, DAY.end)


def test_unreachable_github_is_a_clear_error() -> None:
    """Nothing listening: the message names the URL and what to check."""
    source = GitHubSource(
        repo=REPO, api_url="http://127.0.0.1:9", retries=1, backoff=0, request_interval=0
    )
    with pytest.raises(CollectError, match=r"cannot reach GitHub at http://127.0.0.1:9"):
        Collector(source).search_span(DAY.start, DAY.end)


def test_unknown_repository_is_a_clear_error(fake_github: FakeGitHub) -> None:
    """The incremental listing of a repository that does not exist says so."""
    with pytest.raises(CollectError, match="no repository 'nobody/nothing'"):
        collector(fake_github, repo="nobody/nothing").updated_since(DAY.start)


def test_incremental_sync_pages_through_everything_updated_since(fake_github: FakeGitHub) -> None:
    """`since` goes out in UTC, pages follow the Link header, issues and PRs are told apart."""
    result = collector(fake_github).updated_since(DAY.start)
    expected = {it.number for it in fake_github.items.values() if it.updated_at >= DAY.start}
    assert set(result.items) == expected
    first = fake_github.requests[0]
    assert first.path == f"/repos/{REPO}/issues"
    assert first.query["since"] == ["2026-03-25T03:43:00Z"]
    assert first.query["state"] == ["all"]
    assert all(r.path == f"/repos/{REPO}/issues" for r in fake_github.requests)
    kinds = {result.items[n].kind for n in DAY.lists["new_prs"]}
    assert kinds == {"pr"}


def test_token_is_sent_as_authorization(fake_github: FakeGitHub) -> None:
    """GITHUB_TOKEN is optional but, when set, authenticates every request."""
    collector(fake_github, token="ghp_example").search_span(DAY.start, DAY.end)
    assert all(r.headers.get("Authorization") == "token ghp_example" for r in fake_github.requests)


def test_with_a_token_the_key_changes_size_and_reviewers_cost_one_graphql_request_per_50(
    fake_github: FakeGitHub,
) -> None:
    """Without a token each PR costs two REST requests (the pull, its reviews); with one,
    50 PRs are one GraphQL request, and the facts read are the same: the author's own review
    is not a reviewer, an app keeps REST's `[bot]`, a person who reviewed twice counts once,
    and a PR with more reviews than one query returns is read whole by REST."""
    pulls = sorted(n for n, it in fake_github.items.items() if it.kind == "pr")[:60]
    for index, number in enumerate(pulls):
        item = fake_github.items[number]
        item.additions, item.deletions, item.changed_files = 10 * index, index, index % 7
        at = item.created_at + timedelta(hours=1)
        people = ["njhill", item.author, "mergify[bot]", "njhill", f"reviewer{index % 3}"]
        item.reviews = [
            {"id": number * 10 + i, "user": who, "state": "COMMENTED", "submitted_at": at}
            for i, who in enumerate(people)
        ]
    crowded = fake_github.items[pulls[7]]  # 101 reviews: the 101st by someone new
    at = crowded.created_at + timedelta(hours=2)
    crowded.reviews = [
        {
            "id": 9_000_000 + i,
            "user": "alice" if i < 100 else "bob",
            "state": "COMMENTED",
            "submitted_at": at + timedelta(minutes=i),
        }
        for i in range(101)
    ]
    wanted = [(n, fake_github.items[n].author) for n in pulls]
    fake_github.reset_log()
    by_rest = collector(fake_github).pulls_details(wanted)
    assert len(fake_github.requests) == 2 * len(pulls) + 1  # 101 reviews: two pages
    fake_github.reset_log()
    by_graphql = collector(fake_github, token="t0ken").pulls_details(wanted)
    # 50 + 10, and the PR with over 100 reviews read again by REST (its pull, two pages)
    paths = [r.path for r in fake_github.requests]
    assert paths.count("/graphql") == 2 and len(paths) == 5, paths
    assert by_graphql == by_rest
    assert by_rest[7].reviewers == ("alice", "bob")
    assert by_rest[5].reviewers == ("njhill", "mergify[bot]", "reviewer2")
    assert (by_rest[5].additions, by_rest[5].deletions, by_rest[5].changed_files) == (50, 5, 5)


def test_a_pr_number_graphql_cannot_resolve_is_read_by_rest_and_said_as_rest_says_it(
    fake_github: FakeGitHub,
) -> None:
    """GitHub answers an alias it cannot resolve with a NOT_FOUND error for the whole query:
    the batch is read by REST instead (the others read; the missing one is REST's 404, not
    "try again later" of a query that would fail again)."""
    pulls = sorted(n for n, it in fake_github.items.items() if it.kind == "pr")[:3]
    wanted = [(n, fake_github.items[n].author) for n in pulls]
    error = {
        "type": "NOT_FOUND",
        "path": ["repository", f"p{pulls[0]}"],
        "message": f"Could not resolve to an issue or pull request with the number of {pulls[0]}.",
    }
    fake_github.fail_next(Fault(status=200, body={"data": {"repository": None}, "errors": [error]}))
    read = collector(fake_github, token="t0ken").pulls_details(wanted)
    assert [d.number for d in read] == pulls
    assert fake_github.requests[0].path == "/graphql"
    assert len(fake_github.requests) == 1 + 2 * len(pulls)
