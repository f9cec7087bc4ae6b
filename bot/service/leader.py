"""One scheduler per deployment: the replica that holds the `scheduler` lease runs the daily job.

Every `serve` replica runs APScheduler, but its job runs only while the replica leads:
leadership is a lease in the database (bot.store.leases: owner, expiry, a fencing epoch),
taken and renewed every third of its length. When the leader dies its lease runs out and
another replica takes it over within `ttl + ttl/3` (measured by benchmarks/fault_figures.py);
on gaining leadership a replica runs the catch-up, which posts the window the dead leader
missed. Right before each run the leader checks it still holds the lease with the same
epoch (fencing), and the delivery ledger's per-part leases stay the last line of defence: even
two leaders at once (a paused process waking up after its lease ran out) send each part once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.delivery import new_owner
from bot.store import Held
from bot.store.leases import Leases

log = logging.getLogger(__name__)

SCHEDULER_LEASE = "scheduler"


def wall_clock() -> datetime:
    return datetime.now(UTC)


class Leader:
    def __init__(
        self,
        leases: Leases,
        ttl: timedelta,
        *,
        owner: str | None = None,
        wall: Callable[[], datetime] = wall_clock,
        name: str = SCHEDULER_LEASE,
    ) -> None:
        self.leases = leases
        self.ttl = ttl
        self.owner = owner or new_owner()
        self.wall = wall
        self.name = name
        self.held: Held | None = None

    def try_lead(self) -> bool:
        """Take or renew the lease; True while this replica leads."""
        was = self.held
        try:
            self.held = self.leases.acquire(self.name, self.owner, self.wall(), self.ttl)
        except Exception as exc:  # the database is away: leading without it is unsafe
            log.warning("could not take or renew the %s lease: %s", self.name, exc)
            self.held = None
        if self.held is not None and (was is None or was.epoch != self.held.epoch):
            log.info("this replica leads the %s (epoch %d)", self.name, self.held.epoch)
        elif self.held is None and was is not None:
            log.warning("this replica no longer leads the %s", self.name)
        return self.held is not None

    def leads(self) -> bool:
        """The fencing check before acting: the same lease, same epoch, not expired."""
        held = self.held
        if held is None:
            return False
        try:
            return self.leases.still_holds(held, self.wall())
        except Exception as exc:
            log.warning("could not check the %s lease: %s", self.name, exc)
            return False

    def release(self) -> None:
        if self.held is not None:
            try:
                self.leases.release(self.held, self.wall())
            except Exception as exc:
                log.warning("could not hand back the %s lease: %s", self.name, exc)
            self.held = None

    async def keep(
        self, stop: asyncio.Event, on_gain: Callable[[], Coroutine[Any, Any, Any]] | None = None
    ) -> None:
        """Until `stop`: take or renew the lease every third of its length; run `on_gain`
        (the catch-up) each time leadership is gained."""
        interval = max(0.05, self.ttl.total_seconds() / 3)
        tasks: set[asyncio.Task[Any]] = set()
        while not stop.is_set():
            had = self.held is not None
            leading = await asyncio.to_thread(self.try_lead)
            if leading and not had and on_gain is not None:
                task = asyncio.create_task(on_gain())
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                task.add_done_callback(_told)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), interval)
        await asyncio.to_thread(self.release)
        for task in tasks:
            task.cancel()

    def gate(self, job: Callable[[], Awaitable[Any]]) -> Callable[[], Coroutine[Any, Any, Any]]:
        """`job`, run only while this replica leads (for the scheduler)."""

        async def gated() -> Any:
            if not await asyncio.to_thread(self.leads):
                log.info("the daily job runs on the leading replica, not this one")
                return None
            return await job()

        return gated


def _told(task: asyncio.Task[Any]) -> None:
    """A failure of the work run on gaining the lead is logged, never dropped."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        log.error(
            "the catch-up stopped: %s: %s (a bug: run with -vv and report it)",
            type(exc).__name__,
            exc,
            exc_info=log.isEnabledFor(logging.DEBUG) and exc,
        )
