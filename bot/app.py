"""Composition root: settings → store, rules, archiver, prose, pipeline; transports; serve.

Everything is built once here and handed down: the CLI, the daily job and the slash
commands share one `Pipeline` (so a configured model writes prose for all three). Heavy
SDKs are imported only where they are needed: Slack and Discord when configured, PyGithub
when the archive lacks something, the model client when a model is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.delivery import Transport
from bot.model.rules import TopicRules
from bot.model.windows import Window
from bot.report_files import ReportFiles
from bot.service.pipeline import Pipeline, PostResult
from bot.store import Store
from config.settings import Settings

if TYPE_CHECKING:
    from bot.prose import ProseWriter

log = logging.getLogger(__name__)


def now() -> datetime:
    return datetime.now(UTC)


def github_source(settings: Settings) -> GitHubSource:
    return GitHubSource(
        repo=settings.repo,
        api_url=settings.github_api_url,
        token=settings.github_token.get_secret_value() if settings.github_token else None,
        timeout=settings.github_timeout,
        retries=settings.github_retries,
        backoff=settings.github_backoff,
        max_rate_limit_wait=settings.github_max_rate_limit_wait,
        secondary_rate_wait=settings.github_secondary_rate_wait,
        request_interval=settings.github_request_interval,
    )


def prose_writer(settings: Settings, store: Store) -> ProseWriter | None:
    """A model writer when LLM_BASE_URL and LLM_MODEL are set, else None (templates only)."""
    if not (settings.llm_base_url and settings.llm_model):
        return None
    from bot.prose import LLMConfig, ProseWriter

    config = LLMConfig(
        base_url=settings.llm_base_url,
        model=settings.llm_model,
        api_key=settings.llm_api_key.get_secret_value() if settings.llm_api_key else None,
        timeout=settings.llm_timeout,
        retries=settings.llm_retries,
    )
    return ProseWriter(config, cache=store.prose)


@dataclass
class Bot:
    """The parts every entry point shares, opened once."""

    settings: Settings
    rules: TopicRules
    store: Store
    pipeline: Pipeline

    def close(self) -> None:
        if self.pipeline.prose is not None:
            self.pipeline.prose.close()
        self.store.close()


def open_bot(settings: Settings, rules: TopicRules, clock: Callable[[], datetime] = now) -> Bot:
    store = Store(settings.store_url())
    pipeline = Pipeline(
        Archiver(store, github_source(settings)),
        rules,
        ReportFiles(settings.archive_dir, settings.archive_url, settings.repo),
        clock,
        prose=prose_writer(settings, store),
    )
    return Bot(settings, rules, store, pipeline)


@contextlib.asynccontextmanager
async def transports(settings: Settings) -> AsyncIterator[dict[str, Transport]]:
    """The configured platforms' transports, closed on exit.

    Nothing here touches the network: each transport connects on its first send, so one
    platform being down fails that platform's destinations alone (the others carry on).
    """
    opened: dict[str, Transport] = {}
    closers = []
    if settings.slack_bot_token:
        from bot.adapters.slack_transport import SlackTransport, slack_client

        client = slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url)
        opened["slack"] = SlackTransport(client, pace=settings.slack_post_interval)
    if settings.discord_bot_token:
        from bot.adapters.discord_transport import DiscordTransport

        discord_transport = DiscordTransport(
            settings.discord_bot_token.get_secret_value(), settings.discord_api_url
        )
        opened["discord"] = discord_transport
        closers.append(discord_transport.close)
    try:
        yield opened
    finally:
        for close in closers:
            with contextlib.suppress(Exception):
                await close()


async def post_once(bot: Bot, window: Window) -> PostResult:
    """One window to every configured destination and subscriber, through the ledger."""
    from bot.service.daily import DailyJob

    async with transports(bot.settings) as opened:
        job = DailyJob(bot.settings, bot.pipeline, bot.store, opened, bot.pipeline.clock)
        return await job.post(window)


async def serve(bot: Bot) -> None:
    """Run until SIGINT/SIGTERM: schedule, catch up, answer commands."""
    from bot.service.commands import CommandService
    from bot.service.daily import DailyJob
    from bot.service.leader import Leader
    from bot.service.scheduling import build_scheduler

    settings = bot.settings
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with transports(settings) as opened:
        clock = bot.pipeline.clock
        job = DailyJob(settings, bot.pipeline, bot.store, opened, clock)
        commands = CommandService(settings, bot.rules, bot.pipeline, bot.store.subscriptions, clock)
        # Every replica schedules; only the one holding the scheduler lease runs the job.
        leader = Leader(bot.store.leases, timedelta(seconds=settings.leader_lease_seconds))
        scheduler = build_scheduler(
            settings.tz, settings.cutoff_time, settings.post_delay_minutes, leader.gate(job.run)
        )
        scheduler.start()
        log.info(
            "daily report scheduled at %s (%s); destinations: %s",
            scheduler.get_job("daily-report").trigger,
            settings.timezone,
            ", ".join(d.key for d in job.destinations()) or "archive only",
        )
        # The catch-up runs each time this replica becomes the leader (at once when alone).
        tasks: list[asyncio.Task[Any]] = [
            asyncio.create_task(leader.keep(stop, leader.gate(job.catch_up)))
        ]
        if settings.slack_bot_token and (settings.slack_app_token or settings.slack_signing_secret):
            from bot.adapters.slack_app import start_slack

            tasks.append(asyncio.create_task(start_slack(settings, commands, stop)))
        if settings.discord_public_key:  # HTTP interactions: stateless, any number of replicas
            from bot.adapters.discord_http import start_interactions

            tasks.append(asyncio.create_task(start_interactions(settings, commands, stop)))
        elif settings.discord_bot_token:  # the gateway: one connection, one process
            from bot.adapters.discord_app import start_discord

            tasks.append(asyncio.create_task(start_discord(settings, commands, stop)))
        await stop.wait()
        scheduler.shutdown(wait=False)
        await asyncio.wait_for(tasks[0], 10)  # the leader hands its lease back
        for task in tasks[1:]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
