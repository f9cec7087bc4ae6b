"""Each item a report tells first says why it matters from facts the title does not give,
or says nothing: the issue it fixes (its title), what it reverts or backports, the
author's figure, a default it changes, the description's sentence that says what changes
or goes wrong, what its landing waits on; each true of the item's state. Never a diff
size, a kind of work, a comment count or a bare name in a reason's place. The Chinese
edition tells the same items: every one it features with a Chinese sentence of its own,
an English quote only beside one, every sentence of its own Chinese. Real fixture days,
analysed in memory.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from functools import cache

import pytest

from bot.analyze import analyze
from bot.analyze.explain import issue_work, pr_work
from bot.model.outline_parts import Our, Ref, Theirs
from bot.model.report import PullDetails, Report
from bot.model.rules import load_rules
from bot.model.windows import Window
from formatters import outline as ol
from formatters import outline_entries as oe
from formatters.figures_zh import figure_zh
from tests.anchor_data import anchor_days, anchor_items, as_activity
from tests.factories import item

RULES = load_rules()
DAYS = {"03-11": 0, "03-24": 1, "03-25": 2}
# A size ("+10 −2 in 1 file"), a kind of work standing alone ("A fix for MoE.", "修复：MoE。").
SIZE = re.compile(r"\+\d+ [−-]\d+|\d+ files?\b|个文件")
KIND_ONLY = re.compile(
    r"^(?:A|An) [a-z ()]+(?: for [^.]+)?\.$"
    r"|^(?!影响：|用户报告)[\u4e00-\u9fff ]{2,8}(?:（[^）]*）)?(?:：[^。]*)?。$"
)


@cache
def fixture_day(index: int, sized: bool = False) -> Report:
    """A fixture day; `sized`: every PR of the window has a size and reviewers, as the
    pulls API gives them on a real day."""
    day = anchor_days()[index]
    window = Window(day.start, day.end, "Asia/Shanghai", day.label)
    items = [as_activity(it) for it in anchor_items()]
    details = {
        it.number: PullDetails(it.number, 10, 2, 1, ("alice", "bob", "carol"))
        for it in items
        if sized and it.kind == "pr"
    }
    return analyze(
        items, window, repo="vllm-project/vllm", rules=RULES, complete=True, details=details
    )


def words(line: tuple[object, ...]) -> str:
    return "".join(getattr(p, "text", "") for p in line)


def told_first(report: Report, lang: str) -> list[ol.Entry]:
    """Every entry of the report that tells an item where it first appears."""
    full = ol.outline(report, lang)
    gist, sections = ol.once(full.gist, full.body)
    entries = [*gist, *(e for s in sections for b in s.blocks for e in b.entries)]
    first: dict[int, ol.Entry] = {}
    for entry in entries:
        if entry.number is not None:
            first.setdefault(entry.number, entry)
    return list(first.values())


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", list(DAYS))
def test_no_size_and_no_bare_kind_stands_where_a_reason_should(day: str, lang: str) -> None:
    """Every PR of the day has a size and three reviewers, as on a real day: none of it is
    offered as a reason, and no line is a kind of work alone."""
    report = fixture_day(DAYS[day], sized=True)
    lines = [words(line) for entry in told_first(report, lang) for line in entry.lines]
    # The titles-only day has nothing to say in English, a Chinese sentence a title in Chinese.
    assert len(lines) >= (5 if day != "03-11" else 2 if lang == "zh" else 0)
    assert [line for line in lines if SIZE.search(line)] == []
    assert [line for line in lines if KIND_ONLY.match(line)] == []
    assert not [line for line in lines if re.search(r"\b3 reviewers|3 位审阅者", line)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", list(DAYS))
def test_every_why_is_a_fact_of_its_item(day: str, lang: str) -> None:
    """A why line is said from the item's facts: each item it links is one the item fixes,
    reverts, backports or is fixed or reverted by; each name it says is one the item's
    title or description names."""
    report = fixture_day(DAYS[day])
    assert report.sections is not None
    whys = 0
    for number, found in report.sections.explained.items():
        line = oe.why(report, number, lang)
        if line is None:
            continue
        whys += 1
        linked = {p.number for p in line if isinstance(p, Ref)}
        related = {
            *found.fixes,
            *found.fixed_by,
            *found.reverts,
            *found.reverted_by,
            *found.backports,
        }
        assert linked <= related, (number, linked)
        item = report.item(number)
        source = set(re.findall(r"[a-z0-9]+", f"{item.title} {item.body or ''}".lower()))
        titles = {report.item(n).title for n in linked if oe.known(report, n)}
        for part in line:
            if isinstance(part, Theirs) and part.text not in titles:
                said = set(re.findall(r"[a-z0-9]+", part.text.lower()))  # the author's words
                assert len(said & source) >= 0.9 * len(said), (number, part)
    assert whys >= (0 if day == "03-11" else 8)  # the titles-only day: no description


def test_the_issue_a_pr_fixes_is_named_with_its_title_and_the_state_is_true() -> None:
    """#38174 (in review) says it fixes #38173: the line names the request and its title,
    and says it would fix it; merged, it fixes it; closed without merging, it had only
    proposed to."""
    report = fixture_day(2)
    en = words(oe.why(report, 38174, "en") or ())
    zh = words(oe.why(report, 38174, "zh") or ())
    title = report.item(38173).title
    assert f"would fix #38173 “{title[:40]}" in en
    assert f"拟修复 #38173「{title[:40]}" in zh
    end = report.window.end - timedelta(hours=1)
    merged = replace(report.item(38174), merged_at=end, closed_at=end, state="closed")
    landed = replace(report, items={**report.items, 38174: merged})
    assert "fixes #38173 “" in words(oe.why(landed, 38174, "en") or ())
    closed = replace(report.item(38174), closed_at=end, state="closed")
    dropped = replace(report, items={**report.items, 38174: closed})
    said = words(oe.why(dropped, 38174, "en") or ())
    assert "had proposed a fix for #38173" in said and "would fix" not in said


def test_the_authors_figure_a_default_and_a_backport_are_said_where_the_title_does_not() -> None:
    """#38139's 48.9% is in its title (the Chinese edition says it in its Chinese sentence);
    #37607 turns tcmalloc on by default, and its author adds that pre-built wheels will have
    it; #38145's title says what it backports and where, so its why is the bug it brings
    the fix of; #38077 reports wrong output, which its title says: no line."""
    report = fixture_day(2)

    def line(number: int, lang: str) -> str:
        return words(oe.why(report, number, lang) or ())

    assert line(38139, "en") == line(38139, "zh") == ""
    assert "作者实测端到端吞吐提升 48.9%" in words(oe.chinese_sentence(report, 38139) or ())
    assert "pre-built wheels will also have tcmalloc ON by default" in line(37607, "en")
    assert line(37607, "zh").startswith("影响：更改默认值（「")
    assert line(38145, "en").startswith("Why it matters: the author explains “`AiterTritonMLA")
    assert "brings" not in line(38145, "en")
    assert line(38077, "en") == line(38077, "zh") == ""


# What a reason line never is: a comment count, a bare name, a symptom the title has.
_EMPTY_REASON = re.compile(
    r"comments? so far|条评论|it concerns|涉及 |\breports (?:a crash|a hang|wrong output|a "
    r"regression)|反馈出现|implements arXiv|实现论文"
)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", list(DAYS))
def test_no_reason_line_is_a_count_a_bare_name_or_the_title_again(day: str, lang: str) -> None:
    """Every why line holds a fact beyond its title: an item it links, the author's words
    quoted, a figure or what its landing waits on; none is a comment count, "it concerns
    MI355" or "reports a crash" under a title that says so."""
    report = fixture_day(DAYS[day])
    assert report.sections is not None
    for number in report.sections.explained:
        line = oe.why(report, number, lang)
        if line is None:
            continue
        said = words(line)
        assert not _EMPTY_REASON.search(said), (number, said)
        facts = [p for p in line if isinstance(p, (Ref, Theirs))]
        figure = re.search(r"measured|实测", said)
        assert facts or figure, (number, said)


def test_a_backport_closed_without_merging_brings_nothing() -> None:
    """A backport is told as bringing its PR to a release only when merged; while open it
    would; closed without merging it brings nothing (#38145 with a title that names only
    the number, #31816's own title known)."""
    report = fixture_day(2)
    original = replace(
        report.item(38145),
        number=31816,
        title="[Bugfix] Fix ROCM_AITER_TRITON_MLA accuracy for DeepSeek-V3",
        state="closed",
    )
    title = "[Bugfix][ROCm] Backport PR #31816 to v0.13.0"
    end = report.window.end - timedelta(hours=1)
    for state, word in (
        ("merged", "brings #31816"),
        ("open", "would bring #31816"),
        ("closed", ""),
    ):
        changed = replace(report.item(38145), title=title)
        if state != "open":
            changed = replace(changed, closed_at=end, state="closed")
        if state == "merged":
            changed = replace(changed, merged_at=end)
        told = replace(
            report,
            items={**report.items, 38145: changed},
            context={**report.context, 31816: original},
        )
        said = words(oe.why(told, 38145, "en") or ())
        if word:
            assert word in said and "Fix ROCM_AITER_TRITON_MLA" in said, (state, said)
        else:
            assert "bring" not in said, said


@pytest.mark.parametrize("day", list(DAYS))
def test_the_chinese_edition_tells_the_same_items_each_featured_one_in_a_chinese_sentence(
    day: str,
) -> None:
    """The same items in the same order; every item What happened, the key changes and the
    notable issues feature has a Chinese sentence of its own (a line, or its head line's
    Chinese title where it was told before); an English quote stands only beside one;
    titles are whole where first told, and a later mention names its item."""
    report = fixture_day(DAYS[day])
    en, zh = told_first(report, "en"), told_first(report, "zh")
    assert [e.number for e in en] == [e.number for e in zh]
    featured = {f.number for f in ol.featured(report)}
    full = ol.outline(report, "zh")
    gist, sections = ol.once(full.gist, full.body)
    entries = [
        *gist,
        *(e for s in sections if s.key != "appendix" for b in s.blocks for e in b.entries),
    ]
    said: dict[int, list[str]] = {}
    for entry in entries:
        if entry.number is not None:
            said.setdefault(entry.number, []).extend(
                words(line) for line in (entry.head, *entry.lines)
            )
    for number in featured:
        lines = said.get(number, [])
        sentence = [line for line in lines if _HAN.search(re.sub(_FRAMES, "", line))]
        assert sentence, (number, lines)
    for entry in entries:
        quotes = [
            words(line) for line in entry.lines if "「" in words(line) and "作者说明" in words(line)
        ]
        if quotes:
            assert any(
                _HAN.search(re.sub(_FRAMES, "", words(line)))
                for line in entry.lines
                if line not in quotes
            ) or _HAN.search(re.sub(_FRAMES, "", words(entry.head))), entry.number
    for entry in gist:
        title = next((p for p in entry.head if isinstance(p, Theirs)), None)
        assert title is not None and len(title.text) <= title.limit  # whole
    again = [
        e.head for s in sections for b in s.blocks for e in b.entries if "见上" in words(e.head)
    ]
    assert all(any(isinstance(p, Theirs) for p in head) for head in again)


_HAN = re.compile(r"[\u4e00-\u9fff]{2}")
# Our frames, which are no sentence of an item's own: states, labels, the why's head.
_FRAMES = re.compile(
    r"【[^】]*】|— [^·]*|· \S+|影响：|作者说明|报告写道|更改默认值|已合并|审阅中|待处理|草稿"
    r"|未合并关闭|已解决|见上|「[^」]*」"
)


_OUR_ENGLISH = re.compile(r"(?<![\w-])[A-Za-z][a-z]{2,}(?![\w-])")
# The names a Chinese sentence of ours may keep: the platform's and the trade's own words.
_NAMES = frozenset(
    {
        *("Issue", "PR", "PRs", "RFC", "CI", "MoE", "ROCm", "AMD", "NVIDIA", "Intel", "TPU"),
        *("CPU", "Arm", "Google", "TLI", "LoRA", "KV", "Spark", "GitHub", "arXiv", "tokens"),
        *("vLLM", "Blackwell", "Hopper", "Ampere", "Graviton", "Apple", "Silicon", "Gaudi", "Arc"),
        # The trade's own words, as Chinese developers write them: GitHub's stale bot, a
        # backport to a release (回移 read as a literal coinage).
        *("stale", "backport"),
    }
)


@pytest.mark.parametrize("day", list(DAYS))
def test_every_sentence_the_chinese_edition_writes_itself_is_chinese(day: str) -> None:
    """What stays Latin in the Chinese edition is strangers' text (titles, the quoted
    description, logins, names, figures): no English word of ours under a Chinese frame."""
    report = fixture_day(DAYS[day])
    full = ol.outline(report, "zh")
    ours = [
        p.text
        for s in full.body
        for b in s.blocks
        for e in b.entries
        for line in (e.head, *e.lines)
        for p in line
        if isinstance(p, Our)
    ]
    english = {w for said in ours for w in _OUR_ENGLISH.findall(said)} - _NAMES
    assert english == set()


def test_a_prs_kind_of_work_is_what_its_title_says_not_a_subject_tag() -> None:
    """A kind of work is named by a kind tag or the title's first verb; a subject tag
    ([MoE], [Kernel], [Model]) names none: a [MoE Refactor] rename is a refactor, not a
    performance change."""
    cases = {
        "[Bugfix][ROCm] Fix mxfp4 oracle regressions from #37128": "fix",
        "Fix Device Index for ROCm Ray Workers in MoE Benchmark": "fix",
        "[Perf] Remove redundant device copies for CPU-only pooling": "performance",
        "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration": None,
        "[MoE Refactor] Rename FusedMoE to MoELayer": "refactor",
        "[Kernel] Optimize SM120 CUTLASS blockwise FP8 GEMM": "performance",
        "[Quantization] Add TurboQuant dynamic kv cache compression": "feature",
        "[Feature] Support per-draft-model MoE backend": "feature",
        "[Model] Extract GatedDeltaNetAttention into shared layer": "refactor",
        "[Model] Add Phi-4-reasoning-vision": "model",
        'Revert "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration" (#38050)': "revert",
        "[Bugfix][Backport] Backport PR #31816 to v0.13.0": "backport",
        "[CI] Skip flaky test_foo on MI355": "test",
        "[Doc] Fix typo in the quickstart": "fix",
        "Enable tcmalloc by default": "feature",
        "feat: add RISC-V support for CPU backend (v2)": "feature",  # Conventional Commits
        "fix(cpu): guard the AMX path": "fix",
        "Bug fix for some unexpected error when use FP8": "fix",
        "[Model Runner V2] Add WhisperModelState [6/N]": "feature",  # a subsystem, no model
    }
    found = {title: pr_work(item(1, "pr", title=title)) for title in cases}
    assert found == cases


def test_an_issues_kind_is_its_templates() -> None:
    cases = {
        "[Bug]: Qwen3.5-9B answer !!!!!!!!!": "bug",
        "[RFC]: Incremental MoE Expert Offloading": "rfc",
        "[Feature]: fused RMSNorm + fp8 block quantized kernel": "feature_request",
        "[Usage]: how does cpu offload work?": "usage",
        "[CI Failure]: LM Eval Large Models (H200)": "ci_failure",
        "[Installation]: Ray not present in Container Image": "installation",
    }
    assert {t: issue_work(item(1, "issue", title=t)) for t in cases} == cases


@pytest.mark.parametrize(
    ("phrase", "chinese"),
    [
        ("48.9% E2E throughput improvement", "端到端吞吐提升 48.9%"),
        ("3.6x to 7.4x speedup", "加速 3.6x 至 7.4x"),
        ("up to 5% lower latency", "延迟最多降低 5%"),
        ("15% reduced TTFT", "TTFT 降低 15%"),
        # A gain of a measure wanted lower is a drop; the unit follows its number.
        ("latency improvement of 20%", "延迟降低 20%"),
        ("200 tokens/s", "200 tokens/s"),
        ("around 5% E2E perf improvement", "端到端性能提升约 5%"),
        ("2x faster on MI300X", "「2x faster on MI300X」"),  # a word it cannot say: quoted
    ],
)
def test_a_claimed_figure_is_said_in_chinese_or_quoted(phrase: str, chinese: str) -> None:
    assert figure_zh(phrase) == chinese
