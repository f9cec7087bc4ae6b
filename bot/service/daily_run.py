"""The daily run of one window, on one path: report → files → site → channels → digests.

`DailyRun.__call__(window)` is the only thing `vllm-report post`, the scheduler and the
catch-up call (through bot.service.daily): each step once, in this order, each told in one
log line. No destination means "archive only": the files and the site are still written.
Only a complete report is posted; an incomplete one is written as `.partial` and retried by
the next run, so no channel ever gets a half-written report as the day's post. The files
and the site come before the post, so the page a post links to exists when people click it;
a site that cannot be written is told and never stops the post.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from bot.delivery import Deliverer, DeliveryResult, Destination, Payload
from bot.model.query import ReportQuery
from bot.model.radar import PLUGINS_TOPIC
from bot.model.report import Report
from bot.model.windows import Window, WindowKey
from bot.observe.logs import event, problem
from bot.service.reports import CHART_DAYS, Reports
from bot.store import Subscription
from formatters.charts import Chart
from formatters.charts import chart as draw_chart
from formatters.chat import chat_parts, with_picture
from formatters.radar_outline import has_plugins_section

if TYPE_CHECKING:
    from bot.observe.github_meter import GitHubMeter
    from bot.observe.metrics import Metrics
    from bot.service.health import RunHealth
    from bot.service.site import SiteBuilder

log = logging.getLogger(__name__)


@dataclass
class PostResult:
    window: str
    complete: bool
    delivery: DeliveryResult = field(default_factory=DeliveryResult)
    written: tuple[Path, ...] = ()  # the report files
    report: Report | None = None


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


class TallyingDeliverer(Deliverer):
    """The ledger's deliverer, noting per destination what was sent, skipped or failed."""

    tally: _Tally | None = None

    async def deliver(
        self,
        repo: str,
        window: WindowKey,
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


class DailyRun:
    """One window, every step once. Built by the composition root (bot.app)."""

    def __init__(
        self,
        reports: Reports,
        site: SiteBuilder,
        site_root: Path,
        deliverer: TallyingDeliverer,
        destinations: Callable[[], Sequence[Destination]],
        subscriptions: Callable[[], Sequence[Subscription]],
        repo: str,
        lang: str,
        observer: JobObserver | None = None,
    ) -> None:
        self.reports = reports
        self.site = site
        self.site_root = site_root
        self.deliverer = deliverer
        self.destinations = destinations
        self.subscriptions = subscriptions
        self.repo = repo
        self.lang = lang
        self.observer = observer or JobObserver()
        self._lock = asyncio.Lock()  # one run at a time in this process

    async def __call__(
        self,
        window: Window,
        refresh: bool = False,
        check: Callable[[Report], None] | None = None,
    ) -> PostResult:
        """`refresh`: collect the window again; `check`: a look at the report before anything
        is written (the command line asks GitHub whether an empty window's repository
        exists, and raises if not)."""
        async with self._lock:
            query = ReportQuery(self.repo, window, self.lang, queue=True, refresh=refresh)
            report = await self._report(query)  # 1. the report
            if check is not None:
                check(report)
            written = await asyncio.to_thread(self.reports.write, report, self.lang)  # 2. files
            result = PostResult(window.label, report.complete, written=tuple(written))
            result.report = report
            if not report.complete:  # archived as `.partial`; asking again now would fail too
                problem(
                    log,
                    "incomplete",
                    "report %s is incomplete (%s); archived as partial, not posted",
                    window.label,
                    "; ".join(report.notes) or "GitHub did not give everything",
                    window=window.label,
                )
                return result
            await self._rebuild_site()  # 3. the site: the post links to its pages
            tally = self.deliverer.tally = _Tally()
            try:
                await self._post(query, report, result.delivery)  # 4. channels, 5. digests
            finally:
                self.deliverer.tally = None
            self._tell_delivery(window, result, tally)
            return result

    # -- the steps -----------------------------------------------------------------------------

    async def _report(self, query: ReportQuery) -> Report:
        meter, metrics = self.observer.meter, self.observer.metrics
        before = meter.requests if meter is not None else 0
        began = time.perf_counter()
        report = await asyncio.to_thread(self.reports.report, query)
        took = time.perf_counter() - began
        requests = meter.requests - before if meter is not None else None
        left = meter.remaining() if meter is not None else None
        if metrics is not None:
            metrics.report_build.observe(took)
            if report.complete:
                metrics.last_sync.set(time.time())
            if report.prose is not None:
                prose = report.prose
                metrics.prose_sentences.labels(verdict="shown").inc(prose.kept)
                metrics.prose_sentences.labels(verdict="dropped").inc(prose.dropped)
                metrics.prose_requests.labels(source="model").inc(prose.calls)
                metrics.prose_requests.labels(source="cache").inc(prose.cached)
        label = query.window.label
        event(
            log,
            "sync",
            "synced %s: %s GitHub requests, %d items, report made in %.1f s%s",
            label,
            "?" if requests is None else requests,
            len(report.items),
            took,
            f" (rate limit: {left} left)" if left is not None else "",
            window=label,
            requests=requests,
            items=len(report.items),
            seconds=round(took, 3),
            rate_limit_remaining=left,
            complete=report.complete,
        )
        return report

    async def _rebuild_site(self) -> None:
        """The report site brought up to date; a failure is told and never stops the post."""
        root = self.site_root
        try:
            built = await asyncio.to_thread(self.site.build, root)
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

    async def _post(self, query: ReportQuery, report: Report, result: DeliveryResult) -> None:
        """Every channel gets the daily post, then every subscriber its topic's digest."""
        platforms = self.deliverer.transports
        pictures: dict[str | None, Chart | None] = {}  # drawn once per run: None, or a topic
        for destination in self.destinations():
            picture = await self._picture(report, None, pictures)
            await self._send(report, destination, result, (), picture)
        for sub in self.subscriptions():
            if sub.platform not in platforms:
                continue
            target = Destination(
                sub.platform, sub.target_id, sub.target_kind, f"digest-{sub.topic}"
            )
            if sub.topic == PLUGINS_TOPIC:  # the daily report's own Plugins section
                if has_plugins_section(report):  # a day with no news sends nothing
                    await self._send(report, target, result, (PLUGINS_TOPIC,))
                continue
            digest_query = replace(query, topic=sub.topic, queue=False, refresh=False)
            digest = await asyncio.to_thread(self.reports.report, digest_query)
            picture = await self._picture(report, sub.topic, pictures)
            await self._send(digest, target, result, (sub.topic,), picture)

    async def _picture(
        self, report: Report, topic: str | None, drawn: dict[str | None, Chart | None]
    ) -> Chart | None:
        """The trend chart a post carries in its thread: the five counts for the daily post,
        the vendors (the digest's topic first) for a digest. None when it cannot be drawn: a
        picture never stops a post."""
        if topic not in drawn:
            kind = "vendors" if topic else "counts"
            try:
                run = await asyncio.to_thread(
                    self.reports.history, report.repo, report.window, CHART_DAYS
                )
                drawn[topic] = await asyncio.to_thread(draw_chart, run, kind, topic, self.lang)
            except Exception as exc:
                log.warning("posting %s without its %s chart: %s", report.window.label, kind, exc)
                drawn[topic] = None
        return drawn[topic]

    async def _send(
        self,
        report: Report,
        destination: Destination,
        result: DeliveryResult,
        only: tuple[str, ...] = (),
        picture: Chart | None = None,
    ) -> None:
        lang = self.lang
        link = self.reports.files.link(report, lang)
        parts = chat_parts(destination.platform, report, lang, only=only, link=link)
        if picture is not None and parts:
            parts = with_picture(destination.platform, parts, picture, lang, report.window.label)
        name = f"vLLM report {report.window.label}"
        await self.deliverer.deliver(
            report.repo, WindowKey.of(report.window), destination, parts, name, result
        )

    def _tell_delivery(self, window: Window, result: PostResult, tally: _Tally) -> None:
        label = window.label
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
        for copy in result.delivery.copies_left:
            problem(log, "copy-left", "%s", copy, window=label)


def _destination_hint(platform: str) -> str:
    if platform == "slack":
        return "invite the bot to the channel (/invite @bot) or fix SLACK_CHANNELS"
    return "give the bot access to the channel or fix DISCORD_CHANNELS"
