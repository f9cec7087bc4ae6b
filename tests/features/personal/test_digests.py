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
from sqlalchemy import delete

from bot.app import commands, open_bot
from bot.cli import main
from bot.model.rules import load_rules
from bot.platforms.discord.http import Interactions
from bot.platforms.slack.app import build_slack_app, slack_web_app
from bot.store import Span, Store
from bot.store.schema import CoverageRow
from config.settings import load_settings
from tests.anchor_data import REPO, anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub, FakeItem, Fault
from tests.fakes.slack_api import FakeSlack, signed_command
from tests.slack_text import body_lines

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
    text = "\n".join(body_lines(message))
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


@dataclass
class Group:
    """A subscription's group in a combined DM: the items listed under it, and those it
    selects that an earlier group listed (its "also" line)."""

    count: int
    listed: list[int]
    also: list[int]


SLACK_HEADING = re.compile(r"^\*(.+) \((\d+)\)\*$")
DISCORD_HEADING = re.compile(r"^\*\*(.+) \((\d+)\)\*\*$")
SLACK_REF = re.compile(r"\|#(\d+)>")
DISCORD_REF = re.compile(r"\[#(\d+)\]\(")


def slack_rows(message: dict[str, Any]) -> list[str]:
    return body_lines(message)


def discord_rows(message: dict[str, Any]) -> list[str]:
    return "\n".join(e["description"] for e in message["embeds"]).split("\n")


def groups(
    rows: list[str], names: list[str], heading: re.Pattern[str], ref: re.Pattern[str]
) -> dict[str, Group]:
    """The DM's rows read group by group (a group starts at its heading, `names`: what the
    subscriptions are called); a reason's heading inside `mine` belongs to its group."""
    out: dict[str, Group] = {}
    current: Group | None = None
    for row in rows:
        found = heading.match(row)
        if found and found.group(1) in names:
            current = out[found.group(1)] = Group(int(found.group(2)), [], [])
        elif current is not None and row.startswith("• "):
            current.listed += [int(n) for n in ref.findall(row)[:1]]
        elif current is not None and "also" in row.lower():
            current.also += [int(n) for n in ref.findall(row)]
    return out


def authored(world: World, login: str) -> set[int]:
    return {
        it.number
        for it in world.github.items.values()
        if (it.author or "").lower() == login.lower()
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

    (dm,) = slack_digests(world, "U7")  # one DM, a group per subscription
    mine, label = groups(
        slack_rows(dm), ["your work as @tjtanaa", "label rocm"], SLACK_HEADING, SLACK_REF
    ).values()
    assert sorted(label.listed + label.also) == sorted(day_items(world))
    assert label.count == len(day_items(world)) == 33
    assert mine.listed[0] == world.asked  # the review asked of them comes first
    told = json.dumps(dm, ensure_ascii=False)
    assert "Your review is requested (1)" in told
    assert "New comments on your issues (1)" in told and "new comment by gshtras" in told
    assert mine.listed[1] == 990001
    assert dm["blocks"][0]["text"]["text"] == f"vLLM digest for you · {DAY.label}"

    (dm,) = discord_digests(world, "4242")
    names = ["changes to vllm/v1/attention/\\*", "opened by andreaskaratzas"]
    path, author = groups(discord_rows(dm), names, DISCORD_HEADING, DISCORD_REF).values()
    assert sorted(path.listed + path.also) == world.path_prs
    told = "\n".join(e["description"] for e in dm["embeds"])
    assert "changes vllm/v1/attention/backends/rocm\\_aiter.py" in told  # Markdown-escaped
    assert "review required" not in told  # GitHub's default decision says nothing
    karatzas = authored(world, "AndreasKaratzas")
    assert sorted(author.listed + author.also) == sorted(karatzas) and len(karatzas) == 14

    facts = [r for r in world.github.requests if r.graphql and "files(first:" in r.graphql]
    post()  # again: nothing is sent twice, and no PR's files are read again
    assert len(slack_digests(world, "U7")) == 1 and len(discord_digests(world, "4242")) == 1
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
        f"no label:unused label digest for {DAY.label} to slack-dm:U7#me:"
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


# -- one DM a person a run, a group per subscription (issue 44) ---------------------------------


def test_a_person_gets_one_dm_a_run_with_a_group_per_subscription(world: World) -> None:
    """Three subscriptions, one DM: a heading per subscription in the order subscribed
    (`mine` first), each item listed once, in the first group that selects it; a later
    group names it on its "also" line and still counts it. A second run sends nothing."""
    slack_says(
        world,
        "U7",
        "/vllm-me github tjtanaa",
        "/vllm-subscribe label:rocm dm",
        "/vllm-subscribe author:AndreasKaratzas dm",
        "/vllm-subscribe mine dm",
    )
    post()
    (dm,) = slack_digests(world, "U7")
    assert dm["blocks"][0]["text"]["text"] == f"vLLM digest for you · {DAY.label}"
    names = ["your work as @tjtanaa", "label rocm", "opened by andreaskaratzas"]
    got = groups(slack_rows(dm), names, SLACK_HEADING, SLACK_REF)
    assert list(got) == names
    listed = [n for g in got.values() for n in g.listed]
    assert len(listed) == len(set(listed))  # each item once
    rocm, karatzas = day_items(world), authored(world, "AndreasKaratzas")
    mine = set(got[names[0]].listed)
    assert world.asked in mine and 990001 in mine
    label, author = got["label rocm"], got["opened by andreaskaratzas"]
    assert set(label.listed) | set(label.also) == rocm and label.count == len(rocm)
    assert set(label.also) == rocm & mine
    assert set(author.listed) | set(author.also) == karatzas and author.count == len(karatzas)
    assert set(author.also) == karatzas & (rocm | mine) and author.also  # told above
    told = json.dumps(dm, ensure_ascii=False)
    assert "Your review is requested (1)" in told and "3 subscriptions" in told
    from tests.chat_checks import check_slack

    check_slack([dm], DIGESTED)
    post()  # again: the combined DM is not sent twice
    assert len(slack_digests(world, "U7")) == 1


def test_two_subscriptions_of_one_kind_are_two_groups_of_one_dm(world: World) -> None:
    """Two `label:` subscriptions on Discord: one DM, both labels' items, each once. Three
    big ones: one DM still, within Discord's limits, saying how much it left out."""
    for user, labels in {
        "4242": ("ci/build", "kv-connector"),
        "5151": ("v1", "rocm", "bug"),
    }.items():
        for label in labels:
            said = discord_says(world, user, "vllm-subscribe", topic=f"label:{label}")
            assert said.startswith(f"your DMs will get the label:{label} digest")
    post()
    (dm,) = discord_digests(world, "4242")
    names = ["label ci/build", "label kv-connector"]
    got = groups(discord_rows(dm), names, DISCORD_HEADING, DISCORD_REF)
    assert list(got) == names
    ci, kv = day_items(world, "ci/build"), day_items(world, "kv-connector")
    assert set(got[names[0]].listed) == ci and got[names[0]].also == []
    assert set(got[names[1]].listed) == kv - ci and set(got[names[1]].also) == kv & ci
    assert got[names[1]].also and got[names[1]].count == len(kv)
    (big,) = discord_digests(world, "5151")
    assert discord_rows(big)[-1].endswith("more lines in the full report")
    from tests.chat_checks import check_discord

    check_discord([dm, big], DIGESTED)
    post()
    assert len(discord_digests(world, "4242")) == len(discord_digests(world, "5151")) == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "2026-03-20, 2026-03-21, 2026-03-22 and 2026-03-23 were not collected: "
            "their items are missing",
        ),
        ("zh", "2026-03-20、2026-03-21、2026-03-22、2026-03-23 未收集：这几天的条目缺失"),
    ],
)
def test_a_weekly_digest_says_which_of_its_days_were_not_collected(
    world: World, store_url: str, monkeypatch: pytest.MonkeyPatch, lang: str, said: str
) -> None:
    """The archive holds 2026-03-19, 24 and 25 of the week 2026-03-19..25 (GitHub's search
    times out on the rest): the weekly DM says the four others were never read, in one line."""
    slack_says(world, "U7", "/vllm-subscribe label:rocm dm weekly")
    post()  # a Wednesday; the weekly day is Monday: collected, no digest yet
    assert slack_digests(world, "U7") == []
    store = Store(store_url)
    try:  # the archive as if 2026-03-20..23 had never been read
        with store.engine.begin() as connection:
            connection.execute(delete(CoverageRow))
        day = timedelta(days=1)
        for start, end in ((DAY.start - 9 * day, DAY.start - 5 * day), (EARLIER.start, DAY.end)):
            store.coverage.add(REPO, Span(start, end), "search", DAY.end)
    finally:
        store.close()
    world.github.fault_rule = lambda index, path: (
        Fault(incomplete=True) if path == "/search/issues" else None
    )
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_DAY", "wed")
    monkeypatch.setenv("VLLM_REPORT_LANG", lang)
    post()
    (weekly,) = slack_digests(world, "U7")
    rows = slack_rows(weekly)
    assert [r for r in rows if "2026-03-" in r and "#" not in r] == [f"_{said}_"]
    assert rows[0] == f"_{said}_"  # said first, before the items


DIGESTED: Any = type("Digested", (), {"repo": "vllm-project/vllm"})()  # what check_* read


# -- what the filters match (mutants the tests above let live) --------------------------------


def of_the_day(world: World) -> list[FakeItem]:
    return sorted(
        (
            it
            for it in world.github.items.values()
            if any(
                t is not None and DAY.start <= t < DAY.end
                for t in (it.created_at, it.closed_at, it.merged_at)
            )
        ),
        key=lambda it: it.number,
    )


def test_labels_and_authors_match_whole_names_in_any_case(world: World) -> None:
    """`label:rocm` is the label rocm in any case (`ROCm`), never `rocm-ci`; `author:` is a
    whole login in any case, never a longer one that contains it."""
    others = [
        it for it in of_the_day(world) if "rocm" not in it.labels and it.author != "AndreasKaratzas"
    ]
    longer, upper, lookalike = others[:3]
    longer.labels, upper.labels = ["rocm-ci"], ["ROCm"]
    lookalike.author = "AndreasKaratzas-bot"
    slack_says(
        world, "U7", "/vllm-subscribe label:rocm dm", "/vllm-subscribe author:AndreasKaratzas dm"
    )
    post()
    (dm,) = slack_digests(world, "U7")
    names = ["label rocm", "opened by andreaskaratzas"]
    label, author = groups(slack_rows(dm), names, SLACK_HEADING, SLACK_REF).values()
    assert sorted(label.listed + label.also) == sorted(day_items(world) | {upper.number})
    assert longer.number not in label.listed + label.also
    assert sorted(author.listed + author.also) == sorted(authored(world, "AndreasKaratzas"))
    assert lookalike.number not in author.listed + author.also


def test_a_closed_pr_is_never_a_review_request(world: World) -> None:
    """A PR merged or closed that day still asking tjtanaa's review is not "Your review is
    requested": only the open one is."""
    closed = [
        it
        for it in of_the_day(world)
        if it.kind == "pr"
        and it.closed_at is not None
        and DAY.start <= it.closed_at < DAY.end
        and it.author != "tjtanaa"
        and "@tjtanaa" not in (it.body or "").lower()
    ]
    merged = next(it for it in closed if it.merged_at is not None)
    unmerged = next(it for it in closed if it.merged_at is None)
    merged.review_requests = unmerged.review_requests = ["tjtanaa"]
    slack_says(world, "U7", "/vllm-me github tjtanaa", "/vllm-subscribe mine dm")
    post()
    (dm,) = slack_digests(world, "U7")
    names = ["👀 Your review is requested", "💬 New comments on your issues", "🧑‍💻 Yours"]
    got = groups(slack_rows(dm), [*names, "📣 Mentions you"], SLACK_HEADING, SLACK_REF)
    asked = got["👀 Your review is requested"]
    assert asked.listed == [world.asked] and asked.count == 1
    told = [n for g in got.values() for n in g.listed]
    assert merged.number not in told and unmerged.number not in told


# -- one DM a person, daily before weekly (issue 53: mutants the tests above let live) --------


def test_on_the_weekly_day_the_daily_group_comes_before_the_weekly_one(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A weekly `label:rocm` subscribed before a daily `author:AndreasKaratzas`: on the
    weekly day the person gets one DM holding both, the day's group first (it is named with
    its day) and the week's after it, whatever the order they subscribed in."""
    said = slack_says(
        world,
        "U7",
        "/vllm-subscribe label:rocm dm weekly",
        "/vllm-subscribe author:AndreasKaratzas dm",
    )
    assert said[0].startswith("your DMs will get the label:rocm digest once a week")
    assert said[1].startswith("your DMs will get the author:andreaskaratzas digest after each")
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_DAY", "wed")  # 2026-03-25 is a Wednesday
    post()
    (dm,) = slack_digests(world, "U7")  # one DM, not one per subscription
    assert dm["blocks"][0]["text"]["text"] == "vLLM digest for you · 2026-03-19..2026-03-25"
    daily, weekly = f"opened by andreaskaratzas · {DAY.label}", "label rocm"
    got = groups(slack_rows(dm), [daily, weekly], SLACK_HEADING, SLACK_REF)
    assert list(got) == [daily, weekly]  # the day first, then the week
    karatzas = authored(world, "AndreasKaratzas")
    assert set(got[daily].listed) == karatzas and got[daily].count == len(karatzas)
    week = got[weekly]
    assert day_items(world) <= set(week.listed) | set(week.also)  # the week holds the day
    assert "2 subscriptions" in json.dumps(dm, ensure_ascii=False)
