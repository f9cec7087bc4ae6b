"""The review queue as a service: `vllm-report queue`, `/vllm-queue` and the weekly digest.

`QueueService.queue` answers one window for one reader: the lists GitHub shows now for the
reader's topic first, then every vendor, then the whole repository (anonymously: the
reader's topic, or the first vendor, and the repository); the response times of the window
and the four weeks before; the window's first-time contributors. It shares the archive with
the daily report (the window's items are collected once for both) and keeps its response
facts in the store.

`QueueDigest.run` is the weekly job: the last seven report days' queue of each subscriber's
topic, posted through the delivery ledger (so a run that races another, or is retried,
posts once).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.collect.sync import Archiver
from bot.delivery import Deliverer, DeliveryResult, Destination
from bot.features.queue.analyze import build_queue
from bot.features.queue.collect import QueueCollector, Scope
from bot.features.queue.model import Queue
from bot.features.queue.render import QueuePart, queue_parts
from bot.features.queue.store import ResponseFacts
from bot.model import asking
from bot.model.errors import InputError
from bot.model.report import Report
from bot.model.rules import TopicRules
from bot.model.windows import Window, WindowKey, current_day, span_window
from bot.service.reports import Asking, PartSource
from bot.store import Span, Subscription

log = logging.getLogger(__name__)

DIGEST_DAYS = 7  # the weekly digest covers the last seven report days


class QueueError(InputError):
    """The queue cannot be asked that way; the message says what to ask instead."""


@dataclass(frozen=True)
class QueueQuery:
    repo: str
    window: Window
    topic: str | None = None


class QueueService:
    def __init__(
        self,
        archiver: Archiver,
        rules: TopicRules,
        clock: Callable[[], datetime],
        collector: QueueCollector | None = None,
    ) -> None:
        self.archiver = archiver
        self.rules = rules
        self.clock = clock
        self.collector = collector or QueueCollector(
            archiver.store,
            archiver.source,
            archiver.make_collector,
            fetch=archiver.fetch,
        )

    def scopes(self, topic: str | None) -> list[Scope]:
        """The reader's topic first, then the vendors (anonymously only the reader's topic,
        or the first vendor), then the repository."""
        labels = self.rules.queue.topic_labels
        if topic is not None and topic not in labels:
            try:  # the sentence the command line says too, naming the topics that have one
                asking.queue_topic(topic, self.rules)
            except asking.AskError as exc:
                raise QueueError(str(exc)) from None
        keys = [topic] if topic else []
        keys += [t.key for t in self.rules.vendors if t.key in labels and t.key != topic]
        if not self.collector.graphql:
            keys = keys[:1]  # a REST search per list: one topic and the repository
        scopes = [Scope(key, labels[key]) for key in keys if key is not None]
        return [*scopes, Scope(None)]

    def queue(self, query: QueueQuery) -> Queue:
        """The queue of `query.window` for a reader of `query.topic`."""
        now, repo, window = self.clock(), query.repo, query.window
        rules = self.rules.queue
        scopes = self.scopes(query.topic)
        with self.collector.session():
            wanted = Span(window.start - timedelta(days=rules.previous_days), window.end)
            lists, notes = self.collector.lists(
                repo, scopes, rules, now, recheck=wanted, is_bot=self.rules.is_bot
            )
            archived = self.archiver.window(repo, window, now)
            notes += [n for n in archived.notes if not n.startswith("window in progress")]
            window_items = self.archiver.items(repo, Span(window.start, window.end))
            measured = self.collector.graphql
            if measured:
                notes += self.collector.facts(repo, wanted, now, self.rules.is_bot)
            else:
                notes.append(
                    "without GITHUB_TOKEN: response times skipped (GitHub's GraphQL API answers "
                    "no anonymous request); waiting ages count from the opening, and a PR only a "
                    "bot reviewed is not counted as waiting (GitHub's review:none)"
                )
            if not window.is_past(now):
                notes.append("the window is still in progress: its response times will grow")

            def build(bodies: dict[int, str | None] | None = None) -> Queue:
                facts = (
                    ResponseFacts(self.archiver.store.transactions).within(repo, wanted)
                    if measured
                    else None
                )
                return build_queue(
                    repo=repo,
                    window=window,
                    now=now,
                    scopes=lists,
                    facts=facts,
                    window_items=window_items,
                    rules=rules,
                    catalog=self.rules.catalog(),
                    is_bot=self.rules.is_bot,
                    topic=query.topic,
                    notes=notes,
                    complete=archived.complete or not window.is_past(now),
                    bodies=bodies,
                )

            draft = build()
            wanting = [n for n in draft.what if not draft.items[n].body]
            window_span = Span(window.start, window.end)
            bodies = self.collector.finish(repo, window_span, wanting, self.rules.is_bot)
            return build(bodies)


def queue_part(service: QueueService) -> PartSource:
    """The review queue as every report's part source: added by the daily run while GitHub's
    lists still fit the window (they are what GitHub shows now), never from the archive."""

    def add(report: Report, asking: Asking) -> Report:
        return with_queue(report, service) if asking.ask and asking.fresh else report

    return ("review queue", add)


def with_queue(report: Report, service: QueueService) -> Report:
    """The report with its window's review queue (its topic first, when the topic has queue
    labels): the full report then draws a queue section and its JSON a `queue` object; the
    daily chat post stays as it is. One call in Reports.report wires it in."""
    topic = report.topic if report.topic in service.rules.queue.topic_labels else None
    queue = service.queue(QueueQuery(report.repo, report.window, topic))
    return report.with_part(QueuePart(queue))


def last_days(now: datetime, days: int, tz: ZoneInfo, cutoff: time) -> Window:
    """The last `days` complete report days before `now`."""
    last = current_day(now, tz, cutoff) - timedelta(days=1)
    return span_window(last - timedelta(days=days - 1), last, tz, cutoff)


@dataclass
class DigestResult:
    window: str
    sent: DeliveryResult = field(default_factory=DeliveryResult)
    skipped: list[str] = field(default_factory=list)


class QueueDigest:
    """The weekly queue digest: each subscriber gets their topic's queue of the last 7 days."""

    def __init__(
        self,
        service: QueueService,
        deliverer: Deliverer,
        subscriptions: Callable[[], Sequence[Subscription]],
        window: Callable[[datetime], Window],
        repo: str,
        lang: str,
    ) -> None:
        self.service = service
        self.deliverer = deliverer
        self.subscriptions = subscriptions
        self.window = window
        self.repo = repo
        self.lang = lang

    async def run(self) -> DigestResult:
        import asyncio

        window = self.window(self.service.clock())
        result = DigestResult(window.label)
        # A topic's subscribers only: the queue is a topic's (a personal filter, the Plugins
        # section or Red on main has none, and asking would only log that it is unknown).
        wanted = [
            (s, topic)
            for s in self.subscriptions()
            if s.platform in self.deliverer.transports and (topic := s.key.topic) is not None
        ]
        queues: dict[str, Queue] = {}
        for sub, topic in wanted:
            if topic not in queues:
                try:
                    query = QueueQuery(self.repo, window, topic)
                    queues[topic] = await asyncio.to_thread(self.service.queue, query)
                except QueueError as exc:
                    log.warning("queue digest for %s skipped: %s", topic, exc)
                    result.skipped.append(topic)
                    continue
            queue = queues[topic]
            if not queue.complete:
                log.warning("queue of %s is incomplete (%s); not posted", topic, queue.notes)
                result.skipped.append(topic)
                continue
            target = Destination(sub.platform, sub.target_id, sub.target_kind, f"queue-{topic}")
            parts = queue_parts(sub.platform, queue, self.lang)
            name = f"vLLM review queue {window.label}"
            await self.deliverer.deliver(
                self.repo, WindowKey.queue_of(window), target, parts, name, result.sent
            )
        return result


def schedule_digest(
    scheduler: Any,
    digest: QueueDigest,
    settings: Any,
    gate: Callable[[Callable[[], Awaitable[Any]]], Callable[[], Awaitable[Any]]],
) -> bool:
    """Add the weekly queue `digest` to `scheduler` (run by the replica that leads, like the
    daily job), unless VLLM_REPORT_QUEUE_DIGEST_DAY is off; True when it was added."""
    at = settings.queue_digest_at
    if at is None:
        log.info("weekly queue digest: off")
        return False
    from bot.service.scheduling import add_queue_digest

    add_queue_digest(scheduler, settings.tz, settings.queue_digest_day, at, gate(digest.run))
    log.info("weekly queue digest: %s %s (%s)", settings.queue_digest_day, at, settings.timezone)
    return True
