"""Shared fixtures: a clean environment, the fake GitHub, and stores on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from bot.store import Store
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No setting leaks in from the machine, and no .env or TOML file from the checkout."""
    for name in list(os.environ):
        if name.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_")) or name in (
            "DATABASE_URL",
        ):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")
    monkeypatch.setenv("VLLM_REPORT_GITHUB_BACKOFF", "0.05")
    return tmp_path


@pytest.fixture
def fake_github(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    """The fake GitHub serving the three real anchor days plus older history."""
    first = min(day.start for day in anchor_days())
    items = anchor_items() + background_items(1500, before=first)
    with FakeGitHub(REPO, items) as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        yield fake


def _reset_postgres(url: str) -> None:
    """An empty `public` schema, whatever earlier migrations created."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def postgres_available() -> bool:
    try:
        engine = create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    if not postgres_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {PG_URL} (CI must start it)")
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}")
    _reset_postgres(PG_URL)
    return PG_URL


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = Store(store_url)
    yield opened
    opened.close()
