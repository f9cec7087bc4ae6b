"""The review queue: what waits on whom, and how fast people answer (pure types, no I/O).

Two kinds of facts meet here:
- the *lists*, as GitHub's search answers them now (open PRs waiting for review, waiting on
  their authors, ready to land; what the stale workflow will close soon), per scope: a topic
  (its labels) or the whole repository;
- the *response facts* of PRs merged and issues opened in a period (when each was opened or
  marked ready, first answered by a person, merged), read once per closed item and stored.

`Queue` is what analysis makes of them for one window; formatters draw it. Times are aware
datetimes; durations are hours (floats).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.model.catalog import Catalog, Kind
from bot.model.queue_rules import QueueRules as QueueRules
from bot.model.queue_rules import StaleRules as StaleRules
from bot.model.windows import Window

# The lists of one scope, in the order they are asked for.
WAITING, CHANGES, REBASE, READY, STALE_ISSUES, STALE_PRS = (
    "waiting",
    "changes_requested",
    "needs_rebase",
    "ready",
    "stale_issues",
    "stale_prs",
)
LISTS = (WAITING, CHANGES, REBASE, READY, STALE_ISSUES, STALE_PRS)
# Lists whose items a topic's queue reads (the others are counted only).
DETAILED = (WAITING, READY, STALE_ISSUES, STALE_PRS)
FIRST_TIMER_ASSOCIATIONS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


@dataclass(frozen=True)
class QueueItem:
    """An open issue or PR on one of the lists, as the search showed it."""

    number: int
    kind: Kind
    title: str
    author: str | None
    labels: tuple[str, ...]
    created_at: datetime
    updated_at: datetime
    ready_at: datetime | None = None  # last marked ready for review (None: never, or unknown)
    draft: bool = False
    author_association: str | None = None
    body: str | None = None
    # Everyone who left a review, as far as read (bots and the author too); None: not read
    # (GitHub's `review:none` chose the item). `more_reviews`: GitHub holds more than read.
    reviewers: tuple[str, ...] | None = None
    more_reviews: bool = False

    @property
    def waiting_since(self) -> datetime:
        """Opened, or last marked ready for review when that came later."""
        return clock_start(self.created_at, self.ready_at)


def clock_start(created_at: datetime, ready_at: datetime | None) -> datetime:
    """A PR opened as a draft waits for review from when it was marked ready."""
    return ready_at if ready_at is not None and ready_at > created_at else created_at


@dataclass(frozen=True)
class Found:
    """One list as GitHub answered it: the total it counts and the items read (the oldest
    first page, or every one for a list read whole, unless `complete` is False: past the
    search cap). A list asked for its count only holds none."""

    total: int
    items: tuple[QueueItem, ...] = ()
    complete: bool = True


@dataclass(frozen=True)
class ScopeLists:
    """The lists of one scope: a topic (`key`) or the whole repository (`key` None)."""

    key: str | None
    lists: dict[str, Found]
    detailed: bool  # items were read (a topic); else counts only


@dataclass(frozen=True)
class ResponseFact:
    """A PR merged or an issue opened, as far as response times go.

    `first_response_at`: for a PR its first review by a person other than its author, for an
    issue its first comment by one (bots never count). `known` is False when GitHub holds
    more reviews or comments than were read and none of those read was a person's answer.
    `first_merge`: the PR is its author's first merged PR (None: not asked)."""

    number: int
    kind: Kind
    title: str
    author: str | None
    labels: tuple[str, ...]
    created_at: datetime
    ready_at: datetime | None = None  # first marked ready for review (a PR opened as a draft)
    merged_at: datetime | None = None
    closed_at: datetime | None = None
    first_response_at: datetime | None = None
    responder: str | None = None
    known: bool = True
    first_merge: bool | None = None
    author_association: str | None = None

    @property
    def start(self) -> datetime:
        """Where the clock starts: opened, or first marked ready for review."""
        return clock_start(self.created_at, self.ready_at)


@dataclass(frozen=True)
class Percentiles:
    """Median and 90th percentile of a sample of hours, with the sample's size."""

    n: int
    median: float | None
    p90: float | None


@dataclass(frozen=True)
class Share:
    """Issues still unanswered after a delay, among those old enough to tell."""

    unanswered: int
    eligible: int

    @property
    def percent(self) -> float | None:
        return 100.0 * self.unanswered / self.eligible if self.eligible else None


@dataclass(frozen=True)
class PeriodTimes:
    """Response times of one period (the window, or the four weeks before it)."""

    start: datetime
    end: datetime
    first_review: Percentiles  # PRs merged in the period: opened/ready → first review
    merge: Percentiles  # PRs merged in the period: opened/ready → merged
    first_response: Percentiles  # issues opened in the period: opened → first answer
    unanswered_24h: Share
    unanswered_72h: Share
    merged: int
    merged_unreviewed: int  # merged without any review by a person
    opened: int  # issues opened in the period
    unknown: int = 0  # items whose first answer could not be told (left out)


@dataclass(frozen=True)
class ResponseTimes:
    current: PeriodTimes
    previous: PeriodTimes


@dataclass(frozen=True)
class Aged:
    """A waiting PR and how long it has waited."""

    number: int
    days: float
    since: str  # "opened" or "ready"


@dataclass(frozen=True)
class StaleSoon:
    number: int
    closes_at: datetime


@dataclass(frozen=True)
class ScopeQueue:
    """The queue of one scope: a topic (`key`) or the repository (`key` None)."""

    key: str | None
    waiting: int  # open, not draft, no review by a person, no needs-rebase
    over: tuple[tuple[int, int], ...]  # (days, PRs waiting longer); empty: counted only
    oldest: tuple[Aged, ...]
    changes_requested: int
    needs_rebase: int  # and no changes requested (each PR counted once)
    ready: int
    ready_items: tuple[int, ...]  # approved, oldest first
    stale_soon: int
    stale_items: tuple[StaleSoon, ...]  # soonest first
    times: ResponseTimes | None
    complete: bool = True
    discussed: int | None = None  # reviewed by a person, neither approved nor changes asked

    @property
    def on_author(self) -> int:
        return self.changes_requested + self.needs_rebase


@dataclass(frozen=True)
class FirstTimer:
    login: str
    numbers: tuple[int, ...]
    how: str  # "merged" (their first merged PR) or "opened" (their first PR)


@dataclass(frozen=True)
class Queue:
    """What waits on whom, for one window: per scope, the reader's topic first."""

    repo: str
    window: Window
    generated_at: datetime
    scopes: tuple[ScopeQueue, ...]
    items: dict[int, QueueItem]  # every item a scope names
    what: dict[int, str]  # their own one-line statements
    first_timers: tuple[FirstTimer, ...]
    catalog: Catalog
    rules: QueueRules
    measured: bool  # response times were read (not in anonymous mode)
    complete: bool
    notes: tuple[str, ...] = ()
    topic: str | None = None  # the reader's topic

    def scope(self, key: str | None) -> ScopeQueue | None:
        return next((s for s in self.scopes if s.key == key), None)
