"""Continuity across days: what the reports published before this one featured, and what
became of it. Pure: records and archived items in, facts out.

A day's report stands alone unless this module is given its past: the items the published
reports of the look-back featured (`Featured`: the gist, the key changes, the notable
issues, each with its state as its day ended). From that and the archive's newest view of
those items, read as they stood when this window ended, it says

- what landed since the last published report ("since last time"): featured work merged,
  closed without merging (an issue: closed), or reverted by a revert merged since, and
  featured PRs still open whose review decided since (approved, changes requested: a
  review submitted in the span, from the PR's stored details), each with the day it was
  first featured and its state then;
- which items of this report were featured before and have not changed state since (old
  news: key changes and notable issues do not feature them again, nor does the gist);
- each shown item's first featuring, and how long an open PR has been in review (shown
  from `REVIEW_LONG_DAYS` on: "in review, day 9").

With no past (no report published in the look-back) nothing is added and the report is
the one it was, byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.analyze.references import links
from bot.model.report import ActivityItem, Continuity, Featured, Landed, Report, Verdict
from bot.model.states import state_key
from bot.model.windows import current_day

LOOKBACK_DAYS = 14  # published report days read for an item's past
REVIEW_LONG_DAYS = 7  # an open PR this many report days old says its day in review
PLACES = ("gist", "key", "notable", "since")  # where a report features an item

# What a state amounts to: still open, landed, closed unlanded, taken back out.
_PHASES = {"merged": "merged", "reverted": "reverted"} | {
    state: "open" for state in ("review", "draft", "rfc", "rfc_open", "open_issue")
}


def state_at(item: ActivityItem, end: datetime) -> str:
    """Where `item` stood when `end` came (what the report of that day said of it)."""
    return state_key(item, end)


def phase(state: str) -> str:
    """open, merged, reverted or closed: what counts as a change of state."""
    return _PHASES.get(state, "closed")


def with_continuity(
    report: Report,
    past: Sequence[Featured],
    archived: Iterable[ActivityItem],
    between: Iterable[ActivityItem] = (),
    verdicts: Mapping[int, Sequence[Verdict]] | None = None,
) -> Report:
    """`report` with its past (`Report.continuity`), its old news no longer featured.

    `past`: what the published reports of the look-back featured (any order); `archived`:
    the archive's newest view of those items; `between`: the items of the days after the
    last published report and before this window (none when it was yesterday's), where a
    revert may have merged; `verdicts`: the approvals and change requests of featured PRs
    still open, by number. An empty past changes nothing."""
    if not past or report.sections is None:
        return report
    window = report.window
    end = window.end
    first: dict[int, Featured] = {}
    last: dict[int, Featured] = {}
    for record in sorted(past, key=lambda r: (r.day_end, PLACES.index(r.place))):
        first.setdefault(record.number, record)
        last[record.number] = record
    latest = max(past, key=lambda r: r.day_end)
    since_start = latest.day_end
    known = {it.number: it for it in archived}
    known.update(report.items)  # the window's own view is the one this report tells
    shown = {**report.context, **report.items}

    recent = [*between, *report.items.values()]
    landed = _landed(first, last, known, recent, since_start, end, verdicts or {})
    old = tuple(
        sorted(
            n
            for n, item in shown.items()
            if n in last and phase(last[n].state) == phase(state_at(item, end))
        )
    )
    continuity = Continuity(
        last_day=latest.day,
        last_end=since_start,
        since=landed,
        past={n: first[n] for n in sorted(shown) if n in first},
        old_news=old,
        review_days=_review_days(shown.values(), report),
        items={entry.number: known[entry.number] for entry in landed},
    )
    sections = report.sections
    quiet = set(old)
    sections = replace(
        sections,
        key_changes=tuple(k for k in sections.key_changes if k.number not in quiet),
        notable_issues=tuple(n for n in sections.notable_issues if n.number not in quiet),
    )
    return replace(report, sections=sections, continuity=continuity)


def _reverts_merged(
    recent: Sequence[ActivityItem], start: datetime, end: datetime
) -> dict[int, ActivityItem]:
    """Reverts merged in [start, end), by what they undo (the first one, if several)."""
    reverts: dict[int, ActivityItem] = {}
    for pr in recent:
        merged = pr.merged_at
        if pr.kind != "pr" or merged is None or not start <= merged < end:
            continue
        for link in links(pr.title, pr.body, pr.repo, pr.number):
            earlier = reverts.get(link.target)
            if link.kind == "reverts" and (earlier is None or merged < (earlier.merged_at or end)):
                reverts[link.target] = pr
    return reverts


def _landed(
    first: Mapping[int, Featured],
    last: Mapping[int, Featured],
    known: Mapping[int, ActivityItem],
    recent: Sequence[ActivityItem],
    start: datetime,
    end: datetime,
    verdicts: Mapping[int, Sequence[Verdict]],
) -> tuple[Landed, ...]:
    """Featured work settled in [start, end): merged, closed, or reverted by a merged revert;
    or, still open, reviewed: approved, or changes requested (which weighs more)."""
    reverts = _reverts_merged(recent, start, end)
    out: list[tuple[int, Landed]] = []
    for number, record in last.items():
        item = known.get(number)
        if item is None:
            continue
        was, now = phase(record.state), state_at(item, end)
        origin = first[number]
        if was == "open" and phase(now) == "open" and item.kind == "pr":
            reviewed = _reviewed(origin, verdicts.get(number, ()), start, end)
            out += [(3, reviewed)] if reviewed is not None else []
            continue
        revert = reverts.get(number)
        if was in ("open", "merged") and revert is not None and phase(now) == "merged":
            undone = revert.merged_at or end
            entry = Landed(number, origin.day, origin.state, "reverted", undone, revert.number)
            out.append((1, entry))
            continue
        settled = item.merged_at if item.merged_at is not None else item.closed_at
        if was != "open" or phase(now) == "open" or settled is None:
            continue
        if not start <= settled < end:
            continue  # settled before the last report said so, or after this window
        out.append(
            (0 if now == "merged" else 2, Landed(number, origin.day, origin.state, now, settled))
        )
    out.sort(key=lambda pair: (pair[0], pair[1].first_day, pair[1].number))
    return tuple(entry for _, entry in out)


def _reviewed(
    origin: Featured, verdicts: Sequence[Verdict], start: datetime, end: datetime
) -> Landed | None:
    """A PR still open whose review decided in [start, end): changes requested (which
    weighs more), else approved; the latest such review's time."""
    decided = [v for v in verdicts if start <= v.at < end]
    if not decided:
        return None
    asked = [v for v in decided if v.state == "changes_requested"]
    said = (asked or decided)[-1]
    return Landed(origin.number, origin.day, origin.state, said.state, said.at)


def _review_days(items: Iterable[ActivityItem], report: Report) -> dict[int, int]:
    """Open PRs (not drafts) in review for `REVIEW_LONG_DAYS` report days or more, as the
    window ended: which report day of their review this is (the day opened is day 1)."""
    tz = ZoneInfo(report.window.timezone)
    cutoff = report.window.start.astimezone(tz).time()
    last_day = current_day(report.window.end - timedelta(seconds=1), tz, cutoff)
    out = {}
    for item in items:
        if state_at(item, report.window.end) != "review":
            continue
        day = (last_day - current_day(item.created_at, tz, cutoff)).days + 1
        if day >= REVIEW_LONG_DAYS:
            out[item.number] = day
    return dict(sorted(out.items()))


def lookback_start(report_start: datetime) -> datetime:
    """The earliest day end a past record may have to count."""
    return report_start - timedelta(days=LOOKBACK_DAYS)
