"""Open breakage on real days of the 2025 plugin records (the fake GitHub serves each fix
open from its creation day to its merge): what was still broken at a day's end, with its
age, on every surface the radar has."""

from __future__ import annotations

import json

from bot.analyze.counts import build_report
from bot.features.radar.message import radar_message
from bot.features.radar.outline import RadarPart
from bot.features.radar.render import (
    render_radar_markdown,
)
from bot.features.radar.render_json import render_radar_json
from bot.features.radar.service import RadarService
from bot.platforms.registry import DISCORD, SLACK, chat_parts
from formatters.markdown import render_markdown
from tests.fakes.github_api import FakeGitHub
from tests.features.radar.test_service import radar, window  # noqa: F401
from tests.slack_text import message_text

TPU = "https://github.com/vllm-project/tpu-inference/pull/"
REVIVE = "[CI] Revive MM model, catch up with vLLM upstream change."


def test_a_fix_still_in_review_at_the_days_end_is_open_breakage_on_every_surface(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    # tpu-inference#790, opened 2025-10-06 (00:00 UTC) and merged later: at the end of the
    # Shanghai day 2025-10-06 (16:00 UTC) it had been open 0.7 days, naming no upstream PR.
    found = radar[0].radar(window("2025-10-06"))
    assert [(b.plugin_repo, b.number, b.why, b.age_days) for b in found.open] == [
        ("vllm-project/tpu-inference", 790, "broken", 0.7)
    ]
    markdown = render_radar_markdown(found)
    assert (
        f"## Open breakage\n\n- [tpu-inference#790]({TPU}790) \\[CI\\] Revive MM model, catch up "
        "with vLLM upstream change. — says upstream broke it, open 0.7 days"
    ) in markdown
    zh = render_radar_markdown(found, "zh")
    assert "## 未解决的故障" in zh and "— 称上游改动导致故障，已 0.7 天未解决" in zh
    (told,) = json.loads(render_radar_json(found))["open"]
    assert (told["plugin_number"], told["why"], told["age_days"]) == (790, "broken", 0.7)
    assert told["opened_at"] == "2025-10-06T00:00:00+00:00"
    slack = message_text(radar_message(SLACK, found, "en"))
    assert f"<{TPU}790|tpu-inference#790> {REVIVE} — says upstream broke it, open 0.7 days" in slack
    embeds = radar_message(DISCORD, found, "zh")["embeds"]
    shown = "\n".join(e["description"] for e in embeds)
    assert "**未解决的故障**" in shown
    assert f"[tpu-inference#790]({TPU}790)" in shown and "已 0.7 天未解决" in shown


def test_the_daily_section_and_its_first_message_say_what_is_still_broken(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    found = radar[0].radar(window("2025-10-06"))  # no culprit that day: only the open fix
    report = build_report([], found.window, repo="vllm-project/vllm", complete=True)
    report = report.with_part(RadarPart(found))
    section = render_markdown(report, "en").split("## 🔌 Plugins", 1)[1].split("\n## ", 1)[0]
    assert "### Still broken at the day's end" in section
    assert f"- [tpu-inference#790]({TPU}790) {REVIVE} — says upstream broke it, open 0.7" in section
    first = json.dumps(chat_parts("slack", report, "en")[0][1], ensure_ascii=False)
    assert "Plugins: still broken in tpu-inference" in first
    zh = json.dumps(chat_parts("discord", report, "zh")[0][1], ensure_ascii=False)
    assert "插件：tpu-inference 仍有未解决的故障" in zh


def test_a_fix_in_review_under_its_culprit_is_told_once(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    # 2025-09-12: vllm-gaudi#166 (for upstream #24548) was in review at the day's end and
    # is shown under its culprit; tpu-inference#691 names a commit no PR merged.
    found = radar[0].radar(window("2025-09-12"))
    fixes = {(f.plugin_repo, f.number) for c in found.culprits for f in c.fixes}
    assert ("vllm-project/vllm-gaudi", 166) in fixes
    assert [(b.number, b.upstream) for b in found.open] == [(691, ("0377802",))]
    markdown = render_radar_markdown(found)
    still = markdown.split("## Open breakage", 1)[1].split("\n## ", 1)[0]
    assert "vllm-gaudi#166" not in still and "vllm-gaudi#166" in markdown
    assert "tpu-inference#691" in still and "names vllm@0377802 as the cause, open 0.7" in still


def test_a_correction_takes_the_cause_off_open_breakage_too(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    # 2025-09-23: vllm-gaudi#241 ("Fix due upstream change 25510") was in review at the
    # day's end, under its culprit #25510. Someone says #25510 did not break it.
    service, _ = radar
    before = service.radar(window("2025-09-23"))
    assert 241 in {f.number for c in before.culprits for f in c.fixes}
    service.correct("vllm-gaudi#241", "25510", "cli")
    after = service.radar(window("2025-09-23"))
    assert 241 not in {f.number for c in after.culprits for f in c.fixes}
    assert 241 not in {b.number for b in after.open}  # its only named cause was wrong
    archived = service.archived(window("2025-09-23"))
    assert archived is not None and archived.open == after.open


def test_open_breakage_without_a_culprit_has_no_empty_culprits_heading(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    """2025-10-06 named no culprit, and one fix was still open: the radar does not open
    with an empty "Upstream changes that broke plugins / None named" before it."""
    found = radar[0].radar(window("2025-10-06"))
    assert found.culprits == () and found.open
    for lang, heading, none in (
        ("en", "## Upstream changes that broke plugins", "None named"),
        ("zh", "## 导致插件故障的上游改动", "没有被点名"),
    ):
        markdown = render_radar_markdown(found, lang)
        assert heading not in markdown and none not in markdown
        _, rest = markdown.split("\n## ", 1)
        assert rest.startswith("未解决的故障" if lang == "zh" else "Open breakage")


def test_a_window_without_culprits_or_open_breakage_says_none_was_confirmed(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    found = radar[0].radar(window("2025-03-20"))
    assert found.culprits == () and found.open == ()
    markdown = render_radar_markdown(found)
    assert (
        "## Upstream changes that broke plugins\n\n"
        "No upstream change was confirmed as breaking a plugin in this window."
    ) in markdown
    assert "本时间段没有经 GitHub 确认导致插件故障的上游改动。" in render_radar_markdown(
        found, "zh"
    )


def test_the_plugins_section_is_a_section_to_show_alone(
    radar: tuple[RadarService, FakeGitHub],  # noqa: F811
) -> None:
    """`vllm-report show DAY --section plugins` (and `/vllm-report plugins`): the Plugins
    section alone, not "unknown section"."""
    from bot.features import section_words
    from bot.model.asking import section
    from bot.model.rules import load_rules

    assert section("plugins", load_rules(None), section_words()) == "plugins"
    found = radar[0].radar(window("2025-10-06"))
    report = build_report([], found.window, repo="vllm-project/vllm", complete=True)
    report = report.with_part(RadarPart(found))
    alone = render_markdown(report, "en", only=["plugins"])
    assert "## 🔌 Plugins" in alone and "### Still broken at the day's end" in alone
    assert alone.count("\n## ") == 1  # the header, then the one section
