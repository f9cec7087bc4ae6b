"""The deliverer: post a report's parts to each destination exactly once, thread first.

The ledger (the store's `deliveries` table, unique on repo, window, destination, part,
reached through the small `Ledger` protocol below so delivery is testable without SQL) moves
each part through claimed → sent (the platform's message id recorded) → confirmed (every part
of the destination is out).

**Only the holder of a part's lease sends it.** A claim is a lease (owner, expiry) taken
atomically in the database; the holder renews its leases while it works (a heartbeat every
third of the lease) and checks it still holds the lease right before each send (fencing). A
second process (an operator's `post` during the scheduled run, another replica) that finds a
part leased waits until it is sent (then goes on with the next part) or until the lease runs
out (the holder died); it takes an expired lease over only after looking on the platform for
the part, so a crash between the platform's accept and our record never posts twice.

**Every message names its part on the platform**: the identity is (repo, window,
destination with its stream, part) — so a topic digest and the daily post, or two channels,
never share one. Discord gets it as the `nonce` (with `enforce_nonce`, which Discord checks
per author across channels), Slack in the message `metadata`. The deliverer stamps it at
send time, whatever the formatter put there. Before the headline is posted, the platform is
looked at even when the ledger has no row for it (the database was lost mid-post): a
recovered headline means its thread is searched for each later part too.

**The first part opens the thread.** Where a destination's posts have a title and labels of
their own (a Discord forum: a post per delivery, its starter message the first part), the
transport opens it with the delivery's `Heading` (`OpensPosts.open_post`); its id is the
first part's in the ledger and the thread the rest go to, so a resumed run goes on in it.

Destinations that are gone (deleted, archived, no access) are disabled after `GONE_ATTEMPTS`
tries and logged, and the others carry on; a disabled one is tried again a day later (an
invited bot is back by the next daily run) or at once when `doctor` finds it reachable;
any other failure of one destination (its platform down) is recorded for it alone. Rate
limits and server errors are retried by the platform SDKs (slack_sdk's retry handlers,
discord.py's HTTP client).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bot.delivery.parts import (
    COMPLETE_PART,
    Claim,
    DeliveryResult,
    Destination,
    DestinationGone,
    Heading,
    LeaseBusy,
    Ledger,
    OpensPosts,
    PartKey,
    Payload,
    Transport,
    TransportError,
    new_owner,
    wall_clock,
)
from bot.model.windows import WindowKey

log = logging.getLogger("bot.delivery")  # the name operators know from the log
T = TypeVar("T")

GONE_ATTEMPTS = 2
DISABLED_FOR = timedelta(hours=20)  # a gone destination is tried again after this (daily)
DEFAULT_LEASE = timedelta(seconds=30)  # a dead holder's parts wait this long at most
DEFAULT_WAIT = timedelta(minutes=10)  # how long to wait on a live holder before giving up
POLL_SECONDS = 1.0


class Deliverer:
    def __init__(
        self,
        ledger: Ledger,
        transports: dict[str, Transport],
        clock: Callable[[], datetime],
        *,
        lease: timedelta = DEFAULT_LEASE,
        wait_limit: timedelta = DEFAULT_WAIT,
        owner: str | None = None,
        wall: Callable[[], datetime] = wall_clock,
    ) -> None:
        self.ledger = ledger
        self.transports = transports
        self.clock = clock
        self.lease = lease
        self.wait_limit = wait_limit
        self.owner = owner or new_owner()
        self.wall = wall  # leases run on real time, whatever the report clock says
        self._active = 0
        self._heartbeat: asyncio.Task[None] | None = None

    async def _db(self, call: Callable[..., T], *args: Any) -> T:
        """A ledger call off the event loop: the database may take its time (a lock, a
        network round trip) and other commands are answered meanwhile."""
        return await asyncio.to_thread(call, *args)

    async def deliver(
        self,
        repo: str,
        window: WindowKey,
        destination: Destination,
        parts: Sequence[tuple[str, Payload]],
        thread_name: str | Heading,
        result: DeliveryResult | None = None,
    ) -> DeliveryResult:
        """All parts to one destination, in order, the first as the thread's parent (where
        posts have titles and tags, a post opened with `thread_name`'s: a Heading)."""
        result = result or DeliveryResult()
        heading = thread_name if isinstance(thread_name, Heading) else Heading(thread_name)
        key = destination.key
        if key in await self._db(self.ledger.disabled, self.clock() - DISABLED_FOR):
            result.failed[key] = (
                "disabled earlier as gone: tried again a day after, or at once when "
                "`vllm-report doctor` finds it reachable (invite the bot first)"
            )
            return result
        transport = self.transports.get(destination.platform)
        if transport is None:
            result.failed[key] = f"{destination.platform} is not configured"
            return result
        if COMPLETE_PART in await self._db(self.ledger.parts, repo, window, key):
            result.skipped += len(parts)
            return result
        async with self._beating():
            delivered = await self._attempts(
                repo, window, destination, transport, parts, heading, result
            )
        if delivered:
            await self._db(self.ledger.destination_ok, key)
            await self._db(
                self.ledger.record,
                repo,
                window,
                key,
                COMPLETE_PART,
                "confirmed",
                None,
                self.clock(),
            )
        return result

    async def _attempts(
        self,
        repo: str,
        window: WindowKey,
        destination: Destination,
        transport: Transport,
        parts: Sequence[tuple[str, Payload]],
        heading: Heading,
        result: DeliveryResult,
    ) -> bool:
        key = destination.key
        for attempt in range(1, GONE_ATTEMPTS + 1):
            try:
                await self._parts(repo, window, destination, transport, parts, heading, result)
                return True
            except DestinationGone as exc:
                disabled = await self._db(
                    self.ledger.destination_failed, key, str(exc), GONE_ATTEMPTS, self.clock()
                )
                log.warning("destination %s is gone (%s), attempt %d", key, exc, attempt)
                if disabled:
                    result.failed[key] = f"disabled: {exc}"
                    return False
                await asyncio.sleep(1.0)
            except TransportError as exc:
                log.error("delivery to %s failed: %s", key, exc)
                result.failed[key] = str(exc)
                return False
            except LeaseBusy as exc:
                log.warning("delivery to %s left to another run: %s", key, exc)
                result.failed[key] = str(exc)
                return False
        # Gone on every attempt yet not disabled (another run's success reset the count in
        # between): not delivered, and said so, never a silent skip.
        result.failed[key] = f"still gone after {GONE_ATTEMPTS} attempts"
        return False

    async def _parts(
        self,
        repo: str,
        window: WindowKey,
        destination: Destination,
        transport: Transport,
        parts: Sequence[tuple[str, Payload]],
        heading: Heading,
        result: DeliveryResult,
    ) -> None:
        target = await transport.resolve(destination.target, destination.kind)
        thread: str | None = None
        fresh_thread = False  # True when this run posted the headline: its thread is ours
        known: set[str] | None = None
        for index, (part, payload) in enumerate(parts):
            reply_to = None if index == 0 else thread
            part_key = PartKey(repo, window, destination.key, part)
            claim = await self._claim(part_key)
            message_id = claim.message_id
            if message_id is not None:
                result.skipped += 1
            else:
                try:
                    message_id = None
                    if not (claim.new and fresh_thread):
                        # Taken over, or nothing says the platform has not got it (the
                        # ledger may have been lost): look before sending.
                        if known is None:
                            known = await self._db(self.ledger.message_ids, repo, window)
                        message_id = await transport.find(
                            target, part_key, payload, reply_to, known
                        )
                        if message_id is not None:
                            result.recovered += 1
                    if message_id is None:
                        if not await self._db(self.ledger.holds, *self._lease_args(part_key)):
                            raise LeaseBusy(f"lost the lease on {part} before sending it")
                        if index == 0 and isinstance(transport, OpensPosts):
                            message_id = await transport.open_post(
                                target, payload, part_key, heading
                            )
                        else:
                            message_id = await transport.post(target, payload, reply_to, part_key)
                        result.sent += 1
                        fresh_thread = fresh_thread or index == 0
                except BaseException:
                    await self._db(self.ledger.release, *self._release_args(part_key))
                    raise
                message_id = await self._standing(
                    transport, (target, reply_to), part_key, message_id, result
                )
                if known is not None:
                    known.add(message_id)
            if index == 0:
                thread = await transport.open_thread(target, message_id, heading.name)
        for part, _ in parts:
            await self._db(
                self.ledger.record,
                repo,
                window,
                destination.key,
                part,
                "confirmed",
                None,
                self.clock(),
            )

    async def _standing(
        self,
        transport: Transport,
        where: tuple[str, str | None],  # the target and the thread the part went to
        key: PartKey,
        message_id: str,
        result: DeliveryResult,
    ) -> str:
        """Record the part as sent; if another holder recorded it first (this run was
        paused past its lease between the check and the send), remove this run's copy, so
        the channel shows the part once, and go on with the one that stands."""
        standing = await self._db(
            self.ledger.sent,
            key.repo,
            key.window,
            key.destination,
            key.part,
            message_id,
            self.clock(),
        )
        if standing != message_id:
            log.warning("%s was posted twice (a paused run); removing the copy", key.part)
            try:
                await transport.delete(where[0], message_id, where[1])
                result.withdrawn += 1
            except (TransportError, DestinationGone) as exc:
                said = (
                    f"{key.destination}: {key.part} was posted twice and the copy (message "
                    f"{message_id}) could not be removed ({exc}); delete it by hand"
                )
                result.copies_left.append(said)  # said by `post`, logged by `serve`
        return standing

    async def _claim(self, key: PartKey) -> Claim:
        """The part's lease, or its message id; waits while another live process holds it."""
        waited_until = self.wall() + self.wait_limit
        while True:
            claim = await self._db(
                self.ledger.claim,
                key.repo,
                key.window,
                key.destination,
                key.part,
                self.owner,
                self.wall(),
                self.lease,
            )
            if claim.message_id is not None or claim.held:
                return claim
            now = self.wall()
            if now >= waited_until:
                raise LeaseBusy(
                    f"another run is posting {key.part} and has not finished within "
                    f"{self.wait_limit.total_seconds():.0f} s; run `post` again later"
                )
            # Until it is sent, or the holder's lease runs out (the holder died).
            ends = claim.lease_until or now
            pause = min(POLL_SECONDS, max(0.05, (ends - now).total_seconds() + 0.05))
            await asyncio.sleep(pause)

    def _lease_args(
        self, key: PartKey
    ) -> tuple[str, WindowKey, str, str, str, datetime, timedelta]:
        return (
            key.repo,
            key.window,
            key.destination,
            key.part,
            self.owner,
            self.wall(),
            self.lease,
        )

    def _release_args(self, key: PartKey) -> tuple[str, WindowKey, str, str, str, datetime]:
        return (key.repo, key.window, key.destination, key.part, self.owner, self.wall())

    @contextlib.asynccontextmanager
    async def _beating(self) -> AsyncIterator[None]:
        """Renew this owner's leases every third of the lease while a delivery runs."""
        self._active += 1
        if self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._beat())
        try:
            yield
        finally:
            self._active -= 1
            if self._active == 0 and self._heartbeat is not None:
                self._heartbeat.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._heartbeat
                self._heartbeat = None

    async def _beat(self) -> None:
        interval = max(0.05, self.lease.total_seconds() / 3)
        while True:
            await asyncio.sleep(interval)
            try:
                await asyncio.to_thread(self.ledger.renew, self.owner, self.wall(), self.lease)
            except Exception as exc:  # the next send's fencing check will tell
                log.warning("could not renew delivery leases: %s", exc)
