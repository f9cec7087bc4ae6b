"""A SQLite file that is a database, but another program's: refused and left as it was.

It used to be taken over in silence (the store's 23 tables created beside the other
program's own). An empty database or a new path still becomes a store, and a store of our
own at any older revision is still upgraded (tests/store/test_store.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store
from tests.cli_run import one_sentence, run
from tests.factories import REPO, item
from tests.fakes.github_api import FakeGitHub


def line(out: str, name: str) -> str:
    """doctor's line for the check `name`, failed."""
    found = [row for row in out.splitlines() if row.startswith(f"✗ {name} ")]
    assert len(found) == 1, out
    return found[0]


def another_programs_database(path: Path, journal: str) -> bytes:
    """A small database of some other application (a notes app), closed: its bytes."""
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA journal_mode={journal}")
    connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    connection.execute("CREATE TABLE tags (note INTEGER, tag TEXT)")
    connection.execute("INSERT INTO notes (body) VALUES ('buy milk')")
    connection.commit()
    connection.close()
    return path.read_bytes()


@pytest.mark.parametrize("journal", ["delete", "wal"])
@pytest.mark.parametrize("command", [["show", "2026-03-26", "--counts-only"], ["doctor"]])
def test_another_programs_sqlite_database_is_refused_untouched(
    journal: str,
    command: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
    fake_github: FakeGitHub,
) -> None:
    """One sentence naming the file, exit 2 (a wrong setting), and the file byte-identical:
    not even SQLite's WAL switch (which rewrites the header) may reach it."""
    path = clean_env / "notes.db"
    before = another_programs_database(path, journal)
    beside = sorted(clean_env.glob("notes.db*"))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    code, out, err = run(capsys, *command)
    # `show` says its sentence; `doctor` marks its store line (and every other one passes).
    said = one_sentence(err) if command[0] == "show" else line(out, "store")
    assert code == 2, out + err
    assert f"DATABASE_URL names {path}, a SQLite database of another program" in said
    assert "refusing to touch it" in said
    assert path.read_bytes() == before
    assert sorted(clean_env.glob("notes.db*")) == beside  # no -wal, -shm left beside it
    assert "Traceback" not in out + err


def test_an_empty_sqlite_database_still_becomes_a_store(tmp_path: Path) -> None:
    """A database with no table yet (`sqlite3 store.db 'VACUUM'`) is anyone's to fill."""
    path = tmp_path / "empty.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE scratch (x)")
    connection.execute("DROP TABLE scratch")  # a whole header, and no table
    connection.commit()
    connection.close()
    store = Store(f"sqlite:///{path}")
    try:
        store.items.save([item(1)], item(1).created_at)
        assert store.items.get(REPO, 1) is not None
    finally:
        store.close()
