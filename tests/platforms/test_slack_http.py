"""Slack's HTTP mode over real HTTP: Bolt's aiohttp app behind our checks. Unsigned, wrongly
signed, stale, future-dated, replayed and malformed requests are refused with 401 and
change nothing; a good one is acknowledged. Who may subscribe a channel: its listed
admins and the workspace's admins and owners, nobody else, and nobody when Slack cannot say."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.adapters.replay import ReplayGuard
from bot.app import commands, open_bot
from bot.commands import Commands
from bot.model.rules import load_rules
from bot.platforms.slack import app as slack_app
from bot.platforms.slack.app import build_slack_app, slack_web_app
from bot.store import Subscription
from config.settings import Settings, load_settings
from tests.fakes.slack_api import FakeSlack, signed_command

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
Request = tuple[str, dict[str, str]]


@contextmanager
def endpoint(
    monkeypatch: pytest.MonkeyPatch,
    admins: str = "U1",
    users_info: dict[str, Any] | None = None,
    secret_in_env_file: bool = False,
) -> Iterator[tuple[FakeSlack, Settings, Commands]]:
    """The fake Slack, the settings of HTTP mode (`admins` listed in SLACK_ADMINS) and the
    command service. `users_info`: what the fake's `users.info` answers instead of its own
    (the user, with `is_admin` when the user is in `fake.admins`). The signing secret is in
    the environment, or only in the `.env` file."""
    slack = FakeSlack()
    if users_info is not None:

        def answer(handler: Any, args: dict[str, Any]) -> None:
            handler._send(200, users_info)

        slack.handler = type("Handler", (slack.handler,), {"m_users_info": answer})
    with slack:
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        if secret_in_env_file:  # the working directory is the test's own (clean_env)
            Path(".env").write_text(f"SLACK_SIGNING_SECRET={SECRET}\n")
        else:
            monkeypatch.setenv("SLACK_SIGNING_SECRET", SECRET)
        monkeypatch.setenv("SLACK_ADMINS", admins)
        settings = load_settings()
        bot = open_bot(settings, load_rules())
        try:
            yield slack, settings, commands(bot)
        finally:
            bot.close()


def served(
    settings: Settings,
    service: Commands,
    requests: list[Request],
    before: Callable[[int], None] | None = None,
) -> list[int]:
    """Serve the app on 127.0.0.1, post `requests` in order (`before(i)` runs before the
    i-th), and return their statuses once every answer the app started has been sent."""
    from aiohttp import web

    async def scenario() -> list[int]:
        runner = web.AppRunner(slack_web_app(build_slack_app(settings, service)))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
        statuses = []
        async with aiohttp.ClientSession() as session:
            for index, (body, headers) in enumerate(requests):
                if before is not None:
                    before(index)
                async with session.post(url, data=body, headers=headers) as answer:
                    statuses.append(answer.status)
        await runner.cleanup()
        # What is left are the commands Bolt acknowledged and still answers: let them end.
        while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
            await asyncio.gather(*others, return_exceptions=True)
        return statuses

    return asyncio.run(scenario())


def tampered(attack: str, slack: FakeSlack) -> list[Request]:
    """The requests of one attack, in order (the last one's status is what counts)."""
    body, headers = signed_command(slack, "/vllm-subscribe", "amd", SECRET)
    if attack == "good":
        return [(body, headers)]
    if attack == "unsigned":
        return [(body, {"content-type": headers["content-type"]})]
    if attack == "signature-only":  # no timestamp: nothing to check the signature over
        return [(body, {k: v for k, v in headers.items() if k != "x-slack-request-timestamp"})]
    if attack == "wrong-secret":
        return [signed_command(slack, "/vllm-subscribe", "amd", "not-the-secret-0000000000000000")]
    if attack == "flipped-byte":
        return [(body.replace("amd", "amx"), headers)]
    if attack == "other-timestamp":  # a good signature, the header says another time
        return [(body, {**headers, "x-slack-request-timestamp": str(int(time.time()) - 30)})]
    if attack == "stale":
        return [signed_command(slack, "/vllm-subscribe", "amd", SECRET, age=600)]
    if attack == "future":
        return [signed_command(slack, "/vllm-subscribe", "amd", SECRET, age=-600)]
    if attack == "timestamp-not-a-number":
        return [(body, {**headers, "x-slack-request-timestamp": "soon"})]
    if attack == "timestamp-not-ascii":  # digits to str.isdigit, not to int()
        return [(body, {**headers, "x-slack-request-timestamp": "\u00b2"})]
    if attack == "forged-first":  # the real headers with another body, then the real request
        return [(body.replace("amd", "amx"), headers), (body, headers)]
    if attack == "replayed-in-capitals":
        upper = {**headers, "x-slack-signature": headers["x-slack-signature"].upper()}
        return [(body, headers), (body, upper)]
    assert attack == "replayed"
    return [(body, headers), (body, headers)]


@pytest.mark.parametrize(
    ("attack", "statuses"),
    [
        ("good", [200]),
        ("unsigned", [401]),
        ("signature-only", [401]),
        ("wrong-secret", [401]),
        ("flipped-byte", [401]),
        ("other-timestamp", [401]),
        ("stale", [401]),
        ("future", [401]),
        ("timestamp-not-a-number", [401]),
        ("timestamp-not-ascii", [401]),
        ("forged-first", [401, 200]),
        ("replayed", [200, 401]),
        ("replayed-in-capitals", [200, 401]),
    ],
)
def test_every_request_is_verified(
    attack: str, statuses: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused requests change nothing (no subscription); a forged request does not use up
    the real one's signature: only a verified request counts as seen."""
    with endpoint(monkeypatch) as (slack, settings, service):
        got = served(settings, service, tampered(attack, slack))
        subscribed = service.services.store.list()
    assert got == statuses
    assert len(subscribed) == (1 if 200 in statuses else 0)


def test_the_signing_secret_from_the_env_file_is_the_one_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The secret only in `.env`, not in the environment Bolt could read it from itself:
    a request signed with it is answered, one signed otherwise is refused."""
    with endpoint(monkeypatch, secret_in_env_file=True) as (slack, settings, service):
        forged = signed_command(slack, "/vllm-subscribe", "amd", "not-the-secret-0000000000000")
        good = signed_command(slack, "/vllm-subscribe", "amd", SECRET)
        statuses = served(settings, service, [forged, good])
        subscribed = service.services.store.list()
    assert statuses == [401, 200] and len(subscribed) == 1


@pytest.mark.parametrize(("ahead", "later"), [(0, 299), (120, 350)])
def test_a_replay_is_refused_for_as_long_as_its_timestamp_is_accepted(
    ahead: int, later: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slack's clock `ahead` seconds past ours (Bolt accepts up to 300 s either way): the
    request is answered once, and sent again `later` seconds after, while its timestamp is
    still inside the window, it gets 401 and changes nothing."""
    now = [time.time()]
    monkeypatch.setattr(slack_app, "ReplayGuard", lambda: ReplayGuard(lambda: now[0]))

    def move_on(index: int) -> None:
        if index == 1:
            now[0] += later

    with endpoint(monkeypatch) as (slack, settings, service):
        request = signed_command(slack, "/vllm-subscribe", "amd dm", SECRET, age=-ahead)
        statuses = served(settings, service, [request, request], move_on)
        answers = len(slack.responses)
    assert (statuses, answers) == ([200, 401], 1)


NEEDS_PERMISSION = "subscribing this channel needs permission to manage it"
MEMBER = {"id": "U2", "is_admin": False, "is_owner": False}


@pytest.mark.parametrize(
    ("who", "users_info", "allowed"),
    [
        ("listed", None, True),
        ("workspace-admin", None, True),
        ("workspace-owner", {"ok": True, "user": {**MEMBER, "is_owner": True}}, True),
        ("member", None, False),
        ("no-users-read", {"ok": False, "error": "missing_scope", "needed": "users:read"}, False),
        ("role-unknown", {"ok": True, "user": {"id": "U2"}}, False),
        ("user-unknown", {"ok": True}, False),
    ],
)
def test_only_admins_subscribe_a_channel(
    who: str, users_info: dict[str, Any] | None, allowed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/vllm-subscribe amd` (this channel) from U2: done for a listed admin, a workspace
    admin or owner; refused, with nothing stored, for a member and whenever Slack does not
    say (no users:read scope, no role in the answer, no user)."""
    admins = "U1,U2" if who == "listed" else "U1"
    with endpoint(monkeypatch, admins, users_info) as (slack, settings, service):
        if who == "workspace-admin":
            slack.admins.add("U2")
        request = signed_command(slack, "/vllm-subscribe", "amd", SECRET, user="U2")
        again = signed_command(slack, "/vllm-subscribe", "amd", SECRET, user="U2")
        statuses = served(settings, service, [request, again])
        stored = [
            (s.target_kind, s.target_id, s.topic, s.created_by)
            for s in service.services.store.list()
        ]
        said = [args["text"] for _, args in slack.responses]
    assert statuses == [200, 200]
    if allowed:
        assert said == [
            "this channel will get the AMD / ROCm digest after each daily report",
            "this channel already gets the AMD / ROCm digest",
        ]
        assert stored == [("channel", "C1", "amd", "U2")]
    else:
        assert len(said) == 2 and all(s.startswith(NEEDS_PERMISSION) for s in said)
        assert stored == []


@pytest.mark.parametrize("admin", [False, True])
def test_only_admins_unsubscribe_a_channel(admin: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """A channel's digest an admin set up: a member cannot take it away, an admin can."""
    with endpoint(monkeypatch) as (slack, settings, service):
        service.services.store.add(
            Subscription("slack", "channel", "C1", "amd", "U1"), datetime.now(UTC)
        )
        if admin:
            slack.admins.add("U2")
        request = signed_command(slack, "/vllm-unsubscribe", "amd", SECRET, user="U2")
        again = signed_command(slack, "/vllm-unsubscribe", "amd", SECRET, user="U2")
        statuses = served(settings, service, [request, again])
        left = [(s.target_kind, s.target_id, s.topic) for s in service.services.store.list()]
        said = [args["text"] for _, args in slack.responses]
    assert statuses == [200, 200]
    if admin:
        assert said == [
            "this channel will no longer get the AMD / ROCm digest",
            "this channel gets no AMD / ROCm digest: nothing to unsubscribe",
        ]
        assert left == []
    else:
        assert len(said) == 2 and all(s.startswith("un" + NEEDS_PERMISSION) for s in said)
        assert left == [("channel", "C1", "amd")]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "say which topic or filter: `/vllm-subscribe amd` (see `/vllm-topics`)"),
        ("labels:rocm", "`labels:` is not a filter: say `label:&lt;name&gt;`"),
        ("path:vllm/[ab.py", "`vllm/[ab.py` has an unclosed `[`"),
        ("author:-bad-", "`-bad-` is not a GitHub login"),
        ("amd weekly", "a topic's digest comes with each daily report"),
        ("amdd", "unknown topic 'amdd' — did you mean 'amd'?"),
        ("amd elsewhere", "say `here` (this channel) or `dm` (your direct messages)"),
    ],
)
def test_a_subscription_typed_wrong_says_what_to_type(
    text: str, says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From an admin, too: the answer says what to type, and nothing is stored."""
    with endpoint(monkeypatch) as (slack, settings, service):
        request = signed_command(slack, "/vllm-subscribe", text, SECRET)
        statuses = served(settings, service, [request])
        said = [args["text"] for _, args in slack.responses]
        stored = service.services.store.list()
    assert (statuses, stored) == ([200], [])
    assert len(said) == 1 and said[0].startswith(says)


def test_socket_mode_requests_carry_no_signature_and_are_answered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With an app token and no signing secret (Socket Mode), requests come over Slack's
    socket, unsigned and without HTTP headers: the replay guard lets each through."""
    from slack_bolt.request.async_request import AsyncBoltRequest

    with endpoint(monkeypatch) as (slack, _, service):
        monkeypatch.setenv("SLACK_APP_TOKEN", "xapp-test")
        monkeypatch.delenv("SLACK_SIGNING_SECRET")
        body, _ = signed_command(slack, "/vllm-subscribe", "amd dm", SECRET)

        async def scenario() -> list[int]:
            app = build_slack_app(load_settings(), service)
            statuses = []
            for _ in range(2):
                request = AsyncBoltRequest(body=body, mode="socket_mode")
                statuses.append(int((await app.async_dispatch(request)).status))
            while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                await asyncio.gather(*others, return_exceptions=True)
            return statuses

        statuses = asyncio.run(scenario())
        said = [args["text"] for _, args in slack.responses]
    assert statuses == [200, 200]
    # Both are answered; which answer is sent first is the two tasks' race, so the check
    # is that one subscribed and the other was told it already was.
    assert len(said) == 2
    assert "your DMs will get the AMD / ROCm digest after each daily report" in said
    assert any(text.startswith("your DMs already get the") for text in said)
