"""Replicas started together on one database: every one opens it, the schema ends at head.

They used to race to create the schema (SQLite: "table items already exists", or the empty
file another opener had just made refused; PostgreSQL: a duplicate `pg_type` row) and the
losers stopped. The openers here are released together by a barrier (threads) or by one
word on their standard input once every process has imported the store.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import inspect

from bot.store import Store
from bot.store.engine import MIGRATIONS, current_revision, make_engine
from bot.store.schema import HEAD_REVISION, Base

ROOT = Path(__file__).resolve().parents[2]
OPENERS = 8
PROCESSES = 4
STUCK = 120.0  # seconds after which an opener counts as hung (the old code could deadlock)


def open_together(url: str, count: int = OPENERS) -> list[BaseException | str]:
    """`count` threads opening `url` at once; what each one raised, and "hung" for each one
    still opening long after (daemon threads: a hung one cannot stop the test run)."""
    barrier = threading.Barrier(count)
    raised: list[BaseException | str] = []

    def one() -> None:
        barrier.wait()
        try:
            Store(url).close()
        except BaseException as exc:  # every failure is the finding, whatever its kind
            raised.append(exc)

    threads = [threading.Thread(target=one, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(STUCK)
    return raised + ["hung" for thread in threads if thread.is_alive()]


def assert_at_head(url: str) -> None:
    engine = make_engine(url)
    with engine.connect() as connection:
        revision = current_revision(connection)
        tables = set(inspect(connection).get_table_names())
    engine.dispose()
    assert revision == HEAD_REVISION
    assert tables == set(Base.metadata.tables) | {"alembic_version"}


@pytest.mark.parametrize("trial", range(3))
def test_openers_of_an_empty_database_started_together_all_succeed(
    store_url: str, trial: int
) -> None:
    assert open_together(store_url) == []
    assert_at_head(store_url)


def test_a_new_sqlite_store_leaves_nothing_beside_it(tmp_path: Path) -> None:
    """The store is made under a temporary name and linked into place: none is left over."""
    assert open_together(f"sqlite:///{tmp_path / 'store.sqlite3'}") == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.sqlite3"]


def test_openers_of_an_older_schema_started_together_all_succeed(store_url: str) -> None:
    """Every one finds revision 0001; one upgrades it while the others wait, then see head."""
    from alembic import command
    from alembic.config import Config

    engine = make_engine(store_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    engine.dispose()
    assert open_together(store_url) == []
    assert_at_head(store_url)


# A replica's start as far as the schema goes: import, say so, wait for the word, open.
OPENER = """
import sys
from bot.store import Store
print("ready", flush=True)
sys.stdin.readline()
Store(sys.argv[1]).close()
"""


def test_replica_processes_started_together_all_succeed(store_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, store_url],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    try:
        for opener in openers:  # all of them imported and waiting before any is released
            assert opener.stdout is not None and opener.stdout.readline() == "ready\n"
        for opener in openers:
            assert opener.stdin is not None
            opener.stdin.write("go\n")
            opener.stdin.flush()
        errors = [opener.communicate(timeout=STUCK)[1] for opener in openers]
    finally:
        for opener in openers:  # none outlives the test, whatever happened
            if opener.poll() is None:
                opener.kill()
                opener.wait()
    assert [opener.returncode for opener in openers] == [0] * PROCESSES, errors
    assert_at_head(store_url)


def test_a_schema_lock_held_too_long_is_one_sentence() -> None:
    """PostgreSQL gives up on the schema lock after the wait SQLite has (lock_timeout)."""
    from bot.store.engine import describe

    said = describe(RuntimeError("canceling statement due to lock timeout"), "postgresql://db")
    assert said.startswith("the store (postgresql://db) stayed locked by another process")
    assert said.endswith("try again when the other run has finished")
