"""The stable JSON contract (`"schema": "vllm-report/1"`): keys may be added, never renamed."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Any

from bot.model.report import ActivityItem, Continuity, Prose, Report
from formatters.summary_text import summary

SCHEMA = "vllm-report/1"


def report_to_dict(report: Report, lang: str = "en") -> dict[str, Any]:
    tz = report.window.start.tzinfo
    items = {str(number): _item(item, tz) for number, item in report.items.items()}
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "repo": report.repo,
        "window": {
            "start": report.window.start.isoformat(),
            "end": report.window.end.isoformat(),
            "timezone": report.window.timezone,
            "label": report.window.label,
        },
        "complete": report.complete,
        "notes": list(report.notes),
        "stats": {name.value: count for name, count in report.stats.items()},
        "closures": {
            name.value: {
                "resolved": split.resolved,
                "stale": split.stale,
                "low_effort": split.low_effort,
            }
            for name, split in report.closures.items()
        },
        "lists": {name.value: list(numbers) for name, numbers in report.lists.items()},
        "items": items,
    }
    if report.sections is not None:
        what = report.sections.what
        for number, entry in items.items():
            entry["what"] = what.get(int(number), "")
        data["context_items"] = {
            str(n): {**_item(it, tz), "what": what.get(n, "")} for n, it in report.context.items()
        }
        data.update(_sections(report, lang))
    for part in report.parts:  # what features added: `radar`, `ci`, `queue`
        data[part.json_key] = part.to_json()
    if report.prose is not None:
        data["prose"] = _prose(report, report.prose)
    if report.continuity is not None:  # only when a report was published before it
        data["continuity"] = _continuity(report, report.continuity)
    return data


def _continuity(report: Report, found: Continuity) -> dict[str, Any]:
    """Its past: what landed since the last published report, each shown item's first
    featuring, the items not featured again (unchanged since), PRs long in review."""
    tz = report.window.start.tzinfo
    return {
        "last_day": found.last_day,
        "since_last_time": [
            {
                "number": entry.number,
                "title": found.items[entry.number].title,
                "url": found.items[entry.number].url,
                "first_featured": entry.first_day,
                "then": entry.then,
                "now": entry.now,
                "at": _time(entry.at, tz),
                "by": entry.by,
            }
            for entry in found.since
        ],
        "featured_before": {
            str(n): {"day": past.day, "place": past.place, "state": past.state}
            for n, past in found.past.items()
        },
        "not_featured_again": list(found.old_news),
        "review_days": {str(n): days for n, days in found.review_days.items()},
    }


def _prose(report: Report, prose: Prose) -> dict[str, Any]:
    """The model's checked text, what the check left out and why, and what it cost."""
    notes = {str(k): v for k, v in prose.notes.items()}
    discussions = {str(k): v for k, v in prose.discussions.items()}
    key = {str(k.number) for k in report.sections.key_changes} if report.sections else set()
    hot = {str(h.number) for h in report.sections.hot_discussions} if report.sections else set()
    return {
        "model": prose.model,
        "summary": dict(prose.summary),
        "notes": notes,
        # The Chinese edition's parts by item: `what` (its own words), `why` (its quoted
        # reason), each said in Chinese in place of the English.
        "parts": {str(k): dict(v) for k, v in prose.parts.items()},
        # The first contract's names, kept: notes of key changes and of hot threads.
        "item_notes": {k: v for k, v in notes.items() if k in key},
        "discussion_notes": {**{k: v for k, v in notes.items() if k in hot}, **discussions},
        "discussions": discussions,
        "themes": list(prose.themes),
        "kept": prose.kept,
        "dropped": prose.dropped,
        "rejected": [{"sentence": s, "why": why} for s, why in prose.rejected],
        "cost": {"calls": prose.calls, "cached": prose.cached, "tokens_sent": prose.tokens},
    }


def render_json(report: Report, lang: str = "en") -> str:
    return json.dumps(report_to_dict(report, lang), ensure_ascii=False, indent=2)


def _sections(report: Report, lang: str) -> dict[str, Any]:
    sections = report.sections
    assert sections is not None  # noqa: S101 - called for full reports only
    return {
        "topics": {
            key: {
                "issues": list(section.issues),
                "prs": list(section.prs),
                "groups": {group: list(numbers) for group, numbers in section.groups.items()},
                "reasons": {str(n): reason for n, reason in section.reasons.items()},
                "stories": list(section.stories),
                "buckets": {name: list(ids) for name, ids in section.buckets.items()},
                "figures": {name: list(ns) for name, ns in section.figures.items()},
                "stale": list(section.stale),
            }
            for key, section in sections.topics.items()
        },
        "stories": [asdict(story) for story in sections.stories if len(story.numbers) > 1],
        "hot_discussions": [hot.number for hot in sections.hot_discussions],
        "hot_discussion_details": [asdict(hot) for hot in sections.hot_discussions],
        "key_changes": [change.number for change in sections.key_changes],
        "key_change_details": [
            {**asdict(change), "description": sections.what.get(change.number, "")}
            for change in sections.key_changes
        ],
        "notable_issues": [issue.number for issue in sections.notable_issues],
        "notable_issue_details": [asdict(issue) for issue in sections.notable_issues],
        "trends": [asdict(row) for row in sections.trends],
        "trend_baseline_days": sections.baseline_days,
        "trend_baseline_per_day": sections.baseline_per_day,
        "themes": [asdict(theme) for theme in sections.themes],
        "weights": {str(n): w for n, w in sections.weights.items()},
        "clusters": [asdict(cluster) for cluster in sections.clusters],
        "activity": asdict(sections.activity),
        "summary": summary(report, lang),
        "summaries": {language: summary(report, language) for language in ("en", "zh")},
    }


def _item(item: ActivityItem, tz: Any) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "title": item.title,
        "author": item.author,
        "labels": list(item.labels),
        "url": item.url,
        "state": item.state,
        "created_at": _time(item.created_at, tz),
        "closed_at": _time(item.closed_at, tz),
        "merged_at": _time(item.merged_at, tz),
        "state_reason": item.state_reason,
        "comments": item.comments,
        "draft": item.draft,
    }


def _time(moment: datetime | None, tz: Any) -> str | None:
    return moment.astimezone(tz).isoformat() if moment is not None else None
