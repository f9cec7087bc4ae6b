"""`/vllm-radar wrong <plugin PR> <upstream PR>` over Slack's real wire (a signed slash
command to the HTTP endpoint, the answer on the fake Slack's response_url), Discord's
interactions endpoint (the `wrong` option) and Discord's gateway callback, on the real 2025
plugin records: the correction is kept, and the next `/vllm-radar` leaves the culprit out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.fakes.slack_api import signed_command
from tests.features.radar.radar_data import radar_github
from tests.features.radar.test_command import PLUGINS, plugins  # noqa: F401
from tests.platforms.test_slack_http import SECRET, endpoint, served
from tests.slack_text import message_text

MONTH = "2025-09-01..2025-09-30"


def test_slack_wrong_keeps_the_correction_and_the_next_radar_respects_it(
    plugins: None,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "vllm-ascend" in PLUGINS
    with radar_github() as github:
        monkeypatch.setenv("GITHUB_API_URL", github.url)
        with endpoint(monkeypatch) as (slack, settings, service):
            radar = signed_command(slack, "/vllm-radar", f"ascend {MONTH}", SECRET)
            served(settings, service, [radar])
            asked = len(github.requests)
            words = [
                "wrong vllm-ascend#3221 24982",
                "wrong vllm-ascend#3221",  # one PR
                "wrong vllm-ascend#3221 abc",  # not a number
                "wrong vllm-tpu#1 24982",  # not a watched plugin
                "wrong vllm-ascend#3221 25249",  # never claimed
            ]
            commands = [signed_command(slack, "/vllm-radar", w, SECRET) for w in words]
            statuses = served(settings, service, commands)
            corrected = len(github.requests)
            again = signed_command(slack, "/vllm-radar", f"ascend {MONTH}", SECRET)
            served(settings, service, [again])
            answers = [answer for _, answer in slack.responses]
    assert statuses == [200] * 5 and corrected == asked  # the archive alone
    said = sorted(answer["text"] for answer in answers[1:6])  # answered as each is done
    assert [text.split(" ", 3)[:3] for text in said] == [
        ["'abc'", "is", "not"],
        ["'vllm-tpu'", "is", "not"],
        ["Noted:", "vllm#24982", "did"],
        ["a", "correction", "names"],
        ["the", "radar", "never"],
    ]
    assert said[2].startswith("Noted: vllm#24982 did not break vllm-ascend#3221.")
    assert said[0].startswith("'abc' is not an upstream PR number")
    assert said[1].startswith("'vllm-tpu' is not a watched plugin")
    assert said[3].startswith("a correction names two PRs (1 given)")
    assert said[4].startswith("the radar never named vllm#25249 as what broke vllm-ascend#3221")
    assert all(answer["response_type"] == "ephemeral" for answer in answers[1:6])
    before, after = answers[0], answers[6]
    assert "vllm-ascend/pull/3221|vllm-ascend#3221" in message_text(before)
    assert "vllm-ascend/pull/3221|vllm-ascend#3221" not in message_text(after)
    assert "1 corrected" in message_text(after)


def test_discord_wrong_on_the_interactions_endpoint_and_the_gateway(
    plugins: None,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from unittest.mock import create_autospec

    import discord

    from bot.app import commands, open_bot
    from bot.model.rules import load_rules
    from bot.platforms.discord.gateway import Gateway
    from config.settings import load_settings
    from tests.fakes.discord_api import FakeDiscord
    from tests.platforms.test_discord_http import command, signed
    from tests.platforms.test_discord_http import endpoint as discord_endpoint

    with radar_github() as github, FakeDiscord() as fake:
        monkeypatch.setenv("GITHUB_API_URL", github.url)
        interactions = discord_endpoint(fake)
        asked = command("vllm-radar", {"plugin": "gaudi", "when": MONTH})
        # Asked again: a new interaction (Discord gives each its own id and token), so the
        # replay guard does not refuse it when both land within the same second.
        again = command("vllm-radar", {"plugin": "gaudi", "when": MONTH}, id="3", token="tok-2")
        wrong = command("vllm-radar", {"wrong": "gaudi#285 vllm#24982", "public": True})

        async def scenario() -> list[tuple[int, dict[str, Any]]]:
            said = [await interactions.handle(*signed(asked))]
            await interactions.drain()
            said.append(await interactions.handle(*signed(wrong)))
            await interactions.drain()
            said.append(await interactions.handle(*signed(again)))
            await interactions.close()
            return said

        statuses = asyncio.run(scenario())
        messages = [message for _, _, message in fake.webhooks]
        # The gateway's callback: the same service, the same sentence.
        gateway = Gateway(commands(open_bot(load_settings(), load_rules(None))))
        hit = create_autospec(discord.Interaction, instance=True)
        hit.response = create_autospec(discord.InteractionResponse, instance=True)
        hit.followup = create_autospec(discord.Webhook, instance=True)
        hit.user = create_autospec(discord.User, instance=True)
        hit.user.id = 4242
        asyncio.run(gateway.run("vllm-radar", hit, wrong="gaudi#285 24982"))
    assert [status for status, _ in statuses] == [200, 200, 200]
    # A correction is answered only to its author, even when asked `public`.
    assert statuses[1] == (200, {"type": 5, "data": {"flags": 64}})
    assert messages[1]["content"].startswith("Noted: vllm#24982 did not break vllm-gaudi#285.")
    assert messages[1]["flags"] == 64
    assert "vllm-gaudi/pull/285" in messages[0]["embeds"][0]["description"]
    assert "vllm-gaudi/pull/285" not in messages[2]["embeds"][0]["description"]
    assert "1 corrected" in "".join(e["description"] for e in messages[2]["embeds"])
    hit.response.defer.assert_awaited_once_with(ephemeral=True)
    content = hit.followup.send.await_args.kwargs["content"]
    assert content.startswith("vllm#24982 was already corrected as not what broke vllm-gaudi#285")
