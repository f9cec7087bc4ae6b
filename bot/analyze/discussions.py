"""Hot discussions: ranked by what was said inside the window, by people, not bots.

A thread counts its comments written inside the window, and the people who wrote them
(the author apart, bots left out); reactions and a maintainer taking part add to it.
Comment threads are read for the likeliest candidates only (see the pipeline). An item
whose thread was not read has no in-window figure: it is listed after every read one,
by its total, and only when it was opened in the window (an old item's total is history).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from bot.analyze.references import Link
from bot.model.report import ActivityItem, CommentRecord, HotDiscussion
from bot.model.rules import TopicRules
from bot.model.windows import Window

CANDIDATES = 8  # comment threads read per window
PARTICIPANT_WEIGHT = 2.0
REACTION_WEIGHT = 0.5
MAINTAINER_BONUS = 3.0
UNREAD_MIN_COMMENTS = 3  # an unread thread is listed only when its total says it is busy


def candidates(
    items: Iterable[ActivityItem], window: Window, rules: TopicRules, limit: int = CANDIDATES
) -> list[int]:
    """Items worth reading the comment thread of: most comments and reactions first.

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


def in_window_comments(
    item: ActivityItem, thread: Sequence[CommentRecord], window: Window, rules: TopicRules
) -> list[CommentRecord]:
    return [c for c in thread if window.contains(c.created_at) and not rules.is_bot(c.author)]


def hot_discussions(
    items: Sequence[ActivityItem],
    comments: Mapping[int, Sequence[CommentRecord]],
    window: Window,
    rules: TopicRules,
    item_links: Mapping[int, Sequence[Link]],
    limit: int = 5,
) -> tuple[HotDiscussion, ...]:
    """The `limit` liveliest threads: every read thread before any unread one."""
    read: list[HotDiscussion] = []
    unread: list[HotDiscussion] = []
    for it in items:
        if rules.is_bot(it.author):
            continue
        thread = comments.get(it.number)
        if thread is None:
            if window.contains(it.created_at) and it.comments >= UNREAD_MIN_COMMENTS:
                unread.append(_unread(it))
            continue
        hot = _read(it, in_window_comments(it, thread, window, rules), rules)
        if hot.comments_in_window or hot.reactions:
            read.append(hot)
    read.sort(key=lambda h: (-h.score, h.number))
    unread.sort(key=lambda h: (-h.comments_total, h.number))
    ranked = (read + unread)[:limit]
    wanted = {h.number for h in ranked}
    linked: dict[int, set[int]] = {n: set() for n in wanted}
    for number, found in item_links.items():
        for link in found:
            if number in wanted:
                linked[number].add(link.target)
            if link.kind == "fixes" and link.target in wanted:
                linked[link.target].add(number)  # what says it fixes a hot item
    return tuple(
        replace(hot, linked=tuple(sorted(linked[hot.number] - {hot.number}))) for hot in ranked
    )


def _read(item: ActivityItem, inside: list[CommentRecord], rules: TopicRules) -> HotDiscussion:
    writers = {c.author for c in inside if c.author}
    people = writers - {item.author}
    maintainers = {
        c.author
        for c in inside
        if c.author
        and c.author != item.author
        and c.author_association in rules.maintainer_associations
    }
    score = (
        len(inside)
        + PARTICIPANT_WEIGHT * len(people)
        + REACTION_WEIGHT * item.reactions
        + (MAINTAINER_BONUS if maintainers else 0.0)
    )
    return HotDiscussion(
        number=item.number,
        score=round(score, 2),
        comments_in_window=len(inside),
        comments_total=max(item.comments, len(inside)),
        participants=tuple(sorted(people, key=str.lower)),
        author_replied=item.author in writers,
        maintainers=tuple(sorted(maintainers, key=str.lower)),
        reactions=item.reactions,
        linked=(),
        measured=True,
    )


def _unread(item: ActivityItem) -> HotDiscussion:
    return HotDiscussion(
        number=item.number,
        score=0.0,
        comments_in_window=0,
        comments_total=item.comments,
        participants=(),
        author_replied=False,
        maintainers=(),
        reactions=item.reactions,
        linked=(),
        measured=False,
    )
