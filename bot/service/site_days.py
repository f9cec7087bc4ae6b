"""What a site build remembers of each report day, and what tells it a day must be made
again: the day records kept in the site's INPUTS, the archive's changes since the last
build, and the recipe (code, rules, settings) every page is made with."""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_left
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import bot
import formatters
from bot.service.reports import CHART_DAYS
from formatters import html


@dataclass
class Changed:
    """What the archive learned since the last build."""

    numbers: set[int] = field(default_factory=set)  # items whose row or facts were written
    moments: dict[int, tuple[datetime, ...]] = field(default_factory=dict)  # created/closed/merged
    since: datetime | None = None  # the last build's mark


@dataclass
class DayRecord:
    """What a later build needs of a day it does not make again (kept in INPUTS)."""

    label: str
    near: tuple[str | None, str | None]  # the days its "previous" and "next" links go to
    shows: list[int]  # the items on its pages, of the window and of its context
    files: list[str]
    charts: dict[str, str]
    row: html.DayRow
    entry: html.FeedEntry
    topics: list[tuple[str, str, int, str]]  # key, name, items, line
    # What each feature's pages keep of the day (SitePages.of_day), by the pages' key.
    parts: dict[str, list[Any]] = field(default_factory=dict)

    def dump(self) -> dict[str, Any]:
        # By hand: dataclasses.asdict deep-copies every value, which at a thousand days
        # cost more than the rest of a build that changed nothing.
        row, entry = self.row, self.entry
        return {
            "label": self.label,
            "near": list(self.near),
            "shows": self.shows,
            "files": self.files,
            "charts": self.charts,
            "row": {
                "label": row.label,
                "href": row.href,
                "zh_href": row.zh_href,
                "counts": [list(c) for c in row.counts],
                "spark": row.spark,
                "spark_label": row.spark_label,
            },
            "entry": {
                "title": entry.title,
                "href": entry.href,
                "updated": entry.updated.isoformat(),
                "summary": entry.summary,
                "id": entry.id,
            },
            "topics": [list(t) for t in self.topics],
            "parts": self.parts,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> DayRecord:
        row, entry = data["row"], data["entry"]
        return cls(
            label=data["label"],
            near=(data["near"][0], data["near"][1]),
            shows=data["shows"],
            files=data["files"],
            charts=data["charts"],
            row=html.DayRow(**{**row, "counts": tuple(tuple(c) for c in row["counts"])}),
            entry=html.FeedEntry(**{**entry, "updated": datetime.fromisoformat(entry["updated"])}),
            topics=[(k, n, i, line) for k, n, i, line in data["topics"]],
            parts=data.get("parts", {}),
        )


def near(days: list[date], day: date) -> tuple[str | None, str | None]:
    """The report days before and after `day` on the site (sorted `days`)."""
    at = bisect_left(days, day)
    return (
        days[at - 1].isoformat() if at else None,
        days[at + 1].isoformat() if at + 1 < len(days) else None,
    )


def runs(days: list[date]) -> list[list[date]]:
    """Sorted days in runs that share one read of the archive: a day within a fortnight of
    the one before joins its run (their charts' days overlap)."""
    runs: list[list[date]] = []
    for day in days:
        if runs and (day - runs[-1][-1]).days <= CHART_DAYS:
            runs[-1].append(day)
        else:
            runs.append([day])
    return runs


def parse_mark(text: object) -> datetime | None:
    try:
        return datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def stable(value: object) -> str:
    """A text of `value` that is the same in every process: sets sorted (their order
    follows the string hash seed), patterns by their source."""
    if is_dataclass(value) and not isinstance(value, type):
        value = tuple((f.name, getattr(value, f.name)) for f in fields(value))
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(stable(v) for v in value)) + "}"
    if isinstance(value, tuple | list):
        return "(" + ",".join(stable(v) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(f"{stable(k)}:{stable(v)}" for k, v in value.items())) + "}"
    if isinstance(value, re.Pattern):
        return f"re({value.pattern!r},{value.flags})"
    return repr(value)


@cache
def code_digest() -> bytes:
    """The bot's own code and templates: a new version makes every page again."""
    digest = hashlib.sha256()
    for package in (Path(bot.__file__).parent, Path(formatters.__file__).parent):
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".html", ".css", ".svg", ".j2", ".toml"):
                digest.update(path.read_bytes())
    return digest.digest()
