"""What the model is told, unit by unit: a story, a discussion thread, the day.

Each unit is the model's whole input for one answer, and its cache key: an unchanged story
(same title, state, body, members) is not asked about again the next day. `scope` is what
its sentences may cite; the figures they may write are those of `facts` (what it was shown).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.analyze.claims import state_at
from bot.model.report import ActivityItem, CommentRecord, Report, Story
from bot.prose.prompts import PROMPT_VERSION

BODY_CHARS = 1200  # of an item's description
COMMENT_CHARS = 500  # of each comment shown for a discussion
COMMENTS_SHOWN = 12  # per discussion
_REMARK = re.compile(r"<!--.*?-->", re.S)
_SPACE = re.compile(r"[ \t]+")


@dataclass(frozen=True)
class Unit:
    section: str  # stories, discussions or day
    number: int  # the story's lead or the thread (0 for the day)
    facts: dict[str, Any]
    scope: frozenset[int]

    def key(self, lang: str, model: str) -> str:
        blob = json.dumps(
            [PROMPT_VERSION, model, lang, self.section, self.facts],
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode()).hexdigest()


def top_stories(report: Report) -> list[Story]:
    """The stories prose is written for: key changes, notable issues, and the first story of
    each vendor with activity (each story once)."""
    sections = report.sections
    if sections is None:
        return []
    leads = [k.number for k in sections.key_changes]
    leads += [n.number for n in sections.notable_issues]
    for vendor in sections.catalog.vendors:
        found = sections.topics.get(vendor.key)
        if found is not None and found.stories:
            leads.append(sections.story(found.stories[0]).lead)
    chosen: dict[str, Story] = {}
    for number in leads:
        story = sections.story_of(number) or Story(f"s{number}", number, (number,), (), ())
        story = story.led_by(number) if number in story.numbers else story
        chosen.setdefault(story.id, story)
    return list(chosen.values())


def story_units(report: Report) -> list[Unit]:
    units = []
    sections = report.sections
    for story in top_stories(report):
        facts = _item_facts(report, story.lead, BODY_CHARS)
        details = sections.details.get(story.lead) if sections is not None else None
        if details is not None:
            facts["size"] = {
                "additions": details.additions,
                "deletions": details.deletions,
                "files": details.changed_files,
                "reviewers": len(details.reviewers),
            }
        facts["members"] = [
            {**_brief(report, m.number), "relation": m.relation} for m in story.members
        ]
        units.append(Unit("stories", story.lead, facts, frozenset(story.numbers)))
    return units


def discussion_units(report: Report, threads: Mapping[int, Sequence[CommentRecord]]) -> list[Unit]:
    """The read hot threads with what was said in the window (an unread thread has nothing
    to summarise)."""
    sections = report.sections
    if sections is None:
        return []
    units = []
    for hot in sections.hot_discussions:
        if not hot.measured:
            continue
        item = report.item(hot.number)
        people = {*hot.participants, *(p for p in [item.author] if p)}
        said = [
            c
            for c in threads.get(hot.number, ())
            if report.window.contains(c.created_at) and c.author in people and c.body.strip()
        ]
        if not said:
            continue
        facts = _item_facts(report, hot.number, BODY_CHARS // 2)
        facts["comments_in_window"] = hot.comments_in_window
        facts["comments"] = [_comment(c, item, hot.maintainers) for c in said[:COMMENTS_SHOWN]]
        linked = [n for n in hot.linked if n in report.items or n in report.context][:6]
        facts["linked"] = [_brief(report, n) for n in linked]
        units.append(Unit("discussions", hot.number, facts, frozenset({hot.number, *linked})))
    return units


def day_unit(report: Report, lang: str) -> Unit:
    """The day: its counts, themes and weightiest items (what a summary may cite)."""
    sections = report.sections
    facts: dict[str, Any] = {
        "repo": report.repo,
        "window": {"start": report.window.start.isoformat(), "end": report.window.end.isoformat()},
        "counts": {name.value: count for name, count in report.stats.items()},
    }
    low = sum(split.stale for split in report.closures.values())
    if low:
        facts["closed_by_stale_bot_or_bulk"] = low
    numbers: list[int] = []
    if sections is not None:
        facts["themes"] = []
        for theme in sections.themes:
            facts["themes"].append(
                {
                    "topic": sections.catalog.topic_name(theme.topic, lang),
                    "items": [_brief(report, n) for n in theme.numbers],
                }
            )
            numbers += theme.numbers
        groups = {
            "key_changes": [k.number for k in sections.key_changes],
            "hot_discussions": [h.number for h in sections.hot_discussions],
            "notable_issues": [n.number for n in sections.notable_issues],
        }
        for name, group in groups.items():
            facts[name] = [_brief(report, n) for n in group]
            numbers += group
    return Unit("day", 0, facts, frozenset(numbers))


def state_word(report: Report, item: ActivityItem) -> str:
    """Where the item stood as the window ended, in the words the prompt explains."""
    state = state_at(item, report)
    if item.kind == "pr":
        return {"merged": "merged", "open": "open", "closed": "closed without merging"}[state]
    if state == "open" and "rfc" in item.title.lower():
        return "open RFC"
    return state


def _item_facts(report: Report, number: int, body_chars: int) -> dict[str, Any]:
    item = report.item(number)
    facts = _brief(report, number)
    facts.update(kind=item.kind, author=item.author, labels=list(item.labels))
    body = _clean(item.body or "")[:body_chars]
    if body:
        facts["body"] = body
    return facts


def _brief(report: Report, number: int) -> dict[str, Any]:
    item = report.item(number)
    return {"number": number, "title": item.title, "state": state_word(report, item)}


def _comment(
    comment: CommentRecord, item: ActivityItem, maintainers: Sequence[str]
) -> dict[str, Any]:
    role = (
        "author"
        if comment.author == item.author
        else "maintainer"
        if comment.author in maintainers
        else "commenter"
    )
    return {"by": comment.author, "role": role, "text": _clean(comment.body)[:COMMENT_CHARS]}


def _clean(text: str) -> str:
    lines = [_SPACE.sub(" ", line).strip() for line in _REMARK.sub("", text).splitlines()]
    return "\n".join(line for line in lines if line)
