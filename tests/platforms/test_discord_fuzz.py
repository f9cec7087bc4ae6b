"""Signed interactions of every wrong shape: each gets a 200 with an answer or a 400 with a
sentence, and nothing logs a traceback (a fuzz run found `KeyError: 'application_id'` in
the follow-up and `ValueError` on a non-numeric `member.permissions`)."""

from __future__ import annotations

import asyncio
import copy
import logging
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.platforms.discord.http import Interactions
from tests.fakes.discord_api import FakeDiscord
from tests.platforms.test_discord_http import command, discord_fake, endpoint, signed  # noqa: F401

T = 1_774_000_000.0
BASES = [
    command("vllm-topics"),
    command("vllm-subscriptions"),
    command("vllm-subscribe", {"topic": "amd"}),
    command("vllm-radar", {"wrong": "gaudi#285 24982"}),
    {"type": 4, "data": {"name": "vllm-report", "options": [{"name": "topic", "value": "a"}]}},
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)
# Where a field is broken: a top-level key, one of `member`'s, `data`'s or an option's.
PATHS = [
    ("application_id",),
    ("token",),
    ("channel_id",),
    ("guild_id",),
    ("member",),
    ("member", "permissions"),
    ("member", "user"),
    ("user",),
    ("data",),
    ("data", "name"),
    ("data", "options"),
    ("data", "options", 0),
    ("data", "options", 0, "name"),
    ("data", "options", 0, "value"),
]
DELETE = object()


def broken(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    body = copy.deepcopy(base)
    parent: Any = body
    for step in path[:-1]:
        try:
            parent = parent[step]
        except (KeyError, IndexError, TypeError):
            return body  # the path is not in this base: the body stays whole
    last = path[-1]
    if isinstance(parent, dict):
        if value is DELETE:
            parent.pop(last, None)
        else:
            parent[last] = value
    elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        if value is DELETE:
            del parent[last]
        else:
            parent[last] = value
    return body


@pytest.fixture
def fuzzed(discord_fake: FakeDiscord) -> tuple[Interactions, FakeDiscord]:  # noqa: F811
    """One endpoint for all of a test's examples (hypothesis runs them in one test call)."""
    return endpoint(discord_fake, clock=lambda: T), discord_fake


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    base=st.sampled_from(BASES),
    path=st.sampled_from(PATHS),
    value=st.just(DELETE) | JSON,
)
def test_a_signed_interaction_of_any_shape_is_answered_without_a_traceback(
    fuzzed: tuple[Interactions, FakeDiscord],
    base: dict[str, Any],
    path: tuple[Any, ...],
    value: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    interactions, fake = fuzzed
    body = {**broken(base, path, value), "id": str(next(IDS))}  # each its own: no replay
    before = len(fake.webhooks)
    caplog.clear()

    async def scenario() -> tuple[int, dict[str, Any]]:
        with caplog.at_level(logging.WARNING):
            answer = await interactions.handle(*signed(body, now=T))
            await interactions.close()  # the follow-ups are done
        return answer

    status, answer = scenario_result = asyncio.run(scenario())
    assert status in (200, 400), scenario_result
    if status == 400:
        assert answer["error"].startswith(("not an interaction", "interaction type"))
    elif body["type"] == 2:  # a command: deferred, then answered on its webhook
        assert len(fake.webhooks) > before, body
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


IDS = count(1000)


@pytest.mark.parametrize(
    ("path", "value", "said"),
    [
        (("application_id",), DELETE, "a command needs its `application_id`"),
        (("token",), "../../channels/1/messages", "a command needs its `token`"),
        (("member", "permissions"), "all", "`member.permissions` is not a number"),
        (("data", "options"), [5], "`data.options` is not a list of named options"),
        (("data", "name"), 7, "a command needs `data` with its `name`"),
    ],
)
def test_the_fields_the_fuzz_run_broke_are_refused_with_what_is_wrong(
    fuzzed: tuple[Interactions, FakeDiscord], path: tuple[Any, ...], value: Any, said: str
) -> None:
    interactions, fake = fuzzed
    body = {**broken(command("vllm-subscribe", {"topic": "amd"}), path, value)}
    body["id"] = str(next(IDS))
    before = len(fake.webhooks)

    async def scenario() -> tuple[int, dict[str, Any]]:
        answer = await interactions.handle(*signed(body, now=T))
        await interactions.close()
        return answer

    assert asyncio.run(scenario()) == (400, {"error": f"not an interaction: {said}"})
    assert len(fake.webhooks) == before  # nothing was started


def test_a_follow_up_discord_does_not_take_is_one_log_line_without_a_traceback(
    discord_fake: FakeDiscord,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The fuzz run's last tracebacks: follow-ups timing out under a burst. Discord not
    taking an answer is not a bug of ours: a warning naming the command, no traceback."""
    interactions = endpoint(discord_fake, clock=lambda: T)
    interactions.api_url = "http://127.0.0.1:1/api/v10"  # nothing listens there
    body = {**command("vllm-topics"), "id": str(next(IDS))}

    async def scenario() -> tuple[int, dict[str, Any]]:
        with caplog.at_level(logging.WARNING):
            answer = await interactions.handle(*signed(body, now=T))
            await interactions.close()
        return answer

    assert asyncio.run(scenario())[0] == 200
    said = [r for r in caplog.records if "did not take the answer to /vllm-topics" in r.message]
    assert len(said) == 1 and not said[0].exc_info
    assert not [r for r in caplog.records if r.exc_info]
