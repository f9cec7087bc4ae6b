"""How `check` reads a report before it checks anything (bot/analyze/claims/reading.py): which
vendor section and paragraph a sentence stands in, where sentences break, and which words are
quotes (an item's title or its own description) rather than the writer's. A wrong reading
here makes `check` blame a correct report or wave a wrong one through, so each rule is pinned
on the exact values it gives.
"""

from __future__ import annotations

from bot.analyze.claims.facts import Facts
from bot.analyze.claims.reading import FILL, Sentence, _title_prefix, quoted, sentences
from bot.model.report import Report
from tests.factories import REPO, WINDOW_0326, item

# Real titles and a real description of vLLM items (2026-03-25).
TCMALLOC = item(
    37607,
    "pr",
    title="[CPU] Enable tcmalloc by default",
    body="Enable tcmalloc by default for best OOB perf on x86 servers.",
    author="bigPYJ1151",
)
BEAM = item(20316, title="[Performance]: Optimize beam search code", author="zhanggzh")
SHORT = item(35182, "pr", title="Reorganize", author="DarkLight1337")


def facts(*items: object) -> Facts:
    found = {it.number: it for it in (items or (TCMALLOC, BEAM, SHORT))}  # type: ignore[attr-defined]
    report = Report(REPO, WINDOW_0326, True, {}, found, {})  # type: ignore[arg-type]
    return Facts(report)


def read(text: str, of: Facts | None = None) -> list[Sentence]:
    return list(sentences(text, of))


# -- where a sentence stands ----------------------------------------------------------------


def test_a_vendor_heading_places_its_lines_until_the_next_section() -> None:
    text = (
        "## 📊 Summary\n"
        "#1000 was merged.\n"
        "### 🎯 AMD/ROCm 生态相关动态\n"
        "#1001 was merged.\n"
        "### Merged PRs (2)\n"
        "#1002 was merged.\n"
        "## 🔥 Hot discussions\n"
        "#1003 is open.\n"
    )
    found = [(s.text, s.vendor) for s in read(text)]
    assert found == [
        ("#1000 was merged.", None),
        ("#1001 was merged.", "AMD/ROCm 生态相关动态"),
        ("Merged PRs (2)", "AMD/ROCm 生态相关动态"),  # a part of the vendor's section
        ("#1002 was merged.", "AMD/ROCm 生态相关动态"),
        ("#1003 is open.", None),
    ]


def test_a_line_of_vendor_figures_is_a_sentence_not_a_heading() -> None:
    found = [(s.text, s.vendor) for s in read("🎯 AMD / ROCm: 11 merged PRs\n#1 is open.")]
    assert found == [("🎯 AMD / ROCm: 11 merged PRs", None), ("#1 is open.", None)]


def test_nothing_is_read_from_the_appendix_on() -> None:
    text = "#1000 was merged.\n## 📋 Appendix\n- #1001 merged by someone\n"
    assert [s.text for s in read(text)] == ["#1000 was merged."]
    assert [s.text for s in read("#1 is open.\n### 附录：全部条目\n#2 is open.")] == ["#1 is open."]


def test_a_list_item_and_the_lines_under_it_are_one_paragraph() -> None:
    text = (
        "- Issue #38256 is open.\n"
        "   • 观点与状态：still open.\n"
        "- #38257 was merged.\n"
        "\n"
        "#38258 is open.\n"
        "#38259 is open.\n"
    )
    paragraphs = [s.paragraph for s in read(text)]
    assert paragraphs[0] == paragraphs[1]  # the item and the line indented under it
    assert len({paragraphs[1], paragraphs[2], paragraphs[3]}) == 3  # next item; blank line
    assert paragraphs[3] == paragraphs[4]  # lines of one paragraph without a list


def test_a_sub_heading_opens_a_paragraph_of_its_own() -> None:
    found = read("#1 is open.\n### Merged PRs (9)\n#2 was merged.")
    assert [s.text for s in found] == ["#1 is open.", "Merged PRs (9)", "#2 was merged."]
    assert found[0].paragraph != found[1].paragraph == found[2].paragraph


def test_an_item_at_the_same_depth_opens_a_new_paragraph_a_deeper_one_does_not() -> None:
    found = read("- #1 is open.\n  - #2 is open.\n- #3 is open.")
    assert found[0].paragraph == found[1].paragraph != found[2].paragraph


def test_a_paragraph_after_a_blank_line_and_a_sub_heading_is_never_an_earlier_one() -> None:
    """Paragraphs are told apart by number: each break takes a new one, never one in use."""
    found = read("#1 is open.\n\n### Merged PRs (1)\n#2 was merged.")
    assert found[0].paragraph not in {found[1].paragraph, found[2].paragraph}


def test_nested_items_at_one_depth_are_paragraphs_of_their_own() -> None:
    """After a break, the first item sets the depth its siblings are measured by, however
    deep it stands (a Chinese report nests its items under a vendor's line)."""
    for before in ("", "\n", "### Merged PRs (2)\n"):
        found = read(before + "  - #1 is open.\n  - #2 is open.")[-2:]
        assert found[0].paragraph != found[1].paragraph, before


# -- where a sentence breaks ----------------------------------------------------------------


def test_sentences_break_after_their_mark_and_only_the_first_opens_the_line() -> None:
    found = read("#1 was merged. #2 is open; #3 was closed! #4 已合并。仍在审阅\n#5 is open.")
    assert [(s.text, s.opens_line) for s in found] == [
        ("#1 was merged.", True),
        ("#2 is open;", False),
        ("#3 was closed!", False),
        ("#4 已合并。", False),
        ("仍在审阅", False),
        ("#5 is open.", True),
    ]


def test_a_stop_before_a_lower_case_word_does_not_break_a_sentence() -> None:
    assert [s.text for s in read("Fixes e.g. the case. More follows")] == [
        "Fixes e.g. the case.",
        "More follows",
    ]


def test_list_marks_and_emphasis_around_a_sentence_are_not_part_of_it() -> None:
    found = read("- **#1 was merged.**\n> #2 is open.")
    assert [s.text for s in found] == ["#1 was merged.", "#2 is open."]
    assert all(s.masked == s.text for s in found)  # no facts: nothing is a quote


def test_links_are_read_as_the_number_they_show() -> None:
    markdown = read("[#37607](https://github.com/vllm-project/vllm/pull/37607) was merged.")
    slack = read("<https://github.com/vllm-project/vllm/pull/37607|#37607> was merged.")
    assert [s.text for s in markdown] == [s.text for s in slack] == ["#37607 was merged."]


# -- what is a quote ------------------------------------------------------------------------


def blanked(line: str, of: Facts | None = None) -> str:
    """The line with each quote shown as [Q]."""
    masked = quoted(line, of or facts())
    assert len(masked) == len(line)  # character for character
    out, inside = [], False
    for char in masked:
        if char == FILL and not inside:
            out.append("[Q]")
        if char != FILL:
            out.append(char)
        inside = char == FILL
    return "".join(out)


def no_quote(line: str) -> bool:
    return blanked(line) == line


def test_a_title_after_its_number_is_a_quote() -> None:
    assert blanked("#37607 [CPU] Enable tcmalloc by default was merged by bigPYJ1151") == (
        "#37607 [Q] was merged by bigPYJ1151"
    )
    assert blanked("#37607: **[cpu] enable  tcmalloc by default** by someone") == (
        "#37607: **[Q]** by someone"  # case, runs of spaces and a colon aside
    )


def test_a_title_without_its_tags_or_after_a_kind_label_is_a_quote() -> None:
    line = "#37607【修复】Enable tcmalloc by default（已合并）"
    assert blanked(line) == "#37607【修复】[Q]（已合并）"
    assert blanked("#20316 (Optimize beam search code) is open") == "#20316 ([Q]) is open"


def test_a_cut_title_is_a_quote_up_to_its_cut_mark() -> None:
    assert blanked("#20316 [Performance]: Optimize beam… is open") == "#20316 [Q] is open"
    assert blanked("#20316 [Performance]: Optimize beam... is open") == "#20316 [Q] is open"
    # Cut without a mark: a quote only once 24 characters of the title agree.
    assert blanked("#20316 [Performance]: Optimize beam is open") == (
        "#20316 [Q]is open"  # 36 characters agree (the space after them too)
    )
    assert no_quote("#20316 [Performance]: Opt was closed")


def test_a_cut_title_is_read_with_a_space_before_its_mark_and_another_mark_before_it() -> None:
    assert blanked("#20316 [Performance]: Optimize beam … is open") == "#20316 [Q] is open"
    assert blanked("#20316 [Performance]: Optimize bea … is open") == "#20316 [Q] is open"
    line = "Also … #20316 [Performance]: Optimize beam… is open"
    assert blanked(line) == "Also … #20316 [Q] is open"


def test_a_title_ending_in_spaces_or_a_line_ending_inside_a_title_is_read() -> None:
    spaced = item(38001, "pr", title="Optimize beam search code  ", author="x")
    assert blanked("#38001 Optimize beam search code  ", facts(spaced)) == "#38001 [Q]"
    # The line ends in the spaces inside the title: 25 characters agree, a cut title.
    assert blanked("#20316 [Performance]: Optimize  ") == "#20316 [Q]"


def test_a_title_with_words_run_together_is_not_the_title() -> None:
    assert _title_prefix("x Optimize beamsearch code", 2, "Optimize beam search code") == 0
    assert _title_prefix("x Optimize beam search code", 2, "Optimize beamsearch code") == 0


def test_a_line_that_opens_with_an_items_words_is_a_quote() -> None:
    one = item(38002, "pr", title="A faster fused MoE kernel for MI300X", author="x")
    assert blanked("A faster fused MoE kernel — in review", facts(one)) == "[Q] — in review"


def test_a_short_title_is_a_quote_only_when_written_whole() -> None:
    assert blanked("#35182 Reorganize was merged") == "#35182 [Q] was merged"
    assert no_quote("#35182 Reorg was merged")


def test_a_title_is_a_quote_only_after_its_own_number() -> None:
    assert no_quote("#20316 [CPU] Enable tcmalloc by default")
    assert blanked("#99999 [CPU] Enable tcmalloc by default by x") == (
        "#99999 [CPU] Enable tcmalloc by default by x"  # an item nobody knows
    )


def test_an_items_own_words_are_a_quote_in_a_part_of_four_words_or_more() -> None:
    line = "#37607 — Enable tcmalloc by default for best OOB perf"
    assert blanked(line) == "#37607 — [Q]"
    # Three words of the description are the writer's own.
    assert no_quote("#37607 — for best OOB · merged by x")
    # A description is a quote only on the line that names its item.
    assert no_quote("#20316 — best OOB perf on x86 servers")
    assert blanked("#37607 — best OOB perf on x86 servers…") == "#37607 — [Q]"


def test_a_title_quoted_anywhere_on_a_line_is_a_quote() -> None:
    assert no_quote("Today: Optimize beam search code, at last")
    assert blanked("Today: [Performance]: Optimize beam search code") == "Today: [Performance]: [Q]"


def test_plain_text_keeps_the_writers_words_and_marks_each_quote() -> None:
    [said] = read("#37607 [CPU] Enable tcmalloc by default was merged.", facts())
    assert said.text == "#37607 [CPU] Enable tcmalloc by default was merged."
    assert said.plain == "#37607 “” was merged."


def test_title_prefix_measures_the_characters_that_write_the_title() -> None:
    title = "Optimize beam search code"
    assert _title_prefix("x Optimize beam search code!", 2, title) == len(title)
    assert _title_prefix("x OPTIMIZE   beam search code", 2, title) == len(title) + 2
    assert _title_prefix("x Optimize beam…", 2, title) == len("Optimize beam…")
    # Cut without a mark: a title once 24 characters agree, none before.
    assert _title_prefix("x Optimize beam search cod!", 2, title) == 24
    assert _title_prefix("x Optimize beam search co!", 2, title) == 0
    assert _title_prefix("x Optimize b", 2, title) == 0
    assert _title_prefix("x Optimize b…", 2, title) == len("Optimize b…")  # ten, then the mark
    assert _title_prefix("x Optimize …", 2, title) == 0  # nine
    assert _title_prefix("x Optimiz", 2, title) == 0


def test_an_item_is_known_from_the_window_its_context_or_the_archive() -> None:
    report = Report(REPO, WINDOW_0326, True, {}, {TCMALLOC.number: TCMALLOC}, {})  # type: ignore[arg-type]
    report.context[BEAM.number] = BEAM
    known = Facts(report, {SHORT.number: SHORT})
    assert [known.item(n) for n in (37607, 20316, 35182, 1)] == [TCMALLOC, BEAM, SHORT, None]
    # A title from any of them is a quote.
    assert blanked("#35182 Reorganize was merged", known) == "#35182 [Q] was merged"
    assert blanked("#20316 Optimize beam search code", known) == "#20316 [Q]"
