"""Opening a database: engine options per backend, the schema brought to date, error text.

Alembic is the schema's source of truth, but importing it and walking its revisions costs
about half a second, so opening a store first reads the recorded revision with one query:
- at the newest revision (every start after the first): nothing more to do;
- an empty database: the tables are created from the declarative schema and stamped with
  the newest revision in one transaction (a test proves this equals running every migration);
- an older revision: Alembic upgrades it.

Replicas started together on one empty database must not race to create it (one of them
used to fail with "table already exists"), so creating and upgrading happen under a lock
held to the end of the transaction, and the revision is read again once it is held: on
PostgreSQL an advisory lock, on SQLite the write lock (`BEGIN IMMEDIATE`). A new SQLite file
is made under a temporary name and linked into place when whole, so no opener ever finds the
empty file SQLite makes on its first connection (which `check_sqlite_file` refuses).

Two things an operator meets on a second day are said as what they are, before Alembic or
the driver speaks: a PostgreSQL database that does not exist yet ("create it", not "gone"),
and a store written by a newer vllm-report (a revision this version's migrations do not
hold: upgrade, or restore the backup taken before; Alembic would say "Can't locate
revision"). `postgres://` URLs (Heroku, Render, Supabase) and `postgresql://` ones without a
driver are PostgreSQL through psycopg 3, the driver the project installs.

A SQLite URL that cannot keep the store is refused before anything is opened
(`check_sqlite_url`): one in memory (`sqlite://`, `:memory:`) loses the delivery ledger at
every restart, so a post could be sent twice; a read-only one (`mode=ro`) cannot take the
archive and the ledger every command writes. A store the bot may not write (a read-only file
or folder, a PostgreSQL user without the grants or a read-only server) fails its writes with
one sentence on what to change (`describe`); `check_writable` (for `doctor`) finds it by a
write it rolls back.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from bot.store.failures import (
    BUSY_SECONDS,
    StoreError,
    StoreUrlError,
    describe,
    first_line,
    safe_url,
    sqlite_file,
    without_grants,
)
from bot.store.schema import HEAD_REVISION, Base
from bot.store.urls import (
    VERSION_TABLE,
    check_sqlite_file,
    check_sqlite_url,
    driver_url,
)

__all__ = [  # what the rest of the store and its tests import from here
    "BUSY_SECONDS",
    "MIGRATIONS",
    "StoreError",
    "StoreUrlError",
    "Transactions",
    "describe",
    "driver_url",
    "make_engine",
    "safe_url",
    "sqlite_file",
]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
WRITE_ATTEMPTS = 3
# The PostgreSQL advisory lock openers take to create or upgrade the schema; any constant
# no other program on the database uses (advisory locks are per database).
SCHEMA_LOCK = 0x766C6C6D5F736368  # "vllm_sch"
_MISSING_DATABASE = re.compile(r'database "(?P<name>[^"]+)" does not exist')
T = TypeVar("T")


class Transactions:
    """Short transactions on one engine; a database failure becomes one StoreError sentence.

    An IntegrityError passes through only to callers that ask for it (`conflicts=True`): they
    use a unique constraint on purpose (a second subscription). A write that may race the
    same write in another process goes through `write`, which runs it again after a unique
    conflict (the second time it sees the other's rows).
    """

    def __init__(self, engine: Engine, url: str) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._where = safe_url(url)

    @contextmanager
    def begin(self, *, conflicts: bool = False) -> Iterator[Session]:
        try:
            with self._sessions.begin() as session:
                yield session
        except IntegrityError as exc:
            if conflicts:
                raise
            raise StoreError(
                f"the store ({self._where}) refused a write: {first_line(exc)}"
            ) from exc
        except SQLAlchemyError as exc:
            raise StoreError(describe(exc, self._where)) from exc

    def write(self, work: Callable[[Session], T]) -> T:
        """`work` in one transaction, run again if another process wrote the same rows first."""
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                with self.begin(conflicts=True) as session:
                    return work(session)
            except IntegrityError as exc:
                if attempt == WRITE_ATTEMPTS:
                    raise StoreError(
                        f"the store ({self._where}) kept refusing a write: {first_line(exc)}"
                    ) from exc
        raise AssertionError("unreachable")  # pragma: no cover


def check_writable(engine: Engine, url: str) -> None:
    """The store takes a write: one that changes nothing, rolled back (StoreError if not).

    Opening a store at the newest revision only reads, so a read-only file, a folder SQLite
    cannot put its -wal file in, a PostgreSQL user without the grants or a read-only server
    would show only at the first write of a report or a post. On SQLite a write to one page
    proves the whole file; on PostgreSQL each table's privileges are asked first (a user may
    hold some and not others), then a write proves the server takes writes."""
    where = safe_url(url)
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock, as a write takes
            elif connection.dialect.name == "postgresql":
                lock = f"SET LOCAL lock_timeout = '{int(BUSY_SECONDS * 1000)}ms'"
                connection.execute(text(lock))
                _check_grants(connection, where)
            connection.execute(text("UPDATE alembic_version SET version_num = version_num"))
            connection.rollback()
    except SQLAlchemyError as exc:
        raise StoreError(describe(exc, where)) from exc


_MISSING_GRANTS = text(
    """
    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND (
        (c.relkind IN ('r', 'p') AND NOT (
            has_table_privilege(c.oid, 'SELECT') AND has_table_privilege(c.oid, 'INSERT')
            AND has_table_privilege(c.oid, 'UPDATE') AND has_table_privilege(c.oid, 'DELETE')))
        OR (c.relkind = 'S' AND NOT has_sequence_privilege(c.oid, 'USAGE')))
    ORDER BY c.relname
    """
)


def _check_grants(connection: Connection, where: str) -> None:
    """Each table and sequence of the store's schema this user may read and write."""
    missing = [str(row[0]) for row in connection.execute(_MISSING_GRANTS)]
    if not missing:
        return
    more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
    said = f"permission denied for {', '.join(missing[:3])}{more}"
    raise StoreError(without_grants(where, said))


def open_engine(url: str, busy_seconds: float = BUSY_SECONDS) -> Engine:
    """An engine for `url` with its schema at the newest revision."""
    engine = make_engine(url, busy_seconds)
    new_file = _new_sqlite_file(url)
    if new_file is not None:
        _publish_sqlite(new_file, url, busy_seconds)
    try:
        with engine.connect() as connection:
            revision = current_revision(connection)
    except OperationalError as exc:
        missing = missing_database(str(exc), engine.url)
        if missing is None:
            raise
        engine.dispose()
        raise StoreError(missing) from None
    if revision == HEAD_REVISION:
        return engine
    check_known_revision(revision, safe_url(url))
    with schema_lock(engine) as connection:
        revision = current_revision(connection)  # again: another opener may have done it
        if revision == HEAD_REVISION:
            return engine
        if revision is None and not inspect(connection).get_table_names():
            create_schema(connection)
        else:
            check_known_revision(revision, safe_url(url))
            _upgrade_on(connection)
    return engine


def missing_database(said: str, url: URL) -> str | None:
    """What to do when the PostgreSQL database `url` names does not exist (None: `said`, what
    the driver or pg_dump said, is another failure). Said at opening, where it means "not
    created yet"; a database dropped under a running bot is said by `describe` as gone."""
    match = _MISSING_DATABASE.search(said)
    if match is None:
        return None
    name = match.group("name")
    host = url.host or "localhost"
    port = url.port or 5432
    user = f" -U {url.username}" if url.username else ""
    return (
        f"database {name} does not exist on {host}:{port}: create it "
        f"(createdb -h {host} -p {port}{user} {name}), or point DATABASE_URL at one that does"
    )


def known_revisions() -> set[str]:
    """The schema revisions this version's migrations hold (read from their file names,
    without importing Alembic)."""
    return {
        path.name.split("_", 1)[0]
        for path in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")
    }


def check_known_revision(revision: str | None, where: str) -> None:
    """Refuse a store whose recorded revision this version does not know: a newer
    vllm-report wrote it (Alembic would only say it "can't locate" the revision)."""
    if revision is None or revision in known_revisions():
        return
    if not re.fullmatch(r"\d{4}", revision):
        raise StoreError(
            f"the database ({where}) holds another program's schema (Alembic revision "
            f"{revision}): point DATABASE_URL at a database of vllm-report's own"
        )
    raise StoreError(
        f"this store ({where}) was written by a newer vllm-report (revision {revision}; this "
        f"version knows up to {HEAD_REVISION}): upgrade vllm-report, or restore the backup "
        "taken before"
    )


@contextmanager
def schema_lock(engine: Engine) -> Iterator[Connection]:
    """One transaction that holds the database's schema lock until it commits: openers that
    come meanwhile wait for it (SQLite: up to its busy timeout) and then see its work."""
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # pysqlite leaves DDL outside any transaction: begin one ourselves, taking the
            # write lock now rather than at the first write.
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        elif connection.dialect.name == "postgresql":
            # Waiting as long as SQLite would: a holder that hangs must not hang every replica.
            connection.execute(text(f"SET LOCAL lock_timeout = '{int(BUSY_SECONDS * 1000)}ms'"))
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        yield connection
        connection.commit()


def create_schema(connection: Connection) -> None:
    """The tables of an empty database, stamped at the newest revision."""
    Base.metadata.create_all(connection, checkfirst=False)  # seen empty under the lock
    # What `alembic stamp head` writes, without importing Alembic.
    connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)"))
    connection.execute(
        text("INSERT INTO alembic_version (version_num) VALUES (:revision)"),
        {"revision": HEAD_REVISION},
    )


def _new_sqlite_file(url: str) -> Path | None:
    """The SQLite file `url` names when it does not exist yet (None: not a new file)."""
    path = sqlite_file(url)
    return None if path is None or path.exists() else path


def _publish_sqlite(path: Path, url: str, busy_seconds: float) -> None:
    """Make the store under a temporary name beside `path` and link it into place whole.

    The link fails if another opener published first: theirs is kept, ours removed. Where
    the file system has no hard links the store is made in place instead (under the lock,
    with only the empty-file moment unguarded)."""
    temp = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
    scheme, _, rest = url.partition("///")
    _, query, options = rest.partition("?")
    engine = make_engine(f"{scheme}///{temp}{query}{options}", busy_seconds)
    try:
        with schema_lock(engine) as connection:
            create_schema(connection)
        engine.dispose()  # closed: SQLite folds its WAL back into the file
        with suppress(FileExistsError):
            os.link(temp, path)
    except OSError:
        pass  # no hard links here: open_engine creates the store in place
    finally:
        engine.dispose()
        for leftover in (temp, *(temp.with_name(temp.name + s) for s in ("-wal", "-shm"))):
            with suppress(FileNotFoundError):
                leftover.unlink()


def current_revision(connection: Connection) -> str | None:
    """The revision recorded in the database, or None when none is (a new database)."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return str(row[0]) if row is not None else None


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (a no-op when it is there)."""
    with schema_lock(engine) as connection:
        _upgrade_on(connection)


def _upgrade_on(connection: Connection) -> None:
    """Alembic's upgrade to head inside the caller's (locked) transaction."""
    check_known_revision(current_revision(connection), safe_url(str(connection.engine.url)))
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def make_engine(url: str, busy_seconds: float = BUSY_SECONDS) -> Engine:
    if url.startswith("sqlite"):
        check_sqlite_url(url)
        path = sqlite_file(url)
        if path is not None:
            check_sqlite_file(path, url)
            path.parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": busy_seconds})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL and a busy timeout: the scheduler and commands may write at once.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
            cursor.close()

        return engine
    _quiet_psycopg()
    # pre-ping: a long-lived process outlives server restarts and idle timeouts.
    return create_engine(driver_url(url), pool_pre_ping=True)


class _TerminatingNoise(logging.Filter):
    """psycopg logs a second failure when it leaves a pipeline (an `executemany`) or a COPY
    that a first failure aborted: "error ignored terminating <psycopg.Pipeline …>: pipeline
    aborted". The first failure is raised, and told in one sentence (`describe`); this line
    would only reach the operator's terminal raw beside it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("error ignored terminating")


def _quiet_psycopg() -> None:
    logger = logging.getLogger("psycopg")
    if not any(isinstance(f, _TerminatingNoise) for f in logger.filters):
        logger.addFilter(_TerminatingNoise())
