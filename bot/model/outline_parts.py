"""The outline's parts: what a line, an entry, a block, a section and a whole outline are.

A line is a sequence of parts: `Our` text (our words and figures), `Theirs` (a stranger's
text: titles, logins, descriptions; each renderer cleans and escapes it) and `Ref` (a link
to an item, built from the repository and number, never taken from item data). The
outline (formatters.outline), its chat parts (formatters.chat_outline) and the review
queue's section (bot.features.queue.outline) are made of these; every renderer draws them.

A block whose entries read better as a table's rows also names its `Columns`, and each of
its entries gives its `cells` (a line, a `Number` or a `Moment` each): a platform that
draws tables (Slack's data_table) draws those, every other renderer the entries' lines,
which say the same; an entry's sub-lines are drawn under the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

TITLE_LIMIT = 100
WHAT_LIMIT = 200
LOGIN_LIMIT = 39  # GitHub's own maximum


@dataclass(frozen=True)
class Our:
    text: str


@dataclass(frozen=True)
class Theirs:
    text: str
    limit: int = TITLE_LIMIT


@dataclass(frozen=True)
class Ref:
    number: int
    url: str
    repo: str = ""  # another repository's item (a plugin's fix): `vllm-gaudi#285`

    @property
    def text(self) -> str:
        return f"{self.repo}#{self.number}"


Part = Our | Theirs | Ref
Line = tuple[Part, ...]


@dataclass(frozen=True)
class Number:
    """A figure in a table's cell: its value (what the table sorts by) and how it reads."""

    value: float
    text: str


@dataclass(frozen=True)
class Moment:
    """A moment in a table's cell: when (a platform may show it in each reader's time zone)
    and how it reads in the report's."""

    at: datetime
    text: str


Cell = Line | Number | Moment


@dataclass(frozen=True)
class Columns:
    """A block's entries as a table: its caption and its columns' names, each entry's
    `cells` one per column (the first names the row)."""

    caption: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """One story or item: its head line and sub-lines (its own words, members, why)."""

    head: Line
    lines: tuple[Line, ...] = ()
    number: int | None = None  # the item the entry is about
    covers: frozenset[int] = frozenset()  # the items it shows: its story's, members included
    # What a later mention of the same item keeps (a key change's facts, a thread's
    # figures): its own words were said where it first appeared.
    again: tuple[Line, ...] = ()
    members: Line | None = None  # its story's members, said once (the gist shows none)
    # Its head line for a later mention, when shorter than `head` (the Chinese edition
    # quotes an English title once: "#38139 — 审阅中（见上）").
    again_head: Line | None = None
    cells: tuple[Cell, ...] = ()  # its row, when its block has `columns`


@dataclass(frozen=True)
class Block:
    heading: str | None = None
    entries: tuple[Entry, ...] = ()
    style: str = "list"  # list, numbered, text (paragraphs), nothing (a placeholder)
    rest: Line | None = None  # "+12 more: #a, #b" or "+12 more in the full report"
    key: str = ""  # a topic's bucket: merged, review, new, done, closed
    total: int = 0  # the items the block's figure counts, shown or not
    items: frozenset[int] = frozenset()  # which items those are (a topic's bucket)
    columns: Columns | None = None  # its entries as a table's rows (their `cells`)

    @property
    def table(self) -> bool:
        """Whether the block can be drawn as a table: columns, and a full row per entry."""
        width = len(self.columns.names) if self.columns else 0
        return bool(width and self.entries) and all(len(e.cells) == width for e in self.entries)


@dataclass(frozen=True)
class Section:
    key: str  # summary, a topic key, hot, key, trends, activity, notable, appendix
    title: str
    blocks: tuple[Block, ...]
    kind: str = "section"  # or "vendor", "topic"
    name: str = ""  # a topic's own name (the title without its emoji and wording)
    # A vendor told briefly in the full report (its top stories and the rest by number)
    # keeps its bucket by bucket blocks here, for when it is asked for on its own.
    detail: tuple[Block, ...] = ()
    # A feature's section as its chat reply, when the feature caps it its own way (the
    # radar's and Red on main's "+N more" name their own commands).
    reply: tuple[Block, ...] | None = None

    def in_detail(self) -> Section:
        """The section as it reads when asked for on its own (a digest, `--section nvidia`)."""
        return replace(self, blocks=self.detail, detail=()) if self.detail else self


@dataclass(frozen=True)
class Outline:
    title: str
    window: str
    counts: tuple[tuple[str, str], ...]
    warning: str | None
    vendors: tuple[str, ...]  # "AMD / ROCm: 11 merged · 14 in review · 2 new", vendors first
    gist: tuple[Entry, ...]
    sections: tuple[Section, ...]
    notes: tuple[str, ...]
    footer: str
    link: str | None
    lang: str
    label: str = ""  # the window's label, for the command that shows more
    marks: tuple[str, ...] = ()  # each feature's line after the vendors' ("🔌 …", "🚦 …")
    replies: tuple[str, ...] = ()  # the features' daily replies, in their chat order
    quiet_replies: tuple[str, ...] = ()  # the features' replies after a quiet headline
    # A quiet day's one message: this sentence ("Quiet day: 3 PRs opened, nothing merged")
    # instead of the counts, its gist every item, and no thread of replies.
    quiet: str | None = None
    # The vendors' counts as a table (a row per line of `vendors`), for a platform that
    # draws tables; the others draw `vendors`.
    vendor_table: Block | None = None

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)

    @property
    def alone(self) -> bool:
        """A quiet day's headline with no reply after it (nothing landed since last time, no
        plugin news): no thread to point to."""
        return self.quiet is not None and not any(
            self.section(key) is not None for key in ("since", *self.quiet_replies)
        )

    @property
    def body(self) -> tuple[Section, ...]:
        """The sections a full report shows: subject topics (quantization, multimodal …)
        are in the trends and on demand (`--section quantization`, a digest), not repeated
        in the body, where each item is told once."""
        return tuple(s for s in self.sections if s.kind != "topic")


@dataclass(frozen=True)
class ChatPart:
    """One chat message after the headline: its ledger name, title and blocks."""

    name: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class RowMarkup:
    """How one chat platform writes a block as text rows (the rows are the same on both)."""

    line: Callable[[Line], str]  # our text kept, strangers' escaped, links made
    heading: Callable[[str], str]  # a block's heading, escaped and emphasised
    rest: Callable[[str], str]  # the "+N more" line, already rendered
    indent: str  # before an entry's sub-lines


def rows(blocks: Sequence[Block], markup: RowMarkup) -> list[str]:
    """Blocks as chat rows: headings, bullets or numbers, sub-lines, "+N more"."""
    out: list[str] = []
    for block in blocks:
        if block.heading:
            out.append(markup.heading(block.heading))
        for index, entry in enumerate(block.entries, 1):
            marker = {"numbered": f"{index}. ", "list": "• "}.get(block.style, "")
            out.append(marker + markup.line(entry.head))
            out += [markup.indent + markup.line(sub) for sub in entry.lines]
        if block.rest:
            out.append(markup.rest(markup.line(block.rest)))
    return out


def fit_rows(
    rows: Sequence[str], budget: int, notice: Callable[[int], str], max_rows: int | None = None
) -> list[str]:
    """The rows that fit `budget` characters (and `max_rows`), then `notice(hidden)` saying
    how many did not: the same cut on every platform, only the notice's markup differs."""
    kept: list[str] = []
    used = 0
    for row in rows:
        if used + len(row) + 1 > budget or (max_rows is not None and len(kept) >= max_rows):
            kept.append(notice(len(rows) - len(kept)))
            break
        kept.append(row)
        used += len(row) + 1
    return kept


@dataclass(frozen=True)
class OneMessage:
    """A one-message digest before a platform draws it (the review queue, a personal
    digest, Red on main's answer): its title, context line and section, and the event a
    platform that carries metadata (Slack) tags it with."""

    title: str
    context: str
    section: Section
    event_type: str
    payload: dict[str, str]
