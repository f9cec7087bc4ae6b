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

**Forum channels.** A channel's type is read once (`GET /channels/{id}`, kept for the
transport's life: Discord turns no channel into a forum or back), so a destination needs no
setting to be a forum. A forum takes no message of its own: the delivery's first part opens
a post (`POST /channels/{id}/threads`), named and tagged as forum.py says, whose starter
message is the headline and has the post's id; so the ledger's headline id is the thread the
replies go to, and a resumed run goes on in it. A tag the forum lacks is added (`PATCH
/channels/{id}`, which needs Manage Channels) while the forum has room; one that cannot be
is left off and said in one log line. A starter message takes no nonce: a post whose run
died before recording it is found among the forum's posts (active, and the newest archived)
by its starter message's embeds, as a message is found in a channel.

The login is lazy and retried: Discord being down at start-up fails Discord's destinations
for that run (a TransportError each), never Slack's, and never the process.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route

from bot.delivery import DestinationGone, Heading, PartKey, Payload, TransportError
from bot.platforms.discord import forum as posts

log = logging.getLogger("bot.delivery")  # what delivery tells operators, under one name

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
        self._types: dict[str, int] = {}  # channel id → Discord's channel type, read once
        self._guilds: dict[str, str] = {}  # channel id → its server's id
        self._just_read: dict[str, dict[str, Any]] = {}  # a forum read once, not yet posted to
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

    async def is_forum(self, channel: str) -> bool:
        """Whether `channel` holds posts rather than messages (a forum or media channel):
        its type, read once (`GET /channels/{id}`) and kept; a DM never is."""
        if channel in self._dm_channels:
            return False
        if channel not in self._types:
            route = Route("GET", "/channels/{channel_id}", channel_id=channel)
            data = await self._call(route)
            self._types[channel] = int(data.get("type") or 0)
            self._guilds[channel] = str(data.get("guild_id") or "")
            self._just_read[channel] = data
        return self._types[channel] in posts.FORUM_TYPES

    async def open_post(self, target: str, payload: Payload, key: PartKey, heading: Heading) -> str:
        """The first part: in a forum, a post titled and tagged (its id, its thread's, is the
        starter message's); elsewhere the message `post` sends."""
        if not await self.is_forum(target):
            return await self.post(target, payload, None, key)
        forum = self._just_read.pop(target, None)
        if forum is None:  # read again: the tags an operator changed since it was first read
            forum = await self._call(Route("GET", "/channels/{channel_id}", channel_id=target))
        tags = await self._tags(target, forum, heading.labels)
        message = {k: v for k, v in payload.items() if k not in ("nonce", "enforce_nonce")}
        body: dict[str, Any] = {
            "name": posts.post_name(payload, heading.name),
            "auto_archive_duration": ARCHIVE_MINUTES,
            "applied_tags": tags,
        }
        route = Route("POST", "/channels/{channel_id}/threads", channel_id=target)
        try:
            if "file" in message:
                data = await self._request(route, **_multipart(message, key, post=body))
            else:
                data = await self._request(route, json={**body, "message": message})
        except discord.HTTPException as exc:
            refused = posts.post_refused(target, exc.code, heading.labels)
            if refused is None:
                raise _failed(exc) from None
            said, gone = refused
            raise (DestinationGone(said) if gone else TransportError(said)) from None
        except (OSError, aiohttp.ClientError, TimeoutError) as exc:
            raise TransportError(f"Discord unreachable: {_why(exc)}") from None
        return str(data["id"])  # the post's, which its starter message has too

    async def _tags(
        self, forum: str, channel: dict[str, Any], labels: tuple[str, ...]
    ) -> list[str]:
        """The ids of the forum's tags named `labels` (at most 5, in order), adding the ones
        it lacks while it has room for them and the bot may; what is left off is logged."""
        wanted = posts.tag_names(labels)
        available = list(channel.get("available_tags") or [])
        adding, no_room = posts.tags_to_add(available, wanted)
        if adding:
            available = await self._add_tags(forum, available, adding)
        if no_room:
            log.warning("%s", posts.no_room(forum, no_room))
        return posts.applied(available, wanted)

    async def _add_tags(
        self, forum: str, available: list[dict[str, Any]], names: list[str]
    ) -> list[dict[str, Any]]:
        """The forum's tags after adding `names` (Modify Channel: the whole list, the tags it
        had kept by their ids); as they were when Discord refuses, said in one log line."""
        route = Route("PATCH", "/channels/{channel_id}", channel_id=forum)
        tags = available + [{"name": name} for name in names]
        try:
            changed = await self._request(route, json={"available_tags": tags})
        except discord.HTTPException as exc:
            detail = f"Discord answered {exc.status} ({exc.code}: {exc.text})"
            log.warning("%s", posts.tags_refused(forum, names, exc.code, detail))
            return available
        except (OSError, aiohttp.ClientError, TimeoutError) as exc:
            log.warning("%s", posts.tags_refused(forum, names, None, f"unreachable: {_why(exc)}"))
            return available
        return list(changed.get("available_tags") or [])

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
        if thread is None and await self.is_forum(target):
            messages = await self._starters(target, key.since, exclude)
        else:
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

    async def _starters(
        self, forum: str, since: datetime | None, exclude: set[str]
    ) -> list[dict[str, Any]]:
        """The starter messages of the bot's posts in `forum` opened since `since` and not
        in `exclude` (other parts'), each read from its post (a deleted one left out)."""
        starters = []
        for thread in await self._posts(forum):
            post = str(thread["id"])
            if self._bot_id and str(thread.get("owner_id")) != self._bot_id:
                continue
            if post in exclude or (since and snowflake_time(post) < since):
                continue  # another part's, or an earlier day's: not read
            route = Route(
                "GET",
                "/channels/{channel_id}/messages/{message_id}",
                channel_id=post,
                message_id=post,
            )
            try:
                starters.append(await self._request(route))
            except discord.NotFound:
                continue  # its starter message was deleted: not a post to go on in
            except discord.HTTPException as exc:
                raise _failed(exc) from None
            except (OSError, aiohttp.ClientError, TimeoutError) as exc:
                raise TransportError(f"Discord unreachable: {_why(exc)}") from None
        return starters

    async def _posts(self, forum: str) -> list[dict[str, Any]]:
        """The forum's posts: the active ones (listed for the whole server) and the newest
        50 archived ones."""
        posts: list[dict[str, Any]] = []
        guild = self._guilds.get(forum)
        if guild:
            route = Route("GET", "/guilds/{guild_id}/threads/active", guild_id=guild)
            active = await self._call(route)
            posts += [t for t in active.get("threads") or [] if str(t.get("parent_id")) == forum]
        route = Route("GET", "/channels/{channel_id}/threads/archived/public", channel_id=forum)
        archived = await self._call(route, params={"limit": HISTORY_LIMIT})
        return posts + list(archived.get("threads") or [])

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        if target in self._dm_channels:
            return None  # DMs have no threads: the parts follow one another
        if await self.is_forum(target):
            return message_id  # the post is the thread; its id is its starter message's
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
        if thread is None and await self.is_forum(target):  # a post: the thread goes with it
            await self._call(Route("DELETE", "/channels/{channel_id}", channel_id=message_id))
            return
        route = Route(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=thread or target,
            message_id=message_id,
        )
        await self._call(route)

    async def _call(self, route: Route, **kwargs: Any) -> Any:
        try:
            return await self._request(route, **kwargs)
        except discord.HTTPException as exc:
            raise _failed(exc) from None
        except (OSError, aiohttp.ClientError, TimeoutError) as exc:
            raise TransportError(f"Discord unreachable: {_why(exc)}") from None

    async def _request(self, route: Route, **kwargs: Any) -> Any:
        """discord.py's request, its exceptions as they are (for callers that tell codes
        apart)."""
        http = await self._ensure()
        return await http.request(route, **kwargs)


def _failed(exc: discord.HTTPException) -> DestinationGone | TransportError:
    """What Discord's refusal means for a delivery: a destination gone, or a failed send."""
    if isinstance(exc, (discord.NotFound, discord.Forbidden)):
        if exc.code in GONE_CODES:
            return DestinationGone(f"Discord says {exc.text or exc.code}")
        return TransportError(f"Discord answered {exc.status} ({exc.code})")
    return TransportError(f"Discord answered {exc.status} ({exc.code}: {exc.text})")


def _multipart(
    payload: Payload, key: PartKey, post: dict[str, Any] | None = None
) -> dict[str, Any]:
    """discord.py's request arguments for a message with one file (payload_json + files[0]);
    given `post` (a forum post's name and tags), the message is that post's starter."""
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
    sent = body if post is None else {**post, "message": body}
    form = [
        {"name": "payload_json", "value": json.dumps(sent)},
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
