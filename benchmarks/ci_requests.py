"""What Red on main costs: a month of daily runs against the fake CI dashboard (the
recorded month, tests/data/ci/), then the same 30 days shown again from the archive.

    python benchmarks/ci_requests.py [--days 30]

Each daily run reads the dashboard as it stood 15 minutes after the day's cutoff, into a
new SQLite store, and asks the evidence it lacks: each failing job's runs (the dashboard,
again only when the failure has newer failing runs), the blame ranges (GitHub's compare of
main's history on the fake: the three real fixture days and older history), CODEOWNERS, the
`ci-failure` searches, and the suspects' titles (GraphQL). One row per scenario: the
dashboard requests (total and the most in one day), the suspects' GraphQL requests, the
other GitHub requests, and the wall time.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time as timer
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import open_bot
from bot.features.ci.service import ci_service
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window
from config.settings import load_settings
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.ci_dashboard import FakeCiDashboard, serve_main
from tests.fakes.github_api import FakeGitHub

TZ = ZoneInfo("Asia/Shanghai")
FIRST = date(2026, 3, 1)
CUTOFF = time(11, 45)


def windows(days: int) -> list[Window]:
    return [day_window(FIRST + timedelta(days=n), TZ, CUTOFF) for n in range(days)]


class Counts:
    def __init__(self, dashboard: FakeCiDashboard, github: FakeGitHub) -> None:
        self.dashboard, self.github = dashboard, github
        self.rows: list[tuple[str, int, int, int, int, int, float]] = []

    def _now(self) -> tuple[int, int, int]:
        suspects = sum(1 for r in self.github.requests if r.graphql and "Suspects" in r.graphql)
        return len(self.dashboard.requests), suspects, len(self.github.requests) - suspects

    def run(self, name: str, days: list[Window], one: Callable[[Window], object]) -> None:
        total = [0, 0, 0]
        most_dashboard = most_graphql = 0
        started = timer.perf_counter()
        for window in days:
            before = self._now()
            one(window)
            after = self._now()
            used = [a - b for a, b in zip(after, before, strict=True)]
            total = [t + u for t, u in zip(total, used, strict=True)]
            most_dashboard = max(most_dashboard, used[0])
            most_graphql = max(most_graphql, used[1])
        seconds = timer.perf_counter() - started
        self.rows.append(
            (name, total[0], most_dashboard, total[1], most_graphql, total[2], seconds)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    days = windows(parser.parse_args().days)
    first = min(day.start for day in anchor_days())
    items = anchor_items() + background_items(1500, before=first)
    with (
        tempfile.TemporaryDirectory() as tmp,
        FakeGitHub(REPO, items) as github,
        FakeCiDashboard() as dashboard,
    ):
        serve_main(github)
        os.environ.update(
            GITHUB_API_URL=github.url,
            GITHUB_TOKEN="ghp-benchmark",  # noqa: S106 (the fake GitHub takes any)
            VLLM_REPORT_CI_URL=dashboard.url,
            VLLM_REPORT_DATA_DIR=tmp,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
        )
        clock = [datetime(2026, 3, 1, tzinfo=UTC)]
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: clock[0])
        service = ci_service(bot.context())
        assert service is not None, "VLLM_REPORT_CI_URL is set above"
        counts = Counts(dashboard, github)

        def daily(window: Window) -> object:
            clock[0] = dashboard.now = window.end + timedelta(minutes=15)
            return service.state(window, ask=True)

        def shown(window: Window) -> object:
            return service.state(window, ask=False)

        try:
            counts.run("daily runs (cold store)", days, daily)
            clock[0] = days[-1].end + timedelta(days=2)
            counts.run("every day shown again", days, shown)
        finally:
            bot.close()
    print(f"{len(days)} report days from {FIRST}; the recorded month of CI failures")
    head = ("scenario", "dashboard", "most/day", "GraphQL", "most/day", "other GitHub", "seconds")
    print("{:<26}{:>10}{:>10}{:>9}{:>10}{:>14}{:>9}".format(*head))
    for row in counts.rows:
        print("{:<26}{:>10}{:>10}{:>9}{:>10}{:>14}{:>9.2f}".format(*row))
    reads = sum(1 for r in dashboard.requests if r.startswith("/api/alerts/"))
    print(f"of the dashboard requests: {reads} reads of the failures, the rest a job's runs")
    cold, warm = counts.rows[0][-1], counts.rows[1][-1]
    print(f"archive-only / daily-run time: {warm / cold:.2f}")


if __name__ == "__main__":
    main()
