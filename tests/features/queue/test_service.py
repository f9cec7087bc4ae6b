"""The review queue: every number against values worked out by hand
(tests/features/queue/queue_fixture.py),
through the fake GitHub's search and GraphQL, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.features.queue.analyze import (
    awaits_review,
    first_answer,
    percentiles,
    period_times,
    stale_soon,
    waiting_ages,
)
from bot.features.queue.collect import RECHECK, Scope, label_clause, list_queries
from bot.features.queue.graphql import Search, search_query
from bot.features.queue.model import Queue, QueueItem, QueueRules, ResponseFact, ScopeQueue
from bot.features.queue.service import QueueError, QueueQuery, QueueService
from bot.model.rules import load_rules
from bot.model.windows import Window
from bot.store import Store
from tests.anchor_data import REPO
from tests.fakes.github_api import FakeGitHub
from tests.features.queue.queue_fixture import NOW, W_END, W_START, Expected, hand_items

RULES = load_rules()
CST = ZoneInfo("Asia/Shanghai")
WINDOW = Window(W_START.astimezone(CST), W_END.astimezone(CST), CST.key, "2026-03-25")


def is_bot(login: str | None) -> bool:
    return RULES.is_bot(login)


# -- percentiles, by hand ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "n", "median", "p90"),
    [
        ([], 0, None, None),
        ([7.0], 1, 7.0, 7.0),
        ([2.0, 1.0], 2, 1.5, 2.0),  # even: the mean of the middle two; P90 the 2nd
        ([3.0, 1.0, 2.0], 3, 2.0, 3.0),  # ⌈2.7⌉ = 3rd
        ([1.0, 3.0, 5.0, 10.0], 4, 4.0, 10.0),  # ⌈3.6⌉ = 4th
        ([float(v) for v in range(1, 11)], 10, 5.5, 9.0),  # ⌈9⌉ = 9th, not 10
        ([float(v) for v in range(1, 12)], 11, 6.0, 10.0),  # ⌈9.9⌉ = 10th
    ],
)
def test_median_and_nearest_rank_p90(
    values: list[float], n: int, median: float | None, p90: float | None
) -> None:
    assert percentiles(values) == (percentiles(values).__class__(n, median, p90))


# -- who answered first ----------------------------------------------------------------------


def test_first_answer_skips_bots_the_author_pending_and_deleted_accounts() -> None:
    t0 = datetime(2026, 3, 25, tzinfo=UTC)
    answers = [
        ("gemini-code-assist[bot]", t0),
        ("Nero10578", t0 + timedelta(minutes=5)),  # the author, spelled differently
        ("mergify", t0 + timedelta(minutes=6)),  # a bot of topics.toml's list
        ("tjtanaa", None),  # a pending review
        (None, t0 + timedelta(minutes=7)),  # a deleted account
        ("gshtras", t0 + timedelta(hours=2)),
        ("tjtanaa", t0 + timedelta(hours=1)),  # earlier, though listed later
    ]
    assert first_answer("nero10578", answers, is_bot) == ("tjtanaa", t0 + timedelta(hours=1))
    assert first_answer("NERO10578", answers[:5], is_bot) is None


def test_a_review_counts_only_when_a_person_other_than_the_author_left_it() -> None:
    t0 = datetime(2026, 3, 25, tzinfo=UTC)
    base = QueueItem(1, "pr", "t", "alice", (), t0, t0)
    assert awaits_review(base, is_bot)  # reviews not read: GitHub's review:none chose it
    assert awaits_review(base.__class__(**{**base.__dict__, "reviewers": ()}), is_bot)
    bot_only = {**base.__dict__, "reviewers": ("gemini-code-assist[bot]", "Alice")}
    assert awaits_review(QueueItem(**bot_only), is_bot)
    person = {**base.__dict__, "reviewers": ("gemini-code-assist[bot]", "bob")}
    assert not awaits_review(QueueItem(**person), is_bot)
    more = {**base.__dict__, "reviewers": ("mergify",), "more_reviews": True}
    assert not awaits_review(QueueItem(**more), is_bot)


# -- ages, stale, periods: the edges ----------------------------------------------------------


def test_waiting_ages_are_strictly_over_and_count_from_ready() -> None:
    now = NOW

    def pr(number: int, created: datetime, ready: datetime | None = None) -> QueueItem:
        return QueueItem(number, "pr", "t", "a", (), created, created, ready_at=ready)

    items = [
        pr(1, now - timedelta(days=2)),  # exactly 2 days: not over 2
        pr(2, now - timedelta(days=2, seconds=1)),
        pr(3, now - timedelta(days=40), ready=now - timedelta(days=1)),  # ready 1 day ago
        pr(4, now - timedelta(days=7, seconds=1), ready=now - timedelta(days=9)),  # earlier ready
    ]
    assert waiting_ages(items, now, (2, 7, 30)) == ((2, 2), (7, 1), (30, 0))


def test_stale_soon_follows_the_workflows_rules() -> None:
    rules = QueueRules()
    t0 = datetime(2025, 1, 1, tzinfo=UTC)

    def item(n: int, updated: datetime, labels: tuple[str, ...], **kw: object) -> QueueItem:
        return QueueItem(n, "issue", "t", "a", labels, t0, updated, **kw)  # type: ignore[arg-type]

    edge = NOW - timedelta(days=23)
    found = stale_soon(
        [
            item(1, edge, ("stale",)),  # closes exactly in 7 days
            item(2, edge + timedelta(seconds=1), ("stale",)),
            item(3, NOW - timedelta(days=60), ("Stale", "keep-open")),
            item(4, NOW - timedelta(days=60), ("stale",)).__class__(
                4, "pr", "t", "a", ("stale",), t0, NOW - timedelta(days=60), draft=True
            ),
            item(5, NOW - timedelta(days=60), ()),  # not labelled: not the workflow's yet
            item(6, NOW - timedelta(days=31), ("stale",)),  # overdue: the next run
        ],
        NOW,
        rules,
    )
    assert [(s.number, s.closes_at) for s in found] == [
        (6, NOW - timedelta(days=1)),
        (1, NOW + timedelta(days=7)),
    ]


def test_period_bounds_are_half_open_and_bots_items_left_out() -> None:
    start, end = W_START, W_END
    t = start - timedelta(days=1)

    def merged(n: int, at: datetime, author: str = "dev") -> ResponseFact:
        return ResponseFact(n, "pr", "t", author, (), t, merged_at=at, first_response_at=t)

    facts = [
        merged(1, start),  # the start is in
        merged(2, end - timedelta(seconds=1)),
        merged(3, end),  # the end is out
        merged(4, start - timedelta(seconds=1)),
        merged(5, start + timedelta(hours=1), author="dependabot[bot]"),
    ]
    times = period_times(facts, start, end, NOW, is_bot)
    assert (times.merged, times.first_review.n, times.merge.n) == (2, 2, 2)


# -- the whole queue through the fake GitHub ---------------------------------------------------


@pytest.fixture
def hand_github() -> Iterator[FakeGitHub]:
    with FakeGitHub(REPO, hand_items()) as fake:
        yield fake


def service(
    fake: FakeGitHub, store: Store, *, anonymous: bool = False, now: datetime = NOW
) -> QueueService:
    token = None if anonymous else "a-token"
    source = GitHubSource(repo=REPO, api_url=fake.url, token=token, request_interval=0)
    return QueueService(Archiver(store, source), RULES, lambda: now)


def amd(queue: Queue) -> ScopeQueue:
    scope = queue.scope("amd")
    assert scope is not None
    return scope


def test_the_queue_of_a_day_equals_the_hand_count(hand_github: FakeGitHub, store: Store) -> None:
    """AMD's lists, ages, response times against the four weeks before, the repository's
    counts and the first-time contributors: each as worked out in
    tests/features/queue/queue_fixture.py."""
    queue = service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "amd"))
    e = Expected()
    mine = amd(queue)
    assert queue.scopes[0].key == "amd" and queue.scopes[-1].key is None
    assert (mine.waiting, mine.over, mine.discussed) == (e.waiting, e.over, e.discussed)
    assert tuple(a.number for a in mine.oldest) == e.oldest
    assert mine.oldest[0].since == "opened"
    assert (mine.changes_requested, mine.needs_rebase) == (e.changes_requested, e.needs_rebase)
    assert mine.ready_items == e.ready and mine.ready == len(e.ready)
    assert tuple(s.number for s in mine.stale_items) == e.stale
    assert mine.times is not None
    now, before = mine.times.current, mine.times.previous
    assert (now.first_review.n, now.first_review.median, now.first_review.p90) == e.first_review
    assert (now.merge.n, now.merge.median, now.merge.p90) == e.merge
    assert now.merged_unreviewed == e.unreviewed
    got = now.first_response
    assert (got.n, got.median, got.p90) == e.first_response
    assert (now.unanswered_24h.unanswered, now.unanswered_24h.eligible) == e.unanswered_24h
    assert (now.unanswered_72h.unanswered, now.unanswered_72h.eligible) == e.unanswered_72h
    prev = before.first_review
    assert (prev.n, prev.median, prev.p90) == e.previous_first_review
    assert (before.merge.n, before.merge.median, before.merge.p90) == e.previous_merge
    repo = queue.scope(None)
    assert repo is not None and repo.times is not None
    assert (repo.waiting, repo.stale_soon) == (e.repo_waiting, e.repo_stale)
    answered = repo.times.current.first_response
    assert (answered.n, answered.median, answered.p90) == e.repo_first_response
    share = repo.times.current.unanswered_24h
    assert (share.unanswered, share.eligible) == e.repo_unanswered_24h
    share = repo.times.current.unanswered_72h
    assert (share.unanswered, share.eligible) == e.repo_unanswered_72h
    earlier = repo.times.previous.first_response
    assert (earlier.n, earlier.median, earlier.p90) == e.previous_repo_first_response
    nvidia = queue.scope("nvidia")
    assert nvidia is not None and nvidia.times is not None
    review = nvidia.times.current.first_review
    assert (review.n, review.median, review.p90) == e.nvidia_first_review
    assert tuple((f.login, f.how, f.numbers) for f in queue.first_timers) == e.first_timers
    assert queue.measured and queue.complete


def test_response_facts_are_read_once_and_open_questions_again_later(
    hand_github: FakeGitHub, store: Store
) -> None:
    """A second run reads no response fact; an unanswered open issue is read again only after
    RECHECK, and a merged PR or closed issue never."""
    service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "amd"))
    hand_github.reset_log()
    service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "amd"))
    texts = [r.graphql or "" for r in hand_github.requests if r.path == "/graphql"]
    assert not any("reviews(first: 30)" in t or "comments(first: 30)" in t for t in texts)
    assert not any("is:merged author:" in t for t in texts)
    assert all(r.path == "/graphql" for r in hand_github.requests)  # the lists only
    hand_github.reset_log()
    later = NOW + RECHECK + timedelta(minutes=1)
    service(hand_github, store, now=later).queue(QueueQuery(REPO, WINDOW, "amd"))
    reread = [t for t in (r.graphql or "" for r in hand_github.requests) if "issueOrPull" in t]
    facts = [t for t in reread if "comments(first: 30)" in t]
    assert len(facts) == 1
    numbers = {int(n) for n in re.findall(r"issueOrPullRequest\(number: (\d+)\)", facts[0])}
    assert numbers == {38097}  # open and unanswered; 38107, 38110 answered, 37942 … answered


def test_anonymous_queue_reads_lists_over_rest_and_says_response_times_are_skipped(
    hand_github: FakeGitHub, store: Store
) -> None:
    """No GraphQL request; GitHub's review:none decides (38108, only a bot reviewed it, is not
    waiting) and ages count from the opening (38166, ready a day ago, is 2.5 days old)."""
    queue = service(hand_github, store, anonymous=True).queue(QueueQuery(REPO, WINDOW, "amd"))
    assert {r.path for r in hand_github.requests} == {"/search/issues"}
    assert [s.key for s in queue.scopes] == ["amd", None]
    mine = amd(queue)
    assert mine.times is None and not queue.measured
    assert (mine.waiting, mine.over) == (5, ((2, 4), (7, 2), (30, 1)))
    assert any("GITHUB_TOKEN" in note for note in queue.notes)
    assert tuple(f.login for f in queue.first_timers) == ("li-liwen",)


def test_each_list_is_one_search_with_the_qualifiers() -> None:
    queries = list_queries(REPO, Scope("intel", ("intel-gpu", "xpu")), QueueRules(), NOW)
    assert queries["waiting"] == (
        f"repo:{REPO} is:pr is:open draft:false review:none -label:needs-rebase label:intel-gpu,xpu"
        " sort:created-asc"
    )
    assert queries["ready"].endswith(
        "review:approved -label:needs-rebase label:intel-gpu,xpu sort:created-asc"
    )
    # A list shown from its first page shows the oldest on GitHub, not a best-match page.
    assert all(q.endswith(" sort:created-asc") and "  " not in q for q in queries.values())
    assert queries["needs_rebase"].startswith(
        f"repo:{REPO} is:pr is:open draft:false label:needs-rebase -review:changes_requested"
    )
    assert (
        "label:stale -label:keep-open updated:<=2026-03-05T12:19:00+00:00"
        in (queries["stale_issues"])
    )
    assert " draft:false " in queries["stale_prs"]
    assert label_clause(["feature request", "RFC"]) == 'label:"feature request",RFC'


def test_a_topic_without_labels_has_no_queue(hand_github: FakeGitHub, store: Store) -> None:
    with pytest.raises(QueueError, match="queue_labels"):
        service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "moe"))


def test_cold_and_warm_request_counts(hand_github: FakeGitHub, store: Store) -> None:
    """Cold: the lists (2 GraphQL), the window's archive (4 searches), response facts of the
    window and four weeks (2), first merges with the descriptions nobody archived (1). Warm:
    the lists and those descriptions."""
    service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "amd"))
    cold = len(hand_github.requests)
    asked = [t for t in (r.graphql or "" for r in hand_github.requests) if "$q_m" in t]
    # first merges: asked for 36574, 36716 and 37640 only; AndreasKaratzas's follow from his
    # stored merges of the weeks before (37787, 37924), the bot's is never asked
    assert len(asked) == 1
    queries = [r for r in hand_github.requests if r.graphql and "$q_m" in r.graphql]
    assert sorted(set(re.findall(r"\$q_m(\d+)", queries[0].graphql or ""))) == [
        "36574", "36716", "37640"
    ]  # fmt: skip
    hand_github.reset_log()
    service(hand_github, store).queue(QueueQuery(REPO, WINDOW, "amd"))
    assert (cold, len(hand_github.requests)) == (9, 3)


def test_graphqls_rate_limit_is_told_as_one_with_its_reset(hand_github: FakeGitHub) -> None:
    """GitHub answers a spent GraphQL limit with 200 and a RATE_LIMITED error: said as a rate
    limit and when it resets, not as a fault of the topic rules."""
    from datetime import UTC, datetime

    from bot.collect.client import CollectError, Collector
    from tests.fakes.github_api import Fault

    reset = datetime(2026, 3, 26, 5, 7, tzinfo=UTC)
    hand_github.fail_next(
        Fault(
            status=200,
            body={"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]},
            headers={"X-RateLimit-Reset": str(int(reset.timestamp()))},
        )
    )
    github = Collector(
        GitHubSource(repo=REPO, api_url=hand_github.url, token="a-token", request_interval=0)
    )
    with pytest.raises(CollectError) as caught:
        github.graphql(search_query([Search("x", "", items=False)]), {"q_x": f"repo:{REPO}"})
    said = str(caught.value)
    assert said.startswith("GitHub's GraphQL rate limit is used up; it resets at 05:07 UTC")
    assert "topic rules" not in said


def test_a_refused_graphql_query_is_one_sentence(hand_github: FakeGitHub) -> None:
    from bot.collect.client import CollectError, Collector

    github = Collector(
        GitHubSource(repo=REPO, api_url=hand_github.url, token="a-token", request_interval=0)
    )
    query = search_query([Search("x", "", items=False)])
    with pytest.raises(CollectError) as caught:
        github.graphql(query, {"q_x": f"repo:{REPO} is:pr weird:thing"})
    assert str(caught.value).startswith("GitHub's GraphQL API refused the review queue's query (")
    assert "weird:thing" in str(caught.value)
