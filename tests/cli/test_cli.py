"""The command line, as a person runs it: real days reproduced, errors in one sentence."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

import bot
import config
import formatters
from bot.cli import main
from tests.anchor_data import REPO, AnchorDay, anchor_days
from tests.fakes.github_api import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_show_json_reproduces_the_reference_counts_and_lists(
    day: AnchorDay, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Against real activity, the five counts and five lists equal the published report's."""
    code, out, _ = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["schema"] == "vllm-report/1"
    assert report["complete"] is True
    assert report["stats"] == day.counts
    for name, numbers in day.lists.items():
        assert sorted(report["lists"][name]) == sorted(numbers), name
    assert (
        report["window"]["start"]
        == day.start.astimezone(__import__("zoneinfo").ZoneInfo("Asia/Shanghai")).isoformat()
    )
    some = str(day.lists["new_issues"][0])
    assert report["items"][some]["url"] == f"https://github.com/{REPO}/issues/{some}"


@pytest.mark.postgres
def test_postgres_store_gives_the_same_report(
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    pg_url: str,
) -> None:
    """DATABASE_URL switches the archive to PostgreSQL; the report does not change."""
    monkeypatch.setenv("DATABASE_URL", pg_url)
    day = anchor_days()[0]
    code, out, _ = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "json")
    assert code == 0 and json.loads(out)["stats"] == day.counts
    fake_github.reset_log()
    code, _, _ = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "json")
    assert code == 0 and fake_github.requests == []


def test_markdown_in_chinese_has_the_reference_header(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """zh Markdown: the reference's title, window line, five counts, and appendix headings."""
    day = anchor_days()[2]
    code, out, _ = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--lang", "zh")
    assert code == 0
    assert out.startswith("# vLLM 开发动态日报 · 2026-03-25\n")
    assert "> 时间窗口：2026-03-25 11:43 ~ 2026-03-26 11:43（UTC+8）" in out
    assert (
        "新 Issue 29 | 关闭 Issue 10（人工关闭 8 个，stale 机器人自动关闭 2 个） | 新 PR 92 | "
        "合并 PR 44" in out
    )
    for heading in (
        "新增 Issue（29）",
        "已关闭 Issue（10）",
        "新增 PR（92）",
        "已合并 PR（44）",
        "关闭但未合并的 PR（74）",
    ):
        assert f"### {heading}" in out
    assert appendix(out).count("\n- [#") == sum(day.counts.values())


def appendix(markdown: str) -> str:
    return markdown[markdown.index("## 📋") :]


def test_markdown_in_english_lists_every_item(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """en Markdown: counts with the stale split, and one appendix line per listed event."""
    day = anchor_days()[0]
    code, out, _ = run(capsys, "show", day.label, "--cutoff", day.cutoff)
    assert code == 0
    assert "Closed issues 25 (12 by people, 13 by the stale bot)" in out
    assert appendix(out).count("\n- [#") == sum(day.counts.values())


def test_post_archives_the_report(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """The daily job prints the report and writes Markdown and JSON to the archive folder."""
    day = anchor_days()[1]
    code, out, err = run(capsys, "post", day.label, "--cutoff", day.cutoff)
    assert code == 0
    folder = clean_env / "data" / "archive" / "vllm-project__vllm"
    assert (folder / f"{day.label}.en.md").read_text(encoding="utf-8") == out.rstrip("\n") + "\n"
    archived = json.loads((folder / f"{day.label}.json").read_text(encoding="utf-8"))
    assert archived["stats"] == day.counts
    assert "archived:" in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["show", "tomorrowish"], "could not read 'tomorrowish' as a date"),
        (["show", "2099-01-01"], "has not come yet"),
        (["show", "2026-01-01..2026-03-26"], "more than the 31-day limit"),
        (["show", "2026-03-26", "--cutoff", "25:00"], "--cutoff: cutoff '25:00'"),
        (["show", "2026-03-26", "--timezone", "Mars/Base"], "unknown time zone 'Mars/Base'"),
        (["show", "2026-03-26", "--repo", "not a repo"], "not of the form owner/name"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad commands and settings: exit 2, a sentence on stderr, no traceback, no output."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert says in err
    assert "Traceback" not in err and out == ""


def test_bad_environment_setting_names_the_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong value in the environment is reported by the variable a person would fix."""
    monkeypatch.setenv("VLLM_REPORT_MAX_RANGE_DAYS", "lots")
    code, _, err = run(capsys, "show", "2026-03-26")
    assert code == 2 and "VLLM_REPORT_MAX_RANGE_DAYS" in err


def test_unreachable_github_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No GitHub: exit 1 with the URL and what to check."""
    monkeypatch.setenv("GITHUB_API_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("VLLM_REPORT_GITHUB_RETRIES", "0")
    code, out, err = run(capsys, "show", "2026-03-26")
    assert code == 1
    assert "cannot reach GitHub at http://127.0.0.1:9" in err
    assert out == ""


def test_settings_come_from_a_toml_file(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    """vllm-report.toml in the working folder sets the cutoff; the environment still wins."""
    day = anchor_days()[2]
    (clean_env / "vllm-report.toml").write_text(f'cutoff = "{day.cutoff}"\nlang = "zh"\n')
    code, out, _ = run(capsys, "show", day.label, "--format", "json")
    assert code == 0 and json.loads(out)["stats"] == day.counts


def test_missing_config_file_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """VLLM_REPORT_CONFIG pointing nowhere is a clear error, not a silent default."""
    monkeypatch.setenv("VLLM_REPORT_CONFIG", "/nonexistent/bot.toml")
    code, _, err = run(capsys, "show", "2026-03-26")
    assert code == 2 and "/nonexistent/bot.toml" in err


def test_token_never_appears_in_output_or_logs(
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A canary token is used on the wire but never printed, even at debug level."""
    canary = "ghp_CANARY0123456789abcdefSECRET"
    monkeypatch.setenv("GITHUB_TOKEN", canary)
    caplog.set_level(logging.DEBUG)
    day = anchor_days()[0]
    code, out, err = run(capsys, "-vv", "show", day.label, "--cutoff", day.cutoff)
    assert code == 0
    assert fake_github.requests[0].headers["Authorization"] == f"token {canary}"
    assert canary not in out + err + caplog.text


def test_python_m_bot_runs_the_same_command() -> None:
    """`python -m bot` is the console script; a bad phrase exits 2 from a real process."""
    result = subprocess.run(
        [sys.executable, "-m", "bot", "show", "not-a-date"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "could not read 'not-a-date'" in result.stderr


def test_top_level_packages_are_this_repositorys() -> None:
    """`bot`, `config`, `formatters` are generic names: make sure none is shadowed."""
    for package in (bot, config, formatters):
        assert Path(package.__file__ or "").resolve().parent.parent == ROOT
