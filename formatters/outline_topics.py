"""A topic's section of the outline (a vendor such as AMD / ROCm, or a subject): its
stories bucket by bucket (merged, in review, new, done, closed) with every counted item
visible, the brief form another vendor gets, and the one-line counts the first message
shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.model.outline_parts import Block, Columns, Entry, Line, Number, Our, Part, Section
from bot.model.report import Report, Sections, Story, TopicSection
from formatters import outline_entries as oe
from formatters import wording as w
from formatters.explanations import kind_label, overview

# Stories shown per bucket of a topic in the full report (the rest are listed by number):
# the first vendor and a topic asked for on their own in detail, the other vendors briefly.
BUCKET_SHOWN = {"merged": 5, "review": 5, "new": 3, "done": 2, "closed": 2}
OTHER_VENDOR_SHOWN = {"merged": 3, "review": 2, "new": 1, "done": 1, "closed": 1}
BUCKET_ORDER = ("merged", "review", "new", "done", "closed")


def topic_section(
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
        folded += oe.refs(report, section.stale, lang, lead_space=True)
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
    mine = _topic_members(section)
    if story.lead in mine:
        return oe.story_entry(report, story, lang, glossed=True)
    own = [n for n in story.numbers if n in mine]
    head = max(own, key=lambda n: (info.weights.get(n, 0.0), -n))
    return oe.story_entry(report, story.led_by(head), lang, glossed=True)


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
        line += oe.refs(report, told, lang, lead_space=True)
    return tuple(line)


def _grouped_refs(report: Report, groups: Sequence[Sequence[int]], lang: str) -> list[Part]:
    """`#a (fix), #b (bug; +#c, #d)`: each group's first item with its kind of work, its
    other items in the same brackets."""
    info = report.sections
    line: list[Part] = []
    for index, group in enumerate(groups):
        if index:
            line.append(Our(w.LIST_SEP[lang]))
        line.append(oe.ref(report, group[0]))
        found = info.explained.get(group[0]) if info is not None else None
        label = kind_label(found, lang)
        inside: list[Part] = [Our(label)] if label else []
        if len(group) > 1:
            inside.append(Our(("；" if lang == "zh" else "; ") if label else ""))
            inside.append(Our("+"))
            for position, number in enumerate(group[1:]):
                inside += [Our(w.LIST_SEP[lang]) if position else Our(""), oe.ref(report, number)]
        if inside:
            line += [
                Our("（" if lang == "zh" else " ("),
                *inside,
                Our("）" if lang == "zh" else ")"),
            ]
    return line


def vendor_leads(info: Sections, old: frozenset[int] = frozenset()) -> list[int]:
    """The weightiest live story of the first vendor with items and of the busiest other
    (a story led by old news left out): a vendor's key change first, as the key changes
    rank them (one ranking for every list), else its weightiest story."""
    present = [v.key for v in info.catalog.vendors if v.key in info.topics]
    if not present:
        return []
    others = sorted(present[1:], key=lambda k: -len(info.topics[k].stories))
    rank = {k.number: i for i, k in enumerate(info.key_changes)}
    leads = []
    for key in [present[0], *others[:1]]:
        section = info.topics[key]
        live = [s for b in ("merged", "review", "new") for s in section.buckets.get(b, ())]
        live = [s for s in live if info.story(s).lead not in old]
        if live:
            best = min(
                live,
                key=lambda s: (
                    rank.get(info.story(s).lead, len(rank)),
                    -info.weights.get(info.story(s).lead, 0.0),
                ),
            )
            leads.append(info.story(best).lead)
    return leads


VENDOR_LINES = 4


def vendor_lines(sections: Sequence[Section], topic: str | None, lang: str) -> tuple[str, ...]:
    """Counts by bucket in one line each: a digest's topic, else the busiest vendors (a
    vendor with one item never pushes out one with nine; ties keep the vendors' order)."""
    return tuple(line for _, line in _busiest(sections, topic, lang))


def vendor_table(sections: Sequence[Section], topic: str | None, lang: str) -> Block | None:
    """The same counts as a table, a row per line of `vendor_lines` (its entries' heads are
    those lines): the vendor, then each bucket any of them has, as figures."""
    shown = _busiest(sections, topic, lang)
    if not shown:
        return None
    totals = [_totals(section) for section, _ in shown]
    keys = [key for key in BUCKET_ORDER if any(t.get(key) for t in totals)]
    names = (w.text(lang, "col_vendor"), *(w.text(lang, f"col_{key}") for key in keys))
    entries = tuple(
        Entry(
            (Our(line),),
            cells=(
                (Our(section.name),),
                *(Number(t.get(key, 0), str(t.get(key, 0))) for key in keys),
            ),
        )
        for (section, line), t in zip(shown, totals, strict=True)
    )
    return Block(None, entries, "list", columns=Columns(w.text(lang, "vendor_table"), names))


def _busiest(
    sections: Sequence[Section], topic: str | None, lang: str
) -> list[tuple[Section, str]]:
    found: list[tuple[int, int, Section, str]] = []
    for section in sections:
        if section.key != topic and (topic is not None or section.kind != "vendor"):
            continue
        line = topic_line(section, lang)
        if line is not None:
            busy = sum(_totals(section).values())
            found.append((-busy, len(found), section, line))
    return [(section, line) for _, _, section, line in sorted(found)[:VENDOR_LINES]]


def _totals(section: Section) -> dict[str, int]:
    return {b.key: b.total for b in section.detail or section.blocks if b.key in BUCKET_ORDER}


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
