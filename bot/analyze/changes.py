"""Key technical changes and notable issues, ranked by facts a maintainer would cite.

Key changes are the window's PRs, merged, in review or newly opened, and its RFCs, each
weighed by the same facts whatever its state (weight.py: what its title and labels say it
is, benchmark figures and result tables in its body, how much the description says;
routine tests, CI, docs, typo and benchmark-script work weighs little), then by how big
it is (lines and files, from the pulls API for a shortlist of every state), who reviewed
it, the discussion it drew in the window and the requests it delivers. Merging adds a
little, never enough to lift a one-line fix over a new method still in review. A follow-up
folds into its story's lead, and a revert weighs what it undoes (it is told with that
work). Notable issues are bug reports with a severity signal (crash, hang, OOM,
regression, wrong output, security) in their title or problem statement.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.analyze.consequence import REVERT as REVERTED
from bot.analyze.consequence import consequence
from bot.analyze.severity import severity
from bot.analyze.titles import title_tags
from bot.analyze.weight import evidence, figures, routine, substance, weighty_tags
from bot.model.report import (
    INVERSE,
    ActivityItem,
    KeyChange,
    NotableIssue,
    PullDetails,
    Story,
    Why,
)
from bot.model.rules import TopicRules
from bot.model.windows import Window

CANDIDATES = 8  # PRs whose size and reviews are read from the pulls API (2 requests each)
# State adds little: a maintainer names the weightiest work of the day, merged or not.
STATE_WEIGHT = {"merged": 1.0, "review": 0.5, "rfc": 0.5, "draft": 0.0}
DELIVERED_WEIGHT = 0.75  # per request it delivered (closed as completed; three at most)
PROPOSED_WEIGHT = 0.25  # per request it says it fixes that is still open


def state_of(item: ActivityItem) -> str:
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


def change_state(item: ActivityItem, window: Window) -> str | None:
    """merged / review / draft / rfc when `item` can be a key change of `window`, else None:
    where it stood as the window ended (a report asked later still tells its day)."""
    tags = set(title_tags(item.title))
    if item.kind == "issue":
        is_rfc = "rfc" in tags or "RFC" in item.labels or item.title.lower().startswith("rfc")
        return "rfc" if is_rfc and window.contains(item.created_at) else None
    if item.merged_at is not None and window.contains(item.merged_at):
        return "merged"
    open_at_end = item.closed_at is None or item.closed_at >= window.end
    if open_at_end and window.contains(item.created_at):
        return "rfc" if "rfc" in tags else "draft" if item.draft else "review"
    return None


def key_change_candidates(
    items: Sequence[ActivityItem], window: Window, rules: TopicRules, limit: int = CANDIDATES
) -> list[int]:
    """The PRs worth one pulls-API read each: the best by everything but their size, half
    of them merged and half not (when there are that many), so an open PR's size is known
    before it is weighed against a merged one."""
    merged: list[tuple[float, int]] = []
    others: list[tuple[float, int]] = []
    for item in items:
        state = change_state(item, window)
        if state is None or item.kind != "pr" or rules.is_bot(item.author):
            continue
        # What the facts read so far say, without what merging changed for users: a merged
        # default or fix leads whatever its size, so the reads go where size may decide.
        rank = (-_base_score(item, state, 0, window, landed=False), item.number)
        (merged if state == "merged" else others).append(rank)
    merged.sort()
    others.sort()
    half = limit // 2
    taken = merged[: max(half, limit - len(others))] + others[: max(half, limit - len(merged))]
    return [number for _, number in sorted(taken)[:limit]]


@dataclass(frozen=True)
class _Day:
    """What weighing a change of the window reads beside it."""

    window: Window
    rules: TopicRules
    details: Mapping[int, PullDetails]
    discussed: Mapping[int, int]
    known: Mapping[int, ActivityItem]


def _candidate(
    item: ActivityItem,
    state: str,
    story: Story | None,
    day: _Day,
    told_from: _ToldFrom,
    weight: float | None,
) -> KeyChange:
    """One change weighed: what it is, what it changed for users, its size and reviewers,
    the requests it delivers, and the revert proposed for it (news about it)."""
    delivered = _delivered(item.number, story, day.known, told_from)
    done = frozenset(n for n in delivered if _completed(day.known[n], day.window))
    talk = day.discussed.get(item.number, 0)
    why = _why(item, day.details.get(item.number), talk, day.rules, delivered, done)
    undoes = _undoes(item, story, day.known, day.window, told_from)
    score = _score(item, state, why, day.window, undoes, weight, day.known)
    if state == "merged" and story is not None and told_from.related(story, item.number, "revert"):
        score = round(score + REVERTED, 2)  # merged, and a revert already proposed or in
    return KeyChange(item.number, "", state, score, why)


def key_changes(
    items: Sequence[ActivityItem],
    window: Window,
    rules: TopicRules,
    stories: Mapping[int, Story],
    details: Mapping[int, PullDetails],
    discussed: Mapping[int, int],
    limit: int = 5,
    known: Mapping[int, ActivityItem] | None = None,
    weights: Mapping[int, float] | None = None,
) -> tuple[KeyChange, ...]:
    """The `limit` weightiest changes, one per story: the story weighs what its weightiest
    candidate weighs, and is told by its lead when the lead is a candidate (the release,
    not the one-line fix that scored higher on its longer description); the other
    candidates fold into it. `known`: the window's items and its context; `weights`: each
    item's weight as the analysis worked it out (substance, and the news of a revert)."""
    known = known if known is not None else {it.number: it for it in items}
    told_from = _ToldFrom()
    by_story: dict[str, list[KeyChange]] = {}
    for item in items:
        state = change_state(item, window)
        if state is None or rules.is_bot(item.author):
            continue
        story = stories.get(item.number)
        story_id = story.id if story is not None else f"s{item.number}"
        weight = weights.get(item.number) if weights is not None else None
        change = _candidate(
            item, state, story, _Day(window, rules, details, discussed, known), told_from, weight
        )
        by_story.setdefault(story_id, []).append(replace(change, story=story_id))
    ranked = []
    for changes in by_story.values():
        changes.sort(key=lambda k: (-k.score, k.number))
        story = stories.get(changes[0].number)
        told = next(
            (k for k in changes if story is not None and k.number == story.lead), changes[0]
        )
        extra = tuple(sorted(k.number for k in changes if k is not told))
        score = round(changes[0].score + 0.5 * len(extra), 2)
        ranked.append(replace(told, score=score, why=replace(told.why, follow_ups=extra)))
    ranked.sort(key=lambda k: (-k.score, k.number))
    # What the body says (figures, evidence, tags) weighs nothing in the score: it is read
    # for the changes shown only, not for every PR of the window.
    by_number = {it.number: it for it in items}
    chosen = _chosen(ranked, limit, by_number, known)
    return tuple(replace(k, why=_described(by_number[k.number], k.why)) for k in chosen)


# The weightiest open work a day's key changes always hold, when it weighs this much: the
# first of it from OPEN_LEAST, the second only from OPEN_SECOND (a day of merged defaults
# and regressions keeps room for a new method in review, not for every feature).
OPEN_LEAST = 2.5
OPEN_SECOND = 3.5


def _chosen(
    ranked: list[KeyChange],
    limit: int,
    by_number: Mapping[int, ActivityItem],
    known: Mapping[int, ActivityItem],
) -> list[KeyChange]:
    """The key changes, best first: every merged security fix and changed default (they
    change every user's day: never only in the appendix, however many), the weightiest
    open work (one or two: OPEN_LEAST, OPEN_SECOND), then the rest by
    score up to `limit`."""
    must = [
        k
        for k in ranked
        if k.state == "merged"
        and consequence(by_number[k.number], k.why.delivers, known)[1] in ("security", "default")
    ]
    open_work = [k for k in ranked if k.state != "merged" and k.score >= OPEN_LEAST][:2]
    open_work = [k for i, k in enumerate(open_work) if i == 0 or k.score >= OPEN_SECOND]
    chosen = list(dict.fromkeys([*must, *open_work]))
    for change in ranked:
        if len(chosen) >= max(limit, len(must)):
            break
        if change not in chosen:
            chosen.append(change)
    chosen = chosen[: max(limit, len(must) + len(open_work))]
    return sorted(chosen, key=lambda k: (-k.score, k.number))


def _base_score(
    item: ActivityItem,
    state: str,
    discussed: int,
    window: Window,
    weight: float | None = None,
    fixes: Sequence[int] = (),
    known: Mapping[int, ActivityItem] | None = None,
    *,
    landed: bool = True,
) -> float:
    """What an item is (weight.py), what its merging changed for users (consequence.py:
    a security fix, a flipped default, a revert, a fix of a regression before open work;
    `landed`: false leaves it out), and the talk it drew in the window."""
    if weight is None:
        weight = substance(item, window.contains(item.created_at))
    changed = consequence(item, fixes, known)[0] if landed and state == "merged" else 0.0
    return STATE_WEIGHT[state] + weight + changed + min(discussed, 12) / 4


def _score(
    item: ActivityItem,
    state: str,
    why: Why,
    window: Window,
    undoes: float | None = None,
    weight: float | None = None,
    known: Mapping[int, ActivityItem] | None = None,
) -> float:
    score = _base_score(item, state, why.comments_in_window, window, weight, why.delivers, known)
    if undoes is not None:  # a revert weighs what it takes back out
        score = max(score, STATE_WEIGHT[state] + undoes)
    lines = (why.additions or 0) + (why.deletions or 0)
    score += min(math.log2(1 + lines) / 2, 4.0) if lines else 0.0
    score += min(why.files or 0, 30) / 15
    score += 0.4 * min(why.reviewers or 0, 5)
    open_requests = len(why.delivers) - len(why.completed)
    score += DELIVERED_WEIGHT * min(len(why.completed), 3) + PROPOSED_WEIGHT * min(open_requests, 3)
    return round(score, 2)


class _ToldFrom:
    """A story's members as told from one of them (`Story.led_by`), by relation: each
    story's members are indexed once, where building `led_by` for every candidate of a
    story was quadratic in a big story."""

    def __init__(self) -> None:
        self._index: dict[str, tuple[dict[int, str], dict[str, list[int]]]] = {}

    def related(self, story: Story, number: int, relation: str) -> list[int]:
        """`[m.number for m in story.led_by(number).members if m.relation == relation]`."""
        found = self._index.get(story.id)
        if found is None:
            by_relation: dict[str, list[int]] = {}
            for member in story.members:
                by_relation.setdefault(member.relation, []).append(member.number)
            found = {m.number: m.relation for m in story.members}, by_relation
            self._index[story.id] = found
        relation_of, by_relation = found
        pool = by_relation.get(relation, [])
        if number == story.lead:
            return pool
        # Told from `number`, the old lead comes first, related the other way round.
        own = relation_of[number]
        old = [story.lead] if INVERSE.get(own, own) == relation else []
        return old + ([n for n in pool if n != number] if own == relation else pool)


def _delivered(
    number: int, story: Story | None, known: Mapping[int, ActivityItem], told_from: _ToldFrom
) -> tuple[int, ...]:
    """The requests (issues) of its story that the change says it fixes."""
    if story is None:
        return ()
    pool = told_from.related(story, number, "fixed_by_lead")
    return tuple(n for n in pool if n in known and known[n].kind == "issue")


def _completed(request: ActivityItem, window: Window) -> bool:
    closed = request.closed_at
    return closed is not None and closed < window.end and request.state_reason == "completed"


def _undoes(
    item: ActivityItem,
    story: Story | None,
    known: Mapping[int, ActivityItem],
    window: Window,
    told_from: _ToldFrom,
) -> float | None:
    """For a revert, the weight of the work it reverts (known in its story), else None."""
    if story is None or routine(item) != "revert":
        return None
    related = told_from.related(story, item.number, "reverted")
    undone = [n for n in related if n in known]
    if not undone:
        return None
    return max(substance(known[n], window.contains(known[n].created_at)) for n in undone)


def _why(
    item: ActivityItem,
    details: PullDetails | None,
    discussed: int,
    rules: TopicRules,
    delivered: tuple[int, ...] = (),
    done: frozenset[int] = frozenset(),
) -> Why:
    """The facts behind a change's weight; `done`: the requests closed as completed. What
    its text says, which the score does not read, `_described` adds."""
    return Why(
        additions=details.additions if details else None,
        deletions=details.deletions if details else None,
        files=details.changed_files if details else None,
        # People only: a bot's review (mergify, a CI bot) is no reviewer's attention.
        reviewers=(
            sum(not rules.is_bot(login) for login in details.reviewers) if details else None
        ),
        comments_in_window=discussed,
        reactions=item.reactions,
        delivers=delivered,
        completed=tuple(n for n in delivered if n in done),
    )


def _described(item: ActivityItem, why: Why) -> Why:
    """A shown change's facts with what its title, labels and body say."""
    return replace(
        why,
        figures=figures(item),
        tags=weighty_tags(item),
        evidence=evidence(item),
        routine=routine(item),
    )


# -- notable issues ------------------------------------------------------------------------


def notable_issues(
    items: Sequence[ActivityItem],
    window: Window,
    rules: TopicRules,
    stories: Mapping[int, Story] | None = None,
    limit: int = 5,
) -> tuple[NotableIssue, ...]:
    """Bug reports opened in the window (an old report closed now is history, and its fix is
    among the changes), the gravest first, one per story."""
    scored = []
    for it in items:
        if it.kind != "issue" or rules.is_bot(it.author) or not window.contains(it.created_at):
            continue
        signals = severity(it)
        if not signals:
            continue
        text = it.title + "\n" + (it.body or "")[:2000]
        hardware = _distinct(_find(rules.hardware, text))
        models = _distinct(_find(rules.models, it.title))
        score = sum(w for _, w in signals) + min(it.comments, 30) / 3 + it.reactions
        score += 1.0 if "bug" in it.labels else 0.0
        scored.append(
            NotableIssue(it.number, tuple(n for n, _ in signals), hardware, models, round(score, 2))
        )
    scored.sort(key=lambda n: (-n.score, n.number))
    seen: set[str] = set()
    kept = []
    for issue in scored:
        story = (stories or {}).get(issue.number)
        key = story.id if story is not None else f"s{issue.number}"
        if key not in seen:
            seen.add(key)
            kept.append(issue)
    return tuple(kept[:limit])


def _find(pattern: re.Pattern[str] | None, text: str) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text)] if pattern is not None else []


def _distinct(found: list[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for value in found:
        seen.setdefault(value.lower(), value)
    return tuple(seen.values())[:4]
