"""GitHub requests of the daily review queue (`vllm-report queue`): cold, warm, next day.

Runs against the project's fake GitHub (tests/fakes/github_api.py, real HTTP, search
qualifiers and GraphQL) and prints one table:

    python benchmarks/queue_requests.py [--latency 0.05] [--fixture-only]

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
queue within 60 requests and a warm one within 10 (every row that starts from a store
holding the day before is a warm one).

Every limit here is a count, never a time, so a loaded machine cannot fail it: the script
exits 1 naming each row whose requests are over its limit (or none: a row that asked
nothing measured nothing). The client has no time limit (a fake that answers slowly on a
busy machine is waited for, never retried, so a request is counted once), and what a
timeout would guard, a run that never ends, is a count too: the fake refuses every request
of a run past RUN_CAP, and that row is over its limit. The wall-clock seconds are printed
for information only.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.collect import deadline
from bot.collect.source import CollectError, GitHubSource
from bot.collect.sync import Archiver
from bot.features.queue.service import QueueQuery, QueueService
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window
from bot.store import Store
from tests.anchor_data import REPO, anchor_days
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault
from tests.features.queue.queue_data import queue_items

CST = ZoneInfo("Asia/Shanghai")
COLD_LIMIT, WARM_LIMIT = 60, 10
# Requests one measured run may send before the fake refuses the rest: a run that keeps
# asking ends here (over its limit, so said), where a timeout would have waited on the clock.
RUN_CAP = 4 * COLD_LIMIT
# "No time limit" for the client, in the seconds its settings take: a day, far past any run.
UNTIMED = 24 * 3600.0
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


@dataclass(frozen=True)
class Row:
    name: str
    requests: int  # counted by the fake, REST and GraphQL alike
    limit: int  # COLD_LIMIT for an empty store, WARM_LIMIT for one that holds a day
    seconds: float  # wall clock, for information: never a limit

    @property
    def within(self) -> bool:
        return 0 < self.requests <= min(self.limit, RUN_CAP)


def untimed_source(fake: FakeGitHub, token: str | None) -> GitHubSource:
    """The client as the bot makes it, without its time limits: no socket timeout to speak
    of, and no retry (a retry after a slow answer would count one request twice)."""
    return GitHubSource(
        repo=REPO, api_url=fake.url, token=token, request_interval=0, timeout=UNTIMED, retries=0
    )


def capped(fake: FakeGitHub) -> None:
    """Every request of a run (since `reset_log`) past RUN_CAP is refused: the run ends."""
    refused = {"message": f"the benchmark's cap of {RUN_CAP} requests a run is spent"}
    fake.fault_rule = lambda index, path: (
        Fault(status=422, body=refused) if index >= RUN_CAP else None
    )


def run(
    fake: FakeGitHub, store: Store, window: Window, now: datetime, token: str | None
) -> tuple[int, float]:
    """One queue asked: the requests the fake saw, and the wall-clock seconds it took."""
    service = QueueService(Archiver(store, untimed_source(fake, token)), load_rules(), lambda: now)
    fake.reset_log()
    began = time.perf_counter()
    try:
        service.queue(QueueQuery(REPO, window))
    except CollectError:
        if len(fake.requests) <= RUN_CAP:
            raise  # a failure of its own: the traceback says which
        # The cap refused the rest: the count (past any limit) tells it.
    return len(fake.requests), time.perf_counter() - began


def rows_for(
    name: str,
    items: list[FakeItem],
    day: Window,
    previous: Window,
    latency: float,
    limits: tuple[int, int] = (COLD_LIMIT, WARM_LIMIT),
) -> Iterator[Row]:
    """The five rows of one repository, each as soon as it is measured."""
    cold, warm = limits
    now = day.end + timedelta(minutes=15)
    with FakeGitHub(REPO, items, latency=latency) as fake, tempfile.TemporaryDirectory() as d:
        capped(fake)
        opened: list[Store] = []

        def fresh(label: str) -> Store:
            opened.append(Store(f"sqlite:///{d}/{label}.sqlite3"))
            return opened[-1]

        def measured(label: str, store: Store, token: str | None, limit: int) -> Row:
            requests, seconds = run(fake, store, day, now, token)
            return Row(f"{name}: {label}", requests, limit, seconds)

        def day_before(store: Store) -> Store:
            run(fake, store, previous, previous.end + timedelta(minutes=15), TOKEN)
            return store

        try:
            store = fresh("cold")
            yield measured("cold", store, TOKEN, cold)
            yield measured("warm (same day)", store, TOKEN, warm)
            yield measured("next day", day_before(fresh("next")), TOKEN, warm)
            daily = day_before(fresh("daily"))
            Archiver(daily, untimed_source(fake, TOKEN)).window(REPO, day, now)  # the report ran
            yield measured("next day, after the report", daily, TOKEN, warm)
            yield measured("anonymous, cold", fresh("anon"), None, cold)
        finally:
            for one in opened:
                one.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--fixture-only", action="store_true", help="skip the vLLM-sized month")
    parser.add_argument(
        "--cold-limit", type=int, default=COLD_LIMIT, help="requests a cold queue may send"
    )
    parser.add_argument(
        "--warm-limit", type=int, default=WARM_LIMIT, help="requests a warm queue may send"
    )
    args = parser.parse_args()
    limits = (args.cold_limit, args.warm_limit)
    # An answer's own clock limit (60 s from its headers) is the bot's guard against GitHub
    # dripping bytes; the fake never drips, and a busy machine must not fail a count.
    deadline.ANSWER_SECONDS = UNTIMED

    days = anchor_days()

    def to_window(index: int) -> Window:
        day = days[index]
        return Window(day.start.astimezone(CST), day.end.astimezone(CST), CST.key, day.label)

    def repositories() -> Iterator[Row]:
        yield from rows_for(
            "fixture 2026-03-25", queue_items(), to_window(2), to_window(1), args.latency, limits
        )
        if not args.fixture_only:
            last = date(2026, 3, 25)
            cutoff = datetime.min.time().replace(hour=11, minute=45)
            yield from rows_for(
                "vLLM-sized day",
                vllm_month(last),
                day_window(last, CST, cutoff),
                day_window(last - timedelta(days=1), CST, cutoff),
                args.latency,
                limits,
            )

    print(f"limits: cold ≤ {limits[0]}, warm ≤ {limits[1]} requests (a count: the seconds "
          f"are information); {args.latency * 1000:.0f} ms per request")  # fmt: skip
    heading = "queue (every vendor and the repository)"
    print(f"{heading:48} {'requests':>8} {'limit':>8} {'wall s':>8}")
    over = []
    for row in repositories():  # each row as soon as it is measured
        print(f"{row.name:48} {row.requests:>8} {row.limit:>8} {row.seconds:>8.2f}", flush=True)
        if not row.within:
            over.append(row)
    for row in over:
        print(
            f"{row.name}: {row.requests} requests, over its limit of 1 to {row.limit}",
            file=sys.stderr,
        )
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
