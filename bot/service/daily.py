"""The daily job around the pipeline: which window is due, catch-up, and where to post.

The scheduler calls `DailyJob.run` after each cutoff; at start-up `catch_up` posts the
windows missed while the bot was down, oldest first (a window counts as done when every
destination's ledger says so, or, with no chat configured, when its file exists). One run
at a time per process.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.delivery import COMPLETE_PART, Deliverer, Destination, Transport
from bot.model.windows import Window, current_day, day_window
from bot.service.pipeline import Pipeline, PostResult, window_key
from bot.store import Store
from config.settings import Settings

log = logging.getLogger(__name__)


class DailyJob:
    def __init__(
        self,
        settings: Settings,
        pipeline: Pipeline,
        store: Store,
        transports: dict[str, Transport],
        clock: Callable[[], datetime],
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.store = store
        self.transports = transports
        self.clock = clock
        self.deliverer = Deliverer(
            store.ledger,
            transports,
            clock,
            lease=timedelta(seconds=settings.delivery_lease_seconds),
        )
        self._lock = asyncio.Lock()  # one run at a time in this process

    def destinations(self) -> list[Destination]:
        found = [Destination("slack", c) for c in self.settings.slack_channel_list]
        found += [Destination("discord", c) for c in self.settings.discord_channel_list]
        return [d for d in found if d.platform in self.transports]

    def last_complete_window(self, now: datetime) -> Window:
        tz, cutoff = self.settings.tz, self.settings.cutoff_time
        return day_window(current_day(now, tz, cutoff) - timedelta(days=1), tz, cutoff)

    async def run(self) -> PostResult:
        """The scheduled run: the last complete window."""
        return await self.post(self.last_complete_window(self.clock()))

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
                results.append(await self.post(window))
        return results

    def delivered(self, window: Window) -> bool:
        destinations = self.destinations()
        if not destinations:
            return self.pipeline.files.exists(self.settings.repo, window, self.settings.lang)
        key = window_key(window)
        return all(
            COMPLETE_PART in self.store.ledger.parts(self.settings.repo, key, d.key)
            for d in destinations
        )

    async def post(self, window: Window) -> PostResult:
        async with self._lock:
            subscriptions = [
                s for s in self.store.subscriptions.list() if s.platform in self.transports
            ]
            return await self.pipeline.post(
                window,
                self.settings.repo,
                self.settings.lang,
                self.deliverer,
                self.destinations(),
                subscriptions,
            )
