"""The radar's corrections kept for good, and the archived upstream reverts
(`bot.features.radar.store_corrections`), on SQLite and PostgreSQL; and migration 0010 bringing an
older store to them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from alembic import command
from alembic.config import Config

from bot.features.radar.model import Correction
from bot.features.radar.store_corrections import RadarCorrections, Reverts
from bot.model.report import ActivityItem
from bot.store import Store
from bot.store.engine import MIGRATIONS, make_engine
from tests.factories import REPO, item

AT = datetime(2026, 8, 22, 9, tzinfo=UTC)
ASCEND, GAUDI = "vllm-project/vllm-ascend", "vllm-project/vllm-gaudi"


def test_a_correction_is_kept_once_with_who_said_it(store: Store) -> None:
    corrections = RadarCorrections.of_store(store)
    first = Correction(ASCEND, 3221, 24982, "slack:U1", AT)
    assert corrections.add(first) is True
    # The same pair again (another person, later): the first word stands.
    assert corrections.add(Correction(ASCEND, 3221, 24982, "discord:7", AT + timedelta(1))) is False
    later = Correction(GAUDI, 285, 24982, "cli", AT + timedelta(hours=1))
    assert corrections.add(later) is True
    assert corrections.of() == [first, later]
    assert corrections.of([GAUDI]) == [later]
    assert corrections.of(["vllm-project/vllm-spyre"]) == []
    # Kept in the store: a new process sees them.
    again = Store(store.url)
    try:
        assert RadarCorrections.of_store(again).of() == [first, later]
    finally:
        again.close()


def test_reverts_are_the_archived_prs_titled_revert_merged_since(store: Store) -> None:
    merged = AT - timedelta(days=30)

    def pr(number: int, title: str, days: float) -> ActivityItem:
        at = merged + timedelta(days=days)
        return item(number, "pr", title=title, merged_at=at, closed_at=at, created_at=at)

    reverting = pr(25500, 'Revert "[Model] Move the sampler (#24982)"', 2)
    bracketed = pr(25501, "[Revert] the sampler move", 3)
    store.items.save(
        [
            reverting,
            bracketed,
            pr(25502, "[Model] Revert-safe sampler", 4),  # says revert: the caller reads it
            pr(24000, 'Revert "[Core] An older one (#23000)"', -1),  # merged before
            pr(25503, "[Core] Move the sampler", 5),  # not a revert
            item(25504, "pr", title='Revert "x (#24982)"', created_at=merged),  # not merged
        ],
        AT,
    )
    found = Reverts.of_store(store).merged_since(REPO, merged)
    assert sorted(it.number for it in found) == [25500, 25501, 25502]
    assert next(it for it in found if it.number == 25500) == reverting
    assert Reverts.of_store(store).merged_since("other/repo", merged) == []


def test_an_older_store_gains_the_corrections_table(store_url: str) -> None:
    """A store at revision 0009 (before corrections) is upgraded in place by migration 0010."""
    engine = make_engine(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0009")
    engine.dispose()
    upgraded = Store(store_url)
    try:
        corrections = RadarCorrections.of_store(upgraded)
        assert corrections.add(Correction(ASCEND, 3221, 24982, "cli", AT))
        assert corrections.of() == [Correction(ASCEND, 3221, 24982, "cli", AT)]
    finally:
        upgraded.close()
