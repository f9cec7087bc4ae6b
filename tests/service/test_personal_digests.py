"""Personal digests end to end, on SQLite and PostgreSQL: people link their GitHub login and
subscribe by label, author, path and `mine` through Slack's HTTP endpoint and Discord's
interactions endpoint (signed as the platforms sign), then `vllm-report post` of the real
2026-03-25 sends each exactly the matching items, once, to their DMs; a second post sends
nothing again; weekly ones wait for the weekly day; unsubscribing stops them.

The fake GitHub serves the anchor days; what the fixtures do not record (the files a PR
changes, whose review is requested) is set here on PRs of that day.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from nacl.signing import SigningKey

from bot.adapters.discord.http import Interactions
from bot.adapters.slack.app import build_slack_app, slack_web_app
from bot.app import commands, open_bot
from bot.cli import main
from bot.model.rules import load_rules
from config.settings import load_settings
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault
from tests.fakes.slack_api import FakeSlack, signed_command

DAY = anchor_days()[2]  # 2026-03-25, a Wednesday
EARLIER = anchor_days()[1]  # 2026-03-24
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
KEY = SigningKey.generate()
RULES = load_rules()
ATTENTION = "vllm/v1/attention/backends/rocm_aiter.py"


@dataclass
class World:
    github: FakeGitHub
    slack: FakeSlack
    discord: FakeDiscord
    path_prs: list[int]  # PRs of the day that change a file under vllm/v1/attention/
    asked: int  # a PR of the day asking tjtanaa's review


@pytest.fixture
def world(
    store_url: str, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> Iterator[World]:
    day_prs = sorted(
        it.number
        for it in fake_github.items.values()
        if it.kind == "pr" and DAY.start <= it.created_at < DAY.end and it.merged_at is None
    )
    for number in day_prs[:3]:
        fake_github.items[number].files = [ATTENTION, "tests/x.py"]
    fake_github.items[day_prs[3]].files = ["vllm/v1/attentionx/y.py"]  # not under the folder
    before = next(
        it for it in fake_github.items.values() if it.kind == "pr" and it.created_at < EARLIER.start
    )
    before.files = [ATTENTION]  # matches, but not that day: never told
    asked = day_prs[4]
    fake_github.users.add("tjtanaa")  # mentioned that day; no item of theirs in the fixture
    # An open issue of theirs from two days before (a real issue's title), answered that day.
    title = next(it.title for it in fake_github.items.values() if it.kind == "issue")
    answered_at = DAY.start + timedelta(hours=5)
    fake_github.items[990001] = FakeItem(
        990001,
        "issue",
        title,
        "tjtanaa",
        [],
        DAY.start - timedelta(days=2),
        answered_at,
        comments=1,
        comment_list=[{"id": 77, "user": "gshtras", "created_at": answered_at}],
    )
    fake_github.items[asked].review_requests = ["tjtanaa"]
    with FakeSlack() as slack, FakeDiscord() as discord:
        for name, value in {
            "DATABASE_URL": store_url,
            "GITHUB_TOKEN": "ghp-test-token",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "DISCORD_BOT_TOKEN": "discord-test-token",
            "DISCORD_API_URL": discord.api_url,
            "DISCORD_CHANNELS": "111",
            "VLLM_REPORT_CUTOFF": DAY.cutoff,
        }.items():
            monkeypatch.setenv(name, value)
        yield World(fake_github, slack, discord, day_prs[:3], asked)


def slack_says(world: World, user: str, *texts: str) -> list[str]:
    """Each `/command words` typed in Slack by `user`, answered over HTTP: the answers."""
    settings = load_settings()
    bot = open_bot(settings, RULES)
    service = commands(bot)

    async def scenario() -> None:
        from aiohttp import web

        runner = web.AppRunner(slack_web_app(build_slack_app(settings, service)))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/slack/events"
        # No keep-alive: once an answer is sent, its connection's task ends, and waiting for
        # the app's tasks is waiting for that answer alone.
        connector = aiohttp.TCPConnector(force_close=True)
        async with aiohttp.ClientSession(connector=connector) as session:
            for typed in texts:
                name, _, words = typed.partition(" ")
                body, headers = signed_command(world.slack, name, words, SECRET, user=user)
                async with session.post(url, data=body, headers=headers) as answer:
                    assert answer.status == 200
                while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                    await asyncio.gather(*others, return_exceptions=True)
        await runner.cleanup()

    before = len(world.slack.responses)
    try:
        asyncio.run(scenario())
    finally:
        bot.close()
    return [args["text"] for _, args in world.slack.responses[before:]]


def discord_says(
    world: World, user: str, name: str, *, admin_in: str | None = None, **options: Any
) -> str:
    """One slash command from `user` in a DM with the bot (or, `admin_in`, in that guild
    channel as an administrator), signed as Discord signs: the answer."""
    bot = open_bot(load_settings(), RULES)
    interactions = Interactions(commands(bot), KEY.verify_key.encode().hex(), world.discord.api_url)
    body = {
        "type": 2,
        "id": "1",
        "application_id": "555",
        "token": f"tok-{len(world.discord.webhooks)}",
        "channel_id": f"7{user}",
        "user": {"id": user},
        "data": {"name": name, "options": [{"name": k, "value": v} for k, v in options.items()]},
    }
    if admin_in is not None:
        body.pop("user")
        body |= {
            "channel_id": admin_in,
            "guild_id": "1",
            "member": {"user": {"id": user}, "permissions": str(1 << 3)},
        }
    raw = json.dumps(body).encode()
    import time

    stamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": KEY.sign(stamp.encode() + raw).signature.hex(),
        "X-Signature-Timestamp": stamp,
    }

    async def scenario() -> None:
        status, _ = await interactions.handle(raw, headers)
        assert status == 200
        await interactions.close()

    before = len(world.discord.webhooks)
    try:
        asyncio.run(scenario())
    finally:
        bot.close()
    (said,) = [hook[2]["content"] for hook in world.discord.webhooks[before:]]
    return str(said)


def post(label: str = DAY.label) -> None:
    assert main(["post", label, "--cutoff", DAY.cutoff]) == 0


def slack_digests(world: World, user: str) -> list[dict[str, Any]]:
    return [
        p.payload
        for p in world.slack.channel_posts(f"D{user}")
        if p.payload.get("metadata", {}).get("event_type") == "vllm_personal_digest"
    ]


def slack_numbers(message: dict[str, Any]) -> list[int]:
    text = "\n".join(b["text"]["text"] for b in message["blocks"] if b.get("type") == "section")
    return [int(n) for n in re.findall(r"/(?:pull|issues)/(\d+)\|#", text)]


def discord_digests(world: World, user: str) -> list[dict[str, Any]]:
    return [
        s.payload
        for s in world.discord.in_channel(f"7{user}")
        if "digest for you" in (s.payload.get("embeds") or [{}])[0].get("title", "")
    ]


def discord_numbers(message: dict[str, Any]) -> list[int]:
    text = "\n".join(e["description"] for e in message["embeds"])
    return [int(n) for n in re.findall(r"\[#(\d+)\]\(", text)]


def day_items(world: World, label: str = "rocm") -> set[int]:
    return {
        it.number
        for it in world.github.items.values()
        if label in it.labels
        and any(
            t is not None and DAY.start <= t < DAY.end
            for t in (it.created_at, it.closed_at, it.merged_at)
        )
    }


def test_people_subscribe_and_get_exactly_their_items_once(world: World) -> None:
    said = slack_says(
        world,
        "U7",
        "/vllm-me github tjtanaa",
        "/vllm-subscribe mine dm",
        "/vllm-subscribe label:ROCm dm",
        "/vllm-subscriptions",
    )
    assert said[0].startswith("you are @tjtanaa on GitHub here")
    assert said[1] == "your DMs will get the mine digest after each daily report"
    assert said[2] == "your DMs will get the label:rocm digest after each daily report"
    assert said[3] == "your DMs: mine (daily)\nyour DMs: label:rocm (daily)"
    assert discord_says(world, "4242", "vllm-subscribe", topic="path:vllm/v1/attention/*") == (
        "your DMs will get the path:vllm/v1/attention/\\* digest after each daily report"
    )
    assert discord_says(world, "4242", "vllm-subscribe", topic="author:AndreasKaratzas").startswith(
        "your DMs will get the author:andreaskaratzas digest"
    )
    post()

    mine, label = slack_digests(world, "U7")
    assert slack_numbers(label) == sorted(slack_numbers(label), key=slack_numbers(label).index)
    assert sorted(slack_numbers(label)) == sorted(day_items(world)) and len(day_items(world)) == 33
    assert slack_numbers(mine)[0] == world.asked  # the review asked of them comes first
    told = json.dumps(mine, ensure_ascii=False)
    assert "Your review is requested (1)" in told
    assert "New comments on your issues (1)" in told and "new comment by gshtras" in told
    assert slack_numbers(mine)[1] == 990001
    assert mine["blocks"][0]["text"]["text"] == f"vLLM digest for you · {DAY.label}"

    path, author = discord_digests(world, "4242")
    assert sorted(discord_numbers(path)) == world.path_prs
    told = "\n".join(e["description"] for e in path["embeds"])
    assert "changes vllm/v1/attention/backends/rocm\\_aiter.py" in told  # Markdown-escaped
    assert "review required" not in told  # GitHub's default decision says nothing
    karatzas = {
        it.number
        for it in world.github.items.values()
        if it.author == "AndreasKaratzas"
        and any(
            t is not None and DAY.start <= t < DAY.end
            for t in (it.created_at, it.closed_at, it.merged_at)
        )
    }
    assert sorted(discord_numbers(author)) == sorted(karatzas) and len(karatzas) == 14

    facts = [r for r in world.github.requests if r.graphql and "files(first:" in r.graphql]
    post()  # again: nothing is sent twice, and no PR's files are read again
    assert len(slack_digests(world, "U7")) == 2 and len(discord_digests(world, "4242")) == 2
    assert [r for r in world.github.requests if r.graphql and "files(first:" in r.graphql] == facts
    read = [
        int(n) for r in facts for n in re.findall(r"p(\d+): issueOrPullRequest", r.graphql or "")
    ]
    day_prs = {
        it.number
        for it in world.github.items.values()
        if it.kind == "pr"
        and any(
            t is not None and DAY.start <= t < DAY.end
            for t in (it.created_at, it.closed_at, it.merged_at)
        )
    }
    assert len(read) == len(set(read)) and day_prs <= set(read)  # each PR of the day once
    assert len(facts) == -(-len(read) // 50)  # one GraphQL request per 50 PRs


def test_weekly_waits_for_the_weekly_day_and_off_sends_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = slack_says(
        world, "U7", "/vllm-subscribe label:rocm dm weekly", "/vllm-subscribe author:hmellor dm off"
    )
    assert said == [
        "your DMs will get the label:rocm digest once a week, with the weekly day's report",
        "your DMs will get the author:hmellor digest no more until you say `daily` or `weekly` "
        "(kept, paused)",
    ]
    post()  # 2026-03-25 is a Wednesday; the weekly day is Monday by default
    assert slack_digests(world, "U7") == []
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_DAY", "wed")
    post()
    (weekly,) = slack_digests(world, "U7")
    assert weekly["blocks"][0]["text"]["text"] == ("vLLM digest for you · 2026-03-19..2026-03-25")
    assert day_items(world) <= set(slack_numbers(weekly))  # the week holds the day
    assert slack_says(world, "U7", "/vllm-subscribe label:rocm dm daily") == [
        "your DMs will get the label:rocm digest after each daily report (was weekly)"
    ]


def test_unsubscribing_and_forgetting_stop_the_digests(world: World) -> None:
    slack_says(
        world,
        "U7",
        "/vllm-me github tjtanaa",
        "/vllm-subscribe mine dm",
        "/vllm-subscribe label:rocm dm",
    )
    assert slack_says(world, "U7", "/vllm-unsubscribe label:rocm dm", "/vllm-me forget") == [
        "your DMs will no longer get the label:rocm digest",
        "forgot @tjtanaa: `mine` digests send nothing until you link a login again",
    ]
    post()
    assert slack_digests(world, "U7") == []


def test_bad_words_get_one_sentence_and_change_nothing(world: World) -> None:
    said = slack_says(
        world,
        "U7",
        "/vllm-subscribe label:rocmm dm",
        "/vllm-subscribe author:nobody-here-at-all dm",
        "/vllm-subscribe path:vllm/[v1 dm",
        "/vllm-subscribe mine dm",
        "/vllm-me github no-such-person-xyz",
        "/vllm-me github not/a/login",
        "/vllm-me dance",
        "/vllm-subscribe label:rocm dm hourly",
    )
    assert said == [
        "vllm-project/vllm has no label `rocmm`: did you mean `label:rocm`?",
        "GitHub has no user `nobody-here-at-all`: check the spelling",
        "`vllm/[v1` has an unclosed `[`: e.g. `path:vllm/[ab]*.py`",
        "link your GitHub login first: `/vllm-me github &lt;login&gt;`",
        "GitHub has no user `no-such-person-xyz`: check the spelling",
        "`not/a/login` is not a GitHub login (letters, digits and dashes)",
        "`dance` is not something /vllm-me does: say `/vllm-me github &lt;login&gt;`, "
        "`/vllm-me forget` or `/vllm-me`",
        "`hourly` is not `here`, `dm`, `daily`, `weekly` or `off`; "
        'a label with spaces goes in quotes: `label:"rocm hourly"`',
    ]
    assert slack_says(world, "U7", "/vllm-subscriptions") == [
        "no digests here: try `/vllm-subscribe amd`"
    ]


def test_a_person_changes_only_their_own_link_and_subscriptions(world: World) -> None:
    """U8 cannot see, unlink or unsubscribe U7's: each command reads the asker's own rows."""
    slack_says(world, "U7", "/vllm-me github tjtanaa", "/vllm-subscribe label:rocm dm")
    assert slack_says(
        world, "U8", "/vllm-me", "/vllm-me forget", "/vllm-unsubscribe label:rocm dm"
    ) == [
        "no GitHub login linked: `/vllm-me github &lt;login&gt;` links yours",
        "no GitHub login was linked",
        "your DMs get no label:rocm digest: nothing to unsubscribe",
    ]
    assert discord_says(world, "4242", "vllm-me").startswith("no GitHub login linked")
    assert slack_says(world, "U7", "/vllm-me", "/vllm-subscriptions") == [
        "you are @tjtanaa on GitHub here; `/vllm-me forget` unlinks it",
        "your DMs: label:rocm (daily)",
    ]


def test_a_digest_with_nothing_in_it_is_not_sent(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    """A label of the repository no item of the day carries (typed quoted: it has a space):
    its subscriber gets no message saying nothing; the log says why."""
    world.github.labels.append("Unused Label")
    assert slack_says(world, "U7", '/vllm-subscribe label:"unused label" dm') == [
        "your DMs will get the label:unused label digest after each daily report"
    ]
    capsys.readouterr()
    assert main(["-v", "post", DAY.label, "--cutoff", DAY.cutoff]) == 0
    assert slack_digests(world, "U7") == []
    assert (
        f"no label:unused label digest for {DAY.label} to slack-dm:U7#me-"
        in capsys.readouterr().err
    )


def test_mine_is_never_a_channels_and_a_known_subscription_changes_cadence_without_github(
    world: World,
) -> None:
    """An administrator's `mine here` is refused with the way to get it (a channel would
    show one person's queue to all); a subscription already stored changes its cadence even
    when GitHub cannot list the labels any more."""
    said = discord_says(world, "4242", "vllm-subscribe", admin_in="111", topic="mine", where="here")
    assert said.startswith("\\`mine\\` is yours alone") or said.startswith("`mine` is yours alone")
    assert discord_says(world, "4242", "vllm-subscribe", topic=' label: "rocm" ').startswith(
        "your DMs will get the label:rocm digest"
    )
    world.github.fault_rule = lambda index, path: (
        Fault(status=404) if path.endswith("/labels") else None
    )
    said = discord_says(world, "4242", "vllm-subscribe", topic="label:rocm", cadence="weekly")
    assert said == (
        "your DMs will get the label:rocm digest once a week, with the weekly day's report "
        "(was daily)"
    )
