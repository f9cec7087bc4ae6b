"""The daily run of one window, on one path: report → files → site → channels → digests
(topic digests, then personal ones).

`DailyRun.__call__(window)` is the only thing `vllm-report post`, the scheduler and the
catch-up call (through bot.service.daily): each step once, in this order, each told in one
log line by the observer (bot.service.run_observer), which also keeps the metrics. No
destination means "archive only": the files and the site are still written. Only a
complete report is posted; an incomplete one is written as `.partial` and retried by
the next run, so no channel ever gets a half-written report as the day's post. The files
and the site come before the post, so the page a post links to exists when people click it;
a site that cannot be written is told and never stops the post.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bot.delivery import Deliverer, DeliveryResult, Destination, Heading
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window, WindowKey
from bot.platforms.registry import chat_parts, with_buttons, with_picture
from bot.service.reports import CHART_DAYS, Reports
from bot.service.run_observer import DestinationResult, JobObserver
from bot.store import Subscription
from formatters.charts import Chart
from formatters.charts import chart as draw_chart
from formatters.outline import is_quiet

if TYPE_CHECKING:
    from bot.model.buttons import ButtonsFor
    from bot.service.site import SiteBuilder

log = logging.getLogger(__name__)


@dataclass
class PostResult:
    window: str  # the window's label
    complete: bool
    delivery: DeliveryResult = field(default_factory=DeliveryResult)
    written: tuple[Path, ...] = ()  # the report files
    report: Report | None = None
    destinations: tuple[DestinationResult, ...] = ()  # what each destination got


class FeatureDigests(Protocol):
    """A feature's subscriptions (`ci:amd`, `plugins`, `radar:vllm-ascend`): which keys are
    its, and what a subscriber of one gets after the day's post."""

    def wants(self, key: SubscriptionKey) -> bool:
        """Whether `key` is one of this feature's subscriptions."""
        ...

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]] | None:
        """The report to send and the sections to show; None: no news today, nothing sent."""
        ...


@dataclass(frozen=True)
class DigestMessage:
    """One message a feature sends a destination after the day's post."""

    destination: Destination
    parts: list[tuple[str, dict[str, Any]]]  # empty: nothing to send (every subscription quiet)
    name: str  # the delivery's name in the ledger: one message a run
    quiet: tuple[str, ...] = ()  # the subscriptions with nothing today (told, never sent)


class DestinationDigests(Protocol):
    """Digests a feature sends as one message per destination, all of a destination's
    subscriptions together (the personal feature's `label:`, `author:`, `path:`, `mine`)."""

    def messages(
        self, report: Report, subscriptions: Sequence[Subscription], now: datetime, lang: str
    ) -> list[DigestMessage]:
        """This run's messages, one per destination with subscriptions due."""
        ...


class DailyRun:
    """One window, every step once. Built by the composition root (bot.app)."""

    def __init__(
        self,
        reports: Reports,
        site: SiteBuilder,
        site_root: Path,
        deliverer: Deliverer,
        destinations: Callable[[], Sequence[Destination]],
        subscriptions: Callable[[], Sequence[Subscription]],
        repo: str,
        lang: str,
        observer: JobObserver | None = None,
        personal: DestinationDigests | None = None,
        features: Sequence[FeatureDigests] = (),
        buttons: ButtonsFor | None = None,
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
        self.personal = personal  # label:, author:, path:, mine subscriptions' digests
        self.features = tuple(features)  # what features send their subscribers
        self.buttons = buttons  # under each section of the daily post (readers' feedback)
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
            result = PostResult(
                window.label, report.complete, written=tuple(written), report=report
            )
            if not report.complete:  # archived as `.partial`; asking again now would fail too
                self.observer.incomplete(window.label, report)
                return result
            await self._rebuild_site()  # 3. the site: the post links to its pages
            sent = await self._post(query, report, result.delivery)  # 4. channels, 5. digests
            result.destinations = tuple(sent)
            self.observer.delivered(window.label, sent, result.delivery.copies_left)
            return result

    # -- the steps -----------------------------------------------------------------------------

    async def _report(self, query: ReportQuery) -> Report:
        started = self.observer.sync_started()
        report = await asyncio.to_thread(self.reports.report, query)
        self.observer.synced(started, query.window.label, report)
        return report

    async def _rebuild_site(self) -> None:
        """The report site brought up to date; a failure is told and never stops the post."""
        try:
            built = await asyncio.to_thread(self.site.build, self.site_root)
        except Exception as exc:
            self.observer.site_failed(self.site_root, exc)
            return
        self.observer.site_built(self.site_root, built)

    async def _post(
        self, query: ReportQuery, report: Report, result: DeliveryResult
    ) -> list[DestinationResult]:
        """Every channel gets the daily post, then every subscriber its topic's digest."""
        platforms = self.deliverer.transports
        pictures: dict[str | None, Chart | None] = {}  # drawn once per run: None, or a topic
        sent = []
        for destination in self.destinations():
            picture = await self._picture(report, None, pictures)
            sent.append(await self._send(report, destination, result, (), picture, buttons=True))
        subscriptions = [s for s in self.subscriptions() if s.platform in platforms]
        for sub in subscriptions:
            key = sub.key
            if key.is_personal:
                continue  # a personal digest: below
            target = Destination(sub.platform, sub.target_id, sub.target_kind, f"digest-{key}")
            feature = next((f for f in self.features if f.wants(key)), None)
            if feature is not None:  # a feature's news (`ci:amd`, `radar:vllm-ascend`)
                # In a worker: a feature may make a report of its own (the release digest).
                news = await asyncio.to_thread(feature.news, report, key)
                if news is not None:  # a day without news sends nothing
                    sent.append(await self._send(news[0], target, result, news[1]))
                continue
            topic = key.text  # a topic's key (`amd`): the report and its section are of it
            digest_query = replace(query, topic=topic, queue=False, refresh=False)
            digest = await asyncio.to_thread(self.reports.report, digest_query)
            if not digest.items:  # a quiet day for the topic: no message saying nothing
                self.observer.quiet(report.window.label, target.key, topic)
                continue
            picture = await self._picture(report, topic, pictures)
            only = ("since", topic)  # what of its topic landed since last time, then it
            sent.append(await self._send(digest, target, result, only, picture))
        sent += await self._personal(report, subscriptions, result)
        return sent

    async def _personal(
        self, report: Report, subscriptions: Sequence[Subscription], result: DeliveryResult
    ) -> list[DestinationResult]:
        """Each destination's personal digests due today, as one message (none when every
        one of them is quiet)."""
        if self.personal is None:
            return []
        now = self.reports.clock()
        messages = await asyncio.to_thread(
            self.personal.messages, report, subscriptions, now, self.lang
        )
        sent = []
        for message in messages:
            target = message.destination
            for key in message.quiet:
                self.observer.quiet(report.window.label, target.key, key)
            if message.parts:
                sent.append(
                    await self._deliver(
                        report.repo,
                        report.window,
                        target,
                        message.parts,
                        Heading(message.name, (self.lang,)),
                        result,
                    )
                )
        return sent

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
        buttons: bool = False,
    ) -> DestinationResult:
        """One destination's messages; what it got, from the run's running totals. The daily
        post (`buttons`) has the features' buttons under each section; digests have none."""
        lang = self.lang
        link = self.reports.files.link(report, lang)
        parts = chat_parts(destination.platform, report, lang, only=only, link=link)
        if picture is not None and parts and not is_quiet(report):  # a quiet day: one message
            parts = with_picture(destination.platform, parts, picture, lang, report.window.label)
        if buttons and self.buttons is not None:
            label = report.window.label
            parts = with_buttons(destination.platform, parts, self.buttons, label, lang)
        name = Heading(f"vLLM report {report.window.label}", filed_under(report, lang))
        return await self._deliver(report.repo, report.window, destination, parts, name, result)

    async def _deliver(
        self,
        repo: str,
        window: Window,
        destination: Destination,
        parts: list[tuple[str, dict[str, Any]]],
        name: str | Heading,
        result: DeliveryResult,
    ) -> DestinationResult:
        sent, skipped = result.sent + result.recovered, result.skipped
        await self.deliverer.deliver(repo, WindowKey.of(window), destination, parts, name, result)
        return DestinationResult(
            destination.key,
            result.sent + result.recovered - sent,
            result.skipped - skipped,
            result.failed.get(destination.key),
        )


def filed_under(report: Report, lang: str) -> tuple[str, ...]:
    """What a post of `report` is filed under where posts carry labels (a Discord forum's
    tags): its language, then each vendor it has news of, the busiest first (ties in the
    rules' order), by the vendor's English name, so one forum's posts in either language
    share their vendors' labels."""
    sections = report.sections
    if sections is None:
        return (lang,)
    busy = []
    for order, vendor in enumerate(sections.catalog.vendors):
        topic = sections.topics.get(vendor.key)
        count = sum(len(numbers) for numbers in topic.figures.values()) if topic else 0
        if count:
            busy.append((-count, order, vendor.name("en")))
    return (lang, *(name for _, _, name in sorted(busy)))
