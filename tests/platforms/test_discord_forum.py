"""A Discord forum as a daily destination: one post a day, titled and tagged, the rest in its
thread, each message once (the fake Discord's forum, the real transport and deliverer, a
SQLite ledger).

The payloads are the real 2026-03-25 posts (tests/golden), in English and Chinese. A text
channel's path is checked here only for what the forum added to it (one channel read); its
messages are the ones tests/delivery and the goldens hold.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete

from bot.cli import main
from bot.delivery import (
    Deliverer,
    DeliveryResult,
    Destination,
    Heading,
    Payload,
    TransportError,
)
from bot.model.windows import WindowKey
from bot.platforms.discord.forum import post_name, tag_names
from bot.platforms.discord.transport import DiscordTransport
from bot.store import Store
from bot.store.schema import DeliveryRow
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import BOT_ID, FakeDiscord, Post, Sent
from tests.fakes.github_api import FakeGitHub

ROOT = Path(__file__).resolve().parents[2]
REPO = "vllm-project/vllm"
FORUM, TEXT = "555", "111"
# The window began two hours ago: every post of this run is younger than it.
WINDOW = WindowKey("2026-03-25", datetime.now(UTC) - timedelta(hours=2))
LABELS = ("en", "AMD / ROCm", "NVIDIA", "CPU / Arm", "Intel")
NAMES = ("headline", "vendors", "key", "activity", "links")


def day_parts(lang: str = "en") -> list[tuple[str, Payload]]:
    """The 2026-03-25 Discord post as the bot draws it, one (part, payload) per message."""
    suffix = "" if lang == "en" else f".{lang}"
    messages = json.loads((ROOT / f"tests/golden/discord-2026-03-25{suffix}.json").read_text())
    return [(f"{NAMES[i] if i < len(NAMES) else i}", m) for i, m in enumerate(messages)]


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    with FakeDiscord() as started:
        yield started


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield opened
    opened.close()


def deliver(
    fake: FakeDiscord,
    store: Store,
    parts: list[tuple[str, Payload]] | None = None,
    labels: tuple[str, ...] = LABELS,
    target: str = FORUM,
    transport: type[DiscordTransport] = DiscordTransport,
) -> DeliveryResult:
    """One delivery, as a run of `post` makes it (with a transport of its own)."""

    async def run() -> DeliveryResult:
        own = transport("discord-test-token", fake.api_url)
        deliverer = Deliverer(
            store.ledger,
            {"discord": own},  # type: ignore[dict-item]
            lambda: datetime.now(UTC),
            wait_limit=timedelta(seconds=2),
        )
        heading = Heading(f"vLLM report {WINDOW.label}", labels)
        try:
            return await deliverer.deliver(
                REPO, WINDOW, Destination("discord", target), parts or day_parts(), heading
            )
        finally:
            await own.close()

    return asyncio.run(run())


def ledger(store: Store, target: str = FORUM) -> dict[str, str | None]:
    """The ledger's rows for the destination: part → message id."""
    with store.engine.begin() as connection:
        rows = connection.execute(
            DeliveryRow.__table__.select().where(DeliveryRow.destination == f"discord:{target}")
        )
        return {row.part: row.message_id for row in rows}


def lose_ledger(store: Store) -> None:
    """The database lost every delivery row (restored from an older backup)."""
    with store.engine.begin() as connection:
        connection.execute(delete(DeliveryRow))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_forum_gets_one_post_titled_and_tagged_the_rest_in_its_thread(
    lang: str, fake: FakeDiscord, store: Store
) -> None:
    """The headline opens the post (named with the report's title, in its language, tagged
    with the language and the vendors, the missing tags added); the replies follow in its
    thread in order; the ledger holds the post's id as the headline's and every reply's."""
    fake.add_forum(FORUM)
    parts = day_parts(lang)
    result = deliver(fake, store, parts, labels=(lang, *LABELS[1:]))
    assert (result.sent, result.failed) == (len(parts), {})
    (post,) = fake.posts_in(FORUM)
    title = parts[0][1]["embeds"][0]["title"]
    assert title.endswith("· 2026-03-25") and post.name == title
    assert post.name.startswith("vLLM daily report" if lang == "en" else "vLLM 开发动态日报")
    assert fake.tag_names(post) == [lang, "AMD / ROCm", "NVIDIA", "CPU / Arm", "Intel"]
    thread = fake.in_channel(post.id)
    assert thread[0].id == post.id  # the starter message is the post's
    assert [m.payload["embeds"] for m in thread] == [p["embeds"] for _, p in parts]
    assert all(m.payload["allowed_mentions"] == {"parse": []} for m in thread)
    assert "nonce" not in thread[0].payload  # a starter message takes none
    assert all(m.payload["enforce_nonce"] for m in thread[1:])
    rows = ledger(store)
    assert rows.pop("_complete") is None
    assert rows == {name: m.id for (name, _), m in zip(parts, thread, strict=True)}


def test_a_rerun_the_same_day_posts_nothing(fake: FakeDiscord, store: Store) -> None:
    """Run again (a new process: a new transport), the day's post is complete in the
    ledger: no request reaches Discord and the forum still has one post."""
    fake.add_forum(FORUM)
    deliver(fake, store)
    asked = len(fake.requests)
    again = deliver(fake, store)
    assert (again.sent, again.skipped, again.failed) == (0, len(day_parts()), {})
    assert len(fake.posts_in(FORUM)) == 1 and len(fake.requests) == asked


def test_an_interrupted_run_goes_on_in_the_same_post(fake: FakeDiscord, store: Store) -> None:
    """A run that got the headline and one reply out (then died) is resumed: the rest goes
    into the post it opened, never a second post."""
    fake.add_forum(FORUM)
    parts = day_parts()

    class DiesAtTheSecondReply(DiscordTransport):
        async def post(self, target: str, payload: Payload, thread: str | None, key: Any) -> str:
            if key.part == parts[2][0]:
                raise TransportError("the process was stopped")
            return await super().post(target, payload, thread, key)

    first = deliver(fake, store, parts, transport=DiesAtTheSecondReply)
    assert (first.sent, first.failed) == (2, {f"discord:{FORUM}": "the process was stopped"})
    assert "_complete" not in ledger(store)
    rest = deliver(fake, store, parts)
    assert (rest.sent, rest.skipped) == (len(parts) - 2, 2)
    (post,) = fake.posts_in(FORUM)
    assert [m.payload["embeds"] for m in fake.in_channel(post.id)] == [
        p["embeds"] for _, p in parts
    ]


@pytest.mark.parametrize("archived", [False, True])
def test_a_post_the_ledger_lost_is_found_among_the_forum_s_posts(
    archived: bool, fake: FakeDiscord, store: Store
) -> None:
    """The ledger lost its rows after the post went out (a restored backup; a run killed
    after Discord opened the post, before the row was written): the post is found by its
    starter message, active or archived, and the parts by their nonces or embeds in its
    thread; nothing is posted again."""
    fake.add_forum(FORUM)
    deliver(fake, store)
    (post,) = fake.posts_in(FORUM)
    if archived:
        fake.archive(post.id)
    lose_ledger(store)
    again = deliver(fake, store)
    assert (again.sent, again.recovered, again.failed) == (0, len(day_parts()), {})
    assert fake.posts_in(FORUM) == [post]
    assert ledger(store)["headline"] == post.id


def test_a_post_by_someone_else_with_the_same_starter_is_not_taken_for_ours(
    fake: FakeDiscord, store: Store
) -> None:
    """A member's post quoting the day's headline (same embeds) is not the bot's: the bot
    opens its own."""
    fake.add_forum(FORUM)
    parts = day_parts()
    theirs = fake.snowflake()
    fake.posts[theirs] = Post(theirs, FORUM, "copied", [], owner="4242")
    fake.sent.append(Sent(theirs, theirs, dict(parts[0][1])))
    result = deliver(fake, store, parts)
    assert (result.sent, result.recovered) == (len(parts), 0)
    ours = [p for p in fake.posts_in(FORUM) if p.owner == BOT_ID]
    assert len(ours) == 1 and ledger(store)["headline"] == ours[0].id


def test_the_forum_s_own_tags_are_used_and_only_the_missing_ones_added(
    fake: FakeDiscord, store: Store
) -> None:
    """Tags the forum has (any case) keep their ids; one PATCH adds the others, keeping
    every tag it had, the operator's own among them."""
    forum = fake.add_forum(FORUM, tags=("Question", "EN", "nvidia"))
    before = {t["name"]: t["id"] for t in forum.tags}
    deliver(fake, store)
    (post,) = fake.posts_in(FORUM)
    assert fake.tag_names(post) == ["EN", "AMD / ROCm", "nvidia", "CPU / Arm", "Intel"]
    after = {t["name"]: t["id"] for t in forum.tags}
    assert {k: after[k] for k in before} == before
    assert sorted(after) == sorted([*before, "AMD / ROCm", "CPU / Arm", "Intel"])
    assert [r for r in fake.requests if r[0] == "PATCH"] == [("PATCH", f"/channels/{FORUM}")]


def test_without_manage_channels_the_post_goes_out_with_the_tags_there_are(
    fake: FakeDiscord, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot may not add tags: the post carries the forum's own, and one log line names
    the tags left off and what to do."""
    fake.add_forum(FORUM, tags=("en",), may_manage=False)
    with caplog.at_level(logging.WARNING, logger="bot.delivery"):
        result = deliver(fake, store)
    assert result.failed == {} and result.sent == len(day_parts())
    (post,) = fake.posts_in(FORUM)
    assert fake.tag_names(post) == ["en"]
    (said,) = [r.getMessage() for r in caplog.records if "tags" in r.getMessage()]
    assert said == (
        f"Discord forum {FORUM}: posting without the tags 'AMD / ROCm', 'NVIDIA', "
        "'CPU / Arm', 'Intel', not added: the bot lacks Manage Channels there: give it that "
        "permission or add the tags by hand"
    )


def test_a_forum_with_twenty_tags_gets_what_fits_and_says_what_did_not(
    fake: FakeDiscord, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord keeps 20 tags a forum: with 18, two are added (the language first, then the
    busiest vendor), the rest named in one line."""
    fake.add_forum(FORUM, tags=tuple(f"topic {n}" for n in range(18)))
    with caplog.at_level(logging.WARNING, logger="bot.delivery"):
        result = deliver(fake, store)
    assert result.failed == {}
    (post,) = fake.posts_in(FORUM)
    assert fake.tag_names(post) == ["en", "AMD / ROCm"]
    assert len(fake.forums[FORUM].tags) == 20
    (said,) = [r.getMessage() for r in caplog.records if "tags" in r.getMessage()]
    assert said == (
        f"Discord forum {FORUM} has 20 tags, Discord's limit: posting without 'NVIDIA', "
        "'CPU / Arm', 'Intel'; delete tags the forum no longer uses to make room"
    )


def test_a_forum_that_requires_a_tag_none_can_be_given_loses_nothing(
    fake: FakeDiscord, store: Store
) -> None:
    """The forum requires a tag, has none and the bot may not add one: the delivery fails
    in one sentence saying what to do, nothing is posted or marked delivered; once the bot
    may, the next run posts the day once."""
    forum = fake.add_forum(FORUM, require_tag=True, may_manage=False)
    result = deliver(fake, store)
    assert result.failed == {
        f"discord:{FORUM}": f"Discord forum {FORUM} requires a tag on every post and none of "
        "the report's could be applied (40067): give the bot Manage Channels there so it adds "
        "them, or add a tag named 'en' to the forum"
    }
    assert fake.posts == {} and ledger(store) == {"headline": None}
    forum.may_manage = True
    again = deliver(fake, store)
    assert (again.sent, again.failed) == (len(day_parts()), {})
    assert len(fake.posts_in(FORUM)) == 1


def test_a_forum_the_bot_may_not_post_in_is_said_and_disabled_like_a_gone_channel(
    fake: FakeDiscord, store: Store
) -> None:
    """No Send Messages in the forum: two attempts, then disabled with the sentence naming
    the permissions; nothing posted, nothing marked delivered."""
    fake.add_forum(FORUM, may_post=False)
    result = deliver(fake, store)
    assert result.failed == {
        f"discord:{FORUM}": f"disabled: the bot may not open posts in Discord forum {FORUM} "
        "(50013): give it Send Messages and Send Messages in Threads there"
    }
    assert fake.posts == {} and "_complete" not in ledger(store)


def test_a_text_channel_is_read_once_and_posted_to_as_before(
    fake: FakeDiscord, store: Store
) -> None:
    """A text channel: one channel read (its type) per transport, then the requests of
    before — the headline, a thread on it, the replies in it, each with its nonce."""
    parts = day_parts()
    first_day = _text_channel_requests(fake, store, parts)
    headline = fake.in_channel(TEXT)[0].id
    assert first_day == [
        ("GET", "/users/@me"),
        ("GET", f"/channels/{TEXT}"),
        ("GET", f"/channels/{TEXT}/messages"),
        ("POST", f"/channels/{TEXT}/messages"),
        ("POST", f"/channels/{TEXT}/messages/{headline}/threads"),
        *[("POST", f"/channels/{headline}/messages")] * (len(parts) - 1),
    ]
    first = fake.sent[: len(parts)]
    assert fake.posts == {} and [m.payload["embeds"] for m in first] == [
        p["embeds"] for _, p in parts
    ]
    assert all(m.payload["enforce_nonce"] for m in first)


def _text_channel_requests(
    fake: FakeDiscord, store: Store, parts: list[tuple[str, Payload]]
) -> list[tuple[str, str]]:
    """Two days' deliveries to the text channel through one transport; the first day's
    requests (the second day reads the channel's type from memory)."""

    async def run() -> list[tuple[str, str]]:
        transport = DiscordTransport("discord-test-token", fake.api_url)
        deliverer = Deliverer(
            store.ledger,
            {"discord": transport},  # type: ignore[dict-item]
            lambda: datetime.now(UTC),
        )
        heading = Heading(f"vLLM report {WINDOW.label}", LABELS)
        where = Destination("discord", TEXT)
        await deliverer.deliver(REPO, WINDOW, where, parts, heading)
        first = list(fake.requests)
        later = WindowKey("2026-03-26", WINDOW.start)
        await deliverer.deliver(REPO, later, where, parts, heading)
        await transport.close()
        assert ("GET", f"/channels/{TEXT}") not in fake.requests[len(first) :]
        return first

    return asyncio.run(run())


@pytest.mark.parametrize(
    ("payload", "fallback", "name"),
    [
        (
            {"embeds": [{"title": "vLLM 开发动态日报 · 2026-03-25"}]},
            "x",
            "vLLM 开发动态日报 · 2026-03-25",
        ),
        ({"content": "Quiet day\nnothing merged"}, "x", "Quiet day"),
        (
            {"embeds": [{"description": "no title"}]},
            "vLLM report 2026-03-25",
            "vLLM report 2026-03-25",
        ),
        ({"embeds": [{"title": "t" * 150}]}, "x", "t" * 99 + "…"),
    ],
)
def test_a_post_s_name_is_the_headline_s_title_within_100_characters(
    payload: dict[str, Any], fallback: str, name: str
) -> None:
    assert post_name(payload, fallback) == name
    assert 1 <= len(post_name(payload, fallback)) <= 100


def test_tag_names_are_cut_to_20_characters_each_once_at_most_5() -> None:
    labels = ("zh", "ZH", "Huawei Ascend NPU and CANN", "AMD / ROCm", " ", "NVIDIA", "Intel", "TPU")
    assert tag_names(labels) == ["zh", "Huawei Ascend NPU an", "AMD / ROCm", "NVIDIA", "Intel"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_post_opens_one_tagged_post_for_the_day_and_a_rerun_adds_none(
    lang: str,
    fake: FakeDiscord,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`vllm-report post` of 2026-03-25 to a forum in DISCORD_CHANNELS: one post named with
    the report's title, tagged with its language and the four vendors with news that day,
    busiest first; its thread holds the day's messages; `post` again adds nothing."""
    day = next(d for d in anchor_days() if d.label == "2026-03-25")
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "discord-test-token")
    monkeypatch.setenv("DISCORD_API_URL", fake.api_url)
    monkeypatch.setenv("DISCORD_CHANNELS", FORUM)
    monkeypatch.setenv("VLLM_REPORT_LANG", lang)
    fake.add_forum(FORUM, require_tag=True)
    assert main(["post", day.label, "--cutoff", day.cutoff]) == 0, capsys.readouterr().err
    assert main(["show", day.label, "--cutoff", day.cutoff, "--format", "discord"]) == 0
    drawn = json.loads(capsys.readouterr().out)
    (post,) = fake.posts_in(FORUM)
    title = {"en": "vLLM daily report", "zh": "vLLM 开发动态日报"}[lang]
    assert post.name == f"{title} · 2026-03-25"
    assert fake.tag_names(post) == [lang, "AMD / ROCm", "NVIDIA", "CPU / Arm", "Intel"]
    thread = fake.in_channel(post.id)
    assert thread[0].payload["embeds"] == drawn[0]["embeds"]
    assert len(thread) == len(drawn)  # the trend chart rides in the trends reply
    sent = len(fake.sent)
    assert main(["post", day.label, "--cutoff", day.cutoff]) == 0
    assert fake.posts_in(FORUM) == [post] and len(fake.sent) == sent


def test_a_copy_of_a_post_is_removed_with_its_thread(fake: FakeDiscord, store: Store) -> None:
    """A post opened twice (a run paused past its lease while another posted the day): the
    copy is removed as a post (`DELETE /channels/{post}`), its thread with it; the other
    stands."""
    fake.add_forum(FORUM)
    deliver(fake, store)
    lose_ledger(store)
    deliver(fake, store, day_parts("zh"))  # another day's words: a second post
    kept, copy = fake.posts_in(FORUM)

    async def remove() -> None:
        transport = DiscordTransport("discord-test-token", fake.api_url)
        await transport.delete(FORUM, copy.id, None)
        await transport.close()

    asyncio.run(remove())
    assert fake.posts_in(FORUM) == [kept] and fake.in_channel(copy.id) == []
    assert ("DELETE", f"/channels/{copy.id}") in fake.requests
