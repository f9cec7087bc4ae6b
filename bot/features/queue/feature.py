"""The review queue, as the bot meets it: a service shared by its report part (the daily
run's Review queue section, while GitHub's lists still fit the window), its slash command
(`/vllm-queue`), its command line (`vllm-report queue`) and its weekly digest in `serve`'s
scheduler."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.features import AddPart, Commands, CommandServices, Feature, FeatureContext, Gate

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from bot.commands import Command
    from bot.features.queue.service import QueueDigest
    from bot.service.daily import DailyJob


def _shared(ctx: FeatureContext) -> Any:
    from bot.features.queue.service import QueueService

    return QueueService(ctx.archiver, ctx.rules, ctx.clock)


def _part(ctx: FeatureContext) -> AddPart:
    from bot.features.queue.service import queue_part

    return queue_part(ctx.own("queue"))[1]


def _commands() -> Sequence[tuple[int, Command[Any, Any]]]:
    from bot.features.queue.command import ReviewQueue

    return ((20, ReviewQueue()),)


def _services(ctx: FeatureContext) -> CommandServices:
    from bot.features.queue.service import QueueService

    return CommandServices(by_type={QueueService: ctx.own("queue")})


def queue_digest(ctx: FeatureContext, job: DailyJob) -> QueueDigest:
    """The weekly review-queue digest, posted through the daily run's deliverer."""
    from bot.features.queue.service import DIGEST_DAYS, QueueDigest, last_days

    settings = ctx.settings
    tz, cutoff = settings.tz, settings.cutoff_time
    return QueueDigest(
        ctx.own("queue"),
        job.daily_run.deliverer,
        ctx.store.subscriptions.list,
        lambda moment: last_days(moment, DIGEST_DAYS, tz, cutoff),
        settings.repo,
        settings.lang,
    )


def _scheduled(ctx: FeatureContext, scheduler: Any, job: DailyJob, gate: Gate) -> None:
    from bot.features.queue.service import schedule_digest

    schedule_digest(scheduler, queue_digest(ctx, job), ctx.settings, gate)


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    from bot.features.queue.cli import add_queue_command

    add_queue_command(commands)


FEATURE = Feature(
    "queue",
    shared=_shared,
    part=_part,
    part_name="review queue",
    commands=Commands(_commands),
    services=_services,
    cli=_cli,
    scheduled=_scheduled,
)
