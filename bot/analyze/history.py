"""Day by day: the five counts and the items per topic of each report day in a run (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.analyze.counts import build_report
from bot.analyze.topics import classify_all
from bot.model.history import DayPoint, History
from bot.model.report import ActivityItem
from bot.model.rules import TopicRules
from bot.model.windows import Window


def history(
    items: Sequence[ActivityItem],
    windows: Sequence[Window],
    covered: Sequence[bool],
    *,
    repo: str,
    rules: TopicRules,
    topic: str | None = None,
) -> History:
    """One point per window; a window the archive does not cover has no figures."""
    matches = classify_all(items, rules)
    if topic is not None:
        items = [it for it in items if topic in matches[it.number]]
    points = []
    for window, whole in zip(windows, covered, strict=True):
        if not whole:
            points.append(DayPoint(window.label, False, {}, {}))
            continue
        report = build_report(items, window, repo=repo, complete=True)
        per_topic: dict[str, int] = {}
        for number in report.items:
            for key in matches[number]:
                per_topic[key] = per_topic.get(key, 0) + 1
        points.append(DayPoint(window.label, True, dict(report.stats), per_topic))
    zone = windows[0].timezone if windows else "UTC"
    return History(repo, zone, topic, tuple(points), rules.catalog())
