"""Composition root: settings → store, rules, transports, poster, scheduler, chat apps.

`post_once` is what `vllm-report post` runs; `serve` is the long-running bot (`vllm-report
serve`, `python -m bot serve`): the scheduler, the Slack app and the Discord client in one
asyncio process, each started only when configured. With no chat tokens it still runs its
main job: daily reports go to the archive folder and the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

from bot.adapters.discord_transport import DiscordTransport
from bot.adapters.slack_transport import SlackTransport, slack_client
from bot.collect import GitHubSource
from bot.deliver import Transport
from bot.posting import Poster, PostResult
from bot.store import Store
from bot.topic_rules import TopicRules
from bot.windows import Window
from config.settings import Settings

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


@contextlib.asynccontextmanager
async def transports(settings: Settings) -> AsyncIterator[dict[str, Transport]]:
    """The configured platforms' transports, closed on exit."""
    opened: dict[str, Transport] = {}
    discord_transport: DiscordTransport | None = None
    if settings.slack_bot_token:
        client = slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url)
        opened["slack"] = SlackTransport(client, pace=settings.slack_post_interval)
    if settings.discord_bot_token:
        discord_transport = await DiscordTransport.login(
            settings.discord_bot_token.get_secret_value(), settings.discord_api_url
        )
        opened["discord"] = discord_transport
    try:
        yield opened
    finally:
        if discord_transport is not None:
            await discord_transport.close()


async def post_once(settings: Settings, rules: TopicRules, window: Window) -> PostResult:
    """One window to every configured destination and subscriber, through the ledger."""
    store = Store(settings.store_url())
    try:
        async with transports(settings) as opened:
            poster = Poster(settings, rules, store, opened, now, github_source(settings))
            return await poster.post_window(window)
    finally:
        store.close()


async def serve(settings: Settings, rules: TopicRules) -> None:
    """Run until SIGINT/SIGTERM: schedule, catch up, answer commands."""
    from bot.adapters.discord_app import start_discord
    from bot.adapters.slack_app import start_slack
    from bot.commands import CommandService
    from bot.scheduling import build_scheduler

    store = Store(settings.store_url())
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with transports(settings) as opened:
        poster = Poster(settings, rules, store, opened, now, github_source(settings))
        commands = CommandService(settings, rules, store, now, github_source(settings))
        scheduler = build_scheduler(
            settings.tz, settings.cutoff_time, settings.post_delay_minutes, poster.daily
        )
        scheduler.start()
        log.info(
            "daily report scheduled at %s (%s); destinations: %s",
            scheduler.get_job("daily-report").trigger,
            settings.timezone,
            ", ".join(d.key for d in poster.destinations()) or "archive only",
        )
        tasks: list[asyncio.Task[Any]] = [asyncio.create_task(poster.catch_up())]
        if settings.slack_bot_token and (settings.slack_app_token or settings.slack_signing_secret):
            tasks.append(asyncio.create_task(start_slack(settings, commands, stop)))
        if settings.discord_bot_token:
            tasks.append(asyncio.create_task(start_discord(settings, commands, stop)))
        await stop.wait()
        scheduler.shutdown(wait=False)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    store.close()
