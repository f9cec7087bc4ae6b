"""Analysis: `(items, window, rules, ...) -> Report`. Pure: no I/O, no clock reads.

Every number a report shows is computed here: the five counts (counts.py), each item's own
one-line statement (what.py), stories of related items (stories.py, from the links in
references.py), vendor and topic sections (topics.py), hot discussions (discussions.py),
key changes and notable issues (changes.py), trends, clusters and activity (trends.py).
Analysis returns facts; the words that present them live in formatters/wording.py. Each
item is classified once, and its links read once, per report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime

from bot.analyze.changes import key_change_candidates, key_changes, notable_issues
from bot.analyze.counts import build_report, is_stale_closure, list_members
from bot.analyze.discussions import candidates, hot_discussions, in_window_comments
from bot.analyze.explain import cited_by, explain
from bot.analyze.references import links
from bot.analyze.stories import build_stories, story_index
from bot.analyze.themes import themes
from bot.analyze.topics import TopicMatch, classify_all, topic_sections
from bot.analyze.trends import activity, baseline_per_day, clusters, topic_counts, trends
from bot.analyze.weight import substance
from bot.analyze.what import what_line
from bot.model.report import (
    BASELINE_DAYS,
    ActivityItem,
    CommentRecord,
    PullDetails,
    Report,
    Sections,
    Story,
)
from bot.model.rules import TopicRules
from bot.model.windows import Window

REVERTED_NEWS = 1.0  # a change with a revert proposed or merged in the window

__all__ = [
    "analyze",
    "build_report",
    "candidates",
    "is_stale_closure",
    "key_change_candidates",
    "list_members",
]


def analyze(
    items: Iterable[ActivityItem],
    window: Window,
    *,
    repo: str,
    rules: TopicRules,
    complete: bool,
    baseline_items: Sequence[ActivityItem] = (),
    baseline_covered: Sequence[bool] = (False,) * BASELINE_DAYS,
    comments: Mapping[int, Sequence[CommentRecord]] | None = None,
    details: Mapping[int, PullDetails] | None = None,
    context: Sequence[ActivityItem] = (),
    notes: Iterable[str] = (),
    generated_at: datetime | None = None,
    topic: str | None = None,
) -> Report:
    """The whole report (with `topic`, of that topic's items only): counts, lists, sections.

    `comments`: the read threads, by number; `details`: pulls-API facts of the key-change
    candidates; `context`: items outside the window that the window's items name;
    `baseline_covered`: which of the 7 days before the window the archive holds whole.
    """
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
    threads = comments or {}
    item_links = {it.number: links(it.title, it.body, repo, it.number) for it in listed}
    known = {**{it.number: it for it in context}, **report.items}
    # What each item is worth, worked out once: story leads, vendor order and key changes
    # all read it, so every section agrees on what matters most.
    weights = {n: substance(it, window.contains(it.created_at)) for n, it in known.items()}
    stories = build_stories(listed, context, window, item_links, weights)
    by_story = story_index(stories)
    _add_revert_news(weights, stories)
    discussed = {
        n: len(in_window_comments(report.items[n], thread, window, rules))
        for n, thread in threads.items()
        if n in report.items
    }
    topics = topic_sections(listed, rules, matches, by_story, window, weights)
    sections = Sections(
        catalog=rules.catalog(),
        topics=topics,
        stories=stories,
        what={it.number: what_line(it) for it in [*listed, *context]},
        details=dict(details or {}),
        hot_discussions=hot_discussions(listed, threads, window, rules, item_links),
        key_changes=key_changes(
            listed, window, rules, by_story, details or {}, discussed, known=known, weights=weights
        ),
        notable_issues=notable_issues(listed, window, rules, by_story),
        trends=trends(
            topic_counts(listed, window, matches),
            baseline_items,
            baseline_matches,
            window,
            rules,
            baseline_covered,
            listed=len(listed),
        ),
        clusters=clusters(listed, rules),
        activity=activity(listed, window, rules),
        baseline_days=sum(baseline_covered),
        baseline_per_day=baseline_per_day(baseline_items, window, baseline_covered),
        days=max(1, round(window.duration.total_seconds() / 86400)),
        weights={n: weights[n] for n in report.items},
    )
    sections = replace(sections, themes=themes(sections.key_changes, _titled_first(matches, rules)))
    cited = cited_by(item_links)
    sections = replace(
        sections,
        explained={
            n: explain(
                known[n],
                areas=_areas(matches.get(n, {}), rules),
                rules=rules,
                links=item_links,
                cited=cited,
                known=known,
                own=sections.what.get(n, ""),
            )
            for n in _told_first(sections)
            if n in known
        },
    )
    report = replace(report, sections=sections, topic=topic)
    return report if not context else replace(report, context=_named(context, stories))


TOLD_PER_BUCKET = 5  # stories per bucket of a topic whose items are explained


def _told_first(sections: Sections) -> list[int]:
    """The items a report tells first, which get a line of what they do and why it matters:
    key changes, notable issues, hot threads, each topic's first stories per bucket (what
    its section and a chat reply show) with their members, and every vendor's items."""
    numbers = [k.number for k in sections.key_changes]
    numbers += [n.number for n in sections.notable_issues]
    numbers += [h.number for h in sections.hot_discussions]
    vendors = {v.key for v in sections.catalog.vendors}
    for key, section in sections.topics.items():
        for ids in section.buckets.values():
            for story_id in ids[:TOLD_PER_BUCKET]:
                numbers += sections.story(story_id).numbers
        if key in vendors:  # a vendor's overview counts the kinds of all its work
            numbers += [n for found in section.figures.values() for n in found]
    return list(dict.fromkeys(numbers))


def _areas(found: Mapping[str, TopicMatch], rules: TopicRules) -> tuple[str, ...]:
    """An item's topics, vendors first, each in the rules' order."""
    vendors = [t.key for t in rules.vendors if t.key in found]
    return tuple(vendors + [t.key for t in rules.topics if t.key in found and t.key not in vendors])


def _add_revert_news(weights: dict[int, float], stories: Sequence[Story]) -> None:
    """Work pulled back out the same day is news about that work."""
    for story in stories:
        if any(m.relation == "revert" and not m.context for m in story.members):
            weights[story.lead] += REVERTED_NEWS


def _titled_first(
    matches: Mapping[int, Mapping[str, TopicMatch]], rules: TopicRules
) -> dict[int, tuple[str, ...]]:
    """Each item's topics, those its title names first (vendors first among each)."""
    out: dict[int, tuple[str, ...]] = {}
    for number, found in matches.items():
        ordered = _areas(found, rules)
        out[number] = tuple(sorted(ordered, key=lambda key: not found[key].titled))
    return out


def _named(context: Sequence[ActivityItem], stories: Sequence[Story]) -> dict[int, ActivityItem]:
    """The context items some story holds (the rest named nothing here)."""
    held = {n for story in stories for n in story.numbers}
    return {it.number: it for it in context if it.number in held}
