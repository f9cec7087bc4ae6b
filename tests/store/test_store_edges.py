"""A store that cannot keep or take what the bot writes is said, in one sentence, before it
costs anything (issue 53):

- a SQLite database in memory (`sqlite://`, `:memory:`) loses the delivery ledger at every
  restart, so a post could be sent twice: refused by every command, `doctor` included;
- a read-only SQLite URL (`?mode=ro`, which SQLAlchemy ignored with a raw warning and wrote
  anyway) is refused, the file untouched and no warning printed;
- a store the bot may not write (a read-only file or folder; on PostgreSQL a user without
  the grants, or a server that takes no writes): `doctor` tries a write it rolls back and
  says ✗ with what to change, and a command's first write says the same, not "attempt to
  write a readonly database".

The command line runs as a real process, as an operator meets it: stderr holds one sentence,
no traceback and no SQLAlchemy warning. Root writes a read-only file anyway, so when the
tests run as root the command runs without CAP_DAC_OVERRIDE (the capability that lets root
ignore file permissions), as an ordinary user would.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, text

from bot.store import Store, StoreError, StoreUrlError
from tests.anchor_data import anchor_days
from tests.conftest import SERVER_URL
from tests.factories import item
from tests.fakes.github_api import FakeGitHub

CLI = Path(sys.executable).with_name("vllm-report")
DAY = anchor_days()[2]
SHOW = ("show", DAY.label, "--cutoff", DAY.cutoff, "--refresh")
# Run the command with CAP_DAC_OVERRIDE (24: PR_CAPBSET_DROP, 1: CAP_DAC_OVERRIDE) dropped
# from the bounding set, so root, once it execs, obeys file permissions like anyone.
AS_A_USER = (
    "import ctypes, os, sys\n"
    "if ctypes.CDLL(None, use_errno=True).prctl(24, 1, 0, 0, 0) != 0:\n"
    "    sys.exit(97)\n"
    "os.execv(sys.argv[1], sys.argv[1:])\n"
)

IN_MEMORY = [
    "sqlite:///:memory:",
    "sqlite://",
    "sqlite:///",
    "sqlite+pysqlite:///:memory:",
    "sqlite:///file::memory:?uri=true",
    "sqlite:///file:store?mode=memory&cache=shared&uri=true",
    "sqlite:///file:?uri=true",  # SQLite's temporary file, deleted when closed
]


def cli(
    *argv: str, database_url: str | None, unprivileged: bool = False, timeout: float = 300
) -> tuple[int, str, str]:
    """`vllm-report ARGV` in a process of its own, with the test's environment (a command
    still running after `timeout` seconds fails the test)."""
    env = {**os.environ, "COLUMNS": "200"}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    command = [str(CLI), *argv]
    if unprivileged and os.geteuid() == 0:
        command = [sys.executable, "-c", AS_A_USER, *command]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"vllm-report {' '.join(argv)} was still running after {timeout:.0f} s")
    assert done.returncode != 97, "could not drop CAP_DAC_OVERRIDE"
    return done.returncode, done.stdout, done.stderr


def one_sentence(err: str) -> str:
    """stderr is one `vllm-report:` line: no traceback, no SQLAlchemy warning, no log."""
    assert "Traceback" not in err and "Warning" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("vllm-report: "), err
    return lines[0]


def store_line(out: str) -> str:
    found = [row for row in out.splitlines() if row[2:].startswith("store ")]
    assert len(found) == 1, out
    return found[0]


def made(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


# 1. In memory: refused everywhere, before anything is opened.


@pytest.mark.parametrize("url", IN_MEMORY)
def test_a_store_in_memory_is_refused(url: str, clean_env: Path) -> None:
    before = made(clean_env)
    with pytest.raises(StoreUrlError) as refused:
        Store(url)
    said = str(refused.value)
    assert refused.value.exit_status == 2
    assert said.startswith(f"DATABASE_URL={url} keeps nothing across restarts")
    assert "a post could be sent twice" in said and "sqlite:////data/" in said
    assert made(clean_env) == before  # no stray file (file::memory:, file:store)


@pytest.mark.parametrize("argv", [("doctor",), SHOW, ("serve",)], ids=lambda a: a[0])
def test_the_command_line_refuses_a_store_in_memory(
    argv: tuple[str, ...], fake_github: FakeGitHub
) -> None:
    code, out, err = cli(*argv, database_url="sqlite:///:memory:", timeout=60)
    assert code == 2, (out, err)
    if argv[0] == "doctor":
        assert "Traceback" not in err and "Warning" not in err, err
        said = store_line(out)
        assert said.startswith("✗")
    else:
        said = one_sentence(err)
    assert "DATABASE_URL=sqlite:///:memory: keeps nothing across restarts" in said
    assert "name a file, e.g. sqlite:////data/vllm-report.sqlite3" in said


# 2. Read-only URLs and options SQLite would ignore: refused, the file untouched, no warning.


@pytest.mark.parametrize(
    ("query", "option"),
    [("?mode=ro", "mode=ro"), ("?mode=ro&uri=true", "mode=ro"), ("?immutable=1", "immutable=1")],
)
def test_a_read_only_sqlite_url_is_refused_without_a_warning(
    query: str, option: str, tmp_path: Path
) -> None:
    path = tmp_path / "store.sqlite3"
    Store(f"sqlite:///{path}").close()
    before = path.read_bytes()
    for url in (f"sqlite:///{path}{query}", f"sqlite:///file:{path}{query}&uri=true"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # SQLAlchemy's "are being ignored" would raise
            with pytest.raises(StoreUrlError) as refused:
                Store(url)
        assert "opens the store read-only" in str(refused.value)
        assert f"remove {option} from DATABASE_URL" in str(refused.value)
    assert path.read_bytes() == before
    assert made(tmp_path) == {"store.sqlite3"}


@pytest.mark.parametrize("argv", [("doctor",), SHOW], ids=lambda a: a[0])
def test_the_command_line_refuses_mode_ro_in_one_sentence(
    argv: tuple[str, ...], fake_github: FakeGitHub, tmp_path: Path
) -> None:
    path = tmp_path / "store.sqlite3"
    Store(f"sqlite:///{path}").close()
    before = path.read_bytes()
    code, out, err = cli(*argv, database_url=f"sqlite:///{path}?mode=ro")
    assert code == 2, (out, err)
    assert "SAWarning" not in err and "engine.py" not in err
    said = store_line(out) if argv[0] == "doctor" else one_sentence(err)
    assert f"DATABASE_URL=sqlite:///{path}?mode=ro opens the store read-only" in said
    assert path.read_bytes() == before


def test_an_option_sqlite_would_ignore_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(StoreUrlError, match="cache, which SQLite ignores without uri=true"):
            Store(f"sqlite:///{path}?cache=shared")
    assert not path.exists()


def test_uri_true_without_file_is_refused_not_made_a_strange_file(tmp_path: Path) -> None:
    """SQLite would make a file named `store.sqlite3?mode=rwc` (uri=true reads only file:)."""
    with pytest.raises(StoreUrlError, match="does not begin with file:"):
        Store(f"sqlite:///{tmp_path / 'store.sqlite3'}?mode=rwc&uri=true")
    assert made(tmp_path) == set()


def test_a_uri_url_naming_a_file_still_opens(tmp_path: Path) -> None:
    """What is refused is only what cannot keep the store: a file: URI and a driver option
    are fine, and neither makes a folder named `file:` in the working folder."""
    path = tmp_path / "store.sqlite3"
    for url in (f"sqlite:///file:{path}?mode=rwc&uri=true", f"sqlite:///{path}?timeout=5"):
        store = Store(url)
        store.check_writable()
        store.close()
    assert path.is_file()
    assert not (tmp_path / "file:").exists() and not Path("file:").exists()


# 3. A store the bot may not write: doctor tries, a command's write says what to do.


@pytest.fixture
def unprivileged(tmp_path: Path) -> None:
    """The command line below runs as a user file permissions apply to (root without
    CAP_DAC_OVERRIDE when the tests run as root); skipped if this machine cannot."""
    probe = tmp_path / "probe"
    probe.write_text("x")
    probe.chmod(0o444)
    write = f"open({str(probe)!r}, 'a')"
    command = [sys.executable, "-c", write]
    if os.geteuid() == 0:
        command = [sys.executable, "-c", AS_A_USER, sys.executable, "-c", write]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    probe.unlink()
    if done.returncode == 97:
        pytest.skip("root here cannot drop CAP_DAC_OVERRIDE (no CAP_SETPCAP)")
    assert "PermissionError" in done.stderr, done.stderr


@pytest.fixture(params=["file", "folder"])
def read_only_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    """A whole store at the newest revision that this user may read but not write: the file
    read-only, or its folder (where SQLite must put its -wal and -shm files)."""
    folder = tmp_path / "stores"
    folder.mkdir()
    path = folder / "store.sqlite3"
    Store(f"sqlite:///{path}").close()
    locked = path if request.param == "file" else folder
    locked.chmod(0o444 if request.param == "file" else 0o555)
    try:
        yield path
    finally:
        locked.chmod(0o755)


def test_doctor_finds_a_store_it_cannot_write(
    unprivileged: None, read_only_store: Path, fake_github: FakeGitHub
) -> None:
    before = read_only_store.read_bytes()
    code, out, err = cli("doctor", database_url=f"sqlite:///{read_only_store}", unprivileged=True)
    assert code == 1, (out, err)
    assert "Traceback" not in err and "Warning" not in err, err
    said = store_line(out)
    assert said.startswith("✗")
    assert f"the store {read_only_store} cannot be written (a read-only file or folder)" in said
    assert f"write access to it and to its folder {read_only_store.parent}" in said
    assert read_only_store.read_bytes() == before


def test_a_write_to_a_read_only_store_says_what_to_do(
    unprivileged: None, read_only_store: Path, fake_github: FakeGitHub
) -> None:
    code, out, err = cli(*SHOW, database_url=f"sqlite:///{read_only_store}", unprivileged=True)
    assert code == 1 and out == "", (out, err)
    said = one_sentence(err)
    assert f"the store {read_only_store} cannot be written" in said
    assert "give the bot's user" in said and "readonly database" not in said


def test_doctor_says_a_writable_store_is_writable(fake_github: FakeGitHub) -> None:
    code, out, err = cli("doctor", database_url=None)
    assert code == 0, (out, err)
    assert store_line(out).startswith("✓") and ", writable, quick_check ok" in store_line(out)


def test_the_write_doctor_tries_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    Store(f"sqlite:///{path}").close()
    before = path.read_bytes()
    store = Store(f"sqlite:///{path}")
    store.check_writable()
    wal = path.with_name(f"{path.name}-wal")  # while open: a commit would leave frames here
    assert not wal.exists() or wal.stat().st_size == 0
    store.close()
    assert path.read_bytes() == before
    assert made(tmp_path) == {"store.sqlite3"}


@pytest.mark.postgres
def test_the_write_doctor_tries_changes_nothing_on_postgres(pg_url: str) -> None:
    """A committed update, even to the same value, would be a new row version (new xmin)."""
    store = Store(pg_url)
    row = text("SELECT xmin::text, version_num FROM alembic_version")
    with store.engine.connect() as connection:
        before = connection.execute(row).all()
    store.check_writable()
    with store.engine.connect() as connection:
        assert connection.execute(row).all() == before
    store.close()


# PostgreSQL: a user without the grants, a server that takes no writes.


@pytest.fixture
def pg_role(pg_url: str) -> Iterator[str]:
    """A login role of this test's own (dropped after), and the store made by the owner."""
    Store(pg_url).close()
    role = f"vllm_report_test_{secrets.token_hex(4)}"
    server = create_engine(SERVER_URL, isolation_level="AUTOCOMMIT")
    database = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with server.connect() as connection:
        connection.execute(text(f"CREATE ROLE {role} LOGIN"))
    with database.connect() as connection:
        connection.execute(text(f"GRANT USAGE ON SCHEMA public TO {role}"))
    try:
        yield role
    finally:
        with database.connect() as connection:
            connection.execute(text(f"DROP OWNED BY {role}"))
        with server.connect() as connection:
            connection.execute(text(f"DROP ROLE {role}"))
        database.dispose()
        server.dispose()


def as_role(pg_url: str, role: str) -> str:
    return make_url(pg_url).set(username=role, password=None).render_as_string(False)


def grant(pg_url: str, *statements: str) -> None:
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()


@pytest.mark.postgres
def test_doctor_finds_a_postgres_user_who_may_only_read(
    pg_url: str, pg_role: str, fake_github: FakeGitHub
) -> None:
    grant(pg_url, f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {pg_role}")
    url = as_role(pg_url, pg_role)
    code, out, err = cli("doctor", database_url=url)
    assert code == 1, (out, err)
    said = store_line(out)
    assert said.startswith("✗") and "refused a write (permission denied for " in said
    assert f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {pg_role}" in (
        said
    )
    code, out, err = cli(*SHOW, database_url=url)
    assert code == 1 and out == "", (out, err)
    said = one_sentence(err)
    assert "refused a write (permission denied for table " in said and "GRANT " in said


@pytest.mark.postgres
def test_a_refused_write_on_postgres_is_told_once(
    pg_url: str, pg_role: str, caplog: pytest.LogCaptureFixture
) -> None:
    """psycopg would also log, raw, that it "ignored" the aborted pipeline of the write."""
    grant(pg_url, f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {pg_role}")
    store = Store(as_role(pg_url, pg_role))
    try:
        for _ in range(30):  # psycopg's line depends on when the server's answer arrives
            with pytest.raises(StoreError, match="permission denied for table items"):
                store.items.save([item(n) for n in range(1, 50)], item(1).created_at)
    finally:
        store.close()
    assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []


@pytest.mark.postgres
def test_doctor_finds_a_postgres_server_that_takes_no_writes(
    pg_url: str, pg_role: str, fake_github: FakeGitHub
) -> None:
    grant(
        pg_url,
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {pg_role}",
        f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {pg_role}",
        f"ALTER ROLE {pg_role} SET default_transaction_read_only = on",
    )
    url = as_role(pg_url, pg_role)
    code, out, err = cli("doctor", database_url=url)
    assert code == 1, (out, err)
    said = store_line(out)
    assert said.startswith("✗") and "accepts no writes" in said
    assert "turn default_transaction_read_only off" in said
    code, out, err = cli(*SHOW, database_url=url)
    assert code == 1 and out == "", (out, err)
    assert "accepts no writes (cannot execute" in one_sentence(err)


@pytest.mark.postgres
def test_a_postgres_user_with_every_grant_is_writable(
    pg_url: str, pg_role: str, fake_github: FakeGitHub
) -> None:
    grant(
        pg_url,
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {pg_role}",
        f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO {pg_role}",
    )
    code, out, err = cli("doctor", database_url=as_role(pg_url, pg_role))
    assert code == 0, (out, err)
    assert store_line(out).startswith("✓") and store_line(out).endswith(", writable")


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("usage", "driver_said"),
    [(True, "permission denied for schema public"), (False, "no schema has been selected")],
)
def test_a_postgres_user_who_may_not_create_the_tables_is_told_how(
    pg_url: str, pg_role: str, usage: bool, driver_said: str
) -> None:
    """A new store on PostgreSQL 15, where only the owner may create in `public` (and, when
    the schema was made anew, only the owner may even use it)."""
    grant(pg_url, "DROP SCHEMA public CASCADE", "CREATE SCHEMA public")
    if usage:
        grant(pg_url, f"GRANT USAGE ON SCHEMA public TO {pg_role}")
    with pytest.raises(StoreError) as refused:
        Store(as_role(pg_url, pg_role))
    said = str(refused.value)
    assert driver_said in said
    assert f"GRANT USAGE, CREATE ON SCHEMA public TO {pg_role}" in said


@pytest.mark.postgres
def test_a_postgres_user_who_may_not_connect_is_not_told_to_grant_tables(
    pg_url: str, pg_role: str
) -> None:
    name = make_url(pg_url).database
    grant(pg_url, f'REVOKE CONNECT ON DATABASE "{name}" FROM PUBLIC')
    try:
        with pytest.raises(StoreError) as refused:
            Store(as_role(pg_url, pg_role))
    finally:
        grant(pg_url, f'GRANT CONNECT ON DATABASE "{name}" TO PUBLIC')
    said = str(refused.value)
    assert "permission denied for database" in said and "GRANT SELECT" not in said
