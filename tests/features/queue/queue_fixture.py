"""A small review-queue fixture whose every number is worked out by hand below.

Real vLLM items (numbers, titles, authors, labels from tests/data) around the 2026-03-25
report day, with review, comment, ready and label times chosen to hit each rule and each
edge: bots and the author's own reviews or comments, a draft, a review while a draft, a PR
approved then changes-requested, needs-rebase, items at the window's exact bounds, an issue
reopened, stale items on both sides of the 7-day line. The published reports show no review
times, so those are constructed (as are the states of the few older items reused as stale).

The window W is 2026-03-25 03:43 → 2026-03-26 03:43 UTC (the report day's cutoff 11:43 in
UTC+8); the queue is asked at NOW = 2026-03-28 12:19 UTC.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.anchor_data import anchor_items, body_of, thread_facts
from tests.fakes.github_api import FakeItem

W_START = datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
W_END = datetime(2026, 3, 26, 3, 43, tzinfo=UTC)
NOW = datetime(2026, 3, 28, 12, 19, tzinfo=UTC)
H = timedelta(hours=1)
D = timedelta(days=1)
BOT = "gemini-code-assist[bot]"
ACTIONS = "github-actions[bot]"


def at(text: str) -> datetime:
    """`03-25 09:26` (2026, UTC)."""
    return datetime.strptime(f"2026-{text}", "%Y-%m-%d %H:%M").replace(tzinfo=UTC)


def real(number: int) -> dict[str, Any]:
    """Title, author and labels of a real item (the anchor reports, else the thread files)."""
    for item in anchor_items():
        if item.number == number:
            return {"title": item.title, "author": item.author, "labels": list(item.labels)}
    entry = thread_facts().get(number)
    if entry is None:  # a constructed item: its caller names title and author
        return {"title": f"item {number}", "author": None, "labels": []}
    return {"title": entry["title"], "author": entry.get("author"), "labels": []}


_review_ids = iter(range(1, 10_000))


def rv(user: str, when: datetime, state: str = "COMMENTED") -> dict[str, Any]:
    return {"id": next(_review_ids), "user": user, "state": state, "submitted_at": when}


def cm(user: str, when: datetime) -> dict[str, Any]:
    return {"id": next(_review_ids), "user": user, "created_at": when}


def pr(number: int, created: datetime, **fields: Any) -> FakeItem:
    facts = real(number)
    facts["title"] = fields.pop("title", facts["title"])
    facts["labels"] = fields.pop("labels", facts["labels"])
    facts["author"] = fields.pop("author", facts["author"])
    merged = fields.get("merged_at")
    closed = fields.pop("closed_at", merged)
    updated = fields.pop("updated_at", max(t for t in (created, closed) if t))
    body = body_of(thread_facts().get(number))
    return FakeItem(
        number, "pr", created_at=created, updated_at=updated, closed_at=closed, body=body,
        **facts, **fields,
    )  # fmt: skip


def issue(number: int, created: datetime, **fields: Any) -> FakeItem:
    facts = real(number)
    facts["title"] = fields.pop("title", facts["title"])
    facts["labels"] = fields.pop("labels", facts["labels"])
    facts["author"] = fields.pop("author", facts["author"])
    closed = fields.pop("closed_at", None)
    updated = fields.pop("updated_at", max(t for t in (created, closed) if t))
    body = body_of(thread_facts().get(number))
    return FakeItem(
        number, "issue", created_at=created, updated_at=updated, closed_at=closed, body=body,
        **facts, **fields,
    )  # fmt: skip


def hand_items() -> list[FakeItem]:
    rocm = ["rocm"]
    return [
        # -- open PRs: the lists (AMD = label rocm) ----------------------------------------
        pr(38086, at("03-25 08:29")),  # no review: waiting, 3.16 days
        pr(38108, at("03-25 12:30"), reviews=[rv(BOT, at("03-25 12:40"))],
           author_association="FIRST_TIME_CONTRIBUTOR"),  # only a bot reviewed: waiting
        pr(38109, at("03-25 12:36"), reviews=[rv("nemanjaudovic", at("03-25 13:00"))]),  # own
        pr(38137, at("03-25 19:43"), draft=True),  # a draft: on no list
        pr(38145, at("03-25 21:11"), reviews=[rv("tjtanaa", at("03-26 01:00"), "APPROVED")]),
        pr(38146, at("03-25 21:17"), reviews=[  # approved, then changes requested
            rv("tjtanaa", at("03-26 01:00"), "APPROVED"),
            rv("tjtanaa", at("03-26 02:00"), "CHANGES_REQUESTED"),
        ]),
        pr(38155, at("03-25 22:14"), labels=[*rocm, "needs-rebase"]),  # waits on its author
        pr(38161, at("03-25 23:40"), labels=[*rocm, "needs-rebase"],  # approved, yet rebase
           reviews=[rv("tjtanaa", at("03-26 01:00"), "APPROVED")]),
        pr(38165, at("03-26 00:11"), reviews=[rv("gshtras", at("03-26 02:00"))]),  # discussed
        pr(38166, at("03-26 00:26"), ready_events=[NOW - D]),  # a draft until 1 day ago
        pr(36785, NOW - 30 * D),  # exactly 30 days: not over 30
        pr(36810, NOW - 30 * D - timedelta(seconds=1)),  # over 30
        pr(38180, NOW - 2 * D),  # exactly 2 days: not over 2
        pr(28829, at("01-10 00:00"), draft=True, labels=["stale", *rocm],
           updated_at=NOW - 30 * D),  # a stale draft: exempt
        # -- stale issues -----------------------------------------------------------------
        issue(20316, at("01-02 00:00"), labels=["stale", *rocm], updated_at=NOW - 23 * D),
        issue(24107, at("01-02 00:00"), labels=["stale", *rocm],
              updated_at=NOW - 23 * D + timedelta(seconds=1)),  # closes just after 7 days
        issue(29391, at("01-02 00:00"), labels=["stale", "keep-open", *rocm],
              updated_at=NOW - 40 * D),  # exempt
        issue(37250, at("01-02 00:00"), labels=["stale", *rocm], updated_at=NOW - 35 * D),
        # -- PRs merged in the window ------------------------------------------------------
        pr(38088, at("03-25 08:56"), merged_at=at("03-25 10:06"), reviews=[
            rv("tjtanaa", at("03-25 09:26")), rv("tjtanaa", at("03-25 09:50"), "APPROVED"),
        ]),  # first review 0.5 h, merge 7/6 h
        pr(38102, at("03-25 11:29"), merged_at=at("03-25 12:05"), reviews=[
            rv(BOT, at("03-25 11:31")), rv("AndreasKaratzas", at("03-25 11:40")),
            rv("tjtanaa", at("03-25 11:59")),
        ]),  # bot and author skipped: 0.5 h; merge 0.6 h
        pr(36574, at("03-15 19:00"), merged_at=at("03-25 19:00"),
           ready_events=[at("03-24 19:00")],
           reviews=[rv("gshtras", at("03-20 12:00"))]),  # reviewed as a draft: 0; merge 24 h
        pr(36716, at("03-15 20:58"), merged_at=at("03-25 20:58"),
           reviews=[rv(BOT, at("03-15 21:05"))]),  # no person's review; merge 240 h
        pr(37640, at("03-15 05:06"), merged_at=at("03-25 05:06"), reviews=[
            rv("AndreasKaratzas", at("03-16 05:06"), "APPROVED"),
            rv("tjtanaa", at("03-17 05:06"), "CHANGES_REQUESTED"),
            rv("tjtanaa", at("03-24 05:06"), "APPROVED"),
        ]),  # 24 h; merge 240 h
        pr(34549, at("03-16 01:43"), merged_at=at("03-26 01:43"),
           reviews=[rv("DarkLight1337", at("03-16 03:43"))]),  # rocm and nvidia: 2 h; 240 h
        pr(37616, W_START - 10 * H, merged_at=W_START,
           reviews=[rv("tjtanaa", W_START - 4 * H)]),  # merged at the start: in; 6 h; 10 h
        pr(38181, at("03-26 03:13"), merged_at=W_END,
           reviews=[rv("tjtanaa", at("03-26 03:23"))]),  # merged at the end: out
        pr(38190, at("03-25 05:00"), merged_at=at("03-25 06:00"), author="dependabot[bot]",
           title="Bump the actions group with 2 updates",  # constructed: a bot's PR, out
           labels=[*rocm, "ci/build"]),
        # -- PRs merged in the four weeks before -------------------------------------------
        pr(37787, W_START - timedelta(seconds=1) - 12 * H, merged_at=W_START - timedelta(seconds=1),
           reviews=[rv("tjtanaa", W_START - timedelta(seconds=1) - 9 * H)]),  # 3 h; 12 h
        pr(37924, W_START - 28 * D - 20 * H, merged_at=W_START - 28 * D,
           reviews=[rv("gshtras", W_START - 28 * D - 15 * H)]),  # 5 h; 20 h
        pr(36743, W_START - 29 * D, merged_at=W_START - 28 * D - timedelta(seconds=1),
           labels=rocm, reviews=[rv("gshtras", W_START - 25 * D)]),  # just too early: out
        # -- earlier merged PRs of the regular authors (none is a first-timer) ------------
        pr(31328, at("01-05 00:00"), merged_at=at("01-06 00:00"), author="AndreasKaratzas"),
        pr(34231, at("01-05 00:00"), merged_at=at("01-06 00:00"), author="vllmellm"),
        pr(35118, at("01-05 00:00"), merged_at=at("01-06 00:00"), author="Rohan138"),
        pr(35844, at("01-05 00:00"), merged_at=at("01-06 00:00"), author="yuttian1"),
        # -- issues --------------------------------------------------------------------------
        issue(38107, at("03-25 12:19"), comment_list=[
            cm(ACTIONS, at("03-25 12:21")), cm("Nero10578", at("03-25 13:00")),
            cm("tjtanaa", at("03-25 15:19")),
        ]),  # bot and author skipped: 3 h
        issue(38097, at("03-25 10:31"),
              comment_list=[cm("AndreasKaratzas", at("03-25 11:00"))]),  # unanswered
        issue(38110, at("03-25 13:59"), comment_list=[
            cm("mgoin", at("03-25 14:10")), cm("DarkLight1337", at("03-25 14:59")),
        ]),  # not AMD: 1 h; too young for the 72 h share
        issue(37942, at("03-20 06:00"), closed_at=None, updated_at=at("03-25 08:00"),
              comment_list=[cm("DarkLight1337", at("03-20 11:00"))]),  # reopened in W: 5 h
    ]  # fmt: skip


@dataclass(frozen=True)
class Expected:
    """The numbers worked out by hand from `hand_items` (hours unless said)."""

    # AMD's lists at NOW
    waiting = 7  # 38086 38108 38109 38166 36785 36810 38180
    over = ((2, 5), (7, 2), (30, 1))  # over 2: 38086 38108 38109 36785 36810
    oldest = (36810, 36785, 38086)
    discussed = 1  # 38165
    changes_requested = 1  # 38146
    needs_rebase = 2  # 38155 38161
    ready = (38145,)
    stale = (37250, 20316)  # due now; closes exactly NOW + 7 days
    # AMD's response times, the window: first reviews 0 0.5 0.5 2 6 24 (n = 6)
    first_review = (6, 1.25, 24.0)  # n, median (0.5 + 2) / 2, P90 the 6th
    merge = (7, 24.0, 240.0)  # 0.6 7/6 10 24 240 240 240: the 4th, the 7th
    unreviewed = 1  # 36716
    first_response = (1, 3.0, 3.0)
    unanswered_24h = (1, 2)  # 38097 of 38097, 38107
    unanswered_72h = (1, 2)  # 38107 is exactly 72 h old
    # the four weeks before: first reviews 3 5, merges 12 20
    previous_first_review = (2, 4.0, 5.0)
    previous_merge = (2, 16.0, 20.0)
    # the whole repository
    repo_waiting = 5  # review:none: 38086 38166 36785 36810 38180 (a bot's review counts)
    repo_stale = 2
    repo_first_response = (2, 2.0, 3.0)  # 1 and 3
    repo_unanswered_24h = (1, 3)
    repo_unanswered_72h = (1, 2)  # 38110 is younger than 72 h
    previous_repo_first_response = (1, 5.0, 5.0)  # 37942, reopened: counted once, before
    # NVIDIA: 34549 only
    nvidia_first_review = (1, 2.0, 2.0)
    first_timers = (("li-liwen", "opened", (38108,)), ("SKPsanjeevi", "merged", (36574,)))
