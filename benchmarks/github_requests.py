"""GitHub requests and wall time for one report window: cold, warm, and the naive way.

Runs against the project's fake GitHub (tests/fakes/github_api.py) serving the three real
anchor days plus older repository history, with a per-request latency injected on the
server side (default 100 ms), and prints one table:

    python benchmarks/github_requests.py [--latency 0.1] [--history 30000]

- cold: an empty archive, one past day (search API, this project's collector);
- warm: the same day again (the archive answers);
- naive: list pulls and issues by `updated` until the window is passed and read `.merged`
  on every PR (PyGithub completes each one with a request);
- cold 7-day range, for scale;
- full report, cold and warm: the day plus its 7-day trend baseline and the comment threads
  of the hot-discussion candidates; cold again with a token (the key-change shortlist's
  size and reviewers in one GraphQL request instead of two REST requests per PR).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from github import Github

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.model.report import ListName
from bot.model.rules import load_rules
from bot.model.windows import Window, span_window
from bot.report_files import ReportFiles
from bot.service.reports import ReportQuery, Reports
from bot.store import Store
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub

NOW = datetime(2026, 11, 30, tzinfo=UTC)


def ours(
    fake: FakeGitHub, store: Store, window: Window, full: bool = False, token: str | None = None
) -> tuple[int, float, dict[str, int]]:
    source = GitHubSource(repo=REPO, api_url=fake.url, request_interval=0, token=token)
    files = ReportFiles(Path(tempfile.gettempdir()))
    pipeline = Reports(Archiver(store, source), load_rules(), files, lambda: NOW)
    fake.reset_log()
    began = time.perf_counter()
    report = pipeline.report(ReportQuery(REPO, window, counts_only=not full))
    elapsed = time.perf_counter() - began
    return len(fake.requests), elapsed, {k.value: v for k, v in report.stats.items()}


def naive(fake: FakeGitHub, window: Window) -> tuple[int, float, dict[str, int]]:
    """What a first attempt does: walk listings newest-first and ask each PR if it merged."""
    gh = Github(base_url=fake.url, per_page=100, seconds_between_requests=0)
    repo = gh.get_repo(REPO)
    start, end = window.start, window.end
    stats = dict.fromkeys((n.value for n in ListName), 0)
    fake.reset_log()
    began = time.perf_counter()
    for pr in repo.get_pulls(state="all", sort="updated", direction="desc"):
        if pr.updated_at < start:
            break
        if start <= pr.created_at < end:
            stats["new_prs"] += 1
        if pr.closed_at and start <= pr.closed_at < end:
            stats["merged_prs" if pr.merged else "closed_unmerged_prs"] += 1
    for issue in repo.get_issues(state="all", sort="updated", direction="desc"):
        if issue.updated_at < start:
            break
        if "/pull/" in issue.html_url:
            continue
        if start <= issue.created_at < end:
            stats["new_issues"] += 1
        if issue.closed_at and start <= issue.closed_at < end:
            stats["closed_issues"] += 1
    elapsed = time.perf_counter() - began
    gh.close()
    return len(fake.requests), elapsed, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per request")
    parser.add_argument("--history", type=int, default=30000, help="older items in the repo")
    args = parser.parse_args()

    days = anchor_days()
    day = days[1]  # 2026-03-24, the middle anchor day
    tz = ZoneInfo("Asia/Shanghai")
    window = Window(day.start.astimezone(tz), day.end.astimezone(tz), tz.key, day.label)
    week = span_window(date(2026, 3, 19), date(2026, 3, 25), tz, day.start.astimezone(tz).time())
    items = anchor_items() + background_items(args.history, before=min(d.start for d in days))
    rows = []
    with FakeGitHub(REPO, items, latency=args.latency) as fake, tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{d}/bench.sqlite3")
        rows.append(("cold, 1 day (search)", *ours(fake, store, window)))
        rows.append(("warm, 1 day (archive)", *ours(fake, store, window)))
        rows.append(("naive, 1 day (pulls + .merged)", *naive(fake, window)))
        fresh = Store(f"sqlite:///{d}/bench-week.sqlite3")
        rows.append(("cold, 7 days (search)", *ours(fake, fresh, week)))
        full = Store(f"sqlite:///{d}/bench-full.sqlite3")
        rows.append(("full report, 1 day, cold", *ours(fake, full, window, full=True)))
        rows.append(("full report, 1 day, warm", *ours(fake, full, window, full=True)))
        # With a token the key-change shortlist's size and reviewers are one GraphQL request.
        tokened = Store(f"sqlite:///{d}/bench-token.sqlite3")
        rows.append(
            ("full report, 1 day, cold, token", *ours(fake, tokened, window, True, "t0ken"))
        )
        for opened in (store, fresh, full, tokened):
            opened.close()

    print(
        f"fake GitHub: {len(items)} items, {args.latency * 1000:.0f} ms per request; "
        f"day {day.label} (reference counts {day.counts})"
    )
    print(f"{'approach':32} {'requests':>8} {'wall s':>8}  counts")
    for name, requests, seconds, stats in rows:
        counts = "/".join(str(stats[n.value]) for n in ListName)
        print(f"{name:32} {requests:>8} {seconds:>8.2f}  {counts}")


if __name__ == "__main__":
    main()
