"""The claims checker's rules, one by one, on a real day analysed in memory (2026-03-25):
each test fails when its rule is broken (the mutation run of tools/mutation.py --truth
measures how many small mistakes in bot/analyze/claims/ they catch).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from functools import cache

import pytest

from bot.analyze import analyze
from bot.analyze.claims import Facts, claims_in, state_at, title_verdict, wrong
from bot.analyze.claims.checks import linked
from bot.analyze.references import links
from bot.model.claims import Claim
from bot.model.report import ListName, Report
from bot.model.rules import load_rules
from bot.model.windows import Window
from bot.prose.vetting import topics_of
from tests.anchor_data import anchor_days, anchor_items, as_activity
from tests.factories import REPO, item

RULES = load_rules()


@cache
def day() -> Report:
    found = anchor_days()[2]
    window = Window(found.start, found.end, "Asia/Shanghai", found.label)
    items = [as_activity(it) for it in anchor_items()]
    return analyze(items, window, repo="vllm-project/vllm", rules=RULES, complete=True)


def facts(report: Report | None = None) -> Facts:
    report = report or day()
    return Facts(report, {}, topics_of(report), RULES.vendor_names())


def verdicts(text: str, kind: str, *, strict: bool = False, of: Facts | None = None) -> list[str]:
    return [
        f"{c.number} {c.claimed} {c.verdict}"
        for c in claims_in(text, of or facts(), strict=strict)
        if c.type == kind
    ]


def only(text: str, kind: str, **options: object) -> Claim:
    found = [c for c in claims_in(text, facts(), **options) if c.type == kind]  # type: ignore[arg-type]
    assert len(found) == 1, found
    return found[0]


# -- states as the window ended -------------------------------------------------------------


def test_an_open_issue_is_open_and_a_merged_pr_merged() -> None:
    assert verdicts("#38077 is still open.", "state") == ["38077 open correct"]
    assert verdicts("#38077 was closed.", "state") == ["38077 closed wrong"]
    assert verdicts("#37607 was merged.", "state") == ["37607 merged correct"]
    assert verdicts("#37607 is in review.", "state") == ["37607 open wrong"]


def test_a_merged_pr_also_counts_as_closed_but_not_the_other_way() -> None:
    assert verdicts("#37607 (closed)", "state") == ["37607 closed correct"]
    assert verdicts("#31328 (merged)", "state") == ["31328 merged wrong"]  # closed unmerged


def test_a_pr_merged_after_the_window_was_open_in_it() -> None:
    report = day()
    pr = report.items[38086]
    late = report.window.end + timedelta(hours=1)
    moved = replace(
        report, items={**report.items, 38086: replace(pr, merged_at=late, closed_at=late)}
    )
    assert state_at(moved.items[38086], moved) == "open"
    assert verdicts("#38086 was merged.", "state", of=facts(moved)) == ["38086 merged wrong"]
    at_end = replace(pr, merged_at=report.window.end, closed_at=report.window.end)
    moved = replace(report, items={**report.items, 38086: at_end})  # the end is not inside
    assert state_at(moved.items[38086], moved) == "open"
    just = report.window.end - timedelta(seconds=1)
    inside = replace(pr, merged_at=just, closed_at=just)
    moved = replace(report, items={**report.items, 38086: inside})
    assert state_at(moved.items[38086], moved) == "merged"


def test_done_words_mean_merged_of_a_pr_and_closed_of_an_issue() -> None:
    assert verdicts("#38077 was mitigated.", "state") == ["38077 closed wrong"]
    assert verdicts("#38107 已解决。", "state") == ["38107 closed correct"]
    assert verdicts("#38086 修复了 RDNA4 的 FP8 MoE。", "state") == ["38086 merged wrong"]
    assert verdicts("#37607 修复了默认分配器。", "state") == ["37607 merged correct"]


# -- authors --------------------------------------------------------------------------------


def test_an_author_is_the_whole_login_not_a_part_of_it() -> None:
    assert verdicts("#38077 by hoshinoyouyou.", "author") == ["38077 hoshinoyouyou correct"]
    assert verdicts("#38077 by HoshinoYouyou.", "author") == ["38077 HoshinoYouyou correct"]
    assert verdicts("#38077 by hoshino.", "author") == ["38077 hoshino wrong"]
    assert verdicts("#38077 by hoshinoyouyou2.", "author") == ["38077 hoshinoyouyou2 wrong"]


def test_the_nearest_item_before_the_cue_is_the_one_authored() -> None:
    text = "#37607 was merged and #38077 by hoshinoyouyou is open."
    assert verdicts(text, "author") == ["38077 hoshinoyouyou correct"]
    # "#37607 and #38077 by …" lists both: see test_claims_subjects.
    assert verdicts("由 `fadara01` 提交的 #37607。", "author") == ["37607 fadara01 correct"]


def test_english_after_by_is_no_author_unless_someone_has_that_login() -> None:
    assert verdicts("#38086 improves MoE by adding configs, by default.", "author") == []
    assert verdicts("#38086 helps by correctly reading gfx12.", "author") == []
    assert verdicts("#38086 by vllmellm.", "author") == ["38086 vllmellm correct"]


# -- counts ---------------------------------------------------------------------------------


def test_every_count_is_checked_exactly() -> None:
    assert verdicts("29 new issues.", "count") == ["None new_issues 29 correct"]
    assert verdicts("30 new issues.", "count") == ["None new_issues 30 wrong"]
    assert verdicts("28 new issues.", "count") == ["None new_issues 28 wrong"]
    assert verdicts("合并 PR 44", "count") == ["None merged_prs 44 correct"]
    assert verdicts("合并 PR 45", "count") == ["None merged_prs 45 wrong"]
    assert verdicts("121 new issues and PRs", "count") == ["None new_items 121 correct"]


def test_a_share_is_checked_on_both_its_figures() -> None:
    report = day()
    new = len(report.lists[next(n for n in report.lists if n.value == "new_prs")])
    merged = sum(
        1
        for n in report.lists[next(n for n in report.lists if n.value == "new_prs")]
        if report.items[n].merged_at is not None and report.items[n].merged_at < report.window.end
    )
    right = f"{merged} of the {new} new PRs were merged."
    assert verdicts(right, "count") == [f"None {merged} of {new} new PRs merged correct"]
    assert verdicts(f"{merged} of the {new + 1} new PRs were merged.", "count")[0].endswith("wrong")
    assert verdicts(f"{merged + 1} of the {new} new PRs were merged.", "count")[0].endswith("wrong")


def test_a_vendors_figures_are_the_vendors_not_the_days() -> None:
    line = "NVIDIA: 9 merged PRs · 11 PRs in review · 4 new issues and draft PRs"
    assert verdicts(line, "count") == [
        "None nvidia merged 9 correct",
        "None nvidia review 11 correct",
        "None nvidia new 4 correct",
    ]
    assert verdicts("NVIDIA: 11 merged PRs", "count") == ["None nvidia merged 11 wrong"]
    assert verdicts("## 🎯 Intel\n### Merged PRs (2)", "count") == ["None intel merged 2 correct"]
    assert verdicts("## 🎯 Intel\n- 10 issues closed today", "count") == []


# -- kinds, titles, links, vendors -------------------------------------------------------------


def test_a_kind_named_before_the_number_is_checked() -> None:
    assert verdicts("Issue #38077 crashes.", "kind") == ["38077 issue correct"]
    assert verdicts("PR #38077 crashes.", "kind") == ["38077 pr wrong"]
    assert verdicts("RFC #38069 asks.", "kind") == ["38069 rfc correct"]
    assert verdicts("RFC #38077 asks.", "kind") == ["38077 rfc wrong"]


def test_a_title_with_words_the_item_lacks_is_wrong() -> None:
    assert only("#38077 ([Bug]: Qwen3.5-9B answer)", "title").verdict == "correct"
    assert only("#38077 ([Bug]: Qwen3.5-27B answer)", "title").verdict == "wrong"


def test_a_fix_link_needs_a_body_title_or_story_in_strict_mode() -> None:
    assert verdicts("#37607 fixes #38077.", "reference", strict=True) == [
        "37607 #37607 answers #38077 wrong"
    ]
    assert verdicts("#37607 fixes #38077.", "reference") == [
        "37607 #37607 answers #38077 unverifiable"
    ]
    assert verdicts("#38169 reverts #38050.", "reference", strict=True) == []  # no link verb
    assert verdicts("#38169 fixes #38050.", "reference", strict=True) == [
        "38169 #38169 answers #38050 correct"
    ]


def test_an_item_under_a_vendors_heading_must_be_that_vendors() -> None:
    text = "## 🎯 AMD / ROCm\n- #38086 is fast.\n- #37607 is fast.\n  - related #38050 (merged)"
    assert verdicts(text, "vendor") == ["38086 amd correct", "37607 amd wrong"]


def test_a_vendor_named_beside_a_number_in_our_prose_must_be_its() -> None:
    assert verdicts("AMD's #37607 adds tcmalloc.", "vendor", strict=True) == ["37607 amd wrong"]
    assert verdicts("AMD's #38086 tunes RDNA4.", "vendor", strict=True) == ["38086 amd correct"]
    assert verdicts("AMD's #37607 adds tcmalloc.", "vendor") == []  # someone else's report


# -- what is a quote ------------------------------------------------------------------------


def test_a_title_after_its_number_is_a_quote() -> None:
    row = "- #37607 [CPU][UX][Perf] Enable tcmalloc by default — merged · fadara01"
    assert verdicts(row, "author") == ["37607 fadara01 correct"]
    cut = (
        "- #38086 [ROCm] Enable VLLM triton FP8 moe for gfx1201, tuned for… — in review · vllmellm"
    )
    assert verdicts(cut, "author") == ["38086 vllmellm correct"]
    assert verdicts(cut, "state") == ["38086 open correct"]


def test_an_items_own_words_are_a_quote() -> None:
    said = day().sections.what[36716]  # type: ignore[union-attr]
    assert "by up to 5%" in said
    assert claims_in(f"- {said}", facts()) == []


# -- what links two items -------------------------------------------------------------------


def test_two_items_are_linked_when_either_names_the_other_in_this_repo_or_one_story() -> None:
    report = day()
    fix = item(
        90001,
        "pr",
        title="[Bugfix] x",
        body="Fixes https://github.com/vllm-project/vllm/issues/90002",
    )
    bug = item(90002, "issue", title="[Bug] y")
    assert linked(fix, bug, report) and linked(bug, fix, report)  # named, either way round
    elsewhere = item(
        90003, "pr", title="[Bugfix] x", body="Fixes https://github.com/other/repo/issues/90002"
    )
    assert not linked(elsewhere, bug, report) and not linked(bug, elsewhere, report)
    in_title = item(90004, "pr", title="[Bugfix] fix #90002")
    assert linked(in_title, bug, report)
    # Neither names the other, but the report tells them as one story.
    first, second = report.items[37161], report.items[37163]  # "Fix issue #37103: …", twice
    assert not any(lk.target == 37163 for lk in links(first.title, first.body, REPO, 37161))
    assert not any(lk.target == 37161 for lk in links(second.title, second.body, REPO, 37163))
    assert linked(first, second, report)
    assert not linked(first, report.items[38077], report)
    assert not linked(first, second, replace(report, sections=None))


# -- an item's vendor under a vendor's heading ------------------------------------------------


def test_a_wrong_vendor_item_says_what_it_is_instead() -> None:
    text = "## 🎯 AMD / ROCm\n- #99999 and #38086 are fast.\n- #37607 is fast.\n- #38077 x"
    found = {c.number: c for c in claims_in(text, facts()) if c.type == "vendor"}
    assert sorted(found) == [37607, 38077, 38086]  # an unknown number does not end the line
    assert (found[38086].verdict, found[38086].truth) == ("correct", "amd")
    assert (found[37607].verdict, found[37607].truth) == ("wrong", "topics: ci_build, cpu")
    assert (found[38077].verdict, found[38077].truth) == ("wrong", "no vendor")
    assert found[37607].quote == "#37607 is fast." and found[37607].claimed == "amd"


# -- a state said by the item's kind, in its paragraph ---------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. RFC #38069: n-gram in MRv2\n   - The RFC was merged.", ["38069 merged wrong"]),
        ("1. RFC #38069: n-gram in MRv2\n   - 观点与状态：该 RFC 已合并。", ["38069 merged wrong"]),
        ("1. #38069 and #37607\n   - The PR was merged.", ["37607 merged correct"]),
        ("1. #38069 and #37607\n   - The issue was merged.", []),  # an RFC is no plain issue
        ("1. #38077 and #37607\n   - The issue was merged.", ["38077 merged wrong"]),
        ("1. #37607\n   - It was merged.", ["37607 merged correct"]),
        ("1. #38069 and #38077\n   - It was merged.", []),  # two items, no kind: nobody knows
        ("1. #38086 and #38109\n   - 44 PRs were merged.", []),  # a count, not a state
        ("1. #38086 and #38109\n   - 3 个 PR 已合并。", []),
        ("1. #38086\n   - Nothing was said.", []),
    ],
)
def test_a_state_without_a_number_is_said_of_the_paragraphs_item(
    text: str, expected: list[str]
) -> None:
    assert verdicts(text, "state") == expected


@pytest.mark.parametrize(
    "said",
    [
        "{m} of {n} new PRs merged.",
        "{n} 个新 PR 中有 {m} 个合并。",
        "{n} new PRs opened, of which {m} were merged.",
    ],
)
def test_a_share_is_read_the_same_in_each_of_its_forms(said: str) -> None:
    """92 new PRs on 03-25, 12 of them merged in the window: each form binds the right
    figure to each role, and says the truth when it is wrong."""
    right = [c for c in claims_in(said.format(m=12, n=92), facts()) if c.type == "count"]
    assert [(c.claimed, c.verdict) for c in right] == [("12 of 92 new PRs merged", "correct")]
    assert right[0].quote == said.format(m=12, n=92)
    for m, n in ((11, 92), (12, 93), (92, 12)):
        (wrong_one,) = [c for c in claims_in(said.format(m=m, n=n), facts()) if c.type == "count"]
        assert (wrong_one.claimed, wrong_one.verdict) == (f"{m} of {n} new PRs merged", "wrong")
        assert wrong_one.truth == "12 of 92 new PRs merged"


def test_a_pr_merged_at_the_windows_end_is_not_merged_in_the_share() -> None:
    report = day()
    pr = next(
        report.items[n] for n in report.lists[ListName.NEW_PRS] if not report.items[n].merged_at
    )
    at_end = replace(pr, merged_at=report.window.end, closed_at=report.window.end)
    moved = replace(report, items={**report.items, pr.number: at_end})
    (claim,) = [c for c in claims_in("12 of 92 new PRs merged.", facts(moved)) if c.type == "count"]
    assert claim.verdict == "correct"


# -- the truth shown beside each claim --------------------------------------------------------


def test_wrong_keeps_exactly_the_wrong_claims() -> None:
    found = claims_in("#37607 is in review. #37607 was merged.", facts())
    assert [c.verdict for c in found if c.type == "state"] == ["wrong", "correct"]
    assert wrong(found) == [found[0]]
    assert wrong([]) == []


def test_a_state_of_an_unknown_item_is_unverifiable_and_says_why() -> None:
    text = "#99999 was merged."
    assert only(text, "state") == Claim(
        99999, "state", text, "merged", "unverifiable", "not in the archive"
    )


def test_a_state_said_of_the_paragraphs_items_is_quoted_and_said_of_each() -> None:
    said = claims_in("1. #37607\n   - It was merged.", facts())
    assert [c.quote for c in said if c.type == "state"] == ["It was merged."]
    # One sentence naming two kinds says it of both items.
    text = "1. RFC #38069 and #37607\n   - RFC和PR均已关闭。"
    assert verdicts(text, "state") == ["38069 closed wrong", "37607 closed correct"]


def test_only_a_number_right_before_a_kind_counts_many() -> None:
    # "3 PR": a count, so no kind names one item; two items: nobody can tell.
    assert verdicts("1. #38086 and #37607\n   - 3 PR 已合并。", "state") == []
    # A number four characters back is not a count of the PR.
    text = "1. #38077 and #37607\n   - Day 2   PR was merged."
    assert verdicts(text, "state") == ["37607 merged correct"]


def test_calling_an_item_the_pr_in_our_prose_is_checked_with_the_truth() -> None:
    text = "#37607: the PR adds tcmalloc."
    assert only(text, "kind", strict=True) == Claim(37607, "kind", text, "pr", "correct", "a PR")
    text = "#38077: the PR adds a guard."
    assert only(text, "kind", strict=True) == Claim(38077, "kind", text, "pr", "wrong", "an issue")


def test_a_vendors_figure_shows_its_truth_even_with_no_section() -> None:
    line = "NVIDIA: 11 merged PRs"
    assert only(line, "count") == Claim(
        None, "count", line, "nvidia merged 11", "wrong", "nvidia merged 9"
    )
    line = "AWS Neuron: 2 merged PRs"  # no Neuron section that day: none of its PRs merged
    assert only(line, "count") == Claim(
        None, "count", line, "neuron merged 2", "wrong", "neuron merged 0"
    )


# -- titles -----------------------------------------------------------------------------------


def test_a_title_verdict_reads_words_whatever_their_case() -> None:
    real = "[CPU][UX][Perf] Enable tcmalloc by default"
    assert title_verdict("ENABLE TCMALLOC by default", real) == "correct"
    assert title_verdict("Enable tcmalloc default", real) == "unverifiable"  # a word left out
    assert title_verdict("Enable jemalloc by default", real) == "wrong"


def test_a_three_word_title_is_a_claim_and_a_word_left_out_unverifiable() -> None:
    claim = only("#37607 (Enable tcmalloc default)", "title")
    assert (claim.claimed, claim.verdict) == ("Enable tcmalloc default", "unverifiable")
    assert claim.truth == "[CPU][UX][Perf] Enable tcmalloc by default"


@pytest.mark.parametrize(
    "text",
    [
        "#38077 (by hoshinoyouyou on Tuesday)",  # an author
        "#38077 (BY hoshinoyouyou on Tuesday)",
        "#38077 (@hoshinoyouyou reported it)",
        "#38077 (CPU Offload)",  # a topic: two words
        "#38077 (Qwen3.5 模型 answer 错误)",  # a paraphrase in Chinese
        "#38077 (Qwen3.5 一 answer)",  # the first CJK character
        "#38077 (Qwen3.5 \u9fff answer)",  # the last
    ],
)
def test_brackets_that_are_no_title_claim_no_title(text: str) -> None:
    assert verdicts(text, "title") == []


# -- authors, links, vendors ------------------------------------------------------------------


def test_a_vendor_or_an_english_word_after_by_is_no_author() -> None:
    assert verdicts("#38086 is tuned by AMD.", "author") == []
    assert verdicts("#38086 was reported by the team.", "author") == []
    assert verdicts("#38077 is used by advanced users.", "author") == []


def test_an_item_naming_itself_is_not_linked_to_itself() -> None:
    own = item(90005, "pr", title="[Bugfix] x", body="Follow-up to #90005")
    assert not linked(own, own, day())


def test_a_vendor_heading_is_its_longest_name() -> None:
    text = "## 🎯 NVIDIA Grace (Arm)\n- #38050 is fast."  # "arm" is the CPU's, but shorter
    assert verdicts(text, "vendor") == ["38050 nvidia correct"]


def test_a_vendor_beside_a_number_shows_its_truth() -> None:
    text = "AMD's #38086 tunes RDNA4."
    assert only(text, "vendor", strict=True) == Claim(
        38086, "vendor", text, "amd", "correct", "amd"
    )
    text = "AMD's #37607 adds tcmalloc."
    assert only(text, "vendor", strict=True) == Claim(
        37607, "vendor", text, "amd", "wrong", "topics: ci_build, cpu"
    )
    text = "AMD's #38077 crashes."
    assert only(text, "vendor", strict=True) == Claim(
        38077, "vendor", text, "amd", "wrong", "no vendor"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("#99999 and AMD's #38086 tune RDNA4.", ["38086 amd correct"]),  # unknown: next
        ("NVIDIA's #38050 lands.", ["38050 nvidia correct"]),  # not the first vendor
        ("ROCm #38086, #37607 add kernels.", ["38086 amd correct"]),  # not past #38086
        ("#37607 #38086 ROCm", ["38086 amd correct"]),  # not past #38086 either
        (
            "#38050 and ROCm #38086 #37607 add kernels.",
            ["38050 amd wrong", "38086 amd correct"],
        ),
        ("#37607, #38086 (ROCm), #38050 land.", ["38086 amd correct", "38050 amd wrong"]),
        ("#38086 (ROCm) lands.", ["38086 amd correct"]),
        ("ROCm work, later #37607 lands.", []),  # 17 characters before: too far
        ("#37607 tuned, not AMD.", []),  # 15 characters after: too far
        ("Google's #38086 lands.", []),  # "Google" alone is not its TPU
    ],
)
def test_a_vendor_counts_only_right_beside_its_number(text: str, expected: list[str]) -> None:
    assert verdicts(text, "vendor", strict=True) == expected


def test_a_vendor_is_read_whatever_the_order_of_the_vendors() -> None:
    report = day()
    names = {"cpu": ["cpu"], "amd": ["AMD/ROCm 生态"]}  # the generic one first
    mine = Facts(report, {}, topics_of(report), names)
    assert verdicts("AMD/ROCm 的 #38086 很快。", "vendor", strict=True, of=mine) == [
        "38086 amd correct"
    ]


# -- what `check` shows: the sentence, the claim and the truth beside it ----------------------


def whole(text: str, kind: str, *, strict: bool = False) -> list[Claim]:
    return [c for c in claims_in(text, facts(), strict=strict) if c.type == kind]


def test_a_kind_is_shown_with_what_the_item_is() -> None:
    said = "PR #38077 is open."
    assert whole(said, "kind") == [Claim(38077, "kind", said, "pr", "wrong", "an issue")]
    for word in ("Issue", "issues", "议题"):
        said = f"{word} #38077 is open."
        assert whole(said, "kind") == [Claim(38077, "kind", said, "issue", "correct", "an issue")]
    said = "RFC #37607 was merged."
    assert whole(said, "kind") == [Claim(37607, "kind", said, "rfc", "wrong", "a PR, not an RFC")]
    said = "RFC #38077 is open."
    assert whole(said, "kind") == [
        Claim(38077, "kind", said, "rfc", "wrong", "an issue, not an RFC")
    ]
    said = "PR #9999999 is open."
    assert whole(said, "kind") == [
        Claim(9999999, "kind", said, "pr", "unverifiable", "not in the archive")
    ]


def test_an_rfc_is_an_rfc_by_its_title() -> None:
    rfc = next(n for n, it in day().items.items() if "rfc" in it.title.lower())
    said = f"RFC #{rfc} is open."
    assert whole(said, "kind") == [Claim(rfc, "kind", said, "rfc", "correct", "an RFC")]


def test_a_title_and_an_author_of_an_unknown_item_are_unverifiable_not_wrong() -> None:
    said = "#9999999 ([CPU] Enable tcmalloc by default for everyone) was merged."
    assert whole(said, "title") == [
        Claim(
            9999999,
            "title",
            said,
            "[CPU] Enable tcmalloc by default for everyone",
            "unverifiable",
            "not in the archive",
        )
    ]
    said = "#9999999 was opened by fadara01."
    assert whole(said, "author") == [
        Claim(9999999, "author", said, "fadara01", "unverifiable", "not in the archive")
    ]


def test_a_title_and_an_author_are_shown_beside_the_items_own() -> None:
    title = day().items[38077].title
    said = f"#38077 ({title[:30]}…) was opened by someone-else."
    assert whole(said, "title") == [Claim(38077, "title", said, f"{title[:30]}…", "correct", title)]
    author = day().items[38077].author
    assert whole(said, "author") == [Claim(38077, "author", said, "someone-else", "wrong", author)]


def test_each_author_cue_of_a_sentence_is_checked_against_the_item_before_it() -> None:
    a, b = day().items[37607].author, day().items[38077].author
    said = f"#37607 by {b} and #38077 by {a}."
    assert [(c.number, c.claimed, c.verdict) for c in whole(said, "author")] == [
        (37607, b, "wrong"),
        (38077, a, "wrong"),
    ]
    said = f"#9999999 by {a}, then #37607 by {a}."
    assert [(c.number, c.verdict) for c in whole(said, "author")] == [
        (9999999, "unverifiable"),
        (37607, "correct"),
    ]


def test_a_link_is_shown_with_why_it_is_right_or_wrong() -> None:
    said = "#38169 fixes #38050."
    assert whole(said, "reference", strict=True) == [
        Claim(38169, "reference", said, "#38169 answers #38050", "correct", "linked")
    ]
    said = "#37607 fixes #38077."
    assert whole(said, "reference", strict=True) == [
        Claim(
            37607,
            "reference",
            said,
            "#37607 answers #38077",
            "wrong",
            "no body, title or story links them",
        )
    ]
    said = "#9999999 fixes #38077."
    assert whole(said, "reference") == [
        Claim(9999999, "reference", said, "#9999999 answers #38077", "unverifiable", "not archived")
    ]


def test_every_link_of_a_sentence_is_checked_after_an_unknown_one() -> None:
    said = "#9999999 fixes #37607, and #38169 fixes #38050; #37607 fixes #38077."
    assert [(c.number, c.verdict) for c in whole(said, "reference", strict=True)] == [
        (9999999, "unverifiable"),
        (38169, "correct"),
        (37607, "wrong"),
    ]


def test_a_link_verb_far_from_the_second_number_links_nothing() -> None:
    gap = "x" * 53  # with the spaces and "fixes", 61 characters lie between the numbers
    assert whole(f"#37607 fixes {gap} #38077.", "reference", strict=True) == []
    near = "x" * 52  # 60 characters
    assert len(whole(f"#37607 fixes {near} #38077.", "reference", strict=True)) == 1
