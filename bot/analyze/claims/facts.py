"""What claims are checked against: one window's report, any other archived item, each item's
topics, and the words the report's items wrote themselves (a quote is never a claim)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from bot.model.report import ActivityItem, Report

_NOISE = re.compile(r"[`*_\u200b]+|\\(?=[^\w\s])")
_SPACE = re.compile(r"\s+")


def normal(text: str) -> str:
    """Text as quotes are compared: lower case, no Markdown emphasis, single spaces."""
    return _SPACE.sub(" ", _NOISE.sub("", text.lower())).strip()


@dataclass(frozen=True)
class Facts:
    """What claims are checked against: the window's report (its items and their context),
    any other archived item by number, and each item's topics (vendor placement)."""

    report: Report
    known: Mapping[int, ActivityItem] = field(default_factory=dict)
    topics: Callable[[ActivityItem], set[str]] = lambda item: set()
    vendor_names: Mapping[str, Sequence[str]] = field(default_factory=dict)  # key → names

    def item(self, number: int) -> ActivityItem | None:
        report = self.report
        return report.items.get(number) or report.context.get(number) or self.known.get(number)

    @cached_property
    def quotes(self) -> str:
        """Every title and every item's own line, as `normal` writes them: a report that
        quotes them ("[CPU] Enable tcmalloc by default", "… by adding a kernel") states
        nothing of its own there."""
        items = [*self.report.items.values(), *self.report.context.values(), *self.known.values()]
        said = [normal(it.title) for it in items]
        if self.report.sections is not None:
            said += [normal(line) for line in self.report.sections.what.values() if line]
        return "\x00".join(said)

    @cached_property
    def texts(self) -> str:
        """Every title, own line and description the report's items wrote, as `normal`
        writes them: a stretch of a line found here is the item's words, quoted (a
        Chinese line's English object, a quoted reason)."""
        items = [*self.report.items.values(), *self.report.context.values(), *self.known.values()]
        said = [self.quotes, *(normal(it.body) for it in items if it.body)]
        return "\x00".join(said)

    @cached_property
    def authors(self) -> frozenset[str]:
        """Every known author's login, lower case."""
        items = [*self.report.items.values(), *self.report.context.values(), *self.known.values()]
        return frozenset(it.author.lower() for it in items if it.author)

    def figures(self, topic: str) -> Mapping[str, tuple[int, ...]] | None:
        """A topic's figures by bucket (merged, review, new, done, closed), when known."""
        sections = self.report.sections
        if sections is None:
            return None
        section = sections.topics.get(topic)
        return section.figures if section is not None else {}


def state_at(item: ActivityItem, report: Report) -> str:
    """merged, closed or open, as the window ended."""
    end = report.window.end
    if item.merged_at is not None and item.merged_at < end:
        return "merged"
    if item.closed_at is not None and item.closed_at < end:
        return "closed"
    return "open"
