"""The subscriptions table at the store's boundary: a key goes in as the text stored today
and comes out as the same key, and a row whose text is no key is left out, not fatal."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from bot.model.subscriptions import SubscriptionKey
from bot.store import Store, Subscription
from bot.store.schema import SubscriptionRow

NOW = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)
TEXTS = [
    "amd",
    "plugins",
    "radar:vllm-ascend",
    "ci",
    "ci:amd",
    "label:good first issue",
    "author:alice",
    "path:vllm/V1/**",
    "mine",
]


def rows(store: Store) -> list[str]:
    with store.subscriptions._tx.begin() as session:
        return list(session.scalars(select(SubscriptionRow.topic).order_by(SubscriptionRow.id)))


def test_each_key_is_stored_as_its_text_and_read_back_as_itself(store: Store) -> None:
    keys = [SubscriptionKey.parse(text) for text in TEXTS]
    for key in keys:
        assert store.subscriptions.add(Subscription("slack", "dm", "U1", key, "U1"), NOW)
    assert rows(store) == TEXTS  # the column holds exactly what it held before keys
    assert [sub.key for sub in store.subscriptions.list()] == keys
    # The same key again is the same row; remove and set_cadence find it by its text.
    again = Subscription("slack", "dm", "U1", SubscriptionKey.parse("label:good first issue"), "U1")
    assert not store.subscriptions.add(again, NOW)
    assert store.subscriptions.set_cadence(Subscription("slack", "dm", "U1", keys[7], "U1", "off"))
    assert store.subscriptions.remove(Subscription("slack", "dm", "U1", keys[0], "U1"))
    left = store.subscriptions.list()
    assert [str(s.key) for s in left] == TEXTS[1:]
    assert [s.cadence for s in left if s.key.kind == "path"] == ["off"]


def test_the_stored_text_is_still_accepted_and_parsed_once(store: Store) -> None:
    """benchmarks/personal_requests.py and older tests give the text: it becomes a key."""
    sub = Subscription("slack", "channel", "C1", "ci:amd", "U1")  # type: ignore[arg-type]
    assert sub.key == SubscriptionKey("ci", "amd") and sub.topic == "ci:amd"


def test_a_row_whose_text_is_no_key_is_skipped_and_logged(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """No version of the bot stores `radar:` alone; if a row says it, every other subscriber
    still gets their digest and the log names the row."""
    store.subscriptions.add(Subscription("slack", "channel", "C1", "amd", "U1"), NOW)
    with store.subscriptions._tx.begin() as session:
        session.add(
            SubscriptionRow(
                platform="slack",
                target_kind="channel",
                target_id="C2",
                topic="radar:",
                created_by="U1",
                created_at=NOW,
                cadence="daily",
            )
        )
    assert [str(s.key) for s in store.subscriptions.list()] == ["amd"]
    assert "its key 'radar:' is unreadable (name a plugin" in caplog.text
