"""What the commands work with: settings, topic rules, the reports, the subscriptions, the
review queue, the radar and the readers' GitHub logins, one instance per process (made by
bot.app.commands), and the per-person rate limit every costly command shares."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from datetime import datetime

from bot.features.ci.service import CiService
from bot.features.personal.store import GitHubLinks
from bot.features.queue.service import QueueService
from bot.features.radar.service import RadarService
from bot.model import asking
from bot.model.rules import TopicRules
from bot.model.subscriptions import HARDWARE, SubscriptionKey
from bot.model.windows import Window
from bot.service.reports import Reports
from bot.store.subscriptions import Subscriptions
from config.settings import Settings

LABELS_SECONDS = 3600.0


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
        queues: QueueService | None = None,
        radar: RadarService | None = None,
        links: GitHubLinks | None = None,
        ci: CiService | None = None,
    ) -> None:
        self.settings = settings
        self.rules = rules
        self.reports = reports
        self.store = subscriptions
        self.clock = clock
        self.limiter = RateLimiter(settings.command_limit_per_minute)
        self.queues = queues  # the composition root's one review-queue service
        self.radars = radar
        self.ci = ci  # Red on main (None: VLLM_REPORT_CI_URL is off)
        self.links = links  # chat user → GitHub login (`/vllm-me`)
        self._labels: tuple[float, list[str]] | None = None

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
        return asking.window(
            when,
            now=self.clock(),
            tz=settings.tz,
            cutoff=settings.cutoff_time,
            max_days=settings.max_range_days,
        )

    def check_topic(self, key: SubscriptionKey) -> SubscriptionKey:
        """A key a channel may subscribe to, in its stored form: a topic of the rules,
        `plugins` (the daily report's Plugins section, when plugins are watched),
        `radar:<plugin>` (that section for one watched plugin, named any way people name it;
        AskError naming the watched ones for any other) or `ci`/`ci:<hardware>` (when CI is
        read). Anything else is told as an unknown topic."""
        if key.kind == "plugins" and self.settings.plugin_list:
            return key
        if key.plugin is not None and self.radars is not None and self.radars.plugins:
            return SubscriptionKey.of_plugin(self.radars.plugin(key.plugin))
        if key.is_ci and self.ci is not None:
            return ci_topic(key)
        return SubscriptionKey("topic", asking.topic(key.text, self.rules))


def ci_topic(key: SubscriptionKey) -> SubscriptionKey:
    """CI news for every hardware (`ci`) or one it runs on (`ci:amd`); AskError (one
    sentence) for a hardware CI does not run on."""
    if key.hardware is not None and key.hardware not in HARDWARE:
        raise asking.AskError(
            f"'{key}' names no hardware: say `ci` or `ci:<hardware>` ({', '.join(HARDWARE)})"
        )
    return key
