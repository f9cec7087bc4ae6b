"""What a store failure is, said in one sentence with what to do (`describe`), and the
names of a store for those sentences (`safe_url`, `sqlite_file`): apart from opening the
store (engine.py), so the sentences read whole."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import make_url
from sqlalchemy.exc import DBAPIError

from bot.model.errors import InputError, ServiceError

BUSY_SECONDS = 30.0  # how long a SQLite writer waits for another process's lock


class StoreError(ServiceError):
    """The database could not be opened or written; the message says which and why."""


class StoreUrlError(InputError):
    """DATABASE_URL is wrong (not a URL, an unknown driver, a file that is no database)."""


def describe(exc: BaseException, where: str, doing: str = "the store ({where}) failed") -> str:
    """One sentence for a database failure, with what to do about the common ones."""
    said = first_line(exc)
    low = said.lower()
    if any(words in low for words in ("database is locked", "table is locked", "lock timeout")):
        return (
            f"the store ({where}) stayed locked by another process longer than its wait "
            f"({BUSY_SECONDS:.0f} s by default); try again when the other run has finished"
        )
    if "readonly database" in low:  # SQLITE_READONLY: the file, its folder, its -wal/-shm
        return _read_only_file(where)
    if "read-only transaction" in low:  # PostgreSQL: a standby, or read-only by default
        return (
            f"the store's database ({where}) accepts no writes ({said}): it is a read-only "
            "standby or default_transaction_read_only is on; point DATABASE_URL at the primary "
            "server, or turn default_transaction_read_only off for this user and database"
        )
    denied = "permission denied for" in low and "permission denied for database" not in low
    if denied or "no schema has been selected" in low:
        return without_grants(where, said)  # PostgreSQL: a user without the store's grants
    if "malformed" in low or "not a database" in low or "file is encrypted" in low:
        return (
            f"the store ({where}) is damaged ({said}): restore it from a backup, or move it "
            "aside and the archive is fetched again from GitHub"
        )
    if "disk is full" in low or "no space left" in low:  # SQLITE_FULL, ENOSPC
        return (
            f"the disk holding the store ({where}) is full: free some space and run again "
            "(a write that did not fit was rolled back whole)"
        )
    if "disk i/o error" in low:  # SQLite's word when the disk refuses, full or failing
        return (
            f"the store ({where}) could not be read or written (disk I/O error): the disk "
            "is full or failing; free some space or check the disk, then run again"
        )
    if "does not exist" in low and "database" in low:
        return f"the store's database is gone ({where}): {said}"
    if "unable to open database file" in low:  # SQLite: the folder is missing or not ours
        return (
            f"cannot open the SQLite store ({where}): its folder must exist and be writable "
            f"by this user (uid {os.getuid()}; in Docker the image's user is 10001: "
            "`chown 10001` the host folder you mount, or use a named volume)"
        )
    return f"{doing.format(where=where)}: {said}"


def _read_only_file(where: str) -> str:
    """SQLite may not write the store: the file, or the folder it keeps -wal and -shm in."""
    path = sqlite_file(where)
    if path is None:  # a `uri=true` URL: SQLite reads the path itself
        return (
            f"the store ({where}) cannot be written (a read-only file or folder): give the "
            f"bot's user (uid {os.getuid()}) write access to the file and its folder"
        )
    folder = path.resolve().parent
    return (
        f"the store {path} cannot be written (a read-only file or folder): give the bot's "
        f"user (uid {os.getuid()}) write access to it and to its folder {folder}, where "
        "SQLite keeps its -wal and -shm files"
    )


def without_grants(where: str, said: str) -> str:
    """PostgreSQL refused the user DATABASE_URL names a privilege the store needs."""
    user = _pg_user(where)
    if "schema" in said.lower():  # PostgreSQL 15 gives no one but the owner CREATE on public
        return (
            f"the store ({where}) cannot be made or read there ({said}): let {user} use the "
            f"schema and create tables in it (GRANT USAGE, CREATE ON SCHEMA public TO {user}), "
            "or have the database's owner run vllm-report doctor once to create the store"
        )
    return (
        f"the store ({where}) refused a write ({said}): grant {user} the store's tables "
        f"(GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {user}; "
        f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {user}), or use the user that "
        "created them"
    )


def _pg_user(where: str) -> str:
    try:
        user = make_url(where).username
    except Exception:  # a URL SQLAlchemy cannot read would not have connected
        user = None
    return user or "the user DATABASE_URL names"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None: not SQLite, in memory, or a `uri=true` URL)."""
    if not url.startswith("sqlite") or "uri=true" in url.lower() or "///" not in url:
        return None
    path = url.split("///", 1)[-1].split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path)


def safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        creds, _, host = rest.rpartition("@")
        user = creds.split(":", 1)[0]
        return f"{scheme}{sep}{user}:***@{host}"
    return url


def first_line(exc: BaseException) -> str:
    inner = exc.orig if isinstance(exc, DBAPIError) else None
    text_ = str(inner or exc).strip()
    return text_.splitlines()[0] if text_ else type(exc).__name__
