"""What a model wrote, checked before a reader sees it, one rule a test, on a real day analysed
in memory (2026-03-24: open RFCs, an AMD bug report, an open InternVL PR, a merged NVIDIA
PR). Each wrong sentence is dropped with its true reason; a right one is kept; a unit that
lost a sentence is not shown at all.

These are the mistakes a real small model made (Qwen2.5-Coder-1.5B on a CPU, see
tests/data/prose-labelled.json) and the ones the reports we replace made.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bot.analyze import analyze
from bot.model.report import Report
from bot.model.rules import load_rules
from bot.model.windows import Window
from bot.prose.inputs import Unit, _brief, day_unit
from bot.prose.vetting import Vetter, translation_fault
from tests.anchor_data import anchor_days, anchor_items, as_activity

RULES = load_rules()


@cache
def day() -> Report:
    found = anchor_days()[1]
    window = Window(found.start, found.end, "Asia/Shanghai", found.label)
    items = [as_activity(it) for it in anchor_items()]
    return analyze(items, window, repo="vllm-project/vllm", rules=RULES, complete=True)


def unit(number: int, **facts: Any) -> Unit:
    report = day()
    item = report.item(number)
    found = _brief(report, number)
    found.update(
        kind=item.kind,
        description=report.sections.what.get(number, "") if report.sections else "",
        reason="",
    )
    found.update(facts)
    return Unit("item", number, found, frozenset({number}))


def vet(answer: dict[str, object], about: Unit, lang: str = "en") -> tuple[str, list[str]]:
    vetted = Vetter(day(), RULES.vendor_names()).vet(answer, about, lang)
    return vetted.text, [why for _, why in vetted.rejected]


@pytest.mark.parametrize(
    ("number", "lang", "sentence", "reason"),
    [
        # A translation that loses what it translates.
        (38049, "zh", "#38049 拟为 InternVL 加入编译支持。", "loses `internvit`"),
        # Open work said to have landed, in any tense.
        (
            38049,
            "en",
            "#38049 introduced torch.compile for InternVL.",
            "state: says #38049 is merged",
        ),
        (
            38049,
            "en",
            "#38049 adds torch.compile support for InternVL.",
            "state: says #38049 is merged",
        ),
        (
            38049,
            "zh",
            "#38049 为 InternVL 新增了 torch.compile 支持。",
            "state: says #38049 is merged",
        ),
        (37996, "zh", "#37996 修复了 Qwen3.5 只输出感叹号的问题。", "state: says #37996 is closed"),
        (37996, "en", "#37996 was mitigated for Qwen3.5 GPTQ.", "state: says #37996 is closed"),
        (
            37979,
            "en",
            "RFC #37979 was merged for Intel quantization.",
            "state: says #37979 is merged",
        ),
        # An issue called a PR, anywhere in the sentence.
        (
            37996,
            "en",
            "For #37996 the PR fixes the exclamation points of Qwen3.5.",
            "kind: says #37996 is pr",
        ),
        # The wrong person, the wrong vendor.
        (
            37992,
            "en",
            "#37992 was reported by tjtanaa on ROCm.",
            "author: says #37992 is by tjtanaa",
        ),
        (
            37233,
            "en",
            "AMD's #37233 makes flashinfer-cubin a CUDA default dep.",
            "vendor: says #37233 is amd",
        ),
        # Nothing a reader can use, or a way out of the report.
        (38049, "en", "#38049 is a critical feature for developers who need InternVL.", "filler"),
        (38049, "en", "#38049: see https://evil.example/x for torch.compile.", "writes a link"),
        (38049, "en", "#38049 builds on #37992 for InternVL.", "cites #37992, not an item"),
        (38049, "en", "#38049 gives InternVL a 40% speedup.", "writes 40, a figure"),
        (38049, "en", "#38049 is a good change for everyone.", "no claim the checker can settle"),
        (38049, "zh", "#38049 这是一个很好的改动。", "no claim the checker can settle"),
        (38049, "zh", "#38049 would add torch.compile for InternVL.", "not Chinese"),
        (38049, "en", "#38049 Add torch.compile support for InternVL vision encoder.", "copies"),
        # Words its facts do not have: an expansion made up ("OOB (OutOfBand)").
        (
            38049,
            "en",
            "#38049 would compile InternVL with TorchInductorV2.",
            "names `torchinductorv2`",
        ),
    ],
)
def test_a_wrong_sentence_is_dropped_with_its_true_reason(
    number: int, lang: str, sentence: str, reason: str
) -> None:
    part = "what" if reason.startswith("loses") else "why"
    said = "Without compilation the InternVL encoder adds latency to multimodal requests."
    text, why = vet({part: sentence}, unit(number, reason=said), lang)
    assert text == ""
    assert why and why[0].startswith(reason), why


@pytest.mark.parametrize(
    ("number", "lang", "answer"),
    [
        (
            38049,
            "en",
            {"why": "#38049 would cut the latency InternVL adds to multimodal requests."},
        ),
        (
            38049,
            "zh",
            {
                "what": "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL/InternViT 视觉"
                "编码器加入 `torch.compile` 支持，沿用 Qwen2.5-VL 等多模态模型的既有做法。"
            },
        ),
        (37233, "en", {"why": "NVIDIA's #37233 makes flashinfer-cubin a CUDA default dep."}),
        (37979, "zh", {"why": "RFC #37979 仍在讨论 Intel 的量化路线。"}),
    ],
)
def test_a_right_sentence_is_shown(number: int, lang: str, answer: dict[str, object]) -> None:
    reason = "Without compilation the InternVL encoder adds latency to multimodal requests."
    text, why = vet(answer, unit(number, reason=reason), lang)
    assert why == [] and text == " ".join(str(v) for v in answer.values())


def test_a_reason_its_description_does_not_give_is_not_shown() -> None:
    """ "A critical feature for developers who need to test new versions of ROCm quickly":
    a reason a real model invented for a PR that ships nightly images."""
    text, why = vet({"why": "#38049 would speed up InternVL on ROCm."}, unit(38049), "en")
    assert (text, why) == ("", ["gives a reason its description does not"])


def test_a_unit_that_lost_a_sentence_is_not_shown_at_all() -> None:
    """A right translation beside a wrong reason: neither is shown (a fragment that survived
    a wrong neighbour once replaced a whole correct paragraph)."""
    good = (
        "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL/InternViT 视觉编码器加入 "
        "`torch.compile` 支持，沿用 Qwen2.5-VL 等多模态模型的既有做法。"
    )
    text, why = vet({"what": good, "why": "#38049 修复了 InternVL 的崩溃。"}, unit(38049), "zh")
    assert text == ""
    assert why == ["state: says #38049 is merged; the facts: open", "its unit lost a sentence"]


def test_an_answer_that_is_not_text_is_not_shown() -> None:
    text, why = vet({"why": ["#38049 would add torch.compile."]}, unit(38049))
    assert (text, why) == ("", ["not text"])


def test_a_translation_keeps_every_identifier_and_number_of_its_source() -> None:
    source = "Adds a `moe_backend` field to `SpeculativeConfig` for FP8 drafts, 2x faster."
    whole = "新增 `moe_backend` 字段到 `SpeculativeConfig`，用于 FP8 草稿模型，快 2x。"
    assert translation_fault(whole, source) is None
    lost = "新增一个字段到 `SpeculativeConfig`，用于 FP8 草稿模型，快 2x。"
    assert translation_fault(lost, source) == "loses `moebackend` of what it translates"
    cited = "Follow-up to #35809: adds a `moe_backend` field."
    assert (
        translation_fault("新增 `moe_backend` 字段。", cited)
        == "loses `#35809` of what it translates"
    )
    added = whole + "支持 Qwen3-8B。"
    assert translation_fault(added, source) == "adds `qwen38b`, not in what it translates"


def test_a_count_of_the_wrong_population_is_dropped() -> None:
    """The day's stale-bot closings are 19 (14 issues, 5 PRs): "28 stale or bulk closings"
    counts something else."""
    report = day()
    today = day_unit(report, "en")
    text, why = vet({"summary": "The stale bot closed 19 stale items (#37979)."}, today)
    assert why == [] and text
    text, why = vet({"summary": "The day saw 28 stale or bulk closings (#37979)."}, today)
    assert text == "" and why[0] == "count: says swept 28; the facts: swept 19"
    text, why = vet({"summary": "The bot swept 24 stale items (#37979)."}, today)
    assert text == "" and why[0].startswith("count: says stale 24")
