"""`vllm-report radar` (which upstream changes broke which plugin) and `radar wrong`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from bot.cli.common import check_phrase, configured, now, opened
from bot.cli.options import FORMATS, UsageError, command, day_options, lang_option

if TYPE_CHECKING:
    from bot.model.rules import TopicRules
    from bot.model.windows import Window
    from config.settings import Settings


RADAR_MAX_DAYS = 366  # a long look back: the archive answers what it holds


def add_radar_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    radar = command(
        commands,
        "radar",
        "which upstream vLLM change broke which hardware plugin, and how far pins lag",
        "Read the watched plugins' PRs and issues of the window (VLLM_REPORT_PLUGINS, "
        "collected into the archive like the main repository) for the upstream changes they "
        "fix for, adapt to or mention; lead with the upstream changes that broke plugins; "
        "say how far each plugin's pin of upstream lags main (for a recent window).",
        [
            "vllm-report radar 2025-09-01..2025-09-30",
            "vllm-report radar 7d --plugin gaudi",
            "vllm-report radar yesterday --format json",
            "vllm-report radar 7d --lang zh",
            "vllm-report radar wrong vllm-ascend#3221 24982   # that upstream PR did not break it",
            "vllm-report radar --predict                      # upstream PRs that will break one",
            "vllm-report radar --predict --plugin ascend --lang zh",
        ],
    )
    radar.add_argument(
        "when",
        nargs="*",
        default=[],
        help="the window (default 7d, with --predict yesterday; a day, a range), or "
        "`wrong <plugin PR> <upstream PR>`",
    )
    day_options(radar)
    lang_option(radar)
    radar.add_argument("--plugin", help="one watched plugin, e.g. gaudi or vllm-ascend")
    radar.add_argument(
        "--predict",
        action="store_true",
        help="warn before it breaks: the upstream PRs of the window (open ones updated in it, "
        "those merged in it) that take away what a plugin uses, with the plugin's lines",
    )
    radar.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default), json (vllm-radar/1), or the slack/discord payload of /vllm-radar",
    )
    radar.set_defaults(func=run_radar)


def run_radar(args: argparse.Namespace) -> int:
    from bot.model import asking

    if args.when[:1] == ["wrong"]:  # `radar wrong vllm-ascend#3221 24982`: a correction
        return run_radar_wrong(args)
    check_phrase(args)
    settings, rules = configured(args)
    if not settings.plugin_list:
        raise UsageError(
            "no plugin is watched (VLLM_REPORT_PLUGINS=none): name them, comma-separated "
            "owner/name, or leave the setting out for the default six"
        )
    window = asking.window(
        " ".join(args.when) or ("yesterday" if args.predict else "7d"),
        now=now(),
        tz=settings.tz,
        cutoff=settings.cutoff_time,
        max_days=RADAR_MAX_DAYS,
    )
    from bot.features.radar import render as drawn
    from bot.features.radar.message import radar_message
    from bot.features.radar.phrases import said
    from bot.features.radar.render_json import render_radar_json
    from bot.features.radar.service import radar_service
    from bot.platforms.registry import PLATFORMS

    if args.predict:
        return _run_predict(args, settings, rules, window)
    with opened(settings, rules) as bot:
        service = radar_service(bot.context())
        plugin = service.plugin(args.plugin) if args.plugin else None
        found = service.radar(window, plugin)
    lang = settings.lang
    if args.format == "json":
        print(render_radar_json(found), end="")
    elif args.format in PLATFORMS:
        payload = radar_message(PLATFORMS[args.format], found, lang)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(drawn.render_radar_markdown(found, lang), end="")
    if not found.complete:  # exit 1: GitHub failed (docs/commands.md), said in one line
        told = drawn.incomplete_text(found, lang, "incomplete_cli")
        if found.unread and not args.verbose:  # with -v the log gave GitHub's own words
            told += said(lang, "sentence_sep") + said(lang, "unread_verbose")
        print(f"vllm-report: {told}", file=sys.stderr)
        return 1
    return 0


def _run_predict(
    args: argparse.Namespace, settings: Settings, rules: TopicRules, window: Window
) -> int:
    """`radar --predict`: the window's warnings, read from GitHub as far as the archive
    does not hold them. Exit 1 when something could not be evaluated (said on stderr)."""
    from bot.features.radar.forecast import forecast_to_dict
    from bot.features.radar.phrases import said
    from bot.features.radar.render_forecast import (
        forecast_markdown,
        forecast_message,
        not_evaluated_text,
    )
    from bot.features.radar.render_json import SCHEMA
    from bot.features.radar.service import radar_service
    from bot.platforms.registry import PLATFORMS

    with opened(settings, rules) as bot:
        service = radar_service(bot.context())
        plugin = service.plugin(args.plugin) if args.plugin else None
        forecast = service.forecast(window, plugin)
    lang = settings.lang
    if args.format == "json":
        data = {"schema": SCHEMA, "window": window.label, **forecast_to_dict(forecast)}
        print(json.dumps(data, ensure_ascii=False, indent=1))
    elif args.format in PLATFORMS:
        payload = forecast_message(PLATFORMS[args.format], forecast, lang)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        print(forecast_markdown(forecast, lang), end="")
    told = not_evaluated_text(forecast, lang)
    if told:  # exit 1: not every plugin or PR could be evaluated (never "no break")
        print(f"vllm-report: {said(lang, 'incomplete_cli')}{told}", file=sys.stderr)
        return 1
    return 0


def run_radar_wrong(args: argparse.Namespace) -> int:
    """Keep a person's word that an upstream PR did not break a plugin PR (the archive alone)."""
    words = args.when[1:]
    if len(words) != 2:
        raise UsageError(
            f"a correction names two PRs ({len(words)} given): "
            "`vllm-report radar wrong vllm-ascend#3221 24982`"
        )
    settings, rules = configured(args)
    from bot.features.radar.service import radar_service

    with opened(settings, rules) as bot:
        print(radar_service(bot.context()).correct(words[0], words[1], "cli"))
    return 0
