"""One entry of a report outline: an item's head line (its link, title, state, author),
what it says and why it matters, its story's members, and the head line of a later
mention. Every section of formatters.outline is built of these.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from bot.model.outline_parts import (
    LOGIN_LIMIT,
    WHAT_LIMIT,
    Block,
    Entry,
    Line,
    Our,
    Part,
    Ref,
    Theirs,
)
from bot.model.report import ActivityItem, Featured, Report, Sections, Story
from bot.model.states import state_key
from formatters import wording as w
from formatters._text import item_url
from formatters.explanations import kind_label
from formatters.gloss_zh import gloss, pieces
from formatters.why import QUOTE_LIMIT, Facts, why_line


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


def state_at(item: ActivityItem, lang: str, end: datetime | None = None) -> str:
    return w.STATES[lang][state_key(as_of(item, end) if end is not None else item)]


def state_of(report: Report, number: int, lang: str) -> str:
    """An item's state as the window ended; an open PR long in review says which day of
    its review this is (a report with a past only: bot.analyze.continuity)."""
    days = report.continuity.review_days.get(number) if report.continuity else None
    if days:
        return w.text(lang, "review_day", n=days)
    return state_at(report.item(number), lang, report.window.end)


def featured_before(report: Report, number: int) -> Featured | None:
    """When a published report first featured the item, and its state then."""
    return report.continuity.past.get(number) if report.continuity else None


# The Chinese edition says a title's tags in Chinese (【修复】) and quotes the rest of the
# title whole, as the English edition does: a title cut short loses the name that ends it
# ("…and Wheel Releases for ROCm"). A later mention names the item by a short title.
_TAGS = re.compile(
    r"^(?:\s*[\[{][^\]}]{1,40}[\]}]\s*:?"
    r"|\s*(?:feat|fix|docs|perf|refactor|tests?|ci|chore|build)(?:\([^()]{1,30}\))?!?:\s)+\s*",
    re.I,
)
SHORT_TITLE = 72  # a later mention's title in Chinese: most whole, a long one cut at a word
HEAD_TITLE = 256  # GitHub's own maximum: a head line quotes a title whole


def shown_title(item: ActivityItem, lang: str) -> str:
    """The title as a head line quotes it: whole in English, its tags said apart in Chinese."""
    return item.title if lang == "en" else _TAGS.sub("", item.title) or item.title


def zh_title(item: ActivityItem) -> Theirs:
    shown = shown_title(item, "zh")
    return Theirs(shown, HEAD_TITLE)


def head(
    report: Report,
    number: int,
    lang: str,
    *,
    author: bool = True,
    state: str | None = None,
    title: Line | None = None,
) -> Line:
    """`#N title — state · author`; `title`: said in place of the item's own (the Chinese
    edition's whole gloss of it under a vendor's heading)."""
    item = report.item(number)
    if lang == "zh" and title is not None:
        info = report.sections
        label = kind_label(info.explained.get(number) if info is not None else None, lang)
        verb = "".join(p.text for p in title).removeprefix("拟").removeprefix("曾提议")
        if label and verb.startswith(label):
            label = None  # "修复 TPU 上的…" says its kind itself: not "【修复】修复 …"
        line: list[Part] = [ref(report, number), Our(f" 【{label}】" if label else " ")]
        line += [*unended(title), Our(" — ")]
    elif lang == "en":
        line = [ref(report, number), Our(" "), Theirs(item.title, HEAD_TITLE), Our(" — ")]
    else:  # its tags said in Chinese (【修复】), the rest of its title quoted, shorter
        info = report.sections
        label = kind_label(info.explained.get(number) if info is not None else None, lang)
        shown = zh_title(item)
        line = [ref(report, number), Our(f" 【{label}】" if label else " "), shown, Our(" — ")]
    line.append(Our(state or state_of(report, number, lang)))
    past = featured_before(report, number)
    if past is not None:
        line.append(Our(w.SEP[lang] + w.first_featured(lang, past.day, past.state)))
    if author and item.author:
        line += [Our(w.SEP[lang]), Theirs(item.author, LOGIN_LIMIT)]
    return tuple(line)


def unended(sentence: Line) -> Line:
    """A Chinese sentence said as a name: without its full stop."""
    last = sentence[-1]
    if isinstance(last, Our):
        return (*sentence[:-1], Our(last.text.rstrip("。")))
    return sentence


def again_head(report: Report, number: int, lang: str, *, state: str | None = None) -> Line | None:
    """A later mention's head line in Chinese: its number, its Chinese sentence (else a
    short title) and its state, where it was first told whole ("#37607 默认启用 tcmalloc —
    已合并（见上）", "#38139 Remove redundant device copies… — 审阅中（见上）")."""
    if lang == "en":
        return None
    state = state or state_of(report, number, lang)
    # A PR's Chinese sentence names it (the English title was given above); an issue's
    # says what was reported, which names no item: its title does.
    said = chinese_sentence(report, number) if report.item(number).kind == "pr" else None
    if said is not None:
        return (
            ref(report, number),
            Our(" "),
            *unended(said),
            Our(" — "),
            Our(state),
            Our("（见上）"),
        )
    short = Theirs(shown_title(report.item(number), lang), SHORT_TITLE)
    return (ref(report, number), Our(" "), short, Our(" — "), Our(state), Our("（见上）"))


def own_words(report: Report, number: int) -> Line | None:
    """The item's own line (not when it only repeats the title)."""
    said = report.sections.what.get(number, "") if report.sections is not None else ""
    if not said or _same_words(said, report.item(number).title):
        return None
    return (Theirs(said, WHAT_LIMIT),)


def model_note(report: Report, number: int, *, thread: bool = False) -> Line | None:
    """What a model added about the item (marked ✍️: of the thread for a discussion), after
    every sentence of it passed the checks; shown beside the facts, never instead."""
    prose = report.prose
    if prose is None:
        return None
    note = (prose.discussions.get(number) if thread else None) or prose.notes.get(number)
    return (Our("✍️ "), Theirs(note, 400)) if note else None


ZH_QUOTE = 80  # an English quote in the Chinese edition: the clause that adds, not a page


def description(
    report: Report,
    number: int,
    lang: str,
    *,
    thread: bool = False,
    links: bool = True,
    glossed: bool = False,
    featured: bool = False,
) -> list[Line]:
    """What an entry says under its head line: the item's own words, why it matters from
    the facts, then what a model added, beside them. `links`: false leaves out what it
    reverts or is reverted by (its story's line beside it names them).

    In Chinese, first a sentence of its own: its title glossed (formatters.gloss_zh;
    `glossed`: its head line says it already), then a model's checked translation of its
    own words when there is one. Then why it matters, in Chinese; an
    English quote of the author's only in a `featured` entry (What happened, the key
    changes, the notable issues) and only beside a Chinese sentence, cut to the clause a
    glance takes in: an English quote never stands alone, and the Chinese edition lists a
    vendor's work one Chinese line an item, as the reports it replaces do (the English
    edition quotes every line; a model's checked Chinese of a quote takes its place)."""
    said = own_words(report, number)
    if lang == "en":
        reason = why(report, number, lang, links=links)
        added = model_note(report, number, thread=thread)
        return [line for line in (said, reason, added) if line is not None]
    first = None if glossed else chinese_sentence(report, number)
    translated = model_part(report, number, "what")  # its own words in Chinese, beside
    featured = featured or _key_or_notable(report, number)  # told first where it stands
    quotes = featured and (first is not None or glossed or translated is not None)
    reason = why(report, number, lang, links=links, quotes=ZH_QUOTE if quotes else 0)
    quoted = reason is not None and any(
        isinstance(p, Theirs) and p.limit == ZH_QUOTE for p in reason
    )
    # A featured item whose reason is its own line (what its description says first) quotes
    # that line, where no translation says it in Chinese.
    own = (Our("原文：「"), Theirs(said[0].text, ZH_QUOTE), Our("」")) if said else None
    own = own if quotes and not quoted and translated is None else None
    thread_note = model_note(report, number, thread=True) if thread else None
    return [line for line in (first, translated, own, reason, thread_note) if line is not None]


def _key_or_notable(report: Report, number: int) -> bool:
    """A key change or a notable issue: featured, wherever the report tells it first."""
    info = report.sections
    if info is None:
        return False
    return any(k.number == number for k in info.key_changes) or any(
        n.number == number for n in info.notable_issues
    )


def chinese_sentence(report: Report, number: int, *, whole: bool = False) -> Line | None:
    """The item's title said as a Chinese sentence (formatters.gloss_zh), or None;
    `whole`: only one that says all its title says."""
    info = report.sections
    found = info.explained.get(number) if info is not None else None
    item = as_of(report.item(number), report.window.end)
    said = pieces(gloss(item, found, _state(item), whole=whole))
    return tuple(Theirs(t, HEAD_TITLE) if theirs else Our(t) for t, theirs in said) or None


def model_part(report: Report, number: int, part: str) -> Line | None:
    """A part of what a model wrote of the item in Chinese (`what`: its description
    translated; `why`: its quoted reason translated), after it passed its checks; marked ✍️."""
    prose = report.prose
    parts = prose.parts.get(number, {}) if prose is not None else {}
    said = parts.get(part)
    return (Our("✍️ "), Theirs(said, 400)) if said else None


def why(
    report: Report, number: int, lang: str, *, links: bool = True, quotes: int = QUOTE_LIMIT
) -> Line | None:
    """Why the item matters, from the facts (bot.analyze.explain), in the reader's
    language; None when no fact the title does not give says why."""
    info = report.sections
    found = info.explained.get(number) if info is not None else None
    if info is None or found is None:
        return None
    item = as_of(report.item(number), report.window.end)

    def other(n: int) -> ActivityItem | None:
        return report.item(n) if known(report, n) else None

    def state(n: int) -> str:
        return state_of(report, n, lang) if known(report, n) else ""

    def link(n: int) -> Ref:  # an item the report does not hold: GitHub redirects either way
        return ref(report, n) if known(report, n) else Ref(n, item_url(report.repo, "pr", n))

    def merged(n: int) -> bool:
        return known(report, n) and as_of(report.item(n), report.window.end).merged_at is not None

    facts = Facts(other, state, link, merged)
    translated = model_part(report, number, "why") if lang == "zh" else None
    return why_line(
        found,
        item.title,
        _state(item),
        lang,
        facts,
        links=links,
        effect_zh=translated[-1].text if translated else None,
        quotes=quotes,
    )


def _state(item: ActivityItem) -> str:
    """merged, open or closed, of an item as it stood when the window ended (`as_of`)."""
    if item.merged_at is not None:
        return "merged"
    return "closed" if item.closed_at is not None else "open"


def _same_words(said: str, title: str) -> bool:
    words = set(re.findall(r"\w+", said.lower()))
    return words <= set(re.findall(r"\w+", title.lower())) | {"this", "pr", "the", "a"}


def members_line(
    report: Report, story: Story, lang: str, skip: frozenset[int] = frozenset()
) -> Line | None:
    """`follow-up #38263 (merged) · fixes #36703 (open), #36704 (open)`: one group per word;
    `skip`: members the lines above name already (the why line's fixed issue)."""
    groups: dict[str, list[int]] = {}
    for member in story.members:
        if member.number in skip:
            continue
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
            said = state_of(report, number, lang)
            line += [ref(report, number), Our(w.parens(lang, said))]
    return tuple(line)


def story_entry(
    report: Report,
    story: Story,
    lang: str,
    *,
    state: str | None = None,
    again: tuple[Line, ...] = (),
    glossed: bool = False,
    featured: bool = False,
) -> Entry:
    """A story told by its lead (a story told from another member: `Story.led_by`): its own
    words, why it matters, its story's members. `again`: what a later mention keeps;
    `glossed`: in Chinese, the head says a title the gloss says whole in Chinese (as the
    reports we replace list a vendor's work), the English title staying in the appendix."""
    number = story.lead
    title = chinese_sentence(report, number, whole=True) if glossed and lang == "zh" else None
    lines = description(
        report,
        number,
        lang,
        links=not story.members,
        glossed=title is not None,
        featured=featured,
    )
    named = frozenset(p.number for line in lines for p in line if isinstance(p, Ref))
    members = members_line(report, story, lang, skip=named)
    if members:
        lines.append(members)
    return Entry(
        head(report, number, lang, state=state, title=title),
        tuple(lines),
        number,
        again=again,
        members=members,
        covers=frozenset(story.numbers),
        again_head=again_head(report, number, lang, state=state),
    )


def story_of(report: Report, info: Sections, number: int) -> Story:
    found = info.story_of(number)
    return found if found is not None else Story(f"s{number}", number, (number,), (), ())


def refs(
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


def known(report: Report, number: int) -> bool:
    return number in report.items or number in report.context


def block_or_nothing(entries: Sequence[Entry], lang: str, style: str) -> Block:
    if entries:
        return Block(None, tuple(entries), style)
    return Block(None, (Entry((Our(w.text(lang, "nothing")),)),), "nothing")
