"""The day's figures as `check` reads them (bot/analyze/claims/counts.py): which population
each phrase counts, what that population is on the window's lists (a PR merged after the
window ends is not merged in it), "N of M" checked on both numbers, and which vendor a line
speaks for. Each test fails when a rule is broken: a figure called right that is wrong is
what a reader would see first.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.analyze.claims.counts import count_claims, line_vendor
from bot.model.report import ClosureSplit, ListName, Report
from tests.factories import REPO, WINDOW_0326, item

END = WINDOW_0326.end
BEFORE, AFTER = END - timedelta(hours=1), END + timedelta(hours=1)


def day() -> Report:
    """Five new PRs: one merged in the window, one merged just after it, one closed
    unmerged in it, one closed just after it, one open; two new issues; closings split
    into people's, the stale bot's and a bulk closing's, per list."""
    prs = [
        item(1, "pr", merged_at=BEFORE, closed_at=BEFORE),
        item(2, "pr", merged_at=AFTER, closed_at=AFTER),
        item(3, "pr", closed_at=BEFORE),
        item(4, "pr", closed_at=AFTER),
        item(5, "pr"),
        item(6, "pr", merged_at=END, closed_at=END),  # at the very end: not in the window
    ]
    issues = [item(10), item(11), item(12, closed_at=BEFORE)]
    lists = {
        ListName.NEW_ISSUES: (10, 11),
        ListName.CLOSED_ISSUES: (12, 13, 14, 15),
        ListName.NEW_PRS: (1, 2, 3, 4, 5, 6),
        ListName.MERGED_PRS: (1, 20, 21),
        ListName.CLOSED_UNMERGED_PRS: (3, 22, 23, 24, 25),
    }
    closures = {
        ListName.CLOSED_ISSUES: ClosureSplit(resolved=1, stale=3, low_effort=0),
        ListName.CLOSED_UNMERGED_PRS: ClosureSplit(resolved=1, stale=2, low_effort=2),
    }
    found = {it.number: it for it in (*prs, *issues)}
    return Report(REPO, WINDOW_0326, True, lists, found, closures)  # type: ignore[arg-type]


def said(text: str, *, strict: bool = False) -> list[tuple[str, str, str]]:
    return [(c.claimed, c.verdict, c.truth) for c in count_claims(text, text, day(), strict=strict)]


@pytest.mark.parametrize(
    ("text", "population", "truth"),
    [
        ("2 new issues today", "new_issues", 2),
        ("新 Issue：2", "new_issues", 2),
        ("4 issues were closed", "closed_issues", 4),
        ("关闭 Issue 4", "closed_issues", 4),
        ("6 new PRs", "new_prs", 6),
        ("新增 PR 6", "new_prs", 6),
        ("3 PRs were merged", "merged_prs", 3),
        ("合并 PR：3", "merged_prs", 3),
        ("5 PRs were closed without merging", "closed_unmerged_prs", 5),
        ("关闭未合并 PR 5", "closed_unmerged_prs", 5),
        ("8 new issues and PRs", "new_items", 8),  # both populations together
    ],
)
def test_each_phrase_counts_its_population(text: str, population: str, truth: int) -> None:
    assert said(text) == [(f"{population} {truth}", "correct", f"{population} {truth}")]
    wrong = text.replace(str(truth), str(truth + 1))
    assert said(wrong) == [(f"{population} {truth + 1}", "wrong", f"{population} {truth}")]


@pytest.mark.parametrize(
    ("text", "population", "truth"),
    [
        ("5 stale", "stale", 5),  # the stale bot's closings on both lists
        ("2 PRs closed as stale", "stale_prs", 2),
        ("3 issues closed as stale", "stale_issues", 3),
        ("2 closed as low-effort", "low_effort", 2),
        ("7 stale or bulk closings", "swept", 7),  # stale and bulk together
        # #2 and #6 merged, #4 closed at or after the end: open then, with #5.
        ("4 open PRs", "open_prs", 4),
    ],
)
def test_prose_we_publish_is_also_checked_for_sweeps_and_open_prs(
    text: str, population: str, truth: int
) -> None:
    figure = f"{population} {truth}"
    assert said(text, strict=True)[0] == (figure, "correct", figure)
    wrong = text.replace(str(truth), str(truth + 1), 1)
    assert said(wrong, strict=True)[0][1] == "wrong"
    # A reader's text is not read for them.
    assert population not in {claimed.split()[0] for claimed, _, _ in said(text)}


def test_no_closures_known_means_no_stale_closings() -> None:
    report = day()
    bare = Report(REPO, WINDOW_0326, True, report.lists, report.items, {})
    [claim] = count_claims("0 PRs closed as stale", "s", bare, strict=True)
    assert claim.verdict == "correct"
    [claim] = count_claims("0 issues closed as stale", "s", bare, strict=True)
    assert claim.verdict == "correct"


@pytest.mark.parametrize(
    "text",
    [
        "1 of the 6 new PRs were merged",  # #2 and #6 merged after the window: not in it
        "6 个新 PR 中，1 个已合并",  # a model's way of saying it
        "6 个新 PR 中有 1 个已合并",
        "6 new PRs came in, of which 1 were merged",
    ],
)
def test_a_share_is_checked_on_both_its_numbers(text: str) -> None:
    assert said(text) == [("1 of 6 new PRs merged", "correct", "1 of 6 new PRs merged")]
    for wrong in (text.replace("1 ", "2 ", 1), text.replace("6", "7")):
        assert said(wrong)[0][1] == "wrong", wrong


def test_a_count_between_two_points_is_not_the_window_s() -> None:
    """Red on main's blame range ("merged between the last pass and the first failure")
    counts the changes of that span, not the window's merged PRs."""
    assert said("上次通过（构建 #57890）与首次失败之间合并了 7 个改动：#37968") == []
    assert said("今天合并了 3 个 PR") == [("merged_prs 3", "correct", "merged_prs 3")]
    assert said("One of 7 changes merged between the last pass and the first failure") == []


def test_a_share_is_one_claim_not_also_a_count_of_new_prs() -> None:
    assert len(said("1 of the 6 new PRs were merged; 3 PRs were merged")) == 2


def test_every_figure_of_a_sentence_is_checked_and_carries_the_sentence() -> None:
    claims = count_claims("2 new issues, 6 new PRs and 9 PRs were merged", "as written", day())
    assert [(c.claimed, c.verdict) for c in claims] == [
        ("new_issues 2", "correct"),
        ("new_prs 6", "correct"),
        ("merged_prs 9", "wrong"),
    ]
    assert {c.quote for c in claims} == {"as written"}


def test_a_line_speaks_for_the_vendor_it_starts_with() -> None:
    names = {"amd": "amd", "amd/rocm": "amd", "nvidia": "nvidia", "intel": "intel"}
    assert line_vendor("NVIDIA: 9 merged PRs · 2 in review", names) == "nvidia"
    assert line_vendor("- 🎯 AMD/ROCm：11 merged PRs", names) == "amd"
    assert line_vendor("> Intel: 1 merged PR", names) == "intel"
    assert line_vendor("NVIDIA and AMD: 3 merged PRs", names) is None  # not its name alone
    assert line_vendor("Today NVIDIA: 3", names) is None  # its name is not where it starts
    # The longest name first: "AMD/ROCm:" is AMD's whichever name is tried first.
    assert line_vendor("AMD/ROCm: 2 merged PRs", {"amd": "a", "amd/rocm": "r"}) == "r"
    assert line_vendor("AMD/ROCm: 2 merged PRs", {"amd/rocm": "r", "amd": "a"}) == "r"
