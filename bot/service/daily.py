"""The schedule around the daily run: which window is due, the catch-up, and what the running
bot tells about each run.

The scheduler calls `DailyJob.run` after each cutoff; at start-up `catch_up` posts the
windows missed while the bot was down, oldest first; after a failed run `retry` (called
by the scheduler every minute) runs the catch-up again with backoff — 5 minutes, doubled
up to 2 hours — until every due window of the horizon is posted (a window counts as done when every
destination's ledger says so, or, with no chat configured, when its file exists). Each of
them, and `vllm-report post`, is one `DailyRun` (bot.service.daily_run: report → files →
site → channels → digests). `run` and `catch_up` never raise: a failure is one sentence
saying what to do (secrets masked: bot.model.errors), recorded for `/healthz` and the metrics.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.delivery import COMPLETE_PART, Destination
from bot.model.errors import InputError, ServiceError, masked
from bot.model.report import Report
from bot.model.windows import Window, WindowKey, current_day, day_window
from bot.observe.logs import event, problem
from bot.report_files import ReportFiles
from bot.service.daily_run import DailyRun, PostResult
from bot.service.run_observer import JobObserver
from bot.store.ledger import Ledger
from config.settings import Settings

__all__ = ["DailyJob", "JobObserver", "PostResult"]

log = logging.getLogger(__name__)

RETRY_FIRST = timedelta(minutes=5)  # after a failed run; doubled after each failed retry
RETRY_MAX = timedelta(hours=2)


class DailyJob:
    def __init__(
        self,
        settings: Settings,
        run: DailyRun,
        ledger: Ledger,
        files: ReportFiles,
        clock: Callable[[], datetime],
        observer: JobObserver | None = None,
    ) -> None:
        self.settings = settings
        self.daily_run = run
        self.ledger = ledger
        self.files = files
        self.clock = clock
        self.observer = observer or JobObserver()
        self.retry_at: datetime | None = None  # when the next retry is due (None: none is)
        self._retries = 0

    def destinations(self) -> list[Destination]:
        return list(self.daily_run.destinations())

    def last_complete_window(self, now: datetime) -> Window:
        tz, cutoff = self.settings.tz, self.settings.cutoff_time
        return day_window(current_day(now, tz, cutoff) - timedelta(days=1), tz, cutoff)

    async def run(self) -> PostResult:
        """The scheduled run: the last complete window. Never raises (see `attempt`)."""
        return await self.attempt(self.last_complete_window(self.clock()))

    async def catch_up(self) -> list[PostResult]:
        """At start-up: post missed windows of the last `catch_up_days`, oldest first; stop
        at the first that fails (the next would fail the same way)."""
        now = self.clock()
        newest = self.last_complete_window(now)
        results = []
        for back in range(self.settings.catch_up_days - 1, -1, -1):
            day = newest.start.date() - timedelta(days=back)
            window = day_window(day, self.settings.tz, self.settings.cutoff_time)
            due = window.end + timedelta(minutes=self.settings.post_delay_minutes)
            if due <= now and not await asyncio.to_thread(self.delivered, window):
                event(log, "catch-up", "catching up on %s (missed while down)", window.label)
                result = await self.attempt(window)
                results.append(result)
                if not _succeeded(result):
                    break
        return results

    def retry_due(self) -> bool:
        return self.retry_at is not None and self.clock() >= self.retry_at

    async def retry(self) -> list[PostResult]:
        """After a failure, when its backoff has passed: the catch-up again (every due window
        of the horizon not yet posted, oldest first). Nothing when no retry is due."""
        if not self.retry_due():
            return []
        self._retries += 1
        event(log, "retry", "retrying the failed run (attempt %d)", self._retries)
        self.retry_at = None
        results = await self.catch_up()  # a failure in it schedules the next try
        if self.retry_at is None:
            self._retries = 0
        return results

    def _retry_later(self) -> None:
        wait = min(RETRY_FIRST * 2**self._retries, RETRY_MAX)
        self.retry_at = self.clock() + wait
        event(
            log,
            "retry-scheduled",
            "the next try in %d minutes (%s)",
            wait.total_seconds() // 60,
            self.retry_at.isoformat(timespec="minutes"),
        )

    def delivered(self, window: Window) -> bool:
        destinations = self.destinations()
        if not destinations:
            return self.files.exists(self.settings.repo, window, self.settings.lang)
        key = WindowKey.of(window)
        return all(
            COMPLETE_PART in self.ledger.parts(self.settings.repo, key, d.key) for d in destinations
        )

    async def attempt(self, window: Window) -> PostResult:
        """`post`, with every failure told in one sentence and recorded for /healthz."""
        try:
            result = await self.daily_run(window)
        except (ServiceError, InputError) as exc:
            return self._failed(window, str(exc))
        except OSError as exc:
            return self._failed(window, _write_failure(exc))
        except Exception as exc:  # a bug: say so in one line, the traceback at -vv
            log.debug("the %s run failed", window.label, exc_info=True)
            return self._failed(
                window,
                f"unexpected {type(exc).__name__}: {exc} (a bug: run `vllm-report -vv post "
                f"{window.label}` and report what it prints)",
            )
        self._record(window, result)
        return result

    async def post(
        self,
        window: Window,
        refresh: bool = False,
        check: Callable[[Report], None] | None = None,
    ) -> PostResult:
        """One window through the daily run (failures raise; `attempt` tells them)."""
        return await self.daily_run(window, refresh, check)

    def _record(self, window: Window, result: PostResult) -> None:
        if not _succeeded(result) and self.retry_at is None:
            self._retry_later()
        if not result.complete:
            self._note(
                window,
                f"the {window.label} report is incomplete (GitHub did not give everything): "
                "archived as partial, not posted; the next run tries again",
            )
            return
        if result.delivery.failed:
            reasons = "; ".join(f"{k}: {why}" for k, why in result.delivery.failed.items())
            self._note(window, f"{window.label} was not posted everywhere ({reasons})")
            return
        self._note(window, None)

    def _failed(self, window: Window, reason: str) -> PostResult:
        reason = masked(reason)  # a library's text (an unexpected error) may echo a secret
        problem(log, "run-failed", "the %s run failed: %s", window.label, reason)
        self._note(window, reason)
        if self.retry_at is None:
            self._retry_later()
        return PostResult(window.label, complete=False)

    def _note(self, window: Window, reason: str | None) -> None:
        """The run's outcome for /healthz and the metrics."""
        self.observer.run_ended(window.label, reason, self.clock())


def _succeeded(result: PostResult) -> bool:
    return result.complete and not result.delivery.failed


def _write_failure(exc: OSError) -> str:
    where = exc.filename or "the data folder"
    return (
        f"cannot write {where} ({exc.strerror or exc}): make the folder writable by this "
        "user or set VLLM_REPORT_DATA_DIR to one that is"
    )
