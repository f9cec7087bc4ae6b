"""One entry of a report outline: an item's head line (its link, title, state, author),
what it says and why it matters, its story's members, and the head line of a later
mention. Every section of formatters.outline is built of these.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from bot.model.report import ActivityItem, Featured, Report, Sections, Story
from bot.model.states import state_key
from formatters import wording as w
from formatters._text import item_url, truncate
from formatters.explanations import explanation_pieces, kind_label
from formatters.outline_parts import (
    LOGIN_LIMIT,
    TITLE_LIMIT,
    WHAT_LIMIT,
    Block,
    Entry,
    Line,
    Our,
    Part,
    Ref,
    Theirs,
)


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


def shown_title(item: ActivityItem, lang: str) -> str:
    """The title as a head line quotes it: whole in English, its tags said apart in Chinese."""
    return item.title if lang == "en" else _TAGS.sub("", item.title)


def title_limit(title: str, lang: str) -> int:
    """How much of the shown title a head line quotes."""
    if lang == "en":
        return TITLE_LIMIT
    return len(title) if len(title) <= ZH_TITLE_WHOLE else ZH_TITLE_LIMIT


def zh_title(item: ActivityItem) -> Theirs:
    shown = shown_title(item, "zh")
    return Theirs(shown, title_limit(shown, "zh"))


def head(
    report: Report, number: int, lang: str, *, author: bool = True, state: str | None = None
) -> Line:
    item = report.item(number)
    if lang == "en":
        line: list[Part] = [ref(report, number), Our(" "), Theirs(item.title), Our(" — ")]
    else:  # its tags said in Chinese (【修复】), the rest of its title quoted, shorter
        info = report.sections
        label = kind_label(info.explained.get(number) if info is not None else None, lang)
        title = zh_title(item)
        line = [ref(report, number), Our(f" 【{label}】" if label else " "), title, Our(" — ")]
    line.append(Our(state or state_of(report, number, lang)))
    past = featured_before(report, number)
    if past is not None:
        line.append(Our(w.SEP[lang] + w.first_featured(lang, past.day, past.state)))
    if author and item.author:
        line += [Our(w.SEP[lang]), Theirs(item.author, LOGIN_LIMIT)]
    return tuple(line)


def again_head(report: Report, number: int, lang: str, *, state: str | None = None) -> Line | None:
    """A later mention's head line in Chinese: its number and state, where it was first told
    with its title and author ("#38139 — 审阅中（见上）"): English named once is enough."""
    if lang == "en":
        return None
    state = state or state_of(report, number, lang)
    return (ref(report, number), Our(" — "), Our(state), Our("（见上）"))


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


def description(
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
        said = own_words(report, number)
    else:
        said = explained(report, number, lang, links=links, beside=beside)
    added = model_note(report, number, thread=thread)
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
        return state_of(report, n, lang)

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
        seen=truncate(shown := shown_title(report.item(number), lang), title_limit(shown, lang)),
    )
    if not pieces:
        return None
    return tuple(ref(report, p) if isinstance(p, int) else Our(p) for p in pieces)


def _same_words(said: str, title: str) -> bool:
    words = set(re.findall(r"\w+", said.lower()))
    return words <= set(re.findall(r"\w+", title.lower())) | {"this", "pr", "the", "a"}


def members_line(report: Report, story: Story, lang: str) -> Line | None:
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
            said = state_of(report, number, lang)
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
        lines = description(report, number, lang, beside=beside, links=not story.members)
    else:  # what `extra` says is the Chinese description
        lines = [line for line in [model_note(report, number)] if line is not None]
    lines += [extra] if extra is not None else []
    members = members_line(report, story, lang)
    if members:
        lines.append(members)
    again = (extra,) if extra else ()
    return Entry(
        head(report, number, lang, state=state),
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
