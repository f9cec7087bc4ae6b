"""What a model wrote, checked before a reader sees it, one rule a test, on a real day analysed
in memory (2026-03-24: open RFCs, an AMD bug report, an open InternVL PR, a merged NVIDIA
PR). Each wrong sentence is dropped with its true reason; a right one is kept; a part of an
answer that lost a sentence is not shown at all, and the other parts stand on their own.

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
from bot.prose.vetting import Vetter, copies, identifiers, relation_fault, translation_fault
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
        (38049, "zh", "#38049 去掉了 InternVL 的编译开销。", "state: says #38049 is merged"),
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
        # Not filler: it says who, plainly ("a critical feature for developers who …" is).
        (38049, "en", {"why": "#38049 would cut the latency for users who serve InternVL."}),
        # English after "by", not a person ("by long" once read as an author).
        (38049, "en", {"why": "#38049 would cut the latency caused by long InternVL requests."}),
        # A sentence nothing settles, beside one of its part that settles something.
        (38049, "zh", {"why": "#38049 拟为 InternVL 的编码器加入编译。这样请求的延迟更低。"}),
    ],
)
def test_a_right_sentence_is_shown(number: int, lang: str, answer: dict[str, object]) -> None:
    reason = "Without compilation the InternVL encoder adds latency to multimodal requests."
    text, why = vet(answer, unit(number, reason=reason), lang)
    assert why == [] and text == " ".join(str(v) for v in answer.values())


def thread(**said: str) -> Unit:
    """#37975's hot thread as the model is told it: its title and its comments."""
    report = day()
    facts = _brief(report, 37975)
    facts["comments"] = [{"by": by, "role": "commenter", "text": text} for by, text in said.items()]
    return Unit("thread", 37975, facts, frozenset({37975}))


def test_a_thread_is_told_by_what_was_argued_not_by_who_posted() -> None:
    about = thread(ZJY0516="please test qwen 3.5, qwen 3 next and lora", wxsIcey="tested on XPU")
    who = "#37975: wxsIcey opened it, and ZJY0516 commented in the thread."
    assert vet({"text": who}, about) == ("", ["says who posted, not what was argued"])
    zh_who = "#37975 用户 wxsIcey 提出了该 PR，ZJY0516 参与了讨论。"
    assert vet({"text": zh_who}, about, "zh")[1] == ["says who posted, not what was argued"]
    argued = "#37975: ZJY0516 asked for tests of Qwen3.5, Qwen3-Next and LoRA before it lands."
    assert vet({"text": argued}, about) == (argued, [])


def test_a_login_with_digits_is_no_figure() -> None:
    """`dev-20` wrote a comment: 20 is not a figure the sentence made up."""
    about = thread(**{"dev-20": "please test qwen 3.5 with lora"})
    said = "#37975: dev-20 asked for tests of Qwen3.5 with LoRA."
    assert vet({"text": said}, about) == (said, [])


def test_a_sentence_nothing_settles_is_not_shown_alone() -> None:
    text, why = vet({"why": "这样多模态请求的延迟更低。"}, unit(38049, reason=REASON), "zh")
    assert (text, why) == ("", ["no claim the checker can settle about its item"])


def test_a_day_sentence_that_tells_of_items_it_does_not_cite_is_dropped() -> None:
    """ "79 PRs were opened, including one that adds X": only a number holds the item
    told to its state; a count alone stands."""
    about = day_unit(day(), "en")
    told = "79 PRs were opened, including one that adds torch.compile to InternVL."
    assert vet({"summary": told}, about)[1] == ["tells of items it does not cite"]


def test_a_reason_its_description_does_not_give_is_not_shown() -> None:
    """ "A critical feature for developers who need to test new versions of ROCm quickly":
    a reason a real model invented for a PR that ships nightly images."""
    text, why = vet({"why": "#38049 would speed up InternVL on ROCm."}, unit(38049), "en")
    assert (text, why) == ("", ["gives a reason its description does not"])


def test_a_wrong_reason_does_not_take_a_right_translation_with_it() -> None:
    """A right translation beside a wrong reason: the translation is shown, the reason is
    not (a right sentence is not dropped for its neighbour's mistake: #33948, #34328)."""
    good = (
        "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL/InternViT 视觉编码器加入 "
        "`torch.compile` 支持，沿用 Qwen2.5-VL 等多模态模型的既有做法。"
    )
    text, why = vet({"what": good, "why": "#38049 修复了 InternVL 的崩溃。"}, unit(38049), "zh")
    assert text == good
    assert why == ["state: says #38049 is merged; the facts: open"]


def test_a_part_that_lost_a_sentence_is_not_shown_at_all() -> None:
    """Inside one part, a fragment that survived a wrong neighbour is no better than the
    neighbour: a reason of two sentences with one wrong is not shown."""
    wrong = "#38049 修复了 InternVL 的崩溃。"
    text, why = vet({"what": WHAT + wrong}, unit(38049), "zh")
    assert text == ""
    assert why[1] == "state: says #38049 is merged; the facts: open"
    assert why[0] == "its part lost a sentence"


def test_a_translation_is_compared_with_the_sentence_it_translates() -> None:
    """A description of two sentences, the second translated faithfully: nothing the first
    says is "lost" (#34116's faithful translation was dropped for "loses bf16, fp32")."""
    source = "Adds a fused kernel for bf16 and fp32. It is used on MI355 for Qwen3-8B."
    about = unit(38049, description=source)
    faithful = "#38049 拟在 MI355 上为 Qwen3-8B 使用它。"
    assert vet({"what": faithful}, about, "zh") == (faithful, [])
    lossy = "#38049 拟在 MI355 上使用它。"
    assert vet({"what": lossy}, about, "zh")[1] == ["loses `qwen38b` of what it translates"]


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


# The rules one by one, each at its edge: the sentence shown or dropped, and the exact reason
# an operator reads for a drop.

REASON = "Without compilation the InternVL encoder adds latency to multimodal requests."
WHAT = (
    "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL/InternViT 视觉编码器加入 "
    "`torch.compile` 支持，沿用 Qwen2.5-VL 等多模态模型的既有做法。"
)


def vetted(answer: dict[str, object], about: Unit, lang: str = "en", **vendors: list[str]) -> Any:
    return Vetter(day(), vendors or RULES.vendor_names()).vet(answer, about, lang)


def test_the_count_of_sentences_shown_is_every_part_s() -> None:
    answer = {
        "what": WHAT,
        "why": "#38049 仍在审阅中。InternVL 的视觉编码器仍未编译。",
    }
    found = vetted(answer, unit(38049, reason=REASON), "zh")
    assert (found.rejected, found.kept) == ((), 3)
    assert found.parts == {
        "what": WHAT,
        "why": "#38049 仍在审阅中。InternVL 的视觉编码器仍未编译。",
    }
    lost = vetted({**answer, "why": "#38049 修复了 InternVL 的崩溃。"}, unit(38049), "zh")
    assert (lost.parts, lost.kept, lost.text) == ({"what": WHAT}, 1, WHAT)


def test_a_part_that_is_not_text_is_quoted_and_dropped_alone() -> None:
    """The quote is cut at 80 characters; the other part is shown on its own."""
    value = ["#38049 would add torch.compile support for the InternVL vision encoder, very soon."]
    found = vetted({"what": value, "why": "#38049 仍在审阅中。"}, unit(38049, reason=REASON), "zh")
    assert found.rejected == ((repr(value)[:80], "not text"),)
    assert len(repr(value)) > 81 and found.kept == 1 and found.text == "#38049 仍在审阅中。"


def test_the_day_s_summary_may_cite_any_item_of_the_report_and_state_its_figures() -> None:
    """19 is the stale bot's closings (not one of the five counts): a figure of the report, so
    a summary sentence that cites nothing may state it; #17817 is in the report though not
    in the day's brief."""
    today = day_unit(day(), "en")
    assert 17817 in day().items and 17817 not in today.scope
    for sentence in (
        "The stale bot closed 19 stale items.",
        "The stale bot closed 19 stale items (#17817).",
    ):
        text, why = vet({"summary": sentence}, today)
        assert (text, why) == (sentence, [])


def test_a_summary_gives_no_cause_and_no_figure_that_is_not_a_count() -> None:
    today = day_unit(day(), "en")
    text, why = vet(
        {"summary": "19 stale items were closed because of inactivity (#37979)."}, today
    )
    assert (text, why) == ("", ["gives a cause its facts do not state"])
    text, why = vet({"summary": "The day saw 26, 24, 79, 36 and 17 (#37979)."}, today)
    assert why == ["writes 17, 24, 26, a figure the checker cannot settle"]


def test_a_figure_or_name_written_beside_chinese_in_the_facts_is_given() -> None:
    """The facts are read as written (not with their Chinese escaped): "减少30%" gives 30."""
    about = unit(38049, reason="视觉编码器耗时减少30%。")
    text, why = vet({"why": "#38049 拟让 InternVL 视觉编码器耗时减少 30%。"}, about, "zh")
    assert why == [] and text


def test_a_line_of_the_chinese_edition_is_chinese_for_a_fifth_of_its_letters() -> None:
    """Letters, not characters: "#38049：InternVL 统一" is 2 of 10 (一 is U+4E00, the first
    Chinese letter); "#38049 拟加 torch.compile" is 2 of 14; "#38049。" has none."""
    text, why = vet({"why": "#38049：InternVL 统一"}, unit(38049, reason=REASON), "zh")
    assert (text, why) == ("#38049：InternVL 统一", [])
    for sentence in ("#38049 拟加 torch.compile", "#38049。"):
        assert vet({"why": sentence}, unit(38049, reason=REASON), "zh") == ("", ["not Chinese"])


def test_a_sentence_that_copies_any_of_its_item_s_texts_adds_nothing() -> None:
    """The description, a thread's body, a comment: each is the item's own words."""
    copied = "#38049 follows the established pattern from Qwen2.5-VL and other multimodal models."
    assert vet({"why": copied}, unit(38049, reason=REASON))[1] == [
        "copies its item's title or description"
    ]
    said = "The vision tower goes through Inductor graphs, once wired."
    again = "#38049: the vision tower goes through Inductor graphs."
    for about in (
        unit(38049, reason=REASON, body=said),
        unit(38049, reason=REASON, comments=[{"author": "ywang96", "text": said}]),
    ):
        assert vet({"why": again}, about)[1] == ["copies its item's title or description"]


def test_a_sentence_naming_what_its_facts_do_not_lists_three_of_them() -> None:
    sentence = "#38049 would compile InternVL with TorchInductorV2, FooBar1, BazQux2 and Quux3."
    _, why = vet({"why": sentence}, unit(38049, reason=REASON))
    assert why == ["names `bazqux2`, `foobar1`, `quux3`, not in its facts"]


def test_a_vendor_the_item_is_filed_under_may_be_named() -> None:
    """#37996 is filed under AMD; a vendor known by one name only (MI300X here) is given."""
    sentence = "#37996 is seen on MI300X with Qwen3.5 GPTQ."
    about = unit(37996, reason="Qwen3.5 GPTQ outputs only exclamation marks on this hardware.")
    found = vetted({"why": sentence}, about, amd=["MI300X"])
    assert (found.text, found.rejected) == (sentence, ())
    found = vetted({"why": sentence}, about, nvidia=["MI300X"])
    assert found.rejected == ((sentence, "names `mi300x`, not in its facts"),)


def test_a_claim_settled_about_its_item_is_enough_and_one_left_open_is_not() -> None:
    """ "#38049 is still open" names nothing, but the checker confirms it; a title it cannot
    confirm ("(encoder support)": words of the title, not in its order) settles nothing."""
    text, why = vet({"why": "#38049 is still open."}, unit(38049, reason=REASON))
    assert (text, why) == ("#38049 is still open.", [])
    text, why = vet({"why": "#38049 (encoder support) would help."}, unit(38049, reason=REASON))
    assert why == ["no claim the checker can settle about its item"]


def test_a_title_the_item_does_not_have_is_quoted_with_the_real_one() -> None:
    sentence = "#38049 (Add torch.compile for Qwen vision) would cut latency."
    _, why = vet({"why": sentence}, unit(38049, reason=REASON))
    assert why == [
        "title: says #38049 is Add torch.compile for Qwen vision; the facts: "
        "[Model] Add torch.compile support for InternVL vision encoder"
    ]


def test_a_claim_about_another_item_is_told_by_that_item() -> None:
    _, why = vet({"why": "#37992 was reported by tjtanaa on ROCm."}, unit(38049))
    assert why == ["author: says #37992 is by tjtanaa; the facts: xuebwang-amd"]


def test_a_translation_may_name_what_its_item_s_title_holds() -> None:
    """The description here does not say InternVL; the title does."""
    description = (
        "Add `torch.compile` support for the vision encoder using the "
        "`@support_torch_compile` decorator."
    )
    what = (
        "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL 视觉编码器加入 "
        "`torch.compile` 支持。"
    )
    about = unit(38049, reason=REASON, description=description)
    assert vet({"what": what}, about, "zh") == (what, [])


@pytest.mark.parametrize("missing", ["description", "title"])
def test_a_translation_of_facts_without_a_description_or_title_is_checked(missing: str) -> None:
    """Nothing to translate: the `what` is checked as any sentence (its names in its facts)."""
    what = "#38049 拟为 InternViT 视觉编码器加入 torch.compile 支持。"
    facts = {**unit(38049, reason="InternViT is compiled eagerly today.").facts}
    facts["description"] = "Add `torch.compile` support for the InternViT vision encoder."
    del facts[missing]
    assert vet({"what": what}, Unit("item", 38049, facts, frozenset({38049})), "zh") == (what, [])


def test_a_claim_settled_about_another_item_settles_nothing_about_its_own() -> None:
    about = unit(38049, reason=REASON)
    about = Unit("item", 38049, about.facts, frozenset({38049, 37996}))
    _, why = vet({"why": "#38049 would help with issue #37996."}, about)
    assert why == ["no claim the checker can settle about its item"]


def test_a_translation_that_loses_or_adds_many_names_lists_three() -> None:
    source = "Adds AaA1, BbB2, CcC3 and DdD4."
    assert translation_fault("新增字段。", source) == (
        "loses `aaa1`, `bbb2`, `ccc3` of what it translates"
    )
    assert translation_fault("新增 AaA1、BbB2、CcC3 和 DdD4 字段。", "Adds a field.") == (
        "adds `aaa1`, `bbb2`, `ccc3`, not in what it translates"
    )


FOLLOW_UP = "Follow-up to #35809: adds a `moe_backend` field."


@pytest.mark.parametrize(
    "translated",
    [
        "#35809 的后续：新增字段。",  # #N first, the word right after it
        "后续 #35809：新增字段。",  # the word first
        "新增字段，是 #35809 的后续；另外本改动也一并修复了 #35809 中的问题。",  # its first mention
        "后续：本次补充并完善了 #35809。",  # the word 12 characters before #N
        "#35809 此前的后续。",  # and up to 6 after it
    ],
)
def test_a_translation_that_keeps_what_a_cited_item_is_passes(translated: str) -> None:
    assert relation_fault(translated, FOLLOW_UP) is None


@pytest.mark.parametrize(
    ("translated", "source"),
    [
        ("修复 #35809：新增字段。", FOLLOW_UP),  # a follow-up said to be a fix
        ("#35809 修复了字段。", FOLLOW_UP),  # at the start of the line
        ("后续：本次补充并完善了它 #35809。", FOLLOW_UP),  # the word 13 characters before
        ("#35809 此前工作后续。", FOLLOW_UP),  # and 7 after: not about #35809
        ("#35809 的改动不再保留。", "Reverts #35809."),  # a revert not said
    ],
)
def test_a_translation_that_says_otherwise_what_a_cited_item_is_is_dropped(
    translated: str, source: str
) -> None:
    assert relation_fault(translated, source) == "says otherwise what #35809 is to its item"


def test_a_translation_that_does_not_write_the_cited_item_is_not_judged_on_it() -> None:
    """Losing `#35809` is translation_fault's to say; its bare digits are no mention."""
    assert relation_fault("新增字段（35809 的修复）。", FOLLOW_UP) is None


def test_what_a_copy_is() -> None:
    """Four of five words make a copy; a citation glued to a word is no word; a line with no
    word copies nothing."""
    title = "[Model] Add torch.compile support for InternVL vision encoder"
    assert copies("#38049: torch compile for InternVL models.", [title])
    assert not copies("#38049: torch compile for new models.", [title])
    assert copies("PR#38049: torch compile vision", [title])
    assert not copies("#38049 是什么？", [title])


def test_a_code_span_of_punctuation_names_nothing() -> None:
    assert identifiers("routes `->` and `...` through `FP8`") == {"fp8"}
