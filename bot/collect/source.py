"""Where GitHub is, and what a collection returned: no PyGithub here, so the archive's
answers never import it."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.model.errors import ServiceError
from bot.model.report import ActivityItem


class CollectError(ServiceError):
    """GitHub could not give us the data; the message says why and what to do."""


class Stopped(BaseException):
    """The process is stopping (Ctrl-C, `serve` told to stop): no request is sent any more.
    A BaseException, like KeyboardInterrupt: no `except Exception` on the way out turns it
    into a failure to log or a report to finish."""


@dataclass
class Collected:
    """What one collection returned: the items, and whether nothing was left out."""

    items: dict[int, ActivityItem] = field(default_factory=dict)
    complete: bool = True
    notes: list[str] = field(default_factory=list)

    def add(self, items: Iterable[ActivityItem]) -> None:
        for item in items:
            self.items[item.number] = item


@dataclass
class Listed:
    """One search of the review queue: GitHub's total and the items read (oldest first)."""

    total: int
    items: list[ActivityItem]
    complete: bool


@dataclass(frozen=True)
class GitHubSource:
    """Where and how to reach GitHub."""

    repo: str
    api_url: str = "https://api.github.com"
    token: str | None = None
    timeout: float = 15.0
    retries: int = 5
    backoff: float = 1.0
    max_rate_limit_wait: float = 300.0
    secondary_rate_wait: float = 60.0
    request_interval: float = 0.25
    # Set when the process stops: each request not yet sent raises Stopped instead.
    stop: threading.Event | None = field(default=None, compare=False, repr=False)
