"""The daily job around the pipeline: which window is due, catch-up, where to post, and
what the running bot tells about each run.

The scheduler calls `DailyJob.run` after each cutoff; at start-up `catch_up` posts the
windows missed while the bot was down, oldest first (a window counts as done when every
destination's ledger says so, or, with no chat configured, when its file exists). One run
at a time per process.

A run: the report (collected and analyzed) → its files in the archive → the report site
rebuilt (so the page a post links to exists when people click it; a failure here is logged
and never stops the post) → every channel and subscriber. Each step logs one line; `run`
and `catch_up` never raise: a failure is one sentence saying what to do, recorded for
`/healthz` and the metrics.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.delivery import COMPLETE_PART, Deliverer, DeliveryResult, Destination, Payload, Transport
from bot.model.errors import InputError, ServiceError
from bot.model.query import ReportQuery
from bot.model.windows import Window, current_day, day_window
from bot.observe.logs import event, problem
from bot.service.pipeline import Pipeline, PostResult, window_key
from bot.store import Store
from config.settings import Settings

if TYPE_CHECKING:
    from bot.model.report import Report
    from bot.observe.github_meter import GitHubMeter
    from bot.observe.metrics import Metrics
    from bot.service.health import RunHealth

log = logging.getLogger(__name__)


@dataclass
class JobObserver:
    """Where a run's figures go: the metrics, the health check, the GitHub meter (each
    optional: `post` from the command line has none of them)."""

    metrics: Metrics | None = None
    health: RunHealth | None = None
    meter: GitHubMeter | None = None


@dataclass
class _Sent:
    sent: int = 0
    skipped: int = 0
    failed: str | None = None


@dataclass
class _Tally:
    """What each destination got in one run."""

    by_destination: dict[str, _Sent] = field(default_factory=dict)


class _TallyingDeliverer(Deliverer):
    """The ledger's deliverer, noting per destination what was sent, skipped or failed."""

    tally: _Tally | None = None

    async def deliver(
        self,
        repo: str,
        window: str,
        destination: Destination,
        parts: Sequence[tuple[str, Payload]],
        thread_name: str,
        result: DeliveryResult | None = None,
    ) -> DeliveryResult:
        result = result if result is not None else DeliveryResult()
        sent, skipped = result.sent + result.recovered, result.skipped
        try:
            return await super().deliver(repo, window, destination, parts, thread_name, result)
        finally:
            if self.tally is not None:
                self.tally.by_destination[destination.key] = _Sent(
                    result.sent + result.recovered - sent,
                    result.skipped - skipped,
                    result.failed.get(destination.key),
                )


class DailyJob:
    def __init__(
        self,
        settings: Settings,
        pipeline: Pipeline,
        store: Store,
        transports: dict[str, Transport],
        clock: Callable[[], datetime],
        observer: JobObserver | None = None,
    ) -> None:
        self.settings = settings
        self.pipeline = pipeline
        self.store = store
        self.transports = transports
        self.clock = clock
        self.observer = observer or JobObserver()
        self.deliverer = _TallyingDeliverer(
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

    def delivered(self, window: Window) -> bool:
        destinations = self.destinations()
        if not destinations:
            return self.pipeline.files.exists(self.settings.repo, window, self.settings.lang)
        key = window_key(window)
        return all(
            COMPLETE_PART in self.store.ledger.parts(self.settings.repo, key, d.key)
            for d in destinations
        )

    async def attempt(self, window: Window) -> PostResult:
        """`post`, with every failure told in one sentence and recorded for /healthz."""
        try:
            result = await self.post(window)
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

    async def post(self, window: Window) -> PostResult:
        async with self._lock:
            report = await self._report(window)
            await asyncio.to_thread(self.pipeline.write, report, self.settings.lang)
            if not report.complete:  # archived as `.partial`; asking again now would fail too
                problem(
                    log,
                    "incomplete",
                    "report %s is incomplete (%s); archived as partial, not posted",
                    window.label,
                    "; ".join(report.notes) or "GitHub did not give everything",
                    window=window.label,
                )
                return PostResult(window.label, complete=False)
            await self._rebuild_site()  # the files and the site first: the post links to them
            subscriptions = [
                s for s in self.store.subscriptions.list() if s.platform in self.transports
            ]
            tally = self.deliverer.tally = _Tally()
            try:
                result = await self.pipeline.post(  # the report comes from the pipeline's cache
                    window,
                    self.settings.repo,
                    self.settings.lang,
                    self.deliverer,
                    self.destinations(),
                    subscriptions,
                )
            finally:
                self.deliverer.tally = None
            self._tell_delivery(window, result, tally)
            return result

    # -- the steps, told ---------------------------------------------------------------------

    async def _report(self, window: Window) -> Report:
        meter, metrics = self.observer.meter, self.observer.metrics
        before = meter.requests if meter is not None else 0
        began = time.perf_counter()
        # With the review queue: the same query Pipeline.post asks, so it finds this report.
        query = ReportQuery(self.settings.repo, window, self.settings.lang, queue=True)
        report = await asyncio.to_thread(self.pipeline.report, query)
        took = time.perf_counter() - began
        requests = meter.requests - before if meter is not None else None
        left = meter.remaining() if meter is not None else None
        if metrics is not None:
            metrics.report_build.observe(took)
            if report.complete:
                metrics.last_sync.set(time.time())
        event(
            log,
            "sync",
            "synced %s: %s GitHub requests, %d items, report made in %.1f s%s",
            window.label,
            "?" if requests is None else requests,
            len(report.items),
            took,
            f" (rate limit: {left} left)" if left is not None else "",
            window=window.label,
            requests=requests,
            items=len(report.items),
            seconds=round(took, 3),
            rate_limit_remaining=left,
            complete=report.complete,
        )
        return report

    async def _rebuild_site(self) -> None:
        """The report site brought up to date; a failure is told and never stops the post."""
        from bot.service.site import SiteBuilder

        settings = self.settings
        root = settings.site_root
        builder = SiteBuilder(
            self.pipeline, settings.repo, settings.tz, settings.cutoff_time, settings.archive_url
        )
        try:
            built = await asyncio.to_thread(builder.build, root)
        except OSError as exc:
            problem(
                log,
                "site-failed",
                "the report site was not rebuilt (cannot write %s: %s): the post goes on; make "
                "the folder writable or set VLLM_REPORT_SITE_DIR",
                exc.filename or root,
                exc.strerror or exc,
            )
            return
        except Exception as exc:
            log.debug("site build failed", exc_info=True)
            problem(
                log,
                "site-failed",
                "the report site was not rebuilt (%s: %s): the post goes on; "
                "`vllm-report -vv site build %s` shows why",
                type(exc).__name__,
                exc,
                root,
            )
            return
        if self.observer.metrics is not None:
            self.observer.metrics.site_build.observe(built.seconds)
        event(
            log,
            "site",
            "report site %s: %d days, %d files written in %.1f s",
            root,
            built.days,
            len(built.written),
            built.seconds,
            days=built.days,
            written=len(built.written),
            seconds=round(built.seconds, 3),
        )

    def _tell_delivery(self, window: Window, result: PostResult, tally: _Tally) -> None:
        label = window.label
        if not result.complete:
            return  # the pipeline said why; `attempt` records it
        if not tally.by_destination:
            event(
                log,
                "post",
                "archived %s (no chat destination: archive-only)",
                label,
                window=label,
            )
        metrics = self.observer.metrics
        for key, done in tally.by_destination.items():
            platform = key.split(":", 1)[0].removesuffix("-dm")
            if metrics is not None:
                posts = metrics.posts
                posts.labels(platform=platform, destination=key, outcome="sent").inc(done.sent)
                posts.labels(platform=platform, destination=key, outcome="skipped").inc(
                    done.skipped
                )
                if done.failed:
                    posts.labels(platform=platform, destination=key, outcome="failed").inc()
            if done.failed:
                problem(
                    log,
                    "post-failed",
                    "posting %s to %s failed: %s; %s",
                    label,
                    key,
                    done.failed,
                    _destination_hint(platform),
                    window=label,
                    destination=key,
                )
            else:
                event(
                    log,
                    "post",
                    "posted %s to %s: %d messages sent, %d already there",
                    label,
                    key,
                    done.sent,
                    done.skipped,
                    window=label,
                    destination=key,
                    sent=done.sent,
                    skipped=done.skipped,
                )

    def _record(self, window: Window, result: PostResult) -> None:
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
        problem(log, "run-failed", "the %s run failed: %s", window.label, reason)
        self._note(window, reason)
        return PostResult(window.label, complete=False)

    def _note(self, window: Window, reason: str | None) -> None:
        """The run's outcome for /healthz and the metrics."""
        metrics, health = self.observer.metrics, self.observer.health
        if metrics is not None:
            metrics.last_run_failed.set(1 if reason else 0)
            if reason is None:
                metrics.last_post.set(time.time())
        if health is not None:
            health.record(window.label, reason is None, reason, self.clock())


def _succeeded(result: PostResult) -> bool:
    return result.complete and not result.delivery.failed


def _write_failure(exc: OSError) -> str:
    where = exc.filename or "the data folder"
    return (
        f"cannot write {where} ({exc.strerror or exc}): make the folder writable by this "
        "user or set VLLM_REPORT_DATA_DIR to one that is"
    )


def _destination_hint(platform: str) -> str:
    if platform == "slack":
        return "invite the bot to the channel (/invite @bot) or fix SLACK_CHANNELS"
    return "give the bot access to the channel or fix DISCORD_CHANNELS"
