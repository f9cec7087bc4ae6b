"""Opening a database: engine options per backend, the schema brought to date, error text.

Alembic is the schema's source of truth, but importing it and walking its revisions costs
about half a second, so opening a store first reads the recorded revision with one query:
- at the newest revision (every start after the first): nothing more to do;
- an empty database: the tables are created from the declarative schema and stamped with
  the newest revision (a test proves this equals running every migration);
- an older revision: Alembic upgrades it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from bot.model.errors import ServiceError
from bot.store.schema import HEAD_REVISION, Base

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"


class StoreError(ServiceError):
    """The database could not be opened or written; the message says which and why."""


class Transactions:
    """Short transactions on one engine; a database failure becomes one StoreError sentence.

    An IntegrityError passes through untouched: callers use unique constraints on purpose
    (a second subscription, a part already claimed).
    """

    def __init__(self, engine: Engine, url: str) -> None:
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._where = safe_url(url)

    @contextmanager
    def begin(self) -> Iterator[Session]:
        try:
            with self._sessions.begin() as session:
                yield session
        except IntegrityError:
            raise
        except SQLAlchemyError as exc:
            raise StoreError(f"the store ({self._where}) failed: {first_line(exc)}") from exc


def open_engine(url: str) -> Engine:
    """An engine for `url` with its schema at the newest revision."""
    engine = make_engine(url)
    with engine.begin() as connection:
        revision = current_revision(connection)
        if revision == HEAD_REVISION:
            return engine
        if revision is None and not inspect(connection).get_table_names():
            Base.metadata.create_all(connection)
            # What `alembic stamp head` writes, without importing Alembic.
            connection.execute(
                text("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
            )
            connection.execute(
                text("INSERT INTO alembic_version (version_num) VALUES (:revision)"),
                {"revision": HEAD_REVISION},
            )
            return engine
    upgrade(engine)
    return engine


def current_revision(connection: Connection) -> str | None:
    """The revision recorded in the database, or None when none is (a new database)."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    return str(row[0]) if row is not None else None


def upgrade(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (a no-op when it is there)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            # WAL and a busy timeout: the scheduler and commands may write at once.
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    # pre-ping: a long-lived process outlives server restarts and idle timeouts.
    return create_engine(url, pool_pre_ping=True)


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
