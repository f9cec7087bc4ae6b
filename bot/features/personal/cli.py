"""`vllm-report digest <filter> [when]`: the personal digest a subscription would get."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from bot.cli.common import asked_window, check_phrase, configured, now, opened
from bot.cli.options import command, common_options

if TYPE_CHECKING:
    from bot.app import Bot
    from bot.model.subscriptions import Filter


def add_digest_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    digest = command(
        commands,
        "digest",
        "the personal digest of label:, author:, path: or mine for a window",
        "What `/vllm-subscribe <filter>` sends for a window: the items the filter selects, "
        "each once, grouped by why. `mine` needs --login (a chat user's is the one "
        "`/vllm-me github` linked).",
        [
            "vllm-report digest label:rocm",
            "vllm-report digest mine --login tjtanaa 2026-03-25",
            "vllm-report digest 'path:vllm/v1/attention/*' 7d --format slack",
        ],
    )
    digest.add_argument("filter", help="label:<name>, author:<login>, path:<glob> or mine")
    # No default here: the window may also follow the options (bot.cli._parsed).
    digest.add_argument("when", nargs="*", default=[], help="the window (default yesterday)")
    common_options(digest)
    digest.add_argument("--login", help="the GitHub login `mine` is for")
    digest.add_argument(
        "--format",
        choices=("markdown", "slack", "discord"),
        default="markdown",
        help="markdown (default), or the slack/discord payload a subscriber gets",
    )
    digest.set_defaults(func=run_digest)


def run_digest(args: argparse.Namespace) -> int:
    from bot.commands.filters import LOGIN, read_filter
    from bot.features.personal.model import MINE
    from bot.model.errors import InputError

    check_phrase(args)
    rule = read_filter(args.filter)
    login = (args.login or "").removeprefix("@") or None
    if rule.kind == MINE and login is None:
        raise InputError("`mine` is someone's: say whose with --login <GitHub login>")
    if login is not None and not LOGIN.match(login):
        raise InputError(f"`{login}` is not a GitHub login (letters, digits and dashes)")
    settings, rules = configured(args)
    args.when = args.when or ["yesterday"]
    window = asked_window(args, settings)
    from bot.features.personal.service import PersonalDigests
    from bot.features.personal.store import GitHubLinks
    from bot.model.query import ReportQuery

    with opened(settings, rules) as bot:
        if rule.kind == "label":  # a typo would select nothing, said as a quiet window
            _label_checked(rule, bot)
        report = bot.reports.report(ReportQuery(settings.repo, window, counts_only=True))
        digests = PersonalDigests(bot.reports.archiver, GitHubLinks(bot.store.transactions))
        digest = digests.one(report, rule, login, now())
    from bot.features.personal.render import personal_parts, render_personal_markdown

    if args.format == "markdown":
        print(render_personal_markdown(digest, settings.lang), end="")
    else:
        payloads = [p for _, p in personal_parts(args.format, digest, settings.lang)]
        print(json.dumps(payloads, ensure_ascii=False, indent=2))
    return 0


def _label_checked(rule: Filter, bot: Bot) -> None:
    """The label checked with GitHub as `/vllm-subscribe label:…` checks it (one request,
    bot.commands.filters.confirm): an unknown one is one sentence with the nearest label
    the repository has (exit status 2), not a digest of nothing."""
    from bot.commands.filters import confirm
    from bot.commands.services import Services

    services = Services(
        bot.settings, bot.rules, bot.reports, bot.store.subscriptions, bot.reports.clock
    )
    confirm(rule, services)
