"""A Slack message read back as lines, the way a person sees it, written in mrkdwn's notation
so a test can say what is bold, a link or a list item: rich_text's styles as `*bold*`,
`_italic_`, `` `code` `` and `<url|text>`, list items as `• `, `1. ` (numbered on from the
list's offset) and `      › ` one level in; a data_table as `| a | b |` rows (a date as its
fallback, a figure as its text); a data_visualization as `[chart] title` and a line per
series; section, context and header texts as they are.

Only tests read messages this way: the bot draws rich_text and tables, never this notation.
"""

from __future__ import annotations

from typing import Any

INDENT = "      › "


def message_lines(message: dict[str, Any]) -> list[str]:
    """Every line the blocks of `message` show, in order."""
    return [line for block in message.get("blocks") or [] for line in block_lines(block)]


def message_text(message: dict[str, Any]) -> str:
    return "\n".join(message_lines(message))


def block_lines(block: dict[str, Any]) -> list[str]:
    kind = block.get("type")
    if kind in ("section", "header"):
        return str((block.get("text") or {}).get("text", "")).split("\n")
    if kind == "context":
        return [" ".join(str(e.get("text", "")) for e in block.get("elements") or [])]
    if kind == "rich_text":
        return rich_lines(block)
    if kind == "data_table":
        return ["| " + " | ".join(cell_text(cell) for cell in row) + " |" for row in block["rows"]]
    if kind == "data_visualization":
        chart = block["chart"]
        lines = [f"[chart] {block['title']}"]
        for series in chart.get("series") or []:
            points = ", ".join(f"{p['label']} {p['value']}" for p in series["data"])
            lines.append(f"{series['name']}: {points}")
        return lines
    return []


def rich_lines(block: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for element in block.get("elements") or []:
        if element["type"] == "rich_text_list":
            indent = element.get("indent", 0)
            for number, item in enumerate(element["elements"], element.get("offset", 0) + 1):
                marker = {"bullet": "• ", "ordered": f"{number}. "}[element["style"]]
                prefix = INDENT if indent else marker
                lines.append(prefix + inline_text(item["elements"]))
        else:
            lines += inline_text(element["elements"]).split("\n")
    return lines


def inline_text(elements: list[dict[str, Any]]) -> str:
    """Inline elements in mrkdwn's notation: a run of bold or italic elements wrapped once."""
    runs: list[tuple[tuple[bool, bool], list[str]]] = []
    for element in elements:
        kind = element["type"]
        style = element.get("style") or {}
        if kind == "link":
            said = f"<{element['url']}|{element.get('text') or element['url']}>"
        elif kind == "date":
            said = element["fallback"]
        elif kind == "emoji":
            said = f":{element['name']}:"
        else:
            said = element.get("text", "")
        if style.get("code"):
            said = f"`{said}`"
        key = (bool(style.get("bold")), bool(style.get("italic")))
        if runs and runs[-1][0] == key:
            runs[-1][1].append(said)
        else:
            runs.append((key, [said]))
    out = []
    for (bold, italic), said in runs:
        text = "".join(said)
        text = f"_{text}_" if italic else text
        out.append(f"*{text}*" if bold else text)
    return "".join(out)


def cell_text(cell: dict[str, Any]) -> str:
    if cell["type"] == "rich_text":
        return " ".join(rich_lines(cell))
    return str(cell.get("text", ""))


# -- mrkdwn as Slack reads it ---------------------------------------------------------------

MARKERS = "*_~"
# Chinese, Japanese and Korean text: ideographs, kana, hangul, their punctuation and the
# full-width forms (（ ） ： ，) a Chinese sentence is written with.
_CJK = (
    ("\u2e80", "\u2fdf"),
    ("\u3000", "\u30ff"),
    ("\u3100", "\u31ff"),
    ("\u3400", "\u4dbf"),
    ("\u4e00", "\u9fff"),
    ("\uac00", "\ud7af"),
    ("\uf900", "\ufaff"),
    ("\ufe30", "\ufe4f"),
    ("\uff00", "\uffef"),
)


def is_cjk(char: str) -> bool:
    return any(low <= char <= high for low, high in _CJK)


def _boundary(char: str | None) -> bool:
    """What may stand outside a marker for Slack to read it: the text's edge, white space or
    punctuation. A CJK character is a word character here (Python's `isalnum` says so of
    ideographs, kana and hangul), which is why `共*3*个` shows its asterisks."""
    return char is None or char.isspace() or not (char.isalnum() or is_cjk(char))


def mrkdwn_spans(text: str) -> list[tuple[int, int]]:
    """Where Slack reads emphasis in `text`: (opening marker, closing marker) pairs of `*`,
    `_` or `~`, each with a boundary outside it and no white space inside it, on one line."""
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(text):
        char = text[index]
        before = text[index - 1] if index else None
        after = text[index + 1] if index + 1 < len(text) else None
        if char in MARKERS and _boundary(before) and after is not None and not after.isspace():
            end = index + 2
            while end < len(text) and text[end] != "\n":
                outside = text[end + 1] if end + 1 < len(text) else None
                if text[end] == char and not text[end - 1].isspace() and _boundary(outside):
                    spans.append((index, end))
                    break
                end += 1
            if spans and spans[-1][0] == index:
                index = spans[-1][1] + 1
                continue
        index += 1
    return spans


def mrkdwn_shown(text: str) -> str:
    """`text` as Slack shows it: the markers it reads as emphasis gone, the rest kept as
    punctuation."""
    read = {i for span in mrkdwn_spans(text) for i in span}
    return "".join(char for i, char in enumerate(text) if i not in read)


def markers_next_to_cjk(text: str) -> list[str]:
    """Every `*`, `_` or `~` right against a CJK character, whether Slack reads it as a
    marker or shows it as punctuation (either way it is the markup that breaks in Chinese),
    each with the text around it."""
    found = []
    for index, char in enumerate(text):
        if char not in MARKERS:
            continue
        near = text[max(0, index - 1) : index] + text[index + 1 : index + 2]
        if any(is_cjk(c) for c in near):
            found.append(text[max(0, index - 12) : index + 13])
    return found


def mrkdwn_texts(message: dict[str, Any]) -> list[str]:
    """What Slack reads as mrkdwn in a message: its `text`, its sections' mrkdwn text, its
    context's mrkdwn elements (rich_text, plain_text and tables are not read as mrkdwn)."""
    texts = [str(message.get("text", ""))]
    for block in message.get("blocks") or []:
        if block.get("type") == "section":
            for text in [block.get("text") or {}, *(block.get("fields") or [])]:
                if text.get("type") == "mrkdwn":
                    texts.append(text["text"])
        if block.get("type") == "context":
            texts += [e["text"] for e in block["elements"] if e.get("type") == "mrkdwn"]
    return texts


def body_lines(message: dict[str, Any]) -> list[str]:
    """The lines of a message's body: every block but its header and context lines."""
    blocks = [b for b in message.get("blocks") or [] if b.get("type") not in ("header", "context")]
    return message_lines({"blocks": blocks})
