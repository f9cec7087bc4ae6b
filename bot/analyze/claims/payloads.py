"""A chat payload (what `show --format slack|discord` prints, or a post copied from the API)
read back as the text people see, so `check` judges what was posted: the message's words,
not its JSON keys. Slack's fallback `text` repeats its blocks and is left out; Slack links
(`<url|#123>`) and escapes are read as shown."""

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
        lines += _strings(shown)
    # Each block, embed part and message is a paragraph of its own: a state word under one
    # (a vendor's "已合并：…") is never said of an item the one before ended with.
    return "\n\n".join(_shown(line) for line in lines) + "\n"


def _shown(text: str) -> str:
    # Bold and italic marks (`*合并 PR* 44`, `**New issues** 29`) are how it looks, not what
    # it says: left out, a label stands beside its figure as in the Markdown.
    unmarked = _EMPHASIS.sub("", _SLACK_LINK.sub(r"\2", html.unescape(text)))
    return _ESCAPED.sub(r"\1", unmarked)


def _strings(value: Any, key: str = "") -> list[str]:
    if isinstance(value, dict):
        return [s for k, v in value.items() if k not in _SKIPPED for s in _strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, key)]
    return [value] if isinstance(value, str) and key in _SHOWN else []
