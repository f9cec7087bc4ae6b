"""The measure of what a model costs a report (tests.prose.script.missing_lines): a line
whose quote a model said in Chinese, or beside which it added a Chinese quote, is kept; a
line gone, or a fact cut from it, is missing. Were it blind, the prose tests that ask for
no missing line would pass whatever the model's text did to a report."""

from __future__ import annotations

from tests.prose.script import missing_lines

PLAIN = """\
   - 影响：报告写道「All 8 TP workers fail」；已有修复 PR：#37993「[ROCm] Fall back」（审阅中）。
   - 影响：已有修复 PR：#38066「fix W4A8-INT」（审阅中）。
   - 影响：作者实测加速 3-4%。"""


def test_a_quote_said_in_chinese_or_added_beside_keeps_the_line() -> None:
    written = """\
   - 影响：报告写道「✍️ 8 个 worker 失败」；已有修复 PR：#37993「[ROCm] Fall back」（审阅中）。
   - 影响：作者说明「✍️ 激活从未量化为 int8」；已有修复 PR：#38066「fix W4A8-INT」（审阅中）。
   - 影响：作者实测加速 3-4%；作者说明「✍️ 在 H100 上」。"""
    assert missing_lines(PLAIN, written) == []


def test_a_line_gone_or_cut_is_missing() -> None:
    written = """\
   - 影响：已有修复 PR：#37993「[ROCm] Fall back」（审阅中）。
   - 影响：已有修复 PR：#38066「fix W4A8-INT」（审阅中）。"""
    assert missing_lines(PLAIN, written) == [PLAIN.splitlines()[0], PLAIN.splitlines()[2]]
