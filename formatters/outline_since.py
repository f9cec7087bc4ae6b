"""Since last time: work a published report featured before whose fate was settled since,
each with the day it was first featured and its state then (bot.analyze.continuity).
"""

from __future__ import annotations

from bot.model.outline_parts import Block, Entry, Line, Our, Part, Ref, Section, Theirs
from bot.model.report import ActivityItem, Landed, Report
from formatters import outline_entries as oe
from formatters import wording as w
from formatters._text import item_url
from formatters.explanations import kind_label

SINCE_SHOWN = 8  # landed work told in the full report; the rest by number


def since_section(report: Report, lang: str, elsewhere: frozenset[int]) -> Section | None:
    """Since last time: work a published report featured before that has since merged, been
    closed or been reverted, each with the day it was first featured and its state then."""
    found = report.continuity
    # Landed work this report features anyway (`elsewhere`: a key change, a notable issue,
    # the gist) is told there, with the day it was first featured: one item, one place.
    landed = [entry for entry in (found.since if found else ()) if entry.number not in elsewhere]
    if not landed:
        return None
    entries = tuple(_landed_entry(report, entry, lang) for entry in landed[:SINCE_SHOWN])
    rest: Line | None = None
    more = [entry.number for entry in landed[SINCE_SHOWN:]]
    if more:
        rest = (Our(w.text(lang, "more_stories", n=len(more), refs="").rstrip()),)
        rest += tuple(oe.refs(report, more, lang, lead_space=True, make=_since_ref))
    return Section("since", w.text(lang, "since"), (Block(None, entries, "list", rest),))


def _landed_entry(report: Report, entry: Landed, lang: str) -> Entry:
    """`#38049 [Model] Add … — featured 03-24 in review → merged today`."""
    item = _since_item(report, entry.number)
    if lang == "en":
        lead, title = " ", Theirs(item.title)
    else:  # as a head line says it: its tags in Chinese, the rest of its title shorter
        info = report.sections
        label = kind_label(info.explained.get(entry.number) if info is not None else None, lang)
        lead, title = (
            f" 【{label}】" if label else " ",
            oe.zh_title(item),
        )
    tz = report.window.start.tzinfo
    on = None if report.window.contains(entry.at) else entry.at.astimezone(tz).strftime("%m-%d")
    before, after = w.landed(lang, entry.first_day, entry.then, entry.now, on)
    head: list[Part] = [_since_ref(report, entry.number), Our(lead), title, Our(" — " + before)]
    if entry.by is not None:
        head += [_since_ref(report, entry.by), Our(after)]
    return Entry(tuple(head), (), None, covers=frozenset({entry.number}))


def _since_item(report: Report, number: int) -> ActivityItem:
    found = report.continuity.items.get(number) if report.continuity else None
    return found if found is not None else report.item(number)


def _since_ref(report: Report, number: int) -> Ref:
    """A link to landed work, or to the revert that undid it (a PR, wherever it is held)."""
    try:
        item = _since_item(report, number)
    except KeyError:  # a revert the report does not hold: GitHub redirects either way
        return Ref(number, item_url(report.repo, "pr", number))
    return Ref(number, item_url(report.repo, item.kind, number))
