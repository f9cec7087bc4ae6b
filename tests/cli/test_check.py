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
    # 43: "Issue #37992 & PR #37993**: AMD员工 `xuebwang-amd` 报告…" says who made both.
    assert "43 claims: 42 correct, 1 wrong, 0 unverifiable" in out


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


# -- what `check` may settle: a window held whole, settled sentences, items of other days ------

WINDOW_03_25 = "> Window: 2026-03-25 11:43 ~ 2026-03-26 11:43 (UTC+8)"


def checked_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *lines: str
) -> dict[str, object]:
    path = tmp_path / "report.md"
    path.write_text("\n".join([WINDOW_03_25, *lines]), encoding="utf-8")
    _, out, err = run(capsys, "check", str(path), "--format", "json")
    assert "Traceback" not in err
    data: dict[str, object] = json.loads(out)
    return data


def test_counts_of_a_window_not_archived_whole_are_unverifiable(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """GitHub's search answers with incomplete results: the window's figures prove nothing
    either way, so a right count is not "correct" nor a wrong one "wrong"; a state, which
    the item itself settles, still is."""
    from tests.fakes.github_api import Fault

    fake_github.fault_rule = lambda index, path: (
        Fault(incomplete=True) if path == "/search/issues" else None
    )
    lines = ("- 29 new issues.", "- 30 new issues.", "- #37607 was merged.")
    claims = checked_json(capsys, tmp_path, *lines)["claims"]
    assert isinstance(claims, list)
    counts = [(c["claimed"], c["verdict"], c["truth"]) for c in claims if c["type"] == "count"]
    assert counts == [
        ("new_issues 29", "unverifiable", "the window is not archived whole"),
        ("new_issues 30", "unverifiable", "the window is not archived whole"),
    ]
    assert [(c["number"], c["verdict"]) for c in claims if c["type"] == "state"] == [
        (37607, "correct")
    ]
    # The same text on a window archived whole: the figures are settled.
    fake_github.fault_rule = None
    whole = checked_json(capsys, tmp_path / "..", *lines)["claims"]
    assert isinstance(whole, list)
    assert [c["verdict"] for c in whole if c["type"] == "count"] == ["correct", "wrong"]


def test_only_sentences_with_a_settled_claim_are_checkable(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "N of M sentences checkable": N counts the sentences the facts settled a claim of
    (correct or wrong), not those whose every claim is unverifiable nor those with none."""
    lines = (
        "- #37607 was merged.",  # settled: correct
        "- #37607 is in review.",  # settled: wrong
        "- #99999 was merged.",  # a claim, unverifiable: no such item
        "- A busy day for the ROCm backend.",  # no claim
    )
    data = checked_json(capsys, tmp_path, *lines)
    claims = data["claims"]
    assert isinstance(claims, list)
    assert [(c["number"], c["verdict"]) for c in claims if c["type"] == "state"] == [
        (37607, "correct"),
        (37607, "wrong"),
        (99999, "unverifiable"),
    ]
    assert data["sentences"] == {"read": 5, "checkable": 2}
    path = tmp_path / "report.md"
    _, out, _ = run(capsys, "check", str(path))
    assert "2 of 5 sentences checkable." in out


def test_an_item_of_another_day_cited_is_still_judged(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """#35781 and #36681 were merged on 2026-03-11, two weeks before the window checked:
    no part of the 03-25 window's archive, yet a state or an author said of them is judged
    on their facts (the archive, else GitHub), not left unverifiable."""
    claims = checked_json(
        capsys,
        tmp_path,
        "- PR #36681 was merged, by tvirolai-amd.",
        "- #35781 is still open.",
    )["claims"]
    assert isinstance(claims, list)
    said = sorted((c["number"], c["type"], c["verdict"], c["truth"]) for c in claims)
    assert said == [
        (35781, "state", "wrong", "merged"),
        (36681, "author", "correct", "tvirolai-amd"),
        (36681, "kind", "correct", "a PR"),
        (36681, "state", "correct", "merged"),
    ]
