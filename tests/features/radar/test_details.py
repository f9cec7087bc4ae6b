"""Each culprit the radar names says whom to ask: the upstream PR's title, author, merge date
and whether upstream has since reverted it, on every surface (radar Markdown, JSON, Slack,
Discord, the daily report's Plugins section in en and zh); all from the archive, each
upstream PR fetched at most once (`bot.features.radar.service` with `bot.features.radar.culprits`).

On the real 2025 plugin records served by the fake GitHub, with upstream #24982 given a
title and author and a revert of it merged three days later."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.features.radar.message import radar_message
from bot.features.radar.model import Radar
from bot.features.radar.render import (
    render_radar_markdown,
)
from bot.features.radar.render_json import render_radar_json
from bot.features.radar.service import RadarService
from bot.platforms.registry import DISCORD, SLACK
from bot.store import Span
from tests.fakes.github_api import FakeGitHub, FakeItem
from tests.features.radar.radar_data import pin_request, radar_github
from tests.features.radar.test_service import GAUDI, PLUGINS, TZ, WEEK, month, week  # noqa: F401
from tests.slack_text import message_text

UPSTREAM = "vllm-project/vllm"
NOW = datetime(2026, 8, 22, 13, 34, 22, tzinfo=UTC)
PULL = "https://github.com/vllm-project/vllm/pull"
REVERT_TITLE = 'Revert "[Model] Move the sampler to the engine (#24982)"'


def _with_revert(fake: FakeGitHub) -> None:
    """#24982 with its title and author; merged, then reverted by #25950 three days later."""
    sampler = replace(fake.items[24982], title="[Model] Move the sampler to the engine")
    sampler.author = "hmellor"
    fake.add(sampler)
    assert sampler.merged_at is not None
    at = sampler.merged_at + timedelta(days=3)
    revert = FakeItem(
        25950, "pr", REVERT_TITLE, "simon-mo", [], at - timedelta(hours=2), at,
        closed_at=at, merged_at=at, body="Reverts vllm-project/vllm#24982",
    )  # fmt: skip
    fake.add(revert)


@pytest.fixture
def radar(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[RadarService, FakeGitHub]]:
    from bot.app import open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    with radar_github() as fake:
        _with_revert(fake)
        monkeypatch.setenv("GITHUB_API_URL", fake.url)
        monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("VLLM_REPORT_GITHUB_REQUEST_INTERVAL", "0")
        monkeypatch.setenv("VLLM_REPORT_PLUGINS", PLUGINS)
        settings = load_settings()
        bot = open_bot(settings, load_rules(None), clock=lambda: NOW)
        try:
            yield RadarService(bot.reports.archiver, settings.plugin_list, lambda: NOW), fake
        finally:
            bot.close()


def collect_upstream(service: RadarService) -> None:
    """vLLM's own PRs of September and half October archived, as daily reports leave them."""
    span = Span(datetime(2025, 9, 1, tzinfo=UTC), datetime(2025, 10, 15, tzinfo=UTC))
    assert service.archiver.span(UPSTREAM, span, NOW) == []


def test_a_culprit_shows_its_author_merge_date_and_revert_on_every_surface(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service = radar[0]
    collect_upstream(service)
    found = month(service)
    sampler = next(c for c in found.culprits if c.ref.number == 24982)
    assert (sampler.title, sampler.author) == ("[Model] Move the sampler to the engine", "hmellor")
    assert sampler.merged_at is not None and sampler.reverted_by is not None
    assert sampler.reverted_by.number == 25950 and sampler.reverted is True
    other = next(c for c in found.culprits if c.ref.number == 25249)
    assert other.reverted is False  # the archive holds vLLM from its merge to 15 October
    merged = sampler.merged_at.astimezone(TZ).date().isoformat()
    reverted = sampler.reverted_by.merged_at.astimezone(TZ).date().isoformat()

    markdown = render_radar_markdown(found)
    assert (
        "[vllm#24982](https://github.com/vllm-project/vllm/pull/24982) \\[Model\\] Move the "
        f"sampler to the engine (by [@hmellor](https://github.com/hmellor), merged {merged}, "
        "reverted by [vllm#25950](https://github.com/vllm-project/vllm/pull/25950) on "
        f"{reverted}) — broke vllm-gaudi"
    ) in markdown
    assert "not reverted as of 2025-10-15" in markdown.split("## Pins")[0]

    data = json.loads(render_radar_json(found))
    told = next(c for c in data["culprits"] if c["number"] == 24982)
    assert told["title"] == "[Model] Move the sampler to the engine"
    assert (told["author"], told["reverted"]) == ("hmellor", True)
    assert told["merged_at"] == sampler.merged_at.isoformat()
    assert told["reverted_by"] == {
        "number": 25950,
        "title": REVERT_TITLE,
        "merged_at": sampler.reverted_by.merged_at.isoformat(),
    }
    assert next(c for c in data["culprits"] if c["number"] == 25249)["reverted"] is False

    slack = message_text(radar_message(SLACK, found, "en"))
    # On Slack the culprits are a table (the change, what it broke, the fixes), each one's
    # facts under it.
    assert (
        f"| <{PULL}/24982|vllm#24982> [Model] Move the sampler to the engine "
        "| vllm-gaudi, vllm-ascend | 2 |"
    ) in slack
    said = f"by @hmellor, merged {merged}, reverted by {{}} on {reverted}"
    assert said.format(f"<{PULL}/25950|vllm#25950>") in slack
    discord = radar_message(DISCORD, found, "en")["embeds"][0]["description"]
    assert said.format(f"[vllm#25950]({PULL}/25950)") in discord


def test_without_vllm_archived_whether_reverted_is_said_once_as_not_known(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    found = month(radar[0])  # the plugins alone: vLLM's own PRs were never collected
    assert all(c.reverted is None for c in found.culprits)
    markdown = render_radar_markdown(found)
    assert markdown.count("Reverts: not known for these culprits") == 1
    assert "revert not known" not in markdown and "not reverted" not in markdown
    assert "(by [@hmellor](https://github.com/hmellor), merged 2025-09-26) — broke" in markdown


def test_culprit_details_cost_no_request_more_and_each_upstream_pr_is_fetched_once(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    service, fake = radar
    first = month(service)
    cold = len(fake.requests)
    pins = sum(1 for r in fake.requests if pin_request(r.path))
    upstream = Counter(  # each upstream PR (by number, or by the commit that merged it)
        r.path
        for r in fake.requests
        if r.path.startswith(f"/repos/{UPSTREAM}/") and not pin_request(r.path)
    )
    assert upstream and max(upstream.values()) == 1  # each upstream PR fetched once
    searches = sum(1 for r in fake.requests if r.path == "/search/issues")
    assert searches == 24 and len(upstream) == 42
    assert cold == searches + len(upstream) + pins  # details cost nothing beyond these
    assert next(c for c in first.culprits if c.ref.number == 24982).author == "hmellor"
    # Warm: every detail from the archive, no request.
    again = month(service)
    assert len(fake.requests) == cold and again == first
    render_radar_markdown(again)
    radar_message(SLACK, again, "en")
    assert service.broken_by(24982) and len(fake.requests) == cold


def test_a_culprit_named_by_its_commit_has_the_author_of_the_pr_that_merged_it(
    week: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    service, fake = week
    found: Radar = service.radar(WEEK)
    by_commit = next(c for c in found.culprits if c.ref.number == 30006)
    assert (by_commit.author, by_commit.merged_at) == (
        "upstream-dev",
        datetime(2026, 3, 1, 6, tzinfo=UTC),
    )
    assert by_commit.reverted is None  # vLLM itself was not collected
    markdown = render_radar_markdown(found)
    assert "(by [@upstream-dev](https://github.com/upstream-dev), merged 2026-03-01) — " in markdown
    assert markdown.count("Reverts: not known") == 1  # two culprits: said once
    asked = len(fake.requests)
    assert service.radar(WEEK) == found and len(fake.requests) == asked


# -- the daily report's Plugins section ------------------------------------------------------

DAY_NOW = datetime(2025, 9, 23, 6, 0, tzinfo=UTC)  # two hours after 2025-09-22's window


def test_the_daily_plugins_section_says_whom_to_ask_in_en_and_zh(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bot.app import open_bot
    from bot.model.query import ReportQuery
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from bot.platforms.registry import chat_parts
    from config.settings import load_settings
    from formatters.json_report import render_json
    from formatters.markdown import render_markdown

    with radar_github() as fake:
        lora = replace(fake.items[25249])
        lora.author = "jeejeelee"
        fake.add(lora)
        # #25510 reverted within the report's day: the day's collection archives the revert.
        at = datetime(2025, 9, 22, 10, tzinfo=UTC)
        revert = FakeItem(
            25990, "pr", 'Revert "[Core] Change 25510 (#25510)"', "simon-mo", [],
            at - timedelta(hours=1), at, closed_at=at, merged_at=at,
        )  # fmt: skip
        fake.add(revert)
        for name, value in (
            ("GITHUB_API_URL", fake.url),
            ("VLLM_REPORT_DATA_DIR", str(tmp_path)),
            ("VLLM_REPORT_PLUGINS", PLUGINS),
            ("GITHUB_TOKEN", "ghp-test"),
        ):
            monkeypatch.setenv(name, value)
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: DAY_NOW)
        try:
            window = day_window(date(2025, 9, 22), TZ, datetime.min.time().replace(11, 45))
            report = bot.reports.report(ReportQuery(UPSTREAM, window, queue=True))
        finally:
            bot.close()
    en = render_markdown(report, "en").split("## 🔌 Plugins", 1)[1].split("\n## ", 1)[0]
    # The head still reads "#N title — broke plugin"; the line under it says whom to ask.
    assert (
        "[#25249](https://github.com/vllm-project/vllm/pull/25249) [Core] Modify the "
        "initialization parameters of the lora manager — broke vllm-ascend\n"
        "   - by @jeejeelee, merged 2025-09-19, not reverted as of 2025-09-23\n"
    ) in en
    assert (
        "merged 2025-09-20, reverted by [#25990](https://github.com/vllm-project/vllm/pull/"
        "25990) on 2025-09-22"
    ) in en
    zh = render_markdown(report, "zh").split("## 🔌 硬件插件", 1)[1].split("\n## ", 1)[0]
    assert "作者 @jeejeelee，2025-09-19 合并，截至 2025-09-23 未被回退" in zh
    assert (
        "2025-09-20 合并，已被 [#25990](https://github.com/vllm-project/vllm/pull/25990) "
        "于 2025-09-22 回退" in zh
    )
    slack = message_text(dict(chat_parts("slack", report, "en"))["plugins"])
    assert "by @jeejeelee, merged 2025-09-19, not reverted as of 2025-09-23" in slack
    discord = json.dumps(dict(chat_parts("discord", report, "en"))["plugins"], ensure_ascii=False)
    assert "by @jeejeelee, merged 2025-09-19" in discord
    culprit = next(
        c for c in json.loads(render_json(report))["radar"]["culprits"] if c["number"] == 25249
    )
    assert (culprit["author"], culprit["reverted"]) == ("jeejeelee", False)


def test_the_standalone_radar_reads_in_chinese_on_every_surface(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    """`vllm-report radar --lang zh` and `/vllm-radar zh`: headings, facts, pins and the
    not-a-cause words in Chinese; the same culprits, fixes and links as the English one;
    titles and logins as their authors wrote them."""
    service, _ = radar
    collect_upstream(service)
    found = month(service)
    sampler = next(c for c in found.culprits if c.ref.number == 24982)
    assert sampler.merged_at is not None and sampler.reverted_by is not None
    merged = sampler.merged_at.astimezone(TZ).date().isoformat()
    reverted = sampler.reverted_by.merged_at.astimezone(TZ).date().isoformat()
    en, zh = render_radar_markdown(found), render_radar_markdown(found, "zh")
    assert zh.startswith(f"# 插件故障雷达 · {found.window.label}\n")
    for heading in (
        "## 导致插件故障的上游改动",
        "## 插件锁定的上游版本",
        "## 所有提到上游的插件条目",
    ):
        assert heading in zh
    assert (
        "[vllm#24982](https://github.com/vllm-project/vllm/pull/24982) \\[Model\\] Move the "
        f"sampler to the engine（作者 [@hmellor](https://github.com/hmellor)，{merged} 合并，"
        f"已于 {reverted} 被 [vllm#25950](https://github.com/vllm-project/vllm/pull/25950) 回退）"
        " — 导致 vllm-gaudi（"
    ) in zh
    links = re.compile(r"\]\((https://github\.com/[^)]+)\)")
    assert links.findall(en) == links.findall(zh)  # the same culprits, fixes and items
    english = ("Upstream changes", "broke ", "merged 20", "by @", "commits behind", "Pins", "a pin")
    assert not [word for word in english if word in zh]
    # The month's pins, from the pin files' histories; a growing lag and an unknown one in Chinese.
    assert "落后 main 28 个提交，8.8 天；差距仍在扩大（已 8.6 天未更新）" in zh
    assert "未知：pyproject.toml on main 在此之前没有提交" in zh  # spyre's file begins later
    assert "（上游待合并）" in zh and "— 修复故障 —" in zh
    slack = message_text(radar_message(SLACK, found, "zh"))
    said = f"作者 @hmellor，{merged} 合并，已被 {{}} 于 {reverted} 回退"
    assert said.format(f"<{PULL}/25950|vllm#25950>") in slack
    assert "*导致插件故障的上游改动*" in slack and "个上游改动导致插件故障" in slack
    discord = radar_message(DISCORD, found, "zh")["embeds"][0]
    assert discord["title"].startswith("插件故障雷达 · ")
    assert said.format(f"[vllm#25950]({PULL}/25950)") in discord["description"]
    # Every pin's lag, in the one message as in the Markdown.
    lag = "vllm-ascend: 落后 main 28 个提交，8.8 天；差距仍在扩大（已 8.6 天未更新）"
    assert "*锁定版本*" in slack and lag in slack
    embeds = radar_message(DISCORD, found, "zh")["embeds"]
    assert lag in "\n".join(e["description"] for e in embeds)


def test_the_precision_line_says_what_it_measures_and_counts_the_unconfirmed(
    radar: tuple[RadarService, FakeGitHub],
) -> None:
    """ "Precision" was only "none corrected": the line says it is the share of culprits
    shown that readers did not correct, and how many upstream confirmed by reverting them."""
    service = radar[0]
    collect_upstream(service)
    found = month(service)
    shown = found.attributions
    reverted = len(next(c for c in found.culprits if c.ref.number == 24982).fixes)
    assert shown > reverted >= 1
    en = (
        f"Not corrected 100%: of {shown} culprit attributions shown, 0 corrected by readers "
        "(`/vllm-radar wrong <plugin PR> <upstream PR>`); "
        f"{reverted} confirmed (upstream reverted the change), {shown - reverted} unconfirmed "
        "(the plugin's word, checked only as a vLLM PR merged before the fix)"
    )
    zh = (
        f"未被更正 100%：显示的 {shown} 个归因中读者更正了 0 个"
        "（`/vllm-radar wrong <插件 PR> <上游 PR>`）；"
        f"{reverted} 个已确认（上游已回退该改动），{shown - reverted} 个未确认"
        "（仅凭插件自述，GitHub 只核实了它是修复前合并的 vLLM PR）"
    )
    for lang, line in (("en", en), ("zh", zh)):
        markdown = render_radar_markdown(found, lang)
        assert line in markdown and "Precision" not in markdown and "准确率" not in markdown
        slack = message_text(radar_message(SLACK, found, lang))  # rich_text: as typed
        assert line in slack
        embeds = radar_message(DISCORD, found, lang)["embeds"]
        shown_text = "\n".join(e["description"] for e in embeds)  # as Discord shows it:
        shown_text = re.sub(r"\\(.)", r"\1", shown_text).replace("\u200b", "")  # unescaped
        assert line in shown_text
    told = json.loads(render_radar_json(found))["precision"]
    assert told["measures"] == "share of culprit attributions shown not corrected by readers"
    assert (told["attributions"], told["corrected"], told["precision"]) == (shown, 0, 1.0)
    assert (told["confirmed"], told["unconfirmed"]) == (reverted, shown - reverted)
