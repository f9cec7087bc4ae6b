"""GitHub requests counted and the rate limit read, from PyGithub's own per-request record.

PyGithub logs every answer it receives on the `github.Requester` logger at DEBUG, with the
verb, URL, status and the response headers as the record's arguments (the Authorization
header masked). A filter on that logger reads those arguments — no request is added, and no
module outside `bot.collect` talks to GitHub — then drops the record unless `-vv` asked for
GitHub's debug lines. The rate limit left is GitHub's `X-RateLimit-Remaining` of the last
answer, per resource (`core`, `search`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

REQUESTER_LOGGER = "github.Requester"
_MESSAGE = "%s %s://%s%s %s %s ==> %i %s %s"  # PyGithub's Requester.__log format


@dataclass
class RateLimit:
    resource: str
    remaining: int
    limit: int
    reset: int | None  # epoch seconds


@dataclass(eq=False)
class GitHubMeter(logging.Filter):
    """Counts GitHub answers; keeps the rate limit each resource has left."""

    show_debug: bool = False  # let the records through to the log (-vv)
    requests: int = 0
    limits: dict[str, RateLimit] = field(default_factory=dict)
    listeners: list[Callable[[GitHubMeter, int], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.msg == _MESSAGE and isinstance(args, tuple) and len(args) == 9:
            status, headers = args[6], args[7]
            if isinstance(headers, dict):
                self._count(status if isinstance(status, int) else 0, headers)
        return self.show_debug

    def _count(self, status: int, headers: dict[str, object]) -> None:
        lowered = {str(k).lower(): str(v) for k, v in headers.items()}
        with self._lock:
            self.requests += 1
            remaining, limit = (
                lowered.get("x-ratelimit-remaining"),
                lowered.get("x-ratelimit-limit"),
            )
            if remaining is not None and limit is not None:
                resource = lowered.get("x-ratelimit-resource", "core")
                reset = lowered.get("x-ratelimit-reset")
                self.limits[resource] = RateLimit(
                    resource,
                    int(float(remaining)),
                    int(float(limit)),
                    int(float(reset)) if reset else None,
                )
        for listener in self.listeners:
            listener(self, status)

    def remaining(self, resource: str = "core") -> int | None:
        found = self.limits.get(resource)
        return found.remaining if found is not None else None

    def install(self) -> GitHubMeter:
        """Listen on PyGithub's logger (once per process; a second install replaces the first)."""
        logger = logging.getLogger(REQUESTER_LOGGER)
        for old in list(logger.filters):
            if isinstance(old, GitHubMeter):
                logger.removeFilter(old)
        logger.addFilter(self)
        logger.setLevel(logging.DEBUG)  # PyGithub builds the record only when DEBUG is on
        return self


_METER: GitHubMeter | None = None


def github_meter(show_debug: bool | None = None) -> GitHubMeter:
    """The process's meter, installed on first use and again if another meter replaced it.

    `show_debug` is set only when given: each command says what it wants (-vv or not), and
    a caller with no say (the daemon's start-up) keeps what the command line chose."""
    global _METER
    if _METER is None:
        _METER = GitHubMeter()
    if _METER not in logging.getLogger(REQUESTER_LOGGER).filters:
        _METER.install()
    if show_debug is not None:
        _METER.show_debug = show_debug
    return _METER
