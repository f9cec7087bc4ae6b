"""Is the daily job healthy? What `/healthz` answers.

Healthy (200) when the last daily run — scheduled, or a catch-up at start-up — succeeded, or
when no run has been due yet since this process started; also on a replica that does not
lead (the leader runs the job). Failing (503) with the reason when the last run failed (GitHub
unreachable, the store down, a destination refusing the post, an incomplete report), or when
a run was due more than `grace` ago and none has finished. The reason is public (`/healthz`
needs no login): it is masked (bot.model.errors) so that no secret is ever in it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.model.errors import masked

GRACE = timedelta(hours=1)  # a daily run (collect, report, post) finishes well within this


@dataclass(frozen=True)
class RunOutcome:
    window: str
    ok: bool
    reason: str | None
    at: datetime


class RunHealth:
    def __init__(
        self,
        started: datetime,
        first_due: Callable[[], datetime | None],
        leading: Callable[[], bool] = lambda: True,
        grace: timedelta = GRACE,
    ) -> None:
        self.started = started
        self.first_due = first_due  # the first run this process was due to make
        self.leading = leading
        self.grace = grace
        self.last: RunOutcome | None = None

    def record(self, window: str, ok: bool, reason: str | None, at: datetime) -> None:
        self.last = RunOutcome(window, ok, masked(reason) if reason else reason, at)

    def check(self, now: datetime) -> tuple[bool, dict[str, Any]]:
        """(healthy, facts to show): the facts name the run and, when failing, why."""
        last = self.last
        if last is not None:
            facts: dict[str, Any] = {
                "last_run": last.window,
                "last_run_at": last.at.isoformat(timespec="seconds"),
            }
            if not last.ok:
                return False, {**facts, "reason": last.reason or "the last daily run failed"}
            return True, facts
        if not self.leading():
            return True, {"role": "follower: the leading replica runs the daily job"}
        due = self.first_due()
        if due is None or now < due + self.grace:
            return True, {"next_run": due.isoformat(timespec="seconds") if due else None}
        return False, {
            "reason": f"the daily run due at {due.isoformat(timespec='minutes')} has not "
            "finished; see the log for what it is waiting on"
        }
