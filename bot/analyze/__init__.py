"""Analysis: `(items, window, rules, ...) -> Report`. Pure: no I/O, no clock reads.

Every number a report shows is computed here: the five counts (counts.py), vendor and
topic sections (topics.py), hot discussions (discussions.py), key changes and notable
issues (changes.py), trends, clusters and activity (trends.py), the summary (summary.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from bot.analyze.changes import key_changes, notable_issues
from bot.analyze.counts import build_report, is_stale_closure, list_members
from bot.analyze.discussions import hot_discussions
from bot.analyze.summary import summaries
from bot.analyze.topics import topic_sections
from bot.analyze.trends import activity, clusters, topic_counts, trends
from bot.report import ActivityItem, CommentRecord, Report, Sections
from bot.topic_rules import TopicRules
from bot.windows import Window

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
) -> Report:
    """The whole report: counts and lists, then every section computed from them."""
    report = build_report(
        items, window, repo=repo, complete=complete, notes=notes, generated_at=generated_at
    )
    listed = list(report.items.values())
    sections_by_topic, matches = topic_sections(listed, rules)
    current = topic_counts(listed, window, rules)
    sections = Sections(
        topics=sections_by_topic,
        hot_discussions=hot_discussions(listed, comments or {}, window, rules, repo),
        key_changes=key_changes(listed, window, rules),
        notable_issues=notable_issues(listed, window, rules),
        trends=trends(current, baseline_items, window, rules, baseline_days),
        clusters=clusters(listed, rules),
        activity=activity(listed, window, rules, matches),
        summary={},
        baseline_days=baseline_days,
    )
    sections = replace(sections, summary=summaries(report, sections, rules))
    return replace(report, sections=sections)
