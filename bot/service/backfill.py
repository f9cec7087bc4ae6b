"""`vllm-report backfill D1..D2`: the archive filled day by day, oldest first.

Each report day is made as the daily job makes it (`Reports.report`: the window, its trend
baseline, the likeliest hot threads and PR sizes) and written to the archive folder, so the
report site and `show` answer it from the archive afterwards. A day already archived — its
window covered and its report file written — is skipped at no cost, so a backfill stopped
half-way (Ctrl-C, a rate limit, a crash) goes on where it stopped when run again, and one run
over days already archived is idle.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from datetime import time as time_of_day
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from bot.model.errors import InputError
from bot.model.query import ReportQuery
from bot.model.windows import Window, current_day, day_window, parse_window
from bot.service.reports import Reports
from bot.store import Span

if TYPE_CHECKING:
    from bot.observe.github_meter import GitHubMeter

MAX_DAYS = 366


@dataclass(frozen=True)
class DayDone:
    label: str
    skipped: bool  # already archived: nothing asked
    complete: bool
    requests: int
    seconds: float


@dataclass
class BackfillCost:
    days: list[DayDone] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)
    stopped: tuple[str, str] | None = None  # (the day, why) when a day failed

    @property
    def requests(self) -> int:
        return sum(d.requests for d in self.days)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started

    @property
    def fetched(self) -> int:
        return sum(1 for d in self.days if not d.skipped)

    @property
    def skipped(self) -> int:
        return sum(1 for d in self.days if d.skipped)

    @property
    def incomplete(self) -> list[str]:
        return [d.label for d in self.days if not d.complete]


class Backfill:
    def __init__(
        self,
        reports: Reports,
        repo: str,
        lang: str,
        tz: ZoneInfo,
        cutoff: time_of_day,
        clock: Callable[[], datetime],
        meter: GitHubMeter | None = None,
    ) -> None:
        self.reports = reports
        self.repo = repo
        self.lang = lang
        self.tz = tz
        self.cutoff = cutoff
        self.clock = clock
        self.meter = meter

    def windows(self, phrase: str) -> list[Window]:
        """The complete report days `phrase` names, oldest first (the day in progress is left
        for the daily job)."""
        now = self.clock()
        span = parse_window(phrase, now=now, tz=self.tz, cutoff=self.cutoff, max_days=MAX_DAYS)
        first = span.start.astimezone(self.tz).date()
        last = min(
            (span.end.astimezone(self.tz) - timedelta(days=1)).date(),
            current_day(now, self.tz, self.cutoff) - timedelta(days=1),
        )
        days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
        if not days:
            raise InputError(
                f"'{phrase}' holds no finished report day yet: backfill days before today"
            )
        return [day_window(day, self.tz, self.cutoff) for day in days]

    def archived(self, window: Window) -> bool:
        """Covered in the store and its report written: nothing left to do."""
        covered = self.reports.archiver.covers(self.repo, [Span(window.start, window.end)])[0]
        return covered and self.reports.files.exists(self.repo, window, self.lang)

    def fill(self, window: Window) -> DayDone:
        """One report day archived (or found archived)."""
        began = time.perf_counter()
        if self.archived(window):
            return DayDone(window.label, True, True, 0, time.perf_counter() - began)
        before = self.meter.requests if self.meter is not None else 0
        report = self.reports.report(ReportQuery(self.repo, window, self.lang))
        self.reports.write(report, self.lang)
        asked = (self.meter.requests - before) if self.meter is not None else 0
        return DayDone(window.label, False, report.complete, asked, time.perf_counter() - began)

    def rate_left(self) -> int | None:
        return self.meter.remaining() if self.meter is not None else None
