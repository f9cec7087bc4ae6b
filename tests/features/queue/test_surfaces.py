"""The review queue's surfaces: the store on both backends, the drawings (Markdown, Slack,
Discord, JSON, the full report), `vllm-report queue`, `/vllm-queue` on Slack and Discord,
and the weekly digest through the delivery ledger."""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest.mock import create_autospec

import discord
import pytest

from bot.app import commands, daily_job, open_bot, transports
from bot.app import table as whole_table
from bot.cli import main
from bot.commands import CommandError, Commands, Services
from bot.features.queue.feature import queue_digest
from bot.features.queue.model import Queue, ResponseFact
from bot.features.queue.render import (
    QueuePart,
    queue_message,
    queue_of,
    queue_to_dict,
    render_queue_markdown,
)
from bot.features.queue.service import QueueDigest, QueueQuery, last_days, schedule_digest
from bot.features.queue.store import ResponseFacts
from bot.model.rules import load_rules
from bot.platforms.discord.gateway import Gateway
from bot.platforms.registry import DISCORD, SLACK
from bot.platforms.slack.app import build_slack_app
from bot.store import Span, Store, Subscription
from config.settings import load_settings
from formatters.json_report import report_to_dict
from formatters.markdown import render_markdown
from tests.anchor_data import REPO
from tests.chat_checks import check_discord, check_slack
from tests.factories import item
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack, signed_command
from tests.features.queue.queue_fixture import NOW, hand_items
from tests.features.queue.test_service import WINDOW, service


def queue_slack(queue: Queue, lang: str = "en") -> list[dict[str, Any]]:
    return SLACK.one_message(queue_message(queue, lang), lang)


def queue_discord(queue: Queue, lang: str = "en") -> list[dict[str, Any]]:
    return DISCORD.one_message(queue_message(queue, lang), lang)


RULES = load_rules()
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
HOSTILE = "<!channel> @everyone **bold** [x](https://evil.example) \u202e"


@pytest.fixture(scope="module")
def queue() -> Queue:
    """The hand fixture's queue, with a hostile title on the oldest waiting PR."""
    items = [
        replace(it, title=HOSTILE + it.title) if it.number == 36810 else it for it in hand_items()
    ]
    with FakeGitHub(REPO, items) as fake, tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/queue.sqlite3")
        made = service(fake, store).queue(QueueQuery(REPO, WINDOW, "amd"))
        store.close()
    return made


# -- the store --------------------------------------------------------------------------------


def test_response_facts_round_trip_and_remember_what_was_read(store: Store) -> None:
    """Facts by period, spans read, what to read again (open, unanswered, read long ago), and
    a first-merge answer kept when the fact is saved again."""
    t0 = datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
    facts = [
        ResponseFact(1, "pr", "a", "x", ("rocm",), t0 - timedelta(days=1), merged_at=t0),
        ResponseFact(2, "issue", "b", "y", (), t0, first_response_at=t0 + timedelta(hours=1)),
        ResponseFact(3, "issue", "c", "z", (), t0 + timedelta(hours=2)),  # open, unanswered
        ResponseFact(4, "issue", "d", "z", (), t0 + timedelta(hours=3), closed_at=t0),
        ResponseFact(5, "pr", "e", "x", (), t0, merged_at=t0 + timedelta(days=1)),  # later
    ]
    reviews = ResponseFacts(store.transactions)
    reviews.save(REPO, facts, t0)
    day = Span(t0, t0 + timedelta(days=1))
    assert [f.number for f in reviews.within(REPO, day)] == [1, 2, 3, 4]
    assert reviews.within(REPO, day)[0].labels == ("rocm",)
    assert reviews.to_recheck(REPO, day, t0) == []  # read just now
    assert reviews.to_recheck(REPO, day, t0 + timedelta(seconds=1)) == [3]
    # older than a week (opened before `young_since`): again only when read long ago
    later = t0 + timedelta(days=8)
    assert reviews.to_recheck(REPO, day, later, t0 + timedelta(days=1), t0) == []
    assert reviews.to_recheck(REPO, day, later, t0 + timedelta(days=1), later) == [3]
    reviews.set_first_merge(REPO, {1: True})
    reviews.save(REPO, facts[:1], t0)
    assert reviews.first_merge_unknown(REPO, day) == []
    assert reviews.within(REPO, day)[0].first_merge is True
    assert reviews.merged_before(REPO, "x", t0 + timedelta(seconds=1))
    assert not reviews.merged_before(REPO, "x", t0)
    reviews.add_span(REPO, "pr", Span(t0, t0 + timedelta(hours=12)), t0)
    assert reviews.gaps(REPO, "pr", day) == [Span(t0 + timedelta(hours=12), day.end)]
    assert reviews.gaps(REPO, "issue", day) == [day]


# -- drawings ---------------------------------------------------------------------------------


def test_markdown_says_each_figure_with_its_sample(queue: Queue) -> None:
    text = render_queue_markdown(queue, "en")
    assert "# vLLM review queue · 2026-03-25 · AMD / ROCm" in text
    assert "⏳ 7 waiting for review · 5 over 2 days · 2 over 7 days · 1 over 30 days" in text
    assert "1 more reviewed but not decided yet" in text
    assert "First review of merged PRs: median 1.2 h · P90 24 h (n=6)" in text  # 1.25 → 1.2
    assert "the 4 weeks before: median 4 h · P90 5 h (n=2), 2.8 h faster" in text
    assert "Time to merge: median 24 h · P90 10 days (n=7)" in text
    assert "unanswered after 24 h: 50% (1 of 2)" in text
    assert "✋ 3 waiting on their authors: 1 changes requested · 2 need a rebase" in text
    assert "(due at its next run)" in text and "(closes 04-04)" in text
    assert "li-liwen (first PR [#38108]" in text
    assert "SKPsanjeevi (first merged PR [#36574]" in text
    assert "https://evil" not in text
    assert "审阅队列" in render_queue_markdown(queue, "zh")


def test_chat_payloads_are_one_message_within_limits_and_safe(queue: Queue) -> None:
    for lang in ("en", "zh"):
        slack = queue_slack(queue, lang)
        discord_ = queue_discord(queue, lang)
        assert len(slack) == len(discord_) == 1
        check_slack(slack, queue)  # type: ignore[arg-type]
        check_discord(discord_, queue)  # type: ignore[arg-type]
    first = queue_slack(queue)[0]
    assert first["blocks"][0]["text"]["text"] == "vLLM review queue · 2026-03-25 · AMD / ROCm"
    assert first["metadata"]["event_payload"]["part"] == "queue"
    text = json.dumps(first)
    assert "NVIDIA: 0 waiting" in text  # the other vendors, a line each (in `text`) …
    # … and on Slack a table: a row a topic, its figures numbers Slack sorts by.
    (table,) = [b for b in first["blocks"] if b["type"] == "data_table"]
    header, *rows = table["rows"]
    assert [c["text"] for c in header][:3] == ["Topic", "Waiting", "Over 7 days"]
    nvidia = next(row for row in rows if row[0]["text"] == "NVIDIA")
    assert nvidia[1] == {"type": "raw_number", "value": 0, "text": "0"}
    assert all(len(row) == len(header) for row in rows) and table["caption"]
    assert "with no review at all" in text  # the repository


def test_json_holds_lists_counts_and_percentiles_with_n(queue: Queue) -> None:
    data = queue_to_dict(queue)
    assert data["schema"] == "vllm-queue/1"
    amd = data["scopes"][0]
    assert amd["topic"] == "amd"
    assert amd["counts"]["waiting_over_days"] == {"2": 5, "7": 2, "30": 1}
    assert amd["lists"]["ready"] == [38145]
    times = amd["response_times"]["current"]
    assert times["first_review_hours"] == {"n": 6, "median": 1.25, "p90": 24.0}
    assert times["unanswered_72h"] == {"unanswered": 1, "eligible": 2}
    assert data["scopes"][-1]["topic"] is None
    assert [f["login"] for f in data["first_time_contributors"]] == ["li-liwen", "SKPsanjeevi"]
    json.dumps(data)


def test_a_report_carrying_the_queue_shows_it_in_full_but_never_in_the_daily_post(
    queue: Queue,
) -> None:
    from bot.analyze import analyze
    from bot.platforms.registry import chat_parts

    items = [item(38086, "pr", created_at=WINDOW.start + timedelta(hours=1))]
    report = analyze(items, WINDOW, repo=REPO, rules=RULES, complete=True)
    with_queue = report.with_part(QueuePart(queue))
    assert "🚦 Review queue" in render_markdown(with_queue)
    assert report_to_dict(with_queue)["queue"]["schema"] == "vllm-queue/1"
    assert "queue" not in report_to_dict(report)
    for platform in ("slack", "discord"):
        daily = chat_parts(platform, with_queue, "en")
        assert [name for name, _ in daily] == [
            name for name, _ in chat_parts(platform, report, "en")
        ]
        assert len(daily) <= 6


def test_with_queue_attaches_the_windows_queue(hand_env: FakeGitHub, tmp_path: Any) -> None:
    """The pipeline's one-call hook: the report gets its window's queue, its topic first; a
    topic without queue labels gets the vendors' queue instead of an error."""
    from bot.analyze import analyze
    from bot.features.queue.service import with_queue

    store = Store(f"sqlite:///{tmp_path / 'hook.sqlite3'}")
    report = analyze([], WINDOW, repo=REPO, rules=RULES, complete=True, topic="amd")
    attached = with_queue(report, service(hand_env, store))
    other = with_queue(replace(report, topic="moe"), service(hand_env, store))
    store.close()
    mine, theirs = queue_of(attached), queue_of(other)
    assert mine is not None and mine.topic == "amd"
    assert mine.window == WINDOW
    assert theirs is not None and theirs.topic is None


# -- the command line -------------------------------------------------------------------------


@pytest.fixture
def hand_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGitHub]:
    with FakeGitHub(REPO, hand_items()) as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("VLLM_REPORT_CUTOFF", "11:43")
        yield fake


def test_cli_queue_prints_json_and_markdown(
    hand_env: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "a-token")
    assert main(["queue", "2026-03-25", "--topic", "amd", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["topic"], data["measured"], data["window"]["label"]) == ("amd", True, "2026-03-25")
    # the lists are GitHub's now: 36810 has waited since 2026-02-26
    assert data["scopes"][0]["lists"]["oldest_waiting"][0]["number"] == 36810
    assert main(["queue", "2026-03-25", "--format", "slack"]) == 0
    payloads = json.loads(capsys.readouterr().out)
    assert payloads[0]["blocks"][0]["text"]["text"] == "vLLM review queue · 2026-03-25"


def test_cli_queue_anonymous_says_response_times_are_skipped(
    hand_env: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["queue", "2026-03-25", "--topic", "amd"]) == 0
    out = capsys.readouterr().out
    assert "without GITHUB_TOKEN: response times skipped" in out
    assert not any(r.path == "/graphql" for r in hand_env.requests)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["queue", "--topic", "amdd"], "did you mean 'amd'?"),
        (["queue", "--topic", "moe"], "has no labels for the review queue"),
        (["queue", "tomorow"], "vllm-report:"),
    ],
)
def test_cli_queue_bad_input_is_one_sentence_and_status_2(
    argv: list[str], says: str, hand_env: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and err.count("\n") == 1


# -- slash commands -----------------------------------------------------------------------------


def parse_queue(text: str, topics: list[str]) -> Any:
    """The request Slack's text gives (the text reader needs only the topic rules)."""
    table = Commands(Services(load_settings(), RULES, None, None, None), table=whole_table())  # type: ignore[arg-type]
    return table.read(table.table["vllm-queue"], text)


def test_queue_command_words() -> None:
    topics = [t.key for t in RULES.topics]
    request = parse_queue("AMD 7d zh public", topics)
    assert (request.topic, request.when, request.lang, request.public) == ("amd", "7d", "zh", True)
    assert parse_queue("", topics).when == "yesterday"
    with pytest.raises(CommandError, match="did you mean 'amd'"):
        parse_queue("amdd", topics)


def commands_service(now: datetime) -> Commands:
    settings = load_settings()
    bot = open_bot(settings, RULES, lambda: now)
    return commands(bot)


def test_slack_vllm_queue_answers_only_you_with_blocks(
    hand_env: FakeGitHub, monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_URL", store_url)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", SECRET)
    with FakeSlack() as slack:
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        commands = commands_service(NOW)

        async def scenario() -> int:
            from slack_bolt.request.async_request import AsyncBoltRequest

            app = build_slack_app(load_settings(), commands)
            body, headers = signed_command(slack, "/vllm-queue", "amd 2026-03-25", SECRET)
            response = await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
            while others := [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]:
                await asyncio.gather(*others, return_exceptions=True)
            return int(response.status)

        assert asyncio.run(scenario()) == 200
        answers = [args for _, args in slack.responses]
    assert len(answers) == 1
    assert answers[0]["response_type"] == "ephemeral"
    blocks = answers[0]["blocks"]
    assert blocks[0]["text"]["text"] == "vLLM review queue · 2026-03-25 · AMD / ROCm"
    assert "⏳ 7 waiting for review" in json.dumps(blocks, ensure_ascii=False)


def test_discord_vllm_queue_defers_then_follows_up(
    hand_env: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "a-token")
    gateway = Gateway(commands_service(NOW))
    fake = create_autospec(discord.Interaction, instance=True)
    fake.response = create_autospec(discord.InteractionResponse, instance=True)
    fake.followup = create_autospec(discord.Webhook, instance=True)
    fake.user = create_autospec(discord.User, instance=True)
    fake.user.id = 4242
    asyncio.run(gateway.run("vllm-queue", fake, topic="amd", when="2026-03-25"))
    fake.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    (sent,) = fake.followup.send.await_args_list
    assert sent.kwargs["embeds"][0].title == "vLLM review queue · 2026-03-25 · AMD / ROCm"
    assert sent.kwargs["ephemeral"] is True
    assert sent.kwargs["allowed_mentions"].to_dict() == {"parse": []}


def test_discord_http_vllm_queue_is_deferred_and_answered(
    hand_env: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.platforms.discord.http import DEFERRED_ANSWER, EPHEMERAL, Interactions
    from tests.fakes.discord_api import FakeDiscord
    from tests.platforms.test_discord_http import PUBLIC, command, signed

    monkeypatch.setenv("GITHUB_TOKEN", "a-token")
    with FakeDiscord() as fake:
        interactions = Interactions(commands_service(NOW), PUBLIC, fake.api_url)

        async def scenario() -> tuple[int, dict[str, Any]]:
            body = command("vllm-queue", {"topic": "amd", "when": "2026-03-25"})
            answer = await interactions.handle(*signed(body))
            await interactions.close()
            return answer

        status, body = asyncio.run(scenario())
        assert (status, body) == (200, {"type": DEFERRED_ANSWER, "data": {"flags": EPHEMERAL}})
        ((_, token, payload),) = fake.webhooks
    assert token == "tok-vllm-queue"
    assert payload["embeds"][0]["title"] == "vLLM review queue · 2026-03-25 · AMD / ROCm"
    assert payload["allowed_mentions"] == {"parse": []} and payload["flags"] == EPHEMERAL


# -- the weekly digest ----------------------------------------------------------------------------


def test_weekly_digest_is_scheduled_and_posts_each_subscriber_once(
    hand_env: FakeGitHub, monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    """Scheduled on the day and time set; each subscriber gets their topic's queue of the last
    seven report days, once, however often the job runs."""
    from bot.service.scheduling import QUEUE_DIGEST_JOB_ID, build_scheduler

    monkeypatch.setenv("GITHUB_TOKEN", "a-token")
    monkeypatch.setenv("DATABASE_URL", store_url)
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("VLLM_REPORT_SLACK_POST_INTERVAL", "0")
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_DAY", "thursday")
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_TIME", "09:30")
    now = NOW

    with FakeSlack() as slack:
        monkeypatch.setenv("SLACK_API_URL", slack.api_url)
        settings = load_settings()
        bot = open_bot(settings, RULES, lambda: now)
        bot.store.subscriptions.add(Subscription("slack", "channel", "C9", "amd", "U1"), now)

        async def scenario() -> str:
            async with transports(settings) as opened:
                job = daily_job(bot, opened)

                async def daily() -> None:
                    return None

                scheduler = build_scheduler(settings.tz, settings.cutoff_time, 15, daily)
                digest = queue_digest(bot.context(), job)
                assert schedule_digest(scheduler, digest, settings, lambda run: run)
                trigger = str(scheduler.get_job(QUEUE_DIGEST_JOB_ID).trigger)
                first = await digest.run()
                await digest.run()
                assert first.window == "2026-03-21..2026-03-27"
                return trigger

        trigger = asyncio.run(scenario())
        bot.close()
        posts = slack.channel_posts("C9")
    assert "day_of_week='thu', hour='9', minute='30'" in trigger
    assert len(posts) == 1
    header = posts[0].payload["blocks"][0]["text"]["text"]
    assert header == "vLLM review queue · 2026-03-21..2026-03-27 · AMD / ROCm"


def test_weekly_digest_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_REPORT_QUEUE_DIGEST_DAY", "off")
    settings = load_settings()
    assert settings.queue_digest_at is None
    digest = create_autospec(QueueDigest, instance=True)
    assert schedule_digest(object(), digest, settings, lambda run: run) is False


def test_the_digest_covers_the_last_seven_complete_days() -> None:
    settings = load_settings(cutoff="11:43")
    window = last_days(NOW, 7, settings.tz, settings.cutoff_time)
    assert window.label == "2026-03-21..2026-03-27"
    assert window.end.astimezone(UTC) <= NOW


def test_the_daily_jobs_report_carries_the_queue_and_other_reports_do_not(
    hand_env: FakeGitHub, tmp_path: Any
) -> None:
    """The queue is "as GitHub shows it now": the report made for the daily post (soon after
    its window) gets the queue section; `show`, the site and a day asked long after do not."""
    from bot.collect.source import GitHubSource
    from bot.collect.sync import Archiver
    from bot.report_files import ReportFiles
    from bot.service.reports import ReportQuery, Reports

    store = Store(f"sqlite:///{tmp_path / 'daily.sqlite3'}")
    source = GitHubSource(repo=REPO, api_url=hand_env.url, token="a-token", request_interval=0)

    def pipeline(now: datetime) -> Reports:
        from bot.features.queue.service import QueueService, queue_part

        archiver = Archiver(store, source)
        queues = QueueService(archiver, RULES, lambda: now)
        return Reports(
            archiver,
            RULES,
            ReportFiles(tmp_path),
            lambda: now,
            parts=[queue_part(queues)],
        )

    daily = ReportQuery(REPO, WINDOW, "en", queue=True)
    made = pipeline(NOW).report(daily)
    assert queue_of(made) is not None and "🚦 Review queue" in render_markdown(made)
    assert report_to_dict(made)["queue"]["schema"] == "vllm-queue/1"
    assert pipeline(NOW).report(replace(daily, queue=False)).part("queue") is None  # `show`
    assert pipeline(NOW).reading_only().report(daily).part("queue") is None  # the site
    assert pipeline(NOW + timedelta(days=5)).report(daily).part("queue") is None  # long after
    store.close()
