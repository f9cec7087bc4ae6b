"""Slack Block Kit messages: the headline in the channel, then one reply per section.

`render_slack(report, lang)` returns the messages in posting order: the first goes to the
channel, the rest into its thread (each is a `chat.postMessage` payload without
`channel`/`thread_ts`, which delivery adds). The headline carries the gist (the counts and
what happened); each reply is one section, capped to one message, ending with a link to the
full report when there is more. Untrusted text is escaped (`&`, `<`, `>` only); links are
built by us.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.model.outline_parts import OneMessage
from bot.model.outline_parts import fit_rows as fit
from bot.model.report import Report
from formatters import chat_outline as co
from formatters import outline as ol
from formatters import wording as w
from formatters._text import clean, slack_escape, truncate

# Slack's limits (../shared/facts/platform-facts.md §1.1), obeyed below.
MAX_BLOCKS = 50
SECTION_TEXT_LIMIT = 3000
HEADER_TEXT_LIMIT = 150
CONTEXT_ELEMENTS = 10
# Undocumented: about 12,000 characters of block text per message fail with
# msg_blocks_too_long even when every block is within its own limit. Stay well under.
MESSAGE_TEXT_BUDGET = 10_000
FALLBACK_TEXT_LIMIT = 3000  # the notification text; Slack truncates at 40,000
EVENT_TYPE = "vllm_report_part"

Message = dict[str, Any]


def render_slack(
    report: Report,
    lang: str = "en",
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[Message]:
    """The payloads, in posting order."""
    parts = slack_parts(report, lang, only=only, link=link, with_headline=with_headline)
    return [payload for _, payload in parts]


def slack_parts(
    report: Report,
    lang: str = "en",
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[tuple[str, Message]]:
    """(part name, payload) pairs: the name keys the delivery ledger ("headline", "key")."""
    full = ol.outline(report, lang, link)
    messages = [("headline", _headline(report, full))] if with_headline else []
    for part in co.chat_parts(full, only):
        messages += _part(report, full, part)
    return messages


def mrkdwn(line: ol.Line) -> str:
    out = []
    for part in line:
        if isinstance(part, ol.Ref):
            out.append(f"<{part.url}|{part.text}>")
        elif isinstance(part, ol.Theirs):
            out.append(slack_escape(clean(part.text, part.limit)))
        else:
            out.append(slack_escape(part.text))
    return "".join(out)


def _headline(report: Report, full: ol.Outline) -> Message:
    counts = " · ".join(
        f"*{slack_escape(name)}* {slack_escape(value)}" for name, value in full.counts
    )
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": truncate(full.title, HEADER_TEXT_LIMIT)},
        },
        {"type": "context", "elements": [{"type": "mrkdwn", "text": slack_escape(full.window)}]},
    ]
    if counts:  # a quiet day says its counts in a sentence instead
        blocks.append(_section(counts))
    if full.warning:
        blocks.append(_section(":warning: " + slack_escape(full.warning)))
    marked = ["🎯 " + line for line in full.vendors]
    marked += list(full.marks)
    if marked:
        blocks.append(_section("\n".join(slack_escape(line) for line in marked)))
    if full.quiet and not full.gist:  # nothing at all that day: the sentence says so
        blocks.append(_section(f"*{slack_escape(full.quiet)}*"))
    if full.gist:
        rows = [f"*{slack_escape(full.quiet or w.text(full.lang, 'gist'))}*"]
        for entry in full.gist:
            rows.append("• " + mrkdwn(entry.head))
            rows += ["      › " + mrkdwn(sub) for sub in entry.lines]
        blocks += _text_blocks(rows)
    footer = []
    if not full.alone:  # a quiet day with no reply has no thread to point to
        footer.append({"type": "mrkdwn", "text": slack_escape(w.text(full.lang, "thread_hint"))})
    if full.link:
        label = slack_escape(w.text(full.lang, "full_report"))
        footer.append({"type": "mrkdwn", "text": f"<{full.link}|{label}>"})
    if footer:
        blocks.append({"type": "context", "elements": footer[:CONTEXT_ELEMENTS]})
    said = full.quiet or " | ".join(f"{n} {v}" for n, v in full.counts)
    fallback = f"{full.title} — {said}"
    return _message(report, "headline", fallback, blocks)


def _part(report: Report, full: ol.Outline, part: ol.ChatPart) -> list[tuple[str, Message]]:
    """One section as messages: one, unless it is the appendix asked for on demand."""
    rows = section_rows(part.blocks)
    if part.name == "appendix":
        return _split(report, part, rows)
    more = _more_line(full, part.name)
    budget = MESSAGE_TEXT_BUDGET - len(part.title) - len(more) - 200
    kept = fit_rows(rows, budget, full.lang)
    blocks = [_section(f"*{slack_escape(part.title)}*"), *_text_blocks(kept)]
    if more:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": more}]})
    return [(part.name, _message(report, part.name, part.title, blocks[:MAX_BLOCKS]))]


def section_rows(blocks: Sequence[ol.Block]) -> list[str]:
    """A section's blocks as mrkdwn rows (headings, bullets, sub-lines, "+N more")."""
    return ol.rows(blocks, _MARKUP)


_MARKUP = ol.RowMarkup(
    line=mrkdwn,
    heading=lambda text: f"*{slack_escape(text)}*",
    rest=lambda text: f"_{text}_",
    indent="      › ",
)


def fit_rows(rows: list[str], budget: int, lang: str) -> list[str]:
    """The rows that fit `budget` characters; the rest said to be in the full report (the
    cut is the outline's, shared with Discord; a row cap keeps within MAX_BLOCKS)."""
    return fit(rows, budget, lambda hidden: _cut_notice(lang, hidden), (MAX_BLOCKS - 3) * 8)


def text_blocks(rows: list[str]) -> list[dict[str, Any]]:
    """Rows packed into section blocks within Slack's per-block limit."""
    return _text_blocks(rows)


def _more_line(full: ol.Outline, name: str) -> str:
    link = co.section_link(full, name)
    if not link:
        return ""
    return f"<{link}|{slack_escape(w.text(full.lang, 'full_report'))}>"


def _cut_notice(lang: str, hidden: int) -> str:
    return "_" + slack_escape(w.text(lang, "cut_notice", n=hidden)) + "_"


def _split(report: Report, part: ol.ChatPart, rows: list[str]) -> list[tuple[str, Message]]:
    """A long list (the appendix, asked for) across messages; nothing dropped."""
    blocks = _text_blocks(rows)
    chunks: list[list[dict[str, Any]]] = [[]]
    used = 0
    for block in blocks:
        size = len(block["text"]["text"])
        if chunks[-1] and (len(chunks[-1]) + 2 > MAX_BLOCKS or used + size > MESSAGE_TEXT_BUDGET):
            chunks.append([])
            used = 0
        chunks[-1].append(block)
        used += size
    messages = []
    for index, chunk in enumerate(chunks, 1):
        counter = f" ({index}/{len(chunks)})" if len(chunks) > 1 else ""
        name = part.name if index == 1 else f"{part.name}-{index}"
        heading = _section(f"*{slack_escape(part.title)}*{counter}")
        messages.append((name, _message(report, name, part.title + counter, [heading, *chunk])))
    return messages


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _text_blocks(rows: list[str]) -> list[dict[str, Any]]:
    """Rows packed into section blocks of at most SECTION_TEXT_LIMIT characters each."""
    blocks: list[str] = []
    current = ""
    for row in rows:
        for piece in _cut_row(row, SECTION_TEXT_LIMIT):
            candidate = f"{current}\n{piece}" if current else piece
            if len(candidate) > SECTION_TEXT_LIMIT:
                blocks.append(current)
                candidate = piece
            current = candidate
    if current:
        blocks.append(current)
    return [_section(text) for text in blocks]


def _cut_row(row: str, limit: int) -> list[str]:
    """A row longer than a block, cut at spaces (never inside a <link|label>)."""
    if len(row) <= limit:
        return [row]
    pieces, current = [], ""
    for word in row.split(" "):
        candidate = f"{current} {word}" if current else word
        if len(candidate) > limit and current:
            pieces.append(current)
            candidate = word
        while len(candidate) > limit:
            pieces.append(candidate[:limit])
            candidate = candidate[limit:]
        current = candidate
    return [*pieces, current] if current else pieces


def _message(report: Report, part: str, fallback: str, blocks: list[dict[str, Any]]) -> Message:
    return {
        "text": truncate(slack_escape(fallback), FALLBACK_TEXT_LIMIT),
        "blocks": blocks,
        "unfurl_links": False,
        "unfurl_media": False,
        "metadata": {
            "event_type": EVENT_TYPE,
            "event_payload": {"repo": report.repo, "window": report.window.label, "part": part},
        },
    }


def one_message(one: OneMessage, lang: str) -> list[Message]:
    """A one-message digest as Slack draws it, tagged with its event for the ledger."""
    metadata = {"event_type": one.event_type, "event_payload": one.payload}
    return render_slack_single(one.title, one.context, one.section, lang, metadata)


def render_slack_single(
    title: str, context: str, section: ol.Section, lang: str, metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """A one-message digest (the review queue, a personal digest): a header, a context line
    and the section's rows, cut to fit one message."""
    rows = section_rows(section.blocks)
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": truncate(title, HEADER_TEXT_LIMIT)},
        },
        {"type": "context", "elements": [{"type": "mrkdwn", "text": _context(context)}]},
        *text_blocks(fit_rows(rows, MESSAGE_TEXT_BUDGET - 400, lang)),
    ]
    message = {
        "text": truncate(slack_escape(title), FALLBACK_TEXT_LIMIT),
        "blocks": blocks[:MAX_BLOCKS],
        "unfurl_links": False,
        "unfurl_media": False,
        "metadata": metadata,
    }
    return [message]


def _context(text: str) -> str:
    """A context line within a context element's limit (escaped first: escaping grows it)."""
    return truncate(slack_escape(text), SECTION_TEXT_LIMIT)


def picture_merged(payload: Message, file: dict[str, Any]) -> Message:
    """A reply with a picture: a file share takes text, not blocks, so the blocks' mrkdwn
    is joined into its text."""
    text = "\n".join(_block_text(block) for block in payload.get("blocks") or [])
    return {"text": text, "file": file}


def picture_alone(caption: str, file: dict[str, Any]) -> Message:
    """A picture as its own reply, its caption the text."""
    return {"text": caption, "file": file}


def _block_text(block: dict[str, Any]) -> str:
    if block.get("type") == "context":
        return " ".join(str(e.get("text", "")) for e in block.get("elements") or [])
    return str((block.get("text") or {}).get("text", ""))
