"""Slash commands, the same for Slack and Discord: check a typed request, answer it.

Each adapter turns its platform's input into a `ReportRequest` (Slack parses the command
text, Discord reads its typed options); everything after that is here: the words checked
(bot.model.asking, shared with the command line), the per-user limit, the report from the
shared reports service, the review queue, subscriptions. Answers are platform-neutral
(`Answer`); each adapter renders them natively. Bad input gets one sentence saying what to
type instead; nothing here raises to the adapter.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from bot.collect.source import CollectError
from bot.model import asking
from bot.model.asking import did_you_mean
from bot.model.errors import InputError
from bot.model.queue import Queue
from bot.model.radar import PLUGINS_DIGEST, PLUGINS_TOPIC, Radar
from bot.model.report import Report
from bot.model.rules import TopicRules
from bot.model.windows import Window
from bot.service.queue import QueueError, QueueQuery, QueueService
from bot.service.radar import RadarService
from bot.service.reports import ReportQuery, Reports
from bot.store import StoreError, Subscription
from bot.store.subscriptions import Subscriptions
from config.settings import Settings

log = logging.getLogger(__name__)

__all__ = [
    "Answer",
    "CommandService",
    "QueueRequest",
    "RadarRequest",
    "ReportRequest",
    "did_you_mean",
]


class CommandError(InputError):
    """Bad input; the message is the whole answer."""


@dataclass(frozen=True)
class ReportRequest:
    """`/vllm-report`, as typed: nothing checked yet."""

    when: str = "yesterday"
    section: str | None = None
    topic: str | None = None
    repo: str | None = None
    lang: str | None = None
    public: bool = False


@dataclass(frozen=True)
class QueueRequest:
    """`/vllm-queue`, as typed: nothing checked yet."""

    topic: str | None = None
    when: str = "yesterday"
    lang: str | None = None
    public: bool = False


@dataclass(frozen=True)
class RadarRequest:
    """`/vllm-radar`, as typed: nothing checked yet."""

    plugin: str | None = None
    when: str = "7d"  # a week of plugin fixes: what a plugin team reviews at a time
    public: bool = False


@dataclass(frozen=True)
class Answer:
    """What to show: a sentence, a report with the sections to render, a review queue or
    the breakage radar."""

    text: str | None = None
    report: Report | None = None
    queue: Queue | None = None
    radar: Radar | None = None
    only: tuple[str, ...] = ()
    lang: str = "en"
    ephemeral: bool = True
    link: str | None = None


class RateLimiter:
    """At most `per_minute` expensive commands per user in any 60 seconds."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def allow(self, user: str) -> float:
        """0 when allowed, else the seconds to wait."""
        now = self.clock()
        seen = self._seen.setdefault(user, deque())
        while seen and now - seen[0] >= 60:
            seen.popleft()
        if len(seen) >= self.per_minute:
            return 60 - (now - seen[0])
        seen.append(now)
        return 0.0


class CommandService:
    def __init__(
        self,
        settings: Settings,
        rules: TopicRules,
        reports: Reports,
        subscriptions: Subscriptions,
        clock: Callable[[], datetime],
        queues: QueueService | None = None,
        radar: RadarService | None = None,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.reports = reports
        self.store = subscriptions
        self.clock = clock
        self.limiter = RateLimiter(settings.command_limit_per_minute)
        self.queues = queues  # the composition root's one review-queue service
        self.radars = radar

    @property
    def topic_keys(self) -> list[str]:
        return [t.key for t in self.rules.topics]

    async def report(self, user: str, request: ReportRequest) -> Answer:
        try:
            query, only = self._check(request)
            wait = self.limiter.allow(user)
            if wait:
                raise CommandError(f"easy — one report at a time: try again in {wait:.0f} s")
            report = await asyncio.to_thread(self.reports.report, query)
        except InputError as exc:
            return Answer(text=str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("command failed: %s", exc)
            return Answer(text=f"could not make that report: {exc}")
        return Answer(
            report=report,
            only=only,
            lang=query.lang,
            ephemeral=not request.public,
            link=self.reports.files.link(report, query.lang),
        )

    def _window(self, when: str) -> Window:
        settings = self.settings
        return asking.window(
            when,
            now=self.clock(),
            tz=settings.tz,
            cutoff=settings.cutoff_time,
            max_days=settings.max_range_days,
        )

    def _check(self, request: ReportRequest) -> tuple[ReportQuery, tuple[str, ...]]:
        """The request's words checked, the window read: a query, and the sections to show."""
        topic = asking.topic(request.topic, self.rules) if request.topic else None
        section = asking.section(request.section, self.rules) if request.section else None
        lang = asking.language(request.lang or self.settings.lang)
        repo = asking.repository(request.repo or self.settings.repo)
        window = self._window(request.when)
        query = ReportQuery(repo=repo, window=window, lang=lang, topic=topic)
        return query, (section or topic or "summary",)

    async def queue(self, user: str, request: QueueRequest) -> Answer:
        """`/vllm-queue [topic]`: what waits on whom (ephemeral unless `public`)."""
        try:
            topic = asking.topic(request.topic, self.rules) if request.topic else None
            lang = asking.language(request.lang or self.settings.lang)
            window = self._window(request.when)
            wait = self.limiter.allow(user)
            if wait:
                raise CommandError(f"easy — one report at a time: try again in {wait:.0f} s")
            if self.queues is None:
                raise CommandError("the review queue is not served here")
            query = QueueQuery(self.settings.repo, window, topic)
            queue = await asyncio.to_thread(self.queues.queue, query)
        except (InputError, QueueError) as exc:
            return Answer(text=str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("queue command failed: %s", exc)
            return Answer(text=f"could not make the queue: {exc}")
        return Answer(queue=queue, lang=lang, ephemeral=not request.public)

    async def radar(self, user: str, request: RadarRequest) -> Answer:
        """`/vllm-radar [plugin] [window]`: which upstream changes broke which plugins."""
        try:
            if self.radars is None:
                raise CommandError("the breakage radar is not served here")
            if not self.radars.plugins:
                raise CommandError("no plugin is watched here (VLLM_REPORT_PLUGINS=none)")
            plugin = self.radars.plugin(request.plugin) if request.plugin else None
            window = self._window(request.when)
            wait = self.limiter.allow(user)
            if wait:
                raise CommandError(f"easy — one report at a time: try again in {wait:.0f} s")
            found = await asyncio.to_thread(self.radars.radar, window, plugin)
        except InputError as exc:
            return Answer(text=str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("radar command failed: %s", exc)
            return Answer(text=f"could not make the radar: {exc}")
        return Answer(radar=found, ephemeral=not request.public)

    def check_topic(self, name: str) -> str:
        """A topic a channel may subscribe to: one of the rules', or `plugins` (the daily
        report's Plugins section, when plugins are watched)."""
        if name.strip().lower() == PLUGINS_TOPIC and self.settings.plugin_list:
            return PLUGINS_TOPIC
        key: str = asking.topic(name, self.rules)
        return key

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
        try:
            key = self.check_topic(topic)
        except InputError as exc:
            return Answer(text=str(exc))
        if where not in ("here", "dm"):
            return Answer(text="say `here` (this channel) or `dm` (your direct messages)")
        if where == "here" and not can_manage:
            return Answer(
                text="subscribing this channel needs permission to manage it; "
                f"`/vllm-subscribe {key} dm` sends the digest to you instead"
            )
        kind, target = ("dm", user) if where == "dm" else ("channel", channel)
        sub = Subscription(platform, kind, target, key, user)
        rule = self.rules.topic(key)
        name = rule.display_name(self.settings.lang) if rule is not None else key
        name = PLUGINS_DIGEST if key == PLUGINS_TOPIC else name
        place = "your DMs" if kind == "dm" else "this channel"
        gets, was = ("get", "were") if kind == "dm" else ("gets", "was")  # DMs are plural
        if remove:
            done = self.store.remove(sub)
            return Answer(
                text=f"{place} will no longer get the {name} digest"
                if done
                else f"{place} {was} not subscribed to {name}"
            )
        added = self.store.add(sub, self.clock())
        return Answer(
            text=f"{place} will get the {name} digest after each daily report"
            if added
            else f"{place} already {gets} the {name} digest"
        )

    def subscriptions(self, platform: str, user: str, channel: str) -> Answer:
        found = self.store.list(platform, [user, channel])
        lines = [
            f"{'your DMs' if s.target_kind == 'dm' else 'this channel'}: {s.topic}"
            for s in found
            if (s.target_kind == "dm") == (s.target_id == user)
        ]
        return Answer(text="\n".join(lines) or "no digests here: try `/vllm-subscribe amd`")

    def topics(self) -> Answer:
        lang = self.settings.lang
        lines = [f"{t.key} — {t.display_name(lang)}: {t.description}" for t in self.rules.topics]
        if self.settings.plugin_list:
            lines.append(
                f"{PLUGINS_TOPIC} — {PLUGINS_DIGEST}: upstream changes that broke the watched "
                "hardware plugins, and pins lagging main (a subscription only; `/vllm-radar` "
                "for any window)"
            )
        return Answer(text="\n".join(lines))
