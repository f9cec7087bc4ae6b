"""Continuity as a pure function: what landed since last time, old news, days in review."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.analyze import analyze
from bot.analyze.continuity import phase, state_at, with_continuity
from bot.model.report import Featured, Report
from bot.model.rules import load_rules
from formatters.json_report import report_to_dict
from formatters.markdown import render_markdown
from formatters.outline import Our, as_of, featured, gist_numbers, outline, state_key
from tests.anchor_data import anchor_days, anchor_items, as_activity
from tests.factories import CST, REPO, WINDOW_0326, item

RULES = load_rules()
W = WINDOW_0326  # 2026-03-26 11:45 ~ 2026-03-27 11:45 (UTC+8)
IN = W.start + timedelta(hours=3)
LAST_END = W.start  # the report of 2026-03-25 ended where this window starts


def day(label: str) -> datetime:
    """When report day `label` ended (cutoff 11:45 in Shanghai)."""
    return datetime.fromisoformat(f"{label}T11:45:00").replace(tzinfo=CST) + timedelta(days=1)


def record(number: int, label: str, state: str, place: str = "key") -> Featured:
    return Featured(number, label, place, state, day(label))


# The window's items, and what the archive holds besides them.
FUSED = item(
    100,
    "pr",
    title="[Perf] Fused MoE kernel for FP8, 2.1x decode throughput",
    body="## Purpose\nA fused kernel.\n\n## Results\n| batch | speedup |\n|---|---|\n| 1 | 2.1x |",
    created_at=IN,
)
LANDED = item(
    101,
    "pr",
    title="[Model] Add Foo support",
    created_at=day("2026-03-20"),
    merged_at=IN,
    closed_at=IN,
)
DROPPED = item(102, "pr", title="[Misc] Try a thing", created_at=day("2026-03-22"), closed_at=IN)
SOLVED = item(
    103,
    title="[Bug]: crash on start",
    created_at=day("2026-03-23"),
    closed_at=IN,
    state_reason="completed",
)
EARLIER = item(
    104,
    "pr",
    title="[Core] Landed before the last report",
    created_at=day("2026-03-20"),
    merged_at=day("2026-03-24"),
    closed_at=day("2026-03-24"),
)
UNDONE = item(
    105,
    "pr",
    title="[Perf] Faster sampler",
    created_at=day("2026-03-22"),
    merged_at=day("2026-03-24") - timedelta(hours=3),
    closed_at=day("2026-03-24") - timedelta(hours=3),
)
REVERT = item(
    106,
    "pr",
    title='Revert "[Perf] Faster sampler (#105)"',
    created_at=IN,
    merged_at=IN + timedelta(hours=1),
    closed_at=IN + timedelta(hours=1),
)
OLD_REVIEW = item(
    107,
    "pr",
    title="[Core] A long review",
    created_at=datetime(2026, 3, 17, 6, tzinfo=UTC),  # 14:00 in Shanghai, report day 03-17
)
FOLLOW = item(108, "pr", title="[Core] Follow-up to #107", body="Follow-up to #107.", created_at=IN)
WINDOW_ITEMS = [FUSED, LANDED, DROPPED, SOLVED, REVERT, FOLLOW]
PAST = [
    record(100, "2026-03-25", "review"),  # featured the day before, still in review
    record(101, "2026-03-24", "review", "gist"),
    record(101, "2026-03-25", "review"),
    record(102, "2026-03-25", "draft"),
    record(103, "2026-03-25", "open_issue", "notable"),
    record(104, "2026-03-22", "review"),
    record(105, "2026-03-24", "merged"),
]
ARCHIVED = [FUSED, LANDED, DROPPED, SOLVED, EARLIER, UNDONE]


def report() -> Report:
    return analyze(
        WINDOW_ITEMS, W, repo=REPO, rules=RULES, complete=True, context=[OLD_REVIEW, UNDONE]
    )


def test_no_past_changes_nothing() -> None:
    """A first day (nothing published before it) is the report it was: the same object."""
    made = report()
    assert with_continuity(made, [], ARCHIVED) is made
    assert made.continuity is None and "continuity" not in report_to_dict(made)


def test_since_last_time_lists_what_landed_closed_or_was_reverted() -> None:
    """Merged, closed without merging, an issue closed, a revert merged: each with the day
    it was first featured and its state then; what landed before the last report is not."""
    found = with_continuity(report(), PAST, ARCHIVED).continuity
    assert found is not None
    said = {e.number: (e.first_day, e.then, e.now, e.by) for e in found.since}
    assert said == {
        101: ("2026-03-24", "review", "merged", None),
        105: ("2026-03-24", "merged", "reverted", 106),
        102: ("2026-03-25", "draft", "closed_pr", None),
        103: ("2026-03-25", "open_issue", "issue_completed", None),
    }
    assert [e.number for e in found.since] == [101, 105, 102, 103]  # landed, reverted, closed
    assert found.last_day == "2026-03-25" and found.last_end == day("2026-03-25")


def test_an_unchanged_item_featured_before_is_not_featured_again() -> None:
    """#100 was a key change yesterday, in review, and still is: not a key change today,
    nor in the gist (a report days apart that overlaps its window, an earlier cutoff)."""
    alone = report()
    assert alone.sections is not None
    assert 100 in [k.number for k in alone.sections.key_changes]  # it would be, alone
    made = with_continuity(alone, PAST, ARCHIVED)
    assert made.continuity is not None and 100 in made.continuity.old_news
    assert made.sections is not None
    assert 100 not in [k.number for k in made.sections.key_changes]
    assert 100 not in gist_numbers(made, made.sections)
    assert 101 in [k.number for k in made.sections.key_changes]  # changed: merged today


def test_each_shown_item_knows_its_first_featuring_and_long_reviews_their_day() -> None:
    """The first day an item was featured and its state then; an open PR opened on
    2026-03-17 is on day 10 of its review on 2026-03-26, said in both languages."""
    made = with_continuity(report(), PAST, ARCHIVED)
    found = made.continuity
    assert found is not None
    assert found.past[101] == record(101, "2026-03-24", "review", "gist")
    assert found.review_days == {107: 10}
    en, zh = render_markdown(made, "en"), render_markdown(made, "zh")
    assert "(in review, day 10)" in en and "（审阅中，第 10 天）" in zh
    assert "merged · first featured 03-24, in review" in en
    assert "featured 03-24 merged → reverted today by [#106]" in en
    assert "03-24 报道时已合并 → 今日被 [#106]" in zh
    data = report_to_dict(made)["continuity"]
    assert data["review_days"] == {"107": 10}
    assert [e["number"] for e in data["since_last_time"]] == [101, 105, 102, 103]


@pytest.mark.parametrize("hours", [-30, 0, 12, 26, 24 * 20])
def test_state_at_reads_an_item_as_the_outline_does(hours: int) -> None:
    """The analysis and the outline name every real item's state alike at any moment."""
    end = anchor_days()[2].start + timedelta(hours=hours)
    for fake in anchor_items():
        it = as_activity(fake)
        assert state_at(it, end) == state_key(as_of(it, end)), it.number


def test_featured_is_what_the_outline_tells_first() -> None:
    """A report's featuring is its gist as drawn, then its key changes and notable issues."""
    made = report()
    assert made.sections is not None
    records = featured(made)
    drawn = [e.number for e in outline(made, "en").gist]
    gist = [r.number for r in records if r.place == "gist"]
    assert gist == drawn
    keys = {k.number for k in made.sections.key_changes} - set(gist)
    assert {r.number for r in records if r.place == "key"} == keys
    assert all(r.day == W.label and r.day_end == W.end for r in records)
    assert all(phase(r.state) in ("open", "merged", "closed") for r in records)


def test_a_long_since_last_time_is_capped_with_the_rest_by_number() -> None:
    """Sixteen featured PRs merged today: those the day features anyway (what happened, key
    changes) are told there; of the rest, eight told, the others by number; the chat reply
    shows five and says where the rest are (no command takes this part)."""
    from formatters.chat_outline import chat_parts
    from formatters.outline import gist_numbers

    merged = [
        item(200 + n, "pr", title=f"[Core] Change {n}", created_at=day("2026-03-20"), merged_at=IN)
        for n in range(16)
    ]
    made = analyze(merged, W, repo=REPO, rules=RULES, complete=True)
    past = [record(it.number, "2026-03-25", "review") for it in merged]
    made = with_continuity(made, past, merged)
    assert made.sections is not None
    here = {*gist_numbers(made, made.sections), *(k.number for k in made.sections.key_changes)}
    landed = [it.number for it in merged if it.number not in here]
    assert here and len(landed) > 8
    full = outline(made, "en")
    since = full.section("since")
    assert since is not None
    [block] = since.blocks
    assert [n for e in block.entries for n in e.covers] == landed[:8]
    assert [p.number for p in block.rest or () if hasattr(p, "number")] == landed[8:]
    [part] = [p for p in chat_parts(full) if p.name == "since"]
    assert len(part.blocks[0].entries) == 5
    assert part.blocks[0].rest == (Our(f"+{len(landed) - 5} more in the full report"),)
