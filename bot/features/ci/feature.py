"""Red on main, as the bot meets it: its section of any whole report (the daily run reads
the dashboard, everyone else gets what the archive holds for the window), its slash
command (`/vllm-ci`), the `ci` and `ci:<hardware>` subscriptions and their digests, what it
tells a `mine` reader, its line in `doctor` and its command line (`vllm-report ci`). Off
(no part, no service) when VLLM_REPORT_CI_URL is `none`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.features import AddPart, Commands, CommandServices, Feature, FeatureContext
from bot.features.ci.model import KEY_FORMS

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from bot.commands import Command
    from bot.model.report import Report
    from bot.service.daily_run import FeatureDigests
    from bot.service.doctor import Check
    from bot.service.reports import Asking
    from config.settings import Settings


def _part(ctx: FeatureContext) -> AddPart | None:
    from bot.features.ci.service import ci_service, with_ci

    service = ci_service(ctx)
    if service is None:
        return None
    red = service

    def red_on_main(report: Report, asking: Asking) -> Report:
        if asking.query.topic is not None:
            return report
        return with_ci(report, red, ask=asking.ask)

    return red_on_main


def _commands() -> Sequence[tuple[int, Command[Any, Any]]]:
    from bot.features.ci.command import Ci

    return ((40, Ci()),)


def _services(ctx: FeatureContext) -> CommandServices:
    from bot.features.ci.command import ci_topics
    from bot.features.ci.service import CiService, ci_service

    red = ci_service(ctx)
    if red is None:  # `ci` is an unknown topic where Red on main is off
        return CommandServices()
    from bot.features.ci.model import HARDWARE
    from bot.model.subscriptions import SubscriptionKey

    kinds = ", ".join(f"ci:{hardware}" for hardware in HARDWARE)
    lines = (
        f"{SubscriptionKey('ci')} — Red on main: CI jobs failing on vLLM's main, with their "
        "blame range and who to ask, and CI failures reported on GitHub (a subscription; "
        "`/vllm-ci` for any window)",
        f"{kinds} — the same for one hardware (`ci:amd`: AMD's own CI too)",
    )
    return CommandServices(by_type={CiService: red}, topic_check=ci_topics, topic_lines=lines)


def _digests(ctx: FeatureContext) -> FeatureDigests:
    from bot.features.ci.service import CiDigests

    return CiDigests()


def _reader_news(report: Report, login: str) -> Any:
    """A `mine` reader's Red on main failures."""
    from bot.features.ci.outline import suspected_news

    return suspected_news(report, login)


def _doctor(settings: Settings) -> Check:
    from bot.features.ci.collect import ci_check

    return ci_check(settings)


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    from bot.features.ci.cli import add_ci_command

    add_ci_command(commands)


FEATURE = Feature(
    "ci",
    sections=("ci",),
    keys=KEY_FORMS,
    part=_part,
    part_name="Red on main",
    commands=Commands(_commands),
    services=_services,
    digests=_digests,
    reader_news=_reader_news,
    doctor=_doctor,
    cli=_cli,
)
