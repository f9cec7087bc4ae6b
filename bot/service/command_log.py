"""Slash commands, timed and told: one log line per answer with its latency, and the
latency histogram of the metrics. The answers themselves are `CommandService`'s."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from bot.observe.logs import event
from bot.service.commands import Answer, CommandService, ReportRequest

if TYPE_CHECKING:
    from bot.observe.metrics import Metrics

log = logging.getLogger(__name__)


class TimedCommands(CommandService):
    """`CommandService` whose every answer is logged with how long it took."""

    metrics: Metrics | None = None

    async def report(self, user: str, request: ReportRequest) -> Answer:
        began = time.perf_counter()
        answer = await super().report(user, request)
        words = " ".join(
            w for w in (request.when, request.section, request.topic, request.repo) if w
        )
        self._told("vllm-report", words, user, answer, began)
        return answer

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
        began = time.perf_counter()
        answer = super().subscribe(platform, user, channel, topic, where, can_manage, remove)
        name = "vllm-unsubscribe" if remove else "vllm-subscribe"
        self._told(name, f"{topic} {where}", f"{platform}:{user}", answer, began)
        return answer

    def subscriptions(self, platform: str, user: str, channel: str) -> Answer:
        began = time.perf_counter()
        answer = super().subscriptions(platform, user, channel)
        self._told("vllm-subscriptions", "", f"{platform}:{user}", answer, began)
        return answer

    def topics(self) -> Answer:
        began = time.perf_counter()
        answer = super().topics()
        self._told("vllm-topics", "", "", answer, began)
        return answer

    def _told(self, command: str, words: str, user: str, answer: Answer, began: float) -> None:
        took = time.perf_counter() - began
        # Typed by strangers: one line, printable, short (no forged log lines).
        words = "".join(c for c in " ".join(words.split()) if c.isprintable())[:120]
        if self.metrics is not None:
            self.metrics.command_latency.labels(command=command).observe(took)
        what = f"the {answer.report.window.label} report" if answer.report else "a message"
        event(
            log,
            "command",
            "answered /%s%s%s with %s in %.2f s",
            command,
            f" {words}" if words else "",
            f" for {user}" if user else "",
            what,
            took,
            command=command,
            user=user,
            seconds=round(took, 4),
            report=answer.report is not None,
        )
