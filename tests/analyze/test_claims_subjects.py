"""Which item a claim is said of (issue 44): each item of a subject list that shares one
predicate ("#A & #B by alice were merged"), never a list's neighbour read as a link
("#37346 修复、#36808 新功能"), and the landed, merged and still-open words the published
reports use ("实现了", "首次引入", "得到缓解", "被合并", "尚未合并").

Sentences in quotes marked "published" are what the model-written reports of
tests/data/published/ say, verbatim; the facts are the fixture days'.
"""

from __future__ import annotations

import pytest

from bot.analyze.claims import claims_in
from tests.analyze.test_claims import verdicts
from tests.analyze.test_claims_golden import facts as day_facts

# -- 1. a subject list shares its predicate -------------------------------------------------


def test_an_author_after_a_list_is_said_of_each_item_of_it() -> None:
    # Published (2026-03-24): xuebwang-amd reported the issue and opened the PR.
    said = (
        "Issue #37992 & PR #37993**: AMD员工 `xuebwang-amd` 报告在MI325X (gfx942) 上运行"
        "Qwen3.5-MoE视觉模型时，在`profile_run`阶段因`flash_attn`的Triton rotary内核失败而崩溃。"
    )
    authors = [c for c in claims_in(said, day_facts("2026-03-24")) if c.type == "author"]
    assert [(c.number, c.claimed, c.verdict) for c in authors] == [
        (37992, "xuebwang-amd", "correct"),
        (37993, "xuebwang-amd", "correct"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # One author and one verb for two of hmellor's merged PRs.
        (
            "#37902 & #38035 by hmellor were merged.",
            ["37902 hmellor correct", "38035 hmellor correct"],
        ),
        (
            "#37902 and #38035 by hmellor were merged.",
            ["37902 hmellor correct", "38035 hmellor correct"],
        ),
        (
            "由 `hmellor` 提交的 #37902、#38035 已合并。",
            ["37902 hmellor correct", "38035 hmellor correct"],
        ),
        # The list's items by different people: the one the cue is not true of is wrong.
        (
            "#37607 & #38035 by hmellor were merged.",
            ["37607 hmellor wrong", "38035 hmellor correct"],
        ),
        # Each item with its own author: each cue is said of the item before it alone.
        (
            "#37607 by fadara01 and #38035 by hmellor were merged.",
            ["37607 fadara01 correct", "38035 hmellor correct"],
        ),
    ],
)
def test_each_item_of_the_list_gets_the_author_said_of_the_list(
    text: str, expected: list[str]
) -> None:
    assert verdicts(text, "author") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "#37902 & #38035 by hmellor were merged.",
            ["37902 merged correct", "38035 merged correct"],
        ),
        ("#37902、#38035 已合并。", ["37902 merged correct", "38035 merged correct"]),
        ("#37902 和 #38035 均已合并。", ["37902 merged correct", "38035 merged correct"]),
        ("PR #38109 and PR #37902 were merged.", ["38109 merged wrong", "37902 merged correct"]),
        # Not a list: each item keeps the words after it.
        (
            "#38109 is in review, and #37902 was merged.",
            ["38109 open correct", "37902 merged correct"],
        ),
    ],
)
def test_a_state_after_a_list_is_said_of_each_item_of_it(text: str, expected: list[str]) -> None:
    assert verdicts(text, "state") == expected


def test_a_state_after_a_published_list_with_a_title_is_said_of_both() -> None:
    # Published (2026-03-25): both the PR and the RFC issue were closed.
    said = (
        "PR #38142 ([Realtime] Add streaming video input support) & Issue #38141**：尽管已关闭，"
        "但其提出的架构和协议设计展示了将vLLM实时音频流处理能力扩展至视频领域的清晰路径，"
        "是项目边界拓展的重要尝试。"
    )
    assert verdicts(said, "state") == ["38142 closed correct", "38141 closed correct"]


def test_in_our_prose_a_plural_verb_after_a_list_says_each_landed() -> None:
    """ "#38313 and #38299 add …" (issue 44): in prose we publish, "add" after two items says
    both are in, as "adds" after one does."""
    text = "#38109 and #37902 add better checks."
    assert verdicts(text, "state", strict=True) == ["38109 merged wrong", "37902 merged correct"]
    assert verdicts("#37902 adds better checks.", "state", strict=True) == ["37902 merged correct"]


# -- 2. an enumeration is no link ---------------------------------------------------------------


@pytest.mark.parametrize("strict", [False, True])
def test_a_list_of_items_with_their_kind_words_links_none_of_them(strict: bool) -> None:
    # The shape of a published 2026-03-19 report's lists (17 phantom links there).
    assert verdicts("#37346 修复、#36808 新功能", "reference", strict=strict) == []
    text = "本期合并：#38109 修复、#38108 修复、#38174 新功能、#37607 性能。"
    assert verdicts(text, "reference", strict=strict) == []
    # A link is still read where one item is said to fix the other.
    assert verdicts("#38109 修复了 #38108 的问题。", "reference") == [
        "38109 #38109 answers #38108 unverifiable"
    ]


# -- 3. landed, merged and still-open words ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Published (2026-03-25): #38174 was open when the window ended.
        (
            "PR #38174 ([Feature] Universal speculative decoding for heterogeneous "
            "vocabularies)**："
            "实现了支持**异构词汇表**的通用推测解码算法（Token-Level Intersection）。",
            ["38174 merged wrong"],
        ),
        ("PR #38174 首次引入异构词表的推测解码。", ["38174 merged wrong"]),
        ("Issue #38077 的问题得到缓解。", ["38077 closed wrong"]),
        ("#37607 已于当天被合并。", ["37607 merged correct"]),
        # Still open, in review, not merged yet: open.
        ("#38174 is still open.", ["38174 open correct"]),
        ("#38174 仍在审阅中。", ["38174 open correct"]),
        ("#38174 尚未合并。", ["38174 open correct"]),
        ("#37607 尚未被合并。", ["37607 open wrong"]),
        ("#38174 has not been merged yet.", ["38174 open correct"]),
        ("#38174 is not merged yet.", ["38174 open correct"]),
    ],
)
def test_landed_and_still_open_words_with_the_number(text: str, expected: list[str]) -> None:
    assert verdicts(text, "state") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. PR #37607: tcmalloc\n   - 该 PR 已于当天被合并。", ["37607 merged correct"]),
        ("1. PR #38174: speculative decoding\n   - 该 PR 尚未被合并。", ["38174 open correct"]),
        (
            "1. PR #38174: speculative decoding\n   - 该 PR 实现了异构词表的推测解码。",
            ["38174 merged wrong"],
        ),
        ("1. PR #38174: speculative decoding\n   - 它首次引入了异构词表。", ["38174 merged wrong"]),
        ("1. Issue #38077: Qwen3.5-9B answers !!!\n   - 问题得到缓解。", ["38077 closed wrong"]),
        ("1. PR #38174: speculative decoding\n   - 尚未实现异构词表。", []),
        ("1. #38174 and #37607\n   - 已于当天被合并。", []),  # two items, no kind: nobody knows
    ],
)
def test_landed_words_of_the_paragraphs_item(text: str, expected: list[str]) -> None:
    assert verdicts(text, "state") == expected


def test_achieving_a_figure_is_no_landing() -> None:
    # Published (2026-03-11): "实现了 1.5 倍提升" is the open PR's measured result.
    said = (
        "    *   **PR #36810 (新增)**: **[ROCm][Perf] Fused GEMM + static FP8 output "
        "quantization**。由 `andyluo7` 提交，核心创新在于将FP8 GEMM与静态量化融合为单个"
        "`torch._scaled_mm`调用，直接输出FP8数据，消除了BF16中间结果的DRAM往返。在MI300X上，"
        "针对常见模型形状（如4096x4096）实现了**1.5倍至1.6倍的性能提升**。"
    )
    states = [c for c in claims_in(said, day_facts("2026-03-11")) if c.type == "state"]
    assert [c.verdict for c in states if c.number == 36810] == []
    assert verdicts("PR #38174 实现了 2 倍加速。", "state") == []
    assert verdicts("PR #38174 实现了显著的性能提升。", "state") == []
