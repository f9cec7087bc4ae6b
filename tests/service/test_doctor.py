"""`doctor` on an operator's second day: a Slack set-up that only posts is well (slash
commands said to be off, and why), a damaged SQLite store is found by `PRAGMA quick_check`,
and a machine with no CJK font for the Chinese charts is said, with the package to install."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import Store
from formatters import charts
from tests.factories import item
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def line(out: str, name: str) -> str:
    """doctor's line for the check `name` (✓, ⚠ or ✗ first)."""
    found = [row for row in out.splitlines() if re.match(rf"[✓⚠✗] {re.escape(name)}\s", row)]
    assert len(found) == 1, out
    return found[0]


@pytest.fixture
def posts_only(fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSlack]:
    """Slack with a bot token and a channel, and neither an app token nor a signing secret."""
    with FakeSlack() as slack:
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-posts-only-0123456789")
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        yield slack


def test_a_slack_setup_that_only_posts_is_well(
    posts_only: FakeSlack, capsys: pytest.CaptureFixture[str]
) -> None:
    """No slash commands wanted is a valid set-up: exit 0, and the line says they are off
    and what would turn them on."""
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    said = line(out, "slack commands")
    assert said.startswith("✓")
    assert "slash commands are off (posts only)" in said
    assert "SLACK_APP_TOKEN" in said and "SLACK_SIGNING_SECRET" in said
    assert line(out, "slack channel C1").startswith("✓")


def damage(path: Path) -> None:
    """Overwrite the first page of the items table with noise (a failed disk, a copy made
    mid-write): the store still opens (opening reads only its schema revision)."""
    with sqlite3.connect(path) as connection:
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        root = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'items'"
        ).fetchone()[0]
    connection.close()
    with path.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\x0d\xff\xff\xff" + bytes(range(256)) * (page_size // 256 - 1))


def test_a_damaged_sqlite_store_is_found_by_quick_check(
    fake_github: FakeGitHub, clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = clean_env / "data" / "vllm-report.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.items.save([item(n, title="t" * 500) for n in range(1, 300)], item(1).created_at)
    store.close()
    damage(path)
    Store(f"sqlite:///{path}").close()  # opening alone does not see it
    code, out, _ = run(capsys, "doctor")
    assert code == 1, out
    said = line(out, "store")
    assert said.startswith("✗") and f"sqlite:///{path} is damaged (quick_check: " in said
    assert "restore the last backup" in said


def test_a_whole_sqlite_store_says_quick_check_passed(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    assert line(out, "store").endswith(", quick_check ok")


def test_the_chart_font_is_named_when_installed(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    font = charts.cjk_font()
    if font is None:
        pytest.skip("no CJK font on this machine (apt-get install fonts-wqy-microhei)")
    code, out, _ = run(capsys, "doctor")
    assert code == 0, out
    assert line(out, "chart fonts") == f"✓ chart fonts{line(out, 'chart fonts')[13:]}"
    assert f"{font} draws the Chinese charts" in line(out, "chart fonts")


@pytest.mark.parametrize(("lang", "code"), [("zh", 1), ("en", 0)])
def test_no_cjk_font_says_which_package_to_install(
    lang: str,
    code: int,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fault when reports are Chinese by default; marked ⚠ (not ✓, not failed) otherwise."""
    monkeypatch.setattr(charts, "_installed", lambda: {"DejaVu Sans"})
    monkeypatch.setenv("VLLM_REPORT_LANG", lang)
    got, out, _ = run(capsys, "doctor")
    assert got == code, out
    said = line(out, "chart fonts")
    assert said.startswith("✗" if code else "⚠")
    if not code:
        assert out.rstrip().endswith("1 to look at: the lines marked ⚠")
    assert "Chinese charts draw empty boxes; install fonts-wqy-microhei" in said
