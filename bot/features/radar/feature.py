"""The plugins' breakage radar, as the bot meets it: the Plugins section of a whole report
of one day (read from GitHub by the daily run, from the archive for everyone else), its
slash command (`/vllm-radar`), the `plugins` and `radar:<plugin>` subscriptions and their
digests, its site pages, its line in `doctor` and its command line (`vllm-report radar`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.features import AddPart, Commands, CommandServices, Feature, FeatureContext
from bot.features.radar.model import KEY_FORMS

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from datetime import datetime

    from bot.commands import Command
    from bot.model.report import ActivityItem, Report
    from bot.service.daily_run import FeatureDigests
    from bot.service.doctor import Check
    from bot.service.reports import Asking
    from bot.service.site import SitePages
    from config.settings import Settings

log = logging.getLogger("bot.app")  # the composition root's name, as its lines always had


def _part(ctx: FeatureContext) -> AddPart | None:
    """The Plugins section: read from GitHub for the daily run (`ask`), from the archive
    alone for everyone else. The run reads nothing without a GitHub token: a day of the
    plugins' windows and pins costs about 4 searches and a pin request or two a plugin, its
    warnings about 220 requests a steady day over six plugins (a head a plugin, a file list
    per PR pushed, the modules the plugins use at each PR's base and head:
    `benchmarks/radar_requests.py --warnings`), and anonymous GitHub gives 60 an hour to
    the whole run (the daemon's log says so on each daily run, `doctor` too)."""
    from bot.features.radar.service import radar_service, with_radar

    settings = ctx.settings
    plugins = settings.plugin_list
    if not plugins:
        return None
    service = radar_service(ctx)

    def plugins_part(report: Report, asking: Asking) -> Report:
        whole = asking.query.topic is None and (asking.query.queue or asking.one_day)
        if not whole:
            return report
        if asking.ask and settings.github_token is None:
            log.info(
                "the %s report has no Plugins section: reading %d plugins needs a GitHub "
                "token (set GITHUB_TOKEN, or VLLM_REPORT_PLUGINS=none to stop watching them)",
                report.window.label,
                len(plugins),
            )
            return report
        return with_radar(report, service, ask=asking.ask)

    return plugins_part


def _commands() -> Sequence[tuple[int, Command[Any, Any]]]:
    from bot.features.radar.command import Radar

    return ((30, Radar()),)


def _services(ctx: FeatureContext) -> CommandServices:
    from bot.features.radar.command import plugin_topics
    from bot.features.radar.model import PLUGINS_DIGEST, plugin_key
    from bot.features.radar.service import RadarService, radar_service
    from bot.model.subscriptions import SubscriptionKey

    radars = radar_service(ctx)
    plugins = ctx.settings.plugin_list
    lines = []
    if plugins:
        lines.append(
            f"{SubscriptionKey('plugins')} — {PLUGINS_DIGEST}: upstream changes that broke "
            "the watched hardware plugins, and pins lagging main (a subscription only; "
            "`/vllm-radar` for any window)"
        )
        names = ", ".join(str(plugin_key(repo)) for repo in plugins)
        lines.append(f"{names} — the same for one plugin: its culprits, open breakage, pin")
    return CommandServices(
        by_type={RadarService: radars}, topic_check=plugin_topics(radars), topic_lines=lines
    )


def _digests(ctx: FeatureContext) -> FeatureDigests:
    from bot.features.radar.digests import PluginDigests
    from bot.features.radar.store_corrections import WarningLedger

    return PluginDigests(WarningLedger.of_store(ctx.archiver.store), ctx.clock)


def _site_pages() -> SitePages:
    from bot.features.radar.site import PluginPages

    return PluginPages()


def plugins_check(settings: Settings) -> Check:
    """What the daily report says of the hardware plugins. Anonymous is not a fault (the
    report goes out without its Plugins section), so it is said, not failed."""
    from bot.service.doctor import Check

    plugins = settings.plugin_list
    if not plugins:
        return Check("plugins", True, "none watched (VLLM_REPORT_PLUGINS=none)")
    names = ", ".join(p.split("/", 1)[1] for p in plugins)
    if settings.github_token is None:
        return Check(
            "plugins",
            True,
            f"{len(plugins)} watched ({names}); the daily report leaves its Plugins section "
            "out until GITHUB_TOKEN is set (about 7 requests a plugin a day, and some 220 "
            "for the warnings of upstream PRs that will break one)",
        )
    return Check("plugins", True, f"{len(plugins)} watched ({names}), in the daily report")


def _explain(ctx: FeatureContext, item: ActivityItem) -> list[str]:
    """The plugins a PR broke, from the archived plugin PRs that name it as what they fixed
    for."""
    if item.kind != "pr":
        return []
    from bot.features.radar.service import radar_service

    broke = radar_service(ctx).broken_by(item.number)
    if not broke:
        return []
    return [
        "broke plugins: " + ", ".join(f"{f.plugin_repo.split('/', 1)[1]}#{f.number}" for f in broke)
    ]


def _after_show(
    ctx: FeatureContext, report: Report, sections: Sequence[str], now: datetime
) -> str | None:
    """The plugins the report's window could not be told for, said where it can be acted
    on: the radar reads the plugins with a token, or the Plugins section was asked for.
    Otherwise a script's stderr stays as it was."""
    settings = ctx.settings
    if not (settings.github_token or "plugins" in sections):
        return None  # nothing to act on: the service is not even loaded
    from bot.features.radar.service import plugins_unread

    return plugins_unread(settings.plugin_list, report, report.topic, now) or None


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    from bot.features.radar.cli import add_radar_command

    add_radar_command(commands)


FEATURE = Feature(
    "radar",
    sections=("plugins",),
    keys=KEY_FORMS,
    part=_part,
    part_name="plugins",
    commands=Commands(_commands),
    services=_services,
    digests=_digests,
    explain=_explain,
    site_pages=_site_pages,
    doctor=plugins_check,
    cli=_cli,
    after_show=_after_show,
)
