"""The Discord HTTP interactions endpoint: Ed25519 on the raw body, PING, deferred answers.

Requests are signed with a key pair made here (PyNaCl), as Discord signs them; follow-ups
land on the fake Discord's webhook route.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import aiohttp
import pytest
from nacl.signing import SigningKey

from bot.app import commands, open_bot
from bot.model.rules import load_rules
from bot.platforms.discord.http import Interactions, web_app
from bot.store import Subscription
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub

RULES = load_rules()
DAY = anchor_days()[2]
KEY = SigningKey.generate()
PUBLIC = KEY.verify_key.encode().hex()


def signed(
    body: dict[str, Any] | bytes,
    *,
    key: SigningKey = KEY,
    age: int = 0,
    now: float | None = None,
    stamp: str | None = None,
) -> tuple[bytes, dict[str, str]]:
    """Signed as Discord signs: `age` seconds before `now` (default: the real time), or
    over the timestamp text `stamp` exactly."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    if stamp is None:
        stamp = str(int(time.time() if now is None else now) - age)
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


def endpoint(fake: FakeDiscord, clock: Callable[[], float] | None = None) -> Interactions:
    settings = load_settings()
    bot = open_bot(settings, RULES)
    service = commands(bot)
    if clock is None:
        return Interactions(service, PUBLIC, fake.api_url)
    return Interactions(service, PUBLIC, fake.api_url, clock=clock)


def test_ping_gets_pong(discord_fake: FakeDiscord) -> None:
    interactions = endpoint(discord_fake)
    status, body = asyncio.run(interactions.handle(*signed({"type": 1})))
    assert (status, body) == (200, {"type": 1})


@pytest.mark.parametrize(
    "attack",
    [
        "wrong-key",
        "flipped-byte",
        "missing",
        "unsigned",
        "empty-signature",
        "signature-not-hex",
        "no-timestamp",
        "timestamp-not-a-number",
        "other-timestamp",
        "stale",
        "future",
        "replayed",
        "replayed-in-capitals",
    ],
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
        elif attack == "unsigned":  # a current timestamp, no signature
            raw, headers = signed(body)
            del headers["X-Signature-Ed25519"]
        elif attack == "empty-signature":
            raw, headers = signed(body)
            headers["X-Signature-Ed25519"] = ""
        elif attack == "signature-not-hex":
            raw, headers = signed(body)
            headers["X-Signature-Ed25519"] = "zz" + headers["X-Signature-Ed25519"][2:]
        elif attack == "no-timestamp":  # signed over the body alone: no time to check
            raw, headers = signed(body, stamp="")
            del headers["X-Signature-Timestamp"]
        elif attack == "timestamp-not-a-number":  # signed, but its time cannot be read
            raw, headers = signed(body, stamp="soon")
        elif attack == "other-timestamp":  # a good signature, the header says another time
            raw, headers = signed(body, age=30)
            headers["X-Signature-Timestamp"] = str(int(time.time()))
        elif attack == "stale":
            raw, headers = signed(body, age=600)
        elif attack == "future":
            raw, headers = signed(body, age=-600)
        else:
            raw, headers = signed(body)
            first, _ = await interactions.handle(raw, headers)
            await interactions.drain()
            interactions.commands.services.store.remove(
                interactions.commands.services.store.list()[0]
            )
            if attack == "replayed-in-capitals":  # the same signature bytes, other text
                headers["X-Signature-Ed25519"] = headers["X-Signature-Ed25519"].upper()
            second, _ = await interactions.handle(raw, headers)
            await interactions.close()
            return [first, second]
        status, _ = await interactions.handle(raw, headers)
        await interactions.close()
        return [status]

    statuses = asyncio.run(scenario())
    replayed = attack.startswith("replayed")
    assert statuses == ([200, 401] if replayed else [401])
    assert interactions.commands.services.store.list() == []
    assert len(discord_fake.webhooks) == (1 if replayed else 0)


T = 1_800_000_000  # the endpoint's clock in the tests of the window: a fixed second


@pytest.mark.parametrize(("age", "status"), [(300, 200), (301, 401), (-300, 200), (-301, 401)])
def test_the_window_is_five_minutes_either_way(
    age: int, status: int, discord_fake: FakeDiscord
) -> None:
    """Stamped up to 300 s before or after the endpoint's clock: answered; one second more
    (old, or from the future): 401."""
    interactions = endpoint(discord_fake, clock=lambda: float(T))
    got, _ = asyncio.run(interactions.handle(*signed({"type": 1}, now=T, age=age)))
    assert got == status


@pytest.mark.parametrize(("ahead", "later"), [(0, 299), (0, 300), (120, 350), (300, 600)])
def test_a_replay_is_refused_for_as_long_as_its_timestamp_is_accepted(
    ahead: int, later: int, discord_fake: FakeDiscord
) -> None:
    """A request stamped `ahead` seconds past the endpoint's clock (Discord's clock runs
    ahead of ours; up to 300 s is accepted) is answered once; sent again `later` seconds
    after, while its timestamp is still inside the window, it is refused."""
    now = [float(T)]
    interactions = endpoint(discord_fake, clock=lambda: now[0])
    raw, headers = signed({"type": 1}, now=T + ahead)
    first, _ = asyncio.run(interactions.handle(raw, headers))
    now[0] = T + later
    second, _ = asyncio.run(interactions.handle(raw, headers))
    assert (first, second) == (200, 401)


def test_a_refused_request_does_not_use_up_the_signature_it_carried(
    discord_fake: FakeDiscord,
) -> None:
    """Someone who saw a request's headers sends them first with another body: refused. The
    real request, arriving after, is still answered: only verified requests count as seen."""
    interactions = endpoint(discord_fake)
    raw, headers = signed(command("vllm-subscribe", {"topic": "amd", "where": "dm"}))

    async def scenario() -> list[int]:
        forged, _ = await interactions.handle(raw.replace(b'"amd"', b'"amx"'), headers)
        genuine, _ = await interactions.handle(raw, headers)
        await interactions.close()
        return [forged, genuine]

    assert asyncio.run(scenario()) == [401, 200]
    assert [s.topic for s in interactions.commands.services.store.list()] == ["amd"]


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
        {"type": 3, "data": ["vr.feedback.useful"]},  # a button press without its id
        {"type": 2, "member": "x", "data": {"name": "vllm-subscribe"}},
        b"{not json",
    ],
)
def test_a_signed_body_of_the_wrong_shape_gets_400(body: Any, discord_fake: FakeDiscord) -> None:
    """Signed, fresh, but not an interaction (or not JSON): a 400, never an exception."""
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
    assert discord_fake.webhook_queries == [{"wait": "true"}] * len(hooks)


NEEDS_PERMISSION = "subscribing this channel needs permission to manage it"
VIEW_CHANNEL, SEND_MESSAGES, MANAGE_MESSAGES = 1 << 10, 1 << 11, 1 << 13


@pytest.mark.parametrize(
    ("who", "gets"),
    [
        ("no-permissions", None),
        ("other-permissions", None),
        ("permissions-unknown", None),
        ("member-unknown", None),
        ("manage-channels", ("channel", "111")),
        ("administrator", ("channel", "111")),
        ("in-a-dm", ("dm", "4242")),
    ],
)
def test_subscribing_a_channel_needs_manage_channels(
    who: str, gets: tuple[str, str] | None, discord_fake: FakeDiscord
) -> None:
    """Manage Channels or Administrator may subscribe a channel, nobody else. When Discord
    does not say what the member may do (no permissions field, no member at all), the answer
    is no: refused, nothing stored. In a DM, `here` is the asker's own DMs."""
    interactions = endpoint(discord_fake)
    body = command("vllm-subscribe", {"topic": "amd"})
    member = body["member"]
    if who == "other-permissions":  # may talk and moderate messages, not manage the channel
        member["permissions"] = str(VIEW_CHANNEL | SEND_MESSAGES | MANAGE_MESSAGES)
    elif who == "permissions-unknown":
        del member["permissions"]
    elif who == "member-unknown":
        body["user"] = body.pop("member")["user"]
    elif who == "manage-channels":
        member["permissions"] = str(1 << 4)
    elif who == "administrator":
        member["permissions"] = str(1 << 3)
    elif who == "in-a-dm":
        del body["guild_id"]
        body["user"] = body.pop("member")["user"]

    async def scenario() -> tuple[int, dict[str, Any]]:
        answered = await interactions.handle(*signed(body))
        await interactions.close()
        return answered

    status, answer = asyncio.run(scenario())
    assert (status, answer["data"]["flags"]) == (200, 64)
    ((_, _, said),) = discord_fake.webhooks
    assert said["flags"] == 64
    subscribed = interactions.commands.services.store.list()
    stored = [(s.target_kind, s.target_id, s.topic, s.created_by) for s in subscribed]
    if gets is None:
        assert said["content"].startswith(NEEDS_PERMISSION)
        assert stored == []
    else:
        place = "this channel" if gets[0] == "channel" else "your DMs"
        assert said["content"] == f"{place} will get the AMD / ROCm digest after each daily report"
        assert stored == [(*gets, "amd", "4242")]


@pytest.mark.parametrize(("permissions", "removed"), [("0", False), (None, False), ("16", True)])
def test_unsubscribing_a_channel_needs_manage_channels_too(
    permissions: str | None, removed: bool, discord_fake: FakeDiscord
) -> None:
    """A channel's digest someone else set up: a member who may not manage the channel (or
    whose permissions Discord does not send) cannot take it away; one who may, can."""
    interactions = endpoint(discord_fake)
    store = interactions.commands.services.store
    store.add(Subscription("discord", "channel", "111", "amd", "9999"), datetime.now(UTC))
    body = command("vllm-unsubscribe", {"topic": "amd"})
    if permissions is None:
        del body["member"]["permissions"]
    else:
        body["member"]["permissions"] = permissions

    async def scenario() -> int:
        status, _ = await interactions.handle(*signed(body))
        await interactions.close()
        return status

    assert asyncio.run(scenario()) == 200
    ((_, _, said),) = discord_fake.webhooks
    left = [(s.target_kind, s.target_id, s.topic) for s in store.list()]
    if removed:
        assert said["content"] == "this channel will no longer get the AMD / ROCm digest"
        assert left == []
    else:
        assert said["content"].startswith("un" + NEEDS_PERMISSION)
        assert left == [("channel", "111", "amd")]


def test_a_report_not_asked_public_is_for_the_asker_alone(
    discord_fake: FakeDiscord, fake_github: FakeGitHub
) -> None:
    """No `public` option: the deferral and every follow-up are ephemeral."""
    interactions = endpoint(discord_fake)
    body = command("vllm-report", {"when": DAY.label, "section": "hot"})

    async def scenario() -> tuple[int, dict[str, Any]]:
        answered = await interactions.handle(*signed(body))
        await interactions.close()
        return answered

    assert asyncio.run(scenario()) == (200, {"type": 5, "data": {"flags": 64}})
    assert discord_fake.webhooks
    assert all(hook[2]["flags"] == 64 for hook in discord_fake.webhooks)


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
