"""Exactly one sender per part: two runs racing, a dead holder, a lost database, nonces.

In process: two deliverers, each with its own store connection and owner, against one
database (SQLite and PostgreSQL), and a recording transport whose sends can be held open,
so the interleavings are forced, not hoped for. Out of process: two real `post` commands of
one window at once, against the fake Slack and Discord.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.cli import main
from bot.delivery import (
    COMPLETE_PART,
    Deliverer,
    DeliveryResult,
    Destination,
    PartKey,
    Payload,
)
from bot.model.windows import WindowKey
from bot.store import Store, Subscription
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack

DAY = anchor_days()[2]
ROOT = Path(__file__).resolve().parents[2]
REPO = "vllm-project/vllm"
SHANGHAI = ZoneInfo("Asia/Shanghai")
WINDOW = WindowKey("2026-03-25", datetime(2026, 3, 25, 11, 43, tzinfo=SHANGHAI))
NOW = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)
PARTS: list[tuple[str, Payload]] = [(name, {"text": name}) for name in ("headline", "a", "b")]


class Recorder:
    """A transport that records every send; a send can be held until the test lets it go."""

    platform = "slack"

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str | None]] = []  # (target, part digest, thread)
        self.by_identity: dict[str, str] = {}
        self.gate: asyncio.Event | None = None
        self.entered = asyncio.Event()
        self.finds = 0
        self.deleted: list[str] = []

    async def post(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        self.entered.set()
        if self.gate is not None:
            await self.gate.wait()
        message_id = f"m{len(self.sent) + 1}"
        self.sent.append((target, key.identity, thread))
        self.by_identity[key.identity] = message_id
        return message_id

    async def find(
        self, target: str, key: PartKey, payload: Payload, thread: str | None, exclude: set[str]
    ) -> str | None:
        self.finds += 1
        found = self.by_identity.get(key.identity)
        return found if found not in exclude else None

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        return message_id

    async def delete(self, target: str, message_id: str, thread: str | None) -> None:
        self.deleted.append(message_id)

    async def resolve(self, target: str, kind: str) -> str:
        return target


def deliverer(store: Store, transport: Recorder, lease: float = 30.0) -> Deliverer:
    return Deliverer(
        store.ledger,
        {"slack": transport},  # type: ignore[dict-item]
        lambda: NOW,
        lease=timedelta(seconds=lease),
        wait_limit=timedelta(seconds=10),
    )


@pytest.fixture
def two_stores(store_url: str) -> Iterator[tuple[Store, Store]]:
    first, second = Store(store_url), Store(store_url)
    yield first, second
    first.close()
    second.close()


def test_a_second_run_never_sends_a_part_the_first_holds(two_stores: tuple[Store, Store]) -> None:
    """A holds the headline's lease mid-send; B waits, then sends nothing twice."""
    transport = Recorder()
    a, b = (deliverer(s, transport) for s in two_stores)
    where = Destination("slack", "C1")

    async def scenario() -> tuple[DeliveryResult, DeliveryResult]:
        transport.gate = asyncio.Event()
        first = asyncio.create_task(a.deliver(REPO, WINDOW, where, PARTS, "t"))
        await transport.entered.wait()  # A is inside the headline's send
        second = asyncio.create_task(b.deliver(REPO, WINDOW, where, PARTS, "t"))
        for _ in range(20):  # let B claim (and find the lease held) while A is held
            await asyncio.sleep(0)
        transport.gate.set()
        return await first, await second

    results = asyncio.run(scenario())
    digests = [digest for _, digest, _ in transport.sent]
    assert len(digests) == len(PARTS) == len(set(digests))
    assert sum(r.sent for r in results) == len(PARTS)
    assert not any(r.failed for r in results)


def test_an_expired_lease_is_taken_over_only_after_looking_on_the_platform(
    two_stores: tuple[Store, Store],
) -> None:
    """A dies after the platform accepted part a: B waits out A's lease, finds a, sends b."""
    transport = Recorder()
    first, second = two_stores
    where = Destination("slack", "C1")
    a = deliverer(first, transport, lease=0.5)
    b = deliverer(second, transport, lease=0.5)

    async def scenario() -> DeliveryResult:
        # A posts the headline (recorded) and part a, then dies before recording a.
        for (part, payload), record in zip(PARTS[:2], (True, False), strict=True):
            claim = first.ledger.claim(REPO, WINDOW, where.key, part, a.owner, a.wall(), a.lease)
            assert claim.held
            key = PartKey(REPO, WINDOW, where.key, part)
            sent = await transport.post("C1", payload, None if part == "headline" else "m1", key)
            if record:
                first.ledger.record(REPO, WINDOW, where.key, part, "sent", sent, NOW)
        return await b.deliver(REPO, WINDOW, where, PARTS, "t")

    result = asyncio.run(scenario())
    digests = [digest for _, digest, _ in transport.sent]
    assert len(digests) == len(set(digests)) == len(PARTS)
    assert (result.skipped, result.recovered, result.sent) == (1, 1, 1)


def test_a_lease_lost_before_a_send_stops_the_old_holder(
    two_stores: tuple[Store, Store],
) -> None:
    """A posts the headline. Part a was claimed by a run that died, so A looks on the
    platform for it first, and stalls there past its lease (a long pause); B takes a over
    and posts a and b. A, back, must send neither: each part is on the platform once."""
    first, second = two_stores
    where = Destination("slack", "C1")
    lease = timedelta(seconds=30)
    wall = [NOW]
    names = {PartKey(REPO, WINDOW, where.key, part).identity: part for part, _ in PARTS}

    class Stalling(Recorder):
        stalled = False

        async def find(
            self, target: str, key: PartKey, payload: Payload, thread: str | None, exclude: set[str]
        ) -> str | None:
            found = await super().find(target, key, payload, thread, exclude)
            if key.part == "a" and not self.stalled:  # A's look for part a
                self.stalled = True
                wall[0] += lease + timedelta(seconds=1)
                b_results.append(await b.deliver(REPO, WINDOW, where, PARTS, "t"))
            return found

    transport = Stalling()
    a, b = (
        Deliverer(
            store.ledger,
            {"slack": transport},  # type: ignore[dict-item]
            lambda: NOW,
            lease=lease,
            wait_limit=timedelta(seconds=10),
            owner=owner,
            wall=lambda: wall[0],
        )
        for store, owner in zip(two_stores, ("a", "b"), strict=True)
    )
    b_results: list[DeliveryResult] = []
    dead = first.ledger.claim(REPO, WINDOW, where.key, "a", "dead", NOW - 2 * lease, lease)
    assert dead.held

    a_result = asyncio.run(a.deliver(REPO, WINDOW, where, PARTS, "t"))
    assert Counter(names[digest] for _, digest, _ in transport.sent) == {
        "headline": 1,
        "a": 1,
        "b": 1,
    }
    assert a_result.sent == 1 and "lost the lease on a" in a_result.failed[where.key]
    (b_result,) = b_results
    assert (b_result.sent, b_result.skipped, b_result.failed) == (2, 1, {})
    assert COMPLETE_PART in second.ledger.parts(REPO, WINDOW, where.key)


def test_a_lost_ledger_does_not_repost(two_stores: tuple[Store, Store], store_url: str) -> None:
    """Everything went out, then the database was lost: the rerun finds every part."""
    transport = Recorder()
    first, _ = two_stores
    where = Destination("slack", "C1")
    asyncio.run(deliverer(first, transport).deliver(REPO, WINDOW, where, PARTS, "t"))
    assert len(transport.sent) == len(PARTS)
    empty = Store(store_url.replace("store.sqlite3", "other.sqlite3"))
    if empty.url == store_url:  # PostgreSQL: empty the ledger instead
        from sqlalchemy import text

        with empty.engine.begin() as connection:
            connection.execute(text("DELETE FROM deliveries"))
    result = asyncio.run(deliverer(empty, transport).deliver(REPO, WINDOW, where, PARTS, "t"))
    empty.close()
    assert len(transport.sent) == len(PARTS)
    assert (result.sent, result.recovered) == (0, len(PARTS))


def test_each_part_key_is_unique_per_destination_and_stream() -> None:
    """The daily post, a digest in the same channel and a second channel: distinct ids."""
    keys = {
        PartKey(REPO, WINDOW, destination.key, "headline").identity
        for destination in (
            Destination("discord", "111"),
            Destination("discord", "222"),
            Destination("discord", "111", stream="digest-amd"),
            Destination("discord", "4242", kind="dm", stream="digest-amd"),
        )
    }
    assert len(keys) == 4


# -- real processes and the fake platforms --------------------------------------------------


@pytest.fixture
def platforms(
    monkeypatch: pytest.MonkeyPatch, store_url: str, fake_github: FakeGitHub
) -> Iterator[tuple[FakeSlack, FakeDiscord]]:
    with FakeSlack() as slack, FakeDiscord() as discord_:
        monkeypatch.setenv("DATABASE_URL", store_url)
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        monkeypatch.setenv("VLLM_REPORT_SLACK_POST_INTERVAL", "0.2")
        monkeypatch.setenv("DISCORD_BOT_TOKEN", "discord-test-token")
        monkeypatch.setenv("DISCORD_API_URL", discord_.api_url)
        monkeypatch.setenv("DISCORD_CHANNELS", "111")
        monkeypatch.setenv("VLLM_REPORT_DELIVERY_LEASE_SECONDS", "5")
        yield slack, discord_


def test_two_post_commands_at_once_post_each_part_once(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
) -> None:
    """Two `post` processes of one window, started together: one message per part."""
    slack, discord_ = platforms
    argv = ["show", DAY.label, "--cutoff", DAY.cutoff]
    assert main(argv) == 0  # archived first, so both reach the posting at the same time
    capsys.readouterr()
    command = [sys.executable, "-m", "bot", "post", DAY.label, "--cutoff", DAY.cutoff]
    # Nobody dies here: leases long enough that a run a loaded machine stalls for seconds
    # keeps its own (with 5 s one was taken over mid-part and the run ended in an error).
    env = {**os.environ, "PYTHONPATH": str(ROOT), "VLLM_REPORT_DELIVERY_LEASE_SECONDS": "600"}
    runs = [
        subprocess.Popen(command, cwd=clean_env, env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    # communicate, not wait-then-read: a run that writes more than a pipe holds would block
    results = [(run.wait(), err) for run in runs for _, err in [run.communicate(timeout=180)]]
    assert [code for code, _ in results] == [0, 0], results
    slack_parts = [p.part for p in slack.posted]
    assert max(Counter(slack_parts).values()) == 1
    nonces = [s.payload["nonce"] for s in discord_.sent]
    assert max(Counter(nonces).values()) == 1
    assert main(["show", *argv[1:], "--format", "slack"]) == 0
    import json

    # The chart is drawn in the trends reply; its PNG is the one reply `show` does not print.
    assert len(slack_parts) == len(json.loads(capsys.readouterr().out)) + 1


def test_digests_and_a_second_discord_channel_get_their_own_messages(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    store_url: str,
) -> None:
    """Discord dedups an enforced nonce per author across channels: each message needs its own."""
    _, discord_ = platforms
    monkeypatch.setenv("DISCORD_CHANNELS", "111,222")
    store = Store(store_url)
    store.subscriptions.add(
        Subscription("discord", "channel", "111", "amd", "U1"), datetime.now(UTC)
    )
    store.close()
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    err = capsys.readouterr().err
    assert code == 0, err
    assert main(["show", DAY.label, "--cutoff", DAY.cutoff, "--format", "discord"]) == 0
    import json

    daily = len(json.loads(capsys.readouterr().out))
    first, second = discord_.in_channel("111"), discord_.in_channel("222")
    assert len(first) == 2  # the daily headline and the digest's headline
    assert len(second) == 1
    for headline in (*first, *second):
        assert headline.id in discord_.threads
    threads = [discord_.in_channel(h.id) for h in (*first, *second)]
    # The daily threads carry the chart in their trends reply; the digest's is its own.
    assert sorted(len(t) for t in threads) == sorted([daily - 1, daily - 1, 2])
    assert len({s.payload["nonce"] for s in discord_.sent}) == len(discord_.sent)


def test_discord_down_does_not_stop_slack(
    platforms: tuple[FakeSlack, FakeDiscord], capsys: pytest.CaptureFixture[str]
) -> None:
    """Discord's API answers 503 to everything: Slack gets its post, Discord fails alone."""
    slack, discord_ = platforms
    discord_.down = True
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    err = capsys.readouterr().err
    assert code == 1
    assert "Traceback" not in err
    assert "vllm-report: discord:111: Discord unreachable" in err
    assert slack.posted and not discord_.sent
    discord_.down = False
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0  # the rerun completes
    assert discord_.sent


def test_discord_refusing_the_token_does_not_stop_slack(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No Discord server at all (connection refused): one sentence, Slack posted."""
    slack, _ = platforms
    monkeypatch.setenv("DISCORD_API_URL", "http://127.0.0.1:9/api/v10")
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert "discord:111: Discord unreachable" in err
    assert slack.posted


def test_a_lost_database_mid_post_does_not_repost(
    platforms: tuple[FakeSlack, FakeDiscord],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    """The ledger is gone (a new, empty database): the rerun finds every part on the platform."""
    slack, discord_ = platforms
    discord_.nonce_seconds = 0  # long after Discord forgot the nonces: history must tell
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    before = (len(slack.posted), len(discord_.sent))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{clean_env / 'new-empty.sqlite3'}")
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (len(slack.posted), len(discord_.sent)) == before
    assert "0 messages sent" in err
