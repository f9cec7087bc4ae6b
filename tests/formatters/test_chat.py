"""Slack and Discord payloads from real days: golden snapshots, limits, safety, nothing lost."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.analyze import analyze
from bot.cli import main
from bot.model.report import ActivityItem
from bot.model.rules import load_rules
from bot.model.windows import parse_window
from config.settings import load_settings
from formatters._text import BIDI
from formatters.discord_embeds import render_discord
from formatters.markdown import render_markdown
from formatters.slack_blocks import render_slack
from tests.anchor_data import AnchorDay, anchor_days
from tests.chat_checks import (
    BARE_URL,
    check_discord,
    check_slack,
    listed_numbers,
    numbers_in_discord,
    numbers_in_slack,
)
from tests.factories import REPO, WINDOW_0326, archive_link, item, make_report
from tests.fakes.github_api import FakeGitHub
from tests.slack_text import block_lines, message_lines, message_text

RULES = load_rules()
LINK = "https://reports.example.org/vllm"


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_real_days_fit_six_messages_within_limits(
    day: AnchorDay, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every real day, both platforms, both languages: at most 6 messages, within limits, only
    our links; the appendix stays out of chat and every item is one click away."""
    monkeypatch.setenv("VLLM_REPORT_SITE_URL", LINK)
    config = load_settings(cutoff=day.cutoff)
    now = datetime.now(UTC)
    window = parse_window(day.label, now=now, tz=config.tz, cutoff=config.cutoff_time, max_days=31)
    report = make_report(config, window)
    for lang in ("en", "zh"):
        link = archive_link(config, report, lang)
        slack = render_slack(report, lang, link=link)
        discord_ = render_discord(report, lang, link=link)
        check_slack(slack, report, (LINK,))
        check_discord(discord_, report, (LINK,))
        assert len(slack) <= 6 and len(discord_) <= 6
        parts = [m["metadata"]["event_payload"]["part"] for m in slack]
        assert "appendix" not in parts
        assert f"{LINK}/" in json.dumps(slack[0]) and f"{LINK}/" in json.dumps(discord_[0])
        shown = numbers_in_slack(slack)
        assert shown <= listed_numbers(report) | set(report.context)
        asked = render_slack(report, lang, only=("appendix",), link=link, with_headline=False)
        assert numbers_in_slack(asked) >= listed_numbers(report)  # on demand, every item


def test_the_first_message_carries_the_gist(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Message 1: title, window, the five counts and what happened (linked, in its own words)."""
    day = anchor_days()[2]
    slack = cli_json(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "slack")
    head = slack[0]
    assert head["blocks"][0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": "vLLM daily report · 2026-03-25"},
    }
    counts = "\n".join(block_lines(head["blocks"][2]))
    assert "*Closed issues* 10 (8 by people, 2 by the stale bot)" in counts
    # 52 of the 74 were one bulk closing of low-effort PRs: said apart, not 52 decisions.
    assert (
        "*Closed without merging* 74 (21 by authors or maintainers, 52 closed as low-effort in "
        "bulk, 1 by the stale bot)" in counts
    )
    # The vendors' counts: a table, AMD first, its figures as numbers; the lines in `text`.
    vendors = head["blocks"][3]
    assert vendors["type"] == "data_table"
    assert block_lines(vendors)[1].startswith("| AMD / ROCm | 11 | 14 |")
    assert vendors["rows"][1][1] == {"type": "raw_number", "value": 11, "text": "11"}
    assert "🎯 AMD / ROCm: 11 merged PRs · 14 PRs in review" in head["text"]
    gist = "\n".join(block_lines(head["blocks"][4]))
    assert gist.startswith("*What happened*")
    assert 3 <= gist.count("\n• ") + 1 <= 6
    assert "      › " in gist  # each line followed by the item's own words
    parts = [m["metadata"]["event_payload"]["part"] for m in slack]
    # No thread read for this day had a comment inside the window (the fixture's threads are
    # sparse): the hot reply is left out rather than posted empty.
    assert parts == ["headline", "vendors", "key", "notable", "trends"]
    assert len(parts) == len(set(parts))


def test_one_section_for_a_command_and_a_vendor_digest(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """--section hot gives headline + that section; --topic amd --section amd is a digest."""
    day = anchor_days()[2]
    hot = cli_json(
        capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "discord", "--section", "hot"
    )
    assert len(hot) == 2
    assert hot[1]["embeds"][0]["title"] == "💬 Hot discussions"
    digest = cli_json(
        capsys,
        "show",
        day.label,
        "--cutoff",
        day.cutoff,
        "--format",
        "slack",
        "--topic",
        "amd",
        "--section",
        "amd",
    )
    assert [m["metadata"]["event_payload"]["part"] for m in digest] == ["headline", "amd"]
    counts = block_lines(digest[0]["blocks"][2])[0]
    assert counts.startswith("*New issues* 2 ·")  # only AMD's


# -- hostile input, any size -------------------------------------------------------------

HOSTILE = [
    "<!channel>",
    "<!here>",
    "<!everyone>",
    "<@U024BE7LH>",
    "<!subteam^S0123>",
    "<#C024BE7LR>",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "<#12345678901>",
    "<https://evil.example|Fix typo>",
    "[Fix typo](https://evil.example)",
    "https://evil.example/x",
    "www.evil.example",
    "**bold** _it_ ~~s~~ `code` ||spoiler||",
    "> quote\n# heading\n- list",
    "&amp; &lt; <>",
    "\u200b@\u200beveryone",
    "\u202eevil\u202c",
    "\u2066iso\u2069",
    "\x00\x07",
    "中文标题",
    "🚀",
    "x" * 10_000,
]
text = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40)), max_size=4).map("".join)
login = st.one_of(st.sampled_from(["@everyone", "<!here>", "vecheruk-amd", "a" * 300]), text)


@st.composite
def hostile_items(draw: st.DrawFn) -> list[ActivityItem]:
    count = draw(st.one_of(st.integers(0, 30), st.integers(200, 2000)))
    start = WINDOW_0326.start
    items = []
    for number in range(1, count + 1):
        kind = "pr" if number % 3 else "issue"
        offset = timedelta(minutes=(number * 7) % 1440)
        closed = start + offset if number % 4 == 0 else None
        items.append(
            item(
                number,
                kind,
                title=draw(text)
                if number <= 40
                else f"[ROCm] item {number} {HOSTILE[number % 25][:60]}",
                author=draw(login) if number <= 40 else HOSTILE[number % 12],
                labels=tuple(draw(st.lists(text, max_size=3))) if number <= 40 else ("rocm",),
                created_at=start + offset if number % 5 else start - timedelta(days=3),
                closed_at=closed,
                merged_at=closed if kind == "pr" and number % 8 == 0 else None,
                body=draw(text) if number <= 10 else None,
                comments=number % 11,
            )
        )
    return items


def check_all_renderings(items: list[ActivityItem], lang: str) -> None:
    """Daily post, appendix on demand and Markdown: limits, no pings, no foreign links."""
    report = analyze(items, WINDOW_0326, repo=REPO, rules=RULES, complete=True)
    markdown = render_markdown(report, lang)
    assert not BIDI.search(markdown)
    for url in BARE_URL.findall(markdown):
        assert url.startswith(f"https://github.com/{REPO}/"), url
    slack = render_slack(report, lang)
    discord_ = render_discord(report, lang)
    check_slack(slack, report)
    check_discord(discord_, report)
    assert len(slack) <= 6 and len(discord_) <= 6
    # The appendix, asked for on demand, loses no item however long it is.
    asked_slack = render_slack(report, lang, only=("appendix",))
    asked_discord = render_discord(report, lang, only=("appendix",))
    check_slack(asked_slack, report)
    check_discord(asked_discord, report)
    assert numbers_in_slack(asked_slack) >= listed_numbers(report)
    assert numbers_in_discord(asked_discord) >= listed_numbers(report)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(hostile_items(), st.sampled_from(["en", "zh"]))
def test_hostile_reports_never_break_limits_ping_or_lose_items(
    items: list[ActivityItem], lang: str
) -> None:
    """Any size, any text (random; fixed examples in CI): every rendering stays safe."""
    check_all_renderings(items, lang)


@pytest.mark.parametrize("family", HOSTILE, ids=range(len(HOSTILE)))
def test_each_hostile_family_in_every_field(family: str) -> None:
    """One explicit example per hostile family, in the title, login, labels and body."""
    start = WINDOW_0326.start
    items = [
        item(
            1,
            "pr",
            title=f"[ROCm] {family}",
            author=family[:39] or "x",
            labels=(family[:50],),
            created_at=start,
            body=f"## Purpose\n{family}\n\nFixes #2",
        ),
        item(
            2,
            "issue",
            title=f"[Bug]: crash {family}",
            created_at=start,
            comments=3,
            body=f"### 🐛 Describe the bug\n{family}",
        ),
    ]
    for lang in ("en", "zh"):
        check_all_renderings(items, lang)


def test_the_checks_catch_what_they_guard_against() -> None:
    """The safety checks above are not vacuous: each fails on the payload it exists for."""
    busy = [item(n, created_at=WINDOW_0326.start) for n in range(1, 13)]  # not a quiet day
    report = analyze(busy, WINDOW_0326, repo=REPO, rules=RULES, complete=True)
    good_slack, good_discord = render_slack(report), render_discord(report)
    check_slack(good_slack, report)
    check_discord(good_discord, report)
    bad_slack = [
        {**good_slack[1], "text": "<!channel> hello"},
        {**good_slack[1], "text": "see <https://evil.example|Fix typo>"},
        {**good_slack[1], "text": "see https://evil.example"},
        {
            **good_slack[1],
            "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
        },
    ]
    for message in bad_slack:
        with pytest.raises(Exception):  # noqa: B017, PT011 - AssertionError or SlackObjectFormationError
            check_slack([message], report)
    embed = good_discord[1]["embeds"][0]
    bad_discord = [
        {**good_discord[1], "allowed_mentions": {"parse": ["everyone"]}},
        {**good_discord[1], "embeds": [{**embed, "description": "@everyone"}]},
        {**good_discord[1], "embeds": [{**embed, "description": "[x](https://evil.example)"}]},
        {**good_discord[1], "embeds": [{**embed, "description": "y" * 4097}]},
        {**good_discord[1], "embeds": [embed] * 11},
    ]
    for message in bad_discord:
        with pytest.raises(AssertionError):
            check_discord([message], report)


def test_a_bucket_is_never_a_count_with_nothing_under_it(
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AMD's one PR closed without merging is shown under its heading (a heading with a count
    and nothing under it reads as a missing line); the rest of a bucket is said to be in the
    full report when there is a page to link, else by the command that shows it."""
    day = anchor_days()[2]

    def vendors_text() -> str:
        slack = cli_json(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "slack")
        (vendors,) = [m for m in slack if m["metadata"]["event_payload"]["part"] == "vendors"]
        return message_text(vendors)

    text = vendors_text()
    after = text.split("*PRs closed without merging (1)*\n", 1)[1].splitlines()[0]
    assert "|#31328>" in after and "closed without merging" in after
    assert f"more: /vllm-report {day.label} amd_" in text
    monkeypatch.setenv("VLLM_REPORT_SITE_URL", LINK)
    assert "more in the full report_" in vendors_text()


# A bucket's heading in a chat message: Slack's "*Merged PRs (11)*", Discord's "**…（2）**".
_HEADING = {"slack": r"^\*[^*_]+[(（]\d+[)）]\*$", "discord": r"^\*\*[^*]+[(（]\d+[)）]\*\*$"}
_ANY_HEADING = {"slack": r"^\*[^*_]+\*$", "discord": r"^\*\*[^*]+\*\*$"}  # bold: a heading


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("platform", ["slack", "discord"])
def test_no_chat_heading_stands_over_nothing(platform: str, lang: str) -> None:
    """The published 2026-03-26 day: AMD's two earlier issues closed are shown above, under
    the ROCm release that closed them. Their heading says so; it never stands empty."""
    import re

    from bot.platforms.registry import chat_parts
    from tests.anchor_data import reference_day_items

    report = analyze(reference_day_items(), WINDOW_0326, repo=REPO, rules=RULES, complete=True)
    payloads = [p for _, p in chat_parts(platform, report, lang)]
    if platform == "slack":  # rich_text read back in mrkdwn's notation
        lines = [line for payload in payloads for line in message_lines(payload)]
    else:
        lines = [line for payload in payloads for line in _texts(payload)]
    heading = re.compile(_HEADING[platform])
    # A heading followed by nothing, or by another heading (a vendor's name, a bucket).
    next_heading = re.compile(_ANY_HEADING[platform])
    empty = [
        line
        for line, after in zip(lines, [*lines[1:], ""], strict=True)
        if heading.match(line) and (not after.strip() or next_heading.match(after))
    ]
    assert empty == []
    said = "\n".join(lines)
    assert ("#36703" in said) and ("shown above" in said or "已列在上方" in said)


def _texts(payload: object) -> list[str]:
    """Every line of text in a payload, wherever its blocks or embeds keep it."""
    if isinstance(payload, dict):
        return [line for value in payload.values() for line in _texts(value)]
    if isinstance(payload, list):
        return [line for value in payload for line in _texts(value)]
    return str(payload).split("\n") if isinstance(payload, str) else []
