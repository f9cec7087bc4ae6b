"""The full report through the command line: sections, topics, explain, golden Markdown."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.cli import main
from tests.anchor_data import anchor_days
from tests.fakes.github_api import FakeGitHub

DAY = anchor_days()[2]  # 2026-03-25, the busiest AMD day


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sections_come_in_the_reference_order(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Summary, vendors (AMD first), hot, trends, key changes, activity, notable, appendix."""
    code, out, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--lang", "zh")
    assert code == 0
    headings = [
        "📊 每日开发状态摘要",
        "🎯 AMD/ROCm 生态相关动态",
        "🎯 NVIDIA 生态相关动态",
        "💬 高热度讨论",
        "🔥 热门话题与趋势",
        "🛠️ 重点技术变更",
        "📈 开发活跃度",
        "💡 值得关注的问题",
        "📋 附录：详细数据列表",
    ]
    positions = [out.index(f"## {h}") for h in headings]
    assert positions == sorted(positions)


def test_json_carries_topics_with_reasons_and_ranked_sections(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """topics.amd has issues, PRs, groups and a reason per item; sections list numbers."""
    code, out, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json")
    assert code == 0
    data = json.loads(out)
    amd = data["topics"]["amd"]
    assert 38107 in amd["issues"] and 38086 in amd["prs"]
    assert amd["reasons"]["38086"].startswith("title tag [rocm]")
    assert set(amd["groups"]) <= {
        "performance",
        "bugfix",
        "platform",
        "release",
        "features",
        "other",
    }
    grouped = sorted(n for numbers in amd["groups"].values() for n in numbers)
    assert grouped == sorted(amd["issues"] + amd["prs"])
    listed = {int(n) for n in data["items"]}
    for key in ("hot_discussions", "key_changes", "notable_issues"):
        assert set(data[key]) <= listed, key
    assert data["summary"].startswith("The day's weightiest work: ")
    assert "29 issues and 92 PRs were opened; 44 PRs were merged" in data["summary"]
    assert data["trend_baseline_days"] == 7
    assert data["items"]["38181"]["what"].startswith("use the actual key/value")
    story = next(s for s in data["stories"] if s["lead"] == 38066)
    assert story["numbers"] == [38066, 38063, 38064]

    # AMD's stories by what matters: merged, in review, newly opened, closed without merging.
    buckets = amd["buckets"]
    assert list(buckets) == ["merged", "review", "new", "closed"]
    assert amd["stories"] == [s for name in buckets for s in buckets[name]]
    lead = {s: data["items"][s.removeprefix("s")] for name in buckets for s in buckets[name]}
    assert all(lead[s]["merged_at"] for s in buckets["merged"])
    assert all(lead[s]["state"] == "open" and lead[s]["kind"] == "pr" for s in buckets["review"])
    assert all(not lead[s]["merged_at"] and lead[s]["closed_at"] for s in buckets["closed"])


def test_one_section_and_one_topic(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """--section amd prints only AMD; --topic amd limits counts and lists to AMD items."""
    code, out, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--section", "amd")
    assert code == 0
    assert "## 🎯 AMD / ROCm" in out and "## 🎯 NVIDIA" not in out and "Appendix" not in out
    _, whole, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json")
    full = json.loads(whole)
    amd = set(full["topics"]["amd"]["issues"] + full["topics"]["amd"]["prs"])
    code, out, _ = run(
        capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--topic", "amd", "--format", "json"
    )
    limited = json.loads(out)
    assert {int(n) for n in limited["items"]} == amd
    for name, numbers in full["lists"].items():
        assert limited["stats"][name] == len(amd & set(numbers)), name


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--topic", "amdd"], "unknown topic 'amdd' — did you mean 'amd'?"),
        (["--section", "hott"], "unknown section 'hott' — did you mean 'hot'?"),
    ],
)
def test_unknown_topic_or_section_suggests_the_right_one(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "show", "2026-03-25", *argv)
    assert code == 2 and says in err and out == ""


def test_explain_says_why_from_the_archive(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """explain reads the archive (no request) or fetches one item (one request)."""
    code, out, _ = run(capsys, "explain", "38086")
    assert code == 0
    assert len(fake_github.requests) == 1
    assert re.search(
        r"amd: yes \(score 7; title tag \[rocm\]; author vllmellm; label rocm;.*group performance",
        out,
    )
    assert "story: 2026-03-25 is not archived" in out
    run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--counts-only")
    fake_github.reset_log()
    code, out, _ = run(capsys, "explain", "38122")
    assert code == 0 and fake_github.requests == []
    assert "amd" not in out.split("\n", 2)[2]
    code, out, _ = run(capsys, "explain", "38063", "--cutoff", DAY.cutoff)
    assert "story on 2026-03-25: led by #38066, with #38064 (#38066 says it fixes #38063" in out


def test_topics_lists_every_topic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "topics")
    assert code == 0
    assert out.splitlines()[0].startswith("amd ")
    assert "tool_calling" in out


def test_bad_topic_rules_file_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('[topics.amd]\nname = "AMD"\nkeywords = ["(oops"]\n')
    monkeypatch.setenv("VLLM_REPORT_TOPICS_FILE", str(rules))
    code, _, err = run(capsys, "topics")
    assert code == 2 and "topics.amd.keywords: bad pattern" in err


def test_a_key_change_is_weighed_by_the_pulls_api_and_its_size_is_no_reason(
    fake_github: FakeGitHub, capsys: pytest.CaptureFixture[str]
) -> None:
    """Size and reviewers are read for the candidates (the fixtures carry neither): the
    author's own review and a bot's are not reviewers. They weigh the change (812 lines and
    four reviewers lift #37488 into the key changes, after what changed users' day: the
    defaults flipped and the regression fixed), the JSON carries them, and no line offers
    them as the reason it matters."""
    eplb = fake_github.items[37488]  # [Feature] EPLB Support for GPU Model Runner v2, merged
    eplb.additions, eplb.deletions, eplb.changed_files = 812, 40, 14
    at = eplb.merged_at
    people = ["tlrmchlsmth", "WoosukKwon", "njhill", "LucasWilkinson", eplb.author, "mergify[bot]"]
    eplb.reviews = [
        {"id": i, "user": login, "state": "APPROVED", "submitted_at": at}
        for i, login in enumerate(people, start=1)
    ]
    code, out, err = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--section", "key")
    assert code == 0, err
    ranked = [line for line in out.splitlines() if re.match(r"\d\. ", line)]
    assert any("#37488" in line for line in ranked)
    assert "+812" not in out and "reviewers" not in out and "14 files" not in out
    code, out, _ = run(capsys, "show", DAY.label, "--cutoff", DAY.cutoff, "--format", "json")
    details = {d["number"]: d for d in json.loads(out)["key_change_details"]}
    assert (details[37488]["why"]["additions"], details[37488]["why"]["reviewers"]) == (812, 4)
