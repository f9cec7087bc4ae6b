"""The report's sections as pure functions: every figure traceable to the items."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.analyze import analyze
from bot.analyze.changes import key_changes, notable_issues
from bot.analyze.discussions import candidates, hot_discussions
from bot.analyze.references import fixes, links, references
from bot.analyze.topics import classify_all
from bot.analyze.trends import activity, clusters, topic_counts, trends
from bot.model.report import CommentRecord, ListName
from bot.model.rules import load_rules
from formatters.summary_text import summary
from tests.factories import REPO, WINDOW_0326, item

RULES = load_rules()
W = WINDOW_0326
IN = W.start + timedelta(hours=2)
BEFORE = W.start - timedelta(days=20)
AFTER = W.end + timedelta(hours=3)


def comment(number: int, cid: int, author: str, at, association: str = "NONE") -> CommentRecord:
    return CommentRecord(REPO, number, cid, author, association, at)


def test_hot_discussions_count_only_comments_inside_the_window_and_skip_bots() -> None:
    """Comments before or after the window, and bot comments, do not make a thread hot."""
    rfc = item(
        38256,
        title="[RFC]: Incremental MoE Expert Offloading",
        created_at=IN,
        author="e1n00r",
        comments=9,
    )
    turbo = item(
        38280,
        "pr",
        title="[Quantization] Add TurboQuant KV cache quantization",
        created_at=BEFORE,
        author="lishunyang12",
        comments=30,
        body="Fixes #38171\n\nSee also #38216",
    )
    threads = {
        38256: [comment(38256, 1, "a", IN), comment(38256, 2, "gemini-code-assist[bot]", IN)],
        38280: [
            comment(38280, 3, "xinyu-intel", IN + timedelta(hours=1)),
            comment(38280, 4, "youkaichao", IN + timedelta(hours=2), "MEMBER"),
            comment(38280, 5, "xinyu-intel", IN + timedelta(hours=3)),
            comment(38280, 6, "old", BEFORE),
            comment(38280, 7, "late", AFTER),
        ],
    }
    ranked = hot_discussions([rfc, turbo], threads, W, RULES, linked([rfc, turbo]))
    first, second = ranked
    assert first.number == 38280
    assert (first.comments_in_window, first.participants) == (3, ("xinyu-intel", "youkaichao"))
    assert (first.comments_total, first.author_replied) == (30, False)
    assert first.maintainers == ("youkaichao",)
    assert first.linked == (38171, 38216)
    assert second.number == 38256
    assert second.comments_in_window == 1  # the bot's comment is left out
    assert second.participants == ("a",)  # people besides the author
    assert first.measured and second.measured


def test_a_thread_whose_comments_all_came_later_is_not_hot() -> None:
    """Read, and every comment after the window: it is not ranked on its total."""
    late = item(
        38212, title="[Bug]: MiniMaxM2ReasoningParser broken for M2.5", created_at=IN, comments=5
    )
    threads = {38212: [comment(38212, i, f"p{i}", AFTER) for i in range(5)]}
    assert hot_discussions([late], threads, W, RULES, linked([late])) == ()


def test_an_unread_thread_never_outranks_a_read_one() -> None:
    """A read thread with 1 comment comes before an unread one with 40 in all."""
    read = item(1, title="[Bug]: a", created_at=IN, comments=1)
    unread = item(2, title="[Bug]: b", created_at=IN, comments=40)
    threads = {1: [comment(1, 1, "someone", IN)]}
    ranked = hot_discussions([unread, read], threads, W, RULES, linked([read, unread]))
    assert [(h.number, h.measured) for h in ranked] == [(1, True), (2, False)]


def test_the_author_replying_is_counted_apart() -> None:
    rfc = item(7, title="[RFC]: x", created_at=IN, author="e1n00r", comments=2)
    threads = {7: [comment(7, 1, "e1n00r", IN), comment(7, 2, "reviewer", IN)]}
    (hot,) = hot_discussions([rfc], threads, W, RULES, linked([rfc]))
    assert (hot.participants, hot.author_replied, hot.comments_in_window) == (
        ("reviewer",),
        True,
        2,
    )


def linked(items: list) -> dict:  # type: ignore[type-arg]
    return {it.number: links(it.title, it.body, REPO, it.number) for it in items}


def test_unread_threads_fall_back_to_totals_only_for_items_opened_in_the_window() -> None:
    """Without a thread, an old item's total is history and does not count."""
    new = item(
        1, title="[Bug]: MiniMaxM2ReasoningParser broken for M2.5", created_at=IN, comments=4
    )
    old = item(2, title="[Bug]: old thread", created_at=BEFORE, closed_at=IN, comments=40)
    ranked = hot_discussions([new, old], {}, W, RULES, linked([new, old]))
    assert [h.number for h in ranked] == [1]
    assert ranked[0].measured is False
    assert ranked[0].comments_total == 4


def test_candidates_prefer_threads_opened_in_the_window() -> None:
    """A new thread with 10 comments outranks an old one with 15 for fetching."""
    new = item(1, created_at=IN, comments=10)
    old = item(2, created_at=BEFORE, closed_at=IN, comments=15)
    quiet = item(3, created_at=IN, comments=0)
    assert candidates([old, new, quiet], W, RULES) == [1, 2]


def test_key_changes_favour_merged_substantial_work() -> None:
    """A merged [Perf] PR beats a merged [CI] one; a stale closure is no key change."""
    perf = item(
        38216,
        "pr",
        title="[Perf] Batch KV cache swap copies via cuMemcpyBatchAsync",
        created_at=BEFORE,
        closed_at=IN,
        merged_at=IN,
        comments=6,
        body="<!-- template -->\n## Purpose\nBatch the many small cudaMemcpyAsync "
        "calls of KV offloading into one cuMemcpyBatchAsync.\n\n## Test Plan\nx",
    )
    ci = item(
        38238,
        "pr",
        title="[ROCm][CI] Remove host GPU steps",
        created_at=BEFORE,
        closed_at=IN,
        merged_at=IN,
    )
    stale = item(
        30000, "pr", title="[Feature] old", created_at=BEFORE, closed_at=IN, labels=("stale",)
    )
    ranked = key_changes([ci, perf, stale], W, RULES, {}, {}, {})
    assert [k.number for k in ranked] == [38216, 38238]
    assert ranked[0].state == "merged"
    assert ranked[0].why.tags == ("performance",)


def test_notable_issues_need_a_severity_signal_and_name_hardware_and_model() -> None:
    """OOM and deadlock reports are notable; a usage question and a stale sweep are not."""
    oom = item(
        38257,
        title="[Bug]: Qwen3-VL-235B OOM with multi-image long multiturn inputs",
        created_at=IN,
        body="Running on 8x H100 with tp=8",
        comments=5,
    )
    hang = item(
        38266,
        title="[Bug]: tokenizing long redundant sequences causes API server deadlock",
        created_at=IN,
        comments=2,
    )
    usage = item(38121, title="[Usage]: how does cpu offload work?", created_at=IN)
    swept = item(
        25994,
        title="[Bug]: DeepSeek-V3.1 gives garbage output",
        created_at=BEFORE,
        closed_at=IN,
        labels=("bug", "stale"),
    )
    ranked = notable_issues([oom, hang, usage, swept], W, RULES)
    assert [n.number for n in ranked] == [38257, 38266]
    assert ranked[0].signals == ("OOM",)
    assert ranked[0].hardware == ("H100",)
    assert ranked[0].models == ("Qwen3-VL-235B",)
    assert ranked[1].signals == ("hang",)


def test_trends_compare_with_the_mean_of_the_previous_days() -> None:
    """6 tool-calling items against 1 a day before is up; AMD at its usual rate is flat."""
    tool = "[Bugfix] Fix tool call parser for {}"
    current_items = [item(100 + i, "pr", title=tool.format(i), created_at=IN) for i in range(6)]
    current_items += [item(200 + i, "pr", title=f"[ROCm] fix {i}", created_at=IN) for i in range(2)]
    baseline = [
        item(300 + d, "pr", title=tool.format(d), created_at=IN - timedelta(days=d))
        for d in range(1, 8)
    ]
    baseline += [
        item(400 + d * 2 + k, "pr", title=f"[ROCm] old {d} {k}", created_at=IN - timedelta(days=d))
        for d in range(1, 8)
        for k in range(2)
    ]
    # Other work on each day before, so the baseline is a real one (not "too thin").
    baseline += [
        item(
            500 + d * 4 + k, "pr", title=f"[Misc] chore {d} {k}", created_at=IN - timedelta(days=d)
        )
        for d in range(1, 8)
        for k in range(4)
    ]
    rows = {
        r.topic: r
        for r in trends(
            topic_counts(current_items, W, classify_all(current_items, RULES)),
            baseline,
            classify_all(baseline, RULES),
            W,
            RULES,
            covered=(True,) * 7,
        )
    }
    assert (rows["tool_calling"].count, rows["tool_calling"].mean_7d) == (6, 1.0)
    assert rows["tool_calling"].direction == "up"
    assert (rows["amd"].count, rows["amd"].mean_7d, rows["amd"].direction) == (2, 2.0, "flat")


def test_clusters_group_model_families_across_sizes() -> None:
    """Qwen3.5-9B, Qwen3.5-397B-A17B and Qwen/Qwen3.5-35B are one cluster."""
    titles = [
        "[Bug]: Qwen3.5-9B answer !!!!!!!!!",
        "[Bug]: Qwen3.5-397B-A17B hangs",
        "[ROCm] Tune for Qwen/Qwen3.5-35B-A3B-FP8",
        "[Bug]: Llama fails",
    ]
    found = clusters([item(i, title=t, created_at=IN) for i, t in enumerate(titles, 1)], RULES)
    assert [(c.name, c.numbers) for c in found] == [("Qwen3.5", (1, 2, 3))]


def test_activity_counts_people_first_timers_and_vendor_authors() -> None:
    """Distinct humans, first-time contributors opened in the window, -amd logins."""
    items = [
        item(1, "pr", created_at=IN, author="vecheruk-amd"),
        item(2, "pr", created_at=IN, author="newbie", author_association="FIRST_TIME_CONTRIBUTOR"),
        item(3, "pr", created_at=BEFORE, closed_at=IN, merged_at=IN, author="vecheruk-amd"),
        item(4, "pr", created_at=IN, author="dependabot[bot]"),
    ]
    result = activity(items, W, RULES)
    assert result.distinct_authors == 2
    assert result.first_time_contributors == ("newbie",)
    assert result.vendor_authors == {"amd": ("vecheruk-amd",)}
    assert (result.merged, result.bot_items) == (1, 1)


def test_summary_states_the_computed_figures_in_both_languages() -> None:
    """The summary's numbers are the report's numbers, in en and zh."""
    items = [
        item(1, created_at=IN),
        item(2, "pr", created_at=IN),
        item(3, "pr", created_at=BEFORE, closed_at=IN, merged_at=IN),
        item(4, created_at=BEFORE, closed_at=IN, labels=("stale",)),
    ]
    report = analyze(items, W, repo=REPO, rules=RULES, complete=True)
    assert report.sections is not None
    assert report.stats[ListName.MERGED_PRS] == 1
    en, zh = summary(report, "en"), summary(report, "zh")
    # The stale sweep closed the issue: its share is said of the issues, not of the PRs.
    assert (
        "1 issue and 1 PR were opened; 1 PR was merged; 1 issue closed (1 by the stale bot) "
        "and 0 PRs closed without merging." in en
    )
    assert "1 issues" not in en and "1 PRs" not in en and "1 people" not in en
    assert (
        "新增 Issue 1 个、PR 1 个；合并 PR 1 个；关闭 Issue 1 个"
        "（其中 stale 机器人自动关闭 1 个），未合并关闭 PR 0 个。" in zh
    )


def test_links_read_fixes_mentions_and_urls() -> None:
    """`Fixes #n`, bare `#n` and this repository's URLs; not `abc#12`, not HTML entities."""
    body = (
        "Fixes #38212 and closes https://github.com/vllm-project/vllm/issues/38213\n"
        "Related: #37128, not a ref: abc#12 or &#39;, nor "
        "https://github.com/other/repo/issues/5"
    )
    assert fixes(body, REPO) == {38212, 38213}
    assert references(body, REPO) == {38212, 38213, 37128}


@pytest.mark.parametrize(
    ("title", "body", "kind", "target"),
    [
        (
            'Revert "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration" (#38050)',
            "",
            "reverts",
            38050,
        ),
        ("[Bugfix][Backport][ROCm] Backport PR #31380 to v0.13.0", "", "backports", 31380),
        ("[Tool Parser][2/3] Pass tools on", "Builds on top of #38029.", "follows", 38029),
        ("[ROCm] fix", "Follow-up to #35601; after further testing", "follows", 35601),
        ("[Models] Reduce syncs", "Extracted changes from #37239 which", "follows", 37239),
        ("Fix issue #35743", "", "fixes", 35743),
        ("[Misc] x", "Supersedes #36970", "supersedes", 36970),
    ],
)
def test_each_kind_of_link_is_read(title: str, body: str, kind: str, target: int) -> None:
    found = {link.target: link.kind for link in links(title, body, REPO, own=1)}
    assert found[target] == kind


def test_a_past_day_tells_where_its_prs_stood_when_it_ended() -> None:
    """Asked after the fact, a day's report still says what the day was: a [ROCm] PR opened
    in the window and merged two days later was in review (and a key change in review), not
    "closed without merging"; one closed unmerged inside the window is closed."""
    later = W.end + timedelta(days=2)
    merged_later = item(
        38300, "pr", title="[ROCm] Enable AITER MLA decode", created_at=IN,
        closed_at=later, merged_at=later,
    )  # fmt: skip
    closed_in = item(
        38301,
        "pr",
        title="[ROCm] Try a MLA tweak",
        created_at=IN,
        closed_at=IN + timedelta(hours=1),
    )
    report = analyze([merged_later, closed_in], W, repo=REPO, rules=RULES, complete=True)
    assert report.sections is not None
    amd = report.sections.topics["amd"]
    assert amd.buckets == {"review": ("s38300",), "closed": ("s38301",)}
    (change,) = report.sections.key_changes
    assert (change.number, change.state) == (38300, "review")
