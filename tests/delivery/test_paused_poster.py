"""A poster paused past its lease between the lease check and the send (SIGSTOP, a long GC
pause), woken after another run took its parts over and posted them: the channel shows each
part once. Over the real Slack Web API (slack_sdk against the fake Slack)."""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.delivery import Deliverer, DeliveryResult, Destination, PartKey, Payload
from bot.model.windows import WindowKey
from bot.platforms.slack.transport import SlackTransport, slack_client
from bot.store import Store
from tests.fakes.slack_api import FakeSlack

REPO = "vllm-project/vllm"
SHANGHAI = ZoneInfo("Asia/Shanghai")
WINDOW = WindowKey("2026-03-25", datetime(2026, 3, 25, 11, 43, tzinfo=SHANGHAI))
NOW = datetime(2026, 3, 26, 4, 0, tzinfo=UTC)
PARTS: list[tuple[str, Payload]] = [(name, {"text": name}) for name in ("headline", "a", "b")]
LEASE = timedelta(seconds=30)


def paused_run(
    store_url: str,
    slack: FakeSlack,
    parts: list[tuple[str, Payload]] = PARTS,
    at: str = "a",
    taken: int | None = None,
) -> tuple[DeliveryResult, DeliveryResult, set[str]]:
    """A pauses past its lease before sending part `at`; B takes the first `taken` parts
    (all by default) over and posts them; A wakes and sends its copy, then goes on. Returns
    A's result, B's, and the ids the ledger holds."""
    first, second = Store(store_url), Store(store_url)
    wall = [NOW]
    where = Destination("slack", "C1")
    taken_over: list[DeliveryResult] = []

    if True:  # the fake Slack is the caller's

        def deliverer(store: Store, transport: SlackTransport, owner: str) -> Deliverer:
            return Deliverer(
                store.ledger,
                {"slack": transport},
                lambda: NOW,
                lease=LEASE,
                wait_limit=timedelta(seconds=10),
                owner=owner,
                wall=lambda: wall[0],
            )

        class Paused(SlackTransport):
            """A's transport: the first send of part a stops past the lease, long enough
            for B to take every part over and post it; then it goes out."""

            async def post(
                self, target: str, payload: Payload, thread: str | None, key: PartKey
            ) -> str:
                if key.part == at and not taken_over:
                    wall[0] += LEASE + timedelta(seconds=1)
                    taken_over.append(await b.deliver(REPO, WINDOW, where, parts[:taken], "t"))
                return await super().post(target, payload, thread, key)

        a = deliverer(first, Paused(slack_client("xoxb-a", slack.api_url), pace=0), "a")
        b = deliverer(second, SlackTransport(slack_client("xoxb-b", slack.api_url), pace=0), "b")
        woken = asyncio.run(a.deliver(REPO, WINDOW, where, parts, "t"))
    recorded = first.ledger.message_ids(REPO, WINDOW)
    first.close()
    second.close()
    return woken, taken_over[0], recorded


def test_a_poster_woken_after_a_takeover_leaves_each_part_once(store_url: str) -> None:
    with FakeSlack() as slack:
        woken, taken_over, recorded = paused_run(store_url, slack)
        shown = Counter(post.part for post in slack.channel_posts("C1"))
        standing = {post.ts for post in slack.channel_posts("C1")}
    assert shown == {"headline": 1, "a": 1, "b": 1}
    assert standing == recorded  # the message kept is the one recorded, not A's copy
    assert woken.withdrawn == 1  # A's copy of part a, sent after B's, is gone
    assert woken.copies_left == []
    assert taken_over.sent == 2  # B posted a and b; the headline was A's


def test_parts_after_a_removed_headline_copy_go_under_the_headline_that_stands(
    store_url: str,
) -> None:
    """A paused before its headline; B posted the headline alone (a run asked for it
    only). A's headline copy is removed, and its parts thread under B's headline, never
    under the message just deleted."""
    with FakeSlack() as slack:
        woken, _, _ = paused_run(store_url, slack, at="headline", taken=1)
        posts = slack.channel_posts("C1")
    [headline] = [p for p in posts if p.part == "headline"]
    assert woken.withdrawn == 1
    assert {p.part: p.thread_ts for p in posts if p.part != "headline"} == {
        "a": headline.ts,
        "b": headline.ts,
    }


def test_a_chart_posted_twice_is_shown_once(store_url: str) -> None:
    """The copy is a picture (a shared file, known by its file id): it is the file that is
    removed, so the channel does not keep two charts."""
    chart = {"file": {"data": b"\x89PNG chart", "name": "counts.png", "title": "t", "alt": "a"}}
    parts: list[tuple[str, Payload]] = [("headline", {"text": "h"}), ("chart", chart)]
    with FakeSlack() as slack:
        woken, _, _ = paused_run(store_url, slack, parts, at="chart")
        charts = [p for p in slack.channel_posts("C1") if p.part.startswith("file:")]
    assert woken.withdrawn == 1 and woken.copies_left == []
    assert len(charts) == 1


def test_a_copy_that_cannot_be_removed_is_said_with_its_message_id(store_url: str) -> None:
    """Slack refuses the delete (a missing scope): the run does not pretend the channel
    shows each part once; it names the copy to delete by hand."""
    with FakeSlack(refuse_delete="missing_scope") as slack:
        woken, _, recorded = paused_run(store_url, slack)
        copies = [p.ts for p in slack.channel_posts("C1") if p.part == "a"]
    assert len(copies) == 2 and woken.withdrawn == 0
    (copy,) = set(copies) - recorded
    (said,) = woken.copies_left
    assert said.startswith("slack:C1: a was posted twice and the copy (message ")
    assert copy in said and "missing_scope" in said and said.endswith("delete it by hand")


@pytest.mark.parametrize("reason", ["missing_scope", "ratelimited"])
def test_post_exits_1_while_a_copy_stands(
    reason: str, store_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The run is not clean while a copy stands: `post` names it and exits 1 (a script or
    a cron job sees the failure), whatever kept the delete from happening."""
    from bot.cli.reports import _told_post
    from bot.model.windows import day_window
    from bot.service.daily_run import PostResult
    from config.settings import Settings

    with FakeSlack(refuse_delete=reason) as slack:
        woken, _, _ = paused_run(store_url, slack)
    settings = Settings(slack_bot_token="xoxb-1-test", slack_channels="C1")
    window = day_window(date(2026, 3, 25), SHANGHAI, time(11, 43))
    code = _told_post(settings, window, PostResult("2026-03-25", True, woken))
    err = capsys.readouterr().err
    assert code == 1
    (told,) = [line for line in err.splitlines() if line.startswith("vllm-report:")]
    assert told.startswith("vllm-report: slack:C1: a was posted twice") and reason in told


def test_a_copy_is_removed_from_discord_over_its_api() -> None:
    """Discord's nonce usually answers a late copy with the first message; when it does
    not (the nonce's few minutes are past), the copy is deleted like Slack's."""
    from bot.platforms.discord.transport import DiscordTransport
    from tests.fakes.discord_api import FakeDiscord

    key = PartKey(REPO, WINDOW, "discord:123", "a")

    async def scenario(fake: FakeDiscord) -> None:
        transport = DiscordTransport("token", fake.api_url)
        message_id = await transport.post("123", {"content": "a"}, None, key)
        assert [s.id for s in fake.in_channel("123")] == [message_id]
        await transport.delete("123", message_id, None)
        await transport.close()

    with FakeDiscord() as discord:
        asyncio.run(scenario(discord))
        assert discord.in_channel("123") == []
