"""The daily report's Plugins section, from the real 2025 plugin records: report day
2025-09-22 (Asia/Shanghai, 11:45 to 11:45 the next day), when vllm-ascend fixed for upstream
#25249 and vllm-gaudi for #25332, among others. Served by the fake GitHub
as vLLM plus six plugins."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.features.radar.outline import RadarPart, radar_of
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.windows import day_window
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.radar_data import pin_request, radar_github
from tests.features.radar.test_service import PLUGINS, TZ
from tests.slack_text import message_text

DAY = "2025-09-22"
NOW = datetime(2025, 9, 23, 6, 0, tzinfo=UTC)  # two hours after the window closed
UPSTREAM = "vllm-project/vllm"


@pytest.fixture
def github(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[FakeGitHub]:
    with radar_github() as fake:
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS)
        # vllm-ascend's pin that day (c60e61, from its pin file's history) was 1.1 days behind
        monkeypatch.setenv("VLLM_REPORT_PIN_LAG_DAYS", "0.5")
        yield fake


def daily(
    token: str | None,
    monkeypatch: pytest.MonkeyPatch,
    *,
    queue: bool = True,
    day: date = date(2025, 9, 22),
) -> Report:
    """The report of `day` (DAY) as the daily run asks for it two hours after it ends
    (`queue`: with what GitHub shows now)."""
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    if token:
        monkeypatch.setenv("GITHUB_TOKEN", token)
    now = NOW + (day - date(2025, 9, 22))
    bot = open_bot(load_settings(), load_rules(None), clock=lambda: now)
    try:
        window = day_window(day, TZ, datetime.min.time().replace(11, 45))
        return bot.reports.report(ReportQuery(UPSTREAM, window, queue=queue))
    finally:
        bot.close()


def plugin_requests(fake: FakeGitHub) -> list[str]:
    """The requests about a plugin: its PRs and issues, or a pin (vLLM main's included)."""
    names = [repo.split("/", 1)[1] for repo in PLUGINS.split(",")]
    seen = [(r.path, f"{r.path}?{r.query} {r.graphql or ''}") for r in fake.requests]
    return [said for path, said in seen if pin_request(path) or any(n in said for n in names)]


def test_the_daily_report_names_what_broke_the_plugins_with_their_fixes(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    from formatters.json_report import render_json
    from formatters.markdown import render_markdown

    report = daily("ghp-test", monkeypatch)
    md = render_markdown(report, "en")
    section = md.split("## 🔌 Plugins", 1)[1].split("\n## ", 1)[0]
    # What broke which plugin, each fix linked to its own repository, not to vLLM's.
    # An upstream PR merged before the day is looked up for its title (the fake knows
    # #25249's from the records; the others are numbers GitHub would name).
    assert (
        "[#25249](https://github.com/vllm-project/vllm/pull/25249) [Core] Modify the "
        "initialization parameters of the lora manager — broke vllm-ascend"
    ) in section
    assert (
        "fixed in vllm-ascend: [vllm-ascend#3095]"
        "(https://github.com/vllm-project/vllm-ascend/pull/3095)"
    ) in section
    # gaudi#241 merged the next day: at the window's end it was a fix in review.
    assert "Fix due upstream change 25510 (in review)" in section
    assert "[vllm-gaudi#215](https://github.com/vllm-project/vllm-gaudi/pull/215)" in section
    assert "broke vllm-gaudi" in section
    # The pins of that day, from the pin files' histories: those further behind main than
    # the threshold are named (the test sets half a day; the default is 7).
    assert "Pins behind upstream by more than 0.5 days" in section
    assert "- vllm-ascend: 4 commits, 1.1 days behind main" in section
    assert "Every link and pin: /vllm-radar 2025-09-22 in chat" in section
    # One gaudi PR fixed for three upstream PRs: one entry, the fix told once.
    assert section.count("vllm-gaudi#215]") == 1
    assert "[#25332](https://github.com/vllm-project/vllm/pull/25332), [#25321]" in section
    zh = render_markdown(report, "zh")
    assert "## 🔌 硬件插件" in zh and "导致 vllm-gaudi 出错" in zh and "vllm-ascend 的修复：" in zh
    data = json.loads(render_json(report))
    culprits = {c["number"]: c["plugins"] for c in data["radar"]["culprits"]}
    assert culprits[25249] == ["vllm-project/vllm-ascend"]
    assert "vllm-project/vllm-gaudi" in culprits[25332]
    assert data["radar"]["schema"] == "vllm-radar/1"


def test_the_chat_post_carries_the_plugins_reply_and_a_plugins_digest_only_that(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.platforms.registry import chat_parts

    report = daily("ghp-test", monkeypatch)
    slack = chat_parts("slack", report, "en")
    names = [name for name, _ in slack]
    # A quiet day (this one has few items) keeps its Plugins reply; a busy one puts it first
    # of the replies that are no item's.
    assert "plugins" in names and (
        "trends" not in names or names.index("plugins") < names.index("trends")
    )
    text = message_text(slack[names.index("plugins")][1])
    assert "<https://github.com/vllm-project/vllm-ascend/pull/3095|vllm-ascend#3095>" in text
    discord = chat_parts("discord", report, "en")
    said = json.dumps([payload for name, payload in discord if name == "plugins"])
    assert "[vllm-gaudi#215](https://github.com/vllm-project/vllm-gaudi/pull/215)" in said
    digest = chat_parts("slack", report, "en", only=("plugins",))
    assert [name for name, _ in digest] == ["headline", "plugins"]
    # The first message alone says it, on the daily post and the digest alike.
    for parts in (slack, digest):
        first = json.dumps(parts[0][1], ensure_ascii=False)
        assert (
            "🔌 Plugins: upstream broke vllm-gaudi, vllm-ascend (#25510, #25249, #25332, …)"
            in first
        )
        assert "vllm-ascend pinned over 0.5 days behind main" in first
    zh = json.dumps(chat_parts("discord", report, "zh")[0][1], ensure_ascii=False)
    assert "🔌 插件：上游改动导致 vllm-gaudi、vllm-ascend 出错" in zh


def test_without_a_token_the_report_goes_out_without_plugins_and_asks_them_nothing(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from formatters.markdown import render_markdown

    with caplog.at_level(logging.INFO, logger="bot.app"):
        report = daily(None, monkeypatch)
    assert radar_of(report) is None and "Plugins" not in render_markdown(report, "en")
    assert plugin_requests(github) == []
    assert "needs a GitHub token (set GITHUB_TOKEN" in caplog.text


def test_a_report_asked_by_a_person_does_not_read_the_plugins(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show`, a slash command, the site: the radar is the daily post's (and /vllm-radar's)."""
    report = daily("ghp-test", monkeypatch, queue=False)
    assert radar_of(report) is None and plugin_requests(github) == []


def test_each_plugin_has_a_site_page_with_its_pin_lag_over_the_days_and_what_broke_it(
    github: FakeGitHub,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    from bot.cli import main

    for day in (date(2025, 9, 22), date(2025, 9, 23)):
        daily("ghp-test", monkeypatch, day=day)
    out = tmp_path / "site"
    assert main(["site", "build", str(out), "--cutoff", "11:45"]) == 0
    capsys.readouterr()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<a href="plugins/vllm-ascend/">vllm-ascend</a>' in index
    ascend = (out / "plugins" / "vllm-ascend" / "index.html").read_text(encoding="utf-8")
    rows = re.findall(r'<th scope="row"><a href="([^"]+)">([0-9-]+)</a>', ascend)
    assert rows == [
        ("../../2025-09-23/#plugins", "2025-09-23"),
        ("../../2025-09-22/#plugins", "2025-09-22"),
    ]
    assert "4 commits behind main, 1.1 days" in ascend  # 2025-09-22, as its section said
    assert "#25249 [Core] Modify the initialization parameters of the lora manager" in ascend
    assert "(fixed in vllm-ascend#3095)" in ascend and "vllm-gaudi#215" not in ascend
    # A fix still in review at the day's end is said so, not "fixed".
    gaudi_page = (out / "plugins" / "vllm-gaudi" / "index.html").read_text(encoding="utf-8")
    assert "vllm#25510 (fix in review: vllm-gaudi#241)" in gaudi_page
    chart = (out / "plugins" / "vllm-ascend" / "lag.png").read_bytes()
    assert chart.startswith(b"\x89PNG") and len(chart) > 10_000
    alt = re.search(r'<img src="lag.png" alt="([^"]+)"', ascend)
    assert alt and "1.1 on 2025-09-22" in alt.group(1)
    # gaudi's pin file has no commit before 2025-09-26: said, and never drawn as a zero.
    gaudi = (out / "plugins" / "vllm-gaudi" / "index.html").read_text(encoding="utf-8")
    assert "has no commit before then" in gaudi
    assert "its pin&#39;s lag is not known on any of 2 days" in gaudi


def plugins_of(markdown: str) -> str:
    return markdown.split("## 🔌 ", 1)[1].split("\n## ", 1)[0]


def test_show_of_a_past_day_has_the_plugins_section_its_post_made_and_asks_github_nothing(
    github: FakeGitHub,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """`vllm-report show 2025-09-22` and `site build`, run today (the real clock, over a
    year later), on the archive the daily run of that day left: the same Plugins section."""
    from bot.cli import main
    from formatters.markdown import render_markdown

    posted = daily("ghp-test", monkeypatch)
    asked = len(plugin_requests(github))
    shown = {}
    for lang in ("en", "zh"):
        assert main(["show", DAY, "--cutoff", "11:45", "--lang", lang]) == 0
        shown[lang] = plugins_of(capsys.readouterr().out)
        assert shown[lang] == plugins_of(render_markdown(posted, lang))
    assert "- vllm-ascend: 4 commits, 1.1 days behind main" in shown["en"]
    # A topic's report has no Plugins section; a plugin watched since does not take the
    # section the run made away.
    assert main(["show", DAY, "--cutoff", "11:45", "--topic", "amd"]) == 0
    assert "🔌" not in capsys.readouterr().out
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS + ",vllm-project/vllm-neuron")
    assert main(["show", DAY, "--cutoff", "11:45"]) == 0
    assert plugins_of(capsys.readouterr().out) == shown["en"]
    assert "vllm-gaudi#215" in shown["zh"]
    # The site's page of that day has it too, each culprit with its facts.
    out = tmp_path / "site"
    assert main(["site", "build", str(out), "--cutoff", "11:45"]) == 0
    capsys.readouterr()
    html = (out / DAY / "index.html").read_text(encoding="utf-8")
    assert "🔌 Plugins" in html and "vllm-gaudi#215" in html
    assert "merged 2025-09-19, not reverted as of 2025-09-23" in html
    # The section came from the archive (a quiet day's `show` asks only whether vLLM exists).
    assert len(plugin_requests(github)) == asked


def test_a_plugins_subscriber_gets_the_section_alone_after_the_daily_post(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    """The daily run as the scheduler runs it: the channel gets the whole post, the
    `plugins` subscriber the headline and the Plugins reply, and nothing else."""
    import asyncio

    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from bot.store import Store, Subscription
    from config.settings import load_settings
    from tests.fakes.slack_api import FakeSlack

    with FakeSlack() as slack:
        for name, value in {
            "DATABASE_URL": store_url,
            "GITHUB_TOKEN": "ghp-test",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": slack.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
        }.items():
            monkeypatch.setenv(name, value)
        store = Store(store_url)
        store.subscriptions.add(Subscription("slack", "channel", "C9", "plugins", "U1"), NOW)
        store.subscriptions.add(
            Subscription("slack", "channel", "C7", "radar:vllm-gaudi", "U2"), NOW
        )
        store.subscriptions.add(
            Subscription("slack", "channel", "C8", "radar:vllm-spyre", "U3"), NOW
        )
        store.close()
        settings = load_settings()
        bot = open_bot(settings, load_rules(None), clock=lambda: NOW)

        async def run() -> None:
            async with transports(settings) as opened:
                window = day_window(date(2025, 9, 22), settings.tz, settings.cutoff_time)
                await daily_job(bot, opened).post(window)

        try:
            asyncio.run(run())
        finally:
            bot.close()
        channel = [p.part for p in slack.channel_posts("C1")]
        digest = [p.part for p in slack.channel_posts("C9")]
        gaudi = {p.part: json.dumps(p.payload) for p in slack.channel_posts("C7")}
        spyre = slack.channel_posts("C8")
    assert "plugins" in channel
    assert digest == ["headline", "plugins"]
    # `radar:vllm-gaudi`: gaudi's part alone; vllm-spyre had no news that day: nothing.
    assert list(gaudi) == ["headline", "plugins"] and spyre == []
    assert "vllm-gaudi#215" in gaudi["plugins"] and "vllm-ascend" not in gaudi["plugins"]
    assert "upstream broke vllm-gaudi (" in gaudi["headline"]
    assert "vllm-ascend" not in gaudi["headline"]


def test_a_day_without_plugin_news_has_no_section_and_no_digest() -> None:
    from bot.features.radar.model import Pin, Radar
    from bot.features.radar.outline import has_plugins_section
    from bot.model.report import Report
    from bot.model.windows import Window

    day = Window(NOW.replace(hour=0), NOW, "Asia/Shanghai", "2025-09-22")
    keeping_up = Pin("vllm-project/vllm-gaudi", "VLLM_STABLE_COMMIT", "a" * 40, 40, 2.2)
    behind = Pin("vllm-project/vllm-ascend", ".github/x.commit", "b" * 40, 323, 7.9)

    def report(*pins: Pin) -> Report:
        radar = Radar(day, ("vllm-project/vllm-gaudi",), (), (), pins, complete=True)
        return Report(UPSTREAM, day, True, {}, {}, {}, parts=(RadarPart(radar),))

    assert not has_plugins_section(report(keeping_up))  # 2.2 days: within the 3
    assert has_plugins_section(report(keeping_up, behind))


def test_plugins_is_a_topic_to_subscribe_to_while_plugins_are_watched(
    monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    from bot.app import commands, open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings
    from tests.asking import ask
    from tests.asking import said as sentence

    monkeypatch.setenv("DATABASE_URL", store_url)

    def said(plugins: str) -> tuple[str, str]:
        monkeypatch.setenv("VLLM_REPORT_PLUGINS", plugins)
        bot = open_bot(load_settings(), load_rules(None))
        try:
            service = commands(bot)
            answer = ask(service, "vllm-subscribe", "Plugins dm")
            return sentence(answer), sentence(ask(service, "vllm-topics"))
        finally:
            bot.close()

    subscribed, topics = said(PLUGINS)
    assert (
        subscribed
        == "your DMs will get the Plugins (breakage radar) digest after each daily report"
    )
    assert "\nplugins — Plugins (breakage radar): upstream changes that broke" in topics
    assert "radar:vllm-ascend, radar:vllm-gaudi, radar:tpu-inference" in topics
    refused, topics = said("none")
    assert refused.startswith("unknown topic 'plugins'") and "plugins —" not in topics


def test_one_plugins_radar_is_subscribed_to_by_any_of_its_names(
    monkeypatch: pytest.MonkeyPatch, store_url: str
) -> None:
    from bot.app import commands, open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings
    from tests.asking import ask
    from tests.asking import said as sentence

    monkeypatch.setenv("DATABASE_URL", store_url)
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS)
    bot = open_bot(load_settings(), load_rules(None))
    try:
        service = commands(bot)
        subscribed = sentence(ask(service, "vllm-subscribe", "radar:Ascend dm"))
        assert subscribed == (
            "your DMs will get the Plugins (breakage radar) of vllm-ascend digest after each "
            "daily report"
        )
        stored = bot.store.subscriptions.list("slack", None)
        assert [sub.topic for sub in stored] == ["radar:vllm-ascend"]
        refused = sentence(ask(service, "vllm-subscribe", "radar:ascent dm"))
        assert refused.startswith("'ascent' is not a watched plugin")
        assert "Watched: vllm-ascend, vllm-gaudi" in refused
        assert sentence(ask(service, "vllm-subscribe", "radar: dm")).startswith(
            "name a plugin: `radar:<plugin>`"
        )
        gone = sentence(ask(service, "vllm-unsubscribe", "radar:vllm-ascend dm"))
        assert (
            gone == "your DMs will no longer get the Plugins (breakage radar) of vllm-ascend digest"
        )
        ask(service, "vllm-subscribe", "radar:gaudi dm")
    finally:
        bot.close()
    # vllm-gaudi is no longer watched: its subscription sends nothing, and can still go.
    monkeypatch.setenv("VLLM_REPORT_PLUGINS", "vllm-project/vllm-ascend")
    bot = open_bot(load_settings(), load_rules(None))
    try:
        gone = sentence(ask(commands(bot), "vllm-unsubscribe", "radar:gaudi dm"))
        assert gone.startswith("your DMs will no longer get")
        assert bot.store.subscriptions.list("slack", None) == []
    finally:
        bot.close()


def test_no_plugin_watched_says_so_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    monkeypatch.setenv("VLLM_REPORT_PLUGINS", "none")
    assert main(["radar", "7d"]) == 2
    err = capsys.readouterr().err
    assert "no plugin is watched (VLLM_REPORT_PLUGINS=none)" in err and "Traceback" not in err


def test_show_of_a_past_day_the_run_never_read_says_how_to_get_its_plugins(
    github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`show` never reads six plugins from GitHub for a person's look: for a day no run
    read them it says so, and which command reads them, beside the report (where the radar
    can read them: with a token; without one, only when the section was asked for)."""
    from bot.cli import main

    assert main(["show", DAY, "--cutoff", "11:45"]) == 0
    assert capsys.readouterr().err == ""  # anonymous: nothing to act on, stderr unchanged
    assert main(["show", DAY, "--cutoff", "11:45", "--section", "plugins"]) == 0
    assert "no Plugins section: the plugins were not read" in capsys.readouterr().err
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-test")
    assert main(["show", DAY, "--cutoff", "11:45"]) == 0
    out, err = capsys.readouterr()
    assert "🔌" not in out and plugin_requests(github) == []
    assert (
        f"vllm-report: no Plugins section: the plugins were not read for {DAY} (the daily "
        f"run reads them); `vllm-report radar {DAY}` reads them, then `show` has it"
    ) in err
    daily("ghp-test", monkeypatch)
    assert main(["show", DAY, "--cutoff", "11:45"]) == 0
    out, err = capsys.readouterr()
    assert "🔌 Plugins" in out and "no Plugins section" not in err
