"""What a report says, decided once: sections, their order, what each entry shows, what is
capped and where the rest lives. Markdown, Slack, Discord (and HTML) draw it natively.

`outline(report, lang)` is the full report (every section, appendix last); `pick` and
`once` choose what a rendering shows and tell each item once; formatters.chat_outline picks
what a chat post holds. The parts (`Our`, `Theirs`, `Ref`, `Entry`, `Block`, `Section`,
`Outline`; a line is `Our` text, `Theirs` text and `Ref` links) are
bot.model.outline_parts', re-exported here for the renderers. The pieces live beside it:
an entry in formatters.outline_entries, a vendor's or subject's section in
formatters.outline_topics, the fixed sections in formatters.outline_sections.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from bot.model.outline_parts import (
    LOGIN_LIMIT,
    TITLE_LIMIT,
    WHAT_LIMIT,
    Block,
    ChatPart,
    Entry,
    Line,
    Our,
    Outline,
    Part,
    Ref,
    RowMarkup,
    Section,
    Theirs,
    rows,
)
from bot.model.report import (
    BASELINE_DAYS,
    Featured,
    ListName,
    Report,
    Sections,
    Story,
)
from bot.model.states import state_key
from formatters import outline_entries as oe
from formatters import wording as w
from formatters.outline_entries import as_of, story_entry
from formatters.outline_sections import (
    activity_section,
    appendix_section,
    hot_section,
    key_section,
    notable_section,
    summary_section,
    trends_section,
)
from formatters.outline_since import since_section
from formatters.outline_topics import (
    BUCKET_ORDER,
    topic_line,
    topic_section,
    vendor_leads,
    vendor_lines,
    vendor_table,
)

GIST_LINES = 5
TOP = 3  # the weightiest changes every list names first
QUIET_ITEMS = 10  # a day with at most this many items is one short message
# What a quiet day's sentence counts, in reading order, each with its noun (en).
_QUIET_COUNTS = (
    (ListName.NEW_PRS, ("PR", "PRs")),
    (ListName.NEW_ISSUES, ("issue", "issues")),
    (ListName.MERGED_PRS, ("PR", "PRs")),
    (ListName.CLOSED_ISSUES, ("issue", "issues")),
    (ListName.CLOSED_UNMERGED_PRS, ("PR", "PRs")),
)


# -- the outline ---------------------------------------------------------------------------


def outline(report: Report, lang: str, link: str | None = None) -> Outline:
    """The whole report, every section in the reference's order."""
    info = report.sections
    sections = _day_sections(report, info, lang) if info is not None else []
    sections += _part_sections(report, lang)
    sections.append(appendix_section(report, lang))
    quiet = is_quiet(report)
    replies, quiet_replies = _part_replies(report)
    return Outline(
        title=_title(report, lang),
        window=w.window_text(report, lang),
        counts=()
        if quiet
        else tuple((w.COUNT_NAMES[lang][n], w.count_value(report, n, lang)) for n in ListName),
        warning=_warning(report, lang),
        vendors=() if quiet else vendor_lines(sections, report.topic, lang),
        vendor_table=None if quiet else vendor_table(sections, report.topic, lang),
        marks=_part_lines(report, lang),
        replies=replies,
        quiet_replies=quiet_replies,
        gist=_gist(report, info, lang, quiet) if info is not None else (),
        quiet=_quiet_sentence(report, lang) if quiet else None,
        sections=tuple(sections),
        notes=_notes(report, lang),
        footer=_footer(report, lang),
        link=link,
        lang=lang,
        label=report.window.label,
    )


def _day_sections(report: Report, info: Sections, lang: str) -> list[Section]:
    """The day's own sections: since last time, the summary, each topic, hot, trends, key
    changes, activity, notable issues."""
    sections: list[Section] = []
    # Only with a past: a report standing alone has none.
    since = since_section(report, lang, _featured_here(report))
    sections += [since] if since is not None else []
    sections.append(summary_section(report, info, lang))
    # In most detail: a topic report's own topic, else the first vendor with items
    # (AMD / ROCm on most days); the other vendors briefly, subjects on demand.
    vendors = [t.key for t in info.catalog.vendors if t.key in info.topics]
    lead = report.topic or (vendors[0] if vendors else None)
    for topic in info.catalog.topics:
        found = info.topics.get(topic.key)
        if found is not None:
            detailed = topic.key == lead or topic.kind != "vendor"
            sections.append(topic_section(report, info, found, lang, lead=detailed))
    sections += [
        hot_section(report, info, lang),
        trends_section(report, info, lang),
        key_section(report, info, lang),
        activity_section(info, lang),
        notable_section(report, info, lang),
    ]
    return sections


def _part_replies(report: Report) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The features' chat replies in their chat order, and those that follow a quiet day."""
    chat = [p for p in report.parts if p.chat_rank is not None]
    daily = tuple(p.name for p in sorted(chat, key=lambda p: p.chat_rank or 0))
    return daily, tuple(p.name for p in chat if p.on_quiet_day)


def _part_sections(report: Report, lang: str) -> list[Section]:
    """What features added (Plugins, Red on main, the queue), each with its chat reply."""
    sections = []
    for part in report.parts:
        section = part.section(lang)
        if section is not None and part.chat_rank is not None:
            section = replace(section, reply=part.chat_blocks(section, report.window.label, lang))
        sections += [section] if section is not None else []
    return sections


def is_quiet(report: Report) -> bool:
    """A whole day with at most QUIET_ITEMS items: its headline tells every item (a topic's
    digest, a range or a day still collecting keep their form). Decided by the day's own
    items alone, so that what a later day reads as featured (worked out before the day's
    past and plugins are added) is what the headline said; Since last time and Plugins,
    when there are any, still follow as replies."""
    return (
        report.complete
        and report.topic is None
        and report.sections is not None
        and report.window.duration.total_seconds() <= 25 * 3600  # a day, DST included
        and len(report.items) <= QUIET_ITEMS
    )


def _quiet_sentence(report: Report, lang: str) -> str:
    """ "Quiet day: 2 PRs opened, 1 issue opened, nothing merged": no count said as 0."""
    said = []
    for name, (one, many) in _QUIET_COUNTS:
        n = len(report.lists[name])
        if n:
            counted = w.plural(n, one, many) if lang == "en" else f"{n} 个"
            said.append(w.text(lang, f"quiet_{name.value}", counted=counted))
        elif name is ListName.MERGED_PRS and said:
            said.append(w.text(lang, "quiet_nothing_merged"))
    counts = w.LIST_SEP[lang].join(said) if said else w.text(lang, "quiet_nothing")
    return w.text(lang, "quiet_day", counts=counts)


def _warning(report: Report, lang: str) -> str | None:
    """Why the counts are not final: the window has not ended yet, or part of it could not
    be collected (only the second is a fault)."""
    if report.complete:
        return None
    made = report.generated_at
    if made is not None and made < report.window.end:
        local = made.astimezone(report.window.start.tzinfo).strftime("%m-%d %H:%M")
        return w.text(lang, "in_progress", at=local)
    return w.text(lang, "incomplete")


def pick(full: Outline, only: Sequence[str]) -> tuple[Section, ...]:
    """The sections `only` names (`vendors` means every vendor), in the report's order;
    nothing named: the full report's body."""
    if not only:
        return full.body
    wanted = set(only)
    vendors = vendor_keys(full)
    return tuple(
        s.in_detail() if s.key in wanted else s
        for s in full.sections
        if s.key in wanted or ("vendors" in wanted and s.key in vendors)
    )


def once(
    gist: Sequence[Entry], sections: Sequence[Section]
) -> tuple[tuple[Entry, ...], tuple[Section, ...]]:
    """Each item told once, in reading order: where it first appears it has its own words
    and its story's members; a later mention is its head line and only what is new there
    (a key change's facts, a thread's figures). The appendix lists everything, always."""
    seen: set[int] = set()
    grouped: set[int] = set()  # items whose story's members were shown

    def told(entry: Entry) -> Entry:
        number = entry.number
        if number is None:
            return entry
        if number in seen:
            entry = replace(entry, head=entry.again_head or entry.head)
            lines = entry.again
            if entry.members is not None and number not in grouped:
                lines += (entry.members,)
            entry = replace(entry, lines=lines)
        seen.add(number)
        if entry.members is not None and entry.members in entry.lines:
            grouped.add(number)
        return entry

    shown = tuple(told(entry) for entry in gist)
    out = []
    for section in sections:
        if section.key == "appendix":
            out.append(section)
            continue
        blocks = tuple(
            replace(b, entries=tuple(told(e) for e in b.entries)) for b in section.blocks
        )
        out.append(replace(section, blocks=blocks))
    return shown, tuple(out)


def vendor_keys(full: Outline) -> list[str]:
    return [s.key for s in full.sections if s.kind == "vendor"]


# -- pieces ----------------------------------------------------------------------------------


def _title(report: Report, lang: str) -> str:
    key = "title" if report.repo == "vllm-project/vllm" else "title_other"
    if report.window.since is not None:  # from a release: no day's report
        key = f"{key}_release"
    label = report.window.label
    if report.window.since is not None and label.startswith("since "):
        label = w.text(lang, "since_release", tag=report.window.since)
    title = w.text(lang, key, repo=report.repo, label=label)
    if report.topic and report.sections is not None:
        name = report.sections.catalog.topic_name(report.topic, lang)
        title += w.text(lang, "topic_suffix", topic=name)
    return title


# -- the gist, the notes -------------------------------------------------------------------


def _gist(report: Report, info: Sections, lang: str, quiet: bool = False) -> tuple[Entry, ...]:
    """What happened, in a few lines, one thing of each kind: the two weightiest changes, the
    weightiest story of the first vendor and of the busiest other vendor, the liveliest
    thread, the gravest issue; each story once. A quiet day: every item, newest first."""
    entries = []
    for number in _all_items(report, info) if quiet else gist_numbers(report, info):
        story = oe.story_of(report, info, number)
        news = oe.members_line(report, story, lang) if _newsworthy(story, number) else None
        # Its own words and why it matters; a revert proposed the same day is the
        # headline's business, said by the story line ("revert proposed in #38169").
        lines = oe.description(report, number, lang, links=news is None, featured=True)
        if news is not None:
            lines.append(news)
        entry = Entry(oe.head(report, number, lang, author=False), tuple(lines), number)
        entry = replace(entry, again_head=oe.again_head(report, number, lang))
        entries.append(replace(entry, members=news))
    return tuple(entries)


def _all_items(report: Report, info: Sections) -> list[int]:
    """A quiet day's items in the order a busy day features them (the gist's, the key
    changes, the notable issues: what a later day's continuity reads), then the rest, the
    latest event first."""

    def last(number: int) -> datetime:
        it = report.items[number]
        return max(t for t in (it.created_at, it.closed_at, it.merged_at) if t is not None)

    told = [*gist_numbers(report, info), *(k.number for k in info.key_changes)]
    told += [n.number for n in info.notable_issues]
    rest = sorted(report.items, key=lambda n: (last(n), n), reverse=True)
    return [n for n in dict.fromkeys([*told, *rest]) if n in report.items]


def gist_numbers(report: Report, info: Sections) -> list[int]:
    """The items the gist tells, one per story, at most `GIST_LINES`: the three weightiest
    changes (the summary's and the key changes' top three: one ranking), the first
    vendor's weightiest story, the liveliest thread, the gravest issue, the busiest other
    vendor's story, then the next changes. An item a published report featured before
    whose state has not changed since is old news, not told again."""
    old = frozenset(report.continuity.old_news) if report.continuity else frozenset()
    top = [k.number for k in info.key_changes[:TOP]]
    leads = vendor_leads(info, old)
    numbers: list[int] = top + leads[:1]
    numbers += [h.number for h in info.hot_discussions[:1]]
    numbers += [n.number for n in info.notable_issues[:1]]
    numbers += leads[1:] + [k.number for k in info.key_changes[TOP:]]
    seen: set[str] = set()
    out = []
    for number in numbers:
        story = oe.story_of(report, info, number)
        if story.id in seen or number in old:
            continue
        seen.add(story.id)
        out.append(number)
        if len(out) == GIST_LINES:
            break
    return out


def featured(report: Report) -> tuple[Featured, ...]:
    """What the report features, each item once, where it first appears: the gist, the key
    changes, the notable issues, then what it says landed since last time; each with its
    state as the window ended (what a later report's continuity reads)."""
    info = report.sections
    if info is None:
        return ()
    label, end = report.window.label, report.window.end
    places: dict[int, str] = {}
    told = _all_items(report, info) if is_quiet(report) else gist_numbers(report, info)
    for number in told:  # a quiet day's one message tells every item: all are featured
        places.setdefault(number, "gist")
    for change in info.key_changes:
        places.setdefault(change.number, "key")
    for issue in info.notable_issues:
        places.setdefault(issue.number, "notable")
    out = [
        Featured(n, label, place, state_key(as_of(report.item(n), end)), end)
        for n, place in places.items()
    ]
    landed = report.continuity.since if report.continuity is not None else ()
    out += [
        Featured(e.number, label, "since", e.now, end) for e in landed if e.number not in places
    ]
    return tuple(out)


def _featured_here(report: Report) -> frozenset[int]:
    """The items this report features in its gist, key changes and notable issues (a
    topic's digest is its section and what landed: nothing there tells landed work)."""
    sections = report.sections
    if sections is None or report.topic is not None:
        return frozenset()
    return frozenset(
        {*gist_numbers(report, sections)}
        | {k.number for k in sections.key_changes}
        | {n.number for n in sections.notable_issues}
    )


# Relations a headline says: a revert, a re-land, a replacement; a report after a change
# to what it names; the fix of a failing test.
NEWS = frozenset({"revert", "reverted", "reland", "replacement"}) | frozenset(
    {"reported_after", "changed_before", "fixes_test", "test_failure"}
)


def _newsworthy(story: Story, number: int) -> bool:
    return story.lead == number and any(m.relation in NEWS for m in story.members)


def _part_lines(report: Report, lang: str) -> tuple[str, ...]:
    """Each feature's line in the first message, after the vendors' (a topic's report has
    none): a reader who stops there still learns that upstream broke a plugin or main is red."""
    if report.topic is not None:
        return ()
    lines = (part.headline(lang) for part in report.parts)
    return tuple(line for line in lines if line)


def _notes(report: Report, lang: str) -> tuple[str, ...]:
    notes = list(report.notes)
    info = report.sections
    if info is not None:
        if info.baseline_days < BASELINE_DAYS:
            key = "baseline_note" if info.baseline_days else "baseline_none"
            notes.append(w.text(lang, key, days=info.baseline_days))
        if any(not h.measured for h in info.hot_discussions):
            notes.append(w.text(lang, "unread_note"))
    return tuple(dict.fromkeys(notes))


def _footer(report: Report, lang: str) -> str:
    footer = w.text(lang, "footer")
    if report.prose is not None:  # its own line: the facts' footer reads as it does without
        footer += "\n" + w.text(
            lang,
            "prose_footer",
            model=report.prose.model,
            kept=report.prose.kept,
            dropped=report.prose.dropped,
        )
    return footer


__all__ = [  # the parts are re-exported: renderers read one module
    "BUCKET_ORDER",
    "LOGIN_LIMIT",
    "TITLE_LIMIT",
    "WHAT_LIMIT",
    "Block",
    "ChatPart",
    "Entry",
    "Line",
    "Our",
    "Outline",
    "Part",
    "Ref",
    "RowMarkup",
    "Section",
    "Theirs",
    "as_of",
    "featured",
    "gist_numbers",
    "once",
    "outline",
    "pick",
    "rows",
    "state_key",
    "story_entry",
    "topic_line",
    "vendor_keys",
]
