"""Personal digests, as the bot meets them: `label:`, `author:`, `path:` and `mine`
subscriptions sent after the daily post (one message per destination, with what the other
features tell a `mine` reader), readers' GitHub logins for the slash commands, `/vllm-me`,
and the command line's `vllm-report digest`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.features import Commands, CommandServices, Feature, FeatureContext, NewsFor

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from bot.commands import Command
    from bot.service.daily_run import DestinationDigests
    from config.settings import Settings


def _commands() -> Sequence[tuple[int, Command[Any, Any]]]:
    from bot.features.personal.command_me import Me

    return ((80, Me()),)


def _services(ctx: FeatureContext) -> CommandServices:
    from bot.features.personal.store import GitHubLinks

    links = GitHubLinks(ctx.store.transactions)
    return CommandServices(by_type={GitHubLinks: links}, logins=links)


def _destination_digests(ctx: FeatureContext, news: tuple[NewsFor, ...]) -> DestinationDigests:
    from bot.features.personal.messages import PersonalMessages
    from bot.features.personal.service import PersonalDigests
    from bot.features.personal.store import GitHubLinks

    links = GitHubLinks(ctx.store.transactions)
    return PersonalMessages(PersonalDigests(ctx.archiver, links, weekly_day(ctx.settings), news))


def weekly_day(settings: Settings) -> int:
    """Weekly personal digests go with the report of the queue digest's weekday (Monday's
    when the queue digest is off): one weekly day for the whole bot. Monday is 0."""
    from config.fields import WEEKDAYS

    day: str = settings.queue_digest_day
    return 0 if day == "off" else WEEKDAYS.index(day)


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    from bot.features.personal.cli import add_digest_command

    add_digest_command(commands)


FEATURE = Feature(
    "personal",
    commands=Commands(_commands),
    services=_services,
    destination_digests=_destination_digests,
    cli=_cli,
)
