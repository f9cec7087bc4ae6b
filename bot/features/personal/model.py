"""Personal digests: what a subscription by label, author, path or `mine` selects, and how
often it is sent. Plain values; reading them from words is bot.commands.personal's, choosing
the items is bot.features.personal.selection's.

A filter is kept as its key in the subscriptions table's `topic` column (`label:rocm`,
`author:alice`, `path:vllm/v1/**`, `mine`), so a topic subscription and a personal one
live side by side and earlier stores need no change beyond the cadence; that text is read
by bot.model.subscriptions.SubscriptionKey alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from bot.model.outline_parts import Block
from bot.model.report import Report
from bot.model.subscriptions import CADENCES as CADENCES
from bot.model.subscriptions import MINE as MINE
from bot.model.subscriptions import Filter as Filter
from bot.model.windows import Window

WEEKLY_DAYS = 7  # a weekly digest covers the 7 report days up to the one just posted
PATHS_PER_PR = 100  # the files of a PR read (GitHub's GraphQL page); more are said so
COMMENTS_READ = 10  # an issue's last comments read: enough to see who answered today


@dataclass(frozen=True)
class PullFacts:
    """What a personal digest reads of an item besides the archive's copy: for a PR, the
    files it changes (`paths`, the first PATHS_PER_PR; `more_paths` when it changes more),
    whose review is requested and GitHub's review decision (approved, changes_requested,
    review_required or None); for an issue, its last comments (who, when). As GitHub showed
    them when the item was at its stored `updated_at`."""

    number: int
    paths: tuple[str, ...] = ()
    more_paths: bool = False
    requested: tuple[str, ...] = ()  # logins whose review is requested (teams left out)
    decision: str | None = None
    comments: tuple[tuple[str, datetime], ...] = ()  # an issue's last COMMENTS_READ


@dataclass(frozen=True)
class PersonalEntry:
    """One item of a personal digest and why it is there."""

    number: int
    reason: str  # yours, review_requested, mentioned, label, author, path
    state: str  # bot.model.states.state_key as the window ended
    decision: str | None = None  # an open PR's review decision
    matched: str = ""  # the path or label that matched


class ReaderNews(Protocol):
    """What another feature tells one reader in their `mine` digest, drawn in the digest's
    language (the CI feature's: the failures on main their PRs are suspected of)."""

    def block(self, until: datetime, lang: str) -> Block:
        """Its part of the digest, as of `until` (the digest window's end)."""
        ...


# What a feature has for a reader (their GitHub login) in the day's report; None: nothing.
NewsFor = Callable[[Report, str], ReaderNews | None]


@dataclass(frozen=True)
class PersonalDigest:
    """What one personal subscription gets for a window: its entries, grouped by reason in
    `REASONS` order, newest first within a reason."""

    repo: str
    window: Window
    filter: Filter
    login: str | None  # the reader's linked GitHub login (`mine`)
    entries: tuple[PersonalEntry, ...]
    items: dict[int, ItemView] = field(default_factory=dict)
    # `mine`: what other features tell this reader (Red on main: the failures their PRs
    # are suspected of), added by PersonalDigests.completed.
    news: tuple[ReaderNews, ...] = ()
    # The report days of the window the archive does not hold (a weekly digest read from
    # it alone): their items cannot be in the digest, and the reader is told so.
    missing: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.entries and not self.news


@dataclass(frozen=True)
class ItemView:
    """What a digest shows of an item: enough to draw a line without the report."""

    number: int
    kind: str
    title: str
    author: str | None
    url: str
    at: datetime  # its latest event in the window (opened, merged, closed)


# The order a digest tells its reasons in: what needs the reader first.
REASONS = ("review_requested", "commented", "yours", "mentioned", "label", "author", "path")
