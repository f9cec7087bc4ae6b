"""Analysis: `(items, window, rules, ...) -> Report`. Pure: no I/O, no clock reads.

Every number a report shows is computed here: the five counts (counts.py), vendor and
topic sections (topics.py), hot discussions (discussions.py), key changes and notable
issues (changes.py), trends, clusters and activity (trends.py). Analysis returns facts;
the words that present them live in formatters/wording.py. Each item is classified once
per report, and every step reads that one classification.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from bot.analyze.changes import key_changes, notable_issues
from bot.analyze.counts import build_report, is_stale_closure, list_members
from bot.analyze.discussions import hot_discussions
from bot.analyze.topics import classify_all, topic_sections
from bot.analyze.trends import activity, clusters, topic_counts, trends
from bot.model.report import ActivityItem, CommentRecord, Report, Sections
from bot.model.rules import TopicRules
from bot.model.windows import Window

__all__ = ["analyze", "build_report", "is_stale_closure", "list_members"]


def analyze(
    items: Iterable[ActivityItem],
    window: Window,
    *,
    repo: str,
    rules: TopicRules,
    complete: bool,
    baseline_items: Sequence[ActivityItem] = (),
    baseline_days: int = 0,
    comments: Mapping[int, Sequence[CommentRecord]] | None = None,
    notes: Iterable[str] = (),
    generated_at: datetime | None = None,
    topic: str | None = None,
) -> Report:
    """The whole report (with `topic`, of that topic's items only): counts, lists, sections."""
    items = list(items)
    matches = classify_all(items, rules)
    baseline_matches = classify_all(baseline_items, rules)
    if topic is not None:
        items = [it for it in items if topic in matches[it.number]]
        baseline_items = [it for it in baseline_items if topic in baseline_matches[it.number]]
    report = build_report(
        items, window, repo=repo, complete=complete, notes=notes, generated_at=generated_at
    )
    listed = list(report.items.values())
    current = topic_counts(listed, window, matches)
    sections = Sections(
        catalog=rules.catalog(),
        topics=topic_sections(listed, rules, matches),
        hot_discussions=hot_discussions(listed, comments or {}, window, rules, repo),
        key_changes=key_changes(listed, window, rules),
        notable_issues=notable_issues(listed, window, rules),
        trends=trends(current, baseline_items, baseline_matches, window, rules, baseline_days),
        clusters=clusters(listed, rules),
        activity=activity(listed, window, rules),
        baseline_days=baseline_days,
    )
    return replace(report, sections=sections, topic=topic)
