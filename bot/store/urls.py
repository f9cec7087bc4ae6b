"""Which URLs and files can hold the store, refused in one sentence before anything is
opened: a SQLite URL that cannot keep it (in memory, read-only, options SQLite would
ignore), a path holding something else or another program's database; and the driver a
PostgreSQL URL is opened with."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import make_url

from bot.store.failures import StoreError, StoreUrlError, safe_url
from bot.store.schema import Base

SQLITE_MAGIC = b"SQLite format 3\x00"
VERSION_TABLE = "alembic_version"
# The URL schemes read as PostgreSQL, and the driver they are opened with (psycopg 3).
POSTGRES_SCHEMES = ("postgres://", "postgresql://")
POSTGRES_DRIVER = "postgresql+psycopg://"
# The query options SQLAlchemy's SQLite driver reads itself; any other one it ignores (with a
# warning) unless `uri=true` hands it to SQLite.
SQLITE_DRIVER_OPTIONS = frozenset(
    {"uri", "timeout", "isolation_level", "detect_types", "check_same_thread", "cached_statements"}
)
# The store as a file, for the sentences that refuse a URL which cannot keep it.
EXAMPLE_URL = "sqlite:////data/vllm-report.sqlite3"


def check_sqlite_url(url: str) -> None:
    """Refuse a SQLite URL that cannot keep the store, or whose options would be ignored
    (StoreUrlError, one sentence). Before SQLAlchemy reads it: it would warn, in its own
    words, of an option it ignores (`?mode=ro` without `uri=true`), and carry on writing."""
    try:
        parsed = make_url(url)
    except Exception:
        return  # not a URL SQLAlchemy reads: the opening says so
    shown = safe_url(url)
    options = {key.lower(): str(value).lower() for key, value in parsed.query.items()}
    uri = options.get("uri") in ("true", "1", "yes", "on")
    database = parsed.database or ""
    named = database.removeprefix("file:").split("?", 1)[0] if uri else database
    if named in ("", ":memory:") or options.get("mode") == "memory":
        raise StoreUrlError(
            f"DATABASE_URL={shown} keeps nothing across restarts (an in-memory or temporary "
            "SQLite database), so the delivery ledger would be lost and a post could be sent "
            f"twice: name a file, e.g. {EXAMPLE_URL}, or unset DATABASE_URL to keep the store "
            "in the data folder"
        )
    immutable = options.get("immutable") in ("1", "true", "yes", "on")
    if options.get("mode") == "ro" or immutable:
        option = f"immutable={options['immutable']}" if immutable else "mode=ro"
        raise StoreUrlError(
            f"DATABASE_URL={shown} opens the store read-only, but every command writes to it "
            f"(the archive it fetches, the delivery ledger): remove {option} from "
            "DATABASE_URL, and make the file writable by the bot's user"
        )
    if uri and not database.startswith("file:"):
        raise StoreUrlError(
            f"DATABASE_URL={shown} has uri=true but its path does not begin with file:, so "
            "SQLite would take its options for part of the file name: write "
            "sqlite:///file:/path/to/file.sqlite3?uri=true&…, or leave uri=true out"
        )
    ignored = sorted(set(options) - SQLITE_DRIVER_OPTIONS)
    if ignored and not uri:
        raise StoreUrlError(
            f"DATABASE_URL={shown} has the option(s) {', '.join(ignored)}, which SQLite "
            "ignores without uri=true: remove them (the store needs none)"
        )


def driver_url(url: str) -> str:
    """`url` with the driver the project uses: `postgres://` (Heroku, Render, Supabase) and
    `postgresql://` are PostgreSQL through psycopg 3; other URLs are kept as written."""
    for scheme in POSTGRES_SCHEMES:
        if url.startswith(scheme):
            return POSTGRES_DRIVER + url.removeprefix(scheme)
    return url


def check_sqlite_file(path: Path, url: str) -> None:
    """Refuse a path that holds something other than a SQLite database: SQLite would turn an
    empty file into a database and fail later on any other, and neither is what was meant.
    Refuse another program's SQLite database too: the store's tables would be made beside
    its own, in silence."""
    if path.is_dir():
        raise StoreUrlError(f"DATABASE_URL names {path}, which is a folder: name a file in it")
    if not path.exists():
        return
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot read the store ({safe_url(url)}): {exc.strerror}") from None
    if head != SQLITE_MAGIC:
        what = "an empty file" if not head else "a file that is not a SQLite database"
    elif _is_another_programs(path):
        what = "a SQLite database of another program (none of its tables is the store's)"
    else:
        return
    raise StoreUrlError(
        f"DATABASE_URL names {path}, {what}; refusing to touch it: point DATABASE_URL "
        "at a new file name (or at an existing store)"
    )


def _is_another_programs(path: Path) -> bool:
    """The SQLite database at `path` holds tables and none of them is the store's (any
    revision's store holds `items`, made by the first migration).

    Read before the engine connects: its first connection switches the file to WAL, which
    rewrites the header of a database that is not ours. Read-only, and `immutable` unless a
    WAL file is beside it (then its tables may still be there, and a reader needs its -shm):
    a read-only reader of a WAL database would otherwise leave -wal and -shm files beside
    another program's. A file SQLite cannot read here is left for the opening to report
    (damaged, locked, not permitted)."""
    mode = "mode=ro" if path.with_name(path.name + "-wal").exists() else "immutable=1"
    try:
        connection = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
    except sqlite3.Error:
        return False
    try:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = {str(row[0]) for row in rows} - {VERSION_TABLE}
    except sqlite3.Error:
        return False
    finally:
        connection.close()
    tables = {name for name in tables if not name.startswith("sqlite_")}  # SQLite's own
    return bool(tables) and not tables & set(Base.metadata.tables)
