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
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, inspect, make_url, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from bot.model.errors import InputError, ServiceError
from bot.store.schema import HEAD_REVISION, Base

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"
SQLITE_MAGIC = b"SQLite format 3\x00"
BUSY_SECONDS = 30.0  # how long a SQLite writer waits for another process's lock
WRITE_ATTEMPTS = 3
# The PostgreSQL advisory lock openers take to create or upgrade the schema; any constant
# no other program on the database uses (advisory locks are per database).
SCHEMA_LOCK = 0x766C6C6D5F736368  # "vllm_sch"
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
_MISSING_DATABASE = re.compile(r'database "(?P<name>[^"]+)" does not exist')
T = TypeVar("T")


class StoreError(ServiceError):
    """The database could not be opened or written; the message says which and why."""


class StoreUrlError(InputError):
    """DATABASE_URL is wrong (not a URL, an unknown driver, a file that is no database)."""


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
        return _denied(where, said)  # PostgreSQL: a user without the store's grants
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


def _denied(where: str, said: str) -> str:
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
    raise StoreError(_denied(where, said))


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


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None: not SQLite, in memory, or a `uri=true` URL)."""
    if not url.startswith("sqlite") or "uri=true" in url.lower() or "///" not in url:
        return None
    path = url.split("///", 1)[-1].split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path)


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
