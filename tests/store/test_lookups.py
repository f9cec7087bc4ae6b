"""What GitHub answered about single upstream numbers and commits (the radar's checks)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.store import Lookup, Store

REPO = "vllm-project/vllm"
AT = datetime(2026, 3, 9, 12, tzinfo=UTC)


def test_an_answer_is_kept_and_a_newer_one_replaces_it(store: Store) -> None:
    store.lookups.save(REPO, "#30005", None, AT)  # GitHub had no such number
    store.lookups.save(REPO, "abc1234def", 30006, AT)  # the PR that merged the commit
    assert store.lookups.of(REPO, ["#30005", "abc1234def", "#1"]) == {
        "#30005": Lookup(None, AT),
        "abc1234def": Lookup(30006, AT),
    }
    later = AT + timedelta(days=1)
    store.lookups.save(REPO, "#30005", 30005, later)  # asked again: it exists now
    assert store.lookups.of(REPO, ["#30005"]) == {"#30005": Lookup(30005, later)}
    assert store.lookups.of("other/repo", ["#30005"]) == {}
    assert store.lookups.of(REPO, []) == {}
