"""Block Kit as Slack's API checks it, for the fake Slack: a message's blocks refused with
`invalid_blocks` and the reasons Slack gives (`must be … [json-pointer:/blocks/3/rows]`),
or a message too long refused with `msg_blocks_too_long`.

The limits are docs.slack.dev's Block Kit reference as ../shared/facts/platform-facts.md
reads it (§1.1 for header, section and context; §6 for data_table and data_visualization);
the data series' and axis labels' limits are the data-visualization reference's tables.
Written apart from the bot's own constants on purpose: a limit the bot gets wrong is caught
here, not agreed with.
"""

from __future__ import annotations

import math
from typing import Any

MAX_BLOCKS = 50
SECTION_TEXT = 3000
HEADER_TEXT = 150
CONTEXT_ELEMENTS = 10
# Not documented: Slack answers msg_blocks_too_long at about 12,000 characters of block text
# (platform-facts §1.1, "Total size of all blocks").
MESSAGE_TEXT = 12_000
TABLE_ROWS = (2, 101)
PAGE_SIZE = (1, 100)
CELLS = {"raw_text", "raw_number", "rich_text"}
CHARTS = {"bar", "line", "area", "pie"}
SERIES = (1, 6)
CHART_TITLE = 50
LABEL = 20
POINTS = (1, 20)
AXIS_TITLE = 50
RICH_ELEMENTS = {"rich_text_section", "rich_text_list", "rich_text_quote", "rich_text_preformatted"}
INLINE = {"text", "link", "emoji", "date", "user", "channel", "usergroup", "broadcast", "color"}
STYLES = {"bold", "italic", "strike", "code", "underline"}
KNOWN = {
    "section",
    "header",
    "context",
    "divider",
    "rich_text",
    "data_table",
    "data_visualization",
    "image",
    "actions",
    "markdown",
}


class Invalid(Exception):
    """A block Slack refuses, with Slack's reason and where."""


def check_message(blocks: Any) -> tuple[str, list[str]] | None:
    """None when Slack takes `blocks`, else its error and reasons."""
    errors: list[str] = []
    if not isinstance(blocks, list):
        return "invalid_blocks_format", ["blocks must be an array"]
    if len(blocks) > MAX_BLOCKS:
        errors.append(f"no more than {MAX_BLOCKS} items allowed [json-pointer:/blocks]")
    for index, block in enumerate(blocks):
        try:
            check_block(block, f"/blocks/{index}")
        except Invalid as exc:
            errors.append(str(exc))
    if errors:
        return "invalid_blocks", errors
    if text_size(blocks) > MESSAGE_TEXT:
        return "msg_blocks_too_long", [f"more than {MESSAGE_TEXT} characters of text"]
    return None


def check_block(block: Any, at: str) -> None:
    if not isinstance(block, dict) or not isinstance(block.get("type"), str):
        raise Invalid(f"missing required field: type [json-pointer:{at}]")
    kind = block["type"]
    if kind not in KNOWN:
        raise Invalid(f"unsupported type: {kind} [json-pointer:{at}/type]")
    check = {
        "section": _section,
        "header": _header,
        "context": _context,
        "rich_text": _rich_text,
        "data_table": _data_table,
        "data_visualization": _data_visualization,
    }.get(kind)
    if check is not None:
        check(block, at)


def _text_object(value: Any, at: str, limit: int, kinds: tuple[str, ...]) -> None:
    if not isinstance(value, dict) or value.get("type") not in kinds:
        raise Invalid(f"must be a text object of type {' or '.join(kinds)} [json-pointer:{at}]")
    text = value.get("text")
    if not isinstance(text, str) or not text:
        raise Invalid(f"must be more than 0 characters [json-pointer:{at}/text]")
    if len(text) > limit:
        raise Invalid(f"must be less than {limit + 1} characters [json-pointer:{at}/text]")


def _section(block: dict[str, Any], at: str) -> None:
    if "text" not in block and "fields" not in block:
        raise Invalid(f"must provide text or fields [json-pointer:{at}]")
    if "text" in block:
        _text_object(block["text"], f"{at}/text", SECTION_TEXT, ("mrkdwn", "plain_text"))


def _header(block: dict[str, Any], at: str) -> None:
    _text_object(block.get("text"), f"{at}/text", HEADER_TEXT, ("plain_text",))


def _context(block: dict[str, Any], at: str) -> None:
    elements = block.get("elements")
    if not isinstance(elements, list) or not 1 <= len(elements) <= CONTEXT_ELEMENTS:
        raise Invalid(f"must hold 1 to {CONTEXT_ELEMENTS} elements [json-pointer:{at}/elements]")
    for index, element in enumerate(elements):
        if isinstance(element, dict) and element.get("type") == "image":
            continue
        limit = SECTION_TEXT
        _text_object(element, f"{at}/elements/{index}", limit, ("mrkdwn", "plain_text"))


def _rich_text(block: dict[str, Any], at: str) -> None:
    elements = block.get("elements")
    if not isinstance(elements, list) or not elements:
        raise Invalid(f"must provide at least one element [json-pointer:{at}/elements]")
    for index, element in enumerate(elements):
        where = f"{at}/elements/{index}"
        if not isinstance(element, dict) or element.get("type") not in RICH_ELEMENTS:
            raise Invalid(f"must be a rich text element [json-pointer:{where}]")
        if element["type"] == "rich_text_list":
            if element.get("style") not in ("bullet", "ordered"):
                raise Invalid(f"must be bullet or ordered [json-pointer:{where}/style]")
            indent = element.get("indent", 0)
            if not isinstance(indent, int) or not 0 <= indent <= 8:
                raise Invalid(f"must be 0 to 8 [json-pointer:{where}/indent]")
            offset = element.get("offset", 0)
            if not isinstance(offset, int) or offset < 0:
                raise Invalid(f"must be a whole number [json-pointer:{where}/offset]")
            items = element.get("elements")
            if not isinstance(items, list) or not items:
                raise Invalid(f"must provide at least one item [json-pointer:{where}/elements]")
            for number, item in enumerate(items):
                if not isinstance(item, dict) or item.get("type") != "rich_text_section":
                    raise Invalid(
                        f"must be a rich_text_section [json-pointer:{where}/elements/{number}]"
                    )
                _inline(item.get("elements"), f"{where}/elements/{number}/elements")
        else:
            _inline(element.get("elements"), f"{where}/elements")


def _inline(elements: Any, at: str) -> None:
    if not isinstance(elements, list):
        raise Invalid(f"must be an array [json-pointer:{at}]")
    for index, element in enumerate(elements):
        where = f"{at}/{index}"
        if not isinstance(element, dict) or element.get("type") not in INLINE:
            raise Invalid(f"unsupported rich text element [json-pointer:{where}]")
        style = element.get("style", {})
        if not isinstance(style, dict) or set(style) - STYLES:
            raise Invalid(f"unsupported style [json-pointer:{where}/style]")
        kind = element["type"]
        if kind == "text" and not (isinstance(element.get("text"), str) and element["text"]):
            raise Invalid(f"must be more than 0 characters [json-pointer:{where}/text]")
        if kind == "link" and not str(element.get("url", "")).startswith(("https://", "http://")):
            raise Invalid(f"must be a URL [json-pointer:{where}/url]")
        timed = isinstance(element.get("timestamp"), int) and element.get("format")
        if kind == "date" and not timed:
            raise Invalid(f"needs a timestamp and a format [json-pointer:{where}]")
        if kind == "emoji" and not element.get("name"):
            raise Invalid(f"missing required field: name [json-pointer:{where}]")


def _data_table(block: dict[str, Any], at: str) -> None:
    caption = block.get("caption")
    if not isinstance(caption, str) or not caption:
        raise Invalid(f"missing required field: caption [json-pointer:{at}/caption]")
    page = block.get("page_size", 5)
    if not isinstance(page, int) or not PAGE_SIZE[0] <= page <= PAGE_SIZE[1]:
        raise Invalid(f"must be {PAGE_SIZE[0]} to {PAGE_SIZE[1]} [json-pointer:{at}/page_size]")
    rows = block.get("rows")
    low, high = TABLE_ROWS
    if not isinstance(rows, list) or not low <= len(rows) <= high:
        count = len(rows) if isinstance(rows, list) else 0
        raise Invalid(f"must hold {low} to {high} rows, not {count} [json-pointer:{at}/rows]")
    width = len(rows[0]) if isinstance(rows[0], list) else 0
    if not width:
        raise Invalid(f"a row must hold at least one cell [json-pointer:{at}/rows/0]")
    for number, row in enumerate(rows):
        where = f"{at}/rows/{number}"
        if not isinstance(row, list) or len(row) != width:
            raise Invalid(f"every row must hold {width} cells [json-pointer:{where}]")
        for column, cell in enumerate(row):
            _cell(cell, f"{where}/{column}", header=number == 0)
    index = block.get("row_header_column_index", 0)
    if not isinstance(index, int) or not 0 <= index < width:
        raise Invalid(f"must name a column [json-pointer:{at}/row_header_column_index]")


def _cell(cell: Any, at: str, *, header: bool) -> None:
    kind = cell.get("type") if isinstance(cell, dict) else None
    if kind not in CELLS:
        raise Invalid(f"a cell must be raw_text, raw_number or rich_text [json-pointer:{at}]")
    if kind == "rich_text":
        if header:
            raise Invalid(f"rich_text cannot be used in a header cell [json-pointer:{at}]")
        _rich_text(cell, at)
    elif kind == "raw_number":
        value = cell.get("value")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise Invalid(f"must be a number [json-pointer:{at}/value]")
        if not isinstance(cell.get("text"), str) or not cell["text"]:
            raise Invalid(f"must be more than 0 characters [json-pointer:{at}/text]")
    elif not isinstance(cell.get("text"), str) or not cell["text"]:
        raise Invalid(f"must be more than 0 characters [json-pointer:{at}/text]")


def _label(value: Any, at: str, limit: int = LABEL) -> str:
    if not isinstance(value, str) or not value:
        raise Invalid(f"must be more than 0 characters [json-pointer:{at}]")
    if len(value) > limit:
        raise Invalid(f"must be less than {limit + 1} characters [json-pointer:{at}]")
    return value


def _data_visualization(block: dict[str, Any], at: str) -> None:
    _label(block.get("title"), f"{at}/title", CHART_TITLE)
    chart = block.get("chart")
    if not isinstance(chart, dict) or chart.get("type") not in CHARTS:
        raise Invalid(f"must be bar, line, area or pie [json-pointer:{at}/chart/type]")
    low, high = SERIES
    if chart["type"] == "pie":
        segments = chart.get("segments")
        if not isinstance(segments, list) or not low <= len(segments) <= high:
            raise Invalid(f"must hold {low} to {high} segments [json-pointer:{at}/chart/segments]")
        for index, segment in enumerate(segments):
            _label(segment.get("label"), f"{at}/chart/segments/{index}/label")
            value = segment.get("value")
            if not isinstance(value, int | float) or not value > 0:
                raise Invalid(f"must be greater than 0 [json-pointer:{at}/chart/segments/{index}]")
        return
    series = chart.get("series")
    if not isinstance(series, list) or not low <= len(series) <= high:
        count = len(series) if isinstance(series, list) else 0
        raise Invalid(
            f"must hold {low} to {high} series, not {count} [json-pointer:{at}/chart/series]"
        )
    axis = chart.get("axis_config")
    if not isinstance(axis, dict) or not isinstance(axis.get("categories"), list):
        raise Invalid(f"missing required field: categories [json-pointer:{at}/chart/axis_config]")
    categories = [
        _label(c, f"{at}/chart/axis_config/categories/{i}")
        for i, c in enumerate(axis["categories"])
    ]
    for key in ("x_label", "y_label"):
        if key in axis:
            _label(axis[key], f"{at}/chart/axis_config/{key}", AXIS_TITLE)
    names = [_label(s.get("name"), f"{at}/chart/series/{i}/name") for i, s in enumerate(series)]
    if len(set(names)) != len(names):
        raise Invalid(f"series names must be unique [json-pointer:{at}/chart/series]")
    for index, one in enumerate(series):
        where = f"{at}/chart/series/{index}/data"
        points = one.get("data")
        if not isinstance(points, list) or not POINTS[0] <= len(points) <= POINTS[1]:
            raise Invalid(f"must hold {POINTS[0]} to {POINTS[1]} points [json-pointer:{where}]")
        for number, point in enumerate(points):
            if _label(point.get("label"), f"{where}/{number}/label") not in categories:
                raise Invalid(
                    f"label must be one of the categories [json-pointer:{where}/{number}]"
                )
            value = point.get("value")
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
            ):
                raise Invalid(f"must be a number [json-pointer:{where}/{number}/value]")


def text_size(value: Any, key: str = "") -> int:
    """The characters of text a message's blocks carry (what msg_blocks_too_long counts: the
    texts, captions and titles, and links' URLs, as mrkdwn holds them in its text)."""
    if isinstance(value, dict):
        return sum(text_size(v, k) for k, v in value.items())
    if isinstance(value, list):
        return sum(text_size(v, key) for v in value)
    counted = ("text", "caption", "title", "url", "fallback", "name", "label")
    return len(value) if isinstance(value, str) and key in counted else 0
