"""The sentence a reason quotes: the one of an item's own description that tells what its
title does not (what changes or breaks, and for whom), chosen by what it adds, never by
where it stands; boilerplate never; none, no line. Real bodies of the fixture days, and
the shapes of real bodies where a rule is at its edge.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

import pytest

from bot.analyze.effects import effect_sentence, waits_on
from bot.analyze.reasons import changed_default, flips_default, release_of, security
from bot.analyze.what import what_line
from bot.model.report import ActivityItem
from tests.anchor_data import anchor_items, as_activity, reference_day_items
from tests.factories import item


@cache
def real() -> dict[int, ActivityItem]:
    found = {it.number: it for it in reference_day_items()}
    for it in (as_activity(x) for x in anchor_items()):
        found.setdefault(it.number, it)
    return found


def effect(number: int) -> str:
    it = real()[number]
    return effect_sentence(it, what_line(it))


@pytest.mark.parametrize(
    ("number", "said"),
    [
        # What an issue reports beyond its title ("MiniMaxM2ReasoningParser broken for M2.5").
        (38212, "leaks into the `content` field"),
        # What a change does and does not change, with what rides with it.
        (38216, "falls back to a flat `cudaMemcpyAsync` loop"),
        (38216, "No behavior change."),
        # A figure with its unit and its conditions.
        (38280, "Compresses the KV cache from bf16 to packed 4-bit uint8"),
        # The bug a fix fixes, with its symptom.
        (38109, "amdsmi silently returns a sentinel value"),
        (38145, "extremely low accuracy (0.67% on gsm8k)"),
    ],
)
def test_the_sentence_that_says_what_happens_is_chosen(number: int, said: str) -> None:
    assert said in effect(number)


def test_the_line_already_shown_is_never_the_reason() -> None:
    """#37483's own line is its first list item: the reason is another fact, not it again."""
    it = real()[37483]
    own = what_line(it)
    found = effect_sentence(it, own)
    assert found and not found.startswith(own.rstrip("…")[:60])


def test_what_the_title_already_says_is_no_reason() -> None:
    """A sentence whose words are the title's says nothing new: no line (the test fails if
    the "already said" check is dropped)."""
    title = "[Bugfix] Fix crash in MoE weight loading when experts are missing"
    body = "Fix crash in MoE weight loading when experts are missing, which fails."
    assert effect_sentence(item(1, "pr", title=title, body=body)) == ""
    more = body + "\n\nThe server crashes with `KeyError: experts.w13` on Qwen3.5-397B at start."
    assert "`KeyError: experts.w13`" in effect_sentence(item(1, "pr", title=title, body=more))


def test_a_sentence_must_add_three_words_of_its_own() -> None:
    """ "The scheduler crash fails often." adds two words to "Fix the scheduler crash": too
    little to be a reason; "No behavior change." is a fact of its own however short."""
    title = "Fix the scheduler crash"
    assert (
        effect_sentence(item(1, "pr", title=title, body="The scheduler crash fails often.")) == ""
    )
    body = "Reorders the scheduler queue.\n\nNo behavior change."
    assert effect_sentence(item(1, "pr", title=title, body=body)) == "No behavior change."


def test_a_failure_said_without_what_fails_is_no_reason() -> None:
    """#38180's "This caused failures when trying to run the model." says that something
    went wrong, which its title ("Fix Qwen3-Next inference …") already does: not that, but
    what the body says of whom the change leaves alone."""
    assert "caused failures" not in effect(38180)
    assert "power-of-2 block sizes" in effect(38180)
    title = "[ROCm] Fix Qwen3-Next inference with non-standard block size (544)"
    body = "This caused failures when trying to run the model."
    assert effect_sentence(item(1, "pr", title=title, body=body)) == ""
    said = "The paged attention kernel reads past the block table and returns NaNs."
    assert effect_sentence(item(1, "pr", title=title, body=f"{body} {said}")) == said


@pytest.mark.parametrize(
    "boilerplate",
    [
        "Environment - Model: `amd/Qwen3.5-397B` - ROCm: MI325X (gfx942) fails to load",
        "Hardware: 8xH100 80GB HBM3, CUDA 12.8 fails less often.",
        "vllm serve Qwen/Qwen3-8B --kv-cache-dtype fp8 crashes right away",
        "Does this crash on MI300X too?",
        "AI assistance was used to write this fix for the crash on B200.",
    ],
)
def test_boilerplate_is_never_the_reason(boilerplate: str) -> None:
    """Each says what breaks, and is still no reason: the setup, a command, a question."""
    title = "[Kernel] Tune the fused MoE kernel"
    it = item(1, "pr", title=title, body=boilerplate)
    assert effect_sentence(it) == ""


def test_the_versions_where_it_broke_and_worked_are_chosen_over_the_setup() -> None:
    """The shape of a regression report: the setup first, then where it broke."""
    body = (
        "## Describe the bug\n\nI am running the Eagle3 drafter with an FP8 target on H200.\n"
        "The checkpoints fail to load in vLLM 0.15.0 and 0.15.1, but work correctly in 0.14.1."
    )
    it = item(1, title="[Bug]: Eagle3 drafter checkpoint does not load", body=body)
    assert "0.15.0 and 0.15.1, but work correctly in 0.14.1" in effect_sentence(it)


def test_a_status_note_says_what_the_landing_waits_on() -> None:
    """ "(To be merged after ROCm/aiter#2360)" is no line of what it does, but an open PR
    waits on it; once merged, nothing waits."""
    body = "Use the new AITER kernel for MLA decode.\n\n(To be merged after ROCm/aiter#2360)"
    it = item(1, "pr", title="[ROCm] Use AITER MLA decode", body=body)
    assert waits_on(it) == ("ROCm/aiter#2360",)
    landed = datetime(2026, 3, 2, tzinfo=UTC)
    assert waits_on(item(1, "pr", body=body, closed_at=landed, merged_at=landed)) == ()


def test_a_default_the_title_states_is_not_quoted_again_and_one_it_does_not_is() -> None:
    """ "Enable tcmalloc by default" is on the head line; "pre-built wheels will also have
    tcmalloc ON by default" is news (the test fails if the "already in the title" check of
    reasons.py is dropped)."""
    title = "[CPU][UX][Perf] Enable tcmalloc by default"
    same = item(1, "pr", title=title, body="Enable tcmalloc by default.")
    assert changed_default(same, "") == ""
    more = item(
        1,
        "pr",
        title=title,
        body="Enable tcmalloc by default.\n\nThis means that "
        "pre-built wheels will also have tcmalloc ON by default.",
    )
    assert changed_default(more, "").startswith("This means that pre-built wheels")
    assert flips_default(same) and not flips_default(item(2, "pr", title="[CPU] Use tcmalloc"))


def test_a_release_is_named_as_the_project_writes_it() -> None:
    """ "to 0.13.0" is v0.13.0 (the test fails if the "v" is not added)."""
    assert release_of(item(1, "pr", title="Backport #31816 to 0.13.0")) == "v0.13.0"
    assert release_of(item(1, "pr", title="[v0.14.1] Backport #1")) == "v0.14.1"


def test_a_security_problem_is_read_in_its_title_or_opening() -> None:
    assert security(item(1, "pr", title="Bump transformers to fix CVE-2026-12345"))
    body = "Fixes a path traversal in the multimodal URL loader."
    assert security(item(1, "pr", title="[Frontend] Validate media URLs", body=body))
    assert not security(item(1, "pr", title="[Frontend] Validate media URLs"))
