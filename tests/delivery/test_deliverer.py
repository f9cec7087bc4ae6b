"""The deliverer's paths one by one, in process, with a scripted transport (SQLite ledger).

Gone destinations, a platform that fails, a destination already complete, the thread,
recovered parts, stamping, and the lease kept while a send is slow.
"""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.delivery import (
    COMPLETE_PART,
    GONE_ATTEMPTS,
    Deliverer,
    DeliveryResult,
    Destination,
    DestinationGone,
    PartKey,
    Payload,
    TransportError,
)
from bot.model.windows import WindowKey
from bot.store import Store

REPO = "o/r"
SHANGHAI = ZoneInfo("Asia/Shanghai")
WINDOW = WindowKey("2026-03-25", datetime(2026, 3, 25, 11, 43, tzinfo=SHANGHAI))
NOW = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)
PARTS: list[tuple[str, Payload]] = [(n, {"text": n}) for n in ("headline", "a", "b")]
WHERE = Destination("slack", "C1")


class Scripted:
    platform = "slack"

    def __init__(self, fail: BaseException | None = None, fail_on: int = 0) -> None:
        self.fail, self.fail_on = fail, fail_on
        self.calls: list[tuple[str, ...]] = []
        self.posted: dict[str, str] = {}  # digest → id
        self.threads: list[tuple[str, str]] = []
        self.delay = 0.0

    async def post(self, target: str, payload: Payload, thread: str | None, key: PartKey) -> str:
        self.calls.append(("post", target, key.part, str(thread)))
        if self.fail is not None and len(self.posted) == self.fail_on:
            raise self.fail
        if self.delay:
            await asyncio.sleep(self.delay)
        message = f"m{len(self.posted) + 1}"
        self.posted[key.identity] = message
        return message

    async def find(
        self, target: str, key: PartKey, payload: Payload, thread: str | None, exclude: set[str]
    ) -> str | None:
        self.calls.append(("find", target, key.part, str(thread)))
        found = self.posted.get(key.identity)
        return found if found is not None and found not in exclude else None

    async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
        self.threads.append((message_id, name))
        return f"t-{message_id}"

    async def resolve(self, target: str, kind: str) -> str:
        return f"D{target}" if kind == "dm" else target


@pytest.fixture
def store(tmp_path: Path) -> Any:
    opened = Store(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield opened
    opened.close()


def deliver(
    store: Store,
    transport: Scripted,
    where: Destination = WHERE,
    parts: list[tuple[str, Payload]] = PARTS,
    lease: float = 30.0,
    now: datetime = NOW,
) -> DeliveryResult:
    deliverer = Deliverer(
        store.ledger,
        {"slack": transport},  # type: ignore[dict-item]
        lambda: now,
        lease=timedelta(seconds=lease),
        wait_limit=timedelta(seconds=2),
    )
    return asyncio.run(deliverer.deliver(REPO, WINDOW, where, parts, "thread name"))


def test_parts_go_out_in_order_under_the_headline_thread(store: Store) -> None:
    transport = Scripted()
    result = deliver(store, transport)
    posts = [c for c in transport.calls if c[0] == "post"]
    assert [(c[2], c[3]) for c in posts] == [("headline", "None"), ("a", "t-m1"), ("b", "t-m1")]
    assert transport.threads == [("m1", "thread name")]
    assert (result.sent, result.skipped, result.recovered, result.failed) == (3, 0, 0, {})
    # only the headline is looked for on the platform: the thread is this run's own
    assert [c[2] for c in transport.calls if c[0] == "find"] == ["headline"]
    assert store.ledger.parts(REPO, WINDOW, WHERE.key) == {"headline", "a", "b", COMPLETE_PART}


def test_a_complete_destination_is_skipped_whole(store: Store) -> None:
    deliver(store, Scripted())
    again = Scripted()
    result = deliver(store, again)
    assert again.calls == [] and (result.skipped, result.sent) == (3, 0)


def test_sent_parts_are_skipped_and_the_thread_reopened(store: Store) -> None:
    transport = Scripted(fail=TransportError("Slack answered 500"), fail_on=2)
    first = deliver(store, transport)
    assert first.failed == {WHERE.key: "Slack answered 500"}
    transport.fail = None
    second = deliver(store, transport)
    assert (second.skipped, second.sent, second.recovered) == (2, 1, 0)
    assert transport.threads[-1] == ("m1", "thread name")
    last = [c for c in transport.calls if c[0] == "post"][-1]
    assert (last[2], last[3]) == ("b", "t-m1")


def test_a_gone_destination_is_disabled_after_the_attempts(store: Store) -> None:
    transport = Scripted(fail=DestinationGone("Slack says channel_not_found"))
    result = deliver(store, transport)
    assert result.failed == {WHERE.key: "disabled: Slack says channel_not_found"}
    assert len([c for c in transport.calls if c[0] == "post"]) == GONE_ATTEMPTS
    assert store.ledger.disabled() == {WHERE.key: "Slack says channel_not_found"}
    assert COMPLETE_PART not in store.ledger.parts(REPO, WINDOW, WHERE.key)
    later = Scripted()
    said = deliver(store, later, now=NOW + timedelta(hours=1)).failed[WHERE.key]
    assert said.startswith("disabled earlier as gone: tried again a day after")
    assert later.calls == []
    # The bot was invited back: the next day's run tries it again, and it is back for good.
    back = deliver(store, later, now=NOW + timedelta(hours=21))
    assert back.failed == {} and back.sent == 3
    assert store.ledger.disabled() == {}


def test_gone_once_then_back_is_not_disabled(store: Store) -> None:
    class Flaky(Scripted):
        gone = 0

        async def post(self, *args: Any) -> str:
            if not self.gone:
                self.gone += 1
                raise DestinationGone("Slack says not_in_channel")
            return await super().post(*args)

    transport = Flaky()
    result = deliver(store, transport)
    assert transport.gone == 1
    assert result.failed == {} and result.sent == 3
    assert store.ledger.disabled() == {}


def test_an_unconfigured_platform_fails_that_destination_alone(store: Store) -> None:
    result = deliver(store, Scripted(), where=Destination("discord", "111"))
    assert result.failed == {"discord:111": "discord is not configured"}


def test_a_part_found_on_the_platform_is_recovered_not_resent(store: Store) -> None:
    transport = Scripted()
    key = PartKey(REPO, WINDOW, WHERE.key, "headline")
    transport.posted[key.identity] = "m0"  # posted before the ledger knew (lost database)
    result = deliver(store, transport)
    assert (result.recovered, result.sent) == (1, 2)
    assert transport.threads == [("m0", "thread name")]
    assert [c[2] for c in transport.calls if c[0] == "find"] == ["headline", "a", "b"]


def test_dm_destinations_resolve_first(store: Store) -> None:
    transport = Scripted()
    deliver(store, transport, where=Destination("slack", "U1", kind="dm", stream="digest-amd"))
    assert {c[1] for c in transport.calls} == {"DU1"}


def test_a_failed_send_gives_the_lease_back_at_once(store: Store) -> None:
    transport = Scripted(fail=TransportError("Slack unreachable"), fail_on=0)
    deliver(store, transport)
    now, lease = datetime.now(UTC), timedelta(seconds=30)
    claim = store.ledger.claim(REPO, WINDOW, WHERE.key, "headline", "other", now, lease)
    assert claim.held  # no waiting for the failed run's lease


def test_a_slow_send_keeps_its_lease(store: Store) -> None:
    """The heartbeat renews the lease while a send takes 2.5 times the lease: another
    process asking in the middle of the send finds the part held."""
    seen: list[bool] = []

    class Slow(Scripted):
        async def post(self, *args: Any) -> str:
            await asyncio.sleep(2.5)
            now, lease = datetime.now(UTC), timedelta(seconds=30)
            other = store.ledger.claim(REPO, WINDOW, WHERE.key, "headline", "other", now, lease)
            seen.append(other.held)
            return await super().post(*args)

    result = deliver(store, Slow(), parts=PARTS[:1], lease=1.0)
    assert result.sent == 1 and result.failed == {}
    assert seen == [False]


def test_destination_keys_name_kind_and_stream() -> None:
    assert Destination("slack", "C1").key == "slack:C1"
    assert Destination("slack", "U1", kind="dm").key == "slack-dm:U1"
    assert Destination("discord", "1", stream="digest-amd").key == "discord:1#digest-amd"


def test_part_key_since_reads_the_window_start() -> None:
    key = PartKey(REPO, WINDOW, "slack:C1", "a")
    assert key.since == datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
    queue = WindowKey("2026-03-25")
    assert PartKey(REPO, queue, "slack:C1", "a").since is None  # the queue digest's key
    assert len({PartKey(REPO, WINDOW, "slack:C1", p).identity for p in "ab"}) == 2


def test_a_message_keeps_the_identity_earlier_versions_gave_it() -> None:
    """The ledger's rows and every posted message carry the window key's text: were it to
    change, a restarted bot would not know its own messages and post the day again."""
    assert str(WINDOW) == "2026-03-25@2026-03-25T11:43:00+08:00"
    assert str(WindowKey("2026-03-25")) == "queue:2026-03-25"
    text = f"{REPO}|2026-03-25@2026-03-25T11:43:00+08:00|slack:C1|headline"
    key = PartKey(REPO, WINDOW, "slack:C1", "headline")
    assert key.identity == hashlib.sha256(text.encode()).hexdigest()


def test_a_live_holder_past_the_wait_limit_leaves_the_destination_to_it(store: Store) -> None:
    now, lease = datetime.now(UTC), timedelta(seconds=60)
    assert store.ledger.claim(REPO, WINDOW, WHERE.key, "headline", "other", now, lease).held
    transport = Scripted()
    result = deliver(store, transport)
    assert transport.calls == []
    assert "another run is posting headline" in result.failed[WHERE.key]
    assert COMPLETE_PART not in store.ledger.parts(REPO, WINDOW, WHERE.key)


def test_skips_add_up_across_destinations_and_reopen_nothing(store: Store) -> None:
    deliver(store, Scripted())
    deliverer = Deliverer(
        store.ledger,
        {"slack": (again := Scripted())},
        lambda: NOW,  # type: ignore[dict-item]
    )
    shared = DeliveryResult(skipped=5)
    asyncio.run(deliverer.deliver(REPO, WINDOW, WHERE, PARTS, "t", shared))
    assert shared.skipped == 8
    assert again.threads == [] and again.calls == []


def test_ids_of_other_parts_are_never_taken_for_this_one(store: Store) -> None:
    """The platform shows a message of another destination (or an earlier part of this one)
    that looks the same: it is not this part, whatever `find` says."""
    store.ledger.record(REPO, WINDOW, "slack:C9", "headline", "sent", "m-other", NOW)

    class LooksAlike(Scripted):
        async def find(
            self, target: str, key: PartKey, payload: Payload, thread: str | None, exclude: set[str]
        ) -> str | None:
            self.calls.append(("find", target, key.part, str(thread), str(payload["text"])))
            for candidate in ("m-other", "m0"):
                if candidate not in exclude:
                    return candidate
            return None

    transport = LooksAlike()
    result = deliver(store, transport)
    # the headline: m-other is another destination's, so m0 (truly this one) is recovered;
    # the later parts: neither m-other nor m0 (now this headline's) may be taken for them
    assert (result.recovered, result.sent) == (1, 2)
    finds = [c for c in transport.calls if c[0] == "find"]
    assert [(c[2], c[3], c[4]) for c in finds] == [
        ("headline", "None", "headline"),
        ("a", "t-m0", "a"),
        ("b", "t-m0", "b"),
    ]


def test_payloads_and_targets_reach_the_transport(store: Store) -> None:
    class Recording(Scripted):
        async def post(
            self, target: str, payload: Payload, thread: str | None, key: PartKey
        ) -> str:
            self.calls.append(("payload", target, str(payload["text"])))
            return await super().post(target, payload, thread, key)

        async def open_thread(self, target: str, message_id: str, name: str) -> str | None:
            self.calls.append(("thread", target, message_id))
            return await super().open_thread(target, message_id, name)

    transport = Recording()
    deliver(store, transport, where=Destination("slack", "U7", kind="dm"))
    assert [c[1:] for c in transport.calls if c[0] == "payload"] == [
        ("DU7", "headline"),
        ("DU7", "a"),
        ("DU7", "b"),
    ]
    assert [c[1:] for c in transport.calls if c[0] == "thread"] == [("DU7", "m1")]


def test_success_resets_the_gone_count(store: Store) -> None:
    """Gone once, then fine, then gone once again: two single failures apart never disable."""

    class OnceGone(Scripted):
        gone = 0

        async def post(self, *args: Any) -> str:
            if not self.gone:
                self.gone += 1
                raise DestinationGone("Slack says not_in_channel")
            return await super().post(*args)

    first = OnceGone()
    deliver(store, first)
    assert first.gone == 1
    other_window = WindowKey("2026-03-26", datetime(2026, 3, 26, 11, 43, tzinfo=SHANGHAI))
    deliverer = Deliverer(
        store.ledger,
        {"slack": OnceGone()},
        lambda: NOW,  # type: ignore[dict-item]
    )
    result = asyncio.run(deliverer.deliver(REPO, other_window, WHERE, PARTS, "t"))
    assert result.failed == {} and store.ledger.disabled() == {}


def test_gone_on_every_attempt_but_not_disabled_is_a_failure_not_a_delivery(
    store: Store,
) -> None:
    """Another run's success resets the gone count between two attempts: the destination is
    not disabled, and nothing was delivered: a failure said, no completion recorded."""

    class NeverDisables:
        def __init__(self, ledger: Any) -> None:
            self._ledger = ledger

        def destination_failed(self, *args: Any) -> bool:
            return False

        def __getattr__(self, name: str) -> Any:
            return getattr(self._ledger, name)

    transport = Scripted(fail=DestinationGone("Slack says channel_not_found"))
    deliverer = Deliverer(
        NeverDisables(store.ledger),  # type: ignore[arg-type]
        {"slack": transport},  # type: ignore[dict-item]
        lambda: NOW,
        wait_limit=timedelta(seconds=2),
    )
    result = asyncio.run(deliverer.deliver(REPO, WINDOW, WHERE, PARTS, "thread name"))
    assert result.failed == {WHERE.key: f"still gone after {GONE_ATTEMPTS} attempts"}
    assert COMPLETE_PART not in store.ledger.parts(REPO, WINDOW, WHERE.key)


def test_the_lease_heartbeat_stops_when_the_delivery_ends(store: Store) -> None:
    """`serve` keeps one deliverer for its life: its heartbeat must not outlive a post, or a
    lease it holds would be renewed for ever and other runs would wait on it."""
    deliverer = Deliverer(
        store.ledger,
        {"slack": Scripted()},  # type: ignore[dict-item]
        lambda: NOW,
        wait_limit=timedelta(seconds=2),
    )

    async def scenario() -> set[asyncio.Task[Any]]:
        await deliverer.deliver(REPO, WINDOW, WHERE, PARTS, "thread name")
        return asyncio.all_tasks() - {asyncio.current_task()}  # type: ignore[operator]

    assert asyncio.run(scenario()) == set()


def test_a_picture_is_named_with_its_tag_before_the_extension() -> None:
    """The uploaded file says which part it is (a crash after the upload is found by it)."""
    key = PartKey(REPO, WINDOW, WHERE.key, "trends")
    assert key.file_name("chart.png") == f"chart-{key.tag}.png"
    ranged = "vllm-report-2026-03-20..2026-03-26-counts.png"
    assert key.file_name(ranged) == f"vllm-report-2026-03-20..2026-03-26-counts-{key.tag}.png"
