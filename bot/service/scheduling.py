"""The daily schedule: APScheduler 3.x, one job, in the report's time zone.

`coalesce=True` and `max_instances=1` make missed or overlapping runs one run;
`misfire_grace_time` of hours keeps a late start (a restart, a busy loop) from silently
dropping the day, which the 1-second default does. Missed days beyond that are posted by
the start-up catch-up (bot.service.daily.DailyJob.catch_up). Only this module imports apscheduler.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

JOB_ID = "daily-report"
RETRY_JOB_ID = "retry-failed-run"
MISFIRE_GRACE_SECONDS = 6 * 3600


def post_time(cutoff: time, delay_minutes: int) -> time:
    """When the daily post runs: the cutoff plus a delay, so the window's last events settle."""
    return (datetime.combine(date(2000, 1, 1), cutoff) + timedelta(minutes=delay_minutes)).time()


def next_run(tz: ZoneInfo, cutoff: time, delay_minutes: int, after: datetime) -> datetime:
    """The first daily run at or after `after`, in the report zone (what the cron fires)."""
    at = post_time(cutoff, delay_minutes)
    local = after.astimezone(tz)
    today = datetime.combine(local.date(), at, tzinfo=tz)
    return (
        today
        if today >= local
        else datetime.combine(local.date() + timedelta(days=1), at, tzinfo=tz)
    )


def build_scheduler(
    tz: ZoneInfo,
    cutoff: time,
    delay_minutes: int,
    job: Callable[[], Awaitable[Any]],
    retry: Callable[[], Awaitable[Any]] | None = None,
) -> AsyncIOScheduler:
    """The daily job, and (`retry`) a check each minute whether a failed run is due again
    (the job itself keeps the backoff: a check costs nothing when no retry is due)."""
    scheduler = AsyncIOScheduler(timezone=tz)
    at = post_time(cutoff, delay_minutes)
    scheduler.add_job(
        job,
        CronTrigger(hour=at.hour, minute=at.minute, timezone=tz),
        id=JOB_ID,
        name="daily vLLM report",
        coalesce=True,
        max_instances=1,
        misfire_grace_time=MISFIRE_GRACE_SECONDS,
        replace_existing=True,
    )
    if retry is not None:
        from apscheduler.triggers.interval import IntervalTrigger

        scheduler.add_job(
            retry,
            IntervalTrigger(minutes=1, timezone=tz),
            id=RETRY_JOB_ID,
            name="retry a failed daily run",
            coalesce=True,
            max_instances=1,
            replace_existing=True,
        )
    return scheduler


# -- the weekly review-queue digest (issue 13) -----------------------------------------------

QUEUE_DIGEST_JOB_ID = "queue-digest"


def add_queue_digest(
    scheduler: AsyncIOScheduler,
    tz: ZoneInfo,
    day: str,
    at: time,
    job: Callable[[], Awaitable[Any]],
) -> None:
    """The weekly queue digest on `day` (mon … sun) at `at`, with the daily job's safeguards."""
    scheduler.add_job(
        job,
        CronTrigger(day_of_week=day, hour=at.hour, minute=at.minute, timezone=tz),
        id=QUEUE_DIGEST_JOB_ID,
        name="weekly vLLM review queue",
        coalesce=True,
        max_instances=1,
        misfire_grace_time=MISFIRE_GRACE_SECONDS,
        replace_existing=True,
    )
