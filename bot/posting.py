"""The daily job: sync → report → post to every channel → digests to every subscriber.

The report is collected once per window and rendered per destination. Only a complete
report is posted (an incomplete one is archived as `.partial` and retried by the next run
or the start-up catch-up), so no channel ever gets a half-written report as the day's post.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from bot.archive import markdown_path, report_stem, write_report
from bot.collect import Collector, GitHubSource
from bot.deliver import COMPLETE_PART, Deliverer, DeliveryResult, Destination, Payload, Transport
from bot.pipeline import ReportPipeline
from bot.report import Report
from bot.store import Store
from bot.topic_rules import TopicRules
from bot.windows import Window, current_day, day_window
from config.settings import Settings
from formatters.discord_embeds import discord_parts
from formatters.markdown import render_markdown
from formatters.slack_blocks import slack_parts

log = logging.getLogger(__name__)


@dataclass
class PostResult:
    window: str
    complete: bool
    delivery: DeliveryResult = field(default_factory=DeliveryResult)
    archived: list[str] = field(default_factory=list)


def window_key(window: Window) -> str:
    """The ledger's name for a window: its label and exact start (cutoffs may change)."""
    return f"{window.label}@{window.start.isoformat()}"


class Poster:
    def __init__(
        self,
        settings: Settings,
        rules: TopicRules,
        store: Store,
        transports: dict[str, Transport],
        clock: Callable[[], datetime],
        source: GitHubSource,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.store = store
        self.transports = transports
        self.clock = clock
        self.source = source
        self.deliverer = Deliverer(store, transports, clock)
        self._lock = asyncio.Lock()  # one run at a time in this process

    def destinations(self) -> list[Destination]:
        found = [Destination("slack", c) for c in self.settings.slack_channel_list]
        found += [Destination("discord", c) for c in self.settings.discord_channel_list]
        return [d for d in found if d.platform in self.transports]

    def last_complete_window(self, now: datetime) -> Window:
        tz, cutoff = self.settings.tz, self.settings.cutoff_time
        return day_window(current_day(now, tz, cutoff) - timedelta(days=1), tz, cutoff)

    async def daily(self) -> PostResult:
        """The scheduled run: the last complete window."""
        return await self.post_window(self.last_complete_window(self.clock()))

    async def catch_up(self) -> list[PostResult]:
        """At start-up: post missed windows of the last `catch_up_days`, oldest first."""
        now = self.clock()
        newest = self.last_complete_window(now)
        results = []
        for back in range(self.settings.catch_up_days - 1, -1, -1):
            day = newest.start.date() - timedelta(days=back)
            window = day_window(day, self.settings.tz, self.settings.cutoff_time)
            due = window.end + timedelta(minutes=self.settings.post_delay_minutes)
            if due <= now and not self.delivered(window):
                log.info("catching up on %s", window.label)
                results.append(await self.post_window(window))
        return results

    def delivered(self, window: Window) -> bool:
        key = window_key(window)
        for destination in self.destinations():
            done = self.store.deliveries(self.settings.repo, key, destination.key)
            if COMPLETE_PART not in done:
                return False
        return bool(self.destinations()) or self._archive_path(window).exists()

    async def post_window(self, window: Window) -> PostResult:
        async with self._lock:
            now = self.clock()
            report = await asyncio.to_thread(self._report, window, now, None)
            result = PostResult(window.label, report.complete)
            result.archived = self._archive(report)
            if not report.complete:
                log.warning(
                    "report %s is incomplete (%s); not posted",
                    window.label,
                    "; ".join(report.notes),
                )
                return result
            for destination in self.destinations():
                await self._send(report, destination, result.delivery)
            for sub in self.store.subscriptions():
                if sub.platform not in self.transports:
                    continue
                digest = await asyncio.to_thread(self._report, window, now, sub.topic)
                target = Destination(
                    sub.platform, sub.target_id, sub.target_kind, f"digest-{sub.topic}"
                )
                await self._send(digest, target, result.delivery, only=(sub.topic,))
            return result

    async def _send(
        self,
        report: Report,
        destination: Destination,
        result: DeliveryResult,
        only: tuple[str, ...] = (),
    ) -> None:
        link = self.settings.archive_link(report.repo, report.window.label)
        lang = self.settings.lang
        render = slack_parts if destination.platform == "slack" else discord_parts
        parts: list[tuple[str, Payload]] = render(report, self.rules, lang, only=only, link=link)
        name = f"vLLM report {report.window.label}"
        await self.deliverer.deliver(
            report.repo, window_key(report.window), destination, parts, name, result
        )

    def _report(self, window: Window, now: datetime, topic: str | None) -> Report:
        store = self.store
        pipeline = ReportPipeline(
            store, self.settings.repo, lambda: Collector(self.source), self.rules
        )
        try:
            return pipeline.full_report(window, now=now, topic=topic, lang=self.settings.lang)
        finally:
            pipeline.close()

    def _archive_path(self, window: Window) -> Path:
        return markdown_path(self.settings, self.settings.repo, report_stem(window.label))

    def _archive(self, report: Report) -> list[str]:
        markdown = render_markdown(report, self.settings.lang, self.rules)
        return [str(path) for path in write_report(self.settings, report, markdown)]
