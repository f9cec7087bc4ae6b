"""Delivery: post a report's parts to each destination exactly once, thread first.

The ledger (the store's `deliveries` table, unique on repo, window, destination, part,
reached through the small `Ledger` protocol below so delivery is testable without SQL) moves each
part through claimed → sent (the platform's message id recorded) → confirmed (every part of
the destination is out). A rerun, a restart or a second `post` of the same window skips
what was sent. The one gap — a crash after the platform accepted a message and before the
id was recorded — is closed per platform by the transport's `find`: Slack looks for the
part's metadata in the channel (or thread) history; Discord resends with the part's stable
nonce and `enforce_nonce`, and gets the existing message back.

Destinations that are gone (deleted, archived, no access) are disabled after
`GONE_ATTEMPTS` tries and logged, and the others carry on. Rate limits and server errors
are retried by the platform SDKs (slack_sdk's retry handlers, discord.py's HTTP client).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

log = logging.getLogger(__name__)

GONE_ATTEMPTS = 2
COMPLETE_PART = "_complete"  # ledger row written when every part of a destination is out
Payload = dict[str, Any]


class DestinationGone(Exception):
    """The platform says the destination no longer exists or we may not post there."""


class TransportError(Exception):
    """A send failed for good (after the SDK's retries)."""


class Claim(Protocol):
    @property
    def message_id(self) -> str | None:
        """The platform's id of the part, when it is known to have gone out."""

    @property
    def new(self) -> bool:
        """True when this claim was just made (no earlier run touched the part)."""


class Ledger(Protocol):
    """What delivery needs of the store (bot.store.ledger implements it)."""

    def claim(
        self, repo: str, window: str, destination: str, part: str, now: datetime
    ) -> Claim: ...

    def record(
        self,
        repo: str,
        window: str,
        destination: str,
        part: str,
        state: str,
        message_id: str | None,
        now: datetime,
    ) -> None: ...

    def parts(self, repo: str, window: str, destination: str) -> set[str]: ...

    def destination_failed(
        self, destination: str, reason: str, limit: int, now: datetime
    ) -> bool: ...

    def destination_ok(self, destination: str) -> None: ...

    def disabled(self) -> dict[str, str]: ...


class Transport(Protocol):
    platform: str

    async def post(self, target: str, payload: Payload, thread: str | None) -> str:
        """Send; return the message id. `thread` is the id of the message to reply under."""
        ...

    async def find(
        self, target: str, part: str, payload: Payload, thread: str | None
    ) -> str | None:
        """The id of `part` if an earlier run already posted it, else None."""
        ...

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        """Make replies possible under `message_id`; the id replies go to (None: top level)."""
        ...

    async def resolve(self, target: str, kind: str) -> str:
        """The channel id to post to (a user's DM channel for kind "dm")."""
        ...


@dataclass(frozen=True)
class Destination:
    """Where to post: `slack:C0123` (a channel) or `discord-dm:4567` (a user's DMs).

    `stream` tells the daily post from a topic digest sent to the same place.
    """

    platform: str
    target: str
    kind: str = "channel"  # or "dm"
    stream: str = "daily"  # or "digest-<topic>"

    @property
    def key(self) -> str:
        suffix = "-dm" if self.kind == "dm" else ""
        stream = "" if self.stream == "daily" else f"#{self.stream}"
        return f"{self.platform}{suffix}:{self.target}{stream}"


@dataclass
class DeliveryResult:
    sent: int = 0
    skipped: int = 0
    recovered: int = 0
    failed: dict[str, str] = field(default_factory=dict)  # destination key → why


class Deliverer:
    def __init__(
        self,
        ledger: Ledger,
        transports: dict[str, Transport],
        clock: Callable[[], datetime],
    ) -> None:
        self.ledger = ledger
        self.transports = transports
        self.clock = clock

    async def deliver(
        self,
        repo: str,
        window: str,
        destination: Destination,
        parts: Sequence[tuple[str, Payload]],
        thread_name: str,
        result: DeliveryResult | None = None,
    ) -> DeliveryResult:
        """All parts to one destination, in order, the first as the thread's parent."""
        result = result or DeliveryResult()
        key = destination.key
        if key in self.ledger.disabled():
            result.failed[key] = "disabled earlier: the destination is gone"
            return result
        transport = self.transports.get(destination.platform)
        if transport is None:
            result.failed[key] = f"{destination.platform} is not configured"
            return result
        if COMPLETE_PART in self.ledger.parts(repo, window, key):
            result.skipped += len(parts)
            return result
        delivered: str | None = None
        for attempt in range(1, GONE_ATTEMPTS + 1):
            try:
                delivered = await self._parts(
                    repo, window, destination, transport, parts, thread_name, result
                )
                break
            except DestinationGone as exc:
                disabled = self.ledger.destination_failed(
                    key, str(exc), GONE_ATTEMPTS, self.clock()
                )
                log.warning("destination %s is gone (%s), attempt %d", key, exc, attempt)
                if disabled:
                    result.failed[key] = f"disabled: {exc}"
                    return result
                await asyncio.sleep(1.0)
            except TransportError as exc:
                log.error("delivery to %s failed: %s", key, exc)
                result.failed[key] = str(exc)
                return result
        if delivered is not None:
            self.ledger.destination_ok(key)
            self.ledger.record(repo, window, key, COMPLETE_PART, "confirmed", None, self.clock())
        return result

    async def _parts(
        self,
        repo: str,
        window: str,
        destination: Destination,
        transport: Transport,
        parts: Sequence[tuple[str, Payload]],
        thread_name: str,
        result: DeliveryResult,
    ) -> str:
        key = destination.key
        target = await transport.resolve(destination.target, destination.kind)
        thread: str | None = None
        for index, (part, payload) in enumerate(parts):
            reply_to = None if index == 0 else thread
            ledger = self.ledger.claim(repo, window, key, part, self.clock())
            message_id = ledger.message_id
            if message_id is not None:
                result.skipped += 1
            else:
                if not ledger.new:  # claimed before and never recorded: did it go out?
                    message_id = await transport.find(target, part, payload, reply_to)
                    if message_id is not None:
                        result.recovered += 1
                if message_id is None:
                    message_id = await transport.post(target, payload, reply_to)
                    result.sent += 1
                self.ledger.record(repo, window, key, part, "sent", message_id, self.clock())
            if index == 0:
                thread = await transport.open_thread(target, message_id, thread_name)
        for part, _ in parts:
            self.ledger.record(repo, window, key, part, "confirmed", None, self.clock())
        return target
