"""The Discord HTTP interactions endpoint: Ed25519 on the raw body, PING, deferred answers.

Requests are signed with a key pair made here (PyNaCl), as Discord signs them; follow-ups
land on the fake Discord's webhook route.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from nacl.signing import SigningKey

from bot.adapters.discord_http import Interactions, web_app
from bot.app import commands, open_bot
from bot.model.rules import load_rules
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub

RULES = load_rules()
DAY = anchor_days()[2]
KEY = SigningKey.generate()
PUBLIC = KEY.verify_key.encode().hex()


def signed(
    body: dict[str, Any], *, key: SigningKey = KEY, age: int = 0
) -> tuple[bytes, dict[str, str]]:
    raw = json.dumps(body).encode()
    stamp = str(int(time.time()) - age)
    signature = key.sign(stamp.encode() + raw).signature.hex()
    return raw, {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp}


def command(name: str, options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "type": 2,
        "id": "1",
        "application_id": "555",
        "token": f"tok-{name}",
        "channel_id": "111",
        "guild_id": "1",
        "member": {"user": {"id": "4242"}, "permissions": "0"},
        "data": {
            "name": name,
            "options": [{"name": k, "value": v} for k, v in (options or {}).items()],
        },
        **extra,
    }


@pytest.fixture
def discord_fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    with FakeDiscord() as fake:
        monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
        yield fake


def endpoint(fake: FakeDiscord) -> Interactions:
    settings = load_settings()
    bot = open_bot(settings, RULES)
    service = commands(bot)
    return Interactions(service, PUBLIC, fake.api_url)


def test_ping_gets_pong(discord_fake: FakeDiscord) -> None:
    interactions = endpoint(discord_fake)
    status, body = asyncio.run(interactions.handle(*signed({"type": 1})))
    assert (status, body) == (200, {"type": 1})


@pytest.mark.parametrize(
    "attack", ["wrong-key", "flipped-byte", "missing", "stale", "future", "replayed"]
)
def test_bad_requests_get_401_and_change_nothing(attack: str, discord_fake: FakeDiscord) -> None:
    interactions = endpoint(discord_fake)
    body = command("vllm-subscribe", {"topic": "amd", "where": "dm"})

    async def scenario() -> list[int]:
        if attack == "wrong-key":
            raw, headers = signed(body, key=SigningKey.generate())
        elif attack == "flipped-byte":
            raw, headers = signed(body)
            raw = raw.replace(b'"amd"', b'"amx"')
        elif attack == "missing":
            raw, headers = json.dumps(body).encode(), {}
        elif attack == "stale":
            raw, headers = signed(body, age=600)
        elif attack == "future":
            raw, headers = signed(body, age=-600)
        else:
            raw, headers = signed(body)
            first, _ = await interactions.handle(raw, headers)
            await interactions.drain()
            interactions.service.store.remove(interactions.service.store.list()[0])
            second, _ = await interactions.handle(raw, headers)
            await interactions.close()
            return [first, second]
        status, _ = await interactions.handle(raw, headers)
        await interactions.close()
        return [status]

    statuses = asyncio.run(scenario())
    assert statuses[-1] == 401
    assert interactions.service.store.list() == []
    assert len(discord_fake.webhooks) == (1 if attack == "replayed" else 0)


@pytest.mark.parametrize(
    "body",
    [
        [],
        "x",
        {"type": "2"},
        {"type": None},
        {"type": 2, "data": "x"},
        {"type": 2, "data": {"name": "vllm-report", "options": 5}},
        {"type": 4, "data": []},
        {"type": 2, "member": "x", "data": {"name": "vllm-subscribe"}},
    ],
)
def test_a_signed_body_of_the_wrong_shape_gets_400(body: Any, discord_fake: FakeDiscord) -> None:
    """Signed, fresh, but not an interaction: a 400, never an exception (a 500)."""
    interactions = endpoint(discord_fake)

    async def scenario() -> int:
        status, _ = await interactions.handle(*signed(body))
        await interactions.close()
        return status

    assert asyncio.run(scenario()) == 400


def test_a_command_is_deferred_at_once_then_answered_by_follow_up(
    discord_fake: FakeDiscord, fake_github: FakeGitHub
) -> None:
    """The answer to the request is the deferral; the report comes after, on the webhook."""
    interactions = endpoint(discord_fake)
    body = command("vllm-report", {"when": DAY.label, "section": "hot", "public": True})

    async def scenario() -> tuple[int, dict[str, Any], int]:
        status, answer = await interactions.handle(*signed(body))
        before = len(discord_fake.webhooks)  # nothing yet: the work has not started
        await interactions.close()
        return status, answer, before

    status, answer, before = asyncio.run(scenario())
    assert (status, answer) == (200, {"type": 5, "data": {"flags": 0}})
    assert before == 0
    hooks = discord_fake.webhooks
    assert {(app, token) for app, token, _ in hooks} == {("555", "tok-vllm-report")}
    assert hooks[0][2]["embeds"][0]["title"] == f"vLLM daily report · {DAY.label}"
    assert hooks[1][2]["embeds"][0]["title"] == "💬 Hot discussions"
    assert all(h[2]["allowed_mentions"] == {"parse": []} and h[2]["flags"] == 0 for h in hooks)


def test_subscribing_a_channel_needs_manage_channels(discord_fake: FakeDiscord) -> None:
    interactions = endpoint(discord_fake)
    denied = command("vllm-subscribe", {"topic": "amd"})
    allowed = command("vllm-subscribe", {"topic": "amd"})
    allowed["member"]["permissions"] = str(1 << 4)
    allowed["token"] = "tok-allowed"

    async def scenario() -> None:
        for body in (denied, allowed):
            status, answer = await interactions.handle(*signed(body))
            assert (status, answer["data"]["flags"]) == (200, 64)
        await interactions.close()

    asyncio.run(scenario())
    said = {token: body["content"] for _, token, body in discord_fake.webhooks}
    assert "needs permission" in said["tok-vllm-subscribe"]
    assert (
        said["tok-allowed"] == "this channel will get the AMD / ROCm digest after each daily report"
    )
    assert all(body["flags"] == 64 for _, _, body in discord_fake.webhooks)


def test_autocomplete_answers_inline(discord_fake: FakeDiscord) -> None:
    interactions = endpoint(discord_fake)
    body = command("vllm-report")
    body["type"] = 4
    body["data"]["options"] = [{"name": "topic", "value": "nv", "focused": True}]
    status, answer = asyncio.run(interactions.handle(*signed(body)))
    assert status == 200 and answer["type"] == 8
    assert [c["value"] for c in answer["data"]["choices"]] == ["nvidia"]


def test_the_endpoint_over_real_http(discord_fake: FakeDiscord) -> None:
    """The web server hands the raw body to the check: a valid PING passes, a bad one not."""
    from aiohttp import web

    interactions = endpoint(discord_fake)

    async def scenario() -> list[tuple[int, Any]]:
        runner = web.AppRunner(web_app(interactions))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        url = f"http://127.0.0.1:{port}/discord/interactions"
        results = []
        async with aiohttp.ClientSession() as session:
            for raw, headers in (
                signed({"type": 1}),
                signed({"type": 1}, key=SigningKey.generate()),
            ):
                async with session.post(url, data=raw, headers=headers) as response:
                    results.append((response.status, await response.json()))
        await runner.cleanup()
        await interactions.close()
        return results

    results = asyncio.run(scenario())
    assert results[0] == (200, {"type": 1})
    assert results[1][0] == 401
