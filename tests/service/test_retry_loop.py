"""The failed-day retry loop (bot.service.daily.DailyJob): what a run that failed schedules,
how long the bot waits, and when a day counts as posted. The daily run itself is replaced
by a stand-in that returns what a real one would (its own tests are test_daily_run.py and
tests/delivery/): these tests are about the loop around it, so each answer is chosen.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.delivery import COMPLETE_PART, DeliveryResult, Destination
from bot.model.errors import ServiceError
from bot.model.windows import Window, WindowKey
from bot.observe.logs import setup_logging
from bot.service.daily import RETRY_FIRST, RETRY_MAX, DailyJob
from bot.service.daily_run import PostResult
from bot.service.health import RunHealth
from bot.service.run_observer import JobObserver
from config.settings import Settings

NOW = datetime(2026, 3, 26, 5, 0, tzinfo=UTC)  # 13:00 in Shanghai: 03-25's window is due
SLACK, DISCORD = Destination("slack", "C1"), Destination("discord", "1")


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


class Ledger:
    """The parts each (window, destination) has, as the delivery ledger would answer."""

    def __init__(self) -> None:
        self.done: set[tuple[str, str]] = set()

    def parts(self, repo: str, window: WindowKey, destination: str) -> set[str]:
        return {COMPLETE_PART} if (str(window), destination) in self.done else set()


class Files:
    """The report files: which (repo, window label, language) exist."""

    def __init__(self) -> None:
        self.written: set[tuple[str, str, str]] = set()

    def exists(self, repo: str, window: Window, lang: str) -> bool:
        return (repo, window.label, lang) in self.written


class Run:
    """The daily run's stand-in: each call takes the next outcome (a result or a failure);
    a delivered result is noted in the ledger for the destinations it reached."""

    def __init__(
        self, ledger: Ledger, destinations: Sequence[Destination], outcomes: list[Any]
    ) -> None:
        self.ledger, self._destinations, self.outcomes = ledger, destinations, outcomes
        self.asked: list[str] = []

    def destinations(self) -> Sequence[Destination]:
        return self._destinations

    async def __call__(self, window: Window, *args: Any) -> PostResult:
        self.asked.append(window.label)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        reached: Callable[[Destination], bool] = outcome
        failed = {d.key: "not_in_channel" for d in self._destinations if not reached(d)}
        for d in self._destinations:
            if reached(d):
                self.ledger.done.add((str(WindowKey.of(window)), d.key))
        return PostResult(window.label, True, DeliveryResult(failed=failed))


EVERYWHERE: Callable[[Destination], bool] = lambda d: True  # noqa: E731
SLACK_ONLY: Callable[[Destination], bool] = lambda d: d.platform == "slack"  # noqa: E731
DOWN = ServiceError("GitHub answered 502")


def job(
    outcomes: list[Any],
    destinations: Sequence[Destination] = (SLACK, DISCORD),
    observer: JobObserver | None = None,
) -> tuple[DailyJob, Run, Clock]:
    ledger, clock = Ledger(), Clock()
    run = Run(ledger, destinations, outcomes)
    settings = Settings(catch_up_days=1)
    daily = DailyJob(settings, run, ledger, Files(), clock, observer)  # type: ignore[arg-type]
    return daily, run, clock


class Told:
    """What the loop tells: /healthz's last outcome, and its JSON log lines."""

    def __init__(self) -> None:
        self.health = RunHealth(NOW, lambda: None)
        self.observer = JobObserver(health=self.health)
        self.stream = io.StringIO()

    def __enter__(self) -> Told:
        self.handler = setup_logging(0, "json", floor=logging.INFO, stream=self.stream)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self.handler)

    def lines(self) -> list[tuple[str, str]]:
        found = [json.loads(line) for line in self.stream.getvalue().splitlines()]
        return [(line["event"], line["message"]) for line in found if "event" in line]

    def reason(self) -> str | None:
        last = self.health.last
        assert last is not None and last.window == "2026-03-25"
        return last.reason


def test_a_run_whose_post_failed_somewhere_is_retried_until_every_destination_has_it() -> None:
    daily, run, clock = job([SLACK_ONLY, EVERYWHERE])
    asyncio.run(daily.run())
    assert daily.retry_at == NOW + RETRY_FIRST  # Discord refused: the day is not done
    clock.now = daily.retry_at
    asyncio.run(daily.retry())
    assert run.asked == ["2026-03-25", "2026-03-25"] and daily.retry_at is None


def test_a_day_one_destination_has_is_still_caught_up_for_the_other() -> None:
    daily, run, _ = job([EVERYWHERE])
    window = daily.last_complete_window(NOW)
    run.ledger.done.add((str(WindowKey.of(window)), SLACK.key))
    assert not daily.delivered(window)
    asyncio.run(daily.catch_up())
    assert run.asked == ["2026-03-25"] and daily.delivered(window)


def test_the_wait_doubles_after_each_failed_try_up_to_two_hours() -> None:
    daily, _, clock = job([DOWN] * 8)
    asyncio.run(daily.run())
    waits = [daily.retry_at - clock.now]  # type: ignore[operator]
    for _ in range(7):
        clock.now = daily.retry_at  # type: ignore[assignment]
        asyncio.run(daily.retry())
        waits.append(daily.retry_at - clock.now)  # type: ignore[operator]
    assert [w // timedelta(minutes=1) for w in waits] == [5, 10, 20, 40, 80, 120, 120, 120]
    assert max(waits) == RETRY_MAX


def test_a_success_resets_the_wait_for_the_next_failure() -> None:
    daily, _, clock = job([DOWN, DOWN, EVERYWHERE, DOWN])
    asyncio.run(daily.run())
    clock.now = daily.retry_at  # type: ignore[assignment]
    asyncio.run(daily.retry())  # fails again: 10 minutes
    clock.now = daily.retry_at  # type: ignore[assignment]
    asyncio.run(daily.retry())  # posted
    assert daily.retry_at is None
    clock.now += timedelta(days=1)  # the next day's run fails: 5 minutes again, not 20
    asyncio.run(daily.run())
    assert daily.retry_at == clock.now + RETRY_FIRST


def test_no_retry_is_due_before_its_time_and_none_after_success() -> None:
    daily, run, clock = job([DOWN, EVERYWHERE])
    asyncio.run(daily.run())
    clock.now = daily.retry_at - timedelta(seconds=1)  # type: ignore[operator]
    assert asyncio.run(daily.retry()) == [] and run.asked == ["2026-03-25"]
    clock.now += timedelta(seconds=1)
    assert len(asyncio.run(daily.retry())) == 1
    assert daily.retry_at is None and not daily.retry_due()


@pytest.mark.parametrize("days", [1, 3])
def test_the_catch_up_posts_oldest_first_and_stops_at_the_first_failure(days: int) -> None:
    daily, run, _ = job([EVERYWHERE, DOWN, EVERYWHERE])
    daily.settings = Settings(catch_up_days=days)
    results = asyncio.run(daily.catch_up())
    expected = ["2026-03-23", "2026-03-24"] if days == 3 else ["2026-03-25"]
    assert run.asked == expected
    assert [r.complete and not r.delivery.failed for r in results] == [True, False][: len(expected)]
    assert daily.retry_at is not None if days == 3 else daily.retry_at is None


def test_a_failed_run_is_told_in_the_log_and_on_healthz_and_so_is_its_retry() -> None:
    with Told() as told:
        daily, _, clock = job([DOWN, EVERYWHERE], observer=told.observer)
        asyncio.run(daily.run())
        assert told.reason() == "GitHub answered 502" and told.health.last.at == NOW  # type: ignore[union-attr]
        clock.now = daily.retry_at  # type: ignore[assignment]
        asyncio.run(daily.retry())
    assert told.lines() == [
        ("run-failed", "the 2026-03-25 run failed: GitHub answered 502"),
        ("retry-scheduled", "the next try in 5 minutes (2026-03-26T05:05+00:00)"),
        ("retry", "retrying the failed run (attempt 1)"),
        ("catch-up", "catching up on 2026-03-25 (missed while down)"),
    ]
    assert told.health.last is not None and told.health.last.ok
    assert told.health.last.reason is None and told.health.last.at == clock.now


async def incomplete(window: Window, *args: Any) -> PostResult:
    return PostResult(window.label, False)


@pytest.mark.parametrize(
    ("outcome", "reason"),
    [
        (SLACK_ONLY, "2026-03-25 was not posted everywhere (discord:1: not_in_channel)"),
        (
            OSError(28, "No space left on device", "/data/archive"),
            "cannot write /data/archive (No space left on device): make the folder writable "
            "by this user or set VLLM_REPORT_DATA_DIR to one that is",
        ),
        (
            RuntimeError("boom"),
            "unexpected RuntimeError: boom (a bug: run `vllm-report -vv post 2026-03-25` and "
            "report what it prints)",
        ),
    ],
    ids=["refused", "disk-full", "bug"],
)
def test_why_a_run_failed_is_one_sentence_on_healthz(outcome: Any, reason: str) -> None:
    with Told() as told:
        daily, _, _ = job([outcome], observer=told.observer)
        result = asyncio.run(daily.run())
    assert told.reason() == reason and result.window == "2026-03-25"
    assert daily.retry_at == NOW + RETRY_FIRST


def test_an_incomplete_report_is_retried_and_said_so() -> None:
    with Told() as told:
        daily, _, _ = job([], observer=told.observer)
        daily.daily_run = incomplete  # type: ignore[assignment]
        asyncio.run(daily.run())
    assert told.reason() == (
        "the 2026-03-25 report is incomplete (GitHub did not give everything): archived as "
        "partial, not posted; the next run tries again"
    )
    assert daily.retry_at == NOW + RETRY_FIRST


def test_the_catch_up_posts_a_day_once_it_is_due_and_not_before() -> None:
    daily, run, clock = job([EVERYWHERE])
    window = daily.last_complete_window(NOW)
    due = window.end + timedelta(minutes=daily.settings.post_delay_minutes)
    clock.now = due - timedelta(seconds=1)  # 03-25's window ended, but GitHub may lag
    daily.last_complete_window = lambda now: window  # type: ignore[method-assign]
    assert asyncio.run(daily.catch_up()) == [] and run.asked == []
    clock.now = due
    asyncio.run(daily.catch_up())
    assert run.asked == ["2026-03-25"]
    assert asyncio.run(daily.catch_up()) == []  # posted: not again


def test_without_chat_a_day_is_done_when_its_report_file_exists() -> None:
    daily, _, _ = job([EVERYWHERE], destinations=())
    window = daily.last_complete_window(NOW)
    files = daily.files
    assert not daily.delivered(window)
    files.written.add(("vllm-project/vllm", "2026-03-25", "en"))  # type: ignore[attr-defined]
    assert daily.delivered(window)
    files.written = {("vllm-project/vllm", "2026-03-25", "zh")}  # type: ignore[attr-defined]
    assert not daily.delivered(window)  # the language the bot posts in


def test_post_is_the_daily_run_with_what_it_was_asked() -> None:
    seen: list[tuple[str, bool, object]] = []

    async def daily_run(window: Window, refresh: bool = False, check: object = None) -> PostResult:
        seen.append((window.label, refresh, check))
        return PostResult(window.label, True)

    daily, _, _ = job([])
    daily.daily_run = daily_run  # type: ignore[assignment]
    window = daily.last_complete_window(NOW)
    result = asyncio.run(daily.post(window, True, print))
    assert seen == [("2026-03-25", True, print)] and result.window == "2026-03-25"
