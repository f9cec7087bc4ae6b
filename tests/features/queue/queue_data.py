"""The review queue's fixture: the real anchor items with review and answer times added.

The published reports (tests/data) give each item's number, title, author, labels and the
time it was opened, closed or merged; they show no review or comment times. For the queue
those are added here, deterministically (seeded by the item's number) and within what the
real times allow (a review after the opening and before the merge): reviews by real vLLM
reviewers of the fixture threads, gemini-code-assist's bot review on a third of the PRs (as
on vLLM), authors answering in their own threads, and a share of PRs and issues nobody has
answered. A few older open issues carry the `stale` label, and most real authors get an
earlier merged PR in the history (so "first merged PR" means something). Numbers in tests
of exact values come from the hand-made fixture of tests/features/queue/queue_fixture.py, never
this one.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace
from datetime import datetime, timedelta

from tests.anchor_data import anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeItem

REVIEWERS = (
    "tjtanaa",
    "yewentao256",
    "DarkLight1337",
    "NickLucche",
    "hmellor",
    "youkaichao",
    "njhill",
    "AndreasKaratzas",
    "benchislett",
    "Isotr0py",
)
BOT = "gemini-code-assist[bot]"
ISSUE_BOT = "github-actions[bot]"


def _review(number: int, index: int, user: str, at: datetime, state: str) -> dict[str, object]:
    return {"id": number * 1000 + index, "user": user, "state": state, "submitted_at": at}


def _comment(number: int, index: int, user: str, at: datetime) -> dict[str, object]:
    return {"id": number * 1000 + index, "user": user, "created_at": at}


def _pr(item: FakeItem, rng: random.Random) -> FakeItem:
    reviews: list[dict[str, object]] = []
    opened = item.created_at
    ready: list[datetime] = []
    if rng.random() < 0.15:  # opened as a draft, marked ready later
        opened = item.created_at + timedelta(hours=rng.uniform(1, 30))
        end = item.merged_at or item.closed_at
        if end is not None and opened >= end:
            opened = item.created_at + (end - item.created_at) / 2
        ready.append(opened)
    if item.number % 3 == 0:
        reviews.append(
            _review(item.number, 0, BOT, item.created_at + timedelta(minutes=9), "COMMENTED")
        )
    end = item.merged_at or item.closed_at
    roll = rng.random()
    reviewer = REVIEWERS[item.number % len(REVIEWERS)]
    if end is not None:  # merged or closed: reviewed before it ended, mostly
        if item.merged_at is not None and roll < 0.9:
            first = opened + timedelta(hours=rng.choice((0.4, 1.5, 3, 6, 14, 26, 50, 120)))
            first = min(first, item.merged_at - timedelta(minutes=20))
            first = max(first, item.created_at + timedelta(minutes=1))
            reviews.append(_review(item.number, 1, reviewer, first, "COMMENTED"))
            reviews.append(
                _review(
                    item.number, 2, item.author or "x", first + timedelta(minutes=30), "COMMENTED"
                )
            )
            approve = max(first, item.merged_at - timedelta(minutes=10))
            reviews.append(_review(item.number, 3, reviewer, approve, "APPROVED"))
    else:
        now_ish = item.created_at
        if roll < 0.40:
            pass  # nobody has reviewed it
        elif roll < 0.60:
            reviews.append(
                _review(item.number, 1, reviewer, now_ish + timedelta(hours=5), "COMMENTED")
            )
        elif roll < 0.78:
            reviews.append(
                _review(item.number, 1, reviewer, now_ish + timedelta(hours=3), "APPROVED")
            )
        elif roll < 0.88:
            reviews.append(
                _review(item.number, 1, reviewer, now_ish + timedelta(hours=2), "APPROVED")
            )
            reviews.append(
                _review(item.number, 2, reviewer, now_ish + timedelta(hours=8), "CHANGES_REQUESTED")
            )
        elif item.number % 3 != 0:
            reviews.append(
                _review(item.number, 1, BOT, now_ish + timedelta(minutes=9), "COMMENTED")
            )
    return replace(item, reviews=reviews, ready_events=ready, comment_list=[])


def _until(item: FakeItem, now: datetime) -> FakeItem:
    """The item without the reviews, answers and ready events after `now`."""
    return replace(
        item,
        reviews=[r for r in item.reviews if r["submitted_at"] <= now],  # type: ignore[operator]
        comment_list=[c for c in item.comment_list if c["created_at"] <= now],
        ready_events=[at for at in item.ready_events if at <= now],
    )


def _issue(item: FakeItem, rng: random.Random) -> FakeItem:
    comments: list[dict[str, object]] = []
    if rng.random() < 0.3:
        comments.append(_comment(item.number, 0, ISSUE_BOT, item.created_at + timedelta(minutes=2)))
    if rng.random() < 0.3:
        comments.append(
            _comment(item.number, 1, item.author or "x", item.created_at + timedelta(hours=1))
        )
    if rng.random() < 0.7:
        after = timedelta(hours=rng.choice((0.3, 2, 5, 9, 20, 30, 60, 100)))
        comments.append(
            _comment(item.number, 2, REVIEWERS[item.number % 7], item.created_at + after)
        )
    return replace(item, comment_list=comments, comments=len(comments))


def queue_items(history: int = 1500, now: datetime | None = None) -> list[FakeItem]:
    """The anchor days and older history, with reviews, answers and stale items, as GitHub
    would show them at `now` (default: the end of the largest day, 2026-03-25): nothing
    reviewed or answered later is there yet."""
    first = min(day.start for day in anchor_days())
    now = now or anchor_days()[2].end
    items = []
    for item in anchor_items():
        rng = random.Random(item.number)
        made = _pr(item, rng) if item.kind == "pr" else _issue(item, rng)
        items.append(_until(made, now))
    old = background_items(history, before=first)
    # History: most real authors had a PR merged long before (so few are first-timers); one
    # in twenty, chosen by name, did not.
    authors = sorted({it.author for it in items if it.author and "[bot]" not in it.author})
    regulars = [a for a in authors if zlib.crc32(a.encode()) % 20]
    merged_old = [it for it in old if it.kind == "pr" and it.merged_at is not None]
    old_by_number = {it.number: it for it in old}
    for author, earlier in zip(regulars, merged_old, strict=False):
        old_by_number[earlier.number] = replace(earlier, author=author)
    # A few open issues of the history carry the stale label (issues: they never wait for a
    # review), on both sides of the 7-day line.
    open_issues = [it for it in old if it.closed_at is None and it.kind == "issue"]
    labels = (["rocm"], ["nvidia"], ["rocm"], [], ["cpu"], ["rocm", "keep-open"])
    touched = (25, 35, 10, 27, 24, 40)  # days before: closes in 5, overdue, not soon, …
    for index, (extra, days) in enumerate(zip(labels, touched, strict=True)):
        stale = open_issues[index * 7]
        updated = now - timedelta(days=days)
        old_by_number[stale.number] = replace(stale, labels=["stale", *extra], updated_at=updated)
    return items + [old_by_number[it.number] for it in old]
