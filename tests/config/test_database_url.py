"""`DATABASE_URL` faults an operator meets, each refused at start with one sentence and exit
status 2: a SQLite file in a folder that does not exist (it used to be made, typo and all),
and a database vllm-report has no driver for (it said "No module named 'MySQLdb'")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.store import Store
from config.settings import load_settings
from tests.cli_run import one_sentence, run


def test_a_sqlite_file_in_a_missing_folder_is_refused_not_made(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    missing = clean_env / "nonexist" / "dir"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{missing / 'x.sqlite'}")
    code, out, err = run(capsys, "show", "2026-03-26", "--counts-only")
    assert code == 2 and out == ""
    said = one_sentence(err)
    assert f"DATABASE_URL: the folder {missing} does not exist: create it" in said, said
    assert not (clean_env / "nonexist").exists()


def test_a_sqlite_file_under_a_file_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    (clean_env / "notes.txt").write_text("mine\n", encoding="utf-8")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{clean_env / 'notes.txt' / 'x.sqlite'}")
    code, _, err = run(capsys, "show", "2026-03-26", "--counts-only")
    assert code == 2
    assert f"DATABASE_URL: {clean_env / 'notes.txt'} is a file, not a folder" in one_sentence(err)
    assert (clean_env / "notes.txt").read_text(encoding="utf-8") == "mine\n"


def test_the_default_store_still_makes_its_data_folder(
    monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    """The data folder is the bot's own: made on first use, as before."""
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(clean_env / "new" / "data"))
    settings = load_settings()
    Store(settings.store_url()).close()
    assert (clean_env / "new" / "data" / "vllm-report.sqlite3").is_file()


def test_a_sqlite_file_in_an_existing_folder_is_made(
    monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{clean_env / 'x.sqlite3'}")
    Store(load_settings().store_url()).close()
    assert (clean_env / "x.sqlite3").is_file()


@pytest.mark.parametrize(
    "url",
    [
        "mysql://bot:s3cretPass@db.example/reports",
        "mysql+pymysql://bot:s3cretPass@db.example/reports",
        "mariadb://bot:s3cretPass@db.example/reports",
        "oracle://bot:s3cretPass@db.example/reports",
        "postgresql+psycopg2://bot:s3cretPass@db.example/reports",
    ],
)
def test_a_database_vllm_report_cannot_use_names_those_it_can(
    url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    code, out, err = run(capsys, "show", "2026-03-26", "--counts-only")
    assert code == 2 and out == ""
    said = one_sentence(err)
    scheme = url.split("://")[0]
    assert f"DATABASE_URL: {scheme}:// is not a database vllm-report can use" in said, said
    assert "sqlite:///" in said and "postgresql://" in said and "postgres://" in said
    assert "No module named" not in err and "s3cretPass" not in err


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///store.sqlite3",
        "sqlite+pysqlite:///store.sqlite3",
        "postgresql://bot@db.example/reports",
        "postgresql+psycopg://bot@db.example/reports",
        "postgres://bot@db.example/reports",
        "POSTGRESQL://bot@db.example/reports",
    ],
)
def test_the_supported_database_urls_are_read(
    url: str, monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    assert load_settings().store_url() == url
