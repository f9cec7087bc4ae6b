"""What a reader learns per item and per story, on real items of the fixture days: one line in
each item's own words, related items told as one story, topics that do not misfire."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.analyze import analyze
from bot.analyze.changes import notable_issues
from bot.analyze.figures import benchmark_figures
from bot.analyze.references import links
from bot.analyze.stories import build_stories
from bot.analyze.topics import classify, explain
from bot.analyze.trends import activity
from bot.analyze.what import what_line
from bot.model.report import ActivityItem
from bot.model.rules import load_rules
from tests.anchor_data import anchor_days, anchor_items, as_activity, thread_facts
from tests.factories import REPO, WINDOW_0326, item

RULES = load_rules()
DAY = anchor_days()[2]  # 2026-03-25, the fixture day with bodies
W = WINDOW_0326
IN = W.start + timedelta(hours=2)
BEFORE = W.start - timedelta(days=20)


def real(number: int) -> ActivityItem:
    """A fixture item as the collector would store it (title, author, labels, body, times)."""
    return as_activity(next(it for it in anchor_items() if it.number == number))


def day_window():  # type: ignore[no-untyped-def]
    from bot.model.windows import Window

    return Window(DAY.start, DAY.end, "Asia/Shanghai", DAY.label)


# -- one line per item, in its own words ---------------------------------------------------


def test_a_pr_says_what_it_does_from_its_summary_with_code_kept() -> None:
    """#38181's Summary is a list: its items joined, `cp_mha_gather_cache_kernel` intact."""
    said = what_line(real(38181))
    assert said.startswith(
        "use the actual key/value and block table strides in `cp_mha_gather_cache_kernel`; "
        "stop assuming contiguous NHD storage"
    )
    assert len(said) <= 200 and said.endswith("…")


def test_an_issue_skips_the_environment_and_states_the_bug() -> None:
    """#37977's stored body lost its line breaks; the bug statement is still found."""
    said = what_line(real(37977))
    assert said.startswith("Eagle2.5-VL in vLLM applies ImageNet normalization")
    assert "current environment" not in said.lower()


def test_a_body_that_is_only_the_template_says_nothing() -> None:
    """#38104 kept the empty PR template: no line is invented from it."""
    assert what_line(real(38104)) == ""
    templated = [it for it in anchor_items() if (it.body or "").startswith("## Purpose\n\n## Test")]
    assert len(templated) >= 3
    assert all(what_line(real(it.number)) == "" for it in templated)


def test_a_revert_says_why_rather_than_its_commit_hash() -> None:
    """#38169 opens with git's own "This reverts commit 678b3c9…." and gives its reason
    below: the reason is the line (the story line says which PR it reverts)."""
    assert "This reverts commit 678b3c99" in (real(38169).body or "")
    assert what_line(real(38169)).startswith("The original PR caused 1 new CI failure")


def test_links_become_their_text_and_issue_urls_become_numbers() -> None:
    """#37971: 'As referenced in https://…/issues/11905, it would…' reads '#11905, it would'."""
    said = what_line(real(37971))
    assert said.startswith("As referenced in #11905, it would be highly beneficial")
    assert "http" not in said


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "## Purpose\nThe `lru_cache` on `_get_sparse_mla_impl` re-imported the module; "
            "set ECR_IMAGE_TAG before the push.",
            "The `lru_cache` on `_get_sparse_mla_impl` re-imported the module; "
            "set ECR_IMAGE_TAG before the push.",
        ),
        (
            "## Summary\n> Quoted **bold** and _emphasis_ with a [link](https://example.org/x)"
            " and ![img](https://example.org/i.png) <b>html</b>.\n\n## Test Plan\nrun it",
            "Quoted bold and emphasis with a link and html.",
        ),
        (
            "FILL IN THE PR DESCRIPTION HERE\n\n"
            "FIX #xxxx (*link existing issues this PR will resolve*)",
            "",
        ),
    ],
)
def test_markup_is_reduced_and_identifiers_survive(body: str, expected: str) -> None:
    assert what_line(item(1, "pr", body=body)) == expected


def test_a_long_statement_is_cut_at_a_sentence_or_word_never_mid_url() -> None:
    long = "Speeds up decode. " + "word " * 30 + "see https://example.org/" + "a" * 80
    said = what_line(item(1, "pr", body="## Purpose\n" + long + " and more words" * 9))
    assert said.startswith("Speeds up decode. word word") and said.endswith("…")
    assert "http" not in said and "example" not in said and len(said) <= 200


def test_an_abbreviation_is_not_the_end_of_a_sentence() -> None:
    """#36871: '(i.e. <think> started …)' is not cut after 'i.e.'."""
    said = what_line(real(36871))
    assert not said.endswith("(i.e.")
    assert said.startswith("If the model output is truncated (e.g. by max_tokens)")


# -- stories ---------------------------------------------------------------------------------


def window_stories(numbers: list[int], context: list[int] = ()):  # type: ignore[no-untyped-def,assignment]
    listed = [real(n) for n in numbers]
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in listed}
    stories = build_stories(listed, [real(n) for n in context], day_window(), item_links)
    return {s.lead: s for s in stories}


def test_a_fix_and_the_two_bugs_it_answers_are_one_story() -> None:
    """#38066 says it fixes #38063 and #38064: one story, the PR leads, the bugs answer it."""
    stories = window_stories([38063, 38064, 38066])
    story = stories[38066]
    assert story.numbers == (38066, 38063, 38064)
    assert {(m.number, m.relation) for m in story.members} == {
        (38063, "fixed_by_lead"),
        (38064, "fixed_by_lead"),
    }
    assert "#38066 says it fixes #38063" in story.reasons


def test_a_revert_joins_the_change_it_reverts() -> None:
    stories = window_stories([38050, 38169])
    assert [(m.number, m.relation) for m in stories[38050].members] == [(38169, "revert")]


def test_backports_to_one_release_are_one_story() -> None:
    stories = window_stories([38145, 38146, 38180])
    assert len(stories) == 1
    (story,) = stories.values()
    assert set(story.numbers) == {38145, 38146, 38180}
    assert any("backport to v0.13.0" in reason for reason in story.reasons)


def test_identical_attempts_are_one_story_by_their_titles() -> None:
    """#37161, #37163 and #37166 share a title; #37483 and #36446 only share 'deadlock'."""
    stories = window_stories([37161, 37163, 37166, 37483, 36446])
    assert {len(s.numbers) for s in stories.values()} == {3, 1}


def test_an_outside_item_never_bridges_two_stories() -> None:
    """Two window items naming one older issue are not made one story by it."""
    hub = item(25179, title="[Tracking] Fused kernels", created_at=BEFORE)
    a = item(1, "pr", title="[Kernel] Fused RMSNorm", created_at=IN, body="Part of #25179")
    b = item(2, "pr", title="[Kernel] Fused SiLU", created_at=IN, body="Part of #25179")
    listed = [a, b]
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in listed}
    stories = build_stories(listed, [hub], W, item_links)
    assert sorted(len(s.numbers) for s in stories) == [1, 1]


def test_explain_names_the_story_and_why() -> None:
    report = analyze(
        [real(n) for n in (38063, 38064, 38066)],
        day_window(),
        repo=REPO,
        rules=RULES,
        complete=True,
    )
    assert report.sections is not None
    story = report.sections.story_of(38063)
    assert story is not None and story.lead == 38066


# -- topics that do not misfire ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "topic"),
    [
        ("[Installation]: Ray not present in Container Image", "multimodal"),
        ("[Bugfix] Fix Qwen3-Next-80B-A3B-Thinking inference on ROCm", "tool_calling"),
        (
            "[RFC] Gap C: Replacement rank bootstrapping for elastic EP peer-swap recovery",
            "kv_cache",
        ),
    ],
)
def test_generic_words_in_another_sense_do_not_place_an_item(title: str, topic: str) -> None:
    assert topic not in classify(item(1, "pr", title=title), RULES)


@pytest.mark.parametrize(
    ("title", "topic"),
    [
        ("[Bug]: Qwen3-VL-Embedding-8B Image embedding failed", "multimodal"),
        ("[Bugfix] Fix reasoning parser for thinking tokens", "tool_calling"),
        ("[Perf] Batch KV cache swap copies via cuMemcpyBatchAsync", "kv_cache"),
    ],
)
def test_the_same_words_in_their_sense_still_do(title: str, topic: str) -> None:
    assert topic in classify(item(1, "pr", title=title), RULES)


def test_a_known_contributor_is_an_author_signal() -> None:
    """AndreasKaratzas is on the AMD roster (PR history): a CI fix of theirs is AMD's."""
    fix = real(37483)  # "[CI] Fix realtime WebSocket timeout deadlock …", no ROCm in the title
    assert "author AndreasKaratzas" in classify(fix, RULES)["amd"].reasons
    assert any("author AndreasKaratzas" in line for line in explain(fix, RULES))


def test_activity_counts_only_people_who_opened_or_landed_work() -> None:
    """The author of a stale-closed item did nothing in the window; roster people are named."""
    items = [
        item(1, "pr", created_at=IN, author="AndreasKaratzas"),
        item(2, "issue", created_at=BEFORE, closed_at=IN, labels=("stale",), author="gone"),
        item(3, "pr", created_at=BEFORE, closed_at=IN, merged_at=IN, author="landed"),
    ]
    result = activity(items, W, RULES)
    assert result.distinct_authors == 2
    assert result.vendor_authors == {"amd": ("AndreasKaratzas",)}


def test_severity_is_read_in_bug_reports_only() -> None:
    """A feature request about logs that look like a hang is not a hang report."""
    request = item(
        38246,
        title="[Feature]: Better Flashinfer compilation logging",
        created_at=IN,
        body="### 🚀 The feature, motivation and pitch\nCompilation can take 10 minutes "
        "without a log line, which looks like a hang.",
    )
    bug = replace(request, number=38266, title="[Bug]: API server hangs on long inputs")
    assert [n.number for n in notable_issues([request, bug], W, RULES)] == [38266]


# -- what makes a change weighty ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "figures"),
    [
        ("Speedups range from 3.6x to 7.4x speedup on swap-heavy runs.", ("3.6x to 7.4x speedup",)),
        ("This gives 1.3x decode throughput on MI355X.", ("1.3x decode throughput",)),
        ("It improves E2E latency by 15% on H100.", ("improves E2E latency by 15%",)),
        ("ISL=1024, bs=8, 4x8 nodes, 100% of the tests pass.", ()),
    ],
)
def test_benchmark_claims_are_quoted_from_the_body(body: str, figures: tuple[str, ...]) -> None:
    assert benchmark_figures(body) == figures


def test_a_thread_fixture_is_real() -> None:
    """The bodies used above are the stored public threads' own text."""
    facts = thread_facts()
    assert facts[38181]["source"].startswith("search corpus")
    assert "cp_mha_gather_cache_kernel" in facts[38181]["body"]


def reference_day_item(number: int) -> ActivityItem:
    """An item of the published 2026-03-26 report's day, from its stored public thread."""
    import json
    from pathlib import Path

    raw = json.loads(
        (Path(__file__).parents[1] / "data" / "vllm-2026-03-26-stories.json").read_text("utf-8")
    )
    entry = next(e for e in raw["items"] if e["number"] == number)
    return item(
        number,
        "pr" if entry["kind"] == "pull_request" else "issue",
        title=entry["title"],
        author=entry["author"],
        body=entry["body"],
        created_at=IN,
    )


@pytest.mark.parametrize(
    ("number", "starts"),
    [
        # The Purpose section wins over the opening line; identifiers keep their underscores.
        (
            37547,
            "The function `paged_mqa_logits_module ` was defined inside "
            "`rocm_fp8_paged_mqa_logits`",
        ),
        (
            38213,
            "Remove broken `extract_reasoning_streaming` override from `MiniMaxM2ReasoningParser`;",
        ),
        (
            38216,
            "Replace per-layer per-block `swap_blocks` calls in the KV cache offloading handler",
        ),
        (38293, "When using speculative decoding (MTP) with Quark-quantized MoE models"),
    ],
)
def test_the_reference_days_items_say_what_they_do(number: int, starts: str) -> None:
    assert what_line(reference_day_item(number)).startswith(starts)


def test_a_fix_says_which_request_it_answers() -> None:
    """#38254 'fixes #38246': with the request in the window, one story, the fix leads."""
    fix = reference_day_item(38254)
    request = item(38246, title="[Feature]: Better Flashinfer compilation logging", created_at=IN)
    item_links = {it.number: links(it.title, it.body, REPO, it.number) for it in (fix, request)}
    (story,) = build_stories([fix, request], [], W, item_links)
    assert story.lead == 38254
    assert [(m.number, m.relation) for m in story.members] == [(38246, "fixed_by_lead")]
