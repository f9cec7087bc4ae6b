"""Analysis: `(items, window, ...) -> Report`. Pure: no I/O, no clock reads.

Every number a report shows is computed here. The five counts follow the issue's
definitions exactly; a window is half-open, `start <= t < end`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from bot.model.report import ActivityItem, ClosureSplit, ListName, Report
from bot.model.windows import Window

STALE_LABEL = "stale"
LOW_EFFORT_LABEL = "closed-as-slop"  # maintainers' bulk closing of low-effort PRs


def list_members(item: ActivityItem, window: Window) -> list[ListName]:
    """The lists of `window` that `item` belongs on (an item can be on two, e.g. new and closed)."""
    names: list[ListName] = []
    created_in = window.contains(item.created_at)
    closed_in = item.closed_at is not None and window.contains(item.closed_at)
    if item.kind == "issue":
        if created_in:
            names.append(ListName.NEW_ISSUES)
        if closed_in:
            names.append(ListName.CLOSED_ISSUES)
        return names
    if created_in:
        names.append(ListName.NEW_PRS)
    if item.merged_at is not None and window.contains(item.merged_at):
        names.append(ListName.MERGED_PRS)
    if closed_in and item.merged_at is None:
        names.append(ListName.CLOSED_UNMERGED_PRS)
    return names


def is_stale_closure(item: ActivityItem) -> bool:
    """Closed by the stale sweep rather than by a person resolving it.

    vLLM's stale workflow labels an item `stale` before it closes it, and search results
    do not say who closed an item, so the label is the signal (`unstale` is not).
    """
    return STALE_LABEL in item.labels


def _low_effort(item: ActivityItem) -> bool:
    return LOW_EFFORT_LABEL in item.labels and not is_stale_closure(item)


def _by_people(item: ActivityItem) -> bool:
    return not is_stale_closure(item) and not _low_effort(item)


def build_report(
    items: Iterable[ActivityItem],
    window: Window,
    *,
    repo: str,
    complete: bool,
    notes: Iterable[str] = (),
    generated_at: datetime | None = None,
) -> Report:
    """Count and list the window's events; lists run by event time, then number."""
    members: dict[ListName, list[ActivityItem]] = {name: [] for name in ListName}
    listed: dict[int, ActivityItem] = {}
    for item in items:
        if item.repo != repo:
            continue
        for name in list_members(item, window):
            members[name].append(item)
            listed[item.number] = item

    lists = {
        name: tuple(
            it.number for it in sorted(found, key=lambda it: (it.event_time(name), it.number))
        )
        for name, found in members.items()
    }
    closures = {
        name: ClosureSplit(
            resolved=sum(1 for it in members[name] if _by_people(it)),
            stale=sum(1 for it in members[name] if is_stale_closure(it)),
            low_effort=sum(1 for it in members[name] if _low_effort(it)),
        )
        for name in (ListName.CLOSED_ISSUES, ListName.CLOSED_UNMERGED_PRS)
    }
    return Report(
        repo=repo,
        window=window,
        complete=complete,
        lists=lists,
        items=dict(sorted(listed.items())),
        closures=closures,
        notes=tuple(notes),
        generated_at=generated_at,
    )
