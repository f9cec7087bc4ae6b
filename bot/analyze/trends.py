"""Trends (topic counts against the previous seven days), clusters and activity figures."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import timedelta

from bot.analyze.counts import list_members
from bot.analyze.titles import title_tags
from bot.analyze.topics import SWEEP_LABELS, Matches
from bot.analyze.weight import MINOR_TAGS, ROUTINE_TAGS, UNFINISHED_TAGS, WEIGHTY
from bot.model.report import BASELINE_DAYS, Activity, ActivityItem, Cluster, TrendRow
from bot.model.rules import TopicRules
from bot.model.windows import Window

UP, DOWN = 1.5, 0.5  # ratio to the 7-day mean that counts as a move
MIN_MOVE = 2  # and at least this many items of difference
FIRST_TIMERS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})
_GENERIC_TAGS = frozenset(
    {
        "bug",
        "bugfix",
        "feature",
        "misc",
        "rfc",
        "doc",
        "docs",
        "usage",
        "ci",
        "fix",
        "wip",
        "core",
        "model",
        "installation",
        "ci failure",
        "hardware",
        "frontend",
        "v1",
        "refactor",
        "hotfix",
        "backport",
    }
    | set(WEIGHTY)
    | ROUTINE_TAGS
    | MINOR_TAGS
    | UNFINISHED_TAGS
)


def baseline_windows(window: Window) -> list[Window]:
    """The seven report days before `window` (wall-clock days, so DST days stay days)."""
    day = timedelta(days=1)
    return [
        Window(window.start - day * i, window.start - day * (i - 1), window.timezone, f"-{i}")
        for i in range(1, BASELINE_DAYS + 1)
    ]


def topic_counts(
    items: Sequence[ActivityItem], window: Window, matches: Matches
) -> dict[str, list[int]]:
    """For each topic, the numbers of the window's listed items in it."""
    counts: dict[str, list[int]] = {}
    for it in items:
        if not list_members(it, window):
            continue
        for key in matches[it.number]:
            counts.setdefault(key, []).append(it.number)
    return counts


def trends(
    current: Mapping[str, list[int]],
    baseline_items: Sequence[ActivityItem],
    baseline_matches: Matches,
    window: Window,
    rules: TopicRules,
    covered: Sequence[bool],
    listed: int = 0,
) -> tuple[TrendRow, ...]:
    """Each topic's count now against the previous days' mean, scaled to this window's length.

    `covered[i]` says the archive holds baseline day i (`baseline_windows` order) whole; a day
    it does not hold is left out of the mean, even if some of its items are known (an item
    collected for a later day would otherwise count on a day nobody collected). `listed`:
    the window's own listed items; a baseline far thinner than the window (an archive that
    began yesterday) compares nothing, so no row gets an arrow ("thin")."""
    days = max(1.0, window.duration.total_seconds() / 86400)
    covered_days = sum(covered)
    totals: Counter[str] = Counter()
    for day, whole in zip(baseline_windows(window), covered, strict=True):
        if not whole:
            continue
        for key, numbers in topic_counts(baseline_items, day, baseline_matches).items():
            totals[key] += len(numbers)
    thin = is_thin(baseline_per_day(baseline_items, window, covered), listed / days)
    rows = []
    for topic in rules.topics:
        count = len(current.get(topic.key, []))
        mean = totals[topic.key] / covered_days * days if covered_days else 0.0
        if count == 0 and mean == 0:
            continue
        rows.append(
            TrendRow(
                topic.key,
                count,
                round(mean, 1),
                "thin" if thin and covered_days else _direction(count, mean, covered_days),
                tuple(sorted(current.get(topic.key, []))),
                per_day=round(count / days, 1),
            )
        )
    rows.sort(key=lambda r: (-r.count, -r.mean_7d, r.topic))
    return tuple(rows)


THIN_SHARE = 0.25  # a baseline day with under a quarter of this day's items is too thin
MIN_DAY_ITEMS = 5  # and a baseline under this many items a day compares nothing


def baseline_per_day(
    items: Sequence[ActivityItem], window: Window, covered: Sequence[bool]
) -> float:
    """Items listed per archived baseline day (0.0 when no baseline day is archived)."""
    days = [day for day, whole in zip(baseline_windows(window), covered, strict=True) if whole]
    if not days:
        return 0.0
    listed = sum(1 for day in days for it in items if list_members(it, day))
    return round(listed / len(days), 1)


def is_thin(per_day: float, window_per_day: float) -> bool:
    return per_day < MIN_DAY_ITEMS or per_day < THIN_SHARE * window_per_day


def _direction(count: int, mean: float, covered_days: int) -> str:
    if covered_days == 0:
        return "new"
    if count >= mean * UP and count - mean >= MIN_MOVE:
        return "up"
    if count <= mean * DOWN and mean - count >= MIN_MOVE:
        return "down"
    return "flat"


def clusters(
    items: Sequence[ActivityItem], rules: TopicRules, limit: int = 5
) -> tuple[Cluster, ...]:
    """The window's most frequent model families and subject tags (three items or more)."""
    groups: dict[str, set[int]] = {}
    names: dict[str, str] = {}
    for it in items:
        if _swept(it):  # a stale sweep of last year's threads is no cluster of the day
            continue
        found = []
        if rules.models is not None:
            found += [_family(m.group(0)) for m in rules.models.finditer(it.title)]
        found += [
            t for t in title_tags(it.title) if t not in _GENERIC_TAGS and t not in rules.vendor_tags
        ]
        for name in found:
            key = name.lower()
            names.setdefault(key, name)
            groups.setdefault(key, set()).add(it.number)
    # A bare family ("QWEN") is dropped when a versioned one of it is there ("Qwen3.5"). In
    # sorted order the keys a key begins come right after it, so its successor tells (every
    # key against every key was quadratic in the window's distinct tags).
    for key, after in itertools.pairwise([*sorted(groups), ""]):
        if not any(c.isdigit() for c in key) and after.startswith(key) and after != key:
            del groups[key]
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    return tuple(
        Cluster(names[key], tuple(sorted(numbers)))
        for key, numbers in ranked[:limit]
        if len(numbers) >= 3
    )


def _swept(item: ActivityItem) -> bool:
    labels = {label.lower() for label in item.labels}
    return item.merged_at is None and item.closed_at is not None and bool(labels & SWEEP_LABELS)


def _family(name: str) -> str:
    """`Qwen3.5-397B-A17B` and `Qwen3.5-9B` are one cluster: `Qwen3.5`."""
    return re.split(r"[-_ ]", name, maxsplit=1)[0] if not name.upper().startswith("GPT") else name


def activity(items: Sequence[ActivityItem], window: Window, rules: TopicRules) -> Activity:
    """Who opened or landed work in the window (closing someone's stale item is neither)."""
    active = [it for it in items if _opened_or_landed(it, window)]
    people = {it.author for it in active if it.author and not rules.is_bot(it.author)}
    first = {
        it.author
        for it in active
        if it.author and it.author_association in FIRST_TIMERS and window.contains(it.created_at)
    }
    vendor_authors: dict[str, tuple[str, ...]] = {}
    for vendor in rules.vendors:
        logins = sorted((login for login in people if vendor.is_author(login)), key=str.lower)
        if logins:
            vendor_authors[vendor.key] = tuple(logins)
    merged = sum(1 for it in items if it.merged_at is not None and window.contains(it.merged_at))
    bots = sum(1 for it in items if rules.is_bot(it.author) and window.contains(it.created_at))
    return Activity(len(people), tuple(sorted(first, key=str.lower)), vendor_authors, merged, bots)


def _opened_or_landed(item: ActivityItem, window: Window) -> bool:
    landed = item.merged_at is not None and window.contains(item.merged_at)
    return window.contains(item.created_at) or landed
