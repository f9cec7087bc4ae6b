"""`serve`: run until stopped — the schedule and its catch-up, the slash commands on each
configured platform, the bot's own HTTP server (site, /healthz, /metrics); one log line per
event. Built from the parts bot.app.wiring makes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.delivery import Destination
from bot.features import declared
from bot.model.errors import InputError, ServiceError
from bot.observe.logs import event, problem
from config.settings import Settings

if TYPE_CHECKING:
    from bot.observe.metrics import Metrics
    from bot.service.health import RunHealth

from bot.app.wiring import (
    STOP_WAIT,
    Bot,
    commands,
    daily_job,
    start_workers,
    stop_workers,
    transports,
)

log = logging.getLogger("bot.app")  # one name for the composition root in the log


async def serve(bot: Bot, stop: asyncio.Event | None = None) -> None:
    """Run until SIGINT/SIGTERM (or `stop` is set): schedule, catch up, answer commands,
    serve HTTP; one log line per event (see bot.observe)."""
    from bot.observe.github_meter import github_meter
    from bot.observe.metrics import Metrics
    from bot.service.health import RunHealth
    from bot.service.leader import Leader
    from bot.service.run_observer import JobObserver
    from bot.service.scheduling import build_scheduler, next_run

    settings = bot.settings
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    workers = start_workers(bot)
    before = asyncio.all_tasks()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    clock = bot.reports.clock
    started = clock()
    meter = github_meter()
    metrics = Metrics()
    metrics.watch(meter)
    # Every replica schedules; only the one holding the scheduler lease runs the job.
    leader = Leader(bot.store.leases, timedelta(seconds=settings.leader_lease_seconds))
    due = next_run(settings.tz, settings.cutoff_time, settings.post_delay_minutes, started)
    health = RunHealth(started, lambda: due, leading=lambda: leader.held is not None)
    async with transports(settings) as opened:
        job = daily_job(bot, opened, JobObserver(metrics, health, meter))
        if bot.reports.prose is not None:
            bot.reports.prose.listeners.append(metrics.prose_failed)
        answers = commands(bot, metrics)
        gated_retry = leader.gate(job.retry)

        async def retry() -> None:  # each minute; the lease is read only when one is due
            if job.retry_due():
                await gated_retry()

        scheduler = build_scheduler(
            settings.tz,
            settings.cutoff_time,
            settings.post_delay_minutes,
            leader.gate(job.run),
            retry=retry,
        )
        for feature in declared():  # the features' own jobs (the weekly queue digest)
            if feature.scheduled is not None:
                feature.scheduled(bot.context(), scheduler, job, leader.gate)
        web = await _start_http(settings, health, metrics, clock)  # first: a taken port stops
        scheduler.start()
        destinations = job.destinations()
        event(log, "started", started_line(bot, destinations, due), next_run=due.isoformat())
        for name, said in setup_problems(settings, destinations):
            problem(log, name, "%s", said)
        # The catch-up runs each time this replica becomes the leader (at once when alone).
        tasks: list[asyncio.Task[Any]] = [
            asyncio.create_task(
                leader.keep(stop, leader.gate(job.catch_up)), name="scheduler lease"
            )
        ]
        if settings.slack_commands_on:
            from bot.platforms.slack.app import start_slack

            tasks.append(
                asyncio.create_task(start_slack(settings, answers, stop), name="Slack app")
            )
        if settings.discord_public_key:  # HTTP interactions: stateless, any number of replicas
            from bot.platforms.discord.http import start_interactions

            tasks.append(
                asyncio.create_task(
                    start_interactions(settings, answers, stop), name="Discord interactions"
                )
            )
        elif settings.discord_bot_token:  # the gateway: one connection, one process
            from bot.platforms.discord.gateway import start_discord

            tasks.append(
                asyncio.create_task(start_discord(settings, answers, stop), name="Discord gateway")
            )
        for task in tasks:
            task.add_done_callback(_told_if_failed)
        await stop.wait()
        stop_workers(bot, workers)  # a catch-up's GitHub or model request is not waited out
        scheduler.shutdown(wait=False)
        with contextlib.suppress(Exception):  # a failure was told when the task ended
            await asyncio.wait_for(tasks[0], STOP_WAIT)  # the leader hands its lease back
        for task in tasks[1:]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)  # each failure was logged once
        if web is not None:
            await web.cleanup()
        if bot.reports.prose is not None:
            bot.reports.prose.listeners.remove(metrics.prose_failed)
    # The catch-up (cancelled by the leader) and a scheduled run end before the last line.
    await _ended(asyncio.all_tasks() - before - {asyncio.current_task()})
    workers.abandon()  # nor is anything a step started meanwhile told after it
    event(log, "stopped", "stopped")


async def _ended(tasks: set[asyncio.Task[Any]]) -> None:
    """Cancel `tasks` and wait (a while) for them to end."""
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=STOP_WAIT)


def started_line(bot: Bot, destinations: Sequence[Destination], due: datetime) -> str:
    """The one line `serve` starts with: platforms, store, when the next run is."""
    from bot.store.failures import safe_url

    settings = bot.settings
    platforms = []
    if settings.slack_bot_token:
        posts = any(d.platform == "slack" for d in destinations)
        way = (
            "Socket Mode"
            if settings.slack_app_token
            else f"HTTP mode on :{settings.slack_port}"
            if settings.slack_signing_secret
            else "posting only, commands off"
            if posts
            else "commands off, no channel to post to"
        )
        platforms.append(f"Slack ({way})")
    if settings.discord_bot_token or settings.discord_public_key:
        way = (
            f"interactions on :{settings.discord_interactions_port}"
            if settings.discord_public_key
            else "gateway"
        )
        platforms.append(f"Discord ({way})")
    where = ", ".join(d.key for d in destinations) or "archive only"
    local = due.astimezone(settings.tz)
    day = (local - timedelta(days=1)).date().isoformat()
    return (
        f"started: {' + '.join(platforms) or 'no chat platform'}; posting to {where}; "
        f"repo {settings.repo}; store {safe_url(bot.store.url)}; next run "
        f"{local:%Y-%m-%d %H:%M} {settings.timezone} (report day {day}); catch-up of "
        f"{settings.catch_up_days} day{'' if settings.catch_up_days == 1 else 's'}"
    )


def setup_problems(
    settings: Settings, destinations: Sequence[Destination]
) -> list[tuple[str, str]]:
    """What start-up warns of a chat set-up that does less than it seems to, each as (its
    event name, one sentence true of what this process will do and saying what to set).

    No chat token at all is a set-up of its own (archive only: the files and the site), said
    by the started line alone."""
    found: list[tuple[str, str]] = []
    for name, channels, token in (
        ("SLACK", settings.slack_channel_list, settings.slack_bot_token),
        ("DISCORD", settings.discord_channel_list, settings.discord_bot_token),
    ):
        if channels and token is None:
            found.append(
                (
                    f"{name.lower()}-no-token",
                    f"{name}_CHANNELS is set but {name}_BOT_TOKEN is not: nothing is posted to "
                    f"{', '.join(channels)}; set {name}_BOT_TOKEN to post there",
                )
            )
    to_post = _to_post(settings)
    if settings.slack_bot_token and not settings.slack_commands_on:
        told = (
            f"Slack slash commands are off: SLACK_BOT_TOKEN is set but neither {_WAYS_IN}; "
            f"daily posts still go out (to {', '.join(d.key for d in destinations)}) — set "
            "one of them to answer commands"
            if destinations
            else "Slack slash commands are off and no daily post goes out: SLACK_BOT_TOKEN is "
            f"set but neither {_WAYS_IN}, and no daily destination is set — set one of them "
            f"to answer commands, and {to_post} to post"
        )
        found.append(("slack-commands-off", told))
    elif not destinations and (
        settings.slack_commands_on or settings.discord_bot_token or settings.discord_public_key
    ):
        found.append(
            (
                "no-destination",
                "no daily destination is set: slash commands answer, but no daily post goes "
                f"out; set {to_post} to post",
            )
        )
    return found


_WAYS_IN = "SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode)"


def _to_post(settings: Settings) -> str:
    """What to set for daily posts on the platforms whose tokens are there."""
    wanted = []
    if settings.slack_bot_token:
        wanted.append("SLACK_CHANNELS=C0123ABCD (channel IDs, comma-separated)")
    if settings.discord_bot_token:
        wanted.append("DISCORD_CHANNELS=<channel IDs, comma-separated>")
    elif settings.discord_public_key:  # commands over HTTP; posting needs the bot's token
        wanted.append("DISCORD_BOT_TOKEN and DISCORD_CHANNELS")
    return " or ".join(wanted)


async def _start_http(
    settings: Settings, health: RunHealth, metrics: Metrics, clock: Callable[[], datetime]
) -> Any:
    """The site, /healthz and /metrics on VLLM_REPORT_HTTP_PORT, when it is set."""
    if settings.http_port is None:
        return None
    from bot.adapters.web.server import start_web, web_app

    async def healthy() -> tuple[bool, dict[str, Any]]:
        return health.check(clock())

    app = web_app(settings.site_root, healthy, metrics.render)
    try:
        return await start_web(app, settings.http_host, settings.http_port)
    except OSError as exc:
        # Running on without /healthz would leave a health check failing for no told reason
        # (a second `serve` on the same port is the usual cause): stop, and say so.
        raise ServiceError(
            f"cannot listen on {settings.http_host}:{settings.http_port} "
            f"({exc.strerror or exc}): another process holds it — stop it, or choose another "
            "VLLM_REPORT_HTTP_PORT"
        ) from None


def _told_if_failed(task: asyncio.Task[Any]) -> None:
    """A part of `serve` that stopped with an error is told at once, in one line."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None:
        return
    if isinstance(exc, (ServiceError, InputError)):
        problem(log, "task-failed", "%s stopped: %s", task.get_name(), exc)
        return
    log.error(
        "%s stopped: %s: %s (a bug: run with -vv and report what it prints)",
        task.get_name(),
        type(exc).__name__,
        exc,
        exc_info=exc if log.isEnabledFor(logging.DEBUG) else None,
    )
