"""A chat payload (what `show --format slack|discord` prints, or a post copied from the API)
read back as the text people see, so `check` judges what was posted: the message's words,
not its JSON keys. Slack's fallback `text` repeats its blocks and is left out; Slack links
(`<url|#123>`) and escapes are read as shown. A Slack rich_text block is read as its lines
(a paragraph's line, a list item), each element's text as shown; a data_table as a line per
row, its cells side by side (a row of figures claims no sentence); the trend chart and its
figures (blocks whose `block_id` starts with `chart`) are the archive's days, not the
report's, and are not read."""

from __future__ import annotations

import html
import re
from typing import Any

# The keys whose strings a reader sees: Slack blocks' texts and fields, Discord's content,
# embed titles, descriptions, fields and footers.
_SHOWN = frozenset({"text", "title", "description", "name", "value", "content"})
_SKIPPED = frozenset({"metadata", "url", "image", "thumbnail", "file", "files", "type"})
_SLACK_LINK = re.compile(r"<([^<>|]+)\|([^<>]+)>")
_EMPHASIS = re.compile(r"(?<!\\)\*+")
# Discord's Markdown escapes (`\[XPU\]`): a title reads as written, so it is known as one.
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")


def payload_text(payload: Any) -> str | None:
    """The text a Slack or Discord payload (or a list of them) shows, a line per piece;
    None when it is JSON of another shape (a report's JSON holds no message)."""
    messages = payload if isinstance(payload, list) else [payload]
    if not messages or not all(isinstance(m, dict) for m in messages):
        return None
    if not all({"blocks", "embeds", "content"} & set(m) for m in messages):
        return None
    lines: list[str] = []
    for message in messages:
        # A message's fallback text repeats what its blocks say: read the blocks alone.
        shown = {k: v for k, v in message.items() if not (k == "text" and "blocks" in message)}
        if isinstance(shown.get("blocks"), list):
            lines += [line for block in shown.pop("blocks") for line in _block_lines(block)]
        lines += _strings(shown)
    # Each block, embed part and message is a paragraph of its own: a state word under one
    # (a vendor's "已合并：…") is never said of an item the one before ended with.
    return "\n\n".join(_shown(line) for line in lines) + "\n"


def _shown(text: str) -> str:
    # Bold and italic marks (`*合并 PR* 44`, `**New issues** 29`) are how it looks, not what
    # it says: left out, a label stands beside its figure as in the Markdown.
    unmarked = _EMPHASIS.sub("", _SLACK_LINK.sub(r"\2", html.unescape(text)))
    return _ESCAPED.sub(r"\1", unmarked)


def _block_lines(block: Any) -> list[str]:
    """A Slack block's lines as shown (rich_text and data_table read by their structure)."""
    if not isinstance(block, dict) or str(block.get("block_id", "")).startswith("chart"):
        return []
    kind = block.get("type")
    if kind == "rich_text":
        return _rich_lines(block)
    if kind == "data_table":
        rows = block.get("rows") or []
        return [" · ".join(" ".join(_cell(c)) for c in row) for row in rows]
    if kind == "data_visualization":
        return []
    return _strings(block)


def _rich_lines(block: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for element in block.get("elements") or []:
        items = element.get("elements") or []
        if element.get("type") == "rich_text_list":
            lines += [_inline(item.get("elements") or []) for item in items]
        else:
            lines += _inline(items).split("\n")
    return lines


def _inline(elements: list[Any]) -> str:
    said = []
    for element in elements:
        if isinstance(element, dict):
            text = element.get("text") or element.get("fallback") or ""
            said.append(str(text))
    return "".join(said)


def _cell(cell: Any) -> list[str]:
    if isinstance(cell, dict) and cell.get("type") == "rich_text":
        return _rich_lines(cell)
    return [str(cell.get("text", ""))] if isinstance(cell, dict) else []


def _strings(value: Any, key: str = "") -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in _SKIPPED for s in _strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, key)]
    return [value] if isinstance(value, str) and key in _SHOWN else []
