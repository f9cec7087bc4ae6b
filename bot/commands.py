"""Slash commands, the same for Slack and Discord: parse, check, answer.

`/vllm-report [when] [section] [topic] [repo] [lang] [public]`, `/vllm-subscribe <topic>
[here|dm]`, `/vllm-unsubscribe <topic> [here|dm]`, `/vllm-subscriptions`, `/vllm-topics`.
Answers are platform-neutral (`Answer`); each adapter renders them natively. Bad input gets
one sentence saying what to type instead; nothing here raises to the adapter.
"""

from __future__ import annotations

import asyncio
import difflib
import html
import logging
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.collect import CollectError, Collector, GitHubSource
from bot.pipeline import ReportPipeline
from bot.report import Report
from bot.store import Store, StoreError, Subscription
from bot.topic_rules import TopicRules
from bot.windows import WindowError, parse_window
from config.settings import Settings
from formatters.i18n import SECTION_ORDER

log = logging.getLogger(__name__)

_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_SLACK_WRAP = re.compile(r"<([^<>|]+)(?:\|([^<>]*))?>")
MAX_ARGS = 12
MAX_TEXT = 300


class CommandError(Exception):
    """Bad input; the message is the whole answer."""


@dataclass(frozen=True)
class ReportRequest:
    when: str = "yesterday"
    section: str | None = None
    topic: str | None = None
    repo: str | None = None
    lang: str | None = None
    public: bool = False


@dataclass
class Answer:
    """What to show: a sentence, or a report with the sections to render."""

    text: str | None = None
    report: Report | None = None
    only: tuple[str, ...] = ()
    lang: str = "en"
    ephemeral: bool = True
    link: str | None = None
    lines: list[str] = field(default_factory=list)


def inbound(text: str) -> str:
    """Slack sends `&amp;` and wraps links as `<url|text>`: undo both before parsing."""
    text = _SLACK_WRAP.sub(lambda m: m.group(2) or m.group(1), text)
    return html.unescape(text).strip()[:MAX_TEXT]


def parse_report(text: str, rules: TopicRules) -> ReportRequest:
    words = inbound(text).split()
    if len(words) > MAX_ARGS:
        raise CommandError(f"too many words ({len(words)}); try `/vllm-report yesterday amd`")
    when: list[str] = []
    values: dict[str, object] = {}
    topics = [t.key for t in rules.topics]
    vocabulary = [*SECTION_ORDER, *topics, "public", "en", "zh", "today", "yesterday"]
    index = 0
    while index < len(words):
        word = words[index]
        low = word.lower()
        if low == "last":  # "last 7 days": the window parser reads the three words
            when += words[index : index + 3]
            index += 3
            continue
        if low in ("public", "post"):
            values["public"] = True
        elif low in ("en", "zh"):
            values["lang"] = low
        elif low in topics:
            values["topic"] = low
        elif low in SECTION_ORDER:
            values["section"] = low
        elif _REPO.match(word):
            values["repo"] = word
        elif re.match(
            r"^(\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?|\d{1,3}d|today|yesterday)$", low
        ):
            when.append(word)
        else:
            close = difflib.get_close_matches(low, vocabulary, n=1, cutoff=0.6)
            hint = f" — did you mean '{close[0]}'?" if close else ""
            kind = "topic" if close and close[0] in topics else "word"
            raise CommandError(
                f"unknown {kind} '{word}'{hint} Try `/vllm-report 2026-03-26 amd` or "
                "`/vllm-topics` for the topics."
            )
        index += 1
    return ReportRequest(when=" ".join(when) or "yesterday", **values)  # type: ignore[arg-type]


def parse_subscription(text: str, rules: TopicRules) -> tuple[str, str]:
    words = inbound(text).lower().split()
    topics = [t.key for t in rules.topics]
    if not words:
        raise CommandError("say which topic: `/vllm-subscribe amd` (see `/vllm-topics`)")
    topic, where = words[0], (words[1] if len(words) > 1 else "here")
    if topic not in topics:
        close = difflib.get_close_matches(topic, topics, n=1)
        hint = f" — did you mean '{close[0]}'?" if close else ""
        raise CommandError(f"unknown topic '{topic}'{hint} See `/vllm-topics`.")
    if where not in ("here", "dm") or len(words) > 2:
        raise CommandError("say `here` (this channel) or `dm` (your direct messages)")
    return topic, where


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
        store: Store,
        clock: Callable[[], datetime],
        source: GitHubSource,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.store = store
        self.clock = clock
        self.source = source
        self.limiter = RateLimiter(settings.command_limit_per_minute)

    async def report(self, user: str, text: str) -> Answer:
        try:
            request = parse_report(text, self.rules)
            wait = self.limiter.allow(user)
            if wait:
                raise CommandError(f"easy — one report at a time: try again in {wait:.0f} s")
            return await asyncio.to_thread(self._report, request)
        except (CommandError, WindowError) as exc:
            return Answer(text=str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("command failed: %s", exc)
            return Answer(text=f"could not make that report: {exc}")

    def _report(self, request: ReportRequest) -> Answer:
        now = self.clock()
        lang = request.lang or self.settings.lang
        repo = request.repo or self.settings.repo
        window = parse_window(
            request.when,
            now=now,
            tz=self.settings.tz,
            cutoff=self.settings.cutoff_time,
            max_days=self.settings.max_range_days,
        )
        source = replace(self.source, repo=repo)
        pipeline = ReportPipeline(self.store, repo, lambda: Collector(source), self.rules)
        try:
            report = pipeline.full_report(window, now=now, topic=request.topic, lang=lang)
        finally:
            pipeline.close()
        only = request.section or request.topic or "summary"
        return Answer(
            report=report,
            only=(only,),
            lang=lang,
            ephemeral=not request.public,
            link=self.settings.archive_link(repo, window.label),
        )

    def subscribe(
        self,
        platform: str,
        user: str,
        channel: str,
        text: str,
        can_manage: bool,
        remove: bool = False,
    ) -> Answer:
        try:
            topic, where = parse_subscription(text, self.rules)
        except CommandError as exc:
            return Answer(text=str(exc))
        if where == "here" and not can_manage:
            return Answer(
                text="subscribing this channel needs permission to manage it; "
                f"`/vllm-subscribe {topic} dm` sends the digest to you instead"
            )
        kind, target = ("dm", user) if where == "dm" else ("channel", channel)
        sub = Subscription(platform, kind, target, topic, user)
        rule = self.rules.topic(topic)
        name = rule.display_name(self.settings.lang) if rule is not None else topic
        place = "your DMs" if kind == "dm" else "this channel"
        if remove:
            done = self.store.unsubscribe(sub)
            return Answer(
                text=f"{place} will no longer get the {name} digest"
                if done
                else f"{place} was not subscribed to {name}"
            )
        added = self.store.subscribe(sub, self.clock())
        return Answer(
            text=f"{place} will get the {name} digest after each daily report"
            if added
            else f"{place} already gets the {name} digest"
        )

    def subscriptions(self, platform: str, user: str, channel: str) -> Answer:
        found = self.store.subscriptions(platform, [user, channel])
        if not found:
            return Answer(text="no digests here: try `/vllm-subscribe amd`")
        lines = [
            f"{'your DMs' if s.target_kind == 'dm' else 'this channel'}: {s.topic}"
            for s in found
            if (s.target_kind == "dm") == (s.target_id == user)
        ]
        return Answer(text="\n".join(lines) or "no digests here: try `/vllm-subscribe amd`")

    def topics(self) -> Answer:
        lang = self.settings.lang
        lines = [f"{t.key} — {t.display_name(lang)}: {t.description}" for t in self.rules.topics]
        return Answer(text="\n".join(lines))
