"""What personal digests cost GitHub beyond the daily report, for 1 to 100 subscribers.

Runs against the project's fake GitHub serving the real anchor days (with files and review
requests set on the day's PRs, which the fixtures do not record) and prints one table:

    python benchmarks/personal_requests.py [--latency 0.05] [--subscribers 100]

- the daily report of 2026-03-25 (full, cold, with a token): the baseline;
- then the digests of 1 label subscriber, of N subscribers (a quarter each label:, author:,
  path:, mine, every `mine` one with its own linked login), and of the same N on a second
  run: GitHub requests each adds, and the wall time against the report's in the same run.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.features import declared
from bot.features.personal.service import PersonalDigests
from bot.features.personal.store import GitHubLinks
from bot.model.rules import load_rules
from bot.model.windows import Window
from bot.report_files import ReportFiles
from bot.service.reports import ReportQuery, Reports
from bot.store import Store, Subscription
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub

declared()  # the features' subscription kinds, as every process learns them first
NOW = datetime(2026, 11, 30, tzinfo=UTC)
FAKE_TOKEN = "t0ken"  # the fake GitHub answers GraphQL to any token
PATHS = ("vllm/v1/attention/*", "vllm/model_executor/layers/fused_moe", "csrc/rocm/*", "docs/**")
FILES = (
    "vllm/v1/attention/backends/rocm_aiter.py",
    "vllm/model_executor/layers/fused_moe/layer.py",
    "csrc/rocm/attention.cu",
    "docs/usage/faq.md",
    "tests/test_config.py",
)


def subscribers(count: int, day_items: list, links: dict) -> list[Subscription]:
    """`count` DM subscriptions, a quarter of each kind, drawn from the day's own labels and
    authors (so that most digests have something to send)."""
    rng = random.Random(7)
    labels = sorted({label for it in day_items for label in it.labels})
    authors = sorted({it.author for it in day_items if it.author})
    subs = []
    for index in range(count):
        user = f"U{index:03d}"
        kind = ("label", "author", "path", "mine")[index % 4]
        if kind == "label":
            topic = f"label:{rng.choice(labels).lower()}"
        elif kind == "author":
            topic = f"author:{rng.choice(authors).lower()}"
        elif kind == "path":
            topic = f"path:{rng.choice(PATHS)}"
        else:
            topic = "mine"
            links[user] = rng.choice(authors)
        subs.append(Subscription("slack", "dm", user, topic, user))
    return subs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per request")
    parser.add_argument("--subscribers", type=int, default=100)
    parser.add_argument("--history", type=int, default=3000, help="older items in the repo")
    args = parser.parse_args()

    days = anchor_days()
    day = days[2]
    window = Window(day.start, day.end, "Asia/Shanghai", day.label)
    items = anchor_items() + background_items(args.history, before=min(d.start for d in days))
    rng = random.Random(3)
    for it in items:
        if it.kind == "pr":
            it.files = rng.sample(FILES, 2)
            it.review_requests = [rng.choice([a.author for a in items[:400] if a.author])]
    rows = []
    with FakeGitHub(REPO, items, latency=args.latency) as fake, tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{d}/bench.sqlite3")
        source = GitHubSource(repo=REPO, api_url=fake.url, request_interval=0, token=FAKE_TOKEN)
        archiver = Archiver(store, source)
        reports = Reports(archiver, load_rules(), ReportFiles(Path(d)), lambda: NOW)
        fake.reset_log()
        began = time.perf_counter()
        report = reports.report(ReportQuery(REPO, window))
        base = time.perf_counter() - began
        rows.append(("daily report (full, cold, token)", len(fake.requests), base, "-"))

        links: dict[str, str] = {}
        subs = subscribers(args.subscribers, list(report.items.values()), links)
        for user, login in links.items():
            GitHubLinks(store.transactions).link("slack", user, login, NOW)
        digests = PersonalDigests(archiver, GitHubLinks(store.transactions))
        cases = [
            ("+ 1 subscriber (label:)", subs[:1]),
            (f"+ {len(subs)} subscribers", subs),
            (f"+ {len(subs)} subscribers, next run", subs),
        ]
        for name, wanted in cases:
            fake.reset_log()
            began = time.perf_counter()
            due = digests.due(report, wanted, NOW)
            took = time.perf_counter() - began
            sent = sum(1 for one in due if not one.digest.empty)
            rows.append((name, len(fake.requests), took, f"{sent}/{len(wanted)}"))
        store.close()
    prs = sum(1 for it in report.items.values() if it.kind == "pr")
    print(
        f"fake GitHub: {len(items)} items, {args.latency * 1000:.0f} ms per request; "
        f"day {day.label}: {len(report.items)} items, {prs} PRs"
    )
    print(f"{'run':36} {'requests':>8} {'wall s':>8} {'x report':>8}  digests sent")
    for name, requests, seconds, sent in rows:
        print(f"{name:36} {requests:>8} {seconds:>8.2f} {seconds / base:>8.2f}  {sent}")


if __name__ == "__main__":
    main()
