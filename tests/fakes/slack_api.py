"""A fake Slack Web API on 127.0.0.1: the methods the bot calls, Slack's JSON, a record.

`auth.test`, `chat.postMessage`, `conversations.history`, `conversations.replies`,
`users.info`, `response_url` posts (`/response/<id>`), and the external file upload that
`files_upload_v2` makes: `files.getUploadURLExternal`, the upload itself (`/upload/<file id>`,
raw bytes) and `files.completeUploadExternal`, which shares the file into the channel or
thread as a message (refused when nothing was uploaded). Channels can be made dead
(`channel_not_found`, `not_in_channel`, `is_archived`), a method can answer 429 with
`Retry-After`, and a post can hang after it is stored (to kill the poster mid-send).

Blocks are checked as Slack checks them (tests/fakes/block_kit.py): a message whose blocks
break a Block Kit limit (a data_table of 102 rows, a chart of 7 series or a 51-character
title, a table without its caption, ragged rows, a section over 3,000 characters …) is
refused with `invalid_blocks` and Slack's reasons, and nothing is stored; every refusal is
kept in `refused`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from tests.fakes.block_kit import check_message
from tests.fakes.server import FakeServer


@dataclass
class Posted:
    channel: str
    ts: str
    thread_ts: str | None
    payload: dict[str, Any]

    @property
    def part(self) -> str:
        """Which part it is: its metadata says, or a shared file's name (`file:<name>`)."""
        if self.payload.get("files"):
            return "file:" + self.payload["files"][0]["name"]
        return str(self.payload["metadata"]["event_payload"]["part"])


@dataclass
class FakeSlack(FakeServer):
    dead: dict[str, str] = field(default_factory=dict)  # channel → error
    admins: set[str] = field(default_factory=set)
    rate_limited: dict[str, int] = field(default_factory=dict)  # method → how many 429s
    hang_on_post: int | None = None  # the Nth post is stored, then the answer never comes
    posted: list[Posted] = field(default_factory=list)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    responses: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    on_post: Any = None  # callable(number of posts so far), called after a post is stored
    rate_limit_rule: Any = None  # callable(index of the call) -> bool: answer it with a 429
    post_delay: float = 0.0  # seconds each chat.postMessage takes
    throttled: int = 0  # how many 429s were answered
    uploads: dict[str, bytes] = field(default_factory=dict)  # file id → bytes uploaded
    file_names: dict[str, tuple[str, str]] = field(default_factory=dict)  # id → name, alt
    upload_urls: int = 0  # files.getUploadURLExternal calls
    refuse_delete: str | None = None  # chat.delete answers this error ("missing_scope" …)
    refused: list[tuple[str, list[str]]] = field(default_factory=list)  # error, reasons

    def __post_init__(self) -> None:
        super().__init__()
        self.handler = _Handler
        self.hung = threading.Event()
        self._lock = threading.Lock()
        self._clock = 1_700_000_000.0

    @property
    def api_url(self) -> str:
        return self.url + "/api/"

    def next_ts(self) -> str:
        with self._lock:
            self._clock += 1.0
            return f"{self._clock:.6f}"

    def channel_posts(self, channel: str) -> list[Posted]:
        return [p for p in self.posted if p.channel == channel]


class _Handler(BaseHTTPRequestHandler):
    fake: FakeSlack
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:  # slack_sdk reads history and replies with GET
        self.do_POST()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        path = urlsplit(self.path).path
        if path.startswith("/upload/"):  # the upload URL handed out: raw bytes, not the API
            self.fake.uploads[path.rsplit("/", 1)[1]] = body
            self._send(200, f"OK - {len(body)}", content_type="text/plain")
            return
        raw = body.decode()
        if self.headers.get("Content-Type", "").startswith("application/json"):
            args = json.loads(raw or "{}")
        else:
            args = {k: v[0] for k, v in parse_qs(raw).items()}
        args.update({k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()})
        if path.startswith("/response/"):
            refused = self._refused(args)
            if refused is not None:  # a response_url answers in plain text
                self._send(400, refused["error"], content_type="text/plain")
                return
            self.fake.responses.append((path.rsplit("/", 1)[1], args))
            self._send(200, "ok", content_type="text/plain")
            return
        method = path.removeprefix("/api/")
        self.fake.calls.append((method, args))
        left = self.fake.rate_limited.get(method, 0)
        rule = self.fake.rate_limit_rule
        if left or (
            method == "chat.postMessage" and rule is not None and rule(len(self.fake.calls))
        ):
            self.fake.throttled += 1
            self.fake.rate_limited[method] = max(0, left - 1)
            self._send(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "1"})
            return
        handler = getattr(self, "m_" + method.replace(".", "_"), None)
        if handler is None:
            self._send(200, {"ok": False, "error": "unknown_method"})
            return
        handler(args)

    def _send(
        self,
        status: int,
        body: Any,
        headers: dict[str, str] | None = None,
        content_type: str = "application/json; charset=utf-8",
    ) -> None:
        payload = (body if isinstance(body, str) else json.dumps(body)).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def m_auth_test(self, args: dict[str, Any]) -> None:
        self._send(
            200,
            {
                "ok": True,
                "user_id": "UBOT",
                "team_id": "T1",
                "bot_id": "B1",
                "url": "https://example.slack.com/",
            },
        )

    def m_users_info(self, args: dict[str, Any]) -> None:
        user = args.get("user", "")
        self._send(
            200,
            {
                "ok": True,
                "user": {"id": user, "is_admin": user in self.fake.admins, "is_owner": False},
            },
        )

    def m_chat_delete(self, args: dict[str, Any]) -> None:
        if self.fake.refuse_delete is not None:
            self._send(200, {"ok": False, "error": self.fake.refuse_delete})
            return
        kept = [
            p
            for p in self.fake.posted
            if (p.channel, p.ts) != (args.get("channel"), args.get("ts"))
        ]
        if len(kept) == len(self.fake.posted):
            self._send(200, {"ok": False, "error": "message_not_found"})
            return
        self.fake.posted[:] = kept
        self._send(200, {"ok": True, "channel": args.get("channel"), "ts": args.get("ts")})

    def m_files_delete(self, args: dict[str, Any]) -> None:
        file = args.get("file")
        kept = [
            p
            for p in self.fake.posted
            if file not in {f["id"] for f in p.payload.get("files") or []}
        ]
        if len(kept) == len(self.fake.posted):
            self._send(200, {"ok": False, "error": "file_not_found"})
            return
        self.fake.posted[:] = kept
        self._send(200, {"ok": True})

    def m_conversations_open(self, args: dict[str, Any]) -> None:
        self._send(200, {"ok": True, "channel": {"id": "D" + str(args.get("users", ""))}})

    def m_chat_postMessage(self, args: dict[str, Any]) -> None:
        channel = str(args.get("channel", ""))
        if channel in self.fake.dead:
            self._send(200, {"ok": False, "error": self.fake.dead[channel]})
            return
        if isinstance(args.get("blocks"), str):
            args["blocks"] = json.loads(args["blocks"])
        if isinstance(args.get("metadata"), str):
            args["metadata"] = json.loads(args["metadata"])
        refused = self._refused(args)
        if refused is not None:
            self._send(200, refused)
            return
        if self.fake.post_delay:
            time.sleep(self.fake.post_delay)
        ts = self.fake.next_ts()
        if not self._stored(Posted(channel, ts, args.get("thread_ts"), args)):
            return
        self._send(
            200,
            {
                "ok": True,
                "channel": channel,
                "ts": ts,
                "message": {"ts": ts, "text": args.get("text", "")},
            },
        )

    def _refused(self, args: dict[str, Any]) -> dict[str, Any] | None:
        """Slack's answer to blocks it refuses (None: taken, or no blocks)."""
        if "blocks" not in args:
            return None
        blocks = args["blocks"]
        if isinstance(blocks, str):
            blocks = args["blocks"] = json.loads(blocks)
        found = check_message(blocks)
        if found is None:
            return None
        error, reasons = found
        self.fake.refused.append((error, reasons))
        return {
            "ok": False,
            "error": error,
            "errors": reasons,
            "response_metadata": {"messages": [f"[ERROR] {reason}" for reason in reasons]},
        }

    def _stored(self, posted: Posted) -> bool:
        """Keep a message; False when the answer is to hang (the poster is killed meanwhile)."""
        self.fake.posted.append(posted)
        if self.fake.on_post is not None:
            self.fake.on_post(len(self.fake.posted))
        if self.fake.hang_on_post is not None and len(self.fake.posted) == self.fake.hang_on_post:
            self.fake.hung.set()
            time.sleep(60)
            return False
        return True

    def m_files_getUploadURLExternal(self, args: dict[str, Any]) -> None:
        if not args.get("filename") or not str(args.get("length", "")).isdigit():
            self._send(200, {"ok": False, "error": "invalid_arguments"})
            return
        self.fake.upload_urls += 1
        file_id = f"F{self.fake.upload_urls:08d}"
        self.fake.uploads.setdefault(file_id, b"")
        self.fake.file_names[file_id] = (str(args["filename"]), str(args.get("alt_txt", "")))
        url = f"{self.fake.url}/upload/{file_id}"
        self._send(200, {"ok": True, "upload_url": url, "file_id": file_id})

    def m_files_completeUploadExternal(self, args: dict[str, Any]) -> None:
        files = json.loads(args.get("files", "[]"))
        channel = str(args.get("channel_id", ""))
        if channel in self.fake.dead:
            self._send(200, {"ok": False, "error": self.fake.dead[channel]})
            return
        refused = None if args.get("initial_comment") else self._refused(args)
        if refused is not None:  # blocks are read only without an initial comment
            self._send(200, refused)
            return
        shared = []
        for entry in files:
            data = self.fake.uploads.get(str(entry.get("id")))
            if not data:  # Slack: the upload step never happened
                self._send(200, {"ok": False, "error": "file_not_found"})
                return
            name, alt = self.fake.file_names[entry["id"]]
            shared.append(
                {
                    "id": entry["id"],
                    "name": name,
                    "title": entry.get("title") or name,
                    "alt_txt": alt,
                    "mimetype": "image/png"
                    if name.endswith(".png")
                    else "application/octet-stream",
                    "size": len(data),
                }
            )
        if channel:
            message = {"text": args.get("initial_comment", ""), "files": shared}
            ts = self.fake.next_ts()
            if not self._stored(Posted(channel, ts, args.get("thread_ts"), message)):
                return
        self._send(200, {"ok": True, "files": shared})

    def _messages(self, posts: list[Posted], with_metadata: bool) -> list[dict[str, Any]]:
        out = []
        for p in reversed(posts):  # newest first, as Slack answers
            message: dict[str, Any] = {
                "type": "message",
                "ts": p.ts,
                "user": "UBOT",
                "text": p.payload.get("text", ""),
            }
            if p.thread_ts:
                message["thread_ts"] = p.thread_ts
            if p.payload.get("files"):
                message["files"] = p.payload["files"]
            if with_metadata and p.payload.get("metadata"):
                message["metadata"] = p.payload["metadata"]
            out.append(message)
        return out

    def m_conversations_history(self, args: dict[str, Any]) -> None:
        channel = str(args.get("channel", ""))
        if channel in self.fake.dead:
            self._send(200, {"ok": False, "error": self.fake.dead[channel]})
            return
        tops = [p for p in self.fake.channel_posts(channel) if not p.thread_ts]
        meta = str(args.get("include_all_metadata", "")).lower() in ("1", "true")
        self._send(200, {"ok": True, "messages": self._messages(tops, meta), "has_more": False})

    def m_conversations_replies(self, args: dict[str, Any]) -> None:
        channel, ts = str(args.get("channel", "")), str(args.get("ts", ""))
        thread = [p for p in self.fake.channel_posts(channel) if p.ts == ts or p.thread_ts == ts]
        meta = str(args.get("include_all_metadata", "")).lower() in ("1", "true")
        messages = list(reversed(self._messages(thread, meta)))  # oldest first for replies
        self._send(200, {"ok": True, "messages": messages, "has_more": False})


def signed_command(
    fake: FakeSlack,
    command: str,
    text: str,
    secret: str,
    *,
    user: str = "U1",
    channel: str = "C1",
    age: int = 0,
) -> tuple[str, dict[str, str]]:
    """A slash-command request as Slack sends it: form body, HMAC v0 signature, timestamp."""
    body = urlencode(
        {
            "token": "legacy",
            "team_id": "T1",
            "team_domain": "t",
            "channel_id": channel,
            "channel_name": "general",
            "user_id": user,
            "user_name": "someone",
            "command": command,
            "text": text,
            "api_app_id": "A1",
            "trigger_id": "1.2.3",
            "response_url": f"{fake.url}/response/{command.strip('/')}-{time.time_ns()}",
        }
    )
    stamp = str(int(time.time()) - age)
    digest = hmac.new(secret.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256)
    return body, {
        "content-type": "application/x-www-form-urlencoded",
        "x-slack-request-timestamp": stamp,
        "x-slack-signature": f"v0={digest.hexdigest()}",
    }
