"""Slash commands: the shared parser, the Slack app on signed HTTP requests, Discord callbacks."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any
from unittest.mock import create_autospec

import discord
import pytest

from bot.app import commands, open_bot
from bot.app import table as whole_table
from bot.commands import Asker, CommandError, Commands, RateLimiter, Services
from bot.features.radar.service import RadarService
from bot.model.rules import load_rules
from bot.platforms.discord.gateway import Gateway, build_tree
from bot.platforms.registry import DISCORD, SLACK
from bot.platforms.slack.app import build_slack_app
from bot.platforms.slack.slash import typed
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack, signed_command
from tests.slack_text import message_lines

TABLE = whole_table()

RULES = load_rules()
TOPICS = [t.key for t in RULES.topics]
DAY = anchor_days()[2]
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


# -- words typed as text, read by the command's options ------------------------------------


def read(name: str, text: str) -> Any:
    """The request Slack's text gives (the text reader needs only the topic rules)."""
    table = Commands(Services(load_settings(), RULES, None, None, None), table=whole_table())  # type: ignore[arg-type]
    return table.read(table.table[name], typed(text))


def parse_report(text: str, topics: list[str]) -> Any:
    assert topics == TOPICS
    return read("vllm-report", text)


def test_report_arguments_in_any_order() -> None:
    """when, section, topic, repo, lang and public, each recognised by its shape."""
    request = parse_report("public zh amd 2026-03-20..2026-03-26 sgl-project/sglang", TOPICS)
    assert (request.when, request.topic, request.repo, request.lang, request.public) == (
        "2026-03-20..2026-03-26",
        "amd",
        "sgl-project/sglang",
        "zh",
        True,
    )
    assert parse_report("", TOPICS).when == "yesterday"
    assert parse_report("last 7 days hot", TOPICS).when == "last 7 days"
    assert parse_report("7d hot", TOPICS).section == "hot"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("amdd", "unknown topic 'amdd' — did you mean 'amd'?"),
        ("yesteday", "did you mean 'yesterday'?"),
        ("x " * 20, "too many words"),
    ],
)
def test_bad_arguments_say_what_to_type(text: str, says: str) -> None:
    with pytest.raises(CommandError, match=says):
        parse_report(text, TOPICS)


def test_slack_encoded_input_is_decoded_first() -> None:
    """Slack sends &amp; and auto-links what looks like a domain as <url|text>; the parser
    sees what the person typed. A link whose text is not its URL is not what was typed."""
    assert typed("<http://vllm-project.org|vllm-project.org> &amp; amd <@U1|alice>") == (
        "vllm-project.org & amd alice"
    )
    assert typed("path:<http://vllm/v1/x.py|vllm/v1/x.py>") == "path:vllm/v1/x.py"
    with pytest.raises(CommandError, match=r"came as a link to https://github\.com/"):
        typed("<https://github.com/vllm-project/vllm|vllm-project/vllm> amd")


def test_rate_limiter_allows_a_burst_then_says_when() -> None:
    now = [0.0]
    limiter = RateLimiter(3, clock=lambda: now[0])
    assert [limiter.allow("u") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.allow("u") == pytest.approx(60.0)
    assert limiter.allow("someone else") == 0.0
    now[0] = 61.0
    assert limiter.allow("u") == 0.0


# -- Slack: signed requests to the Bolt app ----------------------------------------------


@pytest.fixture
def slack_env(
    monkeypatch: pytest.MonkeyPatch, fake_github: FakeGitHub, store_url: str
) -> Iterator[FakeSlack]:
    """The fake Slack, and the store on each backend (SQLite, PostgreSQL)."""
    with FakeSlack() as fake:
        monkeypatch.setenv("DATABASE_URL", store_url)
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_SIGNING_SECRET", SECRET)
        monkeypatch.setenv("SLACK_API_URL", fake.api_url)
        monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
        yield fake


def service() -> Commands:
    settings = load_settings()
    bot = open_bot(settings, RULES)
    return commands(bot)


def signed(
    fake: FakeSlack,
    command: str,
    text: str,
    *,
    user: str = "U1",
    age: int = 0,
    secret: str = SECRET,
) -> tuple[str, dict[str, str]]:
    return signed_command(fake, command, text, secret, user=user, age=age)


async def dispatch(app: Any, body: str, headers: dict[str, str]) -> int:
    """One signed request through Bolt: its HTTP status (the ack)."""
    from slack_bolt.request.async_request import AsyncBoltRequest

    response = await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
    return int(response.status)


async def finished() -> None:
    """Every task Bolt started after its acks has run to the end (no sleeping, no guessing)."""
    while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
        await asyncio.gather(*others, return_exceptions=True)


def texts(fake: FakeSlack) -> list[str]:
    return [args["text"] for _, args in fake.responses]


def test_slack_report_command_acks_then_answers_ephemerally(slack_env: FakeSlack) -> None:
    """Signed /vllm-report: the ack comes back while the report is still being made (so it
    never waits on GitHub), then the headline and the AMD section, only to you."""
    commands = service()
    gate = threading.Event()
    report = commands.services.reports.report

    def held_report(query: Any) -> Any:
        assert gate.wait(60), "the test never let the report go"
        return report(query)

    commands.services.reports.report = held_report  # type: ignore[method-assign]

    async def scenario() -> tuple[int, int]:
        app = build_slack_app(load_settings(), commands)
        status = await dispatch(app, *signed(slack_env, "/vllm-report", f"{DAY.label} amd"))
        answered_before_ack = len(slack_env.responses)
        gate.set()
        await finished()
        return status, answered_before_ack

    assert asyncio.run(scenario()) == (200, 0)
    answers = [args for _, args in slack_env.responses]
    assert len(answers) == 2
    # The answer is the AMD report: its headline says so, its reply is AMD's section.
    assert (
        answers[0]["blocks"][0]["text"]["text"] == f"vLLM daily report · {DAY.label} · AMD / ROCm"
    )
    assert message_lines(answers[1])[0].startswith("*🎯 AMD / ROCm*")
    assert {a["response_type"] for a in answers} == {"ephemeral"}


def test_slack_bad_input_gets_a_sentence(slack_env: FakeSlack) -> None:
    commands = service()

    async def scenario() -> None:
        app = build_slack_app(load_settings(), commands)
        await dispatch(app, *signed(slack_env, "/vllm-report", "amdd"))
        await dispatch(app, *signed(slack_env, "/vllm-report", "2099-01-01"))
        await finished()

    asyncio.run(scenario())
    said = texts(slack_env)
    assert len(said) == 2
    assert any("unknown topic 'amdd' — did you mean 'amd'?" in t for t in said)
    assert any("has not come yet" in t for t in said)


@pytest.mark.parametrize("attack", ["forged", "stale", "replayed"])
def test_slack_forged_stale_and_replayed_requests_get_401_and_change_nothing(
    attack: str, slack_env: FakeSlack
) -> None:
    commands = service()

    async def scenario() -> list[int]:
        app = build_slack_app(load_settings(), commands)
        if attack == "forged":
            request = signed(slack_env, "/vllm-subscribe", "amd here", secret="not-the-secret")
            statuses = [await dispatch(app, *request)]
        elif attack == "stale":
            request = signed(slack_env, "/vllm-subscribe", "amd here", age=600)
            statuses = [await dispatch(app, *request)]
        else:
            slack_env.admins.add("U1")
            request = signed(slack_env, "/vllm-subscribe", "amd dm")
            first = await dispatch(app, *request)
            await finished()
            commands.services.store.remove(commands.services.store.list()[0])
            statuses = [first, await dispatch(app, *request)]
        await finished()
        return statuses

    statuses = asyncio.run(scenario())
    assert statuses[-1] == 401
    assert commands.services.store.list() == []
    assert len(slack_env.responses) == (1 if attack == "replayed" else 0)


def test_slack_subscribe_needs_permission_for_a_channel(slack_env: FakeSlack) -> None:
    """Non-admins may subscribe their DMs only; admins the channel; both can list and undo."""
    commands = service()

    async def scenario() -> list[str]:
        """Each command answered in full before the next is sent: the order is the test's."""
        app = build_slack_app(load_settings(), commands)
        said = []
        for command, text, user in (
            ("/vllm-subscribe", "amd here", "U2"),
            ("/vllm-subscribe", "amd dm", "U2"),
            ("/vllm-subscribe", "nvidia", "U3"),
            ("/vllm-subscriptions", "", "U2"),
            ("/vllm-unsubscribe", "amd dm", "U2"),
        ):
            if user == "U3":
                slack_env.admins.add("U3")
            before = len(slack_env.responses)
            assert await dispatch(app, *signed(slack_env, command, text, user=user)) == 200
            await finished()
            (answer,) = texts(slack_env)[before:]
            said.append(answer)
        return said

    texts_ = asyncio.run(scenario())
    assert "needs permission to manage it" in texts_[0]
    assert texts_[1] == "your DMs will get the AMD / ROCm digest after each daily report"
    assert texts_[2] == "this channel will get the NVIDIA digest after each daily report"
    assert texts_[3] == "your DMs: amd\nthis channel: nvidia"
    assert texts_[4] == "your DMs will no longer get the AMD / ROCm digest"
    remaining = commands.services.store.list()
    assert [(s.target_kind, s.target_id, s.topic) for s in remaining] == [
        ("channel", "C1", "nvidia")
    ]


# -- Discord: command callbacks with autospec'd Interaction objects -----------------------


def interaction(*, guild: bool = True, manage: bool = False) -> Any:
    fake = create_autospec(discord.Interaction, instance=True)
    fake.response = create_autospec(discord.InteractionResponse, instance=True)
    fake.followup = create_autospec(discord.Webhook, instance=True)
    fake.user = create_autospec(discord.User, instance=True)
    fake.user.id = 4242
    fake.channel_id = 111
    fake.guild = create_autospec(discord.Guild, instance=True) if guild else None
    fake.permissions = discord.Permissions(manage_channels=manage)
    return fake


def test_discord_report_defers_then_follows_up_with_embeds(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_REPORT_CUTOFF", DAY.cutoff)
    gateway = Gateway(service())
    fake = interaction()
    asyncio.run(gateway.run("vllm-report", fake, when=DAY.label, section="hot", public=True))
    fake.response.defer.assert_awaited_once_with(ephemeral=False, thinking=True)
    sends = fake.followup.send.await_args_list
    assert len(sends) == 2
    first = sends[0].kwargs
    assert first["embeds"][0].title == f"vLLM daily report · {DAY.label}"
    assert first["allowed_mentions"].to_dict() == {"parse": []}
    assert sends[1].kwargs["embeds"][0].title == "💬 Hot discussions"
    assert all(send.kwargs["wait"] is True for send in sends)


def test_discord_subscribe_checks_manage_channels() -> None:
    gateway = Gateway(service())
    denied, allowed, in_dm = interaction(), interaction(manage=True), interaction(guild=False)
    asyncio.run(gateway.run("vllm-subscribe", denied, topic="amd"))
    asyncio.run(gateway.run("vllm-subscribe", allowed, topic="amd"))
    asyncio.run(gateway.run("vllm-subscribe", in_dm, topic="nvidia"))
    said = [f.followup.send.await_args.kwargs["content"] for f in (denied, allowed, in_dm)]
    assert "needs permission" in said[0]
    assert said[1] == "this channel will get the AMD / ROCm digest after each daily report"
    assert said[2] == "your DMs will get the NVIDIA digest after each daily report"


def test_discord_autocomplete_and_command_tree() -> None:
    """Topics and sections autocomplete (≤ 25 choices); the seven commands people know are
    registered (every command of the table: the test below)."""
    gateway = Gateway(service())
    topics = asyncio.run(gateway.choose("topic", "nv"))
    assert [c.value for c in topics] == ["nvidia"]
    assert len(asyncio.run(gateway.choose("section", ""))) <= 25
    client = discord.Client(intents=discord.Intents.none())
    tree = build_tree(client, gateway)
    assert {c.name for c in tree.get_commands()} >= {
        "vllm-queue",
        "vllm-radar",
        "vllm-report",
        "vllm-subscribe",
        "vllm-subscriptions",
        "vllm-topics",
        "vllm-unsubscribe",
    }


# -- the table: every platform registers every command, with the command's own options ---


def test_discord_registers_each_commands_options_as_the_table_says() -> None:
    """The tree is built from the table: a command, an option, a choice or an autocomplete
    missing from Discord (or typed wrong) fails here."""
    from discord.enums import AppCommandOptionType

    tree = build_tree(discord.Client(intents=discord.Intents.none()), Gateway(service()))
    registered = {c.name: c for c in tree.get_commands()}
    assert set(registered) == {c.name for c in TABLE}
    for command in TABLE:
        slash = registered[command.name]
        assert isinstance(slash, discord.app_commands.Command)
        assert slash.description == command.description
        parameters = {p.name: p for p in slash.parameters}
        assert set(parameters) == {o.name for o in command.options}
        for option in command.options:
            got = parameters[option.name]
            kind = AppCommandOptionType.boolean if option.flag else AppCommandOptionType.string
            assert (got.type, got.required, got.description) == (
                kind,
                option.required,
                option.description,
            )
            assert [c.value for c in got.choices] == list(option.choices)
            assert got.autocomplete == (option.complete is not None)


def test_slack_answers_every_command_of_the_table(slack_env: FakeSlack) -> None:
    """Each command of the table is registered with Bolt: a signed request for it is
    acknowledged and answered (here with bad words: one sentence, no report made)."""
    commands = service()

    async def scenario() -> list[int]:
        app = build_slack_app(load_settings(), commands)
        said = [
            await dispatch(app, *signed(slack_env, f"/{c.name}", "x " * 20, user=f"U{n}"))
            for n, c in enumerate(TABLE)
        ]
        await finished()
        return said

    assert asyncio.run(scenario()) == [200] * len(TABLE)
    assert len(texts(slack_env)) == len(TABLE)


def test_a_command_that_fails_unexpectedly_answers_a_sentence(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A bug in one command is logged with its traceback; the person still gets a sentence
    (Bolt would otherwise answer nothing at all)."""
    from bot.commands import Asker, Request, Said
    from bot.commands.topics import Topics

    class Broken(Topics):
        async def answer(self, services: Any, asker: Any, checked: None) -> Any:
            raise RuntimeError("a bug")

    table = Commands(Services(load_settings(), RULES, None, None, None), table=whole_table())  # type: ignore[arg-type]
    told = asyncio.run(table.answer(Broken(), Asker("slack", "U1"), Request()))
    assert told == Said("something went wrong; try again")
    assert "RuntimeError: a bug" in caplog.text


def test_the_radar_takes_a_language_and_answers_in_it() -> None:
    """`/vllm-radar gaudi zh`: the words sorted (a plugin, a language), and the answer drawn
    in Chinese on both platforms; no language: the bot's."""
    from datetime import UTC, datetime

    from bot.features.radar.command import RadarShown
    from bot.features.radar.model import Radar as RadarModel
    from bot.model.windows import Window

    request = read("vllm-radar", "gaudi zh 7d")
    assert (request.plugin, request.lang, request.when) == ("gaudi", "zh", "7d")
    assert read("vllm-radar", "gaudi").lang is None
    start = datetime(2025, 9, 1, tzinfo=UTC)
    window = Window(start, start.replace(day=8), "UTC", "2025-09-01..2025-09-07")
    empty = RadarModel(window, ("vllm-project/vllm-gaudi",), (), (), (), True, ())

    class Radars:  # the radar service as the command sees it, holding one radar
        plugins = ("vllm-project/vllm-gaudi",)

        def plugin(self, name: str) -> str:
            return self.plugins[0]

        def radar(self, window: Window, plugin: str | None) -> RadarModel:
            return empty

    clock = lambda: start  # noqa: E731
    table = Commands(
        Services(load_settings(), RULES, None, None, clock, {RadarService: Radars()}),
        table=whole_table(),
    )  # type: ignore[arg-type]
    command = table.table["vllm-radar"]
    asked = table.read(command, "gaudi zh")
    shown = asyncio.run(table.answer(command, Asker("slack", "U1"), asked))
    assert isinstance(shown, RadarShown) and shown.lang == "zh"
    assert (
        shown.draw(SLACK)[0]["blocks"][0]["text"]["text"] == "插件故障雷达 · 2025-09-01..2025-09-07"
    )
    assert "本时间段没有上游改动被点名导致插件故障。" in str(shown.draw(DISCORD))
    assert (
        RadarShown(empty).draw(SLACK)[0]["blocks"][0]["text"]["text"].startswith("Breakage radar")
    )
