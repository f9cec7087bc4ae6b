"""A reader's 👍 / 👎 under a section of the day's post, pressed in Slack (a signed block
action through Bolt) and in Discord (a signed component interaction): answered to the
presser alone, counted once per reader, section and day (pressed again, the vote changes),
and shown by `vllm-report feedback` by week and section. Only the chat user id is kept."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import pytest

from bot.app import commands, open_bot
from bot.commands import Commands
from bot.features.feedback.store import Votes
from bot.model.rules import load_rules
from config.settings import load_settings
from tests.fakes.slack_api import FakeSlack

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


@dataclass
class Chat:
    slack: FakeSlack
    commands: Commands

    def press(self, vote: str, value: str, *, user: str = "U2") -> str:
        """`vr.feedback.<vote>` with `value` pressed by `user` in C1: what Slack was told."""
        from slack_bolt.request.async_request import AsyncBoltRequest

        from bot.platforms.slack.app import build_slack_app

        app = build_slack_app(load_settings(), self.commands)
        payload = {
            "type": "block_actions",
            "team": {"id": "T1"},
            "user": {"id": user, "team_id": "T1"},
            "api_app_id": "A1",
            "channel": {"id": "C1"},
            "container": {"type": "message", "channel_id": "C1", "message_ts": "1.2"},
            "trigger_id": "1.2.3",
            "response_url": f"{self.slack.url}/response/press-{time.time_ns()}",
            "actions": [
                {
                    "type": "button",
                    "action_id": f"vr.feedback.{vote}",
                    "block_id": "b1",
                    "value": value,
                    "action_ts": "1.3",
                }
            ],
        }
        body = urlencode({"payload": json.dumps(payload)})
        stamp = str(int(time.time()))
        digest = hmac.new(SECRET.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256)
        headers = {
            "content-type": "application/x-www-form-urlencoded",
            "x-slack-request-timestamp": stamp,
            "x-slack-signature": f"v0={digest.hexdigest()}",
        }

        async def scenario() -> None:
            response = await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
            assert response.status == 200
            while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                await asyncio.gather(*others, return_exceptions=True)

        before = len(self.slack.responses)
        asyncio.run(scenario())
        (said,) = self.slack.responses[before:]
        assert said[1].get("response_type") == "ephemeral"
        return str(said[1]["text"])

    def votes(self) -> list[tuple[str, str, str, str, bool]]:
        store = self.commands.services.reports.archiver.store
        found = Votes(store.transactions).since(datetime(2000, 1, 1, tzinfo=UTC))
        return [(v.platform, v.user, v.day, v.section, v.useful) for v in found]


@pytest.fixture
def chat(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Chat]:
    with FakeSlack() as slack:
        for name, value in {
            "DATABASE_URL": f"sqlite:///{tmp_path}/store.sqlite3",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": slack.api_url,
        }.items():
            monkeypatch.setenv(name, value)
        bot = open_bot(load_settings(), load_rules())
        try:
            yield Chat(slack, commands(bot))
        finally:
            bot.close()


def test_a_press_is_counted_once_per_reader_section_and_day(chat: Chat) -> None:
    said = chat.press("useful", "2026-03-25|summary")
    assert said == "Thanks: summary of 2026-03-25 counted as useful to you"
    assert chat.press("useful", "2026-03-25|summary") == said  # again: still once
    assert chat.votes() == [("slack", "U2", "2026-03-25", "summary", True)]
    changed = chat.press("not", "2026-03-25|summary")
    assert changed == (
        "Thanks: summary of 2026-03-25 counted as not useful to you (was useful; you count once)"
    )
    chat.press("useful", "2026-03-25|amd", user="U3")
    chat.press("useful", "2026-03-24|summary")
    assert sorted(chat.votes()) == [
        ("slack", "U2", "2026-03-24", "summary", True),
        ("slack", "U2", "2026-03-25", "summary", False),
        ("slack", "U3", "2026-03-25", "amd", True),
    ]


@pytest.mark.parametrize("value", ["2026-03-25", "|summary", "2026-03-25|", "x" * 70 + "|s"])
def test_a_button_that_names_no_day_or_section_counts_nothing(chat: Chat, value: str) -> None:
    said = chat.press("useful", value)
    assert said == "this button's day or section could not be read; press it on the day's post"
    assert chat.votes() == []


def test_the_operator_sees_the_week_s_tally(chat: Chat, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    chat.press("useful", "2026-03-25|summary")
    chat.press("useful", "2026-03-25|summary", user="U3")
    chat.press("not", "2026-03-26|summary", user="U4")
    chat.press("not", "2026-03-25|hot", user="U3")
    assert main(["feedback", "--format", "json", "--weeks", "520"]) == 0
    tallies = json.loads(capsys.readouterr().out)["tallies"]
    assert tallies == [
        {"week": "2026-W13", "section": "summary", "useful": 2, "not_useful": 1, "readers": 3},
        {"week": "2026-W13", "section": "hot", "useful": 0, "not_useful": 1, "readers": 1},
    ]
    assert main(["feedback", "--weeks", "520", "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("读者对日报的反馈，按周和栏目统计\n")
    assert "2026-W13   summary             2     1        3" in out
    assert main(["feedback", "--weeks", "0"]) == 2
    assert "--weeks 0: say how many weeks back, 1 to 520" in capsys.readouterr().err


def test_a_discord_button_press_is_answered_to_the_presser_and_counted(chat: Chat) -> None:
    from nacl.signing import SigningKey

    from bot.platforms.discord.http import Interactions

    key = SigningKey.generate()
    endpoint = Interactions(chat.commands, key.verify_key.encode().hex(), "http://127.0.0.1:9")
    body = json.dumps(
        {
            "type": 3,
            "id": "9",
            "application_id": "555",
            "token": "tok-press",
            "channel_id": "111",
            "guild_id": "1",
            "member": {"user": {"id": "4242"}, "permissions": "0"},
            "data": {"custom_id": "vr.feedback.useful|2026-03-25|vendors", "component_type": 2},
        }
    ).encode()
    stamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": key.sign(stamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": stamp,
    }
    status, answer = asyncio.run(endpoint.handle(body, headers))
    assert status == 200
    assert answer == {
        "type": 4,
        "data": {"content": "Thanks: vendors of 2026-03-25 counted as useful to you", "flags": 64},
    }
    assert chat.votes() == [("discord", "4242", "2026-03-25", "vendors", True)]
    stranger = json.loads(body)
    stranger["data"]["custom_id"] = "x"  # no button of ours: told, nothing counted
    raw = json.dumps(stranger).encode()
    headers = {
        "X-Signature-Ed25519": key.sign(stamp.encode() + raw).signature.hex(),
        "X-Signature-Timestamp": stamp,
    }
    status, answer = asyncio.run(endpoint.handle(raw, headers))
    assert (status, answer["data"]["content"]) == (
        200,
        "this button is no longer answered by the bot",
    )
    assert len(chat.votes()) == 1


def test_no_vote_yet_is_said_in_a_sentence(chat: Chat, capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["feedback"]) == 0
    assert capsys.readouterr().out == (
        "No reader has pressed 👍 or 👎 in the last 4 weeks (VLLM_REPORT_FEEDBACK is off)\n"
    )
    assert main(["feedback", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"weeks": 4, "tallies": []}
