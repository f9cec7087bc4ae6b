"""What delivery speaks in: a part's identity (`PartKey`), where it goes (`Destination`),
what a run did (`DeliveryResult`), and the two protocols it needs — the ledger (the store's
`deliveries` table) and a platform's transport — so the deliverer is testable without SQL or
a platform."""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from bot.model.windows import WindowKey

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
    def held(self) -> bool:
        """True when this owner holds the part's lease (and alone may send it)."""

    @property
    def new(self) -> bool:
        """True when this claim was just made (no earlier run touched the part)."""

    @property
    def lease_until(self) -> datetime | None:
        """When another holder's lease runs out (when not held)."""


class Ledger(Protocol):
    """What delivery needs of the store (bot.store.ledger implements it)."""

    def claim(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        owner: str,
        now: datetime,
        lease: timedelta,
    ) -> Claim: ...

    def holds(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        owner: str,
        now: datetime,
        lease: timedelta,
    ) -> bool: ...

    def renew(self, owner: str, now: datetime, lease: timedelta) -> int: ...

    def release(
        self, repo: str, window: WindowKey, destination: str, part: str, owner: str, now: datetime
    ) -> None: ...

    def message_ids(self, repo: str, window: WindowKey) -> set[str]: ...

    def record(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        state: str,
        message_id: str | None,
        now: datetime,
    ) -> None: ...

    def sent(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        message_id: str,
        now: datetime,
    ) -> str: ...

    def parts(self, repo: str, window: WindowKey, destination: str) -> set[str]: ...

    def destination_failed(
        self, destination: str, reason: str, limit: int, now: datetime
    ) -> bool: ...

    def destination_ok(self, destination: str) -> None: ...

    def disabled(self, since: datetime | None = None) -> dict[str, str]: ...


@dataclass(frozen=True)
class PartKey:
    """What identifies one message on a platform: repo, window, destination (and stream), part.

    `identity` is the stable id the platforms carry (Discord nonce, Slack metadata).
    """

    repo: str
    window: WindowKey
    destination: str
    part: str

    @property
    def identity(self) -> str:
        text = f"{self.repo}|{self.window}|{self.destination}|{self.part}"
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def tag(self) -> str:
        """The identity as a file-name fragment (an uploaded file carries no metadata)."""
        return self.identity[:16]

    def file_name(self, name: str) -> str:
        """`chart.png` → `chart-<tag>.png`: an uploaded file says which part it is."""
        stem, dot, suffix = name.rpartition(".")
        return f"{stem}-{self.tag}{dot}{suffix}" if dot else f"{name}-{self.tag}"

    @property
    def since(self) -> datetime | None:
        """The window's start (None for the queue digest's key): no part is older."""
        return self.window.start


class Transport(Protocol):
    platform: str

    async def post(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        """Send, stamped with `key`; return the message id. `thread`: the parent to reply under.
        A payload with a `file` (name, data, alt, title) is a picture: uploaded with its
        caption, its name stamped with `key.file_name`."""
        ...

    async def find(
        self,
        target: str,
        key: PartKey,
        payload: Payload,
        thread: str | None,
        exclude: set[str],
    ) -> str | None:
        """The id of the message for `key` if an earlier run posted it (ids in `exclude` are
        other parts'), else None."""
        ...

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        """Make replies possible under `message_id`; the id replies go to (None: top level)."""
        ...

    async def delete(self, target: str, message_id: str, thread: str | None) -> None:
        """Remove a message this bot posted under `thread` (or at the top): a copy of a
        part another holder posted first."""
        ...

    async def resolve(self, target: str, kind: str) -> str:
        """The channel id to post to (a user's DM channel for kind "dm")."""
        ...


@dataclass(frozen=True)
class Heading:
    """What a delivery's thread is called, and what a post is filed under where posts
    carry labels of their own (a Discord forum's tags): the report's language, then the
    vendors it has news of, busiest first. A platform without such labels ignores them."""

    name: str
    labels: tuple[str, ...] = ()


@runtime_checkable
class OpensPosts(Protocol):
    """A transport whose first part may open a post of its own (a Discord forum: one post a
    delivery, titled and tagged, the rest in its thread). The deliverer sends the first part
    with `open_post` when the transport has it, else with `post`."""

    async def open_post(self, target: str, payload: Payload, key: PartKey, heading: Heading) -> str:
        """Send the first part, stamped with `key`, opening a post with `heading` where the
        destination takes posts; return the message id (a forum post's id: its thread's)."""
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
    withdrawn: int = 0  # copies removed: another holder had posted the part first
    failed: dict[str, str] = field(default_factory=dict)  # destination key → why
    # Copies that could not be removed (a missing scope, a rate limit): what a person must
    # delete by hand, one sentence each. The run is not clean while one stands.
    copies_left: list[str] = field(default_factory=list)


class LeaseBusy(Exception):
    """Another process holds a part's lease and has not finished within the wait limit."""


def new_owner() -> str:
    """This process's name in leases: host, pid and a random suffix (unique per deliverer)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"


def wall_clock() -> datetime:
    return datetime.now(UTC)
