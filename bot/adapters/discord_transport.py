"""Posting to Discord through discord.py's HTTP client (REST only; the gateway is the app's).

discord.py honours 429 `retry_after` and retries 5xx itself. Every payload already carries
`allowed_mentions: {"parse": []}` and a stable nonce (`enforce_nonce`), so a resend within
Discord's few-minute window returns the message that exists; `find` also looks through the
channel's recent messages for the same embed, for crashes older than that. Threads are
started on the headline; a thread made from a message has that message's id.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord.http import HTTPClient, Route

from bot.delivery import DestinationGone, Payload, TransportError

GONE_CODES = frozenset({10003, 50001, 50013, 10013, 50007})  # unknown channel, no access, ...
THREAD_EXISTS = 160004
HISTORY_LIMIT = 50
ARCHIVE_MINUTES = 1440


def set_api_base(url: str | None) -> None:
    """Point discord.py at another REST base (tests use a local fake)."""
    if url:
        Route.BASE = url.rstrip("/")


class DiscordTransport:
    platform = "discord"

    def __init__(self, http: HTTPClient) -> None:
        self.http = http
        self._bot_id: str | None = None
        self._dm_channels: set[str] = set()

    @classmethod
    async def login(cls, token: str, api_url: str | None = None) -> DiscordTransport:
        set_api_base(api_url)
        http = HTTPClient(loop=asyncio.get_running_loop())
        user = await http.static_login(token)
        transport = cls(http)
        transport._bot_id = str(user["id"])
        return transport

    async def close(self) -> None:
        await self.http.close()

    async def resolve(self, target: str, kind: str) -> str:
        if kind != "dm":
            return target
        route = Route("POST", "/users/@me/channels")
        data = await self._call(route, json={"recipient_id": target})
        self._dm_channels.add(str(data["id"]))
        return str(data["id"])

    async def post(self, target: str, payload: Payload, thread: str | None) -> str:
        channel = thread or target
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        data = await self._call(route, json=payload)
        return str(data["id"])

    async def find(
        self, target: str, part: str, payload: Payload, thread: str | None
    ) -> str | None:
        channel = thread or target
        route = Route("GET", "/channels/{channel_id}/messages", channel_id=channel)
        messages = await self._call(route, params={"limit": HISTORY_LIMIT})
        wanted = [(e.get("title"), e.get("description")) for e in payload.get("embeds", [])]
        for message in messages or []:
            if self._bot_id and str(message.get("author", {}).get("id")) != self._bot_id:
                continue
            found = [(e.get("title"), e.get("description")) for e in message.get("embeds", [])]
            if found == wanted:
                return str(message["id"])
        return None

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        if target in self._dm_channels:
            return None  # DMs have no threads: the parts follow one another
        route = Route(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            channel_id=target,
            message_id=message_id,
        )
        try:
            data = await self._call(
                route, json={"name": name[:100], "auto_archive_duration": ARCHIVE_MINUTES}
            )
            return str(data["id"])
        except TransportError as exc:
            if str(THREAD_EXISTS) in str(exc):
                return message_id  # made by an earlier run; its id is the message's
            raise

    async def _call(self, route: Route, **kwargs: Any) -> Any:
        try:
            return await self.http.request(route, **kwargs)
        except (discord.NotFound, discord.Forbidden) as exc:
            if exc.code in GONE_CODES:
                raise DestinationGone(f"Discord says {exc.text or exc.code}") from None
            raise TransportError(f"Discord answered {exc.status} ({exc.code})") from None
        except discord.HTTPException as exc:
            raise TransportError(
                f"Discord answered {exc.status} ({exc.code}: {exc.text})"
            ) from None
        except OSError as exc:
            raise TransportError(f"Discord unreachable: {exc}") from None
