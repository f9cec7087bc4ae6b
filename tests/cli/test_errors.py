"""Every error path ends in one sentence and the right exit status: 0 done, 1 a service we
depend on failed, 2 what was typed or configured is wrong. No traceback, ever."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event, make_url, text

from bot.cli import main
from bot.model.report import PullDetails
from bot.store import Store, StoreError
from tests.anchor_data import REPO, anchor_days
from tests.cli_run import one_sentence, run
from tests.factories import item
from tests.fakes.github_api import FakeGitHub, Fault

DAY = anchor_days()[2]
T0 = datetime(2026, 3, 26, 3, 45, tzinfo=UTC)


# -- dates -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "when", ["9999-12-31", "0001-01-01", "0001-01-01..0001-01-03", "9999-12-30..9999-12-31"]
)
def test_dates_outside_the_supported_range_are_refused(
    when: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """No overflow: the sentence names the supported range (1970-01-08 to 9999-12-30)."""
    code, out, err = run(capsys, "show", when)
    assert code == 2 and out == ""
    assert "1970-01-08 to 9999-12-30" in one_sentence(err)


# -- settings files --------------------------------------------------------------------------


def test_malformed_settings_toml(capsys: pytest.CaptureFixture[str], clean_env: Path) -> None:
    (clean_env / "vllm-report.toml").write_text('cutoff = "11:45\n', encoding="utf-8")
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert "settings file vllm-report.toml is not valid TOML" in one_sentence(err)


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        ('langg = "zh"\n', "'langg' is not a setting: did you mean 'lang'?"),
        ('[slack]\nchannels = "C1"\n', "[slack] is a table"),
    ],
)
def test_a_settings_file_key_that_is_no_setting_is_named(
    toml: str, says: str, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """A typo or a table in vllm-report.toml is refused, not ignored (and `doctor` with it)."""
    (clean_env / "vllm-report.toml").write_text(toml, encoding="utf-8")
    for command in ("topics", "doctor"):
        code, _, err = run(capsys, command)
        assert code == 2 and says in one_sentence(err) and "vllm-report.toml" in err


def test_a_database_password_with_an_at_sign_is_refused_unshown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver would read the tail of such a password as the host (and print it)."""
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://alice:s3cr@tPass@127.0.0.1/db")
    code, out, err = run(capsys, "topics")
    assert code == 2 and "%40" in one_sentence(err)
    code, told, _ = run(capsys, "doctor")  # doctor names the setting and goes on
    assert code == 2 and "DATABASE_URL  its password holds '@'" in told
    assert not any(part in out + err + told for part in ("tPass", "s3cr"))


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["explain", "99999999999999999999999"], "is not an issue or PR number GitHub gives"),
        (["explain", "0"], "is not an issue or PR number GitHub gives"),
        (["demo", "--output", "a-file/inside"], "cannot make the folder a-file/inside"),
        # Path("") is the current folder: it wrote the whole site there (332 files).
        (["site", "build", ""], "name a folder for the site"),
    ],
)
def test_impossible_arguments_are_one_sentence(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "a-file").write_text("not a folder", encoding="utf-8")
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse ends a usage error itself, with status 2
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (
            "VLLM_REPORT_LANGG=zh\n",
            ".env: VLLM_REPORT_LANGG is not a setting: did you mean VLLM_REPORT_LANG?",
        ),
        ("GITHUB_TOKN=ghp_x\n", ".env: GITHUB_TOKN is not a setting: did you mean GITHUB_TOKEN?"),
        (
            "VLLM_REPORT_COLOUR=1\n",
            ".env: VLLM_REPORT_COLOUR is not a setting: see docs/settings.md",
        ),
    ],
)
def test_a_dotenv_name_that_is_no_setting_is_named(
    line: str, says: str, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """A typo in .env was ignored in silence and the setting meant stayed at its default;
    other programs' names (PATH, POSTGRES_PASSWORD) are not ours to judge."""
    (clean_env / ".env").write_text("POSTGRES_PASSWORD=x\n" + line, encoding="utf-8")
    for command in ("topics", "doctor"):
        code, _, err = run(capsys, command)
        assert code == 2 and says in one_sentence(err), err
    (clean_env / ".env").write_text("POSTGRES_PASSWORD=x\nVLLM_REPORT_LANG=zh\n", encoding="utf-8")
    assert run(capsys, "topics")[0] == 0


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("VLLM_REPORT_CATCH_UP_DAYS", "x", "VLLM_REPORT_CATCH_UP_DAYS: 'x' is not a whole number"),
        ("VLLM_REPORT_HTTP_PORT", "0", "VLLM_REPORT_HTTP_PORT: 0 is too small: use 1 or more"),
        ("VLLM_REPORT_GITHUB_TIMEOUT", "-1", "-1 is too small: use more than 0"),
        ("VLLM_REPORT_GITHUB_RETRIES", "99", "99 is too large: use 20 or less"),
        ("VLLM_REPORT_PIN_LAG_DAYS", "nan", "'nan' is not a number: write a figure such as 7"),
    ],
)
def test_a_number_setting_out_of_range_is_said_in_our_words(
    name: str,
    value: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not pydantic's "Input should be greater than or equal to 1"."""
    monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "topics")
    assert code == 2 and says in one_sentence(err) and "Input should" not in err


def test_a_settings_file_that_is_a_folder_is_refused(
    capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    (clean_env / "vllm-report.toml").mkdir()
    code, _, err = run(capsys, "topics")
    assert code == 2 and "vllm-report.toml is a folder, not a settings file" in one_sentence(err)


def test_a_data_folder_that_is_a_file_is_a_setting_fault(
    capsys: pytest.CaptureFixture[str], clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was exit 1 with "[Errno 17] File exists": a wrong setting is exit 2, named."""
    (clean_env / "data-file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(clean_env / "data-file"))
    code, _, err = run(capsys, "topics")
    assert code == 2 and "VLLM_REPORT_DATA_DIR" in err
    assert "data-file is a file, not a folder" in one_sentence(err)


def test_dotenv_that_is_not_utf8(capsys: pytest.CaptureFixture[str], clean_env: Path) -> None:
    (clean_env / ".env").write_bytes(b"VLLM_REPORT_LANG=\xff\xfe\n")
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert ".env is not UTF-8 text" in one_sentence(err)


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_bytes(b"\xff\xfe[topics]"), "is not UTF-8 text"),
        (lambda p: p.write_text("topics = 5\n", encoding="utf-8"), "has the wrong shape"),
    ],
    ids=["folder", "not-utf8", "topics-is-a-number"],
)
def test_broken_topic_rules_file(
    make: object,
    says: str,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = clean_env / "rules.toml"
    make(path)  # type: ignore[operator]
    monkeypatch.setenv("VLLM_REPORT_TOPICS_FILE", str(path))
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert says in one_sentence(err)


# -- settings named as they are spelled ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("GITHUB_API_URL", "nope"),
        ("SLACK_PORT", "abc"),
        ("LLM_TIMEOUT", "-1"),
        ("LLM_RETRIES", "many"),
        ("LLM_TIMEOUT", "inf"),
        ("SLACK_PORT", "70000"),
        ("LLM_BASE_URL", "not-a-url"),
        ("SLACK_API_URL", "not a url"),
        ("DISCORD_API_URL", "ftp://x"),
    ],
)
def test_errors_name_the_variable_as_the_user_spells_it(
    name: str, value: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "topics")
    assert code == 2
    sentence = one_sentence(err)
    assert f"— {name}:" in sentence and "VLLM_REPORT_" not in sentence


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("SLACK_CHANNELS", "#general", "is a channel name, not an ID"),
        ("SLACK_CHANNELS", "C1;C2", "separate them with commas"),
        ("DISCORD_CHANNELS", "general", "not a Discord channel ID"),
        ("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "nan", "'nan' is not a number: write a figure"),
        ("VLLM_REPORT_GITHUB_TIMEOUT", "inf", "'inf' is not a number: write a figure"),
        ("VLLM_REPORT_HTTP_HOST", "not an address", "not an address to listen on"),
        # Posted at the cutoff, every window would still be incomplete: none would go out.
        ("VLLM_REPORT_POST_DELAY_MINUTES", "0", "use 5 or more"),
        ("VLLM_REPORT_POST_DELAY_MINUTES", "1", "use 5 or more"),
    ],
)
def test_settings_are_checked_at_start_up(
    name: str,
    value: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "topics")
    assert code == 2 and says in one_sentence(err) and f"— {name}: " in err


@pytest.mark.parametrize("url", ["postgres//x", "nonsense", "foo://host/db"])
def test_malformed_database_url_is_input_error(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    code, _, err = run(capsys, "show", "2026-03-26")
    assert code == 2
    assert "DATABASE_URL" in one_sentence(err)


@pytest.mark.parametrize("content", [b"", b"my precious notes\n"], ids=["empty", "text"])
def test_database_url_naming_another_file_leaves_it_alone(
    content: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    notes = clean_env / "notes.md"
    notes.write_bytes(content)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{notes}")
    code, _, err = run(capsys, "show", "2026-03-26")
    assert code == 2
    assert "refusing to touch it" in one_sentence(err)
    assert notes.read_bytes() == content
    assert not (clean_env / "notes.md-wal").exists()


# -- the store failing after it opened --------------------------------------------------------


def test_sqlite_locked_by_another_process_is_one_sentence(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'locked.sqlite3'}"
    Store(url).close()
    holder = sqlite3.connect(tmp_path / "locked.sqlite3")
    holder.execute("BEGIN EXCLUSIVE")
    store = Store(url, busy_seconds=0.2)
    try:
        with pytest.raises(StoreError, match="stayed locked by another process"):
            store.items.save([item(1, created_at=T0)], T0)
    finally:
        holder.rollback()
        holder.close()
        store.close()


def test_two_processes_storing_the_same_items_at_once(store_url: str) -> None:
    """B stores the item between A's look and A's insert: A's write is run again, no error."""
    a, b = Store(store_url), Store(store_url)
    raced = []

    @event.listens_for(a.engine, "before_cursor_execute")
    def _race(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("INSERT INTO ITEMS") and not raced:
            raced.append(True)
            b.items.save([item(1, created_at=T0, title="from B")], T0)

    a.items.save([item(1, created_at=T0, title="from A")], T0)
    assert raced
    assert a.items.get(REPO, 1) is not None
    a.close()
    b.close()


def test_two_runs_storing_the_same_pull_details_at_once(store_url: str) -> None:
    """Two `post` runs of one day read the same key-change candidate: B stores its size
    between A's look and A's insert; A's write is run again, no error (it was one in 2 of 30
    racing days in benchmarks/fault_figures.py)."""
    a, b = Store(store_url), Store(store_url)
    raced = []

    @event.listens_for(a.engine, "before_cursor_execute")
    def _race(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("INSERT INTO PULL_DETAILS") and not raced:
            raced.append(True)
            b.pulls.save(REPO, PullDetails(7, 1, 2, 3, ("b",)), T0, T0)

    a.pulls.save(REPO, PullDetails(7, 10, 20, 3, ("a",)), T0, T0)
    assert raced
    assert a.pulls.of(REPO, [7])[7][0].additions == 10  # A's read, the newer, is kept
    a.close()
    b.close()


def test_corrupted_sqlite_file_is_one_sentence(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "damaged.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.items.save([item(n, created_at=T0) for n in range(1, 400)], T0)
    store.close()
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    data = bytearray(path.read_bytes())
    for offset in range(4096 * 2, len(data), 4096):
        data[offset : offset + 64] = b"\x77" * 64
    path.write_bytes(bytes(data))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    code, _, err = run(capsys, "show", "2026-03-26")
    assert code == 1
    assert "is damaged" in one_sentence(err)


@pytest.fixture
def doomed_pg(pg_url: str) -> object:
    """A database of its own beside the tests' one, to be dropped in the middle of a run."""
    name = f"{make_url(pg_url).database}_doomed"
    server = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with server.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(pg_url).set(database=name).render_as_string(hide_password=False)

    def drop() -> None:
        with server.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    yield url, drop
    drop()
    server.dispose()


@pytest.mark.postgres
def test_postgres_dropped_in_the_middle_of_show(
    doomed_pg: tuple[str, object],
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, drop = doomed_pg
    monkeypatch.setenv("DATABASE_URL", url)

    def drop_on_third(index: int, path: str) -> Fault | None:
        if index == 2:
            drop()  # type: ignore[operator]
        return None

    fake_github.fault_rule = drop_on_third
    code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 1 and out == ""
    assert "the store's database is gone" in one_sentence(err)


@pytest.mark.postgres
def test_postgres_dropped_in_the_middle_of_post(
    doomed_pg: tuple[str, object],
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.fakes.slack_api import FakeSlack

    url, drop = doomed_pg
    monkeypatch.setenv("DATABASE_URL", url)
    with FakeSlack() as slack:
        slack.on_post = lambda count: drop() if count == 2 else None  # type: ignore[operator]
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        monkeypatch.setenv("VLLM_REPORT_SLACK_POST_INTERVAL", "0")
        code, _, err = run(capsys, "post", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 1
    assert "the store's database is gone" in one_sentence(err)


# -- GitHub's rate limit ---------------------------------------------------------------------


def test_rate_limit_used_up_says_so_and_when_it_resets_without_log_noise(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retries spent on primary-limit 403s: the sentence says the limit is used up and the
    reset time; nothing else is printed at the default verbosity."""
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "1")
    fake_github.fault_rule = lambda index, path: Fault.primary_limit(reset_in=1)
    code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 1 and out == ""
    sentence = one_sentence(err)
    assert "rate limit is used up (it resets at" in sentence
    assert "too many 403" not in sentence
    assert err.strip() == sentence


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("answered", ["the command's answer", "a failure's sentence"])
def test_a_ctrl_c_or_sigterm_after_the_answer_prints_no_traceback(answered: str, stop: str) -> None:
    """A Ctrl-C that lands once the command has answered (Python closing its threads and
    files: the probe script caught Python's own KeyboardInterrupt traceback there) changes
    nothing: the exit status is the command's, and stderr holds its sentence alone. The
    interrupt is sent by an exit handler, so it lands in that window every time."""
    fails = answered == "a failure's sentence"
    probe = (
        "import atexit, os, signal, sys\n"
        "import bot.cli\n"
        "from bot.model.errors import InputError\n"
        "def main():\n"
        f"    if {fails}:\n"
        "        return bot.cli._guarded(lambda a: (_ for _ in ()).throw(InputError('no')), None)\n"
        "    return 0\n"
        "bot.cli.main = main\n"
        f"atexit.register(lambda: os.kill(os.getpid(), signal.{stop}))\n"
        "bot.cli.run()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert "Traceback" not in result.stderr, result.stderr
    assert (result.returncode, result.stderr) == ((2, "vllm-report: no\n") if fails else (0, ""))


def test_sigterm_stops_a_command_with_its_sentence() -> None:
    """`docker stop` (SIGTERM) during a command: the command stops as on Ctrl-C, saying
    that nothing half-done was recorded, instead of dying silently."""
    probe = (
        "import os, signal, threading\n"
        "import bot.cli\n"
        "def busy(args):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    threading.Event().wait(30)\n"
        "    return 0\n"
        "bot.cli.main = lambda: bot.cli._guarded(busy, None)\n"
        "bot.cli.run()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 143, result  # 128 + SIGTERM, as a shell reports it
    assert result.stderr.startswith("vllm-report: interrupted; nothing half-done"), result.stderr
