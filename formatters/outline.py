"""What a report says, decided once: sections, their order, what each entry shows, what is
capped and where the rest lives. Markdown, Slack, Discord (and HTML) draw it natively.

`outline(report, lang)` is the full report (every section, appendix last); `pick` and
`once` choose what a rendering shows and tell each item once; formatters.chat_outline picks
what a chat post holds. The parts (`Our`, `Theirs`, `Ref`, `Entry`, `Block`, `Section`,
`Outline`; a line is `Our` text, `Theirs` text and `Ref` links) are
formatters.outline_parts', re-exported here for the renderers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from bot.model.report import (
    BASELINE_DAYS,
    SECTIONS,
    ActivityItem,
    Featured,
    KeyChange,
    Landed,
    ListName,
    Report,
    Sections,
    Story,
    TopicSection,
)
from bot.model.states import state_key
from formatters import wording as w
from formatters._text import item_url, truncate
from formatters.explanations import explanation_pieces, kind_label, overview
from formatters.outline_parts import (
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

STORIES_SHOWN = 8  # stories per topic in the full report
GIST_LINES = 5
TREND_ROWS = 8  # the busiest topics; every topic's count is in the JSON and on the site


# -- the outline ---------------------------------------------------------------------------


def outline(report: Report, lang: str, link: str | None = None) -> Outline:
    """The whole report, every section in the reference's order."""
    sections: list[Section] = []
    info = report.sections
    if info is not None:
        since = _since(report, lang)  # only with a past: a report standing alone has none
        sections += [since] if since is not None else []
        sections.append(_summary(report, info, lang))
        # In most detail: a topic report's own topic, else the first vendor with items
        # (AMD / ROCm on most days); the other vendors briefly, subjects on demand.
        vendors = [t.key for t in info.catalog.vendors if t.key in info.topics]
        lead = report.topic or (vendors[0] if vendors else None)
        for topic in info.catalog.topics:
            found = info.topics.get(topic.key)
            if found is not None:
                detailed = topic.key == lead or topic.kind != "vendor"
                sections.append(_topic(report, info, found, lang, lead=detailed))
        sections += [
            _hot(report, info, lang),
            _trends(report, info, lang),
            _key(report, info, lang),
            _activity(info, lang),
            _notable(report, info, lang),
        ]
    if report.radar is not None:  # the daily report's plugins, when anything is news
        from formatters.radar_outline import plugins_section

        plugins = plugins_section(report.radar, lang)
        sections += [plugins] if plugins is not None else []
    if report.queue is not None:  # the full report's queue section (never a daily reply)
        from formatters.queue_outline import queue_section

        sections.append(queue_section(report.queue, lang, brief=False))
    sections.append(_appendix(report, lang))
    return Outline(
        title=_title(report, lang),
        window=w.window_text(report, lang),
        counts=tuple((w.COUNT_NAMES[lang][n], w.count_value(report, n, lang)) for n in ListName),
        warning=_warning(report, lang),
        vendors=_vendor_lines(sections, report.topic, lang),
        plugins=_plugins_line(report, lang),
        gist=_gist(report, info, lang) if info is not None else (),
        sections=tuple(sections),
        notes=_notes(report, lang),
        footer=_footer(report, lang),
        link=link,
        lang=lang,
        label=report.window.label,
    )


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
    title = w.text(lang, key, repo=report.repo, label=report.window.label)
    if report.topic and report.sections is not None:
        name = report.sections.catalog.topic_name(report.topic, lang)
        title += w.text(lang, "topic_suffix", topic=name)
    return title


def ref(report: Report, number: int) -> Ref:
    item = report.item(number)
    return Ref(number, item_url(report.repo, item.kind, number))


def as_of(item: ActivityItem, end: datetime) -> ActivityItem:
    """The item as it stood when a window ended: a PR merged or closed since was open then
    (a report asked later still tells its day; the appendix has the exact times)."""
    merged = item.merged_at if item.merged_at is not None and item.merged_at < end else None
    closed = item.closed_at if item.closed_at is not None and item.closed_at < end else None
    if (merged, closed) == (item.merged_at, item.closed_at):
        return item
    return replace(item, merged_at=merged, closed_at=closed, state="closed" if closed else "open")


def _state(item: ActivityItem, lang: str, end: datetime | None = None) -> str:
    return w.STATES[lang][state_key(as_of(item, end) if end is not None else item)]


def _state_of(report: Report, number: int, lang: str) -> str:
    """An item's state as the window ended; an open PR long in review says which day of
    its review this is (a report with a past only: bot.analyze.continuity)."""
    days = report.continuity.review_days.get(number) if report.continuity else None
    if days:
        return w.text(lang, "review_day", n=days)
    return _state(report.item(number), lang, report.window.end)


def _past(report: Report, number: int) -> Featured | None:
    """When a published report first featured the item, and its state then."""
    return report.continuity.past.get(number) if report.continuity else None


# The Chinese edition says a title's tags in Chinese (the line under it: "修复：AMD/ROCm …")
# and quotes the rest of the title shorter: its full English is one click away. A title a
# little over the limit is quoted whole (an ellipsis would save a word and lose the name
# that ends it, "…kernel from AITER"); a longer one is cut at a word.
_TAGS = re.compile(
    r"^(?:\s*[\[{][^\]}]{1,40}[\]}]\s*:?"
    r"|\s*(?:feat|fix|docs|perf|refactor|tests?|ci|chore|build)(?:\([^()]{1,30}\))?!?:\s)+\s*",
    re.I,
)
ZH_TITLE_LIMIT = 38
ZH_TITLE_WHOLE = 40


def _shown_title(item: ActivityItem, lang: str) -> str:
    """The title as a head line quotes it: whole in English, its tags said apart in Chinese."""
    return item.title if lang == "en" else _TAGS.sub("", item.title)


def _title_limit(title: str, lang: str) -> int:
    """How much of the shown title a head line quotes."""
    if lang == "en":
        return TITLE_LIMIT
    return len(title) if len(title) <= ZH_TITLE_WHOLE else ZH_TITLE_LIMIT


def _zh_title(item: ActivityItem) -> Theirs:
    shown = _shown_title(item, "zh")
    return Theirs(shown, _title_limit(shown, "zh"))


def _head(
    report: Report, number: int, lang: str, *, author: bool = True, state: str | None = None
) -> Line:
    item = report.item(number)
    if lang == "en":
        line: list[Part] = [ref(report, number), Our(" "), Theirs(item.title), Our(" — ")]
    else:  # its tags said in Chinese (【修复】), the rest of its title quoted, shorter
        info = report.sections
        label = kind_label(info.explained.get(number) if info is not None else None, lang)
        title = _zh_title(item)
        line = [ref(report, number), Our(f" 【{label}】" if label else " "), title, Our(" — ")]
    line.append(Our(state or _state_of(report, number, lang)))
    past = _past(report, number)
    if past is not None:
        line.append(Our(w.SEP[lang] + w.first_featured(lang, past.day, past.state)))
    if author and item.author:
        line += [Our(w.SEP[lang]), Theirs(item.author, LOGIN_LIMIT)]
    return tuple(line)


def _again_head(report: Report, number: int, lang: str, *, state: str | None = None) -> Line | None:
    """A later mention's head line in Chinese: its number and state, where it was first told
    with its title and author ("#38139 — 审阅中（见上）"): English named once is enough."""
    if lang == "en":
        return None
    state = state or _state_of(report, number, lang)
    return (ref(report, number), Our(" — "), Our(state), Our("（见上）"))


def _own_words(report: Report, number: int) -> Line | None:
    """The item's own line (not when it only repeats the title)."""
    said = report.sections.what.get(number, "") if report.sections is not None else ""
    if not said or _same_words(said, report.item(number).title):
        return None
    return (Theirs(said, WHAT_LIMIT),)


def _model_note(report: Report, number: int, *, thread: bool = False) -> Line | None:
    """What a model added about the item (marked ✍️: of the thread for a discussion), after
    every sentence of it passed the checks; shown beside the facts, never instead."""
    prose = report.prose
    if prose is None:
        return None
    note = (prose.discussions.get(number) if thread else None) or prose.notes.get(number)
    return (Our("✍️ "), Theirs(note, 400)) if note else None


def _description(
    report: Report,
    number: int,
    lang: str,
    *,
    thread: bool = False,
    beside: str | None = None,
    links: bool = True,
) -> list[Line]:
    """What an entry says under its head line: in English the item's own words, in Chinese
    what the facts say it is and why it matters (its English words are the English
    edition's); then what a model added, beside them."""
    if lang == "en":
        said = _own_words(report, number)
    else:
        said = explained(report, number, lang, links=links, beside=beside)
    added = _model_note(report, number, thread=thread)
    return [line for line in (said, added) if line is not None]


def explained(
    report: Report,
    number: int,
    lang: str,
    *,
    what: bool = True,
    links: bool = True,
    beside: str | None = None,
    bare: bool = False,
) -> Line | None:
    """What the item is and why it matters, from the facts (bot.analyze.explain), in the
    reader's language; None when the facts say nothing (`bare`: the kind of work alone
    is said too)."""
    info = report.sections
    found = info.explained.get(number) if info is not None else None
    if info is None or found is None:
        return None
    kind = report.item(number).kind

    def state(n: int) -> str:
        return _state_of(report, n, lang)

    pieces = explanation_pieces(
        found,
        kind,
        lang,
        info.catalog,
        state,
        what=what,
        links=links,
        beside=beside,
        bare=bare,
        seen=truncate(shown := _shown_title(report.item(number), lang), _title_limit(shown, lang)),
    )
    if not pieces:
        return None
    return tuple(ref(report, p) if isinstance(p, int) else Our(p) for p in pieces)


def _same_words(said: str, title: str) -> bool:
    words = set(re.findall(r"\w+", said.lower()))
    return words <= set(re.findall(r"\w+", title.lower())) | {"this", "pr", "the", "a"}


def _members(report: Report, story: Story, lang: str) -> Line | None:
    """`follow-up #38263 (merged) · fixes #36703 (open), #36704 (open)`: one group per word."""
    groups: dict[str, list[int]] = {}
    for member in story.members:
        item = as_of(report.item(member.number), report.window.end)
        done = item.kind == "issue" and state_key(item) == "issue_completed"
        word = w.relation_word(lang, member.relation, item.merged_at is not None, done)
        groups.setdefault(word, []).append(member.number)
    if not groups:
        return None
    line: list[Part] = []
    for word, numbers in groups.items():
        if line:
            line.append(Our(w.SEP[lang]))
        line.append(Our(word))
        for index, number in enumerate(numbers):
            if index:
                line.append(Our(w.LIST_SEP[lang]))
            said = _state_of(report, number, lang)
            line += [ref(report, number), Our(w.parens(lang, said))]
    return tuple(line)


def story_entry(
    report: Report,
    story: Story,
    lang: str,
    *,
    extra: Line | None = None,
    state: str | None = None,
    beside: str | None = None,
) -> Entry:
    """A story told by its lead (a story told from another member: `Story.led_by`): what it
    says it does in English; in Chinese what the facts say it is and why it matters (its
    English words are the English edition's), unless `extra` says that already. `beside`:
    the topic whose section it stands in."""
    number = story.lead
    if lang == "en" or extra is None:
        lines = _description(report, number, lang, beside=beside, links=not story.members)
    else:  # what `extra` says is the Chinese description
        lines = [line for line in [_model_note(report, number)] if line is not None]
    lines += [extra] if extra is not None else []
    members = _members(report, story, lang)
    if members:
        lines.append(members)
    again = (extra,) if extra else ()
    return Entry(
        _head(report, number, lang, state=state),
        tuple(lines),
        number,
        again=again,
        members=members,
        covers=frozenset(story.numbers),
        again_head=_again_head(report, number, lang, state=state),
    )


def _story(report: Report, info: Sections, number: int) -> Story:
    found = info.story_of(number)
    return found if found is not None else Story(f"s{number}", number, (number,), (), ())


# -- sections --------------------------------------------------------------------------------


def _summary(report: Report, info: Sections, lang: str) -> Section:
    """The day's themes and counts from the facts; a model's summary beside it, never
    instead (it passed its checks whole)."""
    line: Line = tuple(
        ref(report, piece) if isinstance(piece, int) else Our(piece)
        for piece in w.summary_pieces(report, lang)
    )
    entries = [Entry(line)]
    written = report.prose.summary.get(lang) if report.prose is not None else None
    if written:
        entries.append(Entry((Our("✍️ "), Theirs(written, 3000))))
    return Section("summary", w.text(lang, "summary"), (Block(None, tuple(entries), "text"),))


# Stories shown per bucket of a topic in the full report (the rest are listed by number):
# the first vendor and a topic asked for on their own in detail, the other vendors briefly.
BUCKET_SHOWN = {"merged": 5, "review": 5, "new": 3, "done": 2, "closed": 2}
OTHER_VENDOR_SHOWN = {"merged": 3, "review": 2, "new": 1, "done": 1, "closed": 1}
BUCKET_ORDER = ("merged", "review", "new", "done", "closed")


def _topic(
    report: Report, info: Sections, section: TopicSection, lang: str, *, lead: bool = True
) -> Section:
    """A vendor or subject bucket by bucket. A bucket's figure counts the topic's items in
    that state (`TopicSection.figures`); its entries are the stories standing there, each
    with its members in whatever state they are. Every counted item is visible: in an
    entry, in the "+N more" line, or named as told above with its story."""
    name = info.catalog.topic_name(section.key, lang)
    blocks = []
    at_a_glance = _overview(info, section, lang)
    if at_a_glance:  # first: the brief of another vendor leaves it out of its sweep
        blocks.append(Block(None, (Entry((Our(at_a_glance),)),), "text"))
    caps = BUCKET_SHOWN if lead else OTHER_VENDOR_SHOWN
    mine = _topic_members(section)
    shown_ids = {b: section.buckets.get(b, ())[: caps[b]] for b in BUCKET_ORDER}
    covered = {n for ids in shown_ids.values() for s in ids for n in info.story(s).numbers}
    above: set[int] = set()  # items shown in the entries of the buckets before
    for name_of_bucket in BUCKET_ORDER:
        counted = section.figures.get(name_of_bucket, ())
        if not counted:
            continue
        ids = section.buckets.get(name_of_bucket, ())
        entries = tuple(
            _topic_entry(report, info, info.story(s), section, lang)
            for s in shown_ids[name_of_bucket]
        )
        heading = w.text(lang, f"bucket_{name_of_bucket}", n=len(counted))
        rest = _rest(report, info, counted, ids, covered, above, lang)
        block = Block(heading, entries, "list", rest, name_of_bucket, len(counted))
        blocks.append(replace(block, items=frozenset(counted)))
        above |= {n for e in entries for n in e.covers}
    if section.stale:
        folded: list[Part] = [
            Our(w.text(lang, "stale_folded", n=len(section.stale), refs="").rstrip())
        ]
        folded += _refs(report, section.stale, lang, lead_space=True)
        blocks.append(Block(None, (Entry(tuple(folded)),), "text"))
    kind = topic.kind if (topic := info.catalog.topic(section.key)) is not None else "topic"
    title = w.text(lang, "vendor", name=name)
    full = Section(section.key, title, tuple(blocks), kind, name)
    if lead:
        return full
    brief = _brief(report, info, section, mine, full, lang)
    return replace(full, blocks=brief, detail=full.blocks)


def _overview(info: Sections, section: TopicSection, lang: str) -> str:
    """A vendor's PRs of the window by kind and what they were about, in a line ("" for a
    subject topic, or when its PRs say nothing)."""
    topic = info.catalog.topic(section.key)
    if topic is None or topic.kind != "vendor":
        return ""
    merged, review = (
        [info.explained[n] for n in section.figures.get(b, ()) if n in info.explained]
        for b in ("merged", "review")
    )
    return overview(merged, review, lang, info.catalog, section.key)


def _topic_entry(
    report: Report, info: Sections, story: Story, section: TopicSection, lang: str
) -> Entry:
    """A story under a topic's heading, headed by the topic's own item: its lead when the
    lead is the topic's, else the weightiest of its items that is."""
    mine, beside = _topic_members(section), section.key
    if story.lead in mine:
        return story_entry(report, story, lang, beside=beside)
    own = [n for n in story.numbers if n in mine]
    head = max(own, key=lambda n: (info.weights.get(n, 0.0), -n))
    return story_entry(report, story.led_by(head), lang, beside=beside)


BRIEF_STORIES = 3  # another vendor's weightiest stories in the full report
LANDED = {"merged": 1.0, "review": 0.5}  # as for key changes: landing adds a little


def _brief(
    report: Report,
    info: Sections,
    section: TopicSection,
    mine: frozenset[int],
    full: Section,
    lang: str,
) -> tuple[Block, ...]:
    """Another vendor in a few lines: its figures, its weightiest stories of work landed or
    under way, every other item by number (nothing left out), the stale sweep folded."""
    live = [
        (s, LANDED.get(b, 0.0))
        for b in ("merged", "review", "new")
        for s in section.buckets.get(b, ())
    ]
    live.sort(key=lambda pair: -(info.weights.get(info.story(pair[0]).lead, 0.0) + pair[1]))
    ranked = [s for s, _ in live]
    ranked += [s for b in ("done", "closed") for s in section.buckets.get(b, ())]
    top = ranked[:BRIEF_STORIES]  # never a count with nothing shown
    entries = tuple(_topic_entry(report, info, info.story(s), section, lang) for s in top)
    others = [s for b in BUCKET_ORDER for s in section.buckets.get(b, ()) if s not in top]
    counted = [n for b in BUCKET_ORDER for n in section.figures.get(b, ())]
    covered = {n for e in entries for n in e.covers}
    counts = topic_line(full, lang, named=False)  # under the vendor's heading
    blocks = [Block(None, (Entry((Our(counts),)),), "text")] if counts else []
    at_a_glance = _overview(info, section, lang)
    if at_a_glance:
        blocks.append(Block(None, (Entry((Our(at_a_glance),)),), "text"))
    rest = _rest(report, info, counted, others, covered, set(), lang)
    block = Block(None, entries, "list", rest, "top", len(counted))
    blocks.append(replace(block, items=frozenset(counted)))
    blocks += [b for b in full.blocks if not b.key][1 if at_a_glance else 0 :]  # the sweep
    return tuple(blocks)


def _topic_members(section: TopicSection) -> frozenset[int]:
    """A topic's items, as a set: built once per topic, not once per story (that was
    quadratic in a busy topic)."""
    return frozenset(section.issues) | frozenset(section.prs)


def _rest(
    report: Report,
    info: Sections,
    counted: Sequence[int],
    ids: Sequence[str],
    covered: set[int],
    above: set[int],
    lang: str,
) -> Line | None:
    """What a bucket counts beyond its entries: `+12 more: #a, #b (+#c), …` (its items in
    stories not shown, a story's items together), then `· 2 shown above with their stories:
    #d, #e` (its items that a story of an earlier bucket holds). The figure is the entries'
    items of the bucket plus these two: every counted item is named once."""
    wanted = set(counted)
    order = {n: i for i, n in enumerate(counted)}
    groups: list[list[int]] = []
    for story_id in ids:
        group = [n for n in info.story(story_id).numbers if n in wanted and n not in covered]
        if group:
            groups.append(group)
    grouped = {n for g in groups for n in g}
    # Counted items of stories that stand in an earlier bucket but were not shown there.
    for number in sorted(wanted - covered - grouped, key=order.__getitem__):
        groups.append([number])
    told = sorted(wanted & above, key=order.__getitem__)
    if not groups and not told:
        return None
    line: list[Part] = []
    if groups:
        n = sum(map(len, groups))
        line.append(Our(w.text(lang, "more_stories", n=n, refs="").rstrip()))
        line.append(Our(" ") if lang == "en" else Our(""))
        line += _grouped_refs(report, groups, lang)
    if told:
        if line:
            line.append(Our(w.SEP[lang]))
        line.append(Our(w.text(lang, "told_above", n=len(told), refs="").rstrip()))
        line += _refs(report, told, lang, lead_space=True)
    return tuple(line)


def _grouped_refs(report: Report, groups: Sequence[Sequence[int]], lang: str) -> list[Part]:
    """`#a (fix), #b (bug; +#c, #d)`: each group's first item with its kind of work, its
    other items in the same brackets."""
    info = report.sections
    line: list[Part] = []
    for index, group in enumerate(groups):
        if index:
            line.append(Our(w.LIST_SEP[lang]))
        line.append(ref(report, group[0]))
        found = info.explained.get(group[0]) if info is not None else None
        label = kind_label(found, lang)
        inside: list[Part] = [Our(label)] if label else []
        if len(group) > 1:
            inside.append(Our(("；" if lang == "zh" else "; ") if label else ""))
            inside.append(Our("+"))
            for position, number in enumerate(group[1:]):
                inside += [Our(w.LIST_SEP[lang]) if position else Our(""), ref(report, number)]
        if inside:
            line += [
                Our("（" if lang == "zh" else " ("),
                *inside,
                Our("）" if lang == "zh" else ")"),
            ]
    return line


def _refs(
    report: Report,
    numbers: Sequence[int],
    lang: str,
    *,
    lead_space: bool = False,
    make: Callable[[Report, int], Ref] = ref,
) -> list[Part]:
    parts: list[Part] = [Our(" ")] if lead_space and lang == "en" else []
    for index, number in enumerate(numbers):
        if index:
            parts.append(Our(w.LIST_SEP[lang]))
        parts.append(make(report, number))
    return parts


def _hot(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for hot in info.hot_discussions:
        figures = w.comments_figure(
            lang, hot.comments_in_window if hot.measured else None, hot.comments_total
        )
        if hot.measured:
            figures += w.SEP[lang] + w.people_figure(
                lang, len(hot.participants), hot.author_replied
            )
        if hot.reactions:
            figures += w.SEP[lang] + w.text(lang, "reactions", n=hot.reactions)
        figures_line: Line = (Our(figures),)
        said = _description(report, hot.number, lang, thread=True)
        lines: list[Line] = [*said, figures_line]
        again: tuple[Line, ...] = (figures_line,)
        if report.prose is not None and hot.number in report.prose.discussions:
            again = (*said, figures_line)  # what the thread argued is news wherever shown
        if hot.maintainers:
            lines.append(
                (
                    Our(w.text(lang, "maintainers")),
                    Theirs(w.LIST_SEP[lang].join(hot.maintainers), 120),
                )
            )
        known = [n for n in hot.linked if _known(report, n)][:6]
        if known:
            lines.append((Our(w.text(lang, "linked")), *_refs(report, known, lang)))
        entries.append(
            Entry(
                _head(report, hot.number, lang),
                tuple(lines),
                hot.number,
                again=again,
                again_head=_again_head(report, hot.number, lang),
            )
        )
    return Section("hot", w.text(lang, "hot"), (_block_or_nothing(entries, lang, "numbered"),))


def _known(report: Report, number: int) -> bool:
    return number in report.items or number in report.context


def _key(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for change in info.key_changes:
        story = _story(report, info, change.number).led_by(change.number)
        extra = explained(report, change.number, lang, links=not story.members, bare=True)
        if extra is None:
            why = w.why_words(change.why, lang)
            extra = (Our(w.SEP[lang].join(why)),) if why else None
        entry = story_entry(
            report, story, lang, extra=extra, state=_change_state(report, change, lang)
        )
        entries.append(replace(entry, again=()))  # told above: the gist said why it matters
    return Section("key", w.text(lang, "key"), (_block_or_nothing(entries, lang, "numbered"),))


def _change_state(report: Report, change: KeyChange, lang: str) -> str:
    """Where a key change stood as the window ended (a PR in review then may have merged
    since; the report tells its day), in the reader's words."""
    item = report.item(change.number)
    if change.state == "rfc":
        open_then = item.closed_at is None or item.closed_at >= report.window.end
        return w.STATES[lang]["rfc_open"] if open_then else _state(item, lang, report.window.end)
    return w.STATES[lang][change.state]


def _notable(report: Report, info: Sections, lang: str) -> Section:
    entries = []
    for issue in info.notable_issues:
        item = report.item(issue.number)
        facts = w.LIST_SEP[lang].join(w.SIGNALS[lang].get(s, s) for s in issue.signals)
        lines: list[Line] = _description(report, issue.number, lang) if lang == "en" else []
        lines += [n for n in [_model_note(report, issue.number)] if lang != "en" and n]
        detail: list[Part] = list(explained(report, issue.number, lang, bare=True) or ())
        if not detail:
            detail = [Our(facts)]
            named = " / ".join((*issue.hardware, *issue.models))
            if named:
                detail += [Our(w.SEP[lang]), Theirs(named, 120)]
            if item.comments:
                detail.append(Our(w.SEP[lang] + w.comments_figure(lang, None, item.comments)))
        lines.append(tuple(detail))
        entries.append(
            Entry(
                _head(report, issue.number, lang),
                tuple(lines),
                issue.number,
                again_head=_again_head(report, issue.number, lang),
            )
        )
    return Section(
        "notable", w.text(lang, "notable"), (_block_or_nothing(entries, lang, "numbered"),)
    )


def _trends(report: Report, info: Sections, lang: str) -> Section:
    rows = []
    for row in info.trends[:TREND_ROWS]:
        name = info.catalog.topic_name(row.topic, lang)
        if row.direction in ("new", "thin"):  # nothing to compare with: the count alone
            said = w.text(lang, "trend_new", name=name, count=row.count)
        elif info.days > 1:
            mean = round(row.mean_7d / info.days, 1)
            said = w.text(
                lang,
                "trend_row_range",
                name=name,
                per_day=row.per_day,
                mean=mean,
                arrow=w.ARROWS[row.direction],
            )
        else:
            said = w.text(
                lang,
                "trend_row",
                name=name,
                count=row.count,
                mean=row.mean_7d,
                arrow=w.ARROWS[row.direction],
            )
        rows.append(Entry((Our(said),)))
    blocks = [_block_or_nothing(rows, lang, "list")]
    if info.trends and info.baseline_days:
        if any(row.direction == "thin" for row in info.trends) and not info.baseline_per_day:
            legend = w.text(lang, "trend_empty", days=info.baseline_days)
        elif any(row.direction == "thin" for row in info.trends):
            legend = w.text(
                lang,
                "trend_thin",
                days=info.baseline_days,
                per_day=info.baseline_per_day,
                today=round(len(report.items) / info.days),
            )
        else:
            legend = w.text(lang, "trend_legend", days=info.baseline_days)
        blocks.insert(0, Block(None, (Entry((Our(legend),)),), "text"))
    if info.clusters:
        clusters = [
            Entry(
                (
                    Theirs(c.name, 40),
                    Our(w.text(lang, "cluster_row", n=len(c.numbers))),
                    *_refs(report, c.numbers[:6], lang),
                    Our("…" if len(c.numbers) > 6 else ""),
                )
            )
            for c in info.clusters
        ]
        blocks.append(Block(w.text(lang, "clusters"), tuple(clusters), "list"))
    if report.prose is not None and report.prose.themes:
        themes = [Entry((Our("✍️ "), Theirs(theme, 600))) for theme in report.prose.themes]
        blocks.insert(0, Block(w.text(lang, "themes"), tuple(themes), "list"))
    return Section("trends", w.text(lang, "trends"), tuple(blocks))


def _activity(info: Sections, lang: str) -> Section:
    act = info.activity
    lines = [
        Entry(
            (
                Our(
                    w.text(lang, "authors", n=act.distinct_authors)
                    + w.SEP[lang]
                    + w.text(lang, "merged_count", n=act.merged)
                ),
            )
        )
    ]
    if act.first_time_contributors:
        lines.append(
            Entry(
                (
                    Our(w.text(lang, "first_timers")),
                    Theirs(w.LIST_SEP[lang].join(act.first_time_contributors), 500),
                )
            )
        )
    for key, logins in act.vendor_authors.items():
        vendor = info.catalog.topic_name(key, lang)
        lines.append(
            Entry(
                (
                    Our(w.text(lang, "vendor_people", vendor=vendor)),
                    Theirs(w.LIST_SEP[lang].join(logins), 500),
                )
            )
        )
    if act.bot_items:
        lines.append(Entry((Our(w.text(lang, "bot_items", n=act.bot_items)),)))
    return Section("activity", w.text(lang, "activity"), (Block(None, tuple(lines), "list"),))


def _appendix(report: Report, lang: str) -> Section:
    blocks = []
    tz = report.window.start.tzinfo
    for name in ListName:
        entries = []
        for number in report.lists[name]:
            item = report.items[number]
            when = item.event_time(name)
            stamp = when.astimezone(tz).strftime("%m-%d %H:%M") if when else "?"
            event = {
                ListName.MERGED_PRS: "merged",
                ListName.NEW_ISSUES: "created",
                ListName.NEW_PRS: "created",
            }.get(name, "closed")
            labels = w.LIST_SEP[lang].join(item.labels) or w.text(lang, "none")
            head: Line = (
                ref(report, number),
                Our(" "),
                Theirs(item.title, 200),
                Our(" — "),
                Theirs(labels, 200),
                Our(" — "),
                Theirs(item.author or w.text(lang, "unknown_author"), LOGIN_LIMIT),
                Our(w.parens(lang, f"{w.EVENT_WORDS[lang][event]} {stamp}")),
            )
            entries.append(Entry(head, (), number))
        heading = f"{w.APPENDIX_HEADINGS[lang][name]}{w.parens(lang, str(len(entries)))}"
        blocks.append(
            Block(heading, tuple(entries), "list")
            if entries
            else Block(heading, (Entry((Our(w.text(lang, "none")),)),), "text")
        )
    return Section("appendix", w.text(lang, "appendix"), tuple(blocks))


def _block_or_nothing(entries: Sequence[Entry], lang: str, style: str) -> Block:
    if entries:
        return Block(None, tuple(entries), style)
    return Block(None, (Entry((Our(w.text(lang, "nothing")),)),), "nothing")


# -- the gist, the notes -------------------------------------------------------------------


def _gist(report: Report, info: Sections, lang: str) -> tuple[Entry, ...]:
    """What happened, in a few lines, one thing of each kind: the two weightiest changes, the
    weightiest story of the first vendor and of the busiest other vendor, the liveliest
    thread, the gravest issue; each story once."""
    entries = []
    for number in gist_numbers(report, info):
        story = _story(report, info, number)
        own = _own_words(report, number) if lang == "en" else None
        lines = [own] if own is not None else []
        news = _members(report, story, lang) if _newsworthy(story, number) else None
        # Why it matters, from the facts, beside its own words (what kind of work it is,
        # where no own words or no reason is said).
        links = news is None
        why = explained(report, number, lang, what=own is None, links=links)
        if why is None:
            why = explained(report, number, lang, links=links, bare=True)
        lines += [line for line in (why, _model_note(report, number)) if line is not None]
        if news is not None:  # "revert proposed in #38169" is the headline's business
            lines.append(news)
        entry = Entry(_head(report, number, lang, author=False), tuple(lines), number)
        entry = replace(entry, again_head=_again_head(report, number, lang))
        entries.append(replace(entry, members=news))
    return tuple(entries)


def gist_numbers(report: Report, info: Sections) -> list[int]:
    """The items the gist tells, one per story, at most `GIST_LINES`: the two weightiest
    changes, the first vendor's and the busiest other vendor's weightiest story, the
    liveliest thread, the gravest issue, then the next changes. An item a published report
    featured before whose state has not changed since is old news, not told again."""
    old = frozenset(report.continuity.old_news) if report.continuity else frozenset()
    numbers: list[int] = [k.number for k in info.key_changes[:2]]
    numbers += _vendor_leads(info, old)
    numbers += [h.number for h in info.hot_discussions[:1]]
    numbers += [n.number for n in info.notable_issues[:1]]
    numbers += [k.number for k in info.key_changes[2:]]  # room left: the next changes
    seen: set[str] = set()
    out = []
    for number in numbers:
        story = _story(report, info, number)
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
    for number in gist_numbers(report, info):
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


SINCE_SHOWN = 8  # landed work told in the full report; the rest by number


def _since(report: Report, lang: str) -> Section | None:
    """Since last time: work a published report featured before that has since merged, been
    closed or been reverted, each with the day it was first featured and its state then."""
    found = report.continuity
    if found is None or not found.since:
        return None
    entries = tuple(_landed_entry(report, entry, lang) for entry in found.since[:SINCE_SHOWN])
    rest: Line | None = None
    more = [entry.number for entry in found.since[SINCE_SHOWN:]]
    if more:
        rest = (Our(w.text(lang, "more_stories", n=len(more), refs="").rstrip()),)
        rest += tuple(_refs(report, more, lang, lead_space=True, make=_since_ref))
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
            _zh_title(item),
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


NEWS = frozenset({"revert", "reverted", "reland", "replacement"})  # relations a headline says


def _newsworthy(story: Story, number: int) -> bool:
    return story.lead == number and any(m.relation in NEWS for m in story.members)


def _vendor_leads(info: Sections, old: frozenset[int] = frozenset()) -> list[int]:
    """The weightiest live story of the first vendor with items and of the busiest other
    (a story led by old news left out)."""
    present = [v.key for v in info.catalog.vendors if v.key in info.topics]
    if not present:
        return []
    others = sorted(present[1:], key=lambda k: -len(info.topics[k].stories))
    leads = []
    for key in [present[0], *others[:1]]:
        section = info.topics[key]
        live = [s for b in ("merged", "review", "new") for s in section.buckets.get(b, ())]
        live = [s for s in live if info.story(s).lead not in old]
        if live:
            best = max(live, key=lambda s: info.weights.get(info.story(s).lead, 0.0))
            leads.append(info.story(best).lead)
    return leads


VENDOR_LINES = 4


def _vendor_lines(sections: Sequence[Section], topic: str | None, lang: str) -> tuple[str, ...]:
    """Counts by bucket in one line each: a digest's topic, else the busiest vendors (a
    vendor with one item never pushes out one with nine; ties keep the vendors' order)."""
    found: list[tuple[int, int, str]] = []
    for section in sections:
        if section.key != topic and (topic is not None or section.kind != "vendor"):
            continue
        line = topic_line(section, lang)
        if line is not None:
            busy = sum(b.total for b in section.detail or section.blocks if b.key in BUCKET_ORDER)
            found.append((-busy, len(found), line))
    return tuple(line for _, _, line in sorted(found)[:VENDOR_LINES])


def _plugins_line(report: Report, lang: str) -> str | None:
    """The Plugins section in a line after the vendors' (a topic's report has none)."""
    if report.radar is None or report.topic is not None:
        return None
    from formatters.radar_outline import headline_line

    return headline_line(report.radar, lang)


def topic_line(section: Section, lang: str, *, named: bool = True) -> str | None:
    """A topic's counts by bucket in one line ("AMD / ROCm: 11 merged · 14 in review");
    not `named` under its own heading ("11 merged · 14 in review")."""
    blocks = section.detail or section.blocks
    counts = [
        w.count_word(lang, b.key, b.total) for b in blocks if b.key in BUCKET_ORDER and b.total
    ]
    if not counts:
        return None
    if not named:
        return w.SEP[lang].join(counts)
    return w.text(lang, "vendor_line", name=section.name, counts=w.SEP[lang].join(counts))


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
    "LOGIN_LIMIT",
    "SECTIONS",
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
