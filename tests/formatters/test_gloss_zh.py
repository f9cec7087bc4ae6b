"""A title said as a Chinese sentence where a phrase table makes it exact: the verb and the
frame its preposition sets, the object's words whose Chinese is fixed, names kept as the
author wrote them (and kept theirs: every renderer escapes them), the state as the window
ended; no form, no sentence. Real titles of the fixture days.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.model.report import Explanation
from formatters.gloss_zh import THEIRS_END, THEIRS_START, gloss, pieces
from tests.factories import item


def said(title: str, state: str = "merged", kind: str = "pr", **found: object) -> str:
    explained = Explanation(0, kind, **found) if found or kind == "issue" else None  # type: ignore[arg-type]
    text = gloss(item(1, kind, title=title), explained, state)
    return text.replace(THEIRS_START, "").replace(THEIRS_END, "")


@pytest.mark.parametrize(
    ("title", "chinese"),
    [
        ("[CPU][UX][Perf] Enable tcmalloc by default", "默认启用 tcmalloc。"),
        (
            "[XPU] disable async-scheduling by default on XPU",
            "在 XPU 上默认禁用 async-scheduling。",
        ),
        (
            "[Bugfix] Fix Qwen3.5-FP8 Weight Loading Error on TPU",
            "修复 TPU 上的 Qwen3.5-FP8 权重加载错误。",
        ),
        ("[ROCm] Fix MoE kernel test failures on gfx950", "修复 gfx950 上的 MoE kernel 测试失败。"),
        (
            "[Bugfix][ROCm][MoE] Fix mxfp4 oracle regressions from #37128",
            "修复 #37128 引入的 mxfp4 oracle regressions。",
        ),
        (
            "[ROCm][CI] Remove redundant common.txt from rocm-test.txt",
            "从 rocm-test.txt 中移除冗余的 common.txt。",
        ),
        (
            "[ROCm]: Update rope+kvcache fusion conditions and disable custom op by default",
            "更新 rope+kvcache 融合条件，并默认禁用 custom op。",
        ),
        (
            "[Bugfix][Backport] Backport PR #31816 to v0.13.0: Fix ROCM_AITER_TRITON_MLA accuracy "
            "for DeepSeek-V3",
            "将 PR #31816 backport 到 v0.13.0：修复 DeepSeek-V3 的 ROCM_AITER_TRITON_MLA 精度。",
        ),
        (
            "[Perf] Remove redundant device copies for CPU-only pooling token IDs, 48.9% E2E "
            "throughput improvement",
            "为 CPU-only pooling token IDs 移除冗余的设备拷贝，作者实测端到端吞吐提升 48.9%。",
        ),
        ("Update Flashinfer to 0.6.6", "将 Flashinfer 更新到 0.6.6。"),
        # "to include" says why, not where: the object is kept whole, as written.
        (
            "[Docs] Update Claude Code doc to include caching performance tip",
            "更新 Claude Code doc to include caching performance tip。",
        ),
        (
            "[GGUF] Add support for MiniMax-M2 architecture",
            "新增对 MiniMax-M2 architecture 的支持。",
        ),
    ],
)
def test_a_title_says_its_verb_and_object_in_chinese(title: str, chinese: str) -> None:
    assert said(title) == chinese


@pytest.mark.parametrize(
    "title",
    [
        "[Misc] Reorganize inputs",  # no verb of the table
        "[Kernel] Mamba2 SSD add fused kernel for 1.5-2.5x SSD (prefill) speedup",  # no verb first
        "[V1] Fix illegal memory access and background thread crash during asy…",  # cut
    ],
)
def test_a_title_no_form_fits_gets_no_sentence_but_a_cut_one_its_whole_part(title: str) -> None:
    """A verb phrase the table knows is said, its object kept whole where it is English
    grammar ("更新 Claude Code doc to include …"); no verb, no sentence."""
    if title.endswith("…"):
        assert said(title) == "修复 illegal memory access and background thread crash。"
    else:
        assert said(title) == ""


def test_the_state_is_the_window_end_s() -> None:
    title = "[Bugfix] Fix Qwen3.5-FP8 Weight Loading Error on TPU"
    assert said(title, "open").startswith("拟修复")
    assert said(title, "closed") == "曾提议修复 TPU 上的 Qwen3.5-FP8 权重加载错误（未合并）。"


def test_an_issue_says_what_the_user_reported_from_its_title_s_names() -> None:
    assert (
        said(
            "[Bug]: Qwen3.5-9B answer !!!!!!!!!",
            "open",
            "issue",
            work="bug",
            signals=("wrong output",),
            models=("Qwen3.5-9B",),
        )
        == "用户报告运行 Qwen3.5-9B 时出现输出错误。"
    )
    crash = (
        "[Bug]: compute_slot_mapping crashes on non-Triton platforms (ppc64le/CPU) after PR #32951"
    )
    assert (
        said(crash, "open", "issue", work="bug", signals=("crash",))
        == "用户报告 compute_slot_mapping 出现崩溃（#32951 之后）。"
    )
    assert (
        said(
            "[Bug]: CUDA illegal memory access on GPTQ Marlin",
            "open",
            "issue",
            work="bug",
            signals=("crash",),
        )
        == "用户报告 GPTQ Marlin 上的 CUDA 非法内存访问。"
    )
    rfc = "[RFC]: Prefill Context Parallel for Qwen3.5 Hybrid Attention"
    assert (
        said(rfc, "open", "issue", work="rfc")
        == "提议用于 Qwen3.5 混合注意力的 Prefill Context Parallel。"
    )


def test_the_title_s_own_words_stay_theirs() -> None:
    """Names and objects come from the title, a stranger's text: they are `theirs` pieces
    (every renderer escapes them); the frame and the fixed words are ours."""
    title = "[Bugfix] Fix <!channel> crash on TPU"
    parts = pieces(gloss(item(1, "pr", title=title), None, "merged"))
    ours = "".join(text for text, theirs in parts if not theirs)
    assert "<!channel>" not in ours
    assert any("<!channel>" in text for text, theirs in parts if theirs)


def test_a_closed_pr_is_never_told_as_done() -> None:
    closed = datetime(2026, 3, 2, tzinfo=UTC)
    it = item(1, "pr", title="Fix the scheduler deadlock", closed_at=closed)
    assert gloss(it, None, "closed").startswith("曾提议修复")
