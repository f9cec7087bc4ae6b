"""A run of report days: each day's five counts and items per topic, or that the archive does
not hold it (never a zero for a day nobody collected)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.model.report import Catalog, ListName


@dataclass(frozen=True)
class DayPoint:
    label: str  # the report day, YYYY-MM-DD
    covered: bool  # the archive holds the whole day; otherwise the figures are unknown
    counts: dict[ListName, int]
    topics: dict[str, int]  # listed items per topic


@dataclass(frozen=True)
class History:
    repo: str
    timezone: str
    topic: str | None  # the days are of this topic's items only
    days: tuple[DayPoint, ...]  # oldest first
    catalog: Catalog

    @property
    def covered(self) -> tuple[DayPoint, ...]:
        return tuple(day for day in self.days if day.covered)

    def ending(self, last: int, days: int) -> History:
        """The run of `days` points ending with point `last` (fewer at the run's start)."""
        return replace(self, days=self.days[max(0, last - days + 1) : last + 1])
