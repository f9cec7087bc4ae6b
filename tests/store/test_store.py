"""The archive on SQLite and PostgreSQL: items, coverage spans and the sync cursor."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect

from bot.store import Span, Store, StoreError, subtract_spans
from bot.store.engine import MIGRATIONS, make_engine
from bot.store.items import _to_row
from bot.store.schema import ItemRow
from tests.factories import REPO, item

T0 = datetime(2026, 3, 26, 3, 45, tzinfo=UTC)
HOUR = timedelta(hours=1)


def test_items_round_trip_with_aware_times(store: Store) -> None:
    """What is saved comes back equal, datetimes timezone-aware in UTC."""
    saved = item(
        38212,
        "pr",
        created_at=T0 + HOUR,
        closed_at=T0 + 2 * HOUR,
        merged_at=T0 + 2 * HOUR,
        labels=("bug", "rocm"),
        title="[ROCm] 中文 and emoji 🚀",
    )
    store.items.save([saved], T0)
    (loaded,) = store.items.touching(REPO, Span(T0, T0 + 24 * HOUR))
    assert loaded == saved
    assert loaded.created_at.tzinfo is not None


def test_comment_threads_keep_who_said_what(store: Store) -> None:
    """A thread's comments come back in order with their bodies (what prose may say the
    discussion argued), Chinese and emoji included."""
    from bot.model.report import CommentRecord

    said = [
        CommentRecord(REPO, 37975, 2, "yma11", "MEMBER", T0 + 2 * HOUR, "应传入 `x=True`？🚀"),
        CommentRecord(REPO, 37975, 1, "wxsIcey", "CONTRIBUTOR", T0 + HOUR, "Tested on XPU."),
    ]
    store.threads.save(REPO, 37975, said, T0, T0 + 3 * HOUR)
    assert store.threads.of(REPO, [37975, 1]) == {37975: [said[1], said[0]]}


def test_newer_view_of_an_item_replaces_the_older(store: Store) -> None:
    """Re-collecting an item updates it (closed since); an older view does not win."""
    opened = item(1, created_at=T0 + HOUR)
    closed = item(1, created_at=T0 + HOUR, closed_at=T0 + 3 * HOUR, labels=("stale",))
    store.items.save([opened], T0)
    store.items.save([closed], T0)
    store.items.save([opened], T0)  # a stale copy arriving late
    (loaded,) = store.items.touching(REPO, Span(T0, T0 + 24 * HOUR))
    assert loaded.closed_at == T0 + 3 * HOUR
    assert loaded.labels == ("stale",)
    assert len(store.items.touching(REPO, Span(T0, T0 + 24 * HOUR))) == 1


def test_items_touching_finds_creations_and_closures_only_inside(store: Store) -> None:
    """An item created long before but closed inside the span is found; others are not."""
    span = Span(T0, T0 + 24 * HOUR)
    store.items.save(
        [
            item(1, created_at=T0 - 30 * HOUR, closed_at=T0 + HOUR),
            item(2, created_at=T0 - 30 * HOUR),
            item(3, created_at=span.end),
            item(4, created_at=span.end - timedelta(seconds=1)),
        ],
        T0,
    )
    found = {it.number for it in store.items.touching(REPO, span)}
    assert found == {1, 4}


def test_coverage_merges_and_reports_gaps(store: Store) -> None:
    """Adjacent spans merge; what is not covered is returned as gaps."""
    store.coverage.add(REPO, Span(T0, T0 + 2 * HOUR), "search", T0)
    store.coverage.add(REPO, Span(T0 + 2 * HOUR, T0 + 4 * HOUR), "sync", T0)
    store.coverage.add(REPO, Span(T0 + 6 * HOUR, T0 + 8 * HOUR), "search", T0)
    assert store.coverage.spans(REPO) == [
        Span(T0, T0 + 4 * HOUR),
        Span(T0 + 6 * HOUR, T0 + 8 * HOUR),
    ]
    assert store.coverage.gaps(REPO, Span(T0 + HOUR, T0 + 10 * HOUR)) == [
        Span(T0 + 4 * HOUR, T0 + 6 * HOUR),
        Span(T0 + 8 * HOUR, T0 + 10 * HOUR),
    ]
    assert store.coverage.gaps("other/repo", Span(T0, T0 + HOUR)) == [Span(T0, T0 + HOUR)]


def test_cursor_and_data_survive_a_restart(store_url: str) -> None:
    """A new process opening the same database sees the cursor and the items."""
    first = Store(store_url)
    first.items.save([item(5, created_at=T0)], T0)
    first.coverage.set_cursor(REPO, T0 + HOUR, T0)
    first.close()
    second = Store(store_url)  # runs the migrations again: a no-op
    assert second.coverage.cursor(REPO) == T0 + HOUR
    assert second.items.get(REPO, 5) is not None
    second.coverage.set_cursor(REPO, T0 + 2 * HOUR, T0)
    assert second.coverage.cursor(REPO) == T0 + 2 * HOUR
    second.close()


def test_subtract_spans_edge_cases() -> None:
    """Coverage that starts before and ends after the wanted span leaves no gap."""
    wanted = Span(T0, T0 + HOUR)
    assert subtract_spans(wanted, [Span(T0 - HOUR, T0 + 2 * HOUR)]) == []
    assert subtract_spans(wanted, []) == [wanted]
    assert subtract_spans(wanted, [Span(T0 + 2 * HOUR, T0 + 3 * HOUR)]) == [wanted]


def test_unreachable_database_is_one_clear_error() -> None:
    """A wrong DATABASE_URL names the server, hides the password, and says what failed."""
    with pytest.raises(StoreError) as caught:
        Store("postgresql+psycopg://bot:hunter2@127.0.0.1:1/nothing")
    message = str(caught.value)
    assert "cannot open the store" in message
    assert "hunter2" not in message
    assert "127.0.0.1:1" in message


def test_an_older_schema_is_upgraded_in_place(store_url: str) -> None:
    """A database left at the first revision gains the new tables and keeps its items."""
    engine = make_engine(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
        connection.execute(ItemRow.__table__.insert().values(_to_row(item(7, created_at=T0), T0)))
    engine.dispose()

    upgraded = Store(store_url)
    assert upgraded.items.get(REPO, 7) is not None
    tables = set(inspect(upgraded.engine).get_table_names())
    assert {"comments", "comment_fetches", "prose_cache"} <= tables
    upgraded.close()


def test_the_recorded_head_is_alembics_head() -> None:
    """The fast start-up check compares with a constant: it must be the newest revision."""
    from alembic.script import ScriptDirectory

    from bot.store.schema import HEAD_REVISION

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD_REVISION


def test_a_new_store_equals_one_built_by_every_migration(store_url: str) -> None:
    """A new database is created from the schema and stamped; Alembic finds nothing to add."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bot.store.schema import HEAD_REVISION, Base

    Store(store_url).close()  # created from the declarative schema, stamped
    engine = make_engine(store_url)
    with engine.connect() as connection:
        revision = MigrationContext.configure(connection).get_current_revision()
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        tables = set(inspect(connection).get_table_names())
    engine.dispose()
    assert revision == HEAD_REVISION
    assert diff == []
    assert tables == set(Base.metadata.tables) | {"alembic_version"}


def test_migrations_build_what_the_schema_declares(tmp_path: Path) -> None:
    """Running every migration on an empty database gives the declared schema, no more."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from bot.store.engine import upgrade
    from bot.store.schema import Base

    engine = make_engine(f"sqlite:///{tmp_path / 'migrated.sqlite3'}")
    upgrade(engine)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert diff == []


def test_a_sqlite_file_that_cannot_be_opened_says_what_to_fix() -> None:
    """SQLite says only "unable to open database file" (a folder not ours, as with a host
    folder mounted into the image, whose user is 10001): the sentence says what to do."""
    import sqlite3

    from bot.store.engine import describe

    said = describe(sqlite3.OperationalError("unable to open database file"), "/data/x.sqlite3")
    assert said.startswith("cannot open the SQLite store (/data/x.sqlite3)")
    assert "chown 10001" in said


def test_a_full_disk_at_start_is_said_so(tmp_path: Path) -> None:
    """A store that cannot grow (SQLite's own "database or disk is full", here from a page
    limit on every connection, as a full disk gives it) is said as a full disk and what to
    do, not as a database failure."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def no_room(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA max_page_count = 1")

    event.listen(Engine, "connect", no_room)
    try:
        with pytest.raises(StoreError) as caught:
            Store(f"sqlite:///{tmp_path}/vllm-report.sqlite3")
    finally:
        event.remove(Engine, "connect", no_room)
    said = str(caught.value)
    assert "is full: free some space and run again" in said, said
    assert str(tmp_path) in said  # which disk
