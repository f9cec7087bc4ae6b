"""How the radar ends and joins its sentences (issue 53): a sentence is ended once, even
after a GitHub message that ends with its own stop ("Git Repository is empty." was told as
"…is empty.."); what is incomplete is said short, a note every plugin gave once, in the
radar's language."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from bot.features.radar.message import radar_message
from bot.features.radar.model import Pin, Radar, Unread
from bot.features.radar.phrases import note_text, sentence, unread_reason, window_label
from bot.features.radar.render import render_radar_markdown, told_notes
from bot.model.windows import Window
from bot.platforms.registry import DISCORD, SLACK

WEEK = Window(
    datetime(2025, 9, 1, tzinfo=UTC), datetime(2025, 9, 8, tzinfo=UTC), "UTC", "last 7 days"
)
PLUGINS = ("vllm-project/vllm-gaudi", "vllm-project/vllm-ascend", "vllm-project/vllm-spyre")
EMPTY = "GitHub could not be read: GitHub answered 409: Git Repository is empty."
LIMIT = (
    "GitHub's rate limit is used up (it resets at 2025-09-08 10:00 UTC), longer than the 300 s "
    "we may wait; set GITHUB_TOKEN for a higher limit. Try again after the reset."
)
# A doubled stop: ".." not part of "..." nor a range of days (`2025-09-01..2025-09-07`).
DOUBLED = re.compile(r"(?<!\.)\.\.(?![.\d])|[.。]。")


def radar(notes: tuple[str, ...] = (), unread: tuple[Unread, ...] = ()) -> Radar:
    pins = tuple(Pin(repo, "VLLM_STABLE_COMMIT", None, None, None, EMPTY) for repo in PLUGINS)
    every = (*(u.note for u in unread), *notes)
    return Radar(WEEK, PLUGINS, (), (), pins, not every, every, unread=unread)


@pytest.mark.parametrize(
    ("text", "lang", "ended"),
    [
        ("Git Repository is empty.", "en", "Git Repository is empty."),
        ("Git Repository is empty", "en", "Git Repository is empty."),
        ("Git Repository is empty.. ", "en", "Git Repository is empty."),
        ("Git Repository is empty.", "zh", "Git Repository is empty。"),
        ("仓库为空。", "zh", "仓库为空。"),
        ("did you mean 'gaudi'?", "en", "did you mean 'gaudi'?"),
        ("and so on...", "en", "and so on..."),
        ("(vllm-xpu: not found)", "en", "(vllm-xpu: not found)."),
    ],
)
def test_a_sentence_is_ended_once(text: str, lang: str, ended: str) -> None:
    assert sentence(text, lang) == ended


def test_no_surface_ends_a_sentence_with_a_doubled_stop() -> None:
    """Every pin unknown for one reason is said once ("Pins: …"), after GitHub's own stop."""
    found = radar(
        notes=("vllm-project/vllm-spyre: some of this window could not be collected.",),
        unread=(Unread("vllm-project/vllm-ascend", LIMIT),),
    )
    surfaces = {
        "markdown": render_radar_markdown(found),
        "markdown zh": render_radar_markdown(found, "zh"),
    }
    for platform in (SLACK, DISCORD):
        for lang in ("en", "zh"):
            message = radar_message(platform, found, lang)
            surfaces[f"{platform.name} {lang}"] = json.dumps(message, ensure_ascii=False)
    for name, text in surfaces.items():
        assert not DOUBLED.search(text), (name, DOUBLED.search(text))
    assert (
        "\nPins: GitHub could not be read: GitHub answered 409: Git Repository is empty.\n"
        in (surfaces["markdown"])
    )
    assert (
        "锁定版本：无法读取 GitHub：GitHub answered 409: Git Repository is empty。"
        in (surfaces["markdown zh"])
    )
    assert "(vllm-ascend: rate limit used up): set GITHUB_TOKEN or wait" in surfaces["markdown"]


def test_a_note_every_plugin_gave_is_said_once_and_in_chinese() -> None:
    up_to = "window in progress: activity up to 2025-09-08 08:00 (UTC+8)"
    every = radar(notes=tuple(f"{repo}: {up_to}" for repo in PLUGINS))
    assert told_notes(every) == [f"{up_to}."]
    assert told_notes(every, "zh") == ["时间窗口尚未结束：活动截至 2025-09-08 08:00 (UTC+8)。"]
    two = radar(notes=tuple(f"{repo}: {up_to}" for repo in PLUGINS[:2]))
    assert told_notes(two) == [f"vllm-gaudi, vllm-ascend: {up_to}."]
    assert told_notes(radar(notes=("a note of another form",)), "zh") == [
        "a note of another form。"
    ]


@pytest.mark.parametrize(
    ("note", "zh"),
    [
        (  # bot.features.radar.service's words (test_service checks them in English)
            "6 upstream changes named as causes could not be checked with GitHub (one radar "
            "makes at most 2 requests to GitHub for them): #30002, #30003, #30004, #30005, "
            "#30007, abc1234de; they are not shown as culprits",
            "6 个被点名为原因的上游改动未能向 GitHub 核实"
            "（一次雷达最多为此向 GitHub 发出 2 个请求）："
            "#30002、#30003、#30004、#30005、#30007、abc1234de；它们不会显示为导致故障的改动",
        ),
        (  # GitHub's words in the parentheses, with their own parentheses and colons
            "12 upstream changes named as causes could not be checked with GitHub (GitHub could "
            "not be read: GitHub rejected the query for 'x' (422): no): #1, #2 and 10 more; they "
            "are not shown as culprits",
            "12 个被点名为原因的上游改动未能向 GitHub 核实（无法读取 GitHub：GitHub rejected the "
            "query for 'x' (422): no）：#1、#2 及另外 10 个；它们不会显示为导致故障的改动",
        ),
        (
            "some of this window could not be collected: counts may be low",
            "本时间段有部分未能收集：数字可能偏低",
        ),
    ],
)
def test_the_radars_notes_read_in_chinese(note: str, zh: str) -> None:
    assert note_text("zh", note) == zh
    assert note_text("en", note) == note


@pytest.mark.parametrize(
    ("why", "short", "fix"),
    [
        ("GitHub has no repository 'vllm-project/x' (or the token cannot see it)", "not found",
         "names"),
        ("GitHub refused the token (401 Bad credentials): check GITHUB_TOKEN", "token refused",
         "token"),
        (LIMIT, "rate limit used up", "limit"),
        ("GitHub at https://ghe.example:443/api/v3 did not answer within 15 s; try again later",
         "no answer in time", "later"),
        ("cannot reach GitHub at https://api.github.com (Name or service not known); check the "
         "network or GITHUB_API_URL", "GitHub unreachable", "network"),
        ("GitHub answered 409: Git Repository is empty.", "GitHub error (409)", "later"),
        ("something else entirely", "GitHub error", "later"),
    ],
)  # fmt: skip
def test_why_a_plugin_could_not_be_read_is_said_short(why: str, short: str, fix: str) -> None:
    assert unread_reason("en", why) == (short, fix)


def test_the_window_label_of_the_last_days_is_chinese_in_chinese() -> None:
    assert window_label("zh", "last 7 days") == "最近 7 天"
    assert window_label("en", "last 7 days") == "last 7 days"
    assert window_label("zh", "2025-09-01..2025-09-07") == "2025-09-01..2025-09-07"
    assert render_radar_markdown(radar(), "zh").startswith("# 插件故障雷达 · 最近 7 天\n")
    title = radar_message(SLACK, radar(), "zh")["blocks"][0]["text"]["text"]
    assert title == "插件故障雷达 · 最近 7 天"
