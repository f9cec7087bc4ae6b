"""The review queue, computed: waiting ages, response-time percentiles, stale soon, first-timers.

Pure: `(lists, response facts, archive items, window, rules, now) -> Queue`. Definitions
(docs/reports.md, "The review queue: what waits on whom", repeats them for readers):

- *time to first review*: for a PR merged in the period, from when it was opened (or first
  marked ready for review, if it was opened as a draft) to its first review by a person other
  than its author; a review left while it was still a draft counts as 0;
- *time to merge*: for the same PRs, from the same start to the merge;
- *time to first response*: for an issue opened in the period, from its opening to its first
  comment by a person other than its author;
- bots never count, neither as the one answering nor as an item's author: `[bot]` logins and
  the `[bots]` logins of topics.toml;
- *median*: the middle value, or the mean of the two middle values of an even-sized sample;
  *P90*: the nearest-rank 90th percentile, the ⌈0.9·n⌉-th smallest value. Both in hours,
  always shown with the sample size n;
- *unanswered after 24 h / 72 h*: among issues opened in the period that are at least that
  old now, the share with no answer within that time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from bot.analyze.what import what_line
from bot.features.queue.model import (
    CHANGES,
    FIRST_TIMER_ASSOCIATIONS,
    READY,
    REBASE,
    STALE_ISSUES,
    STALE_PRS,
    WAITING,
    Aged,
    FirstTimer,
    Found,
    Percentiles,
    PeriodTimes,
    Queue,
    QueueItem,
    QueueRules,
    ResponseFact,
    ResponseTimes,
    ScopeLists,
    ScopeQueue,
    Share,
    StaleSoon,
)
from bot.model.report import ActivityItem, Catalog
from bot.model.windows import Window

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
UNANSWERED_AFTER = (24, 72)  # hours
READY_SHOWN = 5
STALE_SHOWN = 5

IsBot = Callable[[str | None], bool]


# -- percentiles --------------------------------------------------------------------------


def percentiles(values: Iterable[float]) -> Percentiles:
    """Median (the mean of the two middle values when n is even) and the nearest-rank P90."""
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        return Percentiles(0, None, None)
    middle = n // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    rank = math.ceil(0.9 * n)  # 1-based: the ⌈0.9·n⌉-th smallest
    return Percentiles(n, median, ordered[rank - 1])


def hours(delta: timedelta) -> float:
    return delta / HOUR


# -- who answered first -------------------------------------------------------------------


def first_answer(
    author: str | None,
    answers: Iterable[tuple[str | None, datetime | None]],
    is_bot: IsBot,
) -> tuple[str, datetime] | None:
    """The earliest (login, time) among `answers` by a person who is neither the item's author
    nor a bot; answers without a time (a pending review) or a login (a deleted account) are
    skipped."""
    found: tuple[str, datetime] | None = None
    for login, at in answers:
        if login is None or at is None or is_bot(login):
            continue
        if author is not None and login.lower() == author.lower():
            continue
        if found is None or at < found[1]:
            found = (login, at)
    return found


# -- response times ------------------------------------------------------------------------


def period_times(
    facts: Iterable[ResponseFact], start: datetime, end: datetime, now: datetime, is_bot: IsBot
) -> PeriodTimes:
    """Response times of PRs merged and issues opened in `[start, end)`; bot-authored items
    are left out, and so are items whose first answer could not be told."""
    facts = [f for f in facts if not is_bot(f.author)]
    merged = [f for f in facts if f.kind == "pr" and _within(f.merged_at, start, end)]
    opened = [f for f in facts if f.kind == "issue" and _within(f.created_at, start, end)]
    return PeriodTimes(
        start=start,
        end=end,
        first_review=percentiles(_answer_hours(merged, from_start=True)),
        merge=percentiles(hours(f.merged_at - f.start) for f in merged if f.merged_at),
        first_response=percentiles(_answer_hours(opened, from_start=False)),
        unanswered_24h=unanswered(opened, now, UNANSWERED_AFTER[0]),
        unanswered_72h=unanswered(opened, now, UNANSWERED_AFTER[1]),
        merged=len(merged),
        merged_unreviewed=sum(1 for f in merged if f.first_response_at is None and f.known),
        opened=len(opened),
        unknown=sum(1 for f in (*merged, *opened) if not f.known and f.first_response_at is None),
    )


def _within(moment: datetime | None, start: datetime, end: datetime) -> bool:
    return moment is not None and start <= moment < end


def _answer_hours(facts: Iterable[ResponseFact], *, from_start: bool) -> list[float]:
    """Hours to each first answer: from the start of review (a PR: opened or first marked
    ready; an answer while it was a draft counts as 0) or from the opening (an issue)."""
    found = []
    for fact in facts:
        if fact.first_response_at is None:
            continue
        begin = fact.start if from_start else fact.created_at
        found.append(max(0.0, hours(fact.first_response_at - begin)))
    return found


def unanswered(issues: Sequence[ResponseFact], now: datetime, after_hours: int) -> Share:
    """Among issues at least `after_hours` old at `now`, those not answered within that time."""
    delay = timedelta(hours=after_hours)
    eligible = [
        f
        for f in issues
        if f.created_at + delay <= now and (f.known or f.first_response_at is not None)
    ]
    late = sum(
        1
        for f in eligible
        if f.first_response_at is None or f.first_response_at - f.created_at > delay
    )
    return Share(late, len(eligible))


def response_times(
    facts: Sequence[ResponseFact], window: Window, previous_days: int, now: datetime, is_bot: IsBot
) -> ResponseTimes:
    """The window's response times and those of the `previous_days` before it."""
    start, end = window.start, window.end
    before = start - timedelta(days=previous_days)
    return ResponseTimes(
        current=period_times(facts, start, end, now, is_bot),
        previous=period_times(facts, before, start, now, is_bot),
    )


def in_scope(labels: Iterable[str], wanted: Sequence[str]) -> bool:
    """Whether an item with `labels` belongs to a topic whose queue labels are `wanted`."""
    have = {label.lower() for label in labels}
    return any(label.lower() in have for label in wanted)


# -- the lists -----------------------------------------------------------------------------


def awaits_review(item: QueueItem, is_bot: IsBot) -> bool:
    """No review by a person other than the author yet (a bot's review is no review); an item
    whose reviews were not read was chosen by GitHub's `review:none`."""
    if item.reviewers is None:
        return True
    if item.more_reviews:
        return False  # more reviews than read: a person's is likely among them
    author = (item.author or "").lower()
    return not any(r.lower() != author and not is_bot(r) for r in item.reviewers)


def waiting_ages(
    items: Iterable[QueueItem], now: datetime, ages: Sequence[int]
) -> tuple[tuple[int, int], ...]:
    """(days, PRs waiting strictly longer than that) for each age."""
    waited = [now - it.waiting_since for it in items]
    return tuple((days, sum(1 for w in waited if w > timedelta(days=days))) for days in ages)


def oldest(items: Iterable[QueueItem], now: datetime, shown: int) -> tuple[Aged, ...]:
    ordered = sorted(items, key=lambda it: (it.waiting_since, it.number))
    return tuple(
        Aged(
            it.number,
            (now - it.waiting_since) / DAY,
            "ready" if it.waiting_since != it.created_at else "opened",
        )
        for it in ordered[:shown]
    )


def stale_soon(items: Iterable[QueueItem], now: datetime, rules: QueueRules) -> list[StaleSoon]:
    """Open items carrying the stale label that the workflow closes within `soon_days`:
    exempt labels and (when drafts are exempt) draft PRs left out; soonest first."""
    stale = rules.stale
    horizon = now + timedelta(days=stale.soon_days)
    exempt = {label.lower() for label in stale.exempt_labels}
    found = []
    for it in items:
        labels = {label.lower() for label in it.labels}
        if stale.label.lower() not in labels or labels & exempt:
            continue
        if stale.exempt_drafts and it.kind == "pr" and it.draft:
            continue
        closes = stale.closes_at(it.updated_at)
        if closes <= horizon:
            found.append(StaleSoon(it.number, closes))
    return sorted(found, key=lambda s: (s.closes_at, s.number))


def _count(found: Found | None) -> int:
    return found.total if found is not None else 0


def scope_queue(
    lists: ScopeLists,
    facts: Sequence[ResponseFact] | None,
    window: Window,
    now: datetime,
    rules: QueueRules,
    is_bot: IsBot,
) -> ScopeQueue:
    """One scope's queue: counts from GitHub's totals, ages and names from the items read."""
    found = lists.lists
    waiting, over, named, discussed = _waiting(lists, now, rules, is_bot)
    stale_count, stale_items = _stale(lists, now, rules)
    ready = found.get(READY)
    ready_items = sorted(_items(ready), key=lambda it: (it.waiting_since, it.number))
    times = None
    if facts is not None:
        labels = rules.topic_labels.get(lists.key or "", ())
        mine = [f for f in facts if lists.key is None or in_scope(f.labels, labels)]
        times = response_times(mine, window, rules.previous_days, now, is_bot)
    return ScopeQueue(
        key=lists.key,
        waiting=waiting,
        over=over,
        oldest=named,
        changes_requested=_count(found.get(CHANGES)),
        needs_rebase=_count(found.get(REBASE)),
        ready=_count(ready),
        ready_items=tuple(it.number for it in ready_items),
        stale_soon=stale_count,
        stale_items=tuple(stale_items),
        times=times,
        complete=all(f.complete for f in found.values()),
        discussed=discussed,
    )


def _waiting(
    lists: ScopeLists, now: datetime, rules: QueueRules, is_bot: IsBot
) -> tuple[int, tuple[tuple[int, int], ...], tuple[Aged, ...], int | None]:
    """How many wait for a person's review, by age, the oldest, and how many others a person
    reviewed without deciding (known when reviewers were read)."""
    waiting = lists.lists.get(WAITING)
    if not lists.detailed or waiting is None:
        return _count(waiting), (), (), None
    items = tuple(it for it in waiting.items if awaits_review(it, is_bot))
    if not waiting.complete:
        return waiting.total, (), oldest(items, now, rules.oldest_shown), None
    discussed = None
    if any(it.reviewers is not None for it in waiting.items):
        discussed = len(waiting.items) - len(items)
    over = waiting_ages(items, now, rules.ages)
    return len(items), over, oldest(items, now, rules.oldest_shown), discussed


def _stale(lists: ScopeLists, now: datetime, rules: QueueRules) -> tuple[int, list[StaleSoon]]:
    """What the stale workflow closes soon: GitHub's count, or the items' own when all read."""
    stale_lists = [lists.lists.get(STALE_ISSUES), lists.lists.get(STALE_PRS)]
    count = sum(_count(f) for f in stale_lists)
    if not lists.detailed:
        return count, []
    found = stale_soon([it for f in stale_lists for it in _items(f)], now, rules)
    read_all = sum(len(_items(f)) for f in stale_lists) >= count
    return (len(found) if read_all else count), found


def _items(found: Found | None) -> tuple[QueueItem, ...]:
    return found.items if found is not None else ()


# -- first-time contributors ---------------------------------------------------------------


def first_timers(
    window_items: Iterable[ActivityItem],
    facts: Iterable[ResponseFact],
    window: Window,
    is_bot: IsBot,
) -> tuple[FirstTimer, ...]:
    """People whose first PR was opened in the window (GitHub's author association says so)
    or whose first merged PR was merged in it (no merged PR of theirs before, GitHub says)."""
    found: dict[str, tuple[str, set[int]]] = {}

    def add(login: str | None, number: int, how: str) -> None:
        if not login or is_bot(login):
            return
        known_how, numbers = found.setdefault(login, (how, set()))
        numbers.add(number)
        if how == "merged" and known_how != "merged":
            found[login] = ("merged", numbers)

    for it in window_items:
        first = it.author_association in FIRST_TIMER_ASSOCIATIONS
        if it.kind == "pr" and first and window.contains(it.created_at):
            add(it.author, it.number, "opened")
    for fact in facts:
        merged_here = fact.merged_at is not None and window.contains(fact.merged_at)
        if fact.kind == "pr" and merged_here and fact.first_merge:
            add(fact.author, fact.number, "merged")
    return tuple(
        FirstTimer(login, tuple(sorted(numbers)), how)
        for login, (how, numbers) in sorted(found.items(), key=lambda kv: kv[0].lower())
    )


# -- the whole queue -----------------------------------------------------------------------


def build_queue(
    *,
    repo: str,
    window: Window,
    now: datetime,
    scopes: Sequence[ScopeLists],
    facts: Sequence[ResponseFact] | None,
    window_items: Sequence[ActivityItem],
    rules: QueueRules,
    catalog: Catalog,
    is_bot: IsBot,
    topic: str | None = None,
    notes: Iterable[str] = (),
    complete: bool = True,
    bodies: Mapping[int, str | None] | None = None,
) -> Queue:
    """The queue of `window`: each scope's lists and response times (`facts` None: response
    times were not read), first-time contributors, and the named items' own lines."""
    built = tuple(scope_queue(s, facts, window, now, rules, is_bot) for s in scopes)
    items: dict[int, QueueItem] = {}
    for scope in scopes:
        for found in scope.lists.values():
            for it in found.items:
                items.setdefault(it.number, it)
    named = {a.number for s in built for a in s.oldest}
    named |= {n for s in built for n in s.ready_items[:READY_SHOWN]}
    named |= {st.number for s in built for st in s.stale_items[:STALE_SHOWN]}
    return Queue(
        repo=repo,
        window=window,
        generated_at=now,
        scopes=built,
        items=items,
        what={
            n: _what(items[n], (bodies or {}).get(n) or items[n].body, repo)
            for n in sorted(named)
            if n in items
        },
        first_timers=first_timers(window_items, facts or (), window, is_bot),
        catalog=catalog,
        rules=rules,
        measured=facts is not None,
        complete=complete and all(s.complete for s in built),
        notes=tuple(dict.fromkeys(notes)),
        topic=topic,
    )


def _what(item: QueueItem, body: str | None, repo: str) -> str:
    noun = "pull" if item.kind == "pr" else "issues"
    return what_line(
        ActivityItem(
            repo=repo,
            number=item.number,
            kind=item.kind,
            title=item.title,
            author=item.author,
            labels=item.labels,
            state="open",
            created_at=item.created_at,
            updated_at=item.updated_at,
            url=f"https://github.com/{repo}/{noun}/{item.number}",
            body=body,
        )
    )
