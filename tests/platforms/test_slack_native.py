"""Slack's native blocks: tables (data_table), the trend chart (data_visualization) and lines
as rich_text, each within Block Kit's limits and with its fallback.

The fake Slack refuses, as Slack does, every payload that breaks a limit (`invalid_blocks`,
over the wire, with slack_sdk's client); the bot never sends one: a table of more than 100
rows is split, one too long for its message is drawn as lines, a chart of more than six
series is a table, a long title or name is cut. A fixture day posted to the fake Slack in
both languages carries a table and a chart within the limits, and its Chinese edition no
mrkdwn marker next to a Chinese character (Slack does not read those as markup).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import date, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.model import outline_parts as ol
from bot.platforms.registry import SLACK
from formatters import slack_blocks as sb
from formatters import slack_native as sn
from formatters.charts import ChartData
from tests.chat_checks import rich_elements
from tests.fakes.block_kit import check_message
from tests.fakes.ci_dashboard import FakeCiDashboard, serve_main
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack
from tests.slack_text import (
    body_lines,
    cell_text,
    markers_next_to_cjk,
    message_lines,
    mrkdwn_shown,
    mrkdwn_spans,
    mrkdwn_texts,
)

LINK = "https://github.com/vllm-project/vllm/pull/{}"


def raw(text: str) -> dict[str, str]:
    return {"type": "raw_text", "text": text}


def number(value: int) -> dict[str, Any]:
    return {"type": "raw_number", "value": value, "text": str(value)}


def table(rows: int = 3, width: int = 2, **fields: Any) -> dict[str, Any]:
    body = [[raw(f"r{r}"), *(number(r) for _ in range(width - 1))] for r in range(rows)]
    header = [raw(f"c{c}") for c in range(width)]
    return {"type": "data_table", "caption": "A table", "rows": [header, *body], **fields}


def chart(series: int = 2, points: int = 3, title: str = "Daily activity") -> dict[str, Any]:
    days = [f"03-{d + 1:02d}" for d in range(points)]
    drawn = [
        {"name": f"series {s}", "data": [{"label": d, "value": s + i} for i, d in enumerate(days)]}
        for s in range(series)
    ]
    return {
        "type": "data_visualization",
        "title": title,
        "chart": {"type": "line", "series": drawn, "axis_config": {"categories": days}},
    }


def rich(*elements: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "rich_text",
        "elements": [{"type": "rich_text_section", "elements": [*elements]}],
    }


def _ragged() -> dict[str, Any]:
    broken = table()
    broken["rows"][2] = broken["rows"][2][:1]
    return broken


def _rich_header() -> dict[str, Any]:
    broken = table()
    broken["rows"][0][0] = rich({"type": "text", "text": "c0"})
    return broken


def _series_named(name: str) -> dict[str, Any]:
    drawn = chart()
    drawn["chart"]["series"][0]["name"] = name
    return drawn


def _stray_label() -> dict[str, Any]:
    drawn = chart()
    drawn["chart"]["series"][0]["data"][0]["label"] = "04-01"
    return drawn


REFUSED = {
    "a table of 102 rows (101 and the header)": [table(rows=101)],
    "a table of its header alone": [table(rows=0)],
    "a table with ragged rows": [_ragged()],
    "a table without its caption": [{k: v for k, v in table().items() if k != "caption"}],
    "a table with rich_text in its header": [_rich_header()],
    "a table paged by 0": [table(page_size=0)],
    "a table paged by 101": [table(page_size=101)],
    "a figure that is text": [
        table() | {"rows": [[raw("c0")], [{"type": "raw_number", "value": "11", "text": "11"}]]}
    ],
    "a chart of 7 series": [chart(series=7)],
    "a chart titled in 51 characters": [chart(title="T" * 51)],
    "a series named in 21 characters": [_series_named("N" * 21)],
    "two series of one name": [_series_named("series 1")],
    "a series of 21 points": [chart(points=21)],
    "a point off the categories": [_stray_label()],
    "a pie slice of 0": [
        {
            "type": "data_visualization",
            "title": "Pie",
            "chart": {"type": "pie", "segments": [{"label": "a", "value": 0}]},
        }
    ],
    "a block Slack does not know": [{"type": "chart", "title": "x"}],
    "a section of 3,001 characters": [
        {"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}
    ],
    "a style rich_text has not": [rich({"type": "text", "text": "x", "style": {"shout": True}})],
    "51 blocks": [rich({"type": "text", "text": "x"})] * 51,
}
ACCEPTED = {
    "a table of 101 rows": [table(rows=100, page_size=100)],
    "a chart of 6 series, 20 points, a 50-character title": [
        chart(series=6, points=20, title="T" * 50)
    ],
    "lines in rich_text": [
        rich(
            {"type": "text", "text": "新 Issue", "style": {"bold": True}},
            {"type": "text", "text": " 29 · "},
            {"type": "link", "url": LINK.format(1), "text": "#1"},
        )
    ],
}


@pytest.fixture(scope="module")
def slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


@pytest.mark.parametrize("blocks", list(REFUSED.values()), ids=list(REFUSED))
def test_the_fake_slack_refuses_what_slack_refuses(
    slack: FakeSlack, blocks: list[dict[str, Any]]
) -> None:
    """Over the wire, with slack_sdk: `invalid_blocks` and Slack's reason, nothing posted."""
    before = len(slack.posted)
    with pytest.raises(SlackApiError) as raised:
        WebClient(token="xoxb-test", base_url=slack.api_url).chat_postMessage(
            channel="C1", text="fallback", blocks=blocks
        )
    answer = raised.value.response
    assert answer["error"] == "invalid_blocks"
    assert answer["errors"] and all("[json-pointer:/blocks" in e for e in answer["errors"])
    assert len(slack.posted) == before


@pytest.mark.parametrize("blocks", list(ACCEPTED.values()), ids=list(ACCEPTED))
def test_the_fake_slack_takes_what_is_within_the_limits(
    slack: FakeSlack, blocks: list[dict[str, Any]]
) -> None:
    answer = WebClient(token="xoxb-test", base_url=slack.api_url).chat_postMessage(
        channel="C1", text="fallback", blocks=blocks
    )
    assert answer["ok"] and slack.posted[-1].payload["blocks"] == blocks


# -- the bot never sends what Slack refuses ---------------------------------------------------


def entries(n: int, cell: str = "job") -> tuple[ol.Entry, ...]:
    return tuple(
        ol.Entry(
            (ol.Ref(i, LINK.format(i)), ol.Our(f" {cell} {i} — red")),
            ((ol.Our(f"evidence of {i}"),),),
            cells=((ol.Our(f"{cell} {i}"),), ol.Number(i, str(i)), (ol.Ref(i, LINK.format(i)),)),
        )
        for i in range(1, n + 1)
    )


COLUMNS = ol.Columns("Jobs failing", ("Job", "Runs", "PR"))


def one(blocks: tuple[ol.Block, ...]) -> dict[str, Any]:
    section = ol.Section("ci", "Red on main", blocks)
    (message,) = SLACK.one_message(ol.OneMessage("Title", "context", section, "e", {}), "en")
    assert check_message(message["blocks"]) is None
    return message


def tables(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in message["blocks"] if b["type"] == "data_table"]


def test_a_block_with_columns_is_a_table_its_sub_lines_under_it_its_lines_in_text() -> None:
    message = one((ol.Block("Failing (3)", entries(3), "numbered", columns=COLUMNS),))
    (drawn,) = tables(message)
    assert [cell_text(c) for c in drawn["rows"][0]] == ["Job", "Runs", "PR"]
    assert drawn["rows"][2] == [
        raw("job 2"),
        number(2),
        rich({"type": "link", "url": LINK.format(2), "text": "#2"}),
    ]
    assert drawn["caption"] == "Jobs failing" and drawn["page_size"] == 3
    lines = body_lines(message)
    assert "• *job 2*" in lines and "      › evidence of 2" in lines
    # The fallback: what a client that cannot draw the table shows, the lines themselves.
    assert "2. #2 job 2 — red" in message["text"].splitlines()


def test_more_than_100_rows_are_split_into_tables_of_100() -> None:
    short = tuple(
        ol.Entry(
            (ol.Our(f"j{i}"),), cells=((ol.Our(f"j{i}"),), ol.Number(i, str(i)), (ol.Our("-"),))
        )
        for i in range(205)
    )
    message = one((ol.Block(None, short, "list", columns=COLUMNS),))
    drawn = tables(message)
    assert [len(t["rows"]) for t in drawn] == [101, 101, 6]  # each with its header
    assert [t["caption"] for t in drawn] == [f"Jobs failing ({i}/3)" for i in (1, 2, 3)]
    assert all(1 <= t["page_size"] <= 100 for t in drawn)


def test_a_table_too_long_for_its_message_is_drawn_as_its_lines() -> None:
    message = one((ol.Block(None, entries(100, "x" * 120), "list", columns=COLUMNS),))
    assert tables(message) == []
    lines = body_lines(message)
    assert lines[0].startswith("• <https://github.com/vllm-project/vllm/pull/1|#1>")
    assert "more lines in the full report" in lines[-1]  # the cut said, not silent


def test_a_table_of_one_row_is_drawn_as_its_line() -> None:
    message = one((ol.Block("Failing (1)", entries(1), "numbered", columns=COLUMNS),))
    assert tables(message) == []
    assert (
        body_lines(message)[1] == "1. <https://github.com/vllm-project/vllm/pull/1|#1> job 1 — red"
    )


def test_a_block_whose_rows_are_not_whole_is_drawn_as_lines() -> None:
    ragged = entries(3)
    ragged = (*ragged[:2], ol.Entry(ragged[2].head, ragged[2].lines, cells=ragged[2].cells[:2]))
    message = one((ol.Block(None, ragged, "list", columns=COLUMNS),))
    assert tables(message) == [] and body_lines(message)[0].startswith("• <")
    with pytest.raises(ValueError, match="a cell per column"):
        sn.data_table("c", ("a", "b"), [[(ol.Our("x"),)]])
    with pytest.raises(ValueError, match="1 to 100 rows"):
        sn.data_table("c", ("a",), [])


def days(n: int) -> tuple[str, ...]:
    start = date(2026, 3, 1)
    return tuple((start + timedelta(days=i)).strftime("%m-%d") for i in range(n))


def drawn_chart(data: ChartData) -> list[dict[str, Any]]:
    reply = {"text": "🔥 Trends", "blocks": [sn.rich_text(sn.text("🔥 Trends", bold=True))]}
    blocks = sb.with_chart(reply, data, "Per day: …", "en")["blocks"]
    assert check_message(blocks) is None
    return blocks[1:-1]


def test_the_chart_keeps_to_its_limits_or_becomes_a_table() -> None:
    names = ("Closed without merging", "Closed without merging, again", *map(str, range(3)))
    data = ChartData("T" * 60, days(25), tuple((n, tuple(range(25))) for n in names))
    (chart_,) = drawn_chart(data)
    assert chart_["type"] == "data_visualization" and len(chart_["title"]) == 50
    series = chart_["chart"]["series"]
    assert [len(s["name"]) <= 20 for s in series] == [True] * 5
    assert len({s["name"] for s in series}) == 5  # cut names kept apart
    assert chart_["chart"]["axis_config"]["categories"] == list(days(25)[-20:])  # the last 20
    seven = ChartData("Items per vendor", days(3), tuple((f"v{i}", (1, 2, 3)) for i in range(7)))
    (as_table,) = drawn_chart(seven)
    assert as_table["type"] == "data_table" and len(as_table["rows"]) == 4
    assert [c["text"] for c in as_table["rows"][0]] == ["Day", *(f"v{i}" for i in range(7))]


def test_a_day_not_archived_is_left_out_of_the_chart_never_drawn_as_zero() -> None:
    data = ChartData(
        "Daily activity", days(3), (("New PRs", (4, None, 6)), ("Merged PRs", (1, 2, None)))
    )
    (chart_,) = drawn_chart(data)
    assert chart_["chart"]["axis_config"]["categories"] == ["03-01"]  # each series has it
    assert [s["data"] for s in chart_["chart"]["series"]] == [
        [{"label": "03-01", "value": 4}],
        [{"label": "03-01", "value": 1}],
    ]
    nothing = ChartData("Daily activity", days(2), (("New PRs", (None, None)),))
    reply = {"text": "t", "blocks": [sn.rich_text(sn.text("t"))]}
    assert sb.with_chart(reply, nothing, "…", "en") == reply  # nothing to draw: no chart


# -- mrkdwn next to Chinese -------------------------------------------------------------------


def test_the_mrkdwn_reading_follows_slack_s_boundaries() -> None:
    """A marker counts with a boundary outside it; a CJK character is a word character."""
    assert mrkdwn_shown("*Merged PRs* 44") == "Merged PRs 44"
    assert mrkdwn_shown("共*3*个") == "共*3*个"  # Slack shows the asterisks
    assert mrkdwn_shown("_另有 8 项_") == "另有 8 项"
    assert mrkdwn_spans("fuse_rope_kvcache") == []  # no markup inside a word
    # The opening `*` and both `_`: each right against a Chinese character.
    assert len(markers_next_to_cjk("*新 Issue* 29 · _另有 8 项_")) == 3
    assert markers_next_to_cjk("*Merged PRs* 44 · 合并 PR 44") == []


# -- a fixture day posted to the fake Slack ---------------------------------------------------


REPO = "vllm-project/vllm"
DAY = date(2026, 3, 25)


def window() -> Any:
    from zoneinfo import ZoneInfo

    from bot.model.windows import day_window

    return day_window(DAY, ZoneInfo("Asia/Shanghai"), time(11, 45))


@pytest.fixture
def dashboard(
    fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[FakeCiDashboard]:
    serve_main(fake_github)
    with FakeCiDashboard() as fake:
        fake.now = window().end + timedelta(minutes=15)
        monkeypatch.setenv("VLLM_REPORT_CI_URL", fake.url)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp-test")
        monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'store.sqlite3'}")
        yield fake


def post_day(monkeypatch: pytest.MonkeyPatch, lang: str) -> FakeSlack:
    """The fixture day's daily run in `lang`, with Red on main, posted to channel C1."""
    from bot.app import daily_job, open_bot, transports
    from bot.model.rules import load_rules
    from config.settings import load_settings

    clock = window().end + timedelta(minutes=15)
    with FakeSlack() as fake:
        for name, value in {
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_API_URL": fake.api_url,
            "SLACK_CHANNELS": "C1",
            "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
            "VLLM_REPORT_LANG": lang,
        }.items():
            monkeypatch.setenv(name, value)
        settings = load_settings()
        bot = open_bot(settings, load_rules(None), clock=lambda: clock)

        async def run() -> None:
            async with transports(settings) as opened:
                await daily_job(bot, opened).post(window())

        try:
            asyncio.run(run())
        finally:
            bot.close()
        return fake


def fallback_of(block: dict[str, Any], message: dict[str, Any]) -> None:
    """A native block's words are in its message's `text` (what a client or relay that
    leaves the block out shows)."""
    said = message["text"]
    if block["type"] == "data_table":
        for row in block["rows"][1:]:
            name = cell_text(row[0]).removeprefix("🆕 ")
            assert name.replace("&", "&amp;") in said, name
    else:
        figures = next(b for b in message["blocks"] if b.get("block_id") == "chart-figures")
        assert figures["elements"][0]["text"] in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_fixture_day_posted_to_slack_carries_a_table_and_a_chart_within_limits(
    lang: str, dashboard: FakeCiDashboard, monkeypatch: pytest.MonkeyPatch
) -> None:
    slack = post_day(monkeypatch, lang)
    assert slack.refused == []  # nothing Slack would refuse was sent
    posts = [p.payload for p in slack.channel_posts("C1")]
    native = [(b, m) for m in posts for b in m.get("blocks") or [] if b["type"].startswith("data_")]
    kinds = [b["type"] for b, _ in native]
    # The vendors' counts and Red on main's failing jobs as tables, the trend chart drawn.
    assert kinds.count("data_table") >= 2 and kinds.count("data_visualization") == 1
    for block, message in native:
        assert check_message([block]) is None
        if block["type"] == "data_table":
            assert 2 <= len(block["rows"]) <= 101 and block["caption"]
            assert 1 <= block["page_size"] <= 100
            assert len({len(row) for row in block["rows"]}) == 1
            assert all(c["type"] != "rich_text" for c in block["rows"][0])
        else:
            assert len(block["chart"]["series"]) <= 6 and len(block["title"]) <= 50
        fallback_of(block, message)
    # The chart is the day's five counts over the archived days (the fixture's archive holds
    # the days before thinly), the last the day's own.
    (drawn,) = [b for b, _ in native if b["type"] == "data_visualization"]
    series = {s["name"]: s["data"] for s in drawn["chart"]["series"]}
    assert len(series) == 5 and len({len(points) for points in series.values()}) == 1
    assert list(series.values())[3][-1] == {"label": "03-25", "value": 44}  # merged PRs
    # The PNG of the same chart is the reply after the chart, for clients that drop charts.
    parts = [p.part for p in slack.channel_posts("C1")]
    assert parts[parts.index("trends") + 1].startswith("file:vllm-report-2026-03-25-counts")
    shown = [line for m in posts for line in message_lines(m)]
    assert any(line.startswith("| AMD") for line in shown)  # AMD's row, first of the vendors
    if lang == "zh":  # no mrkdwn marker right against a Chinese character, anywhere
        found = [
            m for message in posts for t in mrkdwn_texts(message) for m in markers_next_to_cjk(t)
        ]
        assert found == []
        # Nor in rich_text, where one would be shown as typed: a marker of ours left behind.
        texts = [str(e.get("text", "")) for message in posts for e in rich_elements(message)]
        assert [m for text in texts for m in markers_next_to_cjk(text)] == []
        # The drawing it replaces, bold as mrkdwn markers, would have had them.
        before = [m for line in shown for m in markers_next_to_cjk(line)]
        assert len(before) > 10
