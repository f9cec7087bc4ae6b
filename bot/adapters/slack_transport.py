"""Posting to Slack through slack_sdk's AsyncWebClient (the only Web API client we use).

Retries: slack_sdk's rate-limit handler honours `Retry-After` on 429, and its server-error
and connection handlers retry 5xx and dropped connections. Posts are paced to at most one
per second per channel, as Slack asks. Dead channels raise DestinationGone.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from bot.delivery import DestinationGone, Payload, TransportError

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
HISTORY_LIMIT = 100  # how far back `find` looks for an unrecorded post
PACE_SECONDS = 1.0  # Slack: about one message per second per channel


def slack_client(token: str, base_url: str, retries: int = 3) -> AsyncWebClient:
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

    async def post(self, target: str, payload: Payload, thread: str | None) -> str:
        async with self._locks.setdefault(target, asyncio.Lock()):
            wait = self._last.get(target, 0.0) + self.pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            response = await self._call(
                self.client.chat_postMessage, channel=target, thread_ts=thread, **payload
            )
            self._last[target] = time.monotonic()
        return str(response["ts"])

    async def find(
        self, target: str, part: str, payload: Payload, thread: str | None
    ) -> str | None:
        wanted = (payload.get("metadata") or {}).get("event_payload")
        if not wanted:
            return None
        if thread is None:
            response = await self._call(
                self.client.conversations_history,
                channel=target,
                limit=HISTORY_LIMIT,
                include_all_metadata=True,
            )
        else:
            response = await self._call(
                self.client.conversations_replies,
                channel=target,
                ts=thread,
                limit=HISTORY_LIMIT,
                include_all_metadata=True,
            )
        for message in response.get("messages") or []:
            found = (message.get("metadata") or {}).get("event_payload")
            if found == wanted:
                return str(message["ts"])
        return None

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        return message_id  # a reply with thread_ts = the parent's ts is a thread

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
            raise TransportError(f"Slack answered {error or exc}") from None
        except (TimeoutError, OSError) as exc:
            raise TransportError(f"Slack unreachable: {exc}") from None
