"""Slack Block Kit messages: a compact headline for the channel, then one reply per section.

`render_slack(report, lang)` returns the messages in posting order: the first goes
to the channel, the rest into its thread (each is a `chat.postMessage` payload without
`channel`/`thread_ts`, which delivery adds). Long sections are split across messages;
nothing is dropped. Untrusted text is escaped (`&`, `<`, `>` only); links are built by us.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.model.report import Report
from formatters import chat_outline as outline
from formatters._text import clean, slack_escape, truncate

# Slack's limits (../shared/facts/platform-facts.md §1.1), obeyed below.
MAX_BLOCKS = 50
SECTION_TEXT_LIMIT = 3000
HEADER_TEXT_LIMIT = 150
FIELDS_PER_SECTION = 10
FIELD_TEXT_LIMIT = 2000
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
    """(part name, payload) pairs: the name keys the delivery ledger ("headline", "amd-2")."""
    return outline.assemble(report, lang, only, link, with_headline, _headline, _section)


def mrkdwn(line: outline.Line) -> str:
    out = []
    for part in line:
        if isinstance(part, outline.Ref):
            out.append(f"<{part.url}|#{part.number}>")
        elif isinstance(part, outline.Theirs):
            out.append(slack_escape(clean(part.text, part.limit)))
        else:
            out.append(slack_escape(part.text))
    return "".join(out)


def _headline(report: Report, lang: str, link: str | None) -> Message:
    head = outline.headline(report, lang, link)
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": truncate(head.title, HEADER_TEXT_LIMIT)},
        },
        {"type": "context", "elements": [{"type": "mrkdwn", "text": slack_escape(head.window)}]},
        {
            "type": "section",
            "fields": [
                {
                    "type": "mrkdwn",
                    "text": truncate(f"*{slack_escape(name)}*\n{value}", FIELD_TEXT_LIMIT),
                }
                for name, value in head.counts[:FIELDS_PER_SECTION]
            ],
        },
    ]
    if head.notes:
        blocks += _text_blocks([":warning: " + slack_escape(n) for n in head.notes])
    if head.vendors:
        rows = [f"*{slack_escape(head.labels['vendors'])}*"]
        rows += ["• " + mrkdwn(line) for line in head.vendors]
        blocks += _text_blocks(rows)
    if head.hot:
        rows = [f"*{slack_escape(head.labels['hot'])}*"]
        rows += [f"{i}. " + mrkdwn(line) for i, line in enumerate(head.hot, 1)]
        blocks += _text_blocks(rows)
    footer = [{"type": "mrkdwn", "text": slack_escape(head.labels["thread"])}]
    if link:
        footer.append({"type": "mrkdwn", "text": f"<{link}|{slack_escape(head.labels['full'])}>"})
    blocks.append({"type": "context", "elements": footer[:CONTEXT_ELEMENTS]})
    fallback = f"{head.title} — " + " | ".join(f"{n} {v}" for n, v in head.counts)
    return _message(report, "headline", fallback, blocks)


def _section(report: Report, section: outline.ChatSection) -> list[tuple[str, Message]]:
    rows: list[str] = []
    for group in section.groups:
        if group.heading:
            rows.append(f"*{slack_escape(group.heading)}*")
        for line in group.lines:
            bullet = "• " if line and isinstance(line[0], outline.Ref) else ""
            rows.append(bullet + mrkdwn(line))
    blocks = _text_blocks(rows)
    title = slack_escape(section.title)
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
        heading = {"type": "section", "text": {"type": "mrkdwn", "text": f"*{title}*{counter}"}}
        part = section.key if index == 1 else f"{section.key}-{index}"
        messages.append((part, _message(report, part, section.title + counter, [heading, *chunk])))
    return messages


def _text_blocks(rows: list[str]) -> list[dict[str, Any]]:
    """Rows packed into section blocks of at most SECTION_TEXT_LIMIT characters each."""
    blocks: list[str] = []
    current = ""
    for row in rows:
        for piece in _split(row, SECTION_TEXT_LIMIT):
            candidate = f"{current}\n{piece}" if current else piece
            if len(candidate) > SECTION_TEXT_LIMIT:
                blocks.append(current)
                candidate = piece
            current = candidate
    if current:
        blocks.append(current)
    return [{"type": "section", "text": {"type": "mrkdwn", "text": text}} for text in blocks]


def _split(row: str, limit: int) -> list[str]:
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
