"""The review queue as one outline section, drawn by every renderer like the report's.

`queue_section(queue, lang)` decides what the queue says: the reader's topic in detail
(waiting for review with ages and the oldest named in their own words, waiting on authors,
ready to land, stale soon, response times against the weeks before), the other topics in a
line each, the whole repository, first-time contributors. `brief=False` (the full report,
the command line) draws every topic in detail. The same section is a part of the full
report (Markdown, the site) when the report carries a queue; chat gets it as one message.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.queue import phrases
from bot.features.queue.model import Percentiles, Queue, ScopeQueue, Share
from bot.model import outline_parts as ol
from bot.model.windows import format_local
from formatters import wording as w
from formatters._text import item_url

QUEUE_SCHEMA = "vllm-queue/1"
READY_SHOWN = 5
STALE_SHOWN = 5
EVENT_TYPE = "vllm_queue"


# -- the outline --------------------------------------------------------------------------


def queue_section(queue: Queue, lang: str, *, brief: bool = True) -> ol.Section:
    """The queue as one section: the reader's scope (the first) in detail, then the others
    (in a line each when `brief`), the repository, first-time contributors, notes."""
    blocks: list[ol.Block] = []
    topics = [s for s in queue.scopes if s.key is not None]
    others = []
    for index, scope in enumerate(topics):
        if index == 0 or not (brief or _empty(scope)):
            blocks.append(_detail(queue, scope, lang))
        else:
            others.append(scope)
    if others:
        days = _over_days(others[0])
        entries = tuple(
            ol.Entry(
                (ol.Our(_brief_line(queue, s, lang)),), cells=_brief_cells(queue, s, days, lang)
            )
            for s in others
        )
        blocks.append(ol.Block(None, entries, "list", columns=_brief_columns(days, lang)))
    repo = queue.scope(None)
    if repo is not None:
        blocks.append(_repository(queue, repo, lang))
    if queue.first_timers:
        blocks.append(_first_timers(queue, lang))
    notes = [*queue.notes]
    if not queue.measured:
        notes.append(phrases.said(lang, "not_measured"))
    if notes:
        entries = tuple(ol.Entry((ol.Theirs(n, 300),)) for n in dict.fromkeys(notes))
        blocks.append(ol.Block(w.text(lang, "notes"), entries, "list"))
    return ol.Section("queue", phrases.said(lang, "heading"), tuple(blocks))


def _empty(scope: ScopeQueue) -> bool:
    """Nothing waits, nothing landed or was answered: a line is enough."""
    times = scope.times
    samples = 0
    if times is not None:
        for period in (times.current, times.previous):
            samples += period.merged + period.opened
    return not (scope.waiting or scope.on_author or scope.ready or scope.stale_soon or samples)


def _name(queue: Queue, key: str | None, lang: str) -> str:
    if key is None:
        return phrases.said(lang, "repo")
    return queue.catalog.topic_name(key, lang)


def _ref(queue: Queue, number: int) -> ol.Ref:
    item = queue.items.get(number)
    return ol.Ref(number, item_url(queue.repo, item.kind if item else "pr", number))


def _detail(queue: Queue, scope: ScopeQueue, lang: str) -> ol.Block:
    entries = [ol.Entry((ol.Our(_waiting_line(scope, lang)),))]
    for aged in scope.oldest:
        item = queue.items[aged.number]
        key = "since_ready" if aged.since == "ready" else "waited"
        head: list[ol.Part] = [
            _ref(queue, aged.number),
            ol.Our(" "),
            ol.Theirs(item.title),
            ol.Our(" — " + phrases.said(lang, key, age=w.duration(lang, aged.days * 24))),
        ]
        if item.author:
            head += [ol.Our(w.SEP[lang]), ol.Theirs(item.author, ol.LOGIN_LIMIT)]
        said = queue.what.get(aged.number, "")
        lines = ((ol.Theirs(said, ol.WHAT_LIMIT),),) if said else ()
        entries.append(ol.Entry(tuple(head), lines, aged.number))
    entries.append(
        ol.Entry(
            (
                ol.Our(
                    phrases.said(
                        lang,
                        "on_author",
                        n=scope.on_author,
                        changes=scope.changes_requested,
                        rebase=scope.needs_rebase,
                    )
                ),
            )
        )
    )
    entries.append(ol.Entry(_ready_line(queue, scope, lang)))
    entries.append(ol.Entry(_stale_line(queue, scope, lang)))
    entries += _times_entries(queue, scope, lang)
    return ol.Block(_name(queue, scope.key, lang), tuple(entries), "list")


def _waiting_line(scope: ScopeQueue, lang: str) -> str:
    said = phrases.said(lang, "waiting", n=scope.waiting)
    over = [phrases.said(lang, "over", n=n, days=days) for days, n in scope.over]
    if scope.discussed:
        over.append(phrases.said(lang, "discussed", n=scope.discussed))
    return w.SEP[lang].join([said, *over])


def _refs(queue: Queue, numbers: Sequence[int], shown: int, lang: str) -> list[ol.Part]:
    parts: list[ol.Part] = []
    for index, number in enumerate(numbers[:shown]):
        if index:
            parts.append(ol.Our(w.LIST_SEP[lang]))
        parts.append(_ref(queue, number))
    if len(numbers) > shown:
        parts.append(ol.Our(phrases.said(lang, "more", n=len(numbers) - shown)))
    return parts


def _ready_line(queue: Queue, scope: ScopeQueue, lang: str) -> ol.Line:
    if not scope.ready:
        return (ol.Our(phrases.said(lang, "ready_none")),)
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "ready", n=scope.ready))]
    line += _refs(queue, scope.ready_items, READY_SHOWN, lang)
    return tuple(line)


def _stale_line(queue: Queue, scope: ScopeQueue, lang: str) -> ol.Line:
    days = queue.rules.stale.soon_days
    if not scope.stale_soon:
        return (ol.Our(phrases.said(lang, "stale_none", days=days)),)
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "stale", n=scope.stale_soon, days=days))]
    for index, soon in enumerate(scope.stale_items[:STALE_SHOWN]):
        if index:
            line.append(ol.Our(w.LIST_SEP[lang]))
        day = soon.closes_at.astimezone(queue.window.start.tzinfo).strftime("%m-%d")
        due = soon.closes_at <= queue.generated_at
        said = phrases.said(lang, "due") if due else phrases.said(lang, "closes", day=day)
        line += [_ref(queue, soon.number), ol.Our(said)]
    if scope.stale_soon > STALE_SHOWN:
        line.append(ol.Our(phrases.said(lang, "more", n=scope.stale_soon - STALE_SHOWN)))
    return tuple(line)


def _times_entries(queue: Queue, scope: ScopeQueue, lang: str) -> list[ol.Entry]:
    times = scope.times
    if times is None:
        return []
    period = _period(queue, lang)
    now, before = times.current, times.previous
    entries = []
    for key in ("first_review", "merge", "first_response"):
        line = _metric(lang, key, getattr(now, key), getattr(before, key), period)
        sub: list[ol.Line] = []
        if key == "first_review" and now.merged_unreviewed:
            sub.append((ol.Our(phrases.said(lang, "unreviewed", n=now.merged_unreviewed)),))
        if key == "first_response":
            shares = [_share(lang, 24, now.unanswered_24h), _share(lang, 72, now.unanswered_72h)]
            said = w.SEP[lang].join(shares)
            if before.unanswered_24h.eligible:
                earlier = [
                    _share(lang, 24, before.unanswered_24h),
                    _share(lang, 72, before.unanswered_72h),
                ]
                said += phrases.said(lang, "shares_before", period=period)
                said += w.SEP[lang].join(earlier)
            sub.append((ol.Our(said),))
        entries.append(ol.Entry((ol.Our(line),), tuple(sub)))
    return entries


def _period(queue: Queue, lang: str) -> str:
    days = queue.rules.previous_days
    if days % 7 == 0:
        return phrases.said(lang, "period_weeks", weeks=days // 7)
    return phrases.said(lang, "period_days", days=days)


def _metric(lang: str, key: str, now: Percentiles, before: Percentiles, period: str) -> str:
    metric = phrases.said(lang, f"metric_{key}")
    if now.median is None or now.p90 is None:
        said = phrases.said(lang, "metric_none", metric=metric)
    else:
        said = phrases.said(
            lang,
            "metric",
            metric=metric,
            median=w.duration(lang, now.median),
            p90=w.duration(lang, now.p90),
            n=now.n,
        )
    if before.median is None or before.p90 is None:
        return said + phrases.said(lang, "previous_none", period=period)
    said += phrases.said(
        lang,
        "previous",
        period=period,
        median=w.duration(lang, before.median),
        p90=w.duration(lang, before.p90),
        n=before.n,
    )
    if now.median is None:
        return said
    delta = now.median - before.median
    if abs(delta) < 0.05:
        return said + phrases.said(lang, "same")
    change = "faster" if delta < 0 else "slower"
    return said + phrases.said(lang, change, delta=w.duration(lang, abs(delta)))


def _share(lang: str, hours: int, share: Share) -> str:
    if share.percent is None:
        return phrases.said(lang, "unanswered_none", hours=hours)
    return phrases.said(
        lang,
        "unanswered",
        hours=hours,
        percent=f"{share.percent:.0f}%",
        late=share.unanswered,
        eligible=share.eligible,
    )


def _over_days(scope: ScopeQueue) -> int:
    """The age a topic's brief line counts PRs waiting longer than."""
    over = dict(scope.over)
    return 7 if 7 in over else (max(over) if over else 7)


def _brief_columns(days: int, lang: str) -> ol.Columns:
    """The other topics as a table: a row a topic, its figures as numbers."""
    keys = ("col_topic", "col_waiting", "col_over", "col_author", "col_ready", "col_stale")
    names = tuple(phrases.said(lang, key, days=days) for key in keys)
    return ol.Columns(
        phrases.said(lang, "others_table"), (*names, phrases.said(lang, "col_review"))
    )


def _brief_cells(queue: Queue, scope: ScopeQueue, days: int, lang: str) -> tuple[ol.Cell, ...]:
    """A topic's row: what its brief line says, each figure a number."""
    old = dict(scope.over).get(days, 0)
    review = scope.times.current.first_review if scope.times else None
    median = review.median if review is not None else None
    none: ol.Line = (ol.Our(phrases.said(lang, "cell_none")),)
    figures = (scope.waiting, old, scope.on_author, scope.ready, scope.stale_soon)
    return (
        (ol.Our(_name(queue, scope.key, lang)),),
        *(ol.Number(n, str(n)) for n in figures),
        ol.Number(median, w.duration(lang, median)) if median is not None else none,
    )


def _brief_line(queue: Queue, scope: ScopeQueue, lang: str) -> str:
    over = dict(scope.over)
    days = _over_days(scope)
    said = phrases.said(
        lang,
        "brief",
        name=_name(queue, scope.key, lang),
        waiting=scope.waiting,
        old=over.get(days, 0),
        days=days,
        author=scope.on_author,
        ready=scope.ready,
        stale=scope.stale_soon,
    )
    review = scope.times.current.first_review if scope.times else None
    if review is not None and review.median is not None:
        said += phrases.said(
            lang, "brief_times", median=w.duration(lang, review.median), n=review.n
        )
    return said


def _repository(queue: Queue, repo: ScopeQueue, lang: str) -> ol.Block:
    line = phrases.said(
        lang,
        "repo_line",
        waiting=repo.waiting,
        author=repo.on_author,
        ready=repo.ready,
        stale=repo.stale_soon,
        days=queue.rules.stale.soon_days,
    )
    entries = [ol.Entry((ol.Our(line),))]
    entries += _times_entries(queue, repo, lang)
    return ol.Block(_name(queue, None, lang), tuple(entries), "list")


def _first_timers(queue: Queue, lang: str) -> ol.Block:
    line: list[ol.Part] = [ol.Our(phrases.said(lang, "first_timers"))]
    for index, person in enumerate(queue.first_timers):
        if index:
            line.append(ol.Our(w.LIST_SEP[lang]))
        how = phrases.said(lang, "first_merged" if person.how == "merged" else "first_opened")
        line += [
            ol.Theirs(person.login, ol.LOGIN_LIMIT),
            ol.Our(phrases.said(lang, "how", how=how)),
        ]
        for position, number in enumerate(person.numbers):
            line += [ol.Our(w.LIST_SEP[lang]) if position else ol.Our(""), _ref(queue, number)]
        line.append(ol.Our(phrases.said(lang, "how_end")))
    return ol.Block(None, (ol.Entry(tuple(line)),), "text")


def queue_title(queue: Queue, lang: str) -> str:
    key = "title" if queue.repo == "vllm-project/vllm" else "title_other"
    title = phrases.said(lang, key, repo=queue.repo, label=queue.window.label)
    if queue.topic:
        title += w.text(lang, "topic_suffix", topic=queue.catalog.topic_name(queue.topic, lang))
    return title


def queue_context(queue: Queue, lang: str) -> str:
    window = f"{format_local(queue.window.start)} ~ {format_local(queue.window.end)}"
    now = format_local(queue.generated_at.astimezone(queue.window.start.tzinfo))
    return phrases.said(lang, "asof", now=now, window=window)
