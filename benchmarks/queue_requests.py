"""GitHub requests of the daily review queue (`vllm-report queue`): cold, warm, next day.

Runs against the project's fake GitHub (tests/fakes/github_api.py, real HTTP, search
qualifiers and GraphQL) and prints one table:

    python benchmarks/queue_requests.py [--latency 0.05]

Two repositories:
- *fixture*: the three real anchor days with review and answer times added
  (tests/features/queue/queue_data.py) and 1,500 older items; the queue of 2026-03-25, every vendor;
- *vLLM-sized*: a generated month at vLLM's pace (85 new PRs, 45 merges and 30 new
  issues a day, 1,200 open PRs waiting in the backlog, gemini's bot review on most PRs,
  a third of the issues never answered), so the figures say what a real day costs.

Rows: cold (an empty store, with a token), warm (the same day again), next day (the day
after a cold run: only the new day's facts, the unanswered issues and the lists), next day
after the daily report archived the window (the daily job's case), and anonymous (no
token: REST lists for one topic and the repository, response times skipped). Requests are
counted on the fake's side (REST and GraphQL alike); the limits the issue sets are a cold
queue within 60 requests and a warm one within 10.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.features.queue.service import QueueQuery, QueueService
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window
from bot.store import Store
from tests.anchor_data import REPO, anchor_days
from tests.fakes.github_api import FakeGitHub, FakeItem
from tests.features.queue.queue_data import queue_items

CST = ZoneInfo("Asia/Shanghai")
COLD_LIMIT, WARM_LIMIT = 60, 10
TOKEN = "fake-token"  # the fake accepts any; GitHub wants one for GraphQL
PEOPLE = ("tjtanaa", "DarkLight1337", "hmellor", "njhill", "youkaichao", "gshtras")
VENDOR_LABELS = (("rocm", 0.10), ("nvidia", 0.12), ("cpu", 0.03), ("intel-gpu", 0.02))


def vllm_month(last: date, seed: int = 13) -> list[FakeItem]:
    """Five weeks at vLLM's pace before the end of report day `last`, and a backlog."""
    rng = random.Random(seed)
    end = day_window(last, CST, datetime.min.time().replace(hour=11, minute=45)).end
    items: list[FakeItem] = []
    number = 30_000

    def labels() -> list[str]:
        return [name for name, share in VENDOR_LABELS if rng.random() < share]

    def reviews(n: int, author: str, opened: datetime, until: datetime) -> list[dict[str, object]]:
        found: list[dict[str, object]] = []
        if rng.random() < 0.85:  # gemini-code-assist reviews most PRs at once
            found.append(
                {"id": n * 10, "user": "gemini-code-assist[bot]", "state": "COMMENTED",
                 "submitted_at": opened + timedelta(minutes=8)}
            )  # fmt: skip
        if rng.random() < 0.9:
            at = min(until, opened + timedelta(hours=rng.lognormvariate(2.0, 1.3)))
            found.append(
                {"id": n * 10 + 1, "user": rng.choice(PEOPLE), "state": "APPROVED",
                 "submitted_at": max(opened, at)}
            )  # fmt: skip
        return found

    for day in range(35):
        start = end - timedelta(days=35 - day)
        for _ in range(85):  # new PRs
            number += 1
            opened = start + timedelta(minutes=rng.randrange(24 * 60))
            roll = rng.random()
            done = opened + timedelta(hours=rng.lognormvariate(3.0, 1.2))
            merged = done if roll < 0.53 and done < end else None
            closed = done if roll < 0.83 and done < end else None
            author = f"dev{rng.randrange(2000)}"
            items.append(
                FakeItem(
                    number, "pr", f"[Perf] change {number}", author, labels(), opened,
                    closed or opened, closed_at=closed, merged_at=merged,
                    reviews=reviews(number, author, opened, merged or end),
                )
            )  # fmt: skip
        for _ in range(30):  # new issues
            number += 1
            opened = start + timedelta(minutes=rng.randrange(24 * 60))
            answer = opened + timedelta(hours=rng.lognormvariate(2.5, 1.5))
            comments = (
                [{"id": number * 10, "user": rng.choice(PEOPLE), "created_at": answer}]
                if rng.random() < 0.67 and answer < end
                else []
            )
            items.append(
                FakeItem(
                    number, "issue", f"[Bug]: report {number}", f"user{rng.randrange(5000)}",
                    labels(), opened, opened, comment_list=comments,
                )
            )  # fmt: skip
    for index in range(1200):  # the open backlog, older than the five weeks
        opened = end - timedelta(days=36 + rng.randrange(120))
        author = f"dev{rng.randrange(2000)}"
        roll = rng.random()
        found = reviews(index, author, opened, opened + timedelta(days=3)) if roll < 0.6 else []
        items.append(
            FakeItem(
                1000 + index, "pr", f"[Feature] pending {index}", author, labels(), opened,
                opened + timedelta(days=2), reviews=found, draft=rng.random() < 0.12,
            )
        )  # fmt: skip
    return items


def run(
    fake: FakeGitHub, store: Store, window: Window, now: datetime, token: str | None
) -> tuple[int, float]:
    source = GitHubSource(repo=REPO, api_url=fake.url, token=token, request_interval=0)
    service = QueueService(Archiver(store, source), load_rules(), lambda: now)
    fake.reset_log()
    began = time.perf_counter()
    service.queue(QueueQuery(REPO, window))
    return len(fake.requests), time.perf_counter() - began


def rows_for(
    name: str, items: list[FakeItem], day: Window, previous: Window, latency: float
) -> list[tuple[str, int, float]]:
    now = day.end + timedelta(minutes=15)
    rows = []
    with FakeGitHub(REPO, items, latency=latency) as fake, tempfile.TemporaryDirectory() as d:

        def fresh(label: str) -> Store:
            return Store(f"sqlite:///{d}/{label}.sqlite3")

        store = fresh("cold")
        rows.append((f"{name}: cold", *run(fake, store, day, now, TOKEN)))
        rows.append((f"{name}: warm (same day)", *run(fake, store, day, now, TOKEN)))
        nextday = fresh("next")
        run(fake, nextday, previous, previous.end + timedelta(minutes=15), TOKEN)
        rows.append((f"{name}: next day", *run(fake, nextday, day, now, TOKEN)))
        daily = fresh("daily")
        run(fake, daily, previous, previous.end + timedelta(minutes=15), TOKEN)
        source = GitHubSource(repo=REPO, api_url=fake.url, token=TOKEN, request_interval=0)
        Archiver(daily, source).window(REPO, day, now)  # the daily report ran first
        rows.append((f"{name}: next day, after the report", *run(fake, daily, day, now, TOKEN)))
        rows.append((f"{name}: anonymous, cold", *run(fake, fresh("anon"), day, now, None)))
        for opened in (store, nextday, daily):
            opened.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--fixture-only", action="store_true", help="skip the vLLM-sized month")
    args = parser.parse_args()

    days = anchor_days()

    def to_window(index: int) -> Window:
        day = days[index]
        return Window(day.start.astimezone(CST), day.end.astimezone(CST), CST.key, day.label)

    rows = rows_for("fixture 2026-03-25", queue_items(), to_window(2), to_window(1), args.latency)
    if not args.fixture_only:
        last = date(2026, 3, 25)
        cutoff = datetime.min.time().replace(hour=11, minute=45)
        month = vllm_month(last)
        rows += rows_for(
            "vLLM-sized day",
            month,
            day_window(last, CST, cutoff),
            day_window(last - timedelta(days=1), CST, cutoff),
            args.latency,
        )
    print(f"limits: cold ≤ {COLD_LIMIT}, warm ≤ {WARM_LIMIT} requests; "
          f"{args.latency * 1000:.0f} ms per request")  # fmt: skip
    print(f"{'queue (every vendor and the repository)':48} {'requests':>8} {'wall s':>8}")
    for name, requests, seconds in rows:
        print(f"{name:48} {requests:>8} {seconds:>8.2f}")


if __name__ == "__main__":
    main()
