"""`/vllm-radar` over Slack's real wire (a signed slash command to the HTTP endpoint, the
answer posted to the fake Slack's response_url) and Discord's interactions endpoint, on
the real 2025 plugin records."""

from __future__ import annotations

import pytest

from tests.fakes.slack_api import signed_command
from tests.features.radar.radar_data import radar_github
from tests.platforms.test_slack_http import SECRET, endpoint, served
from tests.slack_text import message_text

PLUGINS = "vllm-project/vllm-ascend,vllm-project/vllm-gaudi,vllm-project/tpu-inference"


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS)
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")


def test_vllm_radar_answers_with_what_broke_the_plugin(
    plugins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with radar_github() as github:
        monkeypatch.setenv("GITHUB_API_URL", github.url)
        with endpoint(monkeypatch) as (slack, settings, service):
            asked = signed_command(slack, "/vllm-radar", "ascend 2025-09-01..2025-09-30", SECRET)
            statuses = served(settings, service, [asked])
            [(_, answer)] = slack.responses
    assert statuses == [200]
    blocks = answer["blocks"]
    assert blocks[0]["text"]["text"] == "Breakage radar · 2025-09-01..2025-09-30"
    culprits = message_text({"blocks": blocks[2:]})
    assert "data_table" in [b["type"] for b in blocks]  # the culprits as a table
    # vllm#24982 broke both gaudi and ascend; asked for ascend alone, ascend's fix shows.
    assert "vllm#24982" in culprits and "vllm-ascend/pull/3221|vllm-ascend#3221" in culprits
    assert "vllm-gaudi" not in culprits
    assert answer["response_type"] == "ephemeral"


def test_an_unknown_plugin_gets_one_sentence_naming_the_watched_ones(
    plugins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with radar_github() as github:
        monkeypatch.setenv("GITHUB_API_URL", github.url)
        with endpoint(monkeypatch) as (slack, settings, service):
            served(settings, service, [signed_command(slack, "/vllm-radar", "gaudy", SECRET)])
            [(_, answer)] = slack.responses
            asked = len(github.requests)
    assert answer["text"].startswith("'gaudy' is not a watched plugin — did you mean 'gaudi'?")
    assert "Watched: vllm-ascend, vllm-gaudi, tpu-inference" in answer["text"]
    assert asked == 0  # refused before anything was fetched


def test_vllm_radar_on_discords_interactions_endpoint(
    plugins: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deferred at once, then the radar as an embed on the interaction's webhook."""
    import asyncio

    from tests.fakes.discord_api import FakeDiscord
    from tests.platforms.test_discord_http import command, signed
    from tests.platforms.test_discord_http import endpoint as discord_endpoint

    body = command("vllm-radar", {"plugin": "gaudi", "when": "2025-09-01..2025-09-30"})
    with radar_github() as github, FakeDiscord() as discord:
        monkeypatch.setenv("GITHUB_API_URL", github.url)
        interactions = discord_endpoint(discord)

        async def scenario() -> tuple[int, dict[str, object]]:
            answer = await interactions.handle(*signed(body))
            await interactions.close()
            return answer

        status, deferred = asyncio.run(scenario())
        [(_, _, message)] = discord.webhooks
    assert (status, deferred) == (200, {"type": 5, "data": {"flags": 64}})
    embed = message["embeds"][0]
    assert embed["title"] == "Breakage radar · 2025-09-01..2025-09-30"
    assert "vllm#24982" in embed["description"] and "vllm-gaudi/pull/285" in embed["description"]
    assert message["flags"] == 64 and message["allowed_mentions"] == {"parse": []}
