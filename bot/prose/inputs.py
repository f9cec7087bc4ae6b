"""What the model is told, unit by unit: an item, a discussion thread, the day.

Each unit is the model's whole input for one answer, and its cache key: an unchanged item
(same title, state, description) is not asked about again the next day. `scope` is what its
sentences may cite; the figures they may write are those of `facts` (what it was shown).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.analyze.claims import state_at
from bot.analyze.effects import effect_sentence
from bot.analyze.what import what_line, whole
from bot.model.report import ActivityItem, CommentRecord, Report
from bot.prose.prompts import PROMPT_VERSION

COMMENT_CHARS = 500  # of each comment shown for a discussion
COMMENTS_SHOWN = 12  # per discussion
_REMARK = re.compile(r"<!--.*?-->", re.S)
_CITED = re.compile(r"(?<![\w/])#(\d{2,7})\b")  # what its own words name may be named too
_SPACE = re.compile(r"[ \t]+")


@dataclass(frozen=True)
class Unit:
    section: str  # item, thread or day
    number: int  # the item or the thread (0 for the day)
    facts: dict[str, Any]
    scope: frozenset[int]

    def key(self, lang: str, model: str) -> str:
        blob = json.dumps(
            [PROMPT_VERSION, model, lang, self.section, self.facts],
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(blob.encode()).hexdigest()


# Characters of an item's own words a model is given to translate: whole sentences only,
# however the report cuts them (`bot.analyze.what.whole`).
WHOLE = 500
SHOWN_PER_BUCKET = 5  # a vendor's stories a bucket shows (analyze: TOLD_PER_BUCKET)


def told_first(report: Report) -> list[int]:
    """The items a model may add a line to, weightiest first: the key changes, the notable
    issues, each vendor's weightiest story, then the stories the vendors' sections show
    (the lead vendor's first), each once: what the Chinese edition says in Chinese."""
    sections = report.sections
    if sections is None:
        return []
    numbers = [k.number for k in sections.key_changes]
    numbers += [n.number for n in sections.notable_issues]
    vendors = [sections.topics[v.key] for v in sections.catalog.vendors if v.key in sections.topics]
    numbers += [sections.story(found.stories[0]).lead for found in vendors if found.stories]
    for found in vendors:
        for ids in found.buckets.values():
            numbers += [sections.story(story_id).lead for story_id in ids[:SHOWN_PER_BUCKET]]
    return list(dict.fromkeys(numbers))


def item_units(report: Report, lang: str) -> list[Unit]:
    """One unit an item of the Chinese edition: its title, kind, state, its own line
    (`description`) and the sentence the report quotes as why it matters (`reason`), each
    to be said in Chinese in place of the English quote. The English edition quotes both in
    the author's own words: a model has nothing to add there."""
    if lang != "zh" or report.sections is None:
        return []
    units = (item_unit(report, number) for number in told_first(report))
    return [unit for unit in units if unit is not None]


def item_unit(report: Report, number: int) -> Unit | None:
    """One item as the model is told it; None when the report has no line of its own."""
    sections = report.sections
    own = sections.what.get(number, "") if sections is not None else ""
    if sections is None or not own:
        return None
    item = report.item(number)
    found = sections.explained.get(number)
    # The same sentences the report quotes, whole: the report's own line and reason are
    # cut to fit a line, and a model given a cut sentence finishes it.
    description = whole(what_line(item, 4 * WHOLE), WHOLE)
    if not description:
        return None
    reason = ""
    if found is not None and found.effect:
        shown = " ".join(s for s in (own, found.default) if s)
        reason = whole(effect_sentence(item, shown, 4 * WHOLE), WHOLE)
    facts = _brief(report, number)
    facts.update(kind=item.kind, description=description, reason=reason)
    named = {int(n) for n in _CITED.findall(description + " " + reason)}
    return Unit("item", number, facts, frozenset({number, *named}))


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
            if report.window.contains(c.created_at) and c.author in people and says(c.body)
        ]
        if not said:
            continue
        # Its title and its comments, not its description: what the thread argued is in the
        # comments (given the description, a model told its purpose as the thread's points).
        facts = _thread_facts(report, hot.number)
        facts["comments_in_window"] = hot.comments_in_window
        facts["comments"] = [_comment(c, item, hot.maintainers) for c in said[:COMMENTS_SHOWN]]
        linked = [n for n in hot.linked if n in report.items or n in report.context][:6]
        facts["linked"] = [_brief(report, n) for n in linked]
        units.append(Unit("thread", hot.number, facts, frozenset({hot.number, *linked})))
    return units


def day_unit(report: Report, lang: str) -> Unit:
    """The day: its counts, themes and weightiest items (what a summary may cite)."""
    sections = report.sections
    facts: dict[str, Any] = {
        "repo": report.repo,
        "window": {"start": report.window.start.isoformat(), "end": report.window.end.isoformat()},
        "counts": {name.value: count for name, count in report.stats.items()},
    }
    stale = sum(split.stale for split in report.closures.values())
    bulk = sum(split.low_effort for split in report.closures.values())
    if stale:
        facts["closed_by_stale_bot"] = stale
    if bulk:
        facts["closed_as_low_effort_in_bulk"] = bulk
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


def _thread_facts(report: Report, number: int) -> dict[str, Any]:
    item = report.item(number)
    facts = _brief(report, number)
    facts.update(kind=item.kind, author=item.author, labels=list(item.labels))
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


# What a comment's text is when it carries none: a store's placeholder.
_PLACEHOLDER = re.compile(
    r"^\W*(?:(?:comment|text|body)\s*\d*\s*)?\(?\s*(?:text|comment|body)?\s*"
    r"(?:not recorded|not available|unavailable|not shown|omitted|deleted|hidden)\s*\)?\W*$",
    re.I,
)
LEAST_WORDS = 4  # words a comment must say for a model to summarise what it argued


def says(body: str) -> bool:
    """A comment says something a thread's note may be written from: words of its own,
    not a store's placeholder ("(text not recorded)") or a bare "+1"."""
    text = _clean(body)
    if not text or _PLACEHOLDER.match(text):
        return False
    words = re.findall(r"[A-Za-z][\w'-]*|[\u4e00-\u9fff]{2}", text)
    return len(words) >= LEAST_WORDS


def _clean(text: str) -> str:
    lines = [_SPACE.sub(" ", line).strip() for line in _REMARK.sub("", text).splitlines()]
    return "\n".join(line for line in lines if line)
