"""Slack's HTTP mode over real HTTP: Bolt's aiohttp app behind our checks. Unsigned, wrongly
signed, stale, future-dated, replayed and malformed requests are refused with 401 and
change nothing; a good one is acknowledged."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from bot.adapters.slack_app import build_slack_app, slack_web_app
from bot.app import commands, open_bot
from bot.model.rules import load_rules
from config.settings import load_settings
from tests.fakes.slack_api import FakeSlack, signed_command

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def tampered(attack: str, slack: FakeSlack) -> list[tuple[str, dict[str, str]]]:
    """The requests of one attack, in order (the last one's status is what counts)."""
    body, headers = signed_command(slack, "/vllm-subscribe", "amd", SECRET)
    if attack == "good":
        return [(body, headers)]
    if attack == "unsigned":
        return [(body, {"content-type": headers["content-type"]})]
    if attack == "wrong-secret":
        return [signed_command(slack, "/vllm-subscribe", "amd", "not-the-secret-0000000000000000")]
    if attack == "flipped-byte":
        return [(body.replace("amd", "amx"), headers)]
    if attack == "stale":
        return [signed_command(slack, "/vllm-subscribe", "amd", SECRET, age=600)]
    if attack == "future":
        return [signed_command(slack, "/vllm-subscribe", "amd", SECRET, age=-600)]
    if attack == "timestamp-not-a-number":
        return [(body, {**headers, "x-slack-request-timestamp": "soon"})]
    assert attack == "replayed"
    return [(body, headers), (body, headers)]


@pytest.mark.parametrize(
    "attack",
    [
        "good",
        "unsigned",
        "wrong-secret",
        "flipped-byte",
        "stale",
        "future",
        "timestamp-not-a-number",
        "replayed",
    ],
)
def test_every_request_is_verified(attack: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from aiohttp import web

    with FakeSlack() as slack:
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        monkeypatch.setenv("SLACK_SIGNING_SECRET", SECRET)
        monkeypatch.setenv("SLACK_ADMINS", "U1")
        settings = load_settings()
        bot = open_bot(settings, load_rules())
        service = commands(bot)
        requests = tampered(attack, slack)

        async def scenario() -> list[int]:
            runner = web.AppRunner(slack_web_app(build_slack_app(settings, service)))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            statuses = []
            async with aiohttp.ClientSession() as session:
                for body, headers in requests:
                    url = f"http://127.0.0.1:{port}/slack/events"
                    async with session.post(url, data=body, headers=headers) as answer:
                        statuses.append(answer.status)
            for _ in range(200):  # a good command answers after its ack: let it finish
                if attack not in ("good", "replayed") or slack.responses:
                    break
                await asyncio.sleep(0.05)
            await runner.cleanup()
            return statuses

        statuses = asyncio.run(scenario())
        subscribed: list[Any] = service.store.list()
        bot.close()
    if attack == "good":
        assert statuses == [200] and len(subscribed) == 1
    elif attack == "replayed":
        assert statuses == [200, 401] and len(subscribed) == 1
    else:
        assert statuses == [401] and subscribed == []
