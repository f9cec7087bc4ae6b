"""Long commands say what they are doing, on a terminal only.

A cold `show` tells each GitHub request, `site build` the day it is making, as one Rich
line on stderr that is gone when the work is. Off a terminal (a script, a pipe, these
tests' captured stderr) nothing is shown; a forced terminal is injected by replacing
`bot.console.progress.terminal`.
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from bot.cli import main
from bot.console.progress import asked
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.golden import check_golden

DAY = anchor_days()[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def force_terminal(monkeypatch: pytest.MonkeyPatch) -> StringIO:
    """What a terminal on stderr would be shown, from here on."""
    screen = StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    monkeypatch.setattr("bot.console.progress.terminal", lambda stream: console)
    return screen


def test_off_a_terminal_a_cold_show_prints_no_progress(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 0, err
    assert err == ""
    check_golden(f"report-{DAY.label}.en.md", out)


def test_on_a_terminal_a_cold_show_tells_each_github_request(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = force_terminal(monkeypatch)
    code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 0, err
    shown = screen.getvalue()
    assert f"fetching {DAY.label} from GitHub: request 1 (new issues)" in shown
    requests = len(fake_github.requests)
    assert f"fetching {DAY.label} from GitHub: request {requests} (" in shown
    assert err == ""  # stderr and stdout as off a terminal: the report byte for byte
    check_golden(f"report-{DAY.label}.en.md", out)


def test_site_build_tells_the_day_it_makes_on_a_terminal_only(
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    assert run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff)[0] == 0  # archived
    code, quiet_out, err = run(capsys, "site", "build", str(tmp_path / "a"), "--cutoff", DAY.cutoff)
    assert code == 0, err
    assert "building the site" not in err and "\x1b[" not in err  # (matplotlib may warn)
    screen = force_terminal(monkeypatch)
    code, out, err = run(capsys, "site", "build", str(tmp_path / "b"), "--cutoff", DAY.cutoff)
    assert code == 0, err
    assert "building the site" not in err
    assert out.replace("/b:", "/a:").split(" in ")[0] == quiet_out.split(" in ")[0]
    shown = screen.getvalue()
    assert "building the site" in shown
    assert f"building the site: {DAY.label}, day " in shown


def test_verbose_runs_leave_the_terminal_to_the_log_lines(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = force_terminal(monkeypatch)
    assert run(capsys, "-v", "show", DAY.label, "--cutoff", DAY.cutoff)[0] == 0
    assert screen.getvalue() == ""


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("/search/issues?per_page=100&q=repo%3Aa%2Fb+is%3Apr+closed%3A2026-03-25", "closed PRs"),
        ("/search/issues?page=3&q=repo%3Aa%2Fb+is%3Aissue+created%3A2026", "new issues, page 3"),
        ("/repos/a/b/issues/38077/comments?per_page=100", "comments of #38077"),
        ("/repos/a/b/pulls/38139", "#38139"),
        ("/repos/a/b/pulls/38139/reviews?page=2", "reviews of #38139, page 2"),
        ("/graphql", "a GraphQL query"),
        ("/repos/a/b", "/repos/a/b"),
    ],
)
def test_a_request_is_told_in_a_few_words(url: str, said: str) -> None:
    assert asked(url) == said
