"""Posting to Discord through discord.py's HTTP client (REST only; the gateway is the app's).

discord.py honours 429 `retry_after` and retries 5xx itself. Every post is stamped with its
part's identity as the `nonce` (with `enforce_nonce`), replacing the formatter's: Discord
checks an enforced nonce per *author* over the past few minutes, across channels, so the
nonce must name the destination and stream as well as repo, window and part — or a digest,
or a second channel, would get the daily post's message back instead of its own. A resend
within Discord's window returns the message that exists; `find` also looks through the
channel's (or thread's) recent messages for the same embeds, posted since the window began
and not already another part's, for crashes older than that. Threads are started on the
headline; a thread made from a message has that message's id.

A picture (a payload with a `file`) is a multipart create: `payload_json` (caption, nonce,
the attachment's alt text as its `description`) and `files[0]`, named with the part's
identity (`…-<digest>.png`) so `find` knows it among the thread's attachments.

The login is lazy and retried: Discord being down at start-up fails Discord's destinations
for that run (a TransportError each), never Slack's, and never the process.
"""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route

from bot.delivery import DestinationGone, PartKey, Payload, TransportError

GONE_CODES = frozenset({10003, 50001, 50013, 10013, 50007})  # unknown channel, no access, ...
THREAD_EXISTS = 160004
HISTORY_LIMIT = 50
ARCHIVE_MINUTES = 1440
NONCE_LIMIT = 25  # Discord: a nonce string is at most 25 characters
DISCORD_EPOCH_MS = 1_420_070_400_000


def set_api_base(url: str | None) -> None:
    """Point discord.py at another REST base (tests use a local fake)."""
    if url:
        Route.BASE = url.rstrip("/")


def nonce(key: PartKey) -> str:
    return ("vr" + key.identity)[:NONCE_LIMIT]


def snowflake_time(snowflake: str) -> datetime:
    """When a Discord id was made (ids carry their creation time)."""
    return datetime.fromtimestamp(((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000, UTC)


class DiscordTransport:
    platform = "discord"

    def __init__(self, token: str, api_url: str | None = None) -> None:
        self._token = token
        self._api_url = api_url
        set_api_base(api_url)  # routes read the base when they are built
        self.http: HTTPClient | None = None
        self._bot_id: str | None = None
        self._dm_channels: set[str] = set()
        self._login_lock = asyncio.Lock()

    @classmethod
    async def login(cls, token: str, api_url: str | None = None) -> DiscordTransport:
        """A transport that has logged in (raises TransportError when it cannot)."""
        transport = cls(token, api_url)
        await transport._ensure()
        return transport

    async def _ensure(self) -> HTTPClient:
        async with self._login_lock:
            if self.http is not None:
                return self.http
            set_api_base(self._api_url)
            http = HTTPClient(loop=asyncio.get_running_loop())
            try:
                user = await http.static_login(self._token)
            except discord.LoginFailure:
                await http.close()
                raise TransportError(
                    "Discord refused the bot token (401): check DISCORD_BOT_TOKEN"
                ) from None
            except (discord.HTTPException, OSError, aiohttp.ClientError, TimeoutError) as exc:
                await http.close()
                raise TransportError(f"Discord unreachable: {_why(exc)}") from None
            self.http = http
            self._bot_id = str(user["id"])
            return http

    async def close(self) -> None:
        if self.http is not None:
            await self.http.close()
            self.http = None

    async def resolve(self, target: str, kind: str) -> str:
        if kind != "dm":
            return target
        route = Route("POST", "/users/@me/channels")
        data = await self._call(route, json={"recipient_id": target})
        self._dm_channels.add(str(data["id"]))
        return str(data["id"])

    async def post(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        channel = thread or target
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        stamped = {**payload, "nonce": nonce(key), "enforce_nonce": True}
        if "file" in payload:
            data = await self._call(route, **_multipart(stamped, key))
        else:
            data = await self._call(route, json=stamped)
        return str(data["id"])

    async def find(
        self,
        target: str,
        key: PartKey,
        payload: Payload,
        thread: str | None,
        exclude: set[str],
    ) -> str | None:
        channel = thread or target
        route = Route("GET", "/channels/{channel_id}/messages", channel_id=channel)
        messages = await self._call(route, params={"limit": HISTORY_LIMIT})
        wanted = _embeds(payload)
        since = key.since
        matches = []
        for message in messages or []:
            message_id = str(message.get("id"))
            if self._bot_id and str(message.get("author", {}).get("id")) != self._bot_id:
                continue
            if message_id in exclude or (since and snowflake_time(message_id) < since):
                continue
            if "file" in payload:  # a picture: named by its part
                if any(key.tag in str(a.get("filename")) for a in message.get("attachments") or []):
                    matches.append(message_id)
            elif _embeds(message) == wanted:
                matches.append(message_id)
        # The oldest unclaimed match: parts go out in the order they are looked for.
        return min(matches, key=int) if matches else None

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

    async def delete(self, target: str, message_id: str, thread: str | None) -> None:
        route = Route(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=thread or target,
            message_id=message_id,
        )
        await self._call(route)

    async def _call(self, route: Route, **kwargs: Any) -> Any:
        http = await self._ensure()
        try:
            return await http.request(route, **kwargs)
        except (discord.NotFound, discord.Forbidden) as exc:
            if exc.code in GONE_CODES:
                raise DestinationGone(f"Discord says {exc.text or exc.code}") from None
            raise TransportError(f"Discord answered {exc.status} ({exc.code})") from None
        except discord.HTTPException as exc:
            raise TransportError(
                f"Discord answered {exc.status} ({exc.code}: {exc.text})"
            ) from None
        except (OSError, aiohttp.ClientError, TimeoutError) as exc:
            raise TransportError(f"Discord unreachable: {_why(exc)}") from None


def _multipart(payload: Payload, key: PartKey) -> dict[str, Any]:
    """discord.py's request arguments for a message with one file (payload_json + files[0])."""
    file = payload["file"]
    name = key.file_name(file["name"])
    body = {k: v for k, v in payload.items() if k != "file"}
    body["attachments"] = [{"id": 0, "filename": name, "description": file["alt"]}]
    old = f"attachment://{file['name']}"  # an embed showing the picture follows its new name
    body["embeds"] = [
        {**e, "image": {"url": f"attachment://{name}"}}
        if (e.get("image") or {}).get("url") == old
        else e
        for e in body.get("embeds") or []
    ]
    upload = discord.File(io.BytesIO(file["data"]), filename=name, description=file["alt"])
    form = [
        {"name": "payload_json", "value": json.dumps(body)},
        {
            "name": "files[0]",
            "value": upload.fp,
            "filename": name,
            "content_type": "image/png",
        },
    ]
    return {"form": form, "files": [upload]}  # files: rewound by discord.py on each retry


def _embeds(message: Payload) -> list[tuple[Any, Any]]:
    return [(e.get("title"), e.get("description")) for e in message.get("embeds") or []]


def _why(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"it answered {exc.status}"
    return str(exc) or type(exc).__name__
