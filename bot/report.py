"""The report model: our own frozen types, built at the collector's boundary.

No PyGithub object crosses into here (their lazy attributes make hidden API calls), and
nothing here does I/O. `ActivityItem` is one issue or pull request as GitHub last showed
it; `Report` is what one window of them amounts to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Literal

from bot.windows import Window

Kind = Literal["issue", "pr"]


class ListName(StrEnum):
    """The five counts of a report, each with its appendix list, in the reference's order."""

    NEW_ISSUES = "new_issues"
    CLOSED_ISSUES = "closed_issues"
    NEW_PRS = "new_prs"
    MERGED_PRS = "merged_prs"
    CLOSED_UNMERGED_PRS = "closed_unmerged_prs"


@dataclass(frozen=True)
class ActivityItem:
    """One issue or pull request of the watched repository."""

    repo: str
    number: int
    kind: Kind
    title: str
    author: str | None
    labels: tuple[str, ...]
    state: str
    created_at: datetime
    updated_at: datetime
    url: str
    closed_at: datetime | None = None
    merged_at: datetime | None = None
    state_reason: str | None = None
    comments: int = 0
    body: str | None = None
    author_association: str | None = None
    draft: bool = False
    reactions: int = 0

    def event_time(self, list_name: ListName) -> datetime | None:
        """When the event that puts this item on `list_name` happened (None: it did not)."""
        if list_name in (ListName.NEW_ISSUES, ListName.NEW_PRS):
            return self.created_at
        if list_name is ListName.MERGED_PRS:
            return self.merged_at
        return self.closed_at


@dataclass(frozen=True)
class ClosureSplit:
    """A closure count taken apart: closed by people versus swept by the stale bot."""

    resolved: int
    stale: int


@dataclass(frozen=True)
class CommentRecord:
    """One comment on an issue or PR (conversation comments; reviews are not fetched)."""

    repo: str
    number: int
    comment_id: int
    author: str | None
    author_association: str | None
    created_at: datetime


@dataclass(frozen=True)
class TopicSection:
    """One vendor or subject: its items, grouped, each with the reason it was placed here."""

    key: str
    issues: tuple[int, ...]
    prs: tuple[int, ...]
    groups: dict[str, tuple[int, ...]]
    reasons: dict[int, str]


@dataclass(frozen=True)
class HotDiscussion:
    number: int
    score: float
    comments_in_window: int
    participants: tuple[str, ...]
    maintainers: tuple[str, ...]
    reactions: int
    linked: tuple[int, ...]
    measured: bool  # False: comment threads were not fetched, figures are totals


@dataclass(frozen=True)
class KeyChange:
    number: int
    state: str  # merged, open, closed
    description: str
    score: float


@dataclass(frozen=True)
class NotableIssue:
    number: int
    signals: tuple[str, ...]
    hardware: tuple[str, ...]
    models: tuple[str, ...]
    score: float


@dataclass(frozen=True)
class TrendRow:
    topic: str
    count: int
    mean_7d: float
    direction: str  # "up", "down", "flat", "new"
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Cluster:
    name: str
    numbers: tuple[int, ...]


@dataclass(frozen=True)
class Activity:
    distinct_authors: int
    first_time_contributors: tuple[str, ...]
    vendor_authors: dict[str, tuple[str, ...]]
    merged: int
    bot_items: int


@dataclass(frozen=True)
class Sections:
    """Everything beyond the counts; all computed by code from the archive."""

    topics: dict[str, TopicSection]
    hot_discussions: tuple[HotDiscussion, ...]
    key_changes: tuple[KeyChange, ...]
    notable_issues: tuple[NotableIssue, ...]
    trends: tuple[TrendRow, ...]
    clusters: tuple[Cluster, ...]
    activity: Activity
    summary: dict[str, str]  # by language
    baseline_days: int  # how many of the 7 previous days the archive covered


@dataclass(frozen=True)
class Prose:
    """Text a language model wrote from the computed report, after the citation check."""

    model: str
    summary: dict[str, str]  # by language; empty when every sentence was dropped
    item_notes: dict[int, str]  # key changes: what it does / why it matters
    discussion_notes: dict[int, str]  # hot discussions: the stance of the thread
    dropped: int  # sentences removed by the check


@dataclass(frozen=True)
class Report:
    """The facts of one window: five counts, their lists, and whether the data is whole."""

    repo: str
    window: Window
    complete: bool
    lists: dict[ListName, tuple[int, ...]]
    items: dict[int, ActivityItem]
    closures: dict[ListName, ClosureSplit]
    notes: tuple[str, ...] = field(default=())
    generated_at: datetime | None = None
    sections: Sections | None = None
    prose: Prose | None = None

    @property
    def stats(self) -> dict[ListName, int]:
        return {name: len(numbers) for name, numbers in self.lists.items()}
