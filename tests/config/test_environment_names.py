"""A mistyped setting name in the environment (`VLLM_REPORT_CUTOF`, `GITHUB_REPO`) was ignored
in silence and the setting meant stayed at its default. The environment is shared with other
programs, so such a name is warned about (one line on stderr, with a "did you mean"), not
refused; names other tools set (GitHub Actions' GITHUB_*, a webhook URL) pass unremarked.
`.env`, the bot's own file, still refuses the same names (tests/cli/test_errors.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from config.settings import SettingsError, load_settings

# What GitHub Actions, Codespaces and common Slack/Discord/LLM tools set in the environment.
OTHER_TOOLS = {
    "GITHUB_ACTIONS": "true",
    "GITHUB_WORKSPACE": "/home/runner/work/x/x",
    "GITHUB_SHA": "0123456789abcdef0123456789abcdef01234567",
    "GITHUB_REPOSITORY": "vllm-project/vllm",
    "GITHUB_REPOSITORY_OWNER": "vllm-project",
    "GITHUB_REF": "refs/heads/main",
    "GITHUB_REF_NAME": "main",
    "GITHUB_RUN_ID": "1",
    "GITHUB_RUN_NUMBER": "1",
    "GITHUB_RUN_ATTEMPT": "1",
    "GITHUB_RETENTION_DAYS": "90",
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_GRAPHQL_URL": "https://api.github.com/graphql",
    "GITHUB_OUTPUT": "/home/runner/work/_temp/out",
    "GITHUB_ENV": "/home/runner/work/_temp/env",
    "GITHUB_PATH": "/home/runner/work/_temp/path",
    "GITHUB_STEP_SUMMARY": "/home/runner/work/_temp/summary",
    "GITHUB_EVENT_NAME": "push",
    "GITHUB_EVENT_PATH": "/home/runner/work/_temp/event.json",
    "GITHUB_ACTOR": "someone",
    "GITHUB_TRIGGERING_ACTOR": "someone",
    "GITHUB_JOB": "test",
    "GITHUB_ACTION": "run",
    "GITHUB_WORKFLOW": "CI",
    "GITHUB_HEAD_REF": "",
    "GITHUB_BASE_REF": "",
    "GITHUB_USER": "someone",
    "SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/x",
    "DISCORD_WEBHOOK_URL": "https://discord.com/api/webhooks/x",
    "LLM_USER_PATH": "/home/runner/work/_temp/llm",
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "says"),
    [
        (
            "VLLM_REPORT_CUTOF",
            "VLLM_REPORT_CUTOF is not a setting: did you mean VLLM_REPORT_CUTOFF?",
        ),
        ("GITHUB_REPO", "GITHUB_REPO is not a setting: did you mean VLLM_REPORT_REPO?"),
        ("GITHUB_TOKN", "GITHUB_TOKN is not a setting: did you mean GITHUB_TOKEN?"),
        (
            "GITHUB_TIMEOUT",
            "GITHUB_TIMEOUT is not a setting: did you mean VLLM_REPORT_GITHUB_TIMEOUT?",
        ),
        (
            "VLLM_REPORT_GITHUB_TOKEN",
            "VLLM_REPORT_GITHUB_TOKEN is not a setting: did you mean GITHUB_TOKEN?",
        ),
        ("SLACK_CHANELS", "SLACK_CHANELS is not a setting: did you mean SLACK_CHANNELS?"),
        ("VLLM_REPORT_COLOUR", "VLLM_REPORT_COLOUR is not a setting: see docs/settings.md"),
    ],
)
def test_a_mistyped_environment_name_is_warned_about(
    name: str,
    says: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    """The command still runs (exit 0): the one extra line on stderr says what was meant."""
    monkeypatch.setenv(name, "12:00")
    code, out, err = run(capsys, "topics")
    assert code == 0 and out
    told = [line for line in err.splitlines() if line.strip()]
    assert len(told) == 1 and told[0].endswith(f"the environment: {says}"), err
    assert "12:00" not in err  # the value may be a secret: only the name is said


def test_names_other_tools_set_pass_unremarked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, clean_env: Path
) -> None:
    """CI runners and chat tools share the environment; a secret file's `_FILE` is ours."""
    for name, value in OTHER_TOOLS.items():
        monkeypatch.setenv(name, value)
    (clean_env / "token").write_text("ghp_FILEsecret0123456789\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_TOKEN_FILE", str(clean_env / "token"))
    monkeypatch.setenv("VLLM_REPORT_CONFIG", "")  # read from the environment alone: ours
    code, out, err = run(capsys, "topics")
    assert code == 0 and out and err == ""


def test_dotenv_refuses_what_the_environment_warns_about(clean_env: Path) -> None:
    """One check for both: `.env` is the bot's own file, so there the name is refused."""
    (clean_env / ".env").write_text("GITHUB_REPO=vllm-project/vllm\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"GITHUB_REPO is not a setting: did you mean VLL"):
        load_settings()
