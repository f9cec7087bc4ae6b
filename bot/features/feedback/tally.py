"""Readers' votes counted by week and section, for `vllm-report feedback`: each reader once
per section and day (the store keeps one vote each), weeks by the report day's ISO week."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from bot.features.feedback.store import Vote


@dataclass(frozen=True)
class Tally:
    week: str  # ISO week of the report day: 2026-W13
    section: str
    useful: int
    not_useful: int
    readers: int


def week_of(vote: Vote) -> str:
    """The ISO week of the vote's report day (its label's first date), or of the press."""
    try:
        day = date.fromisoformat(vote.day[:10])
    except ValueError:
        day = vote.at.date()
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def tallies(votes: Sequence[Vote]) -> list[Tally]:
    """Per week (newest first) and section (most votes first): 👍, 👎 and how many readers."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    readers: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for vote in votes:
        key = (week_of(vote), vote.section)
        counts[key][0 if vote.useful else 1] += 1
        readers[key].add((vote.platform, vote.user))
    rows = [Tally(w, s, c[0], c[1], len(readers[(w, s)])) for (w, s), c in counts.items()]
    return sorted(rows, key=lambda t: (t.week, t.useful + t.not_useful), reverse=True)
