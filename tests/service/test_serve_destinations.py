"""`serve`'s start-up words on where the daily post goes (issue 53): a bot token with no
channel was told "daily posts still go out" while none could. Each line is true of what the
process will do, names what is missing and what to set; where posts do go, it says where."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.app.serve import setup_problems
from bot.delivery import Destination
from config.settings import load_settings
from tests.fakes.github_api import FakeGitHub
from tests.service.test_serve import SLACK_TOKEN, free_port, run_serve, said

SIGNING = "CANARYsigning0123456789abcdef"
DISCORD = "CANARY.discord.0123456789"


def test_a_bot_token_with_no_channel_says_no_daily_post_goes_out(
    monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, store_url: str
) -> None:
    """The issue's set-up, through `serve` itself: SLACK_BOT_TOKEN alone."""
    ports = {"http": free_port()}
    for name, value in {
        "DATABASE_URL": store_url,
        "SLACK_BOT_TOKEN": SLACK_TOKEN,
        "SLACK_API_URL": "http://127.0.0.1:9/api/",
        "VLLM_REPORT_CATCH_UP_DAYS": "0",
        "VLLM_REPORT_HTTP_PORT": str(ports["http"]),
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SLACK_CHANNELS", raising=False)

    async def scenario(stream: io.StringIO, ports: dict[str, int]) -> None:
        await said(stream, r"slash commands are off")

    log = run_serve(scenario, ports)
    warning = next(line for line in log.splitlines() if "slash commands are off" in line)
    assert " WARNING " in warning
    assert "still go out" not in log
    assert "no daily post goes out" in warning and "SLACK_CHANNELS=C0123ABCD" in warning
    assert "SLACK_APP_TOKEN" in warning and "SLACK_SIGNING_SECRET" in warning
    assert "Slack (commands off, no channel to post to)" in log and "archive only" in log
    assert "posting only" not in log and SLACK_TOKEN not in log


def problems(monkeypatch: pytest.MonkeyPatch, **env: str) -> list[tuple[str, str]]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    found = [Destination("slack", c) for c in settings.slack_channel_list]
    found += [Destination("discord", c) for c in settings.discord_channel_list]
    opened = {
        platform
        for platform, token in (
            ("slack", settings.slack_bot_token),
            ("discord", settings.discord_bot_token),
        )
        if token
    }
    return setup_problems(settings, [d for d in found if d.platform in opened])


@pytest.mark.parametrize(
    ("env", "told"),
    [
        (  # commands answer, nothing posts: the brief's own words
            {"SLACK_BOT_TOKEN": SLACK_TOKEN, "SLACK_SIGNING_SECRET": SIGNING},
            [
                (
                    "no-destination",
                    "no daily destination is set: slash commands answer, but no daily post "
                    "goes out; set SLACK_CHANNELS=C0123ABCD (channel IDs, comma-separated) "
                    "to post",
                )
            ],
        ),
        (  # posts go out without commands: said, and where they go
            {
                "SLACK_BOT_TOKEN": SLACK_TOKEN,
                "SLACK_CHANNELS": "C1",
                "DISCORD_BOT_TOKEN": DISCORD,
                "DISCORD_CHANNELS": "111",
            },
            [
                (
                    "slack-commands-off",
                    "Slack slash commands are off: SLACK_BOT_TOKEN is set but neither "
                    "SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode); daily "
                    "posts still go out (to slack:C1, discord:111) — set one of them to answer "
                    "commands",
                )
            ],
        ),
        (  # Discord's gateway answers; only Slack has channels, and no token to post with
            {"DISCORD_BOT_TOKEN": DISCORD, "SLACK_CHANNELS": "C1"},
            [
                (
                    "slack-no-token",
                    "SLACK_CHANNELS is set but SLACK_BOT_TOKEN is not: nothing is posted to "
                    "C1; set SLACK_BOT_TOKEN to post there",
                ),
                (
                    "no-destination",
                    "no daily destination is set: slash commands answer, but no daily post "
                    "goes out; set DISCORD_CHANNELS=<channel IDs, comma-separated> to post",
                ),
            ],
        ),
        (  # everything set: nothing to say
            {
                "SLACK_BOT_TOKEN": SLACK_TOKEN,
                "SLACK_APP_TOKEN": "xapp-CANARY-0123456789",
                "SLACK_CHANNELS": "C1",
            },
            [],
        ),
        ({}, []),  # archive only: a set-up of its own, the started line says it
    ],
    ids=["commands-no-channel", "posts-no-commands", "channels-no-token", "all-set", "archive"],
)
def test_each_start_up_line_is_true_of_what_goes_out(
    env: dict[str, str],
    told: list[tuple[str, str]],
    monkeypatch: pytest.MonkeyPatch,
    clean_env: Path,
) -> None:
    assert problems(monkeypatch, **env) == told
