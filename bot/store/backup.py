"""`vllm-report backup FILE`: a copy of the store taken while `serve` may be running.

- SQLite: SQLite's online backup API (`sqlite3.Connection.backup`), in one step, so the copy
  is one consistent moment of the store even while the bot writes (a plain `cp` of a WAL
  database may miss what is still in `-wal`, or catch a page half-written). The copy is
  checked with `PRAGMA quick_check` before it is put in place.
- PostgreSQL: `pg_dump --format=custom` (restore with `pg_restore`), the password handed over
  in the environment, never on its command line (where `ps` would show it).

The copy is written under a temporary name beside FILE and put in place only when whole, so
a failed or interrupted backup never leaves a half-written FILE (nor replaces a good one).
An existing FILE is kept unless `force`. Restoring is in docs/backup-and-upgrade.md.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import sqlite3
import subprocess
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import URL, make_url

from bot.model.errors import InputError
from bot.store.engine import missing_database
from bot.store.failures import BUSY_SECONDS, StoreError, describe, safe_url, sqlite_file
from bot.store.integrity import sqlite_damage
from bot.store.urls import POSTGRES_DRIVER, check_sqlite_file, driver_url


class BackupError(InputError):
    """FILE cannot be used (it exists, it is a folder, its folder is missing): exit status 2."""


@dataclass(frozen=True)
class Backup:
    source: str  # the store's URL, without its password
    path: Path
    size: int  # bytes
    how: str  # "SQLite online backup, quick_check ok" or "pg_dump, custom format"
    revision: str | None  # the schema revision the copy holds (None: not read)

    def summary(self) -> str:
        revision = f", schema revision {self.revision}" if self.revision else ""
        return (
            f"backed up the store ({self.source}) to {self.path}: {_size(self.size)}, "
            f"{self.how}{revision}"
        )


def backup(url: str, target: Path, *, force: bool = False) -> Backup:
    """Copy the store `url` names to `target`; BackupError if `target` cannot be used,
    StoreError if the copy fails."""
    _check_target(target, force)
    if url.startswith("sqlite"):
        return _sqlite_backup(url, target, force)
    if driver_url(url).startswith(POSTGRES_DRIVER):
        return _pg_backup(url, target, force)
    raise BackupError(
        f"cannot back up {safe_url(url)}: `backup` knows SQLite and PostgreSQL stores only"
    )


def _check_target(target: Path, force: bool) -> None:
    if target.is_dir():
        raise BackupError(f"{target} is a folder: name a file in it, e.g. {target / 'store.bak'}")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists: name a new file, or add --force to replace it")
    if not target.parent.is_dir():
        raise BackupError(
            f"the folder {target.parent} does not exist: create it, or name a file in a "
            "folder that exists"
        )


def _sqlite_backup(url: str, target: Path, force: bool) -> Backup:
    path = sqlite_file(url)
    where = safe_url(url)
    if path is None:
        raise BackupError(f"the store ({where}) is not a file on disk: there is nothing to copy")
    if not path.is_file():
        raise BackupError(
            f"there is no store at {path} to back up: check VLLM_REPORT_DATA_DIR or DATABASE_URL"
        )
    check_sqlite_file(path, url)
    if target.resolve() == path.resolve():
        raise BackupError(f"{target} is the store itself: name another file")
    temp = _temp_beside(target)
    try:
        _copy_sqlite(path, temp, where)
        damage = sqlite_damage(temp)
        if damage is not None:  # the store itself is damaged: its copy says so
            raise StoreError(
                f"the store ({where}) is damaged ({damage}): its copy was not kept; restore "
                "an earlier backup"
            )
        revision = _sqlite_revision(temp)
        _put_in_place(temp, target, force)
    finally:
        _remove(temp)
    return Backup(
        where, target, target.stat().st_size, "SQLite online backup, quick_check ok", revision
    )


def _copy_sqlite(path: Path, temp: Path, where: str) -> None:
    """The whole store, in one step of the online backup API (one consistent moment)."""
    source = destination = None
    try:
        # mode=rw: never create the store (a plain connect would make an empty file).
        source = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=BUSY_SECONDS
        )
        destination = sqlite3.connect(temp)
        source.backup(destination)
        # A single file: the copy needs no -wal beside it to be read or restored.
        destination.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        if "disk is full" in str(exc).lower():  # the copy did not fit: the backup's disk
            raise StoreError(
                f"the disk holding the backup ({temp.parent}) is full: free some space there "
                "or name a folder on another disk"
            ) from None
        raise StoreError(describe(exc, where, "cannot back up the store ({where})")) from None
    except OSError as exc:
        raise StoreError(
            f"cannot write the backup beside {temp.parent} ({exc.strerror or exc}): make the "
            "folder writable by this user or name another"
        ) from None
    finally:
        for connection in (destination, source):
            if connection is not None:
                connection.close()


def _sqlite_revision(path: Path) -> str | None:
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.Error:
        return None
    finally:
        connection.close()
    return str(row[0]) if row else None


def _pg_backup(url: str, target: Path, force: bool) -> Backup:
    where = safe_url(url)
    program = shutil.which("pg_dump")
    if program is None:
        raise StoreError(
            "pg_dump is not installed, and a PostgreSQL store is backed up with it: install "
            "the PostgreSQL client of the server's major version or newer (Debian: apt-get "
            "install postgresql-client), or run pg_dump where it is"
        )
    parsed = make_url(driver_url(url))
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    dbname = URL.create(
        "postgresql",
        username=parsed.username,
        host=parsed.host,
        port=parsed.port,
        database=parsed.database,
        query=parsed.query,
    ).render_as_string(hide_password=False)
    temp = _temp_beside(target)
    try:
        done = subprocess.run(  # noqa: S603 (pg_dump from PATH, arguments of our own)
            [program, "--format=custom", "--no-password", f"--file={temp}", f"--dbname={dbname}"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            said = missing_database(done.stderr, parsed)
            raise StoreError(said or _pg_dump_failed(where, done.stderr))
        _put_in_place(temp, target, force)
    except OSError as exc:
        raise StoreError(
            f"cannot write the backup {target} ({exc.strerror or exc}): make its folder "
            "writable by this user or name another"
        ) from None
    finally:
        _remove(temp)
    return Backup(where, target, target.stat().st_size, "pg_dump, custom format", None)


def _pg_dump_failed(where: str, stderr: str) -> str:
    """One sentence for a failed pg_dump: its first error line, and the usual fix."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")
    said = re.sub(r"^pg_dump: (error: )?", "", said) or "no reason given"
    if "version mismatch" in said:
        return (
            f"pg_dump cannot back up the store ({where}): {said}; install a pg_dump of the "
            "server's major version or newer"
        )
    return f"pg_dump cannot back up the store ({where}): {said}"


def _temp_beside(target: Path) -> Path:
    return target.with_name(f".{target.name}.partial-{os.getpid()}-{secrets.token_hex(4)}")


def _put_in_place(temp: Path, target: Path, force: bool) -> None:
    """`temp` becomes `target`: replacing it only with `force`, never a file that appeared
    meanwhile otherwise (a hard link fails if the name is taken)."""
    if force:
        os.replace(temp, target)
        return
    try:
        os.link(temp, target)
    except FileExistsError:
        raise BackupError(
            f"{target} already exists: name a new file, or add --force to replace it"
        ) from None
    except OSError:  # no hard links on this file system
        if target.exists():
            raise BackupError(
                f"{target} already exists: name a new file, or add --force to replace it"
            ) from None
        os.replace(temp, target)


def _remove(temp: Path) -> None:
    for leftover in (temp, *(temp.with_name(temp.name + s) for s in ("-wal", "-shm", "-journal"))):
        with suppress(FileNotFoundError):
            leftover.unlink()


def _size(size: int) -> str:
    if size < 1000:
        return f"{size} bytes"
    amount = size / 1000
    for unit in ("kB", "MB"):
        if amount < 1000:
            return f"{amount:.1f} {unit}"
        amount /= 1000
    return f"{amount:.1f} GB"
