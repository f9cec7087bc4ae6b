"""Judgement on real days: the weightiest work first whatever its state, stories led by the
work (not its fix), issues in issue words, lines worth reading, a summary that says what the
day was about, topics that do not misfire, trends that admit a thin baseline."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.analyze import analyze
from bot.analyze.changes import key_change_candidates
from bot.analyze.references import links
from bot.analyze.stories import build_stories
from bot.analyze.topics import classify, explain
from bot.analyze.trends import clusters
from bot.analyze.weight import routine, substance
from bot.analyze.what import what_line
from bot.model.report import ActivityItem, Report
from bot.model.rules import load_rules
from formatters import outline as ol
from formatters.markdown import render_markdown
from formatters.summary_text import summary
from tests.anchor_data import anchor_days, anchor_items, as_activity, reference_day_items
from tests.factories import REPO, WINDOW_0326, item
from tests.slack_text import body_lines

RULES = load_rules()
W = WINDOW_0326
IN = W.start + timedelta(hours=2)
BEFORE = W.start - timedelta(days=20)


def reference_day() -> Report:
    """The published 2026-03-26 report's day, as far as stored public threads show it."""
    return analyze(reference_day_items(), W, repo=REPO, rules=RULES, complete=True)


def fixture_day(index: int) -> Report:
    """A fixture day analysed from its real items (no thread or pulls-API reads)."""
    from bot.model.windows import Window

    day = anchor_days()[index]
    window = Window(day.start, day.end, "Asia/Shanghai", day.label)
    items = [as_activity(it) for it in anchor_items()]
    return analyze(items, window, repo=REPO, rules=RULES, complete=True)


def first(items: list[ActivityItem], number: int) -> ActivityItem:
    return next(it for it in items if it.number == number)


# -- weight decides, not state -------------------------------------------------------------


def test_the_reference_days_weightiest_work_is_its_key_changes() -> None:
    """2026-03-26: what changed users' day leads (XPU graphs off by default, the ROCm
    nightly release, the DeepGemm accuracy fix), then the weightiest open work (TurboQuant:
    a paper; the batched KV copies: results); no test, CI or docs PR of that day is among
    them."""
    report = reference_day()
    assert report.sections is not None
    picked = [k.number for k in report.sections.key_changes]
    assert picked[:3] == [38193, 37283, 38083]
    assert {38280, 38216} <= set(picked)
    routine_prs = {n for n, it in report.items.items() if routine(it) is not None}
    assert routine_prs >= {38014, 38178, 38209, 38167, 38137}
    assert not routine_prs & set(picked)
    states = {k.number: k.state for k in report.sections.key_changes}
    assert states[37283] == "merged" and states[38280] == "review"


def test_a_script_fix_or_a_bare_revert_never_outranks_an_open_pr_with_figures() -> None:
    """2026-03-25: the empty-bodied benchmark-script fix and the revert of an older change
    are not key changes; the open PR claiming 48.9% more throughput is."""
    report = fixture_day(2)
    assert report.sections is not None
    picked = {k.number for k in report.sections.key_changes}
    assert 38139 in picked
    assert not picked & {38082, 38076}
    assert routine(report.items[38082]) == "benchmark script"
    assert routine(report.items[38076]) == "revert"


def test_sizes_are_read_for_open_prs_too() -> None:
    """The pulls-API shortlist holds open PRs as well as merged ones (half each)."""
    report = fixture_day(2)
    items = list(report.items.values())
    picked = key_change_candidates(items, report.window, RULES)
    merged = [n for n in picked if report.items[n].merged_at is not None]
    assert len(picked) == 8 and len(merged) == 4


def test_a_claimed_gain_weighs_by_its_size() -> None:
    """A 3-4 % speed-up on one CPU weighs less than 48.9 % more throughput."""
    small = replace(first(reference_day_items(), 38280), title="x", body="A 3-4% speedup.")
    large = replace(small, body="A 48.9% E2E throughput improvement.")
    assert substance(large) > substance(small)


# -- stories with the right lead -------------------------------------------------------------


def test_the_release_leads_its_story_with_its_fix_and_the_requests_beside_it() -> None:
    """#37283 (the ROCm nightly release) leads; its one-line pipeline fix follows up on it;
    the two nightly requests, closed as completed right after it merged and sharing its
    title's words, are told beside it as related by title: nothing the facts hold says it
    delivers them (no body names them), so the report does not say so either."""
    report = reference_day()
    assert report.sections is not None
    story = report.sections.story_of(37283)
    assert story is not None and story.lead == 37283
    relations = {m.number: m.relation for m in story.members}
    assert relations == {38263: "follow_up", 36703: "similar", 36704: "similar"}
    text = render_markdown(report, "en")
    amd = text[text.index("## 🎯 AMD") : text.index("## 🎯 NVIDIA")]
    assert "related by title [#36703]" in amd and "(closed as completed)" in amd
    members = next(line for line in amd.splitlines() if "[#36703]" in line)
    assert "delivers" not in members and "fixes" not in members
    assert "Closed without merging" not in amd


def test_the_same_title_by_the_same_author_is_one_story_whatever_its_words() -> None:
    """ "Fix multi-node allreduce fusion" opened twice by wzhao18 joins even when its words are
    common on the day (four other allreduce titles), and `explain` says why."""
    twins = [real_0325(38133), real_0325(38136)]
    others = [
        item(n, "pr", title=f"[Perf] Tune multi-node allreduce fusion for case {n}", created_at=IN)
        for n in (1, 2, 3, 4)
    ]
    listed = [replace(it, created_at=IN) for it in twins] + others
    item_links = {it.number: links(it.title, None, REPO, it.number) for it in listed}
    stories = build_stories(listed, [], W, item_links)
    story = next(s for s in stories if 38133 in s.numbers)
    assert set(story.numbers) == {38133, 38136}
    assert any("same title and author" in reason for reason in story.reasons)


def real_0325(number: int) -> ActivityItem:
    return as_activity(next(it for it in anchor_items() if it.number == number))


def test_a_revert_and_its_re_land_join_the_work_they_undo_and_redo() -> None:
    """The revert of #38050 and a re-land of it are one story, led by #38050."""
    original = replace(real_0325(38050), created_at=IN, merged_at=IN, closed_at=IN)
    revert = replace(real_0325(38169), created_at=IN)
    reland = item(
        38300,
        "pr",
        title='Reland "[MoE Kernel] Flashinfer nvfp4 cutedsl moe kernel integration" (#38050)',
        created_at=IN + timedelta(hours=3),
        body="Re-lands #38050 with the masked test fixed.",
    )
    listed = [original, revert, reland]
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in listed}
    (story,) = build_stories(listed, [], W, item_links)
    assert story.lead == 38050
    assert {m.number: m.relation for m in story.members} == {38169: "revert", 38300: "reland"}


def _nightly_pair(**closing: object) -> list[ActivityItem]:
    """A merged ROCm nightly PR and a nightly request closed 20 minutes after it."""
    merged_at = IN + timedelta(hours=1)
    pr = item(
        1,
        "pr",
        title="[ROCm] Enable nightly docker image releases",
        created_at=BEFORE,
        merged_at=merged_at,
        closed_at=merged_at,
    )
    request = item(
        2,
        "issue",
        title="[Feature]: ROCm nightly docker image releases",
        created_at=BEFORE,
        closed_at=merged_at + timedelta(minutes=20),
        state_reason="completed",
    )
    # Three more titles with the shared words, so that only timing can tie the two (title
    # likeness needs words rarer than that).
    others = [
        item(10 + n, "issue", title=f"[CI] nightly docker image releases {word}", created_at=IN)
        for n, word in enumerate(("cache", "flake", "timeout"))
    ]
    return [pr, replace(request, **closing), *others]


def _relations(listed: list[ActivityItem]) -> dict[int, str]:
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in listed}
    stories = build_stories(listed, [], W, item_links)
    return {m.number: m.relation for s in stories for m in s.members}


def test_a_request_closed_after_a_merge_it_shares_words_with_is_only_related_by_title() -> None:
    """Timing and two shared title words are no evidence of a fix: the request is told
    beside the merge as "related by title", never as fixed or delivered."""
    assert _relations(_nightly_pair()) == {2: "similar"}


def test_a_request_swept_by_the_stale_bot_or_a_bulk_closing_is_never_tied_by_timing() -> None:
    """The stale bot's label, or a closing among ten others within minutes, says nothing of
    the merge beside it: no tie at all."""
    assert _relations(_nightly_pair(labels=("stale",))) == {}
    pair = _nightly_pair()
    closed = pair[1].closed_at
    assert closed is not None
    sweep = [
        item(
            100 + n,
            "issue",
            title=f"[Usage]: {word} question",
            created_at=BEFORE,
            closed_at=closed + timedelta(seconds=30 * n),
            state_reason="completed",
        )
        for n, word in enumerate(
            ("lora", "gguf", "tokenizer", "ray", "docker", "mistral", "prefix", "grpc", "kv")
        )
    ]
    assert 2 not in _relations(pair + sweep)
    assert _relations(pair + sweep[:8]) == {2: "similar"}  # nine closings: no sweep


def test_another_authors_backport_to_the_same_release_is_its_own_story() -> None:
    """khairulkabir1661's three v0.13.0 ROCm backports are one series; someone else's v0.13.0
    backport of a CUDA fix is not folded into it (and so not into AMD)."""
    ours = [replace(real_0325(n), created_at=IN) for n in (38145, 38146, 38180)]
    theirs = item(
        38301,
        "pr",
        title="[Bugfix][Backport] Backport PR #38083 to v0.13.0: Fix DeepGemm E8M0 accuracy",
        author="vadiklyutiy",
        created_at=IN,
    )
    listed = [*ours, theirs]
    item_links = {it.number: links(it.title, None, REPO, it.number) for it in listed}
    stories = build_stories(listed, [], W, item_links)
    series = next(s for s in stories if 38145 in s.numbers)
    assert set(series.numbers) == {38145, 38146, 38180}


# -- issues in issue words -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reason", "en", "zh"),
    [
        ("completed", "closed as completed", "已解决"),
        ("not_planned", "closed as not planned", "不予处理"),
        ("duplicate", "closed as duplicate", "因重复关闭"),
    ],
)
def test_a_closed_issue_says_why_it_closed(reason: str, en: str, zh: str) -> None:
    issue = replace(real_0325(38107), state_reason=reason)
    assert ol.state_key(issue) != "closed_pr"
    from formatters import wording as w

    assert w.STATES["en"][ol.state_key(issue)] == en
    assert w.STATES["zh"][ol.state_key(issue)] == zh


def test_no_issue_is_filed_under_closed_without_merging() -> None:
    """2026-03-25: the issues closed that day sit under "Issues closed", in both languages."""
    report = fixture_day(2)
    assert report.sections is not None
    for section in report.sections.topics.values():
        for story_id in section.buckets.get("closed", ()):
            assert report.item(report.sections.story(story_id).lead).kind == "pr"
    zh = render_markdown(report, "zh")
    for line in zh.splitlines():
        if "/issues/" in line and line.startswith("- ["):
            assert "未合并" not in line.split("—")[-1], line


# -- lines worth reading -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        # A sentence cut before the log its colon introduced ends where its sense ends.
        (
            38293,
            "When using speculative decoding (MTP) with Quark-quantized MoE models (e.g. "
            "`amd/DeepSeek-R1-MXFP4`), the vLLM server crashes during model loading.",
        ),
        (
            38178,
            "When running quantized models (e.g. AWQ) through the transformers backend, the "
            "conch kernel crashes.",
        ),
        # A status note naming another repository's PR is skipped for what the PR does.
        (
            38296,
            "The absorption logic for fp8xfp8 attention computation introduced in #36927 can "
            "now be natively handled by the aiter kernel.",
        ),
    ],
)
def test_real_lines_never_dangle_or_lead_with_a_status_note(number: int, expected: str) -> None:
    assert what_line(first(reference_day_items(), number)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "Hi @gshtras, could you please take a look? This PR adds AITER's fused RMSNorm + "
            "FP8 quantization kernel for DeepSeek MLA on ROCm.",
            "This PR adds AITER's fused RMSNorm + FP8 quantization kernel for DeepSeek MLA on "
            "ROCm.",
        ),
        (
            "Hello! I am running vLLM 0.18 on 8x H100 with TP=8. Tokenizing long redundant "
            "strings blocks the API server for every other request.",
            "Tokenizing long redundant strings blocks the API server for every other request.",
        ),
        (
            "(To be merged after https://github.com/ROCm/aiter/pull/2360 - aiter PR cleans up "
            "fp8 attention)\n\nSee https://github.com/ROCm/aiter/pull/2360 for the kernel.",
            "See ROCm/aiter#2360 for the kernel.",
        ),
    ],
)
def test_greetings_requests_and_preambles_give_way_to_what_it_says(
    body: str, expected: str
) -> None:
    assert what_line(item(1, "pr", body=body)) == expected


# -- the summary -----------------------------------------------------------------------------


def test_the_summary_names_the_days_themes_and_each_closures_stale_share() -> None:
    """2026-03-25: the stale bot closed 2 issues and 1 PR (not "3 of 74 PRs"); the summary
    opens with the day's weightiest topics, each by its lead numbers."""
    report = fixture_day(2)
    en, zh = summary(report, "en"), summary(report, "zh")
    assert (
        "10 issues closed (2 by the stale bot) and 74 PRs closed without merging (52 as "
        "low-effort in bulk, 1 by the stale bot)." in en
    )
    assert "of these by the stale bot" not in en
    assert (
        "关闭 Issue 10 个（其中 stale 机器人自动关闭 2 个），未合并关闭 PR 74 个"
        "（其中因低质量被批量关闭 52 个、stale 机器人自动关闭 1 个）" in zh
    )
    assert en.startswith("The day's weightiest work: ")
    assert report.sections is not None
    named = [n for theme in report.sections.themes for n in theme.numbers]
    assert len(named) == 3 and all(f"#{n}" in en and f"#{n}" in zh for n in named)


@pytest.mark.parametrize("index", [0, 1, 2], ids=["03-11", "03-24", "03-25"])
def test_what_happened_the_summary_and_the_key_changes_name_the_same_top_three(
    index: int,
) -> None:
    """One honest ranking: the first three stories of What happened are the summary's and
    the key changes' (on the titles-only day too, where they were three different lists)."""
    report = fixture_day(index)
    info = report.sections
    assert info is not None
    summarised = [n for theme in info.themes for n in theme.numbers]
    key = [k.number for k in info.key_changes[:3]]
    assert ol.gist_numbers(report, info)[:3] == summarised == key
    said = summary(report, "en").split(". ")[0]
    assert [int(n) for n in re.findall(r"#(\d+)", said)] == key


def test_a_subject_tag_is_no_kind_and_a_rename_under_it_weighs_as_a_rename() -> None:
    """ "[MoE Refactor] Rename …" is not a performance change: its tags name no kind, and
    it weighs what the same rename under [Refactor] weighs; "[MoE] Fuse …" still weighs as
    MoE work does."""
    from bot.analyze.weight import weighty_tags

    rename = item(1, "pr", title="[MoE Refactor] Rename FusedMoE to MoELayer", created_at=IN)
    plain = item(2, "pr", title="[Refactor] Rename FusedMoE to MoELayer", created_at=IN)
    fused = item(3, "pr", title="[MoE] Fuse the router into the expert GEMM", created_at=IN)
    assert "performance" not in weighty_tags(rename) and weighty_tags(rename) == ()
    assert substance(rename) == substance(plain)
    assert weighty_tags(fused) == ("MoE",) and substance(fused) > substance(plain)


# -- topic precision ---------------------------------------------------------------------------


def test_an_intel_ci_prebuilt_image_is_not_multimodal() -> None:
    ci = first(
        reference_day_items(), 37447
    )  # [CI/Build] enable Intel XPU test flow with prebuilt image
    assert "multimodal" not in classify(ci, RULES)
    assert "intel" in classify(ci, RULES)


def test_turbo_quant_in_two_words_is_quantization() -> None:
    assert "quantization" in classify(first(reference_day_items(), 38273), RULES)  # "Turbo Quant"


def test_an_amd_contributor_on_nvidia_hardware_is_not_amd() -> None:
    """A Nemotron fix on Blackwell by someone on the AMD roster is NVIDIA's, and `explain`
    says why AMD gave way."""
    fix = item(
        38302,
        "pr",
        title="[Bugfix] Fix NemotronH reasoning parser on Blackwell",
        author="AndreasKaratzas",
        created_at=IN,
    )
    found = classify(fix, RULES)
    assert "nvidia" in found and "amd" not in found
    assert any(line.startswith("amd: no (author AndreasKaratzas") for line in explain(fix, RULES))


def test_a_title_tagged_for_one_vendor_is_not_anothers_by_a_passing_word() -> None:
    xpu = real_0325(37029)  # [Hardware][XPU] Align memory usage with cuda on xpu
    found = classify(xpu, RULES)
    assert "intel" in found and "nvidia" not in found


def test_a_ci_only_change_labelled_by_the_files_it_touched_is_not_the_cpu_backend() -> None:
    pin = item(38275, "pr", title="fix: pin 1 unpinned action", labels=("ci/build", "cpu"))
    assert "cpu" not in classify(pin, RULES)
    assert "ci_build" in classify(pin, RULES)


# -- trends --------------------------------------------------------------------------------------


def _with_baseline(per_day: int) -> Report:
    """200 ROCm PRs today; `per_day` of them on each of the 7 archived days before."""
    listed = [item(n, "pr", title="[ROCm] x", created_at=IN) for n in range(1, 201)]
    before = [
        item(
            1000 + day * 100 + n,
            "pr",
            title="[ROCm] y",
            created_at=W.start - timedelta(days=day, hours=-1),
        )
        for day in range(1, 8)
        for n in range(per_day)
    ]
    return analyze(
        listed,
        W,
        repo=REPO,
        rules=RULES,
        complete=True,
        baseline_items=before,
        baseline_covered=(True,) * 7,
    )


def test_a_thin_baseline_gets_no_arrows_and_says_so() -> None:
    """A baseline of 3 items a day against 200 today compares nothing; 60 a day does."""
    thin = _with_baseline(3)
    assert thin.sections is not None
    assert {row.direction for row in thin.sections.trends} == {"thin"}
    text = render_markdown(thin, "en")
    assert "▲" not in text and "too few to compare" in text
    full = _with_baseline(60)
    assert full.sections is not None
    assert full.sections.trends[0].direction == "up"


def test_stale_sweeps_make_no_cluster() -> None:
    swept = [
        item(
            n,
            title=f"[Bug]: Qwen3-VL crash {n}",
            created_at=BEFORE,
            closed_at=IN,
            labels=("stale",),
        )
        for n in range(1, 6)
    ]
    assert clusters(swept, RULES) == ()
    assert clusters([replace(it, labels=()) for it in swept], RULES) != ()


# -- a third the length, each item once ------------------------------------------------------

BUDGET = 200  # lines before the appendix (the published reports: about 130; ours was 467)


@pytest.mark.parametrize("day", anchor_days(), ids=lambda d: d.label)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_fixture_day_fits_the_length_budget_and_tells_each_item_once(
    day: object, lang: str, fake_github: object, capsys: pytest.CaptureFixture[str]
) -> None:
    """At most 200 lines before the appendix; an item's own words appear once in the body
    (a later mention is its head line); every item is still in the appendix."""
    from bot.cli import main

    assert main(["show", day.label, "--cutoff", day.cutoff, "--lang", lang]) == 0  # type: ignore[attr-defined]
    text = capsys.readouterr().out
    lines = text.splitlines()
    appendix = next(i for i, line in enumerate(lines) if line.startswith("## 📋"))
    assert appendix <= BUDGET, f"{appendix} lines before the appendix"
    body = lines[:appendix]
    said = [  # the items' own words (facts lines such as "crash" or "RFC" may repeat)
        line.strip()
        for line in body
        if line.startswith(("  - ", "   - ")) and "#" not in line and len(line) > 40
    ]
    repeated = {line for line in said if said.count(line) > 1}
    assert not repeated, repeated
    if lang == "zh":  # our framing words in Chinese punctuation, never "as slop"
        ours = re.sub(r"\[#\d+\]\([^)]*\)", "#", "\n".join(body))
        assert "(+" not in ours and "slop" not in ours and "stale bot" not in ours
    listed = {int(n) for n in re.findall(r"\[#(\d+)\]", "\n".join(lines[appendix:]))}
    assert sum(day.counts.values()) >= len(listed) > 0  # type: ignore[attr-defined]


def test_headline_vendor_lines_follow_activity_not_a_fixed_order() -> None:
    """2026-03-25: CPU / Arm (7 items) is named before Intel (2) and Google TPU (2)."""
    report = fixture_day(2)
    lines = ol.outline(report, "en").vendors
    names = [line.split(":")[0] for line in lines]
    assert names[:2] == ["AMD / ROCm", "NVIDIA"]
    assert names.index("CPU / Arm") < names.index("Intel")
    assert "Google TPU" not in names  # four lines at most: the busiest


def test_the_chinese_chart_speaks_chinese() -> None:
    from bot.model.history import History
    from formatters.charts import chart

    history = _history()
    zh = chart(history, "counts", lang="zh")
    assert zh.alt.startswith("每日动态 · ") and "合并 PR" in zh.alt
    assert chart(history, "counts").alt.startswith("Daily activity · ")
    assert isinstance(history, History)


def _history():  # type: ignore[no-untyped-def]
    from bot.analyze.history import history
    from bot.model.windows import day_window

    days = [
        day_window(
            W.start.date() - timedelta(days=k),
            W.start.tzinfo,
            W.start.timetz().replace(tzinfo=None),
        )
        for k in (1, 0)
    ]  # type: ignore[arg-type]
    items = [item(n, "pr", created_at=IN - timedelta(days=n % 2)) for n in range(1, 9)]
    return history(items, days, [True, True], repo=REPO, rules=RULES)


def test_a_line_cut_for_length_never_ends_on_a_dangling_word() -> None:
    """#38065's statement runs past 200 characters: it is cut after "the text model", not
    after "is"."""
    line = what_line(real_0325(38065))
    assert line.endswith("…") and not re.search(r"\b(is|the|when|with)…$", line), line


# -- what readers of the rendered days pointed out ------------------------------------------------


def test_a_gpu_runner_change_that_says_cpu_only_is_not_the_cpu_backend() -> None:
    """#38139 removes CPU → GPU → CPU copies in the GPU model runner ("CPU-only pooling token
    IDs"): not CPU / Arm work."""
    assert "cpu" not in classify(real_0325(38139), RULES)


def test_to_fix_the_reported_issue_is_a_fix() -> None:
    """#37993: "To fix the reported issue https://github.com/vllm-project/vllm/issues/37992"."""
    pr = real_0325(37993)
    assert [(link.target, link.kind) for link in links(pr.title, pr.body, REPO, 37993)] == [
        (37992, "fixes")
    ]


def test_a_title_is_cut_at_a_word() -> None:
    from formatters._text import clean

    cut = clean(real_0325(38139).title, 100)
    assert cut.endswith("throughput…"), cut


def test_an_open_rfc_reads_as_an_rfc_under_discussion_everywhere() -> None:
    rfc = real_0325(38141)
    open_rfc = replace(rfc, closed_at=None, state="open")
    assert ol.state_key(open_rfc) == "rfc_open"
    assert ol.state_key(replace(open_rfc, title="[Bug]: a crash")) == "open_issue"


def test_an_empty_baseline_says_so_and_draws_no_means() -> None:
    report = _with_baseline(0)
    text = render_markdown(report, "en")
    assert "the archive holds nothing of the 7 days before" in text
    assert "a day before" not in text


def test_the_chat_post_says_a_merge_is_being_reverted() -> None:
    """2026-03-25: #38050 merged and a revert was proposed the same day; the headline and the
    vendors reply say so, not only the full report."""
    from formatters.slack_blocks import render_slack

    report = fixture_day(2)
    messages = render_slack(report, "en")
    headline = "\n".join(body_lines(messages[0]))
    assert "#38050>" in headline and "revert proposed in" in headline
