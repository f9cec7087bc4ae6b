"""Stopping (bot/app.py): Ctrl-C on `post` while GitHub is slow to answer stops it at once,
with exit status 130 and one line saying so and that a rerun resumes (a report being
collected is not waited for: it was the ~20 s a Ctrl-C took); `serve` told to stop while
it catches up logs "stopped" as its last line (the catch-up's collection, left behind, tells
nothing after it). The real command line in a subprocess against the fake GitHub, which
says when it holds a request: no sleep orders anything here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub, Fault

ROOT = Path(__file__).resolve().parents[2]
DAY = anchor_days()[2]  # 2026-03-25
INTERRUPTED = (
    "vllm-report: interrupted; nothing half-done was recorded as complete, and running the "
    "same command again resumes where it stopped"
)


class Hold:
    """The fake GitHub's first search is held (the request in and unanswered) until
    `release`; `held` is set when it arrives."""

    def __init__(self, fake: FakeGitHub) -> None:
        self.held = threading.Event()
        self.released = threading.Event()
        fake.fault_rule = self.rule

    def rule(self, index: int, path: str) -> Fault | None:
        if path == "/search/issues" and not self.held.is_set():
            self.held.set()
            self.released.wait(60)
        return None

    def release(self) -> None:
        self.released.set()


def start(*argv: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *argv],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def stopped(process: subprocess.Popen[str]) -> tuple[int, str]:
    """Its exit status and what it said, once it ended (10 s at most: it must not wait for
    the held request, which GitHub's 15 s timeout would end)."""
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(30)
        pytest.fail("still running 10 s after the signal")
    assert process.stderr is not None
    return process.returncode, process.stderr.read()


def test_ctrl_c_on_post_stops_at_once_and_a_rerun_resumes(
    fake_github: FakeGitHub, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hold = Hold(fake_github)
    process = start("post", DAY.label, "--cutoff", DAY.cutoff)
    try:
        assert hold.held.wait(120), "post never asked GitHub"
        process.send_signal(signal.SIGINT)
        code, err = stopped(process)
    finally:
        hold.release()
        if process.poll() is None:
            process.kill()
    assert code == 130
    assert err.splitlines() == [INTERRUPTED]
    fake_github.fault_rule = None
    assert main(["post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    _, again = capsys.readouterr()
    assert "archived: " in again


def test_serve_told_to_stop_while_catching_up_says_stopped_last(
    fake_github: FakeGitHub, clean_env: Path
) -> None:
    """SIGINT while the catch-up's first search is held, then the search answered: the
    collection left behind tells nothing (its report would say, e.g., that it has no
    Plugins section) after "stopped"."""
    hold = Hold(fake_github)
    process = start("serve", VLLM_REPORT_CATCH_UP_DAYS="1")
    try:
        assert hold.held.wait(120), "serve never caught up"
        process.send_signal(signal.SIGINT)
        hold.release()  # the collection could go on now: it must not be told
        code, err = stopped(process)
    finally:
        hold.release()
        if process.poll() is None:
            process.kill()
    lines = err.splitlines()
    assert code == 0, err
    assert "Traceback" not in err
    assert "catching up on" in err
    assert lines[-1].endswith("bot.app: stopped"), err
