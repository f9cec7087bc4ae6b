"""What a model wrote, checked before a reader sees it, one rule a test, on a real day analysed
in memory (2026-03-24: open RFCs, an AMD bug report, an open InternVL PR, a CPU fix in
review). Each wrong sentence is dropped with its true reason; a right one is kept; a part
of an answer that lost a sentence is not shown at all, and the other parts stand on their
own.

A Chinese item's parts translate its own words: `what` its description, `why` the sentence
the report quotes as why it matters. Every sentence must settle on its own: a name or a
figure of its item beyond the title (naming a word of the title settles nothing, every
sentence about the item could); a sentence the checker cannot settle never rides along
beside one it can. A thread's note is told from its comments' text.

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
from bot.prose.inputs import Unit, _brief, day_unit, item_unit, item_units, says
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
    """An item of the Chinese edition as the model is told it (`item_unit`): its own line
    and the sentence the report quotes as why it matters, whole."""
    report = day()
    told = item_unit(report, number)
    found = told.facts if told is not None else {**_brief(report, number), "description": ""}
    return Unit("item", number, {**found, **facts}, frozenset({number}))


def vet(answer: dict[str, object], about: Unit, lang: str = "zh") -> tuple[str, list[str]]:
    vetted = Vetter(day(), RULES.vendor_names()).vet(answer, about, lang)
    return vetted.text, [why for _, why in vetted.rejected]


# #38049's own line and a faithful Chinese of it; #38055's quoted reason and a faithful
# Chinese of it (the real day's).
WHAT = (
    "#38049 拟使用 `@support_torch_compile` 装饰器为 InternVL/InternViT 视觉编码器加入 "
    "`torch.compile` 支持，沿用 Qwen2.5-VL 等多模态模型的既有做法。"
)
WHY_38055 = (
    "#38055 这会在 worker 节点上引发 `IndexError: list index out of range`"
    "（例如 rank 为 2、3 的节点 1）。"
)


@pytest.mark.parametrize(
    ("number", "part", "sentence", "reason"),
    [
        # A translation that loses what it translates.
        (38049, "what", "#38049 拟为 InternVL 加入编译支持。", "loses `internvit`"),
        # Open work said to have landed, in any tense.
        (
            38049,
            "what",
            "#38049 为 InternVL 新增了 torch.compile 支持。",
            "state: says #38049 is merged",
        ),
        (38049, "what", "#38049 去掉了 InternVL 的编译开销。", "state: says #38049 is merged"),
        (
            37996,
            "what",
            "#37996 修复了 Qwen3.5 只输出感叹号的问题。",
            "state: says #37996 is closed",
        ),
        # An issue called a PR.
        (
            37992,
            "why",
            "#37992 这个 PR 让服务器在 `profile_run` 时崩溃。",
            "kind: says #37992 is pr",
        ),
        (
            37992,
            "why",
            "#37992 是一个 PR，服务器在 `profile_run` 阶段崩溃。",
            "kind: says #37992 is pr",
        ),
        # The wrong vendor beside the item.
        (
            38055,
            "why",
            "AMD 的 #38055 会引发 `IndexError: list index out of range`。",
            "vendor: says #38055 is amd",
        ),
        # Nothing a reader can use, or a way out of the report.
        (38049, "what", "#38049 是一个至关重要的改动。", "filler"),
        (38049, "what", "#38049 详见 https://evil.example/x 。", "writes a link"),
        (38049, "what", "#38049 基于 #37992 为 InternViT 加入编译。", "cites #37992, not an item"),
        (38049, "what", "#38049 让 InternViT 加速 40%。", "writes 40, a figure"),
        (38049, "what", "#38049 would add torch.compile for InternVL.", "not Chinese"),
        # Only the title's words: nothing a reader did not have settles it.
        (
            38049,
            "what",
            "#38049 拟为 InternVL 视觉编码器加入 torch.compile 支持。",
            "loses `internvit`",
        ),
    ],
)
def test_a_wrong_sentence_is_dropped_with_its_true_reason(
    number: int, part: str, sentence: str, reason: str
) -> None:
    text, why = vet({part: sentence}, unit(number))
    assert text == ""
    assert why and why[0].startswith(reason), why


@pytest.mark.parametrize(
    ("number", "answer"),
    [
        (38049, {"what": WHAT}),
        (38055, {"why": WHY_38055}),
        (
            38049,
            {
                "what": WHAT,
                "why": "#38049 拟修复 `config/utils.py`，在 `to_json_string()` 失败时回退到 "
                "`to_dict()`，以处理 `InternVLChatConfig` 这样的嵌套配置对象。",
            },
        ),
    ],
)
def test_a_right_sentence_is_shown(number: int, answer: dict[str, object]) -> None:
    text, why = vet(answer, unit(number))
    assert why == [] and text == " ".join(str(v) for v in answer.values())


def test_naming_a_word_of_the_title_settles_nothing() -> None:
    """#38049's title names InternVL and torch.compile: a line naming only them could be
    said of the item whatever it did; one that names what its description adds settles."""
    about = unit(38049, description="Compile the InternVL encoder with torch.compile.")
    only_title = "#38049 拟用 torch.compile 编译 InternVL 编码器。"
    assert vet({"what": only_title}, about) == (
        "",
        ["no claim the checker can settle about its item"],
    )
    about = unit(38049, description="Compile the InternViT encoder with torch.compile.")
    beyond = "#38049 拟用 torch.compile 编译 InternViT 编码器。"
    assert vet({"what": beyond}, about) == (beyond, [])


def test_a_name_its_source_does_not_have_is_added() -> None:
    about = unit(38049, description="Compile the InternViT encoder.")
    _, why = vet({"what": "#38049 拟用 TorchInductorV2 编译 InternViT 编码器。"}, about)
    assert why == ["adds `torchinductorv2`, not in what it translates"]


def test_a_sentence_nothing_settles_never_rides_along() -> None:
    """A part of two sentences, one settled and one the checker cannot settle: the part is
    not shown (it was, before issue 51: the second rode along beside the first)."""
    about = unit(38055, reason="This causes `list index out of range` on workers. It is rare.")
    settled = "#38055 这会在 worker 节点上引发 `list index out of range`。"
    assert vet({"why": settled}, about) == (settled, [])
    text, why = vet({"why": settled + "这种情况很少见。"}, about)
    assert text == ""
    assert why == ["its part lost a sentence", "no claim the checker can settle about its item"]


def thread(**said: str) -> Unit:
    """#37975's hot thread as the model is told it: its title and its comments."""
    report = day()
    facts = _brief(report, 37975)
    facts["comments"] = [{"by": by, "role": "commenter", "text": text} for by, text in said.items()]
    return Unit("thread", 37975, facts, frozenset({37975}))


def test_a_thread_is_told_by_what_was_argued_not_by_who_posted() -> None:
    about = thread(ZJY0516="please test qwen 3.5, qwen 3 next and lora", wxsIcey="tested on XPU")
    who = "#37975: wxsIcey opened it, and ZJY0516 commented in the thread."
    assert vet({"text": who}, about, "en") == ("", ["says who posted, not what was argued"])
    zh_who = "#37975 用户 wxsIcey 提出了该 PR，ZJY0516 参与了讨论。"
    assert vet({"text": zh_who}, about)[1] == ["says who posted, not what was argued"]
    argued = "#37975: ZJY0516 asked for tests of Qwen3.5, Qwen3-Next and LoRA before it lands."
    assert vet({"text": argued}, about, "en") == (argued, [])


def test_a_thread_note_is_told_from_its_comments_text_only() -> None:
    """An argument nobody made, naming only the title's words ("可能是由于编译器不支持
    Qwen3.5"), is dropped; a comment with no text of its own gives no thread to tell."""
    about = thread(ZJY0516="please test qwen 3.5, qwen 3 next and lora")
    invented = "#37975 评论中提出的论点：可能是由于编译器不支持 Qwen3.5 引起的。"
    assert vet({"text": invented}, about) == (
        "",
        ["no claim the checker can settle about its item"],
    )
    assert not says("(text not recorded)") and not says("comment 3 (text not recorded)")
    assert not says("+1") and says("please test qwen 3.5 with lora first")


def test_a_login_with_digits_is_no_figure() -> None:
    """`dev-20` wrote a comment: 20 is not a figure the sentence made up."""
    about = thread(**{"dev-20": "please test qwen 3.5 with lora"})
    said = "#37975: dev-20 asked for tests of Qwen3.5 with LoRA."
    assert vet({"text": said}, about, "en") == (said, [])


def test_achieving_a_gain_is_no_landing() -> None:
    """ "实现了更低的延迟" says what an open PR would achieve, not that it merged: not dropped
    as "state: merged" (a true reason for a drop or none)."""
    said = "#38055 拟修复 `IndexError: list index out of range`，实现了更低的延迟。"
    _, why = vet({"why": said}, unit(38055))
    assert not any(w.startswith("state:") for w in why), why


def test_a_day_sentence_that_tells_of_items_it_does_not_cite_is_dropped() -> None:
    """ "79 PRs were opened, including one that adds X": only a number holds the item
    told to its state; a count alone stands."""
    about = day_unit(day(), "en")
    told = "79 PRs were opened, including one that adds torch.compile to InternVL."
    assert vet({"summary": told}, about, "en")[1] == ["tells of items it does not cite"]


def test_a_wrong_translation_does_not_take_a_right_one_with_it() -> None:
    """A right translation beside a wrong one: the right part is shown, the wrong is not
    (a right sentence is not dropped for its neighbour's mistake: #33948, #34328)."""
    text, why = vet({"what": WHAT, "why": "#38049 修复了 InternVL 的崩溃。"}, unit(38049))
    assert text == WHAT
    assert why == ["state: says #38049 is merged; the facts: open"]


def test_a_part_that_lost_a_sentence_is_not_shown_at_all() -> None:
    """Inside one part, a fragment that survived a wrong neighbour is no better than the
    neighbour: a translation of two sentences with one wrong is not shown."""
    wrong = "#38049 修复了 InternVL 的崩溃。"
    text, why = vet({"what": WHAT + wrong}, unit(38049))
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


def vetted(answer: dict[str, object], about: Unit, lang: str = "zh", **vendors: list[str]) -> Any:
    return Vetter(day(), vendors or RULES.vendor_names()).vet(answer, about, lang)


def test_the_count_of_sentences_shown_is_every_part_s() -> None:
    answer = {"what": WHAT, "why": WHY_38055.replace("#38055", "#38049")}
    about = unit(
        38049,
        reason="This causes `IndexError: list index out of range` on worker nodes "
        "(e.g., node 1 with rank 2, 3).",
    )
    found = vetted(answer, about)
    assert (found.rejected, found.kept) == ((), 2)
    assert found.parts == answer
    lost = vetted({**answer, "why": "#38049 修复了 InternVL 的崩溃。"}, about)
    assert (lost.parts, lost.kept, lost.text) == ({"what": WHAT}, 1, WHAT)


def test_a_part_that_is_not_text_is_quoted_and_dropped_alone() -> None:
    """The quote is cut at 80 characters; the other part is shown on its own."""
    value = ["#38049 would add torch.compile support for the InternVL vision encoder, very soon."]
    found = vetted({"what": value, "why": WHY_38055}, unit(38055))
    assert found.rejected == ((repr(value)[:80], "not text"),)
    assert len(repr(value)) > 81 and found.kept == 1 and found.text == WHY_38055


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
        text, why = vet({"summary": sentence}, today, "en")
        assert (text, why) == (sentence, [])


def test_a_summary_gives_no_cause_and_no_figure_that_is_not_a_count() -> None:
    today = day_unit(day(), "en")
    text, why = vet(
        {"summary": "19 stale items were closed because of inactivity (#37979)."}, today, "en"
    )
    assert (text, why) == ("", ["gives a cause its facts do not state"])
    text, why = vet({"summary": "The day saw 26, 24, 79, 36 and 17 (#37979)."}, today, "en")
    assert why == ["writes 17, 24, 26, a figure the checker cannot settle"]


def test_a_figure_written_beside_chinese_in_the_facts_is_given() -> None:
    """The facts are read as written (not with their Chinese escaped): "减少30%" gives 30."""
    about = unit(38049, reason="InternViT 视觉编码器耗时减少30%。")
    text, why = vet({"why": "#38049 拟让 InternViT 视觉编码器耗时减少 30%。"}, about)
    assert why == [] and text


def test_a_line_of_the_chinese_edition_is_chinese_for_a_fifth_of_its_letters() -> None:
    """Letters, not characters: "#38055 拟加 torch.compile" is 2 of 14; "#38055。" has
    none."""
    for sentence in ("#38055 拟加 torch.compile", "#38055。"):
        assert vet({"why": sentence}, unit(38055)) == ("", ["not Chinese"])


def test_a_sentence_that_copies_any_of_its_item_s_texts_adds_nothing() -> None:
    """The description, a thread's body, a comment: each is the item's own words (an
    English sentence of a thread's note that copies a comment tells nothing new)."""
    said = "The vision tower goes through Inductor graphs, once wired in InternViT."
    again = "#37975: the vision tower goes through Inductor graphs in InternViT."
    assert vet({"text": again}, thread(ywang96=said), "en")[1] == [
        "copies its item's title or description"
    ]


def test_a_sentence_naming_what_its_facts_do_not_lists_three_of_them() -> None:
    sentence = "#37975: ZJY0516 asked to test TorchInductorV2, FooBar1, BazQux2 and Quux3."
    _, why = vet({"text": sentence}, thread(ZJY0516="please test qwen 3.5 and lora"), "en")
    assert why == ["names `bazqux2`, `foobar1`, `quux3`, not in its facts"]


def test_a_vendor_the_item_is_filed_under_may_be_named() -> None:
    """#37992 is filed under AMD; a vendor known by one name only (MI300X here) is given to
    a thread's note (a translation keeps to what it translates)."""
    facts = _brief(day(), 37992)
    facts["comments"] = [{"by": "tjtanaa", "role": "commenter", "text": "same crash on gfx942"}]
    about = Unit("thread", 37992, facts, frozenset({37992}))
    sentence = "#37992: tjtanaa saw the same crash on gfx942, an MI300X."
    found = vetted({"text": sentence}, about, "en", amd=["MI300X"])
    assert (found.text, found.rejected) == (sentence, ())
    found = vetted({"text": sentence}, about, "en", nvidia=["MI300X"])
    assert found.rejected == ((sentence, "names `mi300x`, not in its facts"),)


def test_a_title_the_item_does_not_have_is_quoted_with_the_real_one() -> None:
    sentence = "#38049 (Add torch.compile for Qwen vision) 拟为 InternViT 加入编译。"
    _, why = vet({"what": sentence}, unit(38049))
    assert why[0] == (
        "title: says #38049 is Add torch.compile for Qwen vision; the facts: "
        "[Model] Add torch.compile support for InternVL vision encoder"
    )


def test_a_claim_about_another_item_is_told_by_that_item() -> None:
    _, why = vet({"text": "#37992 was reported by tjtanaa on ROCm."}, thread(a="b c d e"), "en")
    assert why[0] == "author: says #37992 is by tjtanaa; the facts: xuebwang-amd"


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
    about = unit(38049, description=description)
    assert vet({"what": what}, about) == (what, [])


@pytest.mark.parametrize("missing", ["description", "title"])
def test_a_translation_of_facts_without_a_description_or_title_is_checked(missing: str) -> None:
    """Nothing to translate: the `what` is checked as any sentence (its names in its facts)."""
    what = "#38049 拟为 InternViT 视觉编码器加入 torch.compile 支持。"
    facts = {**unit(38049, reason="InternViT is compiled eagerly today.").facts}
    facts["description"] = "Add `torch.compile` support for the InternViT vision encoder."
    del facts[missing]
    assert vet({"what": what}, Unit("item", 38049, facts, frozenset({38049}))) == (what, [])


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


def test_a_model_is_given_whole_sentences_only() -> None:
    """The report cuts an own line at 200 characters and a reason at 220; a model given
    "… microbenchmarking data across…" finished it ("across devices", made up). What it is
    given to translate is whole sentences, the same ones the report quotes, however long."""
    report = day()
    units = item_units(report, "zh")
    assert report.sections is not None and len(units) >= 8
    cut_in_report = [u for u in units if report.sections.what[u.number].endswith("…")]
    assert cut_in_report, "the day has an own line the report cuts"
    for told in units:
        for field in ("description", "reason"):
            assert not told.facts[field].endswith(("…", "...")), (told.number, field)
    for told in cut_in_report:
        shown = report.sections.what[told.number].rstrip("…")
        assert told.facts["description"].startswith(shown[:80])


def test_a_translation_keeps_the_names_it_qualifies_with() -> None:
    """ "replaced the numpy-based `compute_slot_mapping` with a Triton-only kernel launch"
    came back as "replaced a Triton-only `compute_slot_mapping`": the reverse, found by the
    name it lost (`numpy`, written in lower case). A word Chinese has a word for is no such
    name, and "OOM" keeps "OOMs"."""
    source = (
        "PR #32951 replaced the numpy-based `compute_slot_mapping` with a Triton-only "
        "kernel launch."
    )
    turned = "PR #32951 替换了一个 Triton-only 的 `compute_slot_mapping` 函数。"
    assert translation_fault(turned, source) == "loses `numpy` of what it translates"
    kept = "PR #32951 将基于 numpy 的 `compute_slot_mapping` 替换为 Triton-only 的内核启动。"
    assert translation_fault(kept, source) is None
    assert (
        translation_fault(
            "在高并发下，N 增长到 ~300K+，导致一个 ~9.89 GiB 的分配 OOM。",
            "At high concurrency, N grows to ~300K+, causing a ~9.89 GiB allocation that OOMs.",
        )
        is None
    )
