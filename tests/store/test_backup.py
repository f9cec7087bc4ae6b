"""`vllm-report backup FILE`: an online copy of the store while the bot may be writing.

SQLite through the online backup API (a copy taken while another connection writes opens
and holds the data; restored by copying it back), PostgreSQL through pg_dump (its password
never on pg_dump's command line); an existing FILE kept unless --force; every refusal one
sentence with exit status 2, every failure one sentence with exit status 1."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from bot.store.backup import backup
from bot.store.schema import HEAD_REVISION
from tests.factories import REPO, item

FETCHED = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def sqlite_store(clean_env: Path) -> Path:
    """The default store (SQLite in the data folder) holding items 1–200."""
    path = clean_env / "data" / "vllm-report.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.items.save([item(n) for n in range(1, 201)], FETCHED)
    store.close()
    return path


def test_a_backup_taken_while_another_connection_writes_holds_the_data(
    sqlite_store: Path, clean_env: Path
) -> None:
    """The bot keeps writing (another connection, its own transactions) during the backup:
    the copy opens as a store, passes quick_check and holds every item written before."""
    url = f"sqlite:///{sqlite_store}"
    writer = Store(url)
    stop = threading.Event()
    written: list[int] = []

    def write() -> None:
        number = 1000
        while not stop.is_set():
            writer.items.save([item(number, title="x" * 2000)], FETCHED)
            written.append(number)
            number += 1

    thread = threading.Thread(target=write)
    thread.start()
    try:
        while len(written) < 20:  # the writer is well under way
            threading.Event().wait(0.01)
        before = len(written)
        done = backup(url, clean_env / "copy.sqlite3")
        while len(written) < before + 20:  # and goes on after
            threading.Event().wait(0.01)
    finally:
        stop.set()
        thread.join()
        writer.close()
    assert done.revision == HEAD_REVISION and "quick_check ok" in done.how
    copy = clean_env / "copy.sqlite3"
    assert not Path(f"{copy}-wal").exists()  # one file: copy it anywhere, restore it as is
    assert not [p for p in clean_env.iterdir() if ".partial-" in p.name]
    with sqlite3.connect(copy) as connection:
        assert connection.execute("PRAGMA quick_check").fetchone() == ("ok",)
    opened = Store(f"sqlite:///{copy}")
    try:
        assert all(opened.items.get(REPO, n) is not None for n in (1, 200))
        assert all(opened.items.get(REPO, n) is not None for n in written[:before])
    finally:
        opened.close()


def test_restore_is_copying_the_file_back(sqlite_store: Path, clean_env: Path) -> None:
    """The documented restore: stop the bot, copy the backup over the store (and drop its
    -wal and -shm), start again: the store is as it was when backed up."""
    url = f"sqlite:///{sqlite_store}"
    backup(url, clean_env / "copy.sqlite3")
    store = Store(url)
    store.items.save([item(999)], FETCHED)  # after the backup: gone once restored
    store.close()
    for leftover in ("-wal", "-shm"):
        Path(f"{sqlite_store}{leftover}").unlink(missing_ok=True)
    shutil.copyfile(clean_env / "copy.sqlite3", sqlite_store)
    restored = Store(url)
    try:
        assert restored.items.get(REPO, 200) is not None
        assert restored.items.get(REPO, 999) is None
    finally:
        restored.close()


def test_the_command_backs_up_and_keeps_an_existing_file(
    sqlite_store: Path, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = clean_env / "backup.sqlite3"
    code, out, err = run(capsys, "backup", str(target))
    assert code == 0 and err == ""
    assert out.startswith(f"backed up the store (sqlite:///{sqlite_store}) to {target}: ")
    assert f"schema revision {HEAD_REVISION}" in out
    first = target.stat().st_mtime_ns
    code, out, err = run(capsys, "backup", str(target))
    assert code == 2 and out == ""
    assert err == (
        f"vllm-report: {target} already exists: name a new file, or add --force to replace it\n"
    )
    assert target.stat().st_mtime_ns == first
    code, out, _ = run(capsys, "backup", str(target), "--force")
    assert code == 0 and out.startswith("backed up the store")


@pytest.mark.parametrize(
    ("case", "said"),
    [
        ("no store", "there is no store at {store} to back up: check VLLM_REPORT_DATA_DIR"),
        ("folder", "{target} is a folder: name a file in it"),
        ("no folder", "the folder {target_parent} does not exist: create it"),
        ("itself", "{target} is the store itself: name another file"),
    ],
)
def test_a_backup_that_cannot_be_made_is_one_sentence(
    case: str, said: str, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = clean_env / "data" / "vllm-report.sqlite3"
    target = clean_env / "backup.sqlite3"
    if case != "no store":
        Store(f"sqlite:///{store}").close()
    if case == "folder":
        target.mkdir()
    elif case == "no folder":
        target = clean_env / "missing" / "backup.sqlite3"
    elif case == "itself":
        target = store
    code, out, err = run(capsys, "backup", str(target), *(["--force"] * (case == "itself")))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert said.format(store=store, target=target, target_parent=target.parent) in err


def test_a_damaged_store_is_not_kept_as_a_backup(
    sqlite_store: Path, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.service.test_doctor import damage

    damage(sqlite_store)
    target = clean_env / "backup.sqlite3"
    code, out, err = run(capsys, "backup", str(target))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "is damaged (" in err and "its copy was not kept" in err
    assert not target.exists()


# -- PostgreSQL ------------------------------------------------------------------------------


def fake_pg_dump(folder: Path, exit_status: int = 0, said: str = "") -> Path:
    """A pg_dump on PATH that records its arguments and PGPASSWORD, and writes a dump."""
    program = folder / "pg_dump"
    program.write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$@" > "{folder}/argv"\n'
        f'printf "%s" "$PGPASSWORD" > "{folder}/password"\n'
        'for arg; do case "$arg" in --file=*) printf PGDMP > "${arg#--file=}";; esac; done\n'
        f"printf '%s' '{said}' >&2\n"
        f"exit {exit_status}\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program


def test_pg_dump_gets_the_password_in_its_environment_only(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`ps` shows a program's arguments to every user: the password is not among them."""
    tools = clean_env / "tools"
    tools.mkdir()
    fake_pg_dump(tools)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DATABASE_URL", "postgres://bot:s3cretPassw0rd@db.example:5433/reports")
    target = clean_env / "reports.dump"
    code, out, err = run(capsys, "backup", str(target))
    assert code == 0, err
    assert "pg_dump, custom format" in out and "s3cretPassw0rd" not in out
    argv = (tools / "argv").read_text().splitlines()
    assert "--format=custom" in argv and "--no-password" in argv
    assert "--dbname=postgresql://bot@db.example:5433/reports" in argv
    assert not any("s3cret" in arg for arg in argv)
    assert (tools / "password").read_text() == "s3cretPassw0rd"
    assert target.read_bytes() == b"PGDMP"


def test_a_failed_pg_dump_is_one_sentence_and_leaves_no_file(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = clean_env / "tools"
    tools.mkdir()
    fake_pg_dump(
        tools,
        1,
        "pg_dump: error: aborting because of server version mismatch\n"
        "pg_dump: detail: server version: 17.2; pg_dump version: 15.10",
    )
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/reports")
    target = clean_env / "reports.dump"
    code, out, err = run(capsys, "backup", str(target))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "aborting because of server version mismatch; install a pg_dump of the server" in err
    assert not target.exists() and not [p for p in clean_env.iterdir() if ".partial" in p.name]


def test_no_pg_dump_is_one_sentence_saying_what_to_install(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(clean_env / "nothing-here"))
    monkeypatch.setenv("DATABASE_URL", "postgres://bot:s3cretPassw0rd@db.example/reports")
    code, out, err = run(capsys, "backup", str(clean_env / "reports.dump"))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("vllm-report: pg_dump is not installed")
    assert "apt-get install postgresql-client" in err and "s3cret" not in err


@pytest.mark.postgres
def test_a_postgres_store_is_dumped_by_the_real_pg_dump(
    pg_url: str, clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed on this machine")
    store = Store(pg_url)
    store.items.save([item(7)], FETCHED)
    store.close()
    target = clean_env / "reports.dump"
    done = backup("postgres://" + pg_url.split("://", 1)[1], target)
    assert done.how == "pg_dump, custom format"
    assert target.read_bytes().startswith(b"PGDMP")
    pg_restore = shutil.which("pg_restore")
    if pg_restore is not None:
        import subprocess

        listed = subprocess.run(
            [pg_restore, "--list", str(target)], capture_output=True, text=True, check=True
        )
        assert "TABLE public items" in listed.stdout
