"""Opening a store on an operator's second day: `postgres://` URLs, a PostgreSQL database
not created yet, and a store a newer vllm-report wrote — each said as what it is."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from sqlalchemy import make_url, text

from bot.store import Store, StoreError
from bot.store.engine import driver_url, known_revisions, make_engine, upgrade
from bot.store.schema import HEAD_REVISION
from tests.factories import REPO, item


@pytest.mark.parametrize(
    ("url", "opened"),
    [
        ("postgres://u:p@db:5432/reports", "postgresql+psycopg://u:p@db:5432/reports"),
        ("postgresql://u@db/reports", "postgresql+psycopg://u@db/reports"),
        ("postgresql+psycopg://u@db/reports", "postgresql+psycopg://u@db/reports"),
        ("sqlite:////data/store.sqlite3", "sqlite:////data/store.sqlite3"),
    ],
)
def test_postgres_urls_of_every_form_use_the_installed_driver(url: str, opened: str) -> None:
    """Heroku, Render and Supabase hand out postgres://; SQLAlchemy knows no such dialect."""
    assert driver_url(url) == opened
    engine = make_engine(url) if not url.startswith("sqlite") else None
    if engine is not None:
        assert engine.dialect.name == "postgresql" and engine.driver == "psycopg"
        engine.dispose()


def libpq_form(url: str, scheme: str) -> str:
    """The tests' database URL as an operator writes it: `scheme://user@host:port/name`."""
    return scheme + "://" + url.split("://", 1)[1]


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_a_store_opens_on_a_postgres_url(pg_url: str, scheme: str) -> None:
    store = Store(libpq_form(pg_url, scheme))
    try:
        store.items.save([item(1)], item(1).created_at)
        assert store.items.get(REPO, 1) is not None
    finally:
        store.close()


@pytest.mark.postgres
def test_a_database_not_created_yet_says_create_it(pg_url: str) -> None:
    """Not "gone" (which reads like data loss): the database was never made."""
    name = f"vllm_report_missing_{secrets.token_hex(4)}"
    url = make_url(pg_url).set(database=name)
    with pytest.raises(StoreError) as caught:
        Store(libpq_form(url.render_as_string(hide_password=False), "postgres"))
    said = str(caught.value)
    host = f"{url.host}:{url.port or 5432}"
    assert said.startswith(f"database {name} does not exist on {host}: create it (createdb ")
    assert said.endswith(f" {name}), or point DATABASE_URL at one that does")
    assert "gone" not in said and "\n" not in said
    assert caught.value.exit_status == 1


def test_the_known_revisions_end_at_the_head() -> None:
    known = known_revisions()
    assert HEAD_REVISION in known and max(known) == HEAD_REVISION


def set_revision(url: str, revision: str) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    engine.dispose()


def test_a_store_from_a_newer_version_refuses_to_open(store_url: str) -> None:
    """Alembic would say "Can't locate revision identified by '0099'": the sentence says a
    newer vllm-report wrote the store, and what to do. Nothing of the store is touched."""
    Store(store_url).close()
    set_revision(store_url, "0099")
    with pytest.raises(StoreError) as caught:
        Store(store_url)
    said = str(caught.value)
    assert "was written by a newer vllm-report (revision 0099" in said
    assert said.endswith("upgrade vllm-report, or restore the backup taken before")
    assert "Can't locate" not in said and "\n" not in said
    engine = make_engine(store_url)
    with pytest.raises(StoreError, match="newer vllm-report"):
        upgrade(engine)  # the explicit upgrade says the same
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
            "0099"
        )
    engine.dispose()


def test_another_programs_alembic_table_is_not_called_newer(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    Store(url).close()
    set_revision(url, "ae1027a6acf")
    with pytest.raises(StoreError, match="holds another program's schema"):
        Store(url)
