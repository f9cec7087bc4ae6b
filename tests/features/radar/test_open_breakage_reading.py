"""Open breakage, read from a plugin's items at a moment: what is still broken, and since
when. Titles are the plugins' own (from ../shared/fixtures/radar/links-2025.json); each
item is open from its real creation day to the moment the test names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.radar.open_breakage import open_breaks
from bot.model.report import ActivityItem

GAUDI = "vllm-project/vllm-gaudi"
ASCEND = "vllm-project/vllm-ascend"
MOMENT = datetime(2025, 10, 17, 16, tzinfo=UTC)


def plugin_item(
    repo: str,
    number: int,
    title: str,
    opened: str,
    *,
    kind: str = "pr",
    ended: datetime | None = None,
    merged: bool = False,
    body: str | None = None,
) -> ActivityItem:
    created = datetime.fromisoformat(opened).replace(tzinfo=UTC)
    return ActivityItem(
        repo=repo,
        number=number,
        kind=kind,  # type: ignore[arg-type]
        title=title,
        author="someone",
        labels=(),
        state="closed" if ended else "open",
        created_at=created,
        updated_at=ended or created,
        url=f"https://github.com/{repo}/pull/{number}",
        body=body,
        closed_at=ended,
        merged_at=ended if merged else None,
    )


def test_a_fix_naming_its_upstream_cause_still_open_is_broken_with_its_age() -> None:
    fix = plugin_item(GAUDI, 418, "[FIX_FOR_VLLM_LATEST]  Fix for #27022", "2025-10-16T09:00")
    (found,) = open_breaks(GAUDI, [fix], MOMENT, own_max=420)
    assert (found.why, found.upstream, found.age_days) == ("broken", ("#27022",), 1.3)
    assert found.opened_at == fix.created_at and found.number == 418


def test_what_closed_before_the_moment_or_opened_after_it_is_not_open() -> None:
    title = "Fix crash caused by upstream update PR22570"
    merged = plugin_item(GAUDI, 77, title, "2025-10-15", ended=MOMENT, merged=True)
    later = plugin_item(GAUDI, 78, title, "2025-10-18")
    assert open_breaks(GAUDI, [merged, later], MOMENT, own_max=100) == []
    # Merged after the moment: it was open then.
    after = plugin_item(GAUDI, 77, title, "2025-10-15", ended=MOMENT + timedelta(hours=1))
    assert [b.number for b in open_breaks(GAUDI, [after], MOMENT, own_max=100)] == [77]


def test_a_vllm_upgrade_open_for_days_is_stuck_and_a_fresh_one_is_not() -> None:
    title = "[CI] Upgrade vllm to newest commit"
    stuck = plugin_item(ASCEND, 3423, title, "2025-10-13")
    fresh = plugin_item(ASCEND, 3424, title, "2025-10-17")
    (found,) = open_breaks(ASCEND, [stuck, fresh], MOMENT, own_max=3500)
    assert (found.number, found.why, found.age_days) == (3423, "bump", 4.7)


def test_a_revert_of_the_plugins_vllm_upgrade_is_open_breakage() -> None:
    revert = plugin_item(ASCEND, 3430, 'Revert "[CI] Upgrade vLLM version"', "2025-10-17T10:00")
    (found,) = open_breaks(ASCEND, [revert], MOMENT, own_max=3500)
    assert (found.why, found.age_days) == ("revert", 0.2)


def test_an_issue_saying_upstream_broke_it_counts_and_a_feature_does_not() -> None:
    issue = plugin_item(
        ASCEND,
        1889,
        "[Bug]: CI broken by upstream vllm#21185",
        "2025-10-12",
        kind="issue",
    )
    feature = plugin_item(ASCEND, 1890, "[Feat] Support Qwen3-Next on 910B", "2025-10-12")
    found = open_breaks(ASCEND, [feature, issue], MOMENT, own_max=3500)
    assert [(b.number, b.kind, b.why) for b in found] == [(1889, "issue", "broken")]


def test_the_longest_broken_comes_first() -> None:
    items = [
        plugin_item(GAUDI, 418, "[FIX_FOR_VLLM_LATEST]  Fix for #27022", "2025-10-16"),
        plugin_item(GAUDI, 310, "[FIX_FOR_VLLM_LATEST] fix for #25893", "2025-10-04"),
    ]
    assert [b.number for b in open_breaks(GAUDI, items, MOMENT, own_max=420)] == [310, 418]
