"""Scripted model answers with a wrong claim of each kind the reports we replace made, on a
real day (2026-03-24), in both languages: each wrong sentence is dropped with its reason,
what the model got right is shown, and where nothing is left the extractive text stands.

One `show` per language answers every test of the module (the day is made once: the
checks read its JSON and Markdown).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub
from tests.fakes.openai_api import FakeOpenAI
from tests.prose.script import ScriptedModel

DAY = anchor_days()[1]  # 2026-03-24: open RFCs, an AMD bug report, a busy thread
NEW, MERGED = DAY.counts["new_prs"], DAY.counts["merged_prs"]

# Each wrong sentence, the item whose text it was, and the claim type that must catch it.
WRONG: dict[str, dict[str, Any]] = {
    "open RFC called merged": {
        "en": "RFC #37979 was merged, fixing Intel's quantization plan for the half year.",
        "zh": "RFC #37979 已合并，定下了 Intel 上半年的量化路线。",
        "note_of": 37979,
        "type": "state",
    },
    "issue credited to the wrong person": {
        "en": "#37992 was reported by tjtanaa, an AMD engineer.",
        "zh": "#37992 由 AMD 员工 `tjtanaa` 报告。",
        "note_of": 37992,
        "type": "author",
    },
    "NVIDIA-only change filed under AMD": {
        "en": "AMD's #37233 makes flashinfer-cubin a default dependency.",
        "zh": "AMD 的 #37233 把 flashinfer-cubin 设为默认依赖。",
        "note_of": 37233,
        "type": "vendor",
    },
    "open PR written up as landed": {
        "en": "#38049 introduced torch.compile support for the InternVL vision encoder.",
        "zh": "#38049 实现了 InternVL 视觉编码器的 torch.compile 支持。",
        "note_of": 38049,
        "own_words": True,  # its body says what it does: that line stands in the note's place
        "type": "state",
    },
    "a title the item does not have": {
        "en": "#37996 ([ROCm] AITER fusion kernels for MLA) reports garbage output.",
        "zh": "#37996（[ROCm] AITER fusion kernels for MLA）报告输出全是感叹号。",
        "note_of": 37996,
        "type": "title",
    },
    "all merges counted as merges of new PRs": {
        "en": f"{MERGED} of the {NEW} new PRs were merged (#20859).",
        "zh": f"{NEW} 个新 PR 中有 {MERGED} 个已合并（#20859）。",
        "note_of": None,  # a summary sentence
        "type": "count",
    },
    "a fix link no text makes": {
        "en": "#37787 fixes #37992.",
        "zh": "#37787 修复了 #37992。",
        "note_of": None,
        "type": "reference",
    },
}
HONEST_NOTE = {
    "en": "#20859 adds a hard limit on the tokens a model may spend thinking.",
    "zh": "#20859 为模型的思考 token 加上了硬性上限。",
}
HONEST_SUMMARY = {
    "en": "The day's merged work was led by #20859, a hard limit on thinking tokens.",
    "zh": "当天合并的工作以 #20859 为首，为思考 token 设定了硬性上限。",
}
HONEST_THREAD = {
    "en": "#37975 moves GatedDeltaNetAttention into a shared layer; yma11 asked whether "
    "gqa_interleaved_layout=True should be passed, and wxsIcey tested it on XPU.",
    "zh": "#37975 把 GatedDeltaNetAttention 提取为共享层；yma11 询问是否应传入 "
    "gqa_interleaved_layout=True，wxsIcey 已在 XPU 上测试。",
}


def script() -> ScriptedModel:
    notes: dict[str, dict[int, str]] = {"en": {}, "zh": {}}
    summary = {}
    for lang in ("en", "zh"):
        notes[lang][20859] = HONEST_NOTE[lang]
        for case in WRONG.values():
            if case["note_of"] is not None:
                notes[lang][case["note_of"]] = case[lang]
        wrong = [c[lang] for c in WRONG.values() if c["note_of"] is None]
        joiner = "" if lang == "zh" else " "
        summary[lang] = joiner.join([HONEST_SUMMARY[lang], *wrong])
    return ScriptedModel(
        notes=notes,
        threads={lang: {37975: HONEST_THREAD[lang]} for lang in ("en", "zh")},
        summary=summary,
    )


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    """Per language: the report's JSON and Markdown, the model scripted as above."""
    first = min(day.start for day in anchor_days())
    items = anchor_items() + background_items(1500, before=first)
    data: Path = tmp_path_factory.mktemp("data")
    with (
        FakeGitHub(REPO, items) as github,
        FakeOpenAI(script()) as llm,
        pytest.MonkeyPatch.context() as env,
    ):
        for name, value in {
            "GITHUB_API_URL": github.url,
            "VLLM_REPORT_DATA_DIR": str(data),
            "VLLM_REPORT_GITHUB_REQUEST_INTERVAL": "0",
            "LLM_BASE_URL": llm.url,
            "LLM_MODEL": "scripted",
            "LLM_RETRIES": "0",
        }.items():
            env.setenv(name, value)
        found = {}
        for lang in ("en", "zh"):
            args = ("show", DAY.label, "--cutoff", DAY.cutoff, "--lang", lang)
            code, as_json = _cli(*args, "--format", "json")
            assert code == 0
            code, as_markdown = _cli(*args)  # from the cache: no second request
            assert code == 0
            found[lang] = {"json": json.loads(as_json), "md": as_markdown}
        yield found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", list(WRONG))
def test_a_contradicted_sentence_is_dropped(
    shown: dict[str, dict[str, Any]], kind: str, lang: str
) -> None:
    case = WRONG[kind]
    report = shown[lang]
    prose = report["json"]["prose"]
    rejected = {r["sentence"]: r["why"] for r in prose["rejected"]}
    matching = [
        why for said, why in rejected.items() if said.rstrip("。.") == case[lang].rstrip("。.")
    ]
    assert matching, f"not dropped: {case[lang]!r}; dropped: {list(rejected)}"
    assert matching[0].startswith(case["type"] + ":"), matching[0]
    assert case[lang] not in report["md"]
    number = case["note_of"]
    if number is not None:  # the note is gone; the item's own words stand in its place
        assert str(number) not in prose["notes"]
        what = _what(report["json"], number)
        assert bool(what) == case.get("own_words", False)
        assert what[:40] in report["md"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_what_the_model_got_right_is_shown_marked(
    shown: dict[str, dict[str, Any]], lang: str
) -> None:
    report = shown[lang]
    prose = report["json"]["prose"]
    assert prose["notes"]["20859"] == HONEST_NOTE[lang]
    assert prose["summary"][lang] == HONEST_SUMMARY[lang]  # the wrong sentences cut out
    assert prose["discussions"]["37975"] == HONEST_THREAD[lang]
    assert f"✍️ {HONEST_NOTE[lang]}" in report["md"]
    assert f"✍️ {HONEST_SUMMARY[lang]}" in report["md"]
    assert f"✍️ {HONEST_THREAD[lang]}" in report["md"]
    assert prose["kept"] == 3 and prose["dropped"] == len(WRONG)
    footer = {"en": f"{len(WRONG)} contradicted", "zh": f"{len(WRONG)} 句与事实不符"}[lang]
    assert footer in report["md"]


def _what(data: dict[str, Any], number: int) -> str:
    """The item's own words, as the key changes show them when no model note stands."""
    for detail in data["key_change_details"]:
        if detail["number"] == number:
            return str(detail["description"])
    return ""
