"""Time limits on what a source may take, so a daily post never waits on one source.

A socket timeout bounds each read, not an answer: a server that sends its headers and then
one byte a second is waited on for ever. Two limits close that:

- **each answer** must be whole within ANSWER_SECONDS of its headers: past it the socket is
  shut (the blocked read ends at once) and the request fails with OutOfTime;
- **each feature's section** (`limited(what, seconds)`, set around a report part) may spend
  PART_SECONDS on its sources in all: a request asked for past it is never sent, one being
  read is hung up at it. The section then says what it could not read and the post goes out.

The limit in force is a context variable, so it follows `asyncio.to_thread` into the worker
thread that does the reading. No SDK is imported here: GitHub's wrapper (`wire.py`) and the
CI dashboard's reader each apply it to their own requests.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from bot.collect.source import CollectError

ANSWER_SECONDS = 60.0  # one answer, headers to last byte (GitHub's big pages take ~2 s)
# One feature's sources in a daily run: the radar's ~30 requests or Red on main's ~45 take
# under a minute at GitHub's pace; five leaves room for a rate-limit wait or two.
PART_SECONDS = 300.0


class OutOfTime(CollectError):
    """A source did not answer within its limit: one sentence, with the limit and whose."""


@dataclass(frozen=True)
class Limit:
    what: str  # whose time it is ("the review queue"), for the sentence
    seconds: float
    at: float  # time.monotonic() when it ends


_limit: ContextVar[Limit | None] = ContextVar("source_limit", default=None)


@contextlib.contextmanager
def limited(what: str, seconds: float) -> Iterator[None]:
    """Every request inside the block ends by `seconds` from now (a tighter limit already in
    force stays in force)."""
    at = time.monotonic() + seconds
    outer = _limit.get()
    if outer is not None and outer.at <= at:
        yield
        return
    token = _limit.set(Limit(what, seconds, at))
    try:
        yield
    finally:
        _limit.reset(token)


def check(where: str) -> None:
    """Raise OutOfTime when the limit in force has passed: no request is sent past it."""
    limit = _limit.get()
    if limit is not None and time.monotonic() >= limit.at:
        raise OutOfTime(_spent(where, limit))


def answer_by(where: str, seconds: float | None = None) -> tuple[float, str]:
    """When an answer asked for now must be whole (ANSWER_SECONDS unless told), and what
    to say when it is not."""
    seconds = ANSWER_SECONDS if seconds is None else seconds
    own = time.monotonic() + seconds
    limit = _limit.get()
    if limit is not None and limit.at < own:
        return limit.at, _spent(where, limit)
    return own, f"{where} sent no whole answer within {seconds:g} s; try again later"


def _spent(where: str, limit: Limit) -> str:
    return f"{where} did not answer within the {limit.seconds:g} s allowed for {limit.what}"


class HangUp:
    """Shuts a socket at a moment: the one way to end a read that is blocked on a server
    which keeps sending a byte at a time (closing from another thread is not enough)."""

    def __init__(self, at: float) -> None:
        self.at = at
        self.fired = False
        self._timer: threading.Timer | None = None

    def arm(self, sock: socket.socket) -> None:
        def hang_up() -> None:
            self.fired = True
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

        self.cancel()
        self._timer = threading.Timer(max(0.0, self.at - time.monotonic()), hang_up)
        self._timer.daemon = True
        self._timer.start()

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
