"""What the commands work with: settings, topic rules, the reports, the subscriptions, the
readers' GitHub logins and each feature's service (the review queue, the radar, Red on
main), one instance per process (made by bot.app.commands), and the per-person rate limit
every costly command shares.

The core names no feature: a feature's command asks for its own service by type
(`services.feature(QueueService)`), and what a feature lets a channel subscribe to is told
by the topic checks the composition root hands in.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from bot.model import asking
from bot.model.report import sections_with
from bot.model.rules import TopicRules
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window
from bot.service.reports import Reports
from bot.store.subscriptions import Subscriptions
from config.settings import Settings

LABELS_SECONDS = 3600.0

T = TypeVar("T")

# A feature's word on a subscription key: its stored form when the key is the feature's and
# may be subscribed to here (`radar:ascend` → `radar:vllm-project/vllm-ascend`), None when
# the key is not the feature's; asking.AskError (one sentence) for a key of the feature's it
# cannot serve.
TopicCheck = Callable[[SubscriptionKey], SubscriptionKey | None]


class Logins(Protocol):
    """Readers' GitHub logins, by chat user (`/vllm-me github <login>`)."""

    def login(self, platform: str, user: str) -> str | None: ...


class RateLimiter:
    """At most `per_minute` costly commands per person in any 60 seconds."""

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


class Services:
    def __init__(
        self,
        settings: Settings,
        rules: TopicRules,
        reports: Reports,
        subscriptions: Subscriptions,
        clock: Callable[[], datetime],
        features: Mapping[type, Any] | None = None,
        logins: Logins | None = None,
        topic_checks: Sequence[TopicCheck] = (),
        topic_lines: Sequence[str] = (),
        section_words: Sequence[str] = sections_with(()),
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.reports = reports
        self.store = subscriptions
        self.clock = clock
        self.limiter = RateLimiter(settings.command_limit_per_minute)
        self._features = dict(features or {})  # each feature's one service, by its type
        self.logins = logins  # chat user → GitHub login (`mine` needs one)
        self.topic_checks = tuple(topic_checks)  # what features let a channel subscribe to
        self.topic_lines = tuple(topic_lines)  # how `/vllm-topics` names those keys
        # The section words a report may be asked for by: the core's and the features'.
        self.section_words = tuple(section_words)
        self._labels: tuple[float, list[str]] | None = None

    def feature(self, kind: type[T]) -> T | None:
        """The feature service of this type, None when that feature is off here."""
        return cast("T | None", self._features.get(kind))

    def labels(self) -> list[str]:
        """The watched repository's labels, asked of GitHub at most once an hour (someone
        subscribing by label names one)."""
        now = time.monotonic()
        if self._labels is None or now - self._labels[0] > LABELS_SECONDS:
            self._labels = (now, self.reports.archiver.label_names(self.settings.repo))
        return self._labels[1]

    def user_exists(self, login: str) -> bool:
        """Whether GitHub knows `login` (one request)."""
        return self.reports.archiver.user_exists(login)

    @property
    def topic_keys(self) -> list[str]:
        return [t.key for t in self.rules.topics]

    def window(self, when: str) -> Window:
        settings = self.settings
        now = self.clock()
        return asking.window(
            when,
            now=now,
            tz=settings.tz,
            cutoff=settings.cutoff_time,
            max_days=settings.max_range_days,
            releases=lambda tag: self.reports.archiver.release(settings.repo, tag, now),
        )

    def check_topic(self, key: SubscriptionKey) -> SubscriptionKey:
        """A key a channel may subscribe to, in its stored form: what a feature says of its
        own keys (`plugins`, `radar:<plugin>`, `ci:<hardware>`), else a topic of the rules.
        Anything else is told as an unknown topic (asking.AskError)."""
        for check in self.topic_checks:
            found = check(key)
            if found is not None:
                return found
        return SubscriptionKey("topic", asking.topic(key.text, self.rules))
