"""Posting to Slack through slack_sdk's AsyncWebClient (the only Web API client we use).

Retries: slack_sdk's rate-limit handler honours `Retry-After` on 429, and its server-error
and connection handlers retry 5xx and dropped connections. Posts are paced to at most one
per second per channel, as Slack asks. Dead channels raise DestinationGone; any other
failure (Slack down, a timeout) is a TransportError for this destination alone.

Every post carries its part's identity in the message metadata (`event_payload.id`, the
deliverer's `PartKey.identity`, stamped here whatever the formatter wrote), and `find` looks for
that id in the channel's history or the thread's replies: metadata is kept by Slack, so a
part posted before a crash (or before the database was lost) is found, however long ago.

A picture (a payload with a `file`) goes through Slack's external upload
(`files_upload_v2`: files.getUploadURLExternal, the upload, files.completeUploadExternal,
shared into the thread with its caption). A file share carries no metadata, so the part's
identity is in the file's name (`…-<digest>.png`), which `find` looks for; the part's id is
the file's id. A crash before completeUploadExternal leaves only a private, unshared file,
and the retry uploads again; a crash after it is found by its name.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.delivery import DestinationGone, PartKey, Payload, TransportError

GONE_ERRORS = frozenset(
    {
        "channel_not_found",
        "not_in_channel",
        "is_archived",
        "channel_is_archived",
        "user_not_found",
        "account_inactive",
        "cannot_dm_bot",
    }
)
log = logging.getLogger(__name__)

HISTORY_LIMIT = 100  # how far back `find` looks for an unrecorded post
EVENT_TYPE = "vllm_report_part"
# Reading history may be refused for want of a scope (e.g. im:history for DMs): then the
# platform cannot be checked, which is said in the log, and the ledger alone decides.
UNCHECKABLE_ERRORS = frozenset({"missing_scope", "not_allowed_token_type", "no_permission"})
PACE_SECONDS = 1.0  # Slack: about one message per second per channel


def slack_client(token: str, base_url: str, retries: int = 5) -> AsyncWebClient:
    return AsyncWebClient(
        token=token,
        base_url=base_url,
        retry_handlers=[
            AsyncRateLimitErrorRetryHandler(max_retry_count=retries),
            AsyncServerErrorRetryHandler(max_retry_count=retries),
            AsyncConnectionErrorRetryHandler(max_retry_count=retries),
        ],
    )


class SlackTransport:
    platform = "slack"

    def __init__(self, client: AsyncWebClient, pace: float = PACE_SECONDS) -> None:
        self.client = client
        self.pace = pace
        self._last: dict[str, float] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def post(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        async with self._locks.setdefault(target, asyncio.Lock()):
            wait = self._last.get(target, 0.0) + self.pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if "file" in payload:
                message_id = await self._upload(target, payload, thread, key)
            else:
                response = await self._call(
                    self.client.chat_postMessage,
                    channel=target,
                    thread_ts=thread,
                    **stamp(payload, key),
                )
                message_id = str(response["ts"])
            self._last[target] = time.monotonic()
        return message_id

    async def _upload(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        file = payload["file"]
        response = await self._call(
            self.client.files_upload_v2,
            channel=target,
            thread_ts=thread,
            file=file["data"],
            filename=key.file_name(file["name"]),
            title=file["title"],
            alt_txt=file["alt"],
            initial_comment=payload.get("text"),
        )
        return str(response["file"]["id"])

    async def find(
        self,
        target: str,
        key: PartKey,
        payload: Payload,
        thread: str | None,
        exclude: set[str],
    ) -> str | None:
        since = key.since
        try:
            if thread is None:
                response = await self._call(
                    self.client.conversations_history,
                    channel=target,
                    limit=HISTORY_LIMIT,
                    include_all_metadata=True,
                    **({"oldest": f"{since.timestamp():.6f}"} if since else {}),
                )
            else:
                response = await self._call(
                    self.client.conversations_replies,
                    channel=target,
                    ts=thread,
                    limit=HISTORY_LIMIT,
                    include_all_metadata=True,
                )
        except _Uncheckable as exc:
            log.warning("cannot look for %s in %s (%s): trusting the ledger", key.part, target, exc)
            return None
        for message in response.get("messages") or []:
            if "file" in payload:  # a picture: named by its part
                for file in message.get("files") or []:
                    if key.tag in str(file.get("name")) and str(file.get("id")) not in exclude:
                        return str(file["id"])
                continue
            found = (message.get("metadata") or {}).get("event_payload") or {}
            if found.get("id") == key.identity and str(message.get("ts")) not in exclude:
                return str(message["ts"])
        return None

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        return message_id  # a reply with thread_ts = the parent's ts is a thread

    async def delete(self, target: str, message_id: str, thread: str | None) -> None:
        try:
            if message_id.startswith("F"):  # a shared picture is known by its file id
                await self._call(self.client.files_delete, file=message_id)
            else:  # a message by its ts, wherever it is in the channel
                await self._call(self.client.chat_delete, channel=target, ts=message_id)
        except _Uncheckable as exc:
            raise TransportError(f"Slack answered {exc}") from None

    async def resolve(self, target: str, kind: str) -> str:
        if kind != "dm":
            return target
        response = await self._call(self.client.conversations_open, users=target)
        return str(response["channel"]["id"])

    async def _call(self, method: Any, **kwargs: Any) -> Any:
        try:
            return await method(**kwargs)
        except SlackApiError as exc:
            error = str(exc.response.get("error", "")) if exc.response is not None else ""
            if error in GONE_ERRORS:
                raise DestinationGone(f"Slack says {error}") from None
            if error in UNCHECKABLE_ERRORS:
                raise _Uncheckable(error) from None
            raise TransportError(f"Slack answered {error or exc}") from None
        except (TimeoutError, OSError, aiohttp.ClientError) as exc:
            raise TransportError(f"Slack unreachable: {exc or type(exc).__name__}") from None


class _Uncheckable(Exception):
    """Slack refused to show history (a missing scope): the platform cannot be checked."""


def stamp(payload: Payload, key: PartKey) -> Payload:
    """The payload with its part's identity in the metadata (replacing the formatter's)."""
    metadata = dict(payload.get("metadata") or {})
    event_payload = dict(metadata.get("event_payload") or {})
    event_payload.update({"id": key.identity, "destination": key.destination, "part": key.part})
    metadata["event_type"] = metadata.get("event_type") or EVENT_TYPE
    metadata["event_payload"] = event_payload
    return {**payload, "metadata": metadata}
