"""Where the features meet the core: each hook the core declares, filled with what the
features give it (see docs/architecture.md, "Features"). A new feature is added here and in
its own folder; the core below does not change.

Each builder takes the parts it needs, not the Bot, so bot.app.wiring can call them while
it opens one. Feature modules are imported inside the builders, so importing the
composition root imports no feature.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.collect.sync import Archiver
from bot.service.reports import Asking, PartSource
from config.settings import Settings

if TYPE_CHECKING:
    from bot.commands import Command
    from bot.commands.services import Logins, TopicCheck
    from bot.features.ci.service import CiService
    from bot.features.queue.service import QueueService
    from bot.features.radar.service import RadarService
    from bot.model.report import Report
    from bot.service.daily_run import DestinationDigests, FeatureDigests
    from bot.service.site import SitePages
    from bot.store import Store

log = logging.getLogger("bot.app")  # one name for the composition root in the log


def report_parts(
    settings: Settings, archiver: Archiver, queues: QueueService, clock: Callable[[], datetime]
) -> list[PartSource]:
    """What the features add to a report, in order: the review queue (the daily run's, while
    GitHub's lists still fit the window), the plugins' Plugins section (a whole report of
    one day, or the daily run's) and Red on main (any whole report). The daily run reads
    each fresh (`ask`); everyone else gets what the run archived."""
    from bot.features.queue.service import queue_part

    parts: list[PartSource] = [queue_part(queues)]
    radar = _plugins_radar(settings, archiver, clock)
    if radar is not None:
        add_radar = radar

        def plugins(report: Report, asking: Asking) -> Report:
            whole = asking.query.topic is None and (asking.query.queue or asking.one_day)
            return add_radar(report, asking.ask) if whole else report

        parts.append(("plugins", plugins))
    red = _red_on_main(settings, archiver, clock)
    if red is not None:
        add_red = red

        def ci(report: Report, asking: Asking) -> Report:
            return add_red(report, asking.ask) if asking.query.topic is None else report

        parts.append(("Red on main", ci))
    return parts


def _plugins_radar(
    settings: Settings, archiver: Archiver, clock: Callable[[], datetime]
) -> Callable[[Report, bool], Report] | None:
    """What adds the Plugins section to a day's report: read from GitHub for the daily run
    (`ask`), from the archive alone for everyone else. The run reads nothing without a
    GitHub token: a day of the plugins' windows and pins costs about 4 searches and a pin
    request or two a plugin (`benchmarks/radar_requests.py`), and anonymous GitHub gives 60
    an hour to the whole run (the daemon's log says so on each
    daily run, `doctor` too)."""
    from bot.features.radar.service import with_radar

    plugins = settings.plugin_list
    if not plugins:
        return None
    service = radar_service(settings, archiver, clock)

    def add(report: Report, ask: bool) -> Report:
        if ask and settings.github_token is None:
            log.info(
                "the %s report has no Plugins section: reading %d plugins needs a GitHub "
                "token (set GITHUB_TOKEN, or VLLM_REPORT_PLUGINS=none to stop watching them)",
                report.window.label,
                len(plugins),
            )
            return report
        return with_radar(report, service, ask=ask)

    return add


def ci_service(
    settings: Settings, archiver: Archiver, clock: Callable[[], datetime]
) -> CiService | None:
    """Red on main over VLLM_REPORT_CI_URL's dashboard (None when it is off)."""
    from bot.features.ci.service import CiService

    source = settings.ci_source
    return None if source is None else CiService(archiver, source, clock, settings.repo)


def _red_on_main(
    settings: Settings, archiver: Archiver, clock: Callable[[], datetime]
) -> Callable[[Report, bool], Report] | None:
    """What adds Red on main to a report: the daily run reads the dashboard (one request),
    everyone else gets what the archive holds for the window."""
    from bot.features.ci.service import with_ci

    service = ci_service(settings, archiver, clock)
    if service is None:
        return None
    return lambda report, ask: with_ci(report, service, ask=ask)


def radar_service(
    settings: Settings, archiver: Archiver, clock: Callable[[], datetime]
) -> RadarService:
    """The breakage radar over the watched plugins (VLLM_REPORT_PLUGINS)."""
    from bot.features.radar.service import RadarService

    return RadarService(archiver, settings.plugin_list, clock, settings.pin_lag_days)


def table() -> tuple[Command[Any, Any], ...]:
    """Every slash command, the core's and the features', in the order Slack's manifest and
    Discord's command list show them."""
    from bot.commands import CORE_COMMANDS
    from bot.features.ci.command import Ci
    from bot.features.personal.command_me import Me
    from bot.features.queue.command import ReviewQueue
    from bot.features.radar.command import Radar

    report, subscribe, unsubscribe, subscriptions, topics = CORE_COMMANDS
    return (
        report,
        ReviewQueue(),
        Radar(),
        Ci(),
        subscribe,
        unsubscribe,
        subscriptions,
        Me(),
        topics,
    )


def command_services(
    settings: Settings,
    archiver: Archiver,
    store: Store,
    queues: QueueService,
    clock: Callable[[], datetime],
) -> tuple[dict[type, Any], Logins, list[TopicCheck]]:
    """What the slash commands get of the features: each one's service by type, the
    readers' logins, and which subscription keys each lets a channel subscribe to."""
    from bot.features.ci.command import ci_topics
    from bot.features.ci.service import CiService
    from bot.features.personal.store import GitHubLinks
    from bot.features.queue.service import QueueService
    from bot.features.radar.command import plugin_topics
    from bot.features.radar.service import RadarService

    radars = radar_service(settings, archiver, clock)
    links = GitHubLinks(store.transactions)
    red = ci_service(settings, archiver, clock)
    checks: list[TopicCheck] = [plugin_topics(radars)]
    features: dict[type, Any] = {QueueService: queues, RadarService: radars, GitHubLinks: links}
    if red is not None:  # `ci` is an unknown topic where Red on main is off
        checks.append(ci_topics)
        features[CiService] = red
    return features, links, checks


def digests(
    settings: Settings, archiver: Archiver, store: Store
) -> tuple[DestinationDigests, tuple[FeatureDigests, ...]]:
    """What the daily run sends subscribers after the post: personal digests, one message
    per destination (a `mine` reader's Red on main failures among them), and the features'
    own subscriptions' news (`ci:amd`, `plugins`, `radar:vllm-ascend`)."""
    from bot.features.ci.outline import suspected_news
    from bot.features.ci.service import CiDigests
    from bot.features.personal.messages import PersonalMessages
    from bot.features.personal.service import PersonalDigests
    from bot.features.personal.store import GitHubLinks
    from bot.features.radar.service import PluginDigests

    personal = PersonalDigests(
        archiver,
        GitHubLinks(store.transactions),
        _weekly_day(settings),
        news=(suspected_news,),  # a `mine` reader's Red on main failures
    )
    return PersonalMessages(personal), (CiDigests(), PluginDigests())


def site_pages() -> Sequence[SitePages]:
    """What the features add to the report site: the radar's plugin pages."""
    from bot.features.radar.site import PluginPages

    return (PluginPages(),)


def _weekly_day(settings: Settings) -> int:
    """Weekly personal digests go with the report of the queue digest's weekday (Monday's
    when the queue digest is off): one weekly day for the whole bot. Monday is 0."""
    from config.fields import WEEKDAYS

    day: str = settings.queue_digest_day
    return 0 if day == "off" else WEEKDAYS.index(day)
