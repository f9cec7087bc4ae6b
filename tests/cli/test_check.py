"""`vllm-report check`: the published reports we replace, read for their claims and checked
against their days' facts (served by the fake GitHub, fetched like `show` fetches).

tests/data/published/ holds the three model-written reports of
../shared/fixtures/anchor-reports/ verbatim. Every claim the checker calls wrong there was
checked by hand against GitHub's facts in tests/data (see the closing note of issue 19).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main
from tests.fakes.github_api import FakeGitHub

PUBLISHED = Path(__file__).parent.parent / "data" / "published"
REPORTS = {
    "2026-03-11": "report-2026-03-11_to_2026-03-12.md",
    "2026-03-24": "report-2026-03-24_to_2026-03-25.md",
    "2026-03-25": "report-2026-03-25_to_2026-03-26.md",
}
# (number, claim type) of every wrong claim, checked by hand.
WRONG = {
    "2026-03-11": set(),
    # #37980 (DeepGEMM in the wheel; labels ci/build, nvidia) written under AMD.
    "2026-03-24": {(37980, "vendor")},
    # Six open PRs written up as done: "修复了…" / "实现了…" while open at the window's end.
    "2026-03-25": {
        (38109, "state"),
        (38108, "state"),
        (38181, "state"),
        (38167, "state"),
        (38174, "state"),
        (38168, "state"),
    },
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("day", list(REPORTS))
def test_the_published_reports_wrong_claims_are_found(
    day: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "check", str(PUBLISHED / REPORTS[day]), "--format", "json")
    assert code == (1 if WRONG[day] else 0), err
    data = json.loads(out)
    assert data["schema"] == "vllm-check/1"
    assert data["window"]["label"] == day  # read from the report's own window line
    wrong = {(c["number"], c["type"]) for c in data["claims"] if c["verdict"] == "wrong"}
    assert wrong == WRONG[day]
    correct = [c for c in data["claims"] if c["verdict"] == "correct"]
    assert len(correct) >= 35  # states, authors, titles and counts that agree
    assert {c["type"] for c in correct} >= {"state", "author", "count"}


def test_the_text_output_names_the_claim_and_the_truth(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", str(PUBLISHED / REPORTS["2026-03-24"]))
    assert code == 1
    assert "✗ wrong         vendor    #37980: says amd; the facts: topics: ci_build, nvidia" in out
    assert "42 claims: 41 correct, 1 wrong, 0 unverifiable" in out


def test_each_kind_of_wrong_claim_in_english_and_chinese(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The kinds of error the reports we replace made, each written once in each language
    about 2026-03-24; a link no text makes is unverifiable in someone else's report."""
    text = "\n".join(
        [
            "# vLLM 日报 2026-03-24",
            "时间窗口: 2026-03-24 11:33 (UTC+8) ~ 2026-03-25 11:33 (UTC+8)",
            "- RFC #37979 has been merged.",
            "- RFC #37979 已合并。",
            "- Issue #37992 by tjtanaa.",
            "- Issue #37992 由 `tjtanaa` 报告。",
            "- PR #38049 introduced torch.compile support for InternVL.",
            "- PR #38049 实现了 InternVL 的 torch.compile 支持。",
            "- Issue #37996 ([ROCm] AITER fusion kernels for MLA).",
            "- 36 of the 79 new PRs were merged.",
            "- 79 个新 PR 中有 36 个已合并。",
            "- Issue #38049 is a bug.",
            "- #37787 fixes #37992.",
            "## 🎯 AMD/ROCm 生态",
            "- PR #37233 makes flashinfer-cubin a default dependency.",
        ]
    )
    path = tmp_path / "report.md"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path), "--format", "json")
    assert code == 1
    claims = json.loads(out)["claims"]
    verdicts = {(c["number"], c["type"], c["quote"][:14]): c["verdict"] for c in claims}
    wrong = sorted((n or 0, t) for (n, t, _), v in verdicts.items() if v == "wrong")
    assert wrong == sorted(
        [
            (37979, "state"),
            (37979, "state"),
            (37992, "author"),
            (37992, "author"),
            (38049, "state"),
            (38049, "state"),
            (37996, "title"),
            (0, "count"),
            (0, "count"),
            (38049, "kind"),
            (37233, "vendor"),
        ]
    )
    link = next(c for c in claims if c["type"] == "reference")
    assert link["verdict"] == "unverifiable"


def test_reads_standard_input_and_a_day_given(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("PR #37787 (已合并) fixed the mxfp4 oracle."))
    code, out, _ = run(capsys, "check", "-", "--day", "2026-03-24", "--cutoff", "11:33", "--all")
    assert code == 0
    assert "✓ correct       state     #37787: says merged" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["check", "no-such-report.md"], "no-such-report.md: no such file"),
        (["check", "."], "is a folder"),
        # A file that never ends is refused, not read until memory runs out (it was).
        (["check", "/dev/zero"], "/dev/zero is longer than 2 MB, far more than a report"),
    ],
)
def test_bad_input_is_one_sentence(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and says in err and "Traceback" not in err and out == ""


def test_a_text_without_its_day_asks_for_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "note.txt"
    path.write_text("PR #37787 merged.", encoding="utf-8")
    code, _, err = run(capsys, "check", str(path))
    assert code == 2 and "give --day YYYY-MM-DD" in err


def test_checking_a_report_asks_no_model_to_write_one(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a model configured, `check` still judges against the facts alone."""
    from tests.fakes.openai_api import FakeOpenAI

    with FakeOpenAI(lambda request: "{}") as llm:
        monkeypatch.setenv("LLM_BASE_URL", llm.url)
        monkeypatch.setenv("LLM_MODEL", "m")
        code, _, _ = run(capsys, "check", str(PUBLISHED / REPORTS["2026-03-24"]))
        asked = len(llm.requests)
    assert code == 1 and asked == 0
