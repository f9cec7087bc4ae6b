"""Answers are drawn once per report and question, and never stale."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.analyze.counts import build_report
from bot.commands.drawn import drawn, key_of
from tests.factories import REPO, WINDOW_0326, item


def test_the_same_question_is_drawn_once_and_a_newer_report_again() -> None:
    report = build_report(
        [item(1, created_at=WINDOW_0326.start)], WINDOW_0326, repo=REPO, complete=True
    )
    report = replace(report, generated_at=WINDOW_0326.end)
    draws: list[int] = []

    def draw() -> list[dict[str, object]]:
        draws.append(1)
        return [{"text": f"drawing {len(draws)}"}]

    first = drawn(key_of("slack", report, "en", ("hot",), None), draw)
    again = drawn(key_of("slack", report, "en", ("hot",), None), draw)
    assert first == again and len(draws) == 1
    drawn(key_of("slack", report, "zh", ("hot",), None), draw)  # another language
    drawn(key_of("discord", report, "en", ("hot",), None), draw)  # another platform
    newer = replace(report, generated_at=WINDOW_0326.end + timedelta(hours=1))
    drawn(key_of("slack", newer, "en", ("hot",), None), draw)  # the day made again
    assert len(draws) == 4
