"""A fake Discord REST API on 127.0.0.1, reached through discord.py's `Route.BASE`.

`GET /users/@me`, `POST /channels/{id}/messages` (with `nonce` + `enforce_nonce`
deduplication as Discord does it: per *author*, across every channel, for a few minutes —
a second create with the same nonce returns the first message, wherever it was posted),
`GET /channels/{id}/messages`, `POST /channels/{id}/messages/{mid}/threads` (10008 when the
message is not in that channel), `POST /users/@me/channels` (DMs),
`POST /webhooks/{app}/{token}` (interaction follow-ups, their query kept: `wait=true`). A
message create may be multipart (`payload_json` and `files[n]`, as discord.py sends a file):
its attachments are kept and listed with their filename, size and description. Channels can
be unknown (10003) or forbidden (50001), posts can answer 429 with `retry_after`, and a post
can hang after it is stored (to kill the poster mid-send).

`GET /channels/{id}` answers every channel's type: a text channel (0) unless it was made a
forum (`add_forum`: type 15, `available_tags`, `flags` with REQUIRE_TAG), a thread (11). A
forum takes no message of its own (40058 on a create, 50024 on a history read); a post is
`POST /channels/{forum}/threads` with `name` (1–100), `applied_tags` (at most 5 of the
forum's ids) and `message` (the starter message: its id is the thread's), refused with 40067
when the forum requires a tag and none is applied, and with 50013 when the bot may not post
there (`Forum.may_post`). `PATCH /channels/{forum}` replaces `available_tags` (at most 20,
names at most 20 characters, unique; 50013 without Manage Channels: `Forum.may_manage`).
Posts are listed by `GET /guilds/{id}/threads/active` and, once archived (`archive`), by
`GET /channels/{forum}/threads/archived/public`; a message posted in one unarchives it;
`GET /channels/{thread}/messages/{id}` reads one message; `DELETE /channels/{thread}` removes
a post with its messages.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import default as email_policy
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.fakes.server import FakeServer

BOT_ID = "900000000000000001"
GUILD_ID = "1"
FORUM, TEXT, THREAD = 15, 0, 11  # channel types
REQUIRE_TAG = 1 << 4  # a forum's flag: every post must carry a tag


@dataclass
class Sent:
    channel: str
    id: str
    payload: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)  # filename → bytes


@dataclass
class Forum:
    """A forum channel: its tags (`available_tags`) and what the bot may do there."""

    tags: list[dict[str, Any]] = field(default_factory=list)
    require_tag: bool = False  # REQUIRE_TAG: a post without a tag is refused (40067)
    may_manage: bool = True  # Manage Channels: the bot may add tags (PATCH available_tags)
    may_post: bool = True  # Send Messages: the bot may open posts


@dataclass
class Post:
    """A forum post: a thread whose starter message has the thread's id."""

    id: str
    forum: str
    name: str
    tags: list[str]  # applied tag ids
    archived: bool = False
    owner: str = BOT_ID


@dataclass
class FakeDiscord(FakeServer):
    unknown: set[str] = field(default_factory=set)
    forbidden: set[str] = field(default_factory=set)
    rate_limited_posts: int = 0
    hang_on_post: int | None = None
    sent: list[Sent] = field(default_factory=list)
    threads: dict[str, str] = field(default_factory=dict)  # thread id → parent channel
    requests: list[tuple[str, str]] = field(default_factory=list)
    nonce_seconds: float = 300.0  # how long Discord remembers an enforced nonce
    down: bool = False  # every request answers 503 (Discord's API is down)
    rate_limit_rule: Any = None  # callable(index) -> bool: answer this post with a 429
    webhooks: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    post_delay: float = 0.0  # seconds each message create takes
    throttled: int = 0  # how many 429s were answered
    forums: dict[str, Forum] = field(default_factory=dict)
    posts: dict[str, Post] = field(default_factory=dict)  # forum posts by thread id
    webhook_queries: list[dict[str, str]] = field(default_factory=list)  # each follow-up's

    def __post_init__(self) -> None:
        super().__init__()
        self.handler = _Handler
        self.hung = threading.Event()
        self._lock = threading.Lock()
        self._sequence = 0
        self._posts = 0
        self._nonces: dict[str, tuple[float, Sent]] = {}  # per author (one bot here)

    @property
    def api_url(self) -> str:
        return self.url + "/api/v10"

    def snowflake(self) -> str:
        """A Discord id: milliseconds since Discord's epoch, then a sequence number."""
        with self._lock:
            self._sequence += 1
            millis = int(time.time() * 1000) - 1_420_070_400_000
            return str((millis << 22) | (self._sequence & 0x3FFFFF))

    def in_channel(self, channel: str) -> list[Sent]:
        return [s for s in self.sent if s.channel == channel]

    def add_forum(self, channel: str, tags: tuple[str, ...] = (), **options: Any) -> Forum:
        """Make `channel` a forum with tags named `tags` (Forum's fields as options)."""
        forum = Forum(**options)
        forum.tags = [self._tag(name) for name in tags]
        self.forums[channel] = forum
        return forum

    def _tag(self, name: str) -> dict[str, Any]:
        return {
            "id": self.snowflake(),
            "name": name,
            "moderated": False,
            "emoji_id": None,
            "emoji_name": None,
        }

    def posts_in(self, forum: str) -> list[Post]:
        return [p for p in self.posts.values() if p.forum == forum]

    def tag_names(self, post: Post) -> list[str]:
        names = {t["id"]: t["name"] for t in self.forums[post.forum].tags}
        return [names.get(tag, f"?{tag}") for tag in post.tags]

    def archive(self, thread: str) -> None:
        self.posts[thread].archived = True

    def channel(self, channel: str) -> dict[str, Any]:
        """The channel object `GET /channels/{id}` answers."""
        forum = self.forums.get(channel)
        if forum is not None:
            return {
                "id": channel,
                "type": FORUM,
                "guild_id": GUILD_ID,
                "name": f"forum-{channel}",
                "flags": REQUIRE_TAG if forum.require_tag else 0,
                "available_tags": [dict(t) for t in forum.tags],
            }
        post = self.posts.get(channel)
        if post is not None:
            return {
                "id": channel,
                "type": THREAD,
                "guild_id": GUILD_ID,
                "parent_id": post.forum,
                "owner_id": post.owner,
                "name": post.name,
                "applied_tags": list(post.tags),
                "thread_metadata": {"archived": post.archived, "locked": False},
            }
        if channel in self.threads:
            return {
                "id": channel,
                "type": THREAD,
                "guild_id": GUILD_ID,
                "parent_id": self.threads[channel],
            }
        return {"id": channel, "type": TEXT, "guild_id": GUILD_ID, "name": f"channel-{channel}"}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeDiscord
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        kind = self.headers.get("Content-Type", "")
        if not kind.startswith("multipart/form-data"):
            return json.loads(raw or b"{}")
        form = BytesParser(policy=email_policy).parsebytes(
            b"Content-Type: " + kind.encode() + b"\r\n\r\n" + raw
        )
        body: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        for part in form.iter_parts():
            name = part.get_param("name", header="content-disposition")
            data = part.get_payload(decode=True) or b""
            if name == "payload_json":
                body = json.loads(data)
            elif str(name).startswith("files["):
                files[str(part.get_filename())] = data
        given = body.get("attachments") or (body.get("message") or {}).get("attachments") or []
        described = {a.get("filename"): a for a in given}
        body["attachments"] = [
            {
                "id": self.fake.snowflake(),
                "filename": filename,
                "size": len(data),
                "content_type": "image/png" if filename.endswith(".png") else "text/plain",
                "description": described.get(filename, {}).get("description"),
            }
            for filename, data in files.items()
        ]
        body["_files"] = files
        return body

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        payload = json.dumps(body).encode() if body is not None else b""
        try:
            self.send_response(status)
            if body is not None:  # a 204 has no body and, as Discord sends it, no type
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _channel_error(self, channel: str) -> bool:
        if channel in self.fake.unknown:
            self._send(404, {"message": "Unknown Channel", "code": 10003})
            return True
        if channel in self.fake.forbidden:
            self._send(403, {"message": "Missing Access", "code": 50001})
            return True
        return False

    def do_GET(self) -> None:
        path = urlsplit(self.path).path.removeprefix("/api/v10")
        self.fake.requests.append(("GET", path))
        if self.fake.down:
            self._send(503, {"message": "upstream connect error", "code": 0})
            return
        if path == "/users/@me":
            self._send(
                200,
                {
                    "id": BOT_ID,
                    "username": "vllm-report",
                    "discriminator": "0",
                    "avatar": None,
                    "bot": True,
                    "global_name": None,
                },
            )
            return
        match = re.fullmatch(r"/channels/(\d+)", path)
        if match:
            if not self._channel_error(match.group(1)):
                self._send(200, self.fake.channel(match.group(1)))
            return
        match = re.fullmatch(r"/channels/(\d+)/messages", path)
        if match:
            channel = match.group(1)
            if self._channel_error(channel):
                return
            if channel in self.fake.forums:  # a forum holds posts, not messages
                self._send(
                    400, {"message": "Cannot execute action on this channel type", "code": 50024}
                )
                return
            messages = [self._message(s) for s in reversed(self.fake.in_channel(channel))]
            self._send(200, messages[:50])
            return
        match = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if match:
            found = [s for s in self.fake.sent if (s.channel, s.id) == match.groups()]
            if found:
                self._send(200, self._message(found[0]))
            else:
                self._send(404, {"message": "Unknown Message", "code": 10008})
            return
        if path == f"/guilds/{GUILD_ID}/threads/active":
            live = [self.fake.channel(p.id) for p in self.fake.posts.values() if not p.archived]
            self._send(200, {"threads": live, "members": []})
            return
        match = re.fullmatch(r"/channels/(\d+)/threads/archived/public", path)
        if match:
            if self._channel_error(match.group(1)):
                return
            posts = self.fake.posts_in(match.group(1))
            archived = [self.fake.channel(p.id) for p in reversed(posts) if p.archived]
            self._send(
                200, {"threads": archived[:50], "members": [], "has_more": len(archived) > 50}
            )
            return
        self._send(404, {"message": "404: Not Found", "code": 0})

    def do_DELETE(self) -> None:
        path = urlsplit(self.path).path.removeprefix("/api/v10")
        self.fake.requests.append(("DELETE", path))
        post = self.fake.posts.get(path.removeprefix("/channels/"))
        if post is not None:  # a forum post, with its messages
            gone = self.fake.channel(post.id)
            del self.fake.posts[post.id]
            self.fake.sent = [s for s in self.fake.sent if s.channel != post.id]
            self._send(200, gone)
            return
        match = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        gone = [s for s in self.fake.sent if match and (s.channel, s.id) == match.groups()]
        if not gone:
            self._send(404, {"message": "Unknown Message", "code": 10008})
            return
        self.fake.sent.remove(gone[0])
        self._send(204, None)

    def do_POST(self) -> None:
        path = urlsplit(self.path).path.removeprefix("/api/v10")
        self.fake.requests.append(("POST", path))
        body = self._body()
        if self.fake.down:
            self._send(503, {"message": "upstream connect error", "code": 0})
            return
        match = re.fullmatch(r"/webhooks/(\d+)/([^/]+)", path)
        if match:  # an interaction's follow-up: Discord always answers it with the message
            self.fake.webhooks.append((match.group(1), match.group(2), body))
            self.fake.webhook_queries.append(dict(parse_qsl(urlsplit(self.path).query)))
            self._send(200, {"id": self.fake.snowflake(), "channel_id": "0", **body})
            return
        if path == "/users/@me/channels":
            self._send(200, {"id": "7" + str(body["recipient_id"])[-17:], "type": 1})
            return
        match = re.fullmatch(r"/channels/(\d+)/messages/(\d+)/threads", path)
        if match:
            channel, message = match.groups()
            if not any((s.channel, s.id) == (channel, message) for s in self.fake.sent):
                self._send(404, {"message": "Unknown Message", "code": 10008})
                return
            if message in self.fake.threads:
                self._send(
                    400,
                    {
                        "message": "A thread has already been created for this message",
                        "code": 160004,
                    },
                )
                return
            self.fake.threads[message] = channel
            self._send(
                201,
                {
                    "id": message,
                    "type": 11,
                    "parent_id": channel,
                    "name": body.get("name"),
                    "guild_id": "1",
                },
            )
            return
        match = re.fullmatch(r"/channels/(\d+)/threads", path)
        if match and match.group(1) in self.fake.forums:
            self._open_post(match.group(1), body)
            return
        match = re.fullmatch(r"/channels/(\d+)/messages", path)
        if match:
            if match.group(1) in self.fake.forums:
                self._send(
                    400, {"message": "Cannot send a message in a forum channel", "code": 40058}
                )
                return
            self._post_message(match.group(1), body)
            return
        self._send(404, {"message": "404: Not Found", "code": 0})

    def do_PATCH(self) -> None:
        path = urlsplit(self.path).path.removeprefix("/api/v10")
        self.fake.requests.append(("PATCH", path))
        body = self._body()
        match = re.fullmatch(r"/channels/(\d+)", path)
        forum = self.fake.forums.get(match.group(1)) if match else None
        if match is None or forum is None:
            self._send(404, {"message": "404: Not Found", "code": 0})
            return
        if not forum.may_manage:
            self._send(403, {"message": "Missing Permissions", "code": 50013})
            return
        tags = body.get("available_tags", forum.tags)
        names = [str(t.get("name", "")) for t in tags]
        if len(tags) > 20:
            self._send(
                400,
                {
                    "message": "Maximum number of tags in a forum channel has been reached",
                    "code": 30048,
                },
            )
            return
        if any(len(n) > 20 for n in names) or len({n.casefold() for n in names}) < len(names):
            self._send(400, {"message": "Invalid Form Body", "code": 50035})
            return
        kept = {t["id"]: t for t in forum.tags}
        forum.tags = [
            kept[str(t["id"])] if str(t.get("id")) in kept else self.fake._tag(str(t["name"]))
            for t in tags
        ]
        self._send(200, self.fake.channel(match.group(1)))

    def _open_post(self, forum_id: str, body: dict[str, Any]) -> None:
        """`POST /channels/{forum}/threads`: a post and its starter message, checked as
        Discord checks them."""
        if self._channel_error(forum_id):
            return
        forum = self.fake.forums[forum_id]
        if not forum.may_post:
            self._send(403, {"message": "Missing Permissions", "code": 50013})
            return
        name = str(body.get("name") or "")
        tags = [str(t) for t in body.get("applied_tags") or []]
        message = dict(body.get("message") or {})
        known = {t["id"] for t in forum.tags}
        shown = message.get("content") or message.get("embeds") or body.get("_files")
        if not (1 <= len(name) <= 100) or len(tags) > 5 or not set(tags) <= known or not shown:
            self._send(400, {"message": "Invalid Form Body", "code": 50035})
            return
        if len(str(message.get("content") or "")) > 2000 or "nonce" in message:
            self._send(400, {"message": "Invalid Form Body", "code": 50035})
            return
        if forum.require_tag and not tags:
            self._send(
                400,
                {
                    "message": "A tag is required to create a forum post in this channel",
                    "code": 40067,
                },
            )
            return
        thread = self.fake.snowflake()
        post = Post(thread, forum_id, name, tags)
        if body.get("attachments"):  # multipart: the files belong to the starter message
            message["attachments"] = body["attachments"]
        starter = Sent(thread, thread, message, body.get("_files", {}))
        with self.fake._lock:
            self.fake.posts[thread] = post
            self.fake.threads[thread] = forum_id
            self.fake.sent.append(starter)
        if self.fake.hang_on_post is not None and len(self.fake.sent) == self.fake.hang_on_post:
            self.fake.hung.set()
            time.sleep(60)
            return
        self._send(201, {**self.fake.channel(thread), "message": self._message(starter)})

    def _post_message(self, channel: str, body: dict[str, Any]) -> None:
        if self._channel_error(channel):
            return
        with self.fake._lock:
            self.fake._posts += 1
            index = self.fake._posts
        rule = self.fake.rate_limit_rule
        if self.fake.rate_limited_posts or (rule is not None and rule(index)):
            self.fake.throttled += 1
            self.fake.rate_limited_posts = max(0, self.fake.rate_limited_posts - 1)
            self._send(
                429,
                {"message": "You are being rate limited.", "retry_after": 0.2, "global": False},
                # Discord's real 429s come through its proxy; discord.py checks `Via`.
                {"Retry-After": "0.2", "X-RateLimit-Scope": "user", "Via": "1.1 google"},
            )
            return
        if self.fake.post_delay:
            time.sleep(self.fake.post_delay)
        nonce = str(body.get("nonce") or "")
        enforced = bool(nonce and body.get("enforce_nonce"))
        with self.fake._lock:
            seen = self.fake._nonces.get(nonce) if enforced else None
            if seen is not None and time.monotonic() - seen[0] < self.fake.nonce_seconds:
                existing = seen[1]
            else:
                existing = None
                files = body.pop("_files", {})
                sent = Sent(channel, "", body, files)
        if existing is not None:  # Discord: the same author's nonce, in any channel
            self._send(200, self._message(existing))
            return
        sent.id = self.fake.snowflake()
        with self.fake._lock:
            if enforced:
                self.fake._nonces[nonce] = (time.monotonic(), sent)
            self.fake.sent.append(sent)
            if channel in self.fake.posts:  # Discord unarchives a post a message is sent to
                self.fake.posts[channel].archived = False
        if self.fake.hang_on_post is not None and len(self.fake.sent) == self.fake.hang_on_post:
            self.fake.hung.set()
            time.sleep(60)
            return
        self._send(200, self._message(sent))

    def _message(self, sent: Sent) -> dict[str, Any]:
        return {
            "id": sent.id,
            "channel_id": sent.channel,
            "type": 0,
            "content": sent.payload.get("content", ""),
            "embeds": sent.payload.get("embeds", []),
            "author": {
                "id": BOT_ID,
                "username": "vllm-report",
                "discriminator": "0",
                "avatar": None,
                "bot": True,
            },
            "timestamp": "2026-03-26T04:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": sent.payload.get("attachments", []),
            "pinned": False,
        }
