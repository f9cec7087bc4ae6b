"""Delivery end to end: fake GitHub + fake Slack + fake Discord + the store (SQLite, PostgreSQL).

One post delivers exactly the rendered messages, thread first; running it again,
restarting, and killing the process between send and record deliver nothing twice and
miss nothing; dead destinations are disabled after two attempts; rate limits are waited out.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.cli import main
from bot.store import Store, Subscription
from bot.store.schema import DeliveryRow
from tests.anchor_data import anchor_days
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack
from tests.slack_text import message_text

DAY = anchor_days()[2]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def slack(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
        monkeypatch.setenv("SLACK_API_URL", fake.api_url)
        monkeypatch.setenv("SLACK_CHANNELS", "C1")
        monkeypatch.setenv("VLLM_REPORT_SLACK_POST_INTERVAL", "0")
        yield fake


@pytest.fixture
def discord_(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    with FakeDiscord() as fake:
        monkeypatch.setenv("DISCORD_BOT_TOKEN", "discord-test-token")
        monkeypatch.setenv("DISCORD_API_URL", fake.api_url)
        monkeypatch.setenv("DISCORD_CHANNELS", "111")
        yield fake


@pytest.fixture
def db(store_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", store_url)
    return store_url


def post(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["post", DAY.label, "--cutoff", DAY.cutoff])
    return code, capsys.readouterr().err


def expected_parts(capsys: pytest.CaptureFixture[str], platform: str) -> list[dict[str, object]]:
    assert main(["show", DAY.label, "--cutoff", DAY.cutoff, "--format", platform]) == 0
    return json.loads(capsys.readouterr().out)


def slack_parts(fake: FakeSlack, channel: str) -> list[str]:
    return [p.part for p in fake.channel_posts(channel)]


# The trend chart rides in the trends reply; on Slack its PNG is also the reply after it.
PICTURE = {"slack": 1, "discord": 0}


def test_one_post_delivers_every_part_once_thread_first(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Slack: headline in the channel, the rest under its ts. Discord: a thread on it."""
    code, err = post(capsys)
    assert code == 0, err
    want_slack = expected_parts(capsys, "slack")
    want_discord = expected_parts(capsys, "discord")

    posts = slack.channel_posts("C1")
    trends = [m["metadata"]["event_payload"]["part"] for m in want_slack].index("trends")
    # Every part once, in order; the trends reply carries the chart Slack draws, and the PNG
    # of the same chart is the reply after it (for clients that leave charts out).
    assert len(posts) == len(want_slack) + 1
    assert [p.part for p in posts[trends + 2 :]] == [
        m["metadata"]["event_payload"]["part"] for m in want_slack[trends + 1 :]
    ]
    for got, want in zip(posts[:trends], want_slack[:trends], strict=True):
        assert got.payload["blocks"] == want["blocks"]
    assert slack.refused == []  # every payload within Block Kit's limits, as Slack checks them
    assert posts[0].thread_ts is None
    assert {p.thread_ts for p in posts[1:]} == {posts[0].ts}
    # The trend chart drawn by Slack: the five counts over the archived days, the figures in
    # text beside it; the reply's other blocks are the ones `show` prints.
    blocks = posts[trends].payload["blocks"]
    (chart,) = [b for b in blocks if b["type"] == "data_visualization"]
    assert chart["chart"]["type"] == "line" and len(chart["title"]) <= 50
    assert [s["name"] for s in chart["chart"]["series"]][3] == "Merged PRs"
    merged = chart["chart"]["series"][3]["data"][-1]
    assert merged == {"label": DAY.label[5:], "value": DAY.counts["merged_prs"]}
    figures = blocks[blocks.index(chart) + 1]["elements"][0]["text"]
    assert "Merged PRs: " in figures and figures in posts[trends].payload["text"]
    native = {"data_visualization", "context"}
    assert [b for b in blocks if b["type"] not in native] == [
        b for b in want_slack[trends]["blocks"] if b["type"] not in native
    ]
    # The PNG: uploaded once (Slack's external upload) as the reply after the trends.
    (file,) = posts[trends + 1].payload["files"]
    assert slack.uploads[file["id"]].startswith(b"\x89PNG")
    assert file["name"].startswith(f"vllm-report-{DAY.label}-counts-")
    assert "Merged PRs: " in file["alt_txt"] and str(DAY.counts["merged_prs"]) in file["alt_txt"]
    # The fixture archive holds little before the day: the reply says it compares nothing.
    shown = message_text(posts[trends].payload)
    assert shown.startswith("*🔥 Trends*") and "too few to compare" in shown

    headline = discord_.in_channel("111")
    assert len(headline) == 1
    assert headline[0].payload["embeds"] == want_discord[0]["embeds"]
    assert discord_.threads == {headline[0].id: "111"}
    replies = discord_.in_channel(headline[0].id)
    assert len(replies) == len(want_discord) - 1
    chart = replies[trends - 1]
    (attachment,) = chart.payload["attachments"]
    assert chart.files[attachment["filename"]].startswith(b"\x89PNG")
    assert attachment["description"].startswith("Daily activity · vllm-project/vllm")
    # The picture shows inside the trends card, under the name it was uploaded as.
    card = chart.payload["embeds"][-1]
    assert card.pop("image") == {"url": f"attachment://{attachment['filename']}"}
    assert [r.payload["embeds"] for r in replies] == [m["embeds"] for m in want_discord[1:]]
    everything = [*headline, *replies]
    assert all(r.payload["allowed_mentions"] == {"parse": []} for r in everything)
    assert f"{len(posts) + len(want_discord)} messages sent" in err


@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_killed_between_send_and_record_then_rerun(
    platform: str,
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
) -> None:
    """SIGKILL while the 3rd message is accepted, unanswered; a rerun finds it, sends the rest.

    The killed run's leases are long (a loaded machine that stalls it for seconds must not
    make it lose them before it reaches the 3rd message); once it is dead they are ended in
    the ledger, as the lease's running out would end them later (the rerun does not wait)."""
    fake = slack if platform == "slack" else discord_
    fake.hang_on_post = 3
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "post", DAY.label, "--cutoff", DAY.cutoff],
        cwd=clean_env,
        env={**os.environ, "PYTHONPATH": str(ROOT), "VLLM_REPORT_DELIVERY_LEASE_SECONDS": "600"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # never read: a pipe nobody reads blocks the poster once full
    )
    try:
        assert fake.hung.wait(120), "the poster never reached the 3rd message"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    fake.hang_on_post = None
    _leases_run_out(db)
    code, err = post(capsys)
    assert code == 0, err
    assert "1 recovered" in err
    if platform == "slack":
        parts = slack_parts(slack, "C1")
        assert Counter(parts).most_common(1)[0][1] == 1  # nothing twice
        assert len(parts) == len(expected_parts(capsys, "slack")) + PICTURE["slack"]
    else:
        everything = [s.payload["nonce"] for s in discord_.sent]
        assert Counter(everything).most_common(1)[0][1] == 1
        assert len(everything) == len(expected_parts(capsys, "discord")) + PICTURE["discord"]


@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_killed_while_the_chart_is_shared_then_rerun(
    platform: str,
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    clean_env: Path,
) -> None:
    """SIGKILL while the chart's PNG is shared (Slack: the reply after the trends; Discord:
    inside the trends reply), unanswered: the rerun finds the picture by its name in the
    thread and uploads nothing again."""
    fake = slack if platform == "slack" else discord_
    parts = [m["metadata"]["event_payload"]["part"] for m in expected_parts(capsys, "slack")]
    fake.hang_on_post = parts.index("trends") + 1 + PICTURE[platform]
    discord_.nonce_seconds = 0  # long after Discord forgot the nonce: the thread must tell
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "post", DAY.label, "--cutoff", DAY.cutoff],
        cwd=clean_env,
        env={**os.environ, "PYTHONPATH": str(ROOT), "VLLM_REPORT_DELIVERY_LEASE_SECONDS": "2"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # never read: a pipe nobody reads blocks the poster once full
    )
    try:
        assert fake.hung.wait(120), "the poster never reached the trends reply"
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    fake.hang_on_post = None
    _leases_run_out(db)
    code, err = post(capsys)
    assert code == 0, err
    assert "1 recovered" in err
    if platform == "slack":
        pictures = [p for p in slack.channel_posts("C1") if p.payload.get("files")]
        assert len(pictures) == 1 and slack.upload_urls == 1
        assert (
            len(slack.channel_posts("C1"))
            == len(expected_parts(capsys, "slack")) + PICTURE["slack"]
        )
    else:
        thread = discord_.in_channel(discord_.in_channel("111")[0].id)
        assert sum(1 for m in thread if m.payload.get("attachments")) == 1
        assert len(thread) == len(expected_parts(capsys, "discord")) - 1 + PICTURE["discord"]


def test_dead_destinations_are_disabled_after_two_attempts_and_the_rest_carry_on(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SLACK_CHANNELS", "CGONE,C1")
    monkeypatch.setenv("DISCORD_CHANNELS", "222,111")
    slack.dead["CGONE"] = "channel_not_found"
    discord_.unknown.add("222")
    code, err = post(capsys)
    assert code == 1
    assert "slack:CGONE: disabled: Slack says channel_not_found" in err
    assert "discord:222: disabled: Discord says Unknown Channel" in err
    gone_tries = [c for c in slack.calls if c[1].get("channel") == "CGONE"]
    assert len(gone_tries) == 2  # a post, then (is it there after all?) a history read
    assert len(slack.channel_posts("C1")) == len(expected_parts(capsys, "slack")) + PICTURE["slack"]
    assert len(discord_.in_channel("111")) == 1
    slack.calls.clear()
    code, err = post(capsys)
    assert not [c for c in slack.calls if c[1].get("channel") == "CGONE"]
    assert "disabled earlier" in err


def test_rate_limits_are_waited_out(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """429 with Retry-After on both platforms: retried by the SDKs, delivered once."""
    slack.rate_limited["chat.postMessage"] = 1
    discord_.rate_limited_posts = 1
    code, err = post(capsys)
    assert code == 0, err
    assert len(slack.channel_posts("C1")) == len(expected_parts(capsys, "slack")) + PICTURE["slack"]
    assert len(discord_.sent) == len(expected_parts(capsys, "discord")) + PICTURE["discord"]


def test_subscribers_get_their_topic_digest(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A channel subscribed to amd and a user's DMs subscribed to nvidia get only that."""
    store = Store(db)
    now = datetime.now(UTC)
    store.subscriptions.add(Subscription("slack", "channel", "C9", "amd", "U1"), now)
    store.subscriptions.add(Subscription("discord", "dm", "4242", "nvidia", "4242"), now)
    store.close()
    assert post(capsys)[0] == 0
    chart = f"file:vllm-report-{DAY.label}-vendors-"
    parts = slack_parts(slack, "C9")
    # The digest's chart, drawn by Slack as its own reply, then its PNG, then AMD's section.
    assert parts[:2] == ["headline", "chart"] and parts[2].startswith(chart)
    assert parts[3:] == ["amd"] and slack.refused == []
    dm = discord_.in_channel("74242")
    titles = [m.payload["embeds"][0]["title"] for m in dm if m.payload.get("embeds")]
    assert titles[0] == "vLLM daily report · 2026-03-25 · NVIDIA"
    assert all(t.startswith("🎯 NVIDIA") for t in titles[1:])
    (picture,) = [m for m in dm if m.payload.get("attachments")]
    # The digest's chart: per vendor, the subscriber's topic drawn (and described) first.
    described = picture.payload["attachments"][0]["description"]
    assert re.search(r"Per day from [0-9-]+: NVIDIA: ", described), described
    assert post(capsys)[0] == 0
    assert slack_parts(slack, "C9") == parts  # still once


def test_a_topic_with_nothing_in_the_window_sends_no_digest(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """No AWS Neuron item on 2026-03-25: its subscriber gets no message saying nothing (a
    bot that posts empty digests gets muted), the log says why, the AMD subscriber still
    gets theirs."""
    store = Store(db)
    now = datetime.now(UTC)
    store.subscriptions.add(Subscription("slack", "channel", "C8", "neuron", "U1"), now)
    store.subscriptions.add(Subscription("slack", "channel", "C9", "amd", "U1"), now)
    store.close()
    code = main(["-v", "post", DAY.label, "--cutoff", DAY.cutoff])
    err = capsys.readouterr().err
    assert code == 0, err
    assert slack_parts(slack, "C8") == []
    assert slack_parts(slack, "C9")[-1] == "amd"
    assert "no neuron digest for 2026-03-25 to slack:C8#digest-neuron" in err


def test_chat_tokens_never_reach_output_or_logs(
    db: str,
    fake_github: FakeGitHub,
    slack: FakeSlack,
    discord_: FakeDiscord,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Canary tokens are sent on the wire but never printed, even at debug level."""
    import logging

    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-CANARY-slack-0123456789")
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "CANARY.discord.0123456789")
    caplog.set_level(logging.DEBUG)
    code = main(["-vv", "post", DAY.label, "--cutoff", DAY.cutoff])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert slack.calls  # the token was used
    for canary in ("xoxb-CANARY-slack-0123456789", "CANARY.discord.0123456789"):
        assert canary not in out + err + caplog.text


def _leases_run_out(url: str) -> None:
    """A dead run's delivery leases, ended now (as their running out would end them)."""
    store = Store(url)
    with store.engine.begin() as connection:
        connection.execute(
            update(DeliveryRow)
            .where(DeliveryRow.lease_until.is_not(None))
            .values(lease_until=datetime(2000, 1, 1, tzinfo=UTC))
        )
    store.close()
