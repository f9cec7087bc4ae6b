"""Shared fixtures: a clean environment, the fake GitHub, and stores on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import secrets
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, make_url, text

from bot.features import declared
from bot.store import Store
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub
from tests.sites import ANCHOR_LABELS, FixtureArchive, Site

# The features' subscription kinds (`ci`, `radar:`), which every process learns as it reads
# the declarations (the command line and the composition root do first): a test that reads a
# key without building the bot meets them the same way.
declared()

# Property tests draw fresh examples on a developer's machine and a fixed, repeatable set in
# CI, so a CI run never fails on an example nobody can reproduce.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# The slow integration tests: real processes killed and raced, PostgreSQL, the browser.
# The README's `pytest` skips them (a contributor's run stays under 10 minutes on 2 cores);
# `pytest --slow` runs everything, `pytest --slow -m slow` only them (.ci/run: everything).
SLOW_FILES = frozenset(
    {
        "test_delivery.py",
        "test_replicas.py",
        "test_races.py",
        "test_deploy.py",
        "test_scheduling.py",
        "test_site_in_a_browser.py",
    }
)
# Single slow tests in files whose other tests are quick (each over 15 s on 2 busy cores):
# end-to-end runs that collect real days, post them and build the site with its charts
# (`file::test`, every parametrization; the file's path under tests/).
SLOW_TESTS = frozenset(
    {
        "cli/test_first_use.py::test_post_cannot_overwrite_the_full_report_with_a_short_one",
        "cli/test_progress.py::test_site_build_tells_the_day_it_makes_on_a_terminal_only",
        "cli/test_site_build.py::test_days_published_at_another_cutoff_are_named_not_silently_missing",
        "features/personal/test_digests.py::test_a_closed_pr_is_never_a_review_request",
        "features/personal/test_digests.py::test_a_person_gets_one_dm_a_run_with_a_group_per_subscription",
        "features/personal/test_digests.py::test_a_weekly_digest_says_which_of_its_days_were_not_collected",
        "features/personal/test_digests.py::test_on_the_weekly_day_the_daily_group_comes_before_the_weekly_one",
        "features/personal/test_digests.py::test_two_subscriptions_of_one_kind_are_two_groups_of_one_dm",
        "features/queue/test_benchmark.py::test_queue_requests_stay_within_the_limits",
        "platforms/test_discord_forum.py::test_post_opens_one_tagged_post_for_the_day_and_a_rerun_adds_none",
        "service/test_site.py::test_a_backfilled_day_redraws_the_fortnight_after_it",
        "service/test_site.py::test_a_rebuild_makes_again_only_the_days_whose_facts_changed",
    }
)
TESTS = Path(__file__).parent
# A renamed or moved test would silently stop being slow: every entry names a test.
_GONE = [
    name
    for name in sorted(SLOW_TESTS)
    if f"def {name.split('::')[1]}(" not in (TESTS / name.split("::")[0]).read_text("utf-8")
]
assert not _GONE, f"tests/conftest.py: SLOW_TESTS names no such test: {_GONE}"


def _slow(item: pytest.Item) -> bool:
    if item.get_closest_marker("postgres") or item.path.name in SLOW_FILES:
        return True
    if not item.path.is_relative_to(TESTS):
        return False
    name = getattr(item, "originalname", item.name)
    return f"{item.path.relative_to(TESTS).as_posix()}::{name}" in SLOW_TESTS


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the slow integration tests")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    run_slow = config.getoption("--slow")
    skip = pytest.mark.skip(reason="a slow integration test: `pytest --slow` runs it")
    for item in items:
        if _slow(item):
            item.add_marker(pytest.mark.slow)
            if not run_slow:
                item.add_marker(skip)


# A PostgreSQL server the tests may create databases on. They make one of their own per
# run (`vllm_report_test_<random>`) and drop it at the end: no existing database is touched.
SERVER_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)


@pytest.fixture(autouse=True)
def signal_handlers() -> Iterator[None]:
    """Ctrl-C and SIGTERM as a fresh process has them, before and after every test. A test
    that runs a command in-process (which ignores Ctrl-C once it has answered) or the serve
    loop can leave SIGINT ignored, and an ignored signal is inherited: a `vllm-report`
    process a later test starts in the same worker would then never see its Ctrl-C."""
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    for sig, handler in defaults.items():
        signal.signal(sig, handler)
    yield
    for sig, handler in defaults.items():
        signal.signal(sig, handler)


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
    # Red on main reads the public CI dashboard by default: off unless a test starts the fake.
    monkeypatch.setenv("VLLM_REPORT_CI_URL", "none")
    return tmp_path


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The report site of the three real fixture days (and their trend baselines), with
    strangers' hostile titles on 2026-03-25; built once, read by the site and browser tests."""
    root = tmp_path_factory.mktemp("site")
    with FixtureArchive(tmp_path_factory.mktemp("data")) as archive:
        for label in ANCHOR_LABELS:
            archive.archive(label)
        yield archive, root, archive.build(root)


@pytest.fixture
def fake_github(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    """The fake GitHub serving the three real anchor days plus older history."""
    first = min(day.start for day in anchor_days())
    items = anchor_items() + background_items(1500, before=first)
    with FakeGitHub(REPO, items) as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        yield fake


_CREATED: set[str] = set()  # the databases this run made (and alone may empty and drop)


def _reset_postgres(url: str) -> None:
    """An empty `public` schema in the tests' own database, whatever earlier tests created.
    Refuses any other database: a developer's `test` or `postgres` is never touched."""
    name = make_url(url).database
    assert name in _CREATED, f"database {name!r} was not created by this test run"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def postgres_available() -> bool:
    try:
        engine = create_engine(SERVER_URL, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A database of this test run's own on the test server, dropped when the run ends."""
    if not postgres_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {SERVER_URL} (CI must start it)")
        pytest.skip(f"PostgreSQL is not reachable at {SERVER_URL}")
    name = f"vllm_report_test_{secrets.token_hex(4)}"
    server = create_engine(SERVER_URL, isolation_level="AUTOCOMMIT")
    with server.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    _CREATED.add(name)
    try:
        yield make_url(SERVER_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        server.dispose()


@pytest.fixture
def pg_url(pg_database: str) -> str:
    """The tests' own PostgreSQL database, emptied for this test."""
    _reset_postgres(pg_database)
    return pg_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = Store(store_url)
    yield opened
    opened.close()
