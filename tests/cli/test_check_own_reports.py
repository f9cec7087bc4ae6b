"""`vllm-report check` on the bot's own reports: a checker that calls correct text wrong gets
switched off, so on every fixture day, in both languages, as Markdown and as plain text,
our report checks clean, with its figures, authors and states among the claims checked.
And the errors people make in the places our rows quote strangers are caught, not the
quotes: "Enable tcmalloc by default" names no author.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from tests.anchor_data import AnchorDay, anchor_days
from tests.fakes.github_api import FakeGitHub


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str, *extra: str
) -> tuple[int, list[dict[str, Any]]]:
    path = tmp_path / "report.md"
    path.write_text(text, encoding="utf-8")
    code, out = run(capsys, "check", str(path), "--format", "json", *extra)
    claims: list[dict[str, Any]] = json.loads(out)["claims"]
    return code, claims


def plain(markdown: str) -> str:
    """The report as text copied from a rendered page: no link targets, heading marks,
    emphasis or bullets' dashes."""
    text = re.sub(r"\[(#\d+)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"^#{1,6}\s*", "", text, flags=re.M)
    text = re.sub(r"^(\s*)- ", r"\1• ", text, flags=re.M)
    return text.replace("**", "").replace("> ", "")


def wrong(claims: list[dict[str, Any]]) -> list[tuple[Any, str, str]]:
    return [(c["number"], c["type"], c["claimed"]) for c in claims if c["verdict"] == "wrong"]


@pytest.mark.parametrize("form", ["markdown", "plain"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
def test_our_own_report_checks_clean(
    day: AnchorDay,
    lang: str,
    form: str,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Every claim of our correct report holds: exit 0, nothing called wrong; and the claims
    checked include the day's counts, each vendor's figures, the rows' authors and states."""
    code, out = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--lang", lang)
    assert code == 0
    text = out if form == "markdown" else plain(out)
    code, claims = check(capsys, tmp_path, text)
    assert wrong(claims) == [] and code == 0
    correct = [c for c in claims if c["verdict"] == "correct"]
    vendor_figures = [c for c in correct if c["type"] == "count" and c["claimed"][0].isalpha()]
    kinds = {c["claimed"].split()[0] for c in vendor_figures}
    assert "amd" in kinds and len(kinds) >= 3  # AMD's headings and the other vendors' lines
    assert sum(c["type"] == "author" for c in correct) >= 10  # "— merged · fadara01"
    assert sum(c["type"] == "state" for c in correct) >= 20


def test_a_wrong_vendor_figure_in_our_report_is_caught(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """NVIDIA's 9 merged PRs written as 11 (its merged stories' items, the old mistake), in
    the header and in its section, and AMD's heading off by one: all wrong, as the vendors'
    figures, not the day's."""
    day = anchor_days()[2]
    _, out = run(capsys, "show", day.label, "--cutoff", day.cutoff)
    section_line = "\n9 merged PRs · 11 PRs in review"  # under the NVIDIA heading, unnamed
    assert "NVIDIA: 9 merged PRs" in out and section_line in out
    assert "### Merged PRs (11)" in out
    text = (
        out.replace("NVIDIA: 9 merged PRs", "NVIDIA: 11 merged PRs")
        .replace(section_line, "\n11 merged PRs · 11 PRs in review")
        .replace("### Merged PRs (11)", "### Merged PRs (12)")
    )
    code, claims = check(capsys, tmp_path, text)
    assert code == 1
    assert sorted(wrong(claims)) == [
        (None, "count", "amd merged 12"),
        (None, "count", "nvidia merged 11"),
        (None, "count", "nvidia merged 11"),
    ]


def test_quoted_titles_and_own_words_are_no_claims(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "by default" in a title, a number inside a title, "by adding" in prose, a vendor's
    line of figures: none read as an author, a culprit item or the day's count."""
    text = "\n".join(
        [
            "# vLLM daily report · 2026-03-25",
            "> Window: 2026-03-25 11:43 ~ 2026-03-26 11:43 (UTC+8)",
            "- #37607 [CPU][UX][Perf] Enable tcmalloc by default — merged · fadara01",
            "- #36716 [ROCm]: Update rope+kvcache fusion conditions and disable custom op by"
            " default — merged · Rohan138",
            '- #38169 Revert "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration"'
            " (#38050) — in review · zhewenl",
            "- #36738 Fix(MoE): Relax assertion for non-gated NVFP4 MoE models (#31782) — closed"
            " without merging · xueliangyang-oeuler",
            "- #38086 improves FP8 MoE on RDNA4 by adding tuned configs.",
            "Intel: 2 merged PRs",
            "CPU / Arm: 2 merged PRs · 2 PRs in review · 1 new issue or draft PR · 1 earlier"
            " issue closed",
        ]
    )
    code, claims = check(capsys, tmp_path, text)
    assert wrong(claims) == [] and code == 0
    authors = {(c["number"], c["claimed"]) for c in claims if c["type"] == "author"}
    assert authors == {
        (37607, "fadara01"),
        (36716, "Rohan138"),
        (38169, "zhewenl"),
        (36738, "xueliangyang-oeuler"),
    }
    figures = {c["claimed"] for c in claims if c["type"] == "count"}
    assert figures == {"intel merged 2", "cpu merged 2", "cpu review 2", "cpu new 1", "cpu done 1"}


def test_a_story_member_under_a_vendor_is_no_claim_its_own_item_is(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Under CPU / Arm, the related NVIDIA fix named after "related" is the story's member,
    not filed as Arm work; an NVIDIA PR given its own row there is."""
    text = "\n".join(
        [
            "> Window: 2026-03-25 11:43 ~ 2026-03-26 11:43 (UTC+8)",
            "## 🎯 CPU / Arm",
            "- #38057 [CI/Docs] Improve aarch64/DGX Spark support for dev setup — merged"
            " · bbrowning",
            "  - related #37725 (merged), #38126 (in review)",
            "- #37970 [Kernel] Optimize SM120 CUTLASS blockwise FP8 GEMM — merged · Nekofish-L",
        ]
    )
    _, claims = check(capsys, tmp_path, text)
    assert [(n, t) for n, t, _ in wrong(claims)] == [(37970, "vendor")]


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # The state said by the item's kind, in the item's paragraph.
        (
            ["1. RFC #38069: n-gram and suffix decoding in MRv2", "   - The RFC was merged."],
            [(38069, "state", "merged")],
        ),
        (
            ["1. RFC #38069: n-gram in MRv2", "   - 观点与状态：该 RFC 已合并。"],
            [(38069, "state", "merged")],
        ),
        # Resolved, mitigated, 已缓解 of an open bug.
        (["- The Qwen3.5-9B bug #38077 was mitigated."], [(38077, "state", "closed")]),
        (["- Issue #38077（Qwen3.5-9B 输出感叹号）已缓解。"], [(38077, "state", "closed")]),
        (
            [
                "1. Issue #38077: Qwen3.5-9B answers !!!",
                "   - 最终结论：问题已解决，Issue 被关闭。",
            ],
            [(38077, "state", "closed")],
        ),
        # Landed verbs of an open issue: "修复了" says it was fixed.
        (["- #38077 修复了 Qwen3.5-9B 只输出感叹号的问题。"], [(38077, "state", "closed")]),
        # Two items and no kind named: nobody can tell which, so no claim.
        (["1. #38069 and #38077", "   - It was merged."], []),
        # A counted many is a count, not a paragraph item's state.
        (["1. #38086 and #38109", "   - 44 PRs were merged."], []),
    ],
)
def test_the_errors_people_make_are_caught(
    lines: list[str],
    expected: list[tuple[int, str, str]],
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    head = "> Window: 2026-03-25 11:43 ~ 2026-03-26 11:43 (UTC+8)"
    _, claims = check(capsys, tmp_path, "\n".join([head, *lines]))
    assert sorted(wrong(claims)) == sorted(expected)


def test_a_changed_headline_count_is_caught(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Our own `> Counts:` line is the first thing read: a changed figure in it is wrong."""
    day = anchor_days()[2]
    _, out = run(capsys, "show", day.label, "--cutoff", day.cutoff)
    counts = re.search(r"New issues (\d+) \|.*\| Merged PRs (\d+) \|", out)
    assert counts is not None
    new, merged = counts.groups()
    text = (
        out.replace(f"New issues {new} |", "New issues 999 |")
        .replace(f"Merged PRs {merged} |", "Merged PRs 5 |")
        .replace("2 by the stale bot) |", "5 by the stale bot) |")  # the closed issues' split
        .replace("52 closed as low-effort in bulk", "9 closed as low-effort in bulk")
    )
    code, claims = check(capsys, tmp_path, text)
    assert code == 1
    assert sorted(wrong(claims)) == [
        (None, "count", "closed_issues stale 5"),
        (None, "count", "closed_unmerged_prs low_effort 9"),
        (None, "count", "merged_prs 5"),
        (None, "count", "new_issues 999"),
    ]
    _, claims = check(capsys, tmp_path, out)  # as published: each of the five is checked
    said = {c["claimed"].split()[0] for c in claims if c["quote"].startswith("Counts:")}
    assert said >= {"new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs"}


@pytest.mark.parametrize("platform", ["slack", "discord"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_our_chat_payloads_check_clean_as_their_readers_see_them(
    platform: str,
    lang: str,
    fake_github: FakeGitHub,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """`show --format slack|discord` checked: the messages' words are read (its JSON keys and
    Discord's escapes are not claims), our own payload is clean, a changed figure is caught;
    JSON that is no message (the report's JSON) is refused in one sentence."""
    day = anchor_days()[2]
    args = ("show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", platform)
    _, out = run(capsys, *args)
    code, claims = check(capsys, tmp_path, out)
    assert wrong(claims) == [] and code == 0
    assert sum(c["type"] == "author" and c["verdict"] == "correct" for c in claims) >= 5
    # The first message's count, a bold label then its figure (rich_text; Discord's `**…**`).
    label = r"(?:Merged PRs|合并 PR)"
    bold = (
        rf'("text": "{label}",\s*"style": \{{\s*"bold": true\s*\}}\s*\}},'
        r'\s*\{\s*"type": "text",\s*"text": ")'
    )
    changed, n = re.subn(rf"((?:{label})\*+) 44 |{bold} 44 ", _forty_five, out)
    assert n == 1
    code, claims = check(capsys, tmp_path, changed)
    assert code == 1 and wrong(claims) == [(None, "count", "merged_prs 45")]
    _, report_json = run(capsys, "show", day.label, "--cutoff", day.cutoff, "--format", "json")
    path = tmp_path / "report.json"
    path.write_text(report_json, encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "is JSON but not a Slack or Discord message" in err
    assert len(err.strip().splitlines()) == 1


def _forty_five(found: re.Match[str]) -> str:
    return f"{found.group(1) or found.group(2)} 45 "


def test_a_text_with_nothing_to_settle_says_so(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Nothing settled is not "no claim is wrong": the reader is told how little was read."""
    day = anchor_days()[2]
    path = tmp_path / "notes.md"
    path.write_text(f"# vLLM daily report · {day.label}\n\nA quiet day, people say.\n")
    code, out = run(capsys, "check", str(path), "--cutoff", day.cutoff)
    assert code == 0
    assert "Nothing was settled" in out and "No claim is wrong" not in out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_slack_messages_fallback_text_is_not_read_beside_its_blocks(
    lang: str, fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Slack shows a message's top-level `text` only in notifications once it has blocks,
    and ours repeats the headline counts the blocks say: each count is one claim, not two,
    and a fallback that summarizes otherwise (a changed figure, an item said merged that the
    blocks never name) is not what the channel shows, so it is no claim at all."""
    day = anchor_days()[2]
    args = ("show", day.label, "--cutoff", day.cutoff, "--lang", lang, "--format", "slack")
    _, out = run(capsys, *args)
    messages = json.loads(out)
    first = messages[0]
    assert "blocks" in first and "44" in first["text"]  # the fallback repeats the counts
    _, claims = check(capsys, tmp_path, out)
    counts = [c["claimed"] for c in claims if c["type"] == "count"]
    assert "merged_prs 44" in counts
    assert len(counts) == len(set(counts))  # said once in the channel: checked once
    for message in messages:  # each fallback now says what the blocks do not
        message["text"] = (
            "Merged PRs 45 | New issues 999" if lang == "en" else "合并 PR 45 | 新 issue 999"
        ) + " — #99999 merged"
    code, altered = check(capsys, tmp_path, json.dumps(messages, ensure_ascii=False))
    assert wrong(altered) == [] and code == 0
    assert altered == claims  # the same claims, the same verdicts: the fallback is not read
