"""Ties no link states, told once as a story: a regression report opened after a merged
change to what it names, and a CI-failure report with the PR that works on the test it
names. What a reader sees: the two side by side, in words that claim no more than the
facts (after the change, not "caused by"; the test's fix, not "fixes #N").
"""

from __future__ import annotations

from datetime import timedelta

from bot.analyze import analyze
from bot.model.report import ActivityItem, Report
from bot.model.rules import load_rules
from formatters.markdown import render_markdown
from tests.factories import REPO, WINDOW_0326, item

RULES = load_rules()
T = WINDOW_0326.start + timedelta(hours=2)

FUSION = item(
    38401,
    "pr",
    title="[Perf] Enable allreduce+RMSNorm fusion by default",
    body="Turns on the allreduce+RMSNorm fusion pass for TP>1 on Hopper and Blackwell.",
    created_at=T - timedelta(days=3),
    closed_at=T,
    merged_at=T,
    author="ilmarkov",
)
COLLAPSE = item(
    38402,
    title="[Bug]: Accuracy collapse with allreduce fusion on B200",
    labels=("bug",),
    body="GSM8K accuracy drops from 0.95 to 0.02 on B200 with TP=4; disabling the allreduce "
    "fusion pass restores it.",
    created_at=T + timedelta(hours=3),
    author="someone",
)


def report(*items: ActivityItem) -> Report:
    return analyze(list(items), WINDOW_0326, repo=REPO, rules=RULES, complete=True)


def relation(found: Report, member: int) -> str | None:
    assert found.sections is not None
    story = found.sections.story_of(member)
    if story is None:
        return None
    return next((m.relation for m in story.members if m.number == member), None)


def test_a_regression_report_after_a_merged_change_to_what_it_names_is_told_with_it() -> None:
    found = report(FUSION, COLLAPSE)
    assert relation(found, 38402) == "reported_after"
    text = render_markdown(found, "en")
    assert "reported after it [#38402]" in text
    assert "caused by" not in text
    zh = render_markdown(found, "zh")
    assert "合并后报告的问题：[#38402]" in zh


def test_no_tie_without_the_name_or_before_the_change() -> None:
    """A report opened before the merge, or one naming nothing the change named, is no
    report after that change."""
    earlier = report(FUSION, _replace(COLLAPSE, created_at=T - timedelta(hours=1)))
    assert relation(earlier, 38402) is None
    other = _replace(COLLAPSE, title="[Bug]: Accuracy collapse with FP8 KV cache on B200")
    other = _replace(other, body="GSM8K accuracy drops from 0.95 to 0.02 with fp8 KV cache.")
    assert relation(report(FUSION, other), 38402) is None


FAILURE = item(
    38403,
    title="[CI Failure]: test_fused_moe_mxfp4 fails on MI355",
    labels=("ci-failure",),
    body="`tests/kernels/moe/test_mxfp4.py::test_fused_moe_mxfp4` fails since this morning.",
    created_at=T,
    author="AndreasKaratzas",
)
TEST_FIX = item(
    38404,
    "pr",
    title="[ROCm][CI] Fix test_fused_moe_mxfp4 tolerance on gfx950",
    body="Loosens the tolerance of the mxfp4 MoE test on gfx950.",
    created_at=T + timedelta(minutes=10),
    closed_at=T + timedelta(minutes=34),
    merged_at=T + timedelta(minutes=34),
    author="AndreasKaratzas",
)


def test_a_ci_failure_and_the_pr_on_the_test_it_names_are_one_story() -> None:
    found = report(FAILURE, TEST_FIX)
    assert {relation(found, 38403), relation(found, 38404)} & {"test_failure", "fixes_test"}
    text = render_markdown(found, "en")
    assert "[#38404]" in text.split("## 📋")[0] and "[#38403]" in text.split("## 📋")[0]
    assert ("for the CI failure [#38403]" in text) or ("test fix in [#38404]" in text)


def test_a_pr_on_another_test_or_landed_before_the_failure_is_no_fix_of_it() -> None:
    other = _replace(TEST_FIX, title="[ROCm][CI] Fix test_rms_norm tolerance on gfx950")
    other = _replace(other, body="Loosens the tolerance of the RMSNorm test.")
    assert relation(report(FAILURE, other), 38404) is None
    landed = T - timedelta(hours=1)
    before = _replace(TEST_FIX, created_at=landed - timedelta(hours=1), closed_at=landed)
    before = _replace(before, merged_at=landed)
    assert relation(report(FAILURE, before), 38404) is None


def _replace(found: ActivityItem, **changes: object) -> ActivityItem:
    from dataclasses import replace

    return replace(found, **changes)  # type: ignore[arg-type]
