"""Is the store whole? SQLite's `PRAGMA quick_check`, for `doctor` and for a fresh backup.

Opening a store reads only its schema revision, so a damaged page elsewhere (a disk that
failed, a copy made while the bot wrote without the backup API) shows only when a report
reads it. `quick_check` reads every page and checks its structure (not the indexes against
their tables: that is `integrity_check`, much slower on a big archive). PostgreSQL keeps its
own pages whole; it is not checked here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store.failures import BUSY_SECONDS, StoreError, describe, sqlite_file

SHOWN = 3  # what SQLite found, at most this many of its lines


def sqlite_damage(path: Path, busy_seconds: float = BUSY_SECONDS) -> str | None:
    """What `PRAGMA quick_check` finds wrong with the SQLite file at `path` (None: whole).

    A file another process keeps locked past the wait is a StoreError, not damage."""
    connection = None
    try:
        connection = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=busy_seconds
        )
        rows = [str(row[0]) for row in connection.execute("PRAGMA quick_check")]
    except sqlite3.Error as exc:  # damage bad enough that the check itself cannot read on
        if "locked" in str(exc).lower():
            raise StoreError(describe(exc, f"sqlite:///{path}")) from None
        return str(exc)
    finally:
        if connection is not None:
            connection.close()
    if rows == ["ok"]:
        return None
    more = f" (and {len(rows) - SHOWN} more)" if len(rows) > SHOWN else ""
    return "; ".join(rows[:SHOWN]) + more


def store_damage(url: str) -> str | None:
    """`sqlite_damage` of the store `url` names (None: whole, or not a SQLite file)."""
    path = sqlite_file(url)
    if path is None or not path.is_file():
        return None
    return sqlite_damage(path)
