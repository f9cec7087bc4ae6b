"""Red on main where people read it: the daily report's section (Markdown en/zh, JSON, the
Slack and Discord posts and their headline line), `/vllm-ci`, `/vllm-subscribe ci:amd` and
`mine`, and `vllm-report ci`, against the fake CI dashboard and the fake GitHub holding
the fixture days. The report day is 2026-03-25 (11:45 to 11:45 in Asia/Shanghai)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import date, time, timedelta
from pathlib import Path

import pytest

from bot.features.ci.outline import ci_of
from bot.features.personal.store import GitHubLinks
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.windows import Window, day_window
from bot.platforms.registry import DISCORD, SLACK
from tests.chat_checks import rich_elements
from tests.fakes.ci_dashboard import FakeCiDashboard, serve_main
from tests.fakes.github_api import FakeGitHub
from tests.slack_text import cell_text, message_text, mrkdwn_texts

REPO = "vllm-project/vllm"
DAY = date(2026, 3, 25)


def window_of(day: date) -> Window:
    from zoneinfo import ZoneInfo

    return day_window(day, ZoneInfo("Asia/Shanghai"), time(11, 45))


NOW = window_of(DAY).end + timedelta(minutes=15)


@pytest.fixture
def dashboard(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[FakeCiDashboard]:
    serve_main(fake_github)
    with FakeCiDashboard() as fake:
        fake.now = NOW
        monkeypatch.setenv("VLLM_REPORT_CI_URL", fake.url)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp-test")
        yield fake


def daily(queue: bool = True, lang: str = "en") -> Report:
    """The report of DAY as the daily run makes it (`queue`) or a person asks it."""
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
    try:
        return bot.reports.report(ReportQuery(REPO, window_of(DAY), lang, queue=queue))
    finally:
        bot.close()


def section(markdown: str, title: str) -> str:
    return markdown.split(f"## {title}", 1)[1].split("\n## ", 1)[0]


def test_the_daily_report_says_what_is_red_on_main_in_both_languages(
    dashboard: FakeCiDashboard,
) -> None:
    from formatters.json_report import report_to_dict
    from formatters.markdown import render_markdown

    report = daily()
    en = section(render_markdown(report, "en"), "🚦 Red on main")
    assert "### Failing at the day's end (4)" in en
    assert (
        "AMD: Entrypoints Test (mi325_1) — red since 2026-03-25 13:50 UTC+8 (build #58850; "
        "2 failing runs; failure 1008)\n"
        "   - Suspect: [#37640](https://github.com/vllm-project/vllm/pull/37640) [ROCm][Test] "
        "Fix ROCM_AITER_UNIFIED_ATTN attn+quant fusion test by @vllmellm — the only change "
        "merged between the job's last pass (build #57850) and its first failure"
    ) in en
    assert "🆕 [NVIDIA] Entrypoints Integration Test (API Server) — red since" in en
    assert "One of 7 changes merged between the last pass (build #57890)" in en
    assert "; the dashboard's analysis names [#37483](" in en
    assert "; it also names [#37833](https://github.com/vllm-project/vllm/pull/37833), " in en
    assert "; [#37616](https://github.com/vllm-project/vllm/pull/37616) cleared by a person" in en
    assert "Ask: @mgoin @tlrmchlsmth @WoosukKwon +3" in en  # CODEOWNERS of its test
    amd_entry = en.split("failure 1008)", 1)[1].split("\n4. ", 1)[0]
    assert amd_entry.count("@vllmellm") == 1  # the suspect's author: on its line, not asked again
    assert amd_entry.count("#37640](") == 1
    assert "Flaky-looking, not blamed on a change (1): CPU-Test (x86) — 9 pass↔fail flips" in en
    assert (
        "Passing again (1): [AMD] mi325_1: Kernels Test — passed in build #58920 at "
        "2026-03-25 20:00 UTC+8, red since 2026-03-25 (1 failing run)"
    ) in en
    assert "Reported on GitHub, not on the dashboard (3): [#38101](" in en
    zh = section(render_markdown(daily(lang="zh"), "zh"), "🚦 main 分支 CI 失败")
    assert "### 截至当日结束仍失败（4）" in zh
    assert "嫌疑改动：[#37640](https://github.com/vllm-project/vllm/pull/37640)" in zh
    assert "[#37616](https://github.com/vllm-project/vllm/pull/37616) 已有人澄清与此无关" in zh
    data = report_to_dict(report)["ci"]
    assert data["state"] == "known"
    assert {f["id"]: f["suspect"] and f["suspect"]["number"] for f in data["red"]} == {
        "1010": None, "1008": 37640, "1006": None, "1007": None,
    }  # fmt: skip
    assert [f["id"] for f in data["flaky"]] == ["1009"]
    assert [f["resolved_by"]["build"] for f in data["resolved"]] == [58920]


def test_the_chat_post_says_it_in_its_first_message_and_a_reply(
    dashboard: FakeCiDashboard,
) -> None:
    from bot.platforms.registry import chat_parts

    report = daily()
    slack = dict(chat_parts("slack", report, "en"))
    headline = json.dumps(slack["headline"], ensure_ascii=False)
    assert (
        "🚦 Red on main: 4 failing (2 AMD, 1 Intel, 1 NVIDIA), 3 new; 1 flaky-looking; "
        "1 passing again" in headline
    )
    reply = message_text(slack["ci"])
    assert "<https://github.com/vllm-project/vllm/pull/37640|#37640>" in reply
    # The failing jobs as a table, AMD's among them, its suspect linked; the lines in `text`.
    (table,) = [b for b in slack["ci"]["blocks"] if b["type"] == "data_table"]
    rows = [cell_text(row[0]) for row in table["rows"][1:]]
    assert rows[2] == "🆕 AMD: Entrypoints Test (mi325_1)" and len(rows) == 4
    assert "AMD: Entrypoints Test (mi325_1) — red since" in slack["ci"]["text"]
    discord = dict(chat_parts("discord", report, "zh"))
    assert "main 分支 CI：4 个任务失败" in json.dumps(discord["headline"], ensure_ascii=False)
    assert "[#37640](https://github.com/vllm-project/vllm/pull/37640)" in json.dumps(
        discord["ci"], ensure_ascii=False
    )


def test_a_person_s_report_reads_no_dashboard_and_says_what_the_archive_holds(
    dashboard: FakeCiDashboard,
) -> None:
    daily()  # the daily run read it
    asked = len(dashboard.requests)
    dashboard.mode = "down"
    again = daily(queue=False)
    assert len(dashboard.requests) == asked
    state = ci_of(again)
    assert state is not None and state.known and len(state.red) == 4


def test_a_dashboard_down_on_the_daily_run_gives_unknown_never_zero(
    dashboard: FakeCiDashboard,
) -> None:
    from bot.platforms.registry import chat_parts
    from formatters.json_report import report_to_dict
    from formatters.markdown import render_markdown

    dashboard.mode = "down"
    report = daily()
    en = section(render_markdown(report, "en"), "🚦 Red on main")
    assert "The CI state on main is unknown: the CI dashboard at" in en
    assert "answered HTTP 503" in en and "Nothing was failing" not in en
    assert report_to_dict(report)["ci"]["state"] == "unknown"
    headline = json.dumps(dict(chat_parts("slack", report, "en"))["headline"])
    assert "Red on main: unknown (" in headline


HOSTILE = "see [x](http://evil.example) **now** <!channel>\n# Heading @everyone"


def test_the_dashboard_s_own_words_cannot_link_ping_or_add_a_heading(
    dashboard: FakeCiDashboard,
) -> None:
    """The dashboard's error sentence is a stranger's text: on one line, with no live
    link, no Slack ping and no Discord heading or mention, in the section and the
    headline, on every surface."""
    from bot.platforms.registry import chat_parts
    from formatters.markdown import render_markdown

    dashboard.mode = "down"
    dashboard.error = HOSTILE
    report = daily()
    markdown = render_markdown(report, "en")
    assert "](http://evil.example)" not in markdown and "\n# Heading" not in markdown
    for lang in ("en", "zh"):
        messages = [payload for _, payload in chat_parts("slack", report, lang)]
        slack = json.dumps(messages, ensure_ascii=False)
        # Where Slack reads mrkdwn (a message's `text`, context lines) it would be escaped;
        # in rich_text it is shown as typed: a text element, never a mention element.
        read = [text for message in messages for text in mrkdwn_texts(message)]
        assert not any("<!channel>" in text for text in read)
        elements = [e for message in messages for e in rich_elements(message)]
        assert any("<!channel>" in e.get("text", "") for e in elements)
        assert not [e for e in elements if e["type"] not in ("text", "link", "emoji", "date")]
        assert "\\n# Heading" not in slack
        discord = json.dumps(dict(chat_parts("discord", report, lang)), ensure_ascii=False)
        assert "\\n# Heading" not in discord and "[x](http" not in discord
        assert "@everyone" not in discord.replace("@\u200beveryone", "")


def post_daily_to(
    monkeypatch: pytest.MonkeyPatch, store_url: str, subscriptions: dict[str, str]
) -> dict[str, list[tuple[str, str]]]:
    """DAY's daily run posting to Slack channel C1, with `subscriptions` (channel or DM →
    topic; the DM's person linked to @vllmellm); each channel's posts as (part, payload)."""
    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from bot.store import Store, Subscription
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack

    with FakeSlack() as slack:
        for name, value in {
            "DATABASE_URL": store_url,
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
        }.items():
            monkeypatch.setenv(name, value)
        store = Store(store_url)
        at = NOW - timedelta(days=1)
        for where, topic in subscriptions.items():
            kind = "dm" if where.startswith("U") else "channel"
            store.subscriptions.add(Subscription("slack", kind, where, topic, "U7"), at)
        GitHubLinks(store.transactions).link("slack", "U7", "vllmellm", at)
        store.close()
        settings = load_settings()
        bot = open_bot(settings, load_rules(None), clock=lambda: NOW)

        async def run() -> None:
            async with transports(settings) as opened:
                await daily_job(bot, opened).post(window_of(DAY))

        try:
            asyncio.run(run())
        finally:
            bot.close()
        posted = {p.channel for p in slack.posted}
        return {
            channel: [
                (p.part, json.dumps(p.payload, ensure_ascii=False))
                for p in slack.channel_posts(channel)
            ]
            for channel in posted
        }


def test_ci_subscribers_get_their_hardware_s_news_and_mine_its_suspected_failures(
    dashboard: FakeCiDashboard, monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    posts = post_daily_to(monkeypatch, store_url, {"C2": "ci:amd", "C3": "ci:tpu", "U7": "mine"})
    assert "ci" in [part for part, _ in posts["C1"]]
    amd = dict(posts["C2"])
    assert list(amd) == ["headline", "ci"]
    assert "AMD: Entrypoints Test (mi325_1)" in amd["ci"] and "Intel XPU Test" not in amd["ci"]
    assert "C3" not in posts  # no TPU news that day: nothing sent
    mine = " ".join(payload for _, payload in posts["DU7"])
    assert "CI failures on main your PR is suspected of (1)" in mine
    assert "AMD: Entrypoints Test (mi325_1)" in mine


def test_a_ci_subscriber_hears_when_the_state_is_unknown(
    dashboard: FakeCiDashboard, monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    """A quiet hardware is told nothing, but a dashboard the run could not read is told:
    silence would read as "nothing broke"."""
    dashboard.mode = "down"
    posts = post_daily_to(monkeypatch, store_url, {"C3": "ci:tpu"})
    tpu = dict(posts["C3"])
    assert "The CI state on main is unknown" in tpu["ci"]


def test_vllm_ci_answers_and_takes_a_correction(dashboard: FakeCiDashboard) -> None:
    from bot.app import commands, open_bot
    from bot.commands.base import Asker
    from bot.features.ci.command import CiShown
    from bot.model.rules import load_rules
    from config.settings import load_settings

    bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
    try:
        table = commands(bot)
        command = table.table["vllm-ci"]
        asked = table.read(command, "amd 2026-03-25 zh")
        shown = asyncio.run(table.answer(command, Asker("slack", "U1"), asked))
        assert isinstance(shown, CiShown) and shown.ephemeral
        text = json.dumps(shown.draw(SLACK), ensure_ascii=False)
        assert "main 分支 CI 失败 · 2026-03-25" in text and "Intel XPU Test" not in text
        assert "AMD: Entrypoints Test (mi325_1)" in text
        assert shown.draw(DISCORD)[0]["embeds"][0]["title"] == "🚦 main 分支 CI 失败 · 2026-03-25"
        fix = table.read(command, "wrong 1006 37483")
        said = asyncio.run(table.answer(command, Asker("slack", "U1"), fix))
        assert "noted: #37483 did not cause failure 1006" in str(said)
        bad = table.read(command, "gpu")
        refused = asyncio.run(table.answer(command, Asker("slack", "U1"), bad))
        assert "'gpu' is no hardware" in str(refused)
        sub = table.table["vllm-subscribe"]
        checked = sub.check(
            table.services, sub.request(sub.read_words(["ci:AMD", "dm"], table.services))
        )
        assert (str(checked.key), checked.name) == ("ci:amd", "Red on main (amd)")
    finally:
        bot.close()


def test_vllm_report_ci_says_unknown_in_one_sentence_and_exits_1(
    dashboard: FakeCiDashboard, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot.app.wiring
    import bot.cli.common
    from bot.cli import main

    monkeypatch.setattr(bot.cli.common, "now", lambda: NOW)
    monkeypatch.setattr(bot.app.wiring, "now", lambda: NOW)
    assert main(["ci", "2026-03-25", "--topic", "amd"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("# 🚦 Red on main · 2026-03-25\n") and err == ""
    assert "AMD: Kernels Test (mi325_1)" in out and "CPU-Test" not in out
    assert main(["ci", "2026-01-01..2026-03-25"]) == 1  # longer than one read can tell
    err = capsys.readouterr().err
    assert "is longer than the 30 days one read of the CI dashboard covers" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1

    monkeypatch.setenv("VLLM_REPORT_CI_URL", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(Path.cwd() / "other"))
    assert main(["ci", "2026-03-25"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "the CI state of 2026-03-25 is unknown: the CI dashboard at http://127.0.0.1:9 " in err
    assert main(["ci", "2026-03-25", "--format", "json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["state"] == "unknown"

    monkeypatch.setenv("VLLM_REPORT_CI_URL", "none")
    assert main(["ci"]) == 2
    assert "Red on main is off" in capsys.readouterr().err


def test_doctor_checks_the_dashboard(dashboard: FakeCiDashboard) -> None:
    from bot.features.ci.collect import ci_check
    from config.settings import load_settings

    found = ci_check(load_settings())
    assert found.ok and "answers: 12 failure records of main" in found.said
    dashboard.mode = "garbage"
    found = ci_check(load_settings())
    assert not found.ok and "answered something not JSON" in found.said


def test_a_dashboard_with_nothing_failing_says_so_never_unknown(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The empty answer: no failure record at all is a known green main, in both languages."""
    import bot.app.wiring
    import bot.cli.common
    from bot.cli import main

    monkeypatch.setattr(bot.cli.common, "now", lambda: NOW)
    monkeypatch.setattr(bot.app.wiring, "now", lambda: NOW)
    with FakeCiDashboard([]) as empty:
        empty.now = NOW
        monkeypatch.setenv("VLLM_REPORT_CI_URL", empty.url)
        assert main(["ci", "2026-03-25"]) == 0
        out = capsys.readouterr().out
        assert "Nothing was failing on main at the day's end" in out
        assert main(["ci", "2026-03-25", "--lang", "zh", "--format", "json"]) == 0
        data = json.loads(capsys.readouterr().out)
    assert (data["state"], data["red"], data["resolved"]) == ("known", [], [])


def test_a_dashboard_that_trickles_holds_no_post_its_section_says_unknown(
    dashboard: FakeCiDashboard,
    fake_github: FakeGitHub,
    monkeypatch: pytest.MonkeyPatch,
    store_url: str,
) -> None:
    """A dashboard that sends its headers and then a byte at a time, and a GitHub whose
    GraphQL answers trickle too, hold no daily post: each section's sources get their time
    (PART_SECONDS, here 2 s) and each answer its own (ANSWER_SECONDS, here 2 s), then the
    post goes out saying what is unknown and why."""
    from bot.collect import deadline
    from tests.fakes.github_api import Fault

    monkeypatch.setattr(deadline, "PART_SECONDS", 2.0)
    monkeypatch.setattr(deadline, "ANSWER_SECONDS", 2.0)
    dashboard.mode = "drip"
    dashboard.drip_every = 0.5
    slow = Fault.trickle(every=0.5, for_seconds=120)
    fake_github.fault_rule = lambda index, path: slow if path == "/graphql" else None
    posts = post_daily_to(monkeypatch, store_url, {})
    parts = dict(posts["C1"])
    assert "Red on main: unknown (" in parts["headline"]
    ci = parts["ci"]
    assert "did not answer within the 2 s allowed for the Red on main section" in ci
    assert fake_github.hung_up_on.wait(timeout=30)  # GitHub's trickle was hung up on too
