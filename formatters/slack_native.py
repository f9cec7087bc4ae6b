"""Slack's own elements for what the outline says: lines as `rich_text` (bold, italic, code
and links as styles, never mrkdwn punctuation), a block with columns as a `data_table`, a
chart's numbers as a `data_visualization`; each within Slack's documented limits, each with
its fallback.

Why rich_text: in mrkdwn a marker (`*`, `_`, `~`) counts only with a boundary outside it, and
Slack reads Chinese, Japanese and Korean characters as word characters, so `*新 Issue*` and
`_另有 8 项_` show their asterisks and underscores as punctuation (platform-facts §6). A
rich_text element carries its style as data and its text as typed: nothing in a stranger's
title is read as markup or as a mention, so it is not escaped either.

A reply is drawn as rows (a paragraph, a list item, or a table standing as its own block),
each knowing its size in characters shown, so a message is cut by the same budget as before;
a table that does not fit what is left is drawn as its lines instead. Rows are then packed
into rich_text blocks of at most `RICH_TEXT_LIMIT` characters.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.model import outline_parts as ol
from formatters._text import clean, truncate

# Slack's limits on the blocks drawn here: docs.slack.dev's Block Kit reference, as read in
# ../shared/facts/platform-facts.md §6 (data_table, data_visualization).
# data_table (https://docs.slack.dev/reference/block-kit/blocks/data-table-block): at least
# 2 and at most 101 rows (100 and the header), every row as many cells as the header; cells
# raw_text, raw_number or rich_text (not in the header); page_size 1–100; caption required.
TABLE_MIN_ROWS = 2
TABLE_MAX_ROWS = 101
TABLE_BODY_MAX = TABLE_MAX_ROWS - 1  # a longer table is split into tables of this many rows
PAGE_SIZE_MIN, PAGE_SIZE_MAX = 1, 100
PAGE_SIZE = 10  # rows shown before Slack pages the table: a chat reply holds five or so
TABLE_MIN_ENTRIES = 2  # ours, not Slack's: one row reads better as its line
CELL_TYPES = ("raw_text", "raw_number", "rich_text")
# data_visualization (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-
# block): bar, line, area or pie; at most 6 series (a pie: 6 segments); title at most 50
# characters. A series' name, a category and a data point's label at most 20 characters, and
# at most 20 data points a series, as the reference's Data Series and Axis Config tables give
# them (read through the slack-messaging crate's validation table; not in the facts file).
CHART_TYPES = ("bar", "line", "area", "pie")
CHART_SERIES_MAX = 6
CHART_TITLE_LIMIT = 50
CHART_LABEL_LIMIT = 20
CHART_POINTS_MAX = 20
# rich_text has no documented limit of its own (platform-facts §1.1): its blocks are kept to
# a section's 3,000 characters shown, and the message to the budget slack_blocks keeps.
RICH_TEXT_LIMIT = 3000

_CODE = re.compile(r"`([^`\n]+)`")
Element = dict[str, Any]


@dataclass(frozen=True)
class Row:
    """One row of a message: a paragraph, a list item (its list's style and depth, an
    ordered item's number), or a block of its own (`block`: a table, the rows that follow
    it, `details`, and the rows it is drawn as instead when it does not fit, `lines`);
    `size` is the characters it carries."""

    elements: tuple[Element, ...] = ()
    style: str | None = None  # None: a paragraph; "bullet", "ordered"
    indent: int = 0
    number: int = 1
    block: Element | None = None
    lines: tuple[Row, ...] = ()
    details: tuple[Row, ...] = ()  # a table's: its entries' sub-lines, drawn after it
    size: int = 0
    fallback: tuple[str, ...] = ()  # what a native block says, in plain lines


# -- inline elements ---------------------------------------------------------------------------


def text(value: str, **style: bool) -> list[Element]:
    """Text as rich_text elements: code spans (`x`) as code, the rest in `style`."""
    out: list[Element] = []
    at = 0
    for match in _CODE.finditer(value):
        out += _text(value[at : match.start()], style)
        out += _text(match.group(1), {**style, "code": True})
        at = match.end()
    return out + _text(value[at:], style)


def _text(value: str, style: dict[str, bool]) -> list[Element]:
    if not value:
        return []
    element: Element = {"type": "text", "text": value}
    if style:
        element["style"] = dict(style)
    return [element]


def inline(line: ol.Line, **style: bool) -> list[Element]:
    """A line's parts as rich_text elements: our words, a stranger's text cleaned (never
    read as markup: nothing to escape), links we built."""
    out: list[Element] = []
    for part in line:
        if isinstance(part, ol.Ref):
            link: Element = {"type": "link", "url": part.url, "text": part.text}
            if style:
                link["style"] = dict(style)
            out.append(link)
        elif isinstance(part, ol.Theirs):
            out += text(clean(part.text, part.limit), **style)
        else:
            out += text(part.text, **style)
    return merged(out)


def merged(elements: list[Element]) -> list[Element]:
    """Neighbouring text elements of one style as one."""
    out: list[Element] = []
    for element in elements:
        last = out[-1] if out else None
        if (
            last is not None
            and element["type"] == last["type"] == "text"
            and element.get("style") == last.get("style")
        ):
            out[-1] = {**last, "text": last["text"] + element["text"]}
        else:
            out.append(element)
    return out


def plain(line: ol.Line) -> str:
    """A line as plain text (links as their `#123`): a fallback's words."""
    out = []
    for part in line:
        if isinstance(part, ol.Theirs):
            out.append(clean(part.text, part.limit))
        else:
            out.append(part.text)
    return "".join(out)


def shown(elements: Iterable[Element]) -> int:
    """The characters rich_text elements carry: what they show, and a link's URL (mrkdwn
    counted it inside the text; what Slack counts of a message's blocks is not documented,
    so the budget counts it still)."""
    return sum(
        len(str(e.get("text") or e.get("fallback") or "")) + len(str(e.get("url") or ""))
        for e in elements
    )


_CARRIED = frozenset({"text", "caption", "title", "url", "fallback", "name", "label"})


def carried(value: Any, key: str = "") -> int:
    """The characters of text blocks carry (texts, captions, titles, URLs, labels): what a
    message is measured by against Slack's undocumented total."""
    if isinstance(value, dict):
        return sum(carried(v, k) for k, v in value.items())
    if isinstance(value, list):
        return sum(carried(v, key) for v in value)
    return len(value) if isinstance(value, str) and key in _CARRIED else 0


def section(elements: Sequence[Element]) -> Element:
    return {"type": "rich_text_section", "elements": list(elements)}


def rich_text(elements: Sequence[Element]) -> Element:
    """A rich_text block holding one paragraph."""
    return {"type": "rich_text", "elements": [section(elements)]}


# -- rows -----------------------------------------------------------------------------------------


def paragraph(elements: Sequence[Element]) -> Row:
    return Row(tuple(elements), size=shown(elements) + 1)


def block_rows(blocks: Sequence[ol.Block]) -> list[Row]:
    """The outline's blocks as rows: a heading in bold, entries as bullets, numbers or
    paragraphs with their sub-lines one level in, the "+N more" line in italics; a block
    with columns as tables (each entry's sub-lines under them), each with the lines it is
    drawn as when it does not fit."""
    rows: list[Row] = []
    for block in blocks:
        if block.heading:
            rows.append(paragraph(text(block.heading, bold=True)))
        rows += table_rows(block) if tabled(block) else entry_rows(block)
        if block.rest:
            rows.append(paragraph(inline(block.rest, italic=True)))
    return rows


def tabled(block: ol.Block) -> bool:
    """Whether a block is drawn as a table: whole rows, and more than one."""
    return block.table and len(block.entries) >= TABLE_MIN_ENTRIES


def entry_rows(block: ol.Block, first: int = 1) -> list[Row]:
    """A block's entries as lines (what every other renderer draws), numbered from
    `first`."""
    style = {"list": "bullet", "numbered": "ordered"}.get(block.style)
    rows = []
    for number, entry in enumerate(block.entries, first):
        head = inline(entry.head)
        rows.append(Row(tuple(head), style, 0, number, size=shown(head) + 3))
        rows += [_sub(sub) for sub in entry.lines]
    return rows


def _sub(line: ol.Line) -> Row:
    elements = inline(line)
    return Row(tuple(elements), "bullet", 1, size=shown(elements) + 8)


def table_rows(block: ol.Block) -> list[Row]:
    """A block with columns as tables of at most 100 rows, each followed by its entries'
    sub-lines under the name of their row (the first cell) in bold, and holding the lines
    its entries are drawn as instead when it does not fit the message."""
    columns = block.columns
    if columns is None:
        return entry_rows(block)
    entries = block.entries
    chunks = [entries[i : i + TABLE_BODY_MAX] for i in range(0, len(entries), TABLE_BODY_MAX)]
    marker = "{}. " if block.style == "numbered" else "• "
    rows: list[Row] = []
    for index, chunk in enumerate(chunks, 1):
        caption = columns.caption + (f" ({index}/{len(chunks)})" if len(chunks) > 1 else "")
        table = data_table(caption, columns.names, [e.cells for e in chunk])
        first = (index - 1) * TABLE_BODY_MAX + 1
        part = replace(block, entries=chunk)
        said = tuple(marker.format(number) + plain(e.head) for number, e in enumerate(chunk, first))
        rows.append(
            Row(
                block=table,
                lines=tuple(entry_rows(part, first)),
                details=tuple(_details(chunk)),
                size=carried(table),
                fallback=said,
            )
        )
    return rows


def _details(entries: Sequence[ol.Entry]) -> list[Row]:
    rows: list[Row] = []
    for entry in entries:
        if entry.lines:
            key = entry.cells[0]
            name = plain(key) if isinstance(key, tuple) else key.text
            head = text(name, bold=True)
            rows.append(Row(tuple(head), "bullet", 0, size=shown(head) + 3))
            rows += [_sub(sub) for sub in entry.lines]
    return rows


def fit(rows: Sequence[Row], budget: int, notice: Any) -> list[Row]:
    """The rows that fit `budget` characters, then `notice(hidden)` (a row) saying how many
    lines did not; a table that does not fit what is left is drawn as its lines instead."""
    kept: list[Row] = []
    used = 0
    queue = list(rows)
    while queue:
        row = queue.pop(0)
        if row.block is not None and used + row.size > budget and row.lines:
            queue[:0] = list(row.lines)  # its lines say what it would have (its sub-lines too)
            continue
        if used + row.size > budget:
            hidden = sum(len(r.fallback) if r.block is not None else 1 for r in [row, *queue])
            kept.append(notice(hidden))
            break
        if row.details:  # a table kept: its entries' sub-lines come next, cut like any
            queue[:0] = list(row.details)
            row = replace(row, details=())
        kept.append(row)
        used += row.size
    return kept


def pack(rows: Sequence[Row]) -> list[tuple[Element, int]]:
    """Rows as blocks with the characters each shows: rich_text blocks of at most
    RICH_TEXT_LIMIT characters (a list's neighbouring items in one list, an ordered list
    numbered on across an interruption), a table as its own block."""
    out: list[tuple[Element, int]] = []
    current: list[Row] = []
    used = 0

    def flush() -> None:
        nonlocal current, used
        if current:
            out.append((_rich(current), used))
        current, used = [], 0

    for row in _expanded(rows):
        if row.block is not None:
            flush()
            out.append((row.block, row.size))
            continue
        if current and used + row.size > RICH_TEXT_LIMIT:
            flush()
        current.append(row)
        used += row.size
    flush()
    return out


def _expanded(rows: Sequence[Row]) -> list[Row]:
    """Rows with each table's details after it (`fit` has placed them already)."""
    return [r for row in rows for r in (replace(row, details=()), *row.details)]


def _rich(rows: Sequence[Row]) -> Element:
    elements: list[Element] = []
    for row in rows:
        last = elements[-1] if elements else None
        if row.style is None:
            if last is not None and last["type"] == "rich_text_section":
                last["elements"] = merged([*last["elements"], *_text("\n", {}), *row.elements])
            else:
                elements.append(section(row.elements))
            continue
        same = (
            last is not None
            and last["type"] == "rich_text_list"
            and last["style"] == row.style
            and last["indent"] == row.indent
        )
        if same and last is not None:
            last["elements"].append(section(row.elements))
            continue
        listed: Element = {
            "type": "rich_text_list",
            "style": row.style,
            "indent": row.indent,
            "elements": [section(row.elements)],
        }
        if row.style == "ordered" and row.number > 1:
            listed["offset"] = row.number - 1
        elements.append(listed)
    return {"type": "rich_text", "elements": elements}


# -- data_table -----------------------------------------------------------------------------------


def data_table(caption: str, names: Sequence[str], rows: Sequence[Sequence[ol.Cell]]) -> Element:
    """A data_table: the header (raw_text: no rich_text in a header), then a row per entry;
    figures as raw_number (the column sorts as numbers), moments as a date (each reader's
    time zone), lines with links as rich_text, other lines as raw_text."""
    if not TABLE_MIN_ROWS <= len(rows) + 1 <= TABLE_MAX_ROWS:
        raise ValueError(f"a data_table holds 1 to {TABLE_BODY_MAX} rows, not {len(rows)}")
    if any(len(row) != len(names) for row in rows):
        raise ValueError("every row of a data_table has a cell per column")
    header = [{"type": "raw_text", "text": name or "—"} for name in names]
    body = [[_cell(cell) for cell in row] for row in rows]
    page = max(PAGE_SIZE_MIN, min(len(body), PAGE_SIZE, PAGE_SIZE_MAX))
    return {
        "type": "data_table",
        "caption": caption or "—",
        "page_size": page,
        "rows": [header, *body],
    }


def _cell(cell: ol.Cell) -> Element:
    if isinstance(cell, ol.Number):
        value: int | float = int(cell.value) if float(cell.value).is_integer() else cell.value
        return {"type": "raw_number", "value": value, "text": cell.text or str(value)}
    if isinstance(cell, ol.Moment):
        date = {
            "type": "date",
            "timestamp": int(cell.at.timestamp()),
            "format": "{date_num} {time}",
            "fallback": cell.text,
        }
        return {"type": "rich_text", "elements": [section([date])]}
    if any(isinstance(part, ol.Ref) for part in cell):
        return {"type": "rich_text", "elements": [section(inline(cell))]}
    return {"type": "raw_text", "text": plain(cell) or "—"}


# -- data_visualization ---------------------------------------------------------------------------


def chart_blocks(
    title: str,
    days: Sequence[str],
    series: Sequence[tuple[str, Sequence[int | None]]],
    caption: str,
    day_word: str,
) -> list[Element]:
    """A line chart of `series` over `days` as a data_visualization, the days a series has
    no value for (not archived) left out, of the rest the last CHART_POINTS_MAX; more series than
    a chart holds: a data_table of the same figures instead (a row a day, `day_word` its
    first column, `caption` its caption). Nothing to draw: no block."""
    if not series:
        return []
    if len(series) > CHART_SERIES_MAX:
        shown_days = [i for i in range(len(days)) if any(v[i] is not None for _, v in series)]
        kept = shown_days[-CHART_POINTS_MAX:]
        names = [day_word, *(name for name, _ in series)]
        rows = [[(ol.Our(days[i]),), *(_figure(values[i]) for _, values in series)] for i in kept]
        return [data_table(caption, names, rows)] if rows else []
    # A day every series has a value for (they share their days: a day is archived or not),
    # so each series has a point for each category.
    kept = [i for i in range(len(days)) if all(v[i] is not None for _, v in series)]
    kept = kept[-CHART_POINTS_MAX:]
    if not kept:
        return []
    labels = [_label(days[i]) for i in kept]
    drawn = []
    for name, (_, values) in zip(_names([name for name, _ in series]), series, strict=True):
        points = [
            {"label": label, "value": values[i]} for label, i in zip(labels, kept, strict=True)
        ]
        drawn.append({"name": name, "data": points})
    chart = {"type": "line", "series": drawn, "axis_config": {"categories": labels}}
    return [
        {
            "type": "data_visualization",
            "title": truncate(title, CHART_TITLE_LIMIT),
            "chart": chart,
        }
    ]


def _figure(value: int | None) -> ol.Cell:
    return ol.Number(value, str(value)) if value is not None else (ol.Our("—"),)


def _label(value: str) -> str:
    return truncate(value, CHART_LABEL_LIMIT)


def _names(names: Sequence[str]) -> list[str]:
    """Series names within the limit and unique (a cut name that meets another is numbered)."""
    out: list[str] = []
    for name in names:
        cut = truncate(name, CHART_LABEL_LIMIT)
        number = 2
        while cut in out:
            tail = f" {number}"
            cut = truncate(name, CHART_LABEL_LIMIT - len(tail)) + tail
            number += 1
        out.append(cut)
    return out
