"""The composition root's parts: settings → store, rules, archiver, prose, reports, the
features' shared services; the daily run and its schedule; transports; commands; doctor's
checks (bot.app.serve runs them).

The shared services are built and wired here, once per `open_bot`, and handed down: the
CLI, the daily run and the slash commands share one `Reports` (so a configured model writes
prose for all three) and the services features share (`Bot.shared`: the review queue's).
The features' other services are built anew by each hook that needs one (the radar's and
Red on main's). What the features add is found by walking their declarations
(bot.app.features); no feature is named here. The platforms are, one by one:
`transports()` opens Slack's and Discord's, `daily_job` lists their channels, `doctor` runs
their checks. Not every pipeline is built here: `vllm-report demo` builds its own
(bot/service/demo.py, without the features' parts).

Heavy SDKs are imported only where they are needed: Slack and Discord when configured,
PyGithub when the archive lacks something, the model client when a model is set.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from bot.app import features
from bot.collect.source import GitHubSource, Stopped
from bot.collect.sync import Archiver
from bot.delivery import Deliverer, Destination, Transport
from bot.features import Shared, section_words
from bot.model.rules import TopicRules
from bot.model.windows import Release, ReleaseLookup, Window
from bot.observe.logs import hush
from bot.report_files import ReportFiles
from bot.service.reports import Reports
from bot.store import Store
from config.settings import Settings

if TYPE_CHECKING:
    from bot.commands import Commands
    from bot.features import FeatureContext
    from bot.model.report import Report
    from bot.observe.metrics import Metrics
    from bot.prose import ProseWriter
    from bot.service.daily import DailyJob
    from bot.service.daily_run import PostResult
    from bot.service.doctor import Check
    from bot.service.run_observer import JobObserver
    from bot.service.site import SiteBuilder

log = logging.getLogger("bot.app")  # one name for the composition root in the log

P = ParamSpec("P")
T = TypeVar("T")
STOP_WAIT = 10.0  # seconds `serve` gives its own tasks to end once stopped


def now() -> datetime:
    return datetime.now(UTC)


def releases(settings: Settings) -> ReleaseLookup:
    """When the watched repository's releases came out, for a window from one asked for
    before the bot is opened (the command line's `since v0.33.0`): the store opened for
    the one lookup, GitHub asked only for what it does not hold."""

    def lookup(tag: str | None) -> Release:
        store = Store(settings.store_url())
        try:
            archiver = Archiver(store, github_source(settings))
            return archiver.release(settings.repo, tag, datetime.now(UTC))
        finally:
            store.close()

    return lookup


def github_source(settings: Settings, stop: threading.Event | None = None) -> GitHubSource:
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
        stop=stop,
    )


def prose_writer(
    settings: Settings, store: Store, rules: TopicRules, stop: threading.Event | None = None
) -> ProseWriter | None:
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
        token_budget=settings.llm_token_budget,
    )
    return ProseWriter(config, cache=store.prose, vendor_names=rules.vendor_names(), stop=stop)


@dataclass
class Bot:
    """The parts the commands that read or post reports, `serve` and the slash commands
    share, opened once (`doctor`, `backup`, `topics` and `demo` open none)."""

    settings: Settings
    rules: TopicRules
    store: Store
    reports: Reports
    # The services features share across the bot, by feature name (the review queue's).
    shared: Shared = field(default_factory=Shared)
    # Set when the process stops: no GitHub or model request is started any more.
    stopping: threading.Event = field(default_factory=threading.Event)

    def context(self) -> FeatureContext:
        """What a feature's hooks build on, over this bot's archive and store."""
        reports = self.reports
        return features.context(
            self.settings,
            self.rules,
            reports.archiver,
            self.store,
            reports.clock,
            self.shared,
            reports,
        )

    def close(self) -> None:
        if self.reports.prose is not None:
            self.reports.prose.close()
        self.store.close()


def open_bot(
    settings: Settings, rules: TopicRules, clock: Callable[[], datetime] | None = None
) -> Bot:
    clock = clock or (lambda: now())  # read when called: the module's clock, as tests set it
    stopping = threading.Event()
    store = Store(settings.store_url())
    archiver = Archiver(store, github_source(settings, stopping))
    ctx = features.context(settings, rules, archiver, store, clock)
    reports = Reports(
        archiver,
        rules,
        ReportFiles(settings.report_files_dir, settings.site_url, settings.repo),
        clock,
        prose=prose_writer(settings, store, rules, stopping),
        parts=features.report_parts(ctx),
    )
    return Bot(settings, rules, store, reports, ctx.shared, stopping)


class Workers(concurrent.futures.ThreadPoolExecutor):
    """The event loop's executor for the blocking steps (`asyncio.to_thread`: GitHub, the
    model, the store), each in a daemon thread of its own, so a stopping process need not
    wait for them: asyncio.run joins its executor's threads at the end, and a report being
    collected went on to its last request (the ~20 s a Ctrl-C on `post` took).

    `abandon()` (the process stops): the steps running now are left to end with the process
    — their results are dropped (the tasks awaiting them wait to be cancelled, so nothing
    goes on from them) and their log lines are not told. Steps started later (handing the
    lease back) run as before."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)  # the pool itself is never used
        self._live: dict[threading.Thread, bool] = {}  # thread → abandoned
        self._lock = threading.Lock()
        self._count = itertools.count(1)

    def submit(
        self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
    ) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                if not future.set_running_or_notify_cancel():
                    return
                try:
                    result = fn(*args, **kwargs)
                except Stopped:
                    return  # the process stops: whatever awaits this is being cancelled
                except BaseException as exc:
                    if not self._abandoned():
                        future.set_exception(exc)
                else:
                    if not self._abandoned():
                        future.set_result(result)
            finally:
                with self._lock:
                    self._live.pop(threading.current_thread(), None)

        thread = threading.Thread(target=run, name=f"step-{next(self._count)}", daemon=True)
        with self._lock:
            self._live[thread] = False
        thread.start()
        return future

    def _abandoned(self) -> bool:
        with self._lock:
            return self._live.get(threading.current_thread(), False)

    def abandon(self) -> None:
        with self._lock:
            left = list(self._live)
            for thread in left:
                self._live[thread] = True
        hush(left)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=False, cancel_futures=cancel_futures)  # nothing is waited for


def start_workers(bot: Bot) -> Workers:
    """This loop's executor, and a fresh start for a bot used again (tests run several)."""
    workers = Workers()
    asyncio.get_running_loop().set_default_executor(workers)
    bot.stopping.clear()
    return workers


def stop_workers(bot: Bot, workers: Workers) -> None:
    """The process stops: no new request to GitHub or the model; the steps running now are
    left to end with it, untold."""
    bot.stopping.set()
    workers.abandon()


def daily_job(
    bot: Bot, opened: dict[str, Transport], observer: JobObserver | None = None
) -> DailyJob:
    """The daily run (report → files → site → channels → digests) and its schedule, wired."""
    from bot.service.daily import DailyJob
    from bot.service.daily_run import DailyRun

    settings, clock = bot.settings, bot.reports.clock
    deliverer = Deliverer(
        bot.store.ledger, opened, clock, lease=timedelta(seconds=settings.delivery_lease_seconds)
    )

    def destinations() -> list[Destination]:
        found = [Destination("slack", c) for c in settings.slack_channel_list]
        found += [Destination("discord", c) for c in settings.discord_channel_list]
        return [d for d in found if d.platform in opened]

    personal, each_feature = features.digests(bot.context())
    run = DailyRun(
        bot.reports,
        site_builder(bot),
        settings.site_root,
        deliverer,
        destinations,
        bot.store.subscriptions.list,
        settings.repo,
        settings.lang,
        observer,
        personal,
        each_feature,
        features.buttons(bot.context()),
    )
    return DailyJob(settings, run, bot.store.ledger, bot.reports.files, clock, observer)


def site_builder(bot: Bot) -> SiteBuilder:
    """The report site over the bot's archive, with what the features add to it."""
    from bot.service.site import SiteBuilder

    settings = bot.settings
    return SiteBuilder(
        bot.reports,
        settings.repo,
        settings.tz,
        settings.cutoff_time,
        settings.site_url,
        pages=features.site_pages(),
    )


def commands(bot: Bot, metrics: Metrics | None = None) -> Commands:
    """The slash commands, every one timed and logged (and measured, given `metrics`)."""
    from bot.commands import Commands, Services

    by_type, logins, checks, lines = features.command_services(bot.context())
    services = Services(
        bot.settings,
        bot.rules,
        bot.reports,
        bot.store.subscriptions,
        bot.reports.clock,
        features=by_type,
        logins=logins,
        topic_checks=checks,
        topic_lines=lines,
        section_words=section_words(),
    )
    return Commands(services, metrics, features.table(), features.presses(bot.context()))


@contextlib.asynccontextmanager
async def transports(settings: Settings) -> AsyncIterator[dict[str, Transport]]:
    """The configured platforms' transports, closed on exit.

    Nothing here touches the network: each transport connects on its first send, so one
    platform being down fails that platform's destinations alone (the others carry on).
    """
    opened: dict[str, Transport] = {}
    closers = []
    if settings.slack_bot_token:
        from bot.platforms.slack.transport import SlackTransport, slack_client

        client = slack_client(settings.slack_bot_token.get_secret_value(), settings.slack_api_url)
        opened["slack"] = SlackTransport(client, pace=settings.slack_post_interval)
    if settings.discord_bot_token:
        from bot.platforms.discord.transport import DiscordTransport

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


async def post_once(
    bot: Bot,
    window: Window,
    refresh: bool = False,
    check: Callable[[Report], None] | None = None,
) -> PostResult:
    """`vllm-report post`: one daily run of `window` — the files and the site always, every
    configured destination and subscriber through the ledger. Interrupted (Ctrl-C cancels
    it), it stops at once: the step running is left to end with the process; what was
    recorded complete is complete, and a rerun goes on from there."""
    workers = start_workers(bot)
    try:
        async with transports(bot.settings) as opened:
            return await daily_job(bot, opened).post(window, refresh, check)
    except asyncio.CancelledError:
        stop_workers(bot, workers)
        raise


async def doctor(settings: Settings, problems: list[tuple[str, str]]) -> list[Check]:
    """Every check of `vllm-report doctor`, in the order a person fixes things."""
    from bot.adapters.chat_checks import discord_checks, slack_checks
    from bot.service import doctor as checks

    found = checks.settings_checks(settings, problems)
    found.append(checks.topics_check(settings))
    found.append(await asyncio.to_thread(checks.github_check, settings))
    for feature_check in features.doctor_checks():  # each feature's line (its source's)
        found.append(await asyncio.to_thread(feature_check, settings))
    store = await asyncio.to_thread(checks.store_check, settings)
    chats = await slack_checks(settings) + await discord_checks(settings)
    found += [store, *chats]
    if store.ok:  # destinations the daily post disabled as gone, looked at again
        found += await asyncio.to_thread(checks.disabled_checks, settings, chats)
    model = await asyncio.to_thread(checks.model_check, settings)
    if model is not None:
        found.append(model)
    return found
