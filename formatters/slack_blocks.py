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

from bot.model.queue import Queue
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
    marked += ["🔌 " + full.plugins] if full.plugins else []
    marked += ["🚦 " + full.ci] if full.ci else []
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
    kept: list[str] = []
    used = 0
    for row in rows:
        if used + len(row) + 1 > budget or len(kept) >= (MAX_BLOCKS - 3) * 8:
            kept.append(_cut_notice(full, len(rows) - len(kept)))
            break
        kept.append(row)
        used += len(row) + 1
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
    """The rows that fit `budget` characters; the rest said to be in the full report."""
    kept: list[str] = []
    used = 0
    for row in rows:
        if used + len(row) + 1 > budget or len(kept) >= (MAX_BLOCKS - 3) * 8:
            notice = w.text(lang, "cut_notice", n=len(rows) - len(kept))
            kept.append("_" + slack_escape(notice) + "_")
            break
        kept.append(row)
        used += len(row) + 1
    return kept


def text_blocks(rows: list[str]) -> list[dict[str, Any]]:
    """Rows packed into section blocks within Slack's per-block limit."""
    return _text_blocks(rows)


def _more_line(full: ol.Outline, name: str) -> str:
    link = co.section_link(full, name)
    if not link:
        return ""
    return f"<{link}|{slack_escape(w.text(full.lang, 'full_report'))}>"


def _cut_notice(full: ol.Outline, hidden: int) -> str:
    return "_" + slack_escape(w.text(full.lang, "cut_notice", n=hidden)) + "_"


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


def render_slack_queue(queue: Queue, lang: str = "en") -> list[dict[str, Any]]:
    """The review queue as one message (`/vllm-queue`, the weekly digest)."""
    from formatters.queue_outline import EVENT_TYPE as QUEUE_EVENT
    from formatters.queue_outline import queue_context, queue_section, queue_title

    payload = {
        "repo": queue.repo,
        "window": queue.window.label,
        "topic": queue.topic or "",
        "part": "queue",
    }
    return render_slack_single(
        queue_title(queue, lang),
        queue_context(queue, lang),
        queue_section(queue, lang),
        lang,
        {"event_type": QUEUE_EVENT, "event_payload": payload},
    )


def render_slack_single(
    title: str, context: str, section: ol.Section, lang: str, metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """A one-message digest (the review queue, a personal digest): a header, a context line
    and the section's rows, cut to fit one message."""
    rows = section_rows(section.blocks)
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": truncate(title, 150)}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": slack_escape(context)}]},
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
