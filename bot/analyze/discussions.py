"""Hot discussions: ranked by what happened inside the window, bots left out.

Score = comments in the window + 2 × distinct participants + reactions / 2 + 3 when a
maintainer took part. Comment threads are fetched for the likeliest candidates only (see
the pipeline); for the rest, an item opened inside the window counts its comment total,
since every one of its comments was written after it opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from bot.analyze.references import fixes, references
from bot.model.report import ActivityItem, CommentRecord, HotDiscussion
from bot.model.rules import TopicRules
from bot.model.windows import Window

CANDIDATES = 8  # comment threads fetched per window
PARTICIPANT_WEIGHT = 2.0
REACTION_WEIGHT = 0.5
MAINTAINER_BONUS = 3.0


def candidates(
    items: Iterable[ActivityItem], window: Window, rules: TopicRules, limit: int = CANDIDATES
) -> list[int]:
    """Items worth fetching comment threads for: most comments and reactions first.

    An item opened inside the window counts double: all its comments are recent, while an
    old item's total is mostly history (a stale sweep closes threads quiet for months).
    """

    def weight(it: ActivityItem) -> int:
        activity = it.comments + it.reactions
        return activity * 2 if window.contains(it.created_at) else activity

    ranked = sorted(
        (it for it in items if it.comments > 0 and not rules.is_bot(it.author)),
        key=lambda it: (-weight(it), it.number),
    )
    return [it.number for it in ranked[:limit]]


def hot_discussions(
    items: Sequence[ActivityItem],
    comments: Mapping[int, Sequence[CommentRecord]],
    window: Window,
    rules: TopicRules,
    repo: str,
    limit: int = 5,
) -> tuple[HotDiscussion, ...]:
    """The `limit` most active threads of the window (comments: those fetched, by number)."""
    fixers: dict[int, set[int]] = {}
    for it in items:
        for target in fixes(it.body):
            fixers.setdefault(target, set()).add(it.number)
    ranked = []
    for it in items:
        if rules.is_bot(it.author):
            continue
        thread = comments.get(it.number)
        if thread is not None:
            inside = [
                c for c in thread if window.contains(c.created_at) and not rules.is_bot(c.author)
            ]
            count = len(inside)
            people = {c.author for c in inside if c.author}
            maintainers = {
                c.author
                for c in inside
                if c.author and c.author_association in rules.maintainer_associations
            }
        elif window.contains(it.created_at):
            count, people, maintainers = it.comments, set(), set()
        else:
            continue
        if window.contains(it.created_at) and it.author:
            people.add(it.author)
        score = (
            count
            + PARTICIPANT_WEIGHT * len(people)
            + REACTION_WEIGHT * it.reactions
            + (MAINTAINER_BONUS if maintainers else 0.0)
        )
        if count == 0 and it.reactions == 0:
            continue
        ranked.append(
            HotDiscussion(
                number=it.number,
                score=round(score, 2),
                comments_in_window=count,
                participants=tuple(sorted(people, key=str.lower)),
                maintainers=tuple(sorted(maintainers, key=str.lower)),
                reactions=it.reactions,
                linked=(),
                measured=thread is not None,
            )
        )
    ranked.sort(key=lambda h: (-h.score, h.number))
    bodies = {it.number: it.body for it in items}
    return tuple(
        replace(hot, linked=_linked(hot.number, bodies[hot.number], repo, fixers))
        for hot in ranked[:limit]
    )


def _linked(
    number: int, body: str | None, repo: str, fixers: dict[int, set[int]]
) -> tuple[int, ...]:
    """Items this one mentions, and items that say they fix it."""
    return tuple(sorted((references(body, repo) | fixers.get(number, set())) - {number}))
