"""What an operator was told and could not act on (issue 53), each tried as they tried it:
a mistyped label answered as a quiet window, a folder that cannot be written told as
Python's errno, a progress bar drawn into a log file. One test per finding that fails on
the code before its fix."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from tests.anchor_data import anchor_days
from tests.cli_run import one_sentence, run
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]


# 1. `digest label:rocmm`: the label is checked as `/vllm-subscribe label:…` checks it.
def test_a_mistyped_label_is_refused_with_the_label_meant(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "digest", "label:rocmm", DAY.label, "--cutoff", DAY.cutoff)
    assert (code, out) == (2, "")
    assert one_sentence(err) == (
        "vllm-report: vllm-project/vllm has no label `rocmm`: did you mean `label:rocm`?"
    )


def test_a_label_of_the_repository_in_another_case_still_makes_its_digest(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "digest", "label:ROCM", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 0, err
    assert "Matching items (33)" in out


# -- the real command line, in its own process --------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
BAR = set("━╸╺█▏▎▍▌▋▊▉")  # what Rich draws a bar with


def cli(folder: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`vllm-report ARGV` as a person runs it, stdout and stderr to pipes (no terminal),
    with this test's environment (clean_env's settings, the fake GitHub) and `env`."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *argv],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=300,
        check=False,
    )


def told(result: subprocess.CompletedProcess[str]) -> str:
    """The one sentence stderr holds, with no traceback and no bare errno."""
    err = result.stderr
    assert "Traceback" not in err and "[Errno" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def refused_even_to_root(path: Path) -> Path:
    """A folder no user may make, root included (sysfs answers EPERM); skipped where /sys
    lets it be made."""
    try:
        path.mkdir()
    except OSError:
        return path
    path.rmdir()
    pytest.skip(f"{path} can be made here")


# 4. A folder that cannot be written: the folder, the setting, what to do; no errno.
def test_a_data_folder_that_cannot_be_made_is_one_sentence(clean_env: Path) -> None:
    denied = refused_even_to_root(Path("/sys/vllm-report-test"))
    result = cli(clean_env, "show", "2026-03-25", VLLM_REPORT_DATA_DIR=str(denied))
    assert (result.returncode, result.stdout) == (2, "")
    assert told(result) == (
        f"vllm-report: cannot write the store in {denied}: this user (uid {os.getuid()}) may "
        "not write there — make the folder writable by it (in Docker the image's user is "
        "10001), or set VLLM_REPORT_DATA_DIR to a folder it may write"
    )


def test_a_data_folder_under_a_file_names_the_file(clean_env: Path) -> None:
    (clean_env / "file.txt").write_text("not a folder\n", encoding="utf-8")
    data = clean_env / "file.txt" / "data"
    result = cli(clean_env, "show", "2026-03-25", VLLM_REPORT_DATA_DIR=str(data))
    assert (result.returncode, result.stdout) == (2, "")
    assert told(result) == (
        f"vllm-report: cannot write the store in {data}: {clean_env / 'file.txt'} is a file, "
        "not a folder — move it aside, or set VLLM_REPORT_DATA_DIR to a folder elsewhere"
    )


def test_an_archive_that_cannot_be_written_names_its_folder_and_setting(
    fake_github: FakeGitHub, clean_env: Path
) -> None:
    """The store elsewhere (DATABASE_URL), the data folder refused: the report archive's
    write is the one told, by `post` as by the daily run."""
    denied = refused_even_to_root(Path("/sys/vllm-report-test"))
    result = cli(
        clean_env,
        "post",
        DAY.label,
        "--cutoff",
        DAY.cutoff,
        VLLM_REPORT_DATA_DIR=str(denied),
        DATABASE_URL=f"sqlite:///{clean_env / 'store.sqlite3'}",
    )
    assert (result.returncode, result.stdout) == (2, "")
    folder = denied / "archive" / "vllm-project__vllm"
    assert told(result) == (
        f"vllm-report: cannot write the report archive in {folder}: this user (uid "
        f"{os.getuid()}) may not write there — make the folder writable by it (in Docker the "
        "image's user is 10001), or set VLLM_REPORT_DATA_DIR to a folder it may write"
    )


def test_a_site_folder_that_cannot_be_written_says_what_to_do(clean_env: Path) -> None:
    (clean_env / "file.txt").write_text("not a folder\n", encoding="utf-8")
    for root, why in [
        (refused_even_to_root(Path("/sys/vllm-report-site")), "may not write there"),
        (clean_env / "file.txt" / "site", f"{clean_env / 'file.txt'} is a file, not a folder"),
    ]:
        result = cli(clean_env, "site", "build", str(root))
        assert (result.returncode, result.stdout) == (2, "")
        said = told(result)
        assert said.startswith(f"vllm-report: cannot write the site in {root}: "), said
        assert why in said and "name a folder" in said


# 5. `backfill` into a log file: no bar, no carriage return; a whole line per day.
def test_backfill_off_a_terminal_draws_no_bar(fake_github: FakeGitHub, clean_env: Path) -> None:
    result = cli(clean_env, "backfill", "2026-03-23..2026-03-25", "--cutoff", DAY.cutoff)
    assert result.returncode == 0, result.stderr
    err = result.stderr
    assert "\r" not in err and not BAR & set(err) and "\x1b" not in err, repr(err)
    lines = err.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "backfill 2026-03-23",
        "backfill 2026-03-24",
        "backfill 2026-03-25",
    ]
    assert all(" archived · " in line for line in lines), lines
    assert lines[-1].startswith("backfill 2026-03-25: archived · 3/3 days · ")
    assert "backfill 2026-03-23..2026-03-25: 3 report days; 3 archived now" in result.stdout
    again = cli(clean_env, "backfill", "2026-03-23..2026-03-25", "--cutoff", DAY.cutoff)
    assert "backfill 2026-03-25: already archived · 3/3 days · 0 requests" in again.stderr


def test_backfill_on_a_terminal_still_draws_its_bar(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    monkeypatch.setattr("bot.console.progress.terminal", lambda stream: console)
    code, _, err = run(capsys, "backfill", "2026-03-24..2026-03-25", "--cutoff", DAY.cutoff)
    assert code == 0
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.getvalue())
    assert "2/2 days" in shown and BAR & set(shown) and "\r" in shown
    assert "backfill 2026-03-2" not in err  # the bar, not the lines
