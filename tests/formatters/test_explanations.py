"""Without a model the report still says, of each item it tells first, what it is and why it
matters, from facts, in the reader's language: the kind of work (its tags, labels and first
words), what it concerns (topics, hardware, models), the figures it claims, what it fixes
or reverts, its size and reviewers, an issue's severity and talk. Chinese is written as
Chinese, the English it quotes visibly a quote. On real fixture days, analysed in memory.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot.analyze import analyze
from bot.analyze.explain import issue_work, pr_work
from bot.model.report import Report
from bot.model.rules import load_rules
from bot.model.windows import Window
from formatters import outline as ol
from formatters import outline_entries as oe
from formatters._text import truncate
from formatters.figures_zh import figure_zh
from formatters.markdown import render_markdown
from tests.anchor_data import anchor_days, anchor_items, as_activity
from tests.factories import item

RULES = load_rules()
# Of the Chinese body's letters (appendix aside): 0.82-0.88 when items were English lines
# under Chinese headings; the published reports, which translate titles: 0.35-0.43. What
# stays Latin is names: titles (quoted, 44 characters), logins, hardware, models.
LATIN_SHARE_ZH = {"03-11": 0.60, "03-24": 0.60, "03-25": 0.60}


@cache
def fixture_day(index: int) -> Report:
    day = anchor_days()[index]
    window = Window(day.start, day.end, "Asia/Shanghai", day.label)
    items = [as_activity(it) for it in anchor_items()]
    return analyze(items, window, repo="vllm-project/vllm", rules=RULES, complete=True)


def said(entry: ol.Entry) -> list[str]:
    return ["".join(p.text for p in line) for line in entry.lines]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("index", [0, 1, 2], ids=["03-11", "03-24", "03-25"])
def test_every_item_told_first_has_a_line_of_why_from_the_facts(index: int, lang: str) -> None:
    """What happened, the key changes and the notable issues: each item has a line the
    facts wrote (its kind of work, what it concerns, why it matters)."""
    report = fixture_day(index)
    full = ol.outline(report, lang)
    told = [*full.gist]
    for key in ("key", "notable"):
        section = full.section(key)
        assert section is not None
        told += [e for b in section.blocks for e in b.entries if e.number is not None]
    assert len(told) >= 8
    for entry in told:
        assert entry.number is not None
        # The line as the entry gives it: all of it, or its reasons beside the item's own
        # words, the links left to its story's line.
        variants = {
            "".join(p.text for p in line)
            for what in (True, False)
            for links in (True, False)
            if (line := ol.explained(report, entry.number, lang, what=what, links=links, bare=True))
        }
        assert variants & set(said(entry)), (entry.number, said(entry))


def latin_share(markdown: str) -> float:
    body = markdown.split("## 📋")[0]
    body = re.sub(r"\]\([^)]*\)", "]", body)  # link targets are not read
    latin = sum(1 for c in body if c.isascii() and c.isalpha())
    chinese = sum(1 for c in body if "\u4e00" <= c <= "\u9fff")
    return latin / (latin + chinese)


@pytest.mark.parametrize("index", [0, 1, 2], ids=["03-11", "03-24", "03-25"])
def test_the_chinese_edition_speaks_chinese(index: int) -> None:
    """No English sentence under a Chinese frame: items are described in Chinese (the
    English descriptions are the English edition's), titles quoted shorter with their tags
    said in Chinese; what stays Latin is names (titles, logins, hardware, models)."""
    report = fixture_day(index)
    zh, en = render_markdown(report, "zh"), render_markdown(report, "en")
    assert latin_share(zh) <= LATIN_SHARE_ZH[("03-11", "03-24", "03-25")[index]]
    assert latin_share(en) > 0.95
    own_words = [w for w in (report.sections.what.values() if report.sections else ()) if w]
    body = zh.split("## 📋")[0]
    assert not [w for w in own_words if w[:40] in body]  # no English description pasted in


def test_a_prs_kind_of_work_is_what_its_title_says_first() -> None:
    cases = {
        "[Bugfix][ROCm] Fix mxfp4 oracle regressions from #37128": "fix",
        "Fix Device Index for ROCm Ray Workers in MoE Benchmark": "fix",
        "[Perf] Remove redundant device copies for CPU-only pooling": "performance",
        "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration": "kernel",
        "[Feature] Support per-draft-model MoE backend": "feature",
        "[Model] Extract GatedDeltaNetAttention into shared layer": "model",
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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_names_the_title_shows_are_not_said_again_and_names_it_cut_are(lang: str) -> None:
    """A hardware or model name is said once: in the title as shown above the line, or,
    where the title was cut before it (the Chinese edition quotes titles shorter), in the
    line (#38086: gfx1201 in its title; Qwen3.5-35B-A3B-FP8 past the Chinese cut)."""
    report = fixture_day(2)
    assert report.sections is not None
    said_once = 0
    for number, found in report.sections.explained.items():
        title = oe.shown_title(report.item(number), lang)
        shown = truncate(title, oe.title_limit(title, lang))
        line = "".join(p.text for p in ol.explained(report, number, lang, bare=True) or ())
        for name in (*found.hardware, *found.models):
            assert (name in line) != (name.lower() in shown.lower()), (number, name, line)
            said_once += name in line
    assert said_once >= (1 if lang == "en" else 3)


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


def test_the_facts_of_a_real_day_are_in_the_lines() -> None:
    """#38139 claims 48.9% more throughput; #38050 has its revert proposed; #38077 is a
    wrong-output report on Qwen3.5-9B with 8 comments; #38086 names gfx1201."""
    report = fixture_day(2)
    assert report.sections is not None
    facts = report.sections.explained
    assert facts[38139].figures == ("48.9% E2E throughput improvement",)
    assert facts[38050].reverted_by == (38169,)
    assert (facts[38077].signals, facts[38077].models) == (("wrong output",), ("Qwen3.5-9B",))
    assert "gfx1201" in facts[38086].hardware

    def line(number: int, lang: str) -> str:
        found = ol.explained(report, number, lang)
        return "".join(p.text for p in found or ())

    assert "the author reports 48.9% E2E throughput improvement" in line(38139, "en")
    assert "作者实测端到端吞吐提升 48.9%" in line(38139, "zh")
    assert "revert proposed in #38169 (in review)" in line(38050, "en")
    assert "回退 PR：#38169（审阅中）" in line(38050, "zh")
    # its title names the model ("Qwen3.5-9B answer !!!!!!!!!"): the line does not repeat it
    assert line(38077, "en") == "A bug report (wrong output). Why it matters: 8 comments so far."
    assert line(38077, "zh") == "缺陷报告（输出错误）。要点：共 8 条评论。"


@pytest.mark.parametrize(
    ("phrase", "chinese"),
    [
        ("48.9% E2E throughput improvement", "端到端吞吐提升 48.9%"),
        ("3.6x to 7.4x speedup", "加速 3.6x 至 7.4x"),
        ("up to 5% lower latency", "延迟降低 最高 5%"),
        ("15% reduced TTFT", "TTFT降低 15%"),
        ("2x faster on MI300X", "「2x faster on MI300X」"),  # a word it cannot say: quoted
    ],
)
def test_a_claimed_figure_is_said_in_chinese_or_quoted(phrase: str, chinese: str) -> None:
    assert figure_zh(phrase) == chinese
