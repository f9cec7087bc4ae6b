"""Several `serve` replicas on one database: the scheduler runs on exactly one of them.

The leadership lease is tested with a hand-moved clock (no waiting), then with real
processes: two `serve`s, the leader killed with SIGKILL, the other taking over.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service.leader import Leader
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
TTL = timedelta(seconds=30)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def two(store_url: str) -> Iterator[tuple[Store, Store]]:
    first, second = Store(store_url), Store(store_url)
    yield first, second
    first.close()
    second.close()


def test_one_leader_and_a_takeover_with_a_higher_epoch(two: tuple[Store, Store]) -> None:
    """A leads; B cannot while A's lease lives; once it runs out B leads and A is fenced off."""
    clock = Clock()
    a = Leader(two[0].leases, TTL, owner="a", wall=clock)
    b = Leader(two[1].leases, TTL, owner="b", wall=clock)
    assert a.try_lead() and not b.try_lead()
    clock.now += TTL - timedelta(seconds=1)
    assert a.try_lead()  # renewed: another full lease from here
    clock.now += TTL - timedelta(seconds=1)
    assert not b.try_lead() and a.leads()
    clock.now += timedelta(seconds=2)  # A stopped renewing (died): its lease ran out
    assert b.try_lead()
    assert b.held is not None and a.held is not None and b.held.epoch == a.held.epoch + 1
    assert not a.leads()  # the fencing check: A must not act any more
    assert not a.try_lead() and b.leads()


def test_a_leader_whose_lease_ran_out_does_not_run_the_job(two: tuple[Store, Store]) -> None:
    """A was paused (a long GC, a suspended VM) until its lease ran out; nobody has taken it
    over yet. Woken, A must not run the scheduled job before it has the lease again, and
    then with a new epoch (renewing in time keeps the old one)."""
    clock = Clock()
    a = Leader(two[0].leases, TTL, owner="a", wall=clock)
    ran: list[str] = []

    async def job() -> None:
        ran.append("job")

    assert a.try_lead()
    clock.now += timedelta(seconds=10)
    assert a.try_lead() and a.held is not None and a.held.epoch == 1  # renewed in time
    clock.now += TTL - timedelta(seconds=1)
    asyncio.run(a.gate(job)())
    assert ran == ["job"]
    clock.now += timedelta(seconds=1)  # exactly when the renewed lease ends
    asyncio.run(a.gate(job)())
    assert ran == ["job"]
    assert a.try_lead() and a.held is not None and a.held.epoch == 2  # taken again
    asyncio.run(a.gate(job)())
    assert ran == ["job", "job"]


def test_a_fenced_off_leader_stopping_leaves_the_new_leader_alone(
    two: tuple[Store, Store],
) -> None:
    """A's lease ran out and B took over; A, shutting down, hands back only what it holds:
    B still leads, and a third replica cannot take over."""
    clock = Clock()
    a = Leader(two[0].leases, TTL, owner="a", wall=clock)
    b = Leader(two[1].leases, TTL, owner="b", wall=clock)
    c = Leader(two[0].leases, TTL, owner="c", wall=clock)
    assert a.try_lead()
    clock.now += TTL
    assert b.try_lead()
    a.release()
    assert b.leads() and not c.try_lead()


def test_an_earlier_hold_of_the_same_owner_is_fenced_off(two: tuple[Store, Store]) -> None:
    """The epoch is the fencing token: once the lease lapsed and was taken again, what was
    held before no longer counts, even for the same owner."""
    leases, start = two[0].leases, Clock().now
    before = leases.acquire("scheduler", "a", start, TTL)
    again = leases.acquire("scheduler", "a", start + TTL, TTL)  # ran out, taken again
    assert before is not None and again is not None and again.epoch == before.epoch + 1
    assert leases.still_holds(again, start + TTL)
    assert not leases.still_holds(before, start + TTL)


def test_a_clean_stop_hands_the_lease_over_at_once(two: tuple[Store, Store]) -> None:
    clock = Clock()
    a = Leader(two[0].leases, TTL, owner="a", wall=clock)
    b = Leader(two[1].leases, TTL, owner="b", wall=clock)
    assert a.try_lead()
    a.release()
    assert b.try_lead()


def test_the_scheduled_job_runs_on_the_leader_only(two: tuple[Store, Store]) -> None:
    clock = Clock()
    ran: list[str] = []
    leaders = [
        Leader(s.leases, TTL, owner=name, wall=clock) for s, name in zip(two, "ab", strict=True)
    ]
    for leader in leaders:
        leader.try_lead()

    async def scenario() -> None:
        for leader in leaders:

            async def job(name: str = leader.owner) -> None:
                ran.append(name)

            await leader.gate(job)()

    asyncio.run(scenario())
    assert ran == ["a"]


def _serve(cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "-v", "serve"],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for(process: subprocess.Popen[str], text: str, seen: list[str], limit: float) -> bool:
    """Read the process's log until `text` appears (or `limit` seconds pass)."""
    assert process.stderr is not None
    fd = process.stderr.fileno()
    os.set_blocking(fd, False)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 65536).decode(errors="replace")
        except BlockingIOError:
            chunk = ""
        if chunk:
            seen.append(chunk)
        if text in "".join(seen):
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def test_two_serve_replicas_schedule_once_and_the_survivor_takes_over(
    store_url: str, clean_env: Path
) -> None:
    """Two real `serve` processes on one database: one leads; SIGKILL it, the other leads."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DATABASE_URL": store_url,
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "VLLM_REPORT_LEADER_LEASE_SECONDS": "3",
        "GITHUB_API_URL": "http://127.0.0.1:9",
    }
    first = _serve(clean_env, env)
    logs: dict[int, list[str]] = {0: [], 1: []}
    second = None
    try:
        assert _wait_for(first, "this replica leads the scheduler (epoch 1)", logs[0], 60)
        second = _serve(clean_env, env)
        assert _wait_for(second, "started:", logs[1], 60)
        assert not _wait_for(second, "this replica leads", logs[1], 2)  # A still leads
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        assert _wait_for(second, "this replica leads the scheduler (epoch 2)", logs[1], 60)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(30)
    assert second is not None and second.returncode == 0
