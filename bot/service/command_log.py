"""Slash commands, timed and told: one log line per answer with its latency, and the
latency histogram of the metrics. The answers themselves are `CommandService`'s; every
command goes through one wrapper here (`_timed`), so none is answered untold."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.observe.logs import event
from bot.service.commands import (
    Answer,
    CommandService,
    QueueRequest,
    RadarRequest,
    ReportRequest,
)

if TYPE_CHECKING:
    from bot.observe.metrics import Metrics

log = logging.getLogger(__name__)


class TimedCommands(CommandService):
    """`CommandService` whose every answer is logged with how long it took."""

    metrics: Metrics | None = None

    async def report(self, user: str, request: ReportRequest) -> Answer:
        words = (request.when, request.section, request.topic, request.repo)
        return await self._timed_async("vllm-report", words, user, super().report(user, request))

    async def queue(self, user: str, request: QueueRequest) -> Answer:
        words = (request.topic, request.when)
        return await self._timed_async("vllm-queue", words, user, super().queue(user, request))

    async def radar(self, user: str, request: RadarRequest) -> Answer:
        words = (request.plugin, request.when)
        return await self._timed_async("vllm-radar", words, user, super().radar(user, request))

    def subscribe(
        self,
        platform: str,
        user: str,
        channel: str,
        topic: str,
        where: str,
        can_manage: bool,
        remove: bool = False,
    ) -> Answer:
        name = "vllm-unsubscribe" if remove else "vllm-subscribe"
        return self._timed(
            name,
            (topic, where),
            f"{platform}:{user}",
            lambda: super(TimedCommands, self).subscribe(
                platform, user, channel, topic, where, can_manage, remove
            ),
        )

    def subscriptions(self, platform: str, user: str, channel: str) -> Answer:
        return self._timed(
            "vllm-subscriptions",
            (),
            f"{platform}:{user}",
            lambda: super(TimedCommands, self).subscriptions(platform, user, channel),
        )

    def topics(self) -> Answer:
        return self._timed("vllm-topics", (), "", super().topics)

    # -- the one wrapper -----------------------------------------------------------------------

    async def _timed_async(
        self, command: str, words: tuple[str | None, ...], user: str, answer: Awaitable[Answer]
    ) -> Answer:
        began = time.perf_counter()
        told = await answer
        self._told(command, words, user, told, began)
        return told

    def _timed(
        self,
        command: str,
        words: tuple[str | None, ...],
        user: str,
        answer: Callable[[], Answer],
    ) -> Answer:
        began = time.perf_counter()
        told = answer()
        self._told(command, words, user, told, began)
        return told

    def _told(
        self,
        command: str,
        words: tuple[str | None, ...],
        user: str,
        answer: Answer,
        began: float,
    ) -> None:
        took = time.perf_counter() - began
        # Typed by strangers: one line, printable, short (no forged log lines).
        said = " ".join(w for w in words if w)
        said = "".join(c for c in " ".join(said.split()) if c.isprintable())[:120]
        if self.metrics is not None:
            self.metrics.command_latency.labels(command=command).observe(took)
        if answer.report is not None:
            what = f"the {answer.report.window.label} report"
        elif answer.queue is not None:
            what = f"the {answer.queue.window.label} review queue"
        else:
            what = "a message"
        event(
            log,
            "command",
            "answered /%s%s%s with %s in %.2f s",
            command,
            f" {said}" if said else "",
            f" for {user}" if user else "",
            what,
            took,
            command=command,
            user=user,
            seconds=round(took, 4),
            report=answer.report is not None,
        )
