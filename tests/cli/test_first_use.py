"""The stumbles a new user met (issue 12), each tried as they tried it and fixed: one test
per stumble that fails on the code before the fix."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import make_url

import tests.conftest as shared
from bot.cli import main
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]
DAY = anchor_days()[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def help_of(*argv: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "bot", *argv, "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "COLUMNS": "100"},
    )
    return result.stdout


# 3. An archive folder that cannot be written: one sentence, no traceback.
def test_an_unwritable_archive_is_one_sentence(
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = clean_env / "blocked"
    data.mkdir()
    (data / "archive").write_text("a file where the archive folder should be\n")
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(data))
    code, out, err = run(capsys, "post", DAY.label, "--cutoff", DAY.cutoff)
    assert code == 2 and out == ""
    assert "cannot write" in err and "VLLM_REPORT_DATA_DIR" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


# 4. `~` in a path setting is the home folder, not a folder named `~`.
def test_a_tilde_in_a_path_setting_is_the_home_folder(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", "~/.local/share/vllm-report-bot")
    monkeypatch.setenv("VLLM_REPORT_SITE_DIR", "~/site")
    settings = load_settings()
    assert settings.data_dir == Path.home() / ".local/share/vllm-report-bot"
    assert settings.site_root == Path.home() / "site"
    assert not (clean_env / "~").exists()


# 5. `explain` of a number that is no item; `--repo` naming no repository.
def test_explain_of_a_missing_item_says_the_item_is_missing(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "explain", "99999999")
    assert code == 2
    assert "#99999999 is neither an issue nor a pull request of vllm-project/vllm" in err
    assert "no repository" not in err


@pytest.mark.parametrize("command", ["show", "post"])
def test_a_missing_repository_is_named_not_reported_as_a_quiet_day(
    command: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, command, DAY.label, "--repo", "owner/missing")
    assert code == 2 and out == ""
    assert "GitHub has no repository 'owner/missing'" in err and "--repo" in err


def test_explain_in_a_missing_repository(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "explain", "38313", "--repo", "owner/missing")
    assert code == 2 and "GitHub has no repository 'owner/missing'" in err


# 6. `post --counts-only` must never replace the day's full archived report.
def test_post_cannot_overwrite_the_full_report_with_a_short_one(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], clean_env: Path
) -> None:
    assert run(capsys, "post", DAY.label, "--cutoff", DAY.cutoff)[0] == 0
    archived = clean_env / "data" / "archive" / "vllm-project__vllm" / f"{DAY.label}.json"
    full = archived.read_text(encoding="utf-8")
    assert "stories" in json.loads(full)
    for option in (["--counts-only"], ["--topic", "amd"]):
        with pytest.raises(SystemExit) as exit_:
            main(["post", DAY.label, "--cutoff", DAY.cutoff, *option])
        assert exit_.value.code == 2
        assert "unrecognized arguments" in capsys.readouterr().err
    assert archived.read_text(encoding="utf-8") == full


# 7. An empty setting means "not set".
def test_an_empty_database_url_means_the_default(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "")
    (clean_env / ".env").write_text("LLM_API_KEY=\nSLACK_CHANNELS=\nVLLM_REPORT_LANG=\n")
    settings = load_settings()
    assert settings.database_url is None and settings.llm_api_key is None
    assert settings.store_url().startswith("sqlite:///")
    assert run(capsys, "topics")[0] == 0


# 8. Options named as typed; readable messages; --version; help that helps.
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--repo", "vllm"], "--repo: 'vllm' is not of the form owner/name"),
        (["--timezone", "Mars/Base"], "--timezone: unknown time zone 'Mars/Base'"),
        (["--cutoff", "25:00"], "--cutoff: cutoff '25:00' is not a time of day"),
    ],
)
def test_a_bad_option_is_named_as_typed(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "show", DAY.label, *argv)
    assert code == 2 and says in err and "VLLM_REPORT_" not in err


def test_a_bad_language_setting_reads_as_a_sentence(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_REPORT_LANG", "fr")
    code, _, err = run(capsys, "topics")
    assert code == 2
    assert "VLLM_REPORT_LANG: 'fr' is not a report language: use en or zh" in err
    assert "pattern" not in err and "^(en|zh)$" not in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert re.fullmatch(r"vllm-report \d+\.\d+\.\d+\n", capsys.readouterr().out)


@pytest.mark.parametrize(
    "command",
    [
        "show",
        "post",
        "serve",
        "chart",
        "site",
        "explain",
        "topics",
        "doctor",
        "backfill",
        "demo",
    ],
)
def test_each_command_has_a_description_and_examples(command: str) -> None:
    text = help_of(command)
    _usage, _, rest = text.partition("\n\n")
    description = rest.split("\n\n", 1)[0]
    assert len(description.split()) >= 8, text  # says what it does, not just the usage
    assert "\nexamples:\n  vllm-report " in text or "\nexamples:\n  " in text


def test_format_and_serve_help_say_what_matters() -> None:
    show = help_of("show")
    assert re.search(r"--format \{markdown,json,slack,discord\}\s+markdown \(default\)", show)
    serve = " ".join(help_of("serve").split())
    for words in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET",
                  "DISCORD_BOT_TOKEN", "archive-only"):  # fmt: skip
        assert words in serve


def test_explain_and_topics_take_no_options_that_mean_nothing_to_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (["topics", "--cutoff", "11:45"], ["topics", "--repo", "a/b"],
                 ["explain", "1", "--lang", "zh"], ["explain", "1", "--refresh"]):  # fmt: skip
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2, argv
        assert "unrecognized arguments" in capsys.readouterr().err


# 9. Slack half-configured: said by doctor (and at serve's start: tests/service/test_serve.py).
def test_half_configured_slack_is_said(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("SLACK_API_URL", "http://127.0.0.1:9/api/")
    monkeypatch.setenv("SLACK_CHANNELS", "C1")
    code, out, _ = run(capsys, "doctor")
    # A set-up that only posts is a set-up, not a mistake: said as well (✓), never exit 2;
    # the Slack API here cannot be reached, which is the run's failure (exit 1).
    assert code == 1 and re.search(r"^✓ .*slash commands are off \(posts only\)", out, re.M)


# 10. The tests never empty a database they did not create.
def test_the_tests_empty_only_a_database_of_their_own() -> None:
    server = shared.SERVER_URL
    with pytest.raises(AssertionError, match="not created by this test run"):
        shared._reset_postgres(server)
    with pytest.raises(AssertionError, match="not created by this test run"):
        shared._reset_postgres(make_url(server).set(database="test").render_as_string())
    assert make_url(server).database != "test"  # the old default held a developer's data
