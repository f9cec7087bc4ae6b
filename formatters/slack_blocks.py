"""Slack Block Kit messages: the headline in the channel, then one reply per section.

`render_slack(report, lang)` returns the messages in posting order: the first goes to the
channel, the rest into its thread (each is a `chat.postMessage` payload without
`channel`/`thread_ts`, which delivery adds). The headline carries the gist (the counts and
what happened); each reply is one section, capped to one message, ending with a link to the
full report when there is more.

Lines are drawn as rich_text (formatters.slack_native): bold, italics, code and links are
styles, never mrkdwn punctuation, which Slack does not read next to Chinese characters; a
stranger's text there is never markup, so it is cleaned, not escaped. What the outline gives
as columns (the vendors' counts, Red on main's failing jobs, the radar's culprits, the review
queue's other topics) is a data_table, and the trend chart a data_visualization
(`with_chart`); each native block's words are also in the message's `text`, and a table that
does not fit is drawn as the lines every other platform draws. The header, the context
lines (the window, the thread hint, links) and `text` are plain or mrkdwn with no markers:
their untrusted parts escaped (`&`, `<`, `>` only); links are built by us.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.model.outline_parts import OneMessage
from bot.model.report import Report
from formatters import chat_outline as co
from formatters import outline as ol
from formatters import slack_native as sn
from formatters import wording as w
from formatters._text import slack_escape, truncate

if TYPE_CHECKING:
    from formatters.charts import Chart, ChartData

# Slack's limits (../shared/facts/platform-facts.md §1.1), obeyed below.
MAX_BLOCKS = 50
SECTION_TEXT_LIMIT = 3000
HEADER_TEXT_LIMIT = 150
CONTEXT_ELEMENTS = 10
# Undocumented: about 12,000 characters of block text per message fail with
# msg_blocks_too_long even when every block is within its own limit. Stay well under.
MESSAGE_TEXT_BUDGET = 10_000
FALLBACK_TEXT_LIMIT = 3000  # the notification text; Slack truncates at 40,000
# What the trend chart and its figures may add to a reply cut to the budget (14 days of five
# series and their sentence: about 1,000 characters), still well under Slack's 12,000.
CHART_ROOM = 1000
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


def _headline(report: Report, full: ol.Outline) -> Message:
    blocks: list[dict[str, Any]] = [
        {
            "type": "header",
            "text": {"type": "plain_text", "text": truncate(full.title, HEADER_TEXT_LIMIT)},
        },
        {"type": "context", "elements": [{"type": "mrkdwn", "text": slack_escape(full.window)}]},
    ]
    rows = _headline_rows(full)
    blocks += [block for block, _ in sn.pack(rows)]
    footer = _headline_footer(full)
    if footer:
        blocks.append({"type": "context", "elements": footer[:CONTEXT_ELEMENTS]})
    said = full.quiet or " | ".join(f"{n} {v}" for n, v in full.counts)
    fallback = [f"{full.title} — {said}", *_fallbacks(rows)]
    return _message(report, "headline", fallback, blocks)


def _headline_rows(full: ol.Outline) -> list[sn.Row]:
    """The headline's body: the counts, a warning, the vendors (a table where one fits),
    the marks, and the gist (or the quiet day's sentence)."""
    rows: list[sn.Row] = []
    if full.counts:  # a quiet day says its counts in a sentence instead
        counts: list[sn.Element] = []
        for index, (name, value) in enumerate(full.counts):
            counts += sn.text(" · " if index else "") + sn.text(name, bold=True)
            counts += sn.text(f" {value}")
        rows.append(sn.paragraph(sn.merged(counts)))
    if full.warning:
        warning = [{"type": "emoji", "name": "warning"}, *sn.text(" " + full.warning)]
        rows.append(sn.paragraph(warning))
    table = full.vendor_table
    vendors = ["🎯 " + line for line in full.vendors]
    if table is not None and sn.tabled(table) and table.columns is not None:
        drawn = sn.data_table(
            table.columns.caption, table.columns.names, [e.cells for e in table.entries]
        )
        rows.append(sn.Row(block=drawn, fallback=tuple(vendors)))
        vendors = []
    rows += [sn.paragraph(sn.text(line)) for line in [*vendors, *full.marks]]
    if full.quiet and not full.gist:  # nothing at all that day: the sentence says so
        rows.append(sn.paragraph(sn.text(full.quiet, bold=True)))
    if full.gist:
        rows.append(sn.paragraph(sn.text(full.quiet or w.text(full.lang, "gist"), bold=True)))
        rows += sn.entry_rows(ol.Block(None, full.gist, "list"))
    return rows


def _headline_footer(full: ol.Outline) -> list[dict[str, Any]]:
    footer = []
    if not full.alone:  # a quiet day with no reply has no thread to point to
        footer.append({"type": "mrkdwn", "text": slack_escape(w.text(full.lang, "thread_hint"))})
    if full.link:
        label = slack_escape(w.text(full.lang, "full_report"))
        footer.append({"type": "mrkdwn", "text": f"<{full.link}|{label}>"})
    return footer


def _part(report: Report, full: ol.Outline, part: ol.ChatPart) -> list[tuple[str, Message]]:
    """One section as messages: one, unless it is the appendix asked for on demand."""
    rows = sn.block_rows(part.blocks)
    if part.name == "appendix":
        return _split(report, part, rows)
    more = _more_line(full, part.name)
    budget = MESSAGE_TEXT_BUDGET - len(part.title) - len(more) - 200
    kept = fit_rows(rows, budget, full.lang)
    heading = sn.rich_text(sn.text(part.title, bold=True))
    blocks = [heading, *(block for block, _ in sn.pack(kept))]
    if more:
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": more}]})
    fallback = [part.title, *_fallbacks(kept)]
    return [(part.name, _message(report, part.name, fallback, blocks[:MAX_BLOCKS]))]


def fit_rows(rows: list[sn.Row], budget: int, lang: str) -> list[sn.Row]:
    """The rows that fit `budget` characters; the rest said to be in the full report (a
    table that does not fit is drawn as its lines, which are cut like any others)."""
    return sn.fit(rows, budget, lambda hidden: _cut_notice(lang, hidden))


def _more_line(full: ol.Outline, name: str) -> str:
    link = co.section_link(full, name)
    if not link:
        return ""
    return f"<{link}|{slack_escape(w.text(full.lang, 'full_report'))}>"


def _cut_notice(lang: str, hidden: int) -> sn.Row:
    return sn.paragraph(sn.text(w.text(lang, "cut_notice", n=hidden), italic=True))


def _fallbacks(rows: list[sn.Row]) -> list[str]:
    """What the native blocks among `rows` say, as lines for the message's `text` (what a
    client that cannot draw them, and a notification, shows)."""
    return [line for row in rows if row.block is not None for line in row.fallback]


def _split(report: Report, part: ol.ChatPart, rows: list[sn.Row]) -> list[tuple[str, Message]]:
    """A long list (the appendix, asked for) across messages; nothing dropped."""
    chunks: list[list[dict[str, Any]]] = [[]]
    used = 0
    for block, size in sn.pack(rows):
        if chunks[-1] and (len(chunks[-1]) + 2 > MAX_BLOCKS or used + size > MESSAGE_TEXT_BUDGET):
            chunks.append([])
            used = 0
        chunks[-1].append(block)
        used += size
    messages = []
    for index, chunk in enumerate(chunks, 1):
        counter = f" ({index}/{len(chunks)})" if len(chunks) > 1 else ""
        name = part.name if index == 1 else f"{part.name}-{index}"
        heading = sn.rich_text(sn.text(part.title, bold=True) + sn.text(counter))
        messages.append((name, _message(report, name, [part.title + counter], [heading, *chunk])))
    return messages


def _message(
    report: Report, part: str, fallback: list[str], blocks: list[dict[str, Any]]
) -> Message:
    return {
        "text": truncate(slack_escape("\n".join(fallback)), FALLBACK_TEXT_LIMIT),
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
    head = truncate(title, HEADER_TEXT_LIMIT)
    said = _context(context)
    budget = MESSAGE_TEXT_BUDGET - len(head) - len(said) - 400
    kept = fit_rows(sn.block_rows(section.blocks), budget, lang)
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": head}},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": said}]},
        *(block for block, _ in sn.pack(kept)),
    ]
    message = {
        "text": truncate(slack_escape("\n".join([title, *_fallbacks(kept)])), FALLBACK_TEXT_LIMIT),
        "blocks": blocks[:MAX_BLOCKS],
        "unfurl_links": False,
        "unfurl_media": False,
        "metadata": metadata,
    }
    return [message]


def _context(text: str) -> str:
    """A context line within a context element's limit (escaped first: escaping grows it)."""
    return truncate(slack_escape(text), SECTION_TEXT_LIMIT)


def with_chart(payload: Message, chart: ChartData, figures: str, lang: str) -> Message:
    """A reply with the trend chart drawn by Slack (a data_visualization, or a data_table
    when it has more series than a chart holds) under its heading, and its figures in text
    beside it (some clients and relays leave charts out): the same numbers as the PNG."""
    drawn = sn.chart_blocks(
        chart.title, chart.days, chart.series, chart.title, w.text(lang, "chart_day")
    )
    if not drawn:
        return payload
    said = {
        "type": "context",
        "block_id": "chart-figures",
        "elements": [{"type": "plain_text", "text": truncate(figures, SECTION_TEXT_LIMIT)}],
    }
    blocks = list(payload.get("blocks") or [])
    at = 1 if blocks else 0  # after the reply's heading
    blocks[at:at] = [{**drawn[0], "block_id": "chart"}, said]
    too_long = sn.carried(blocks) > MESSAGE_TEXT_BUDGET + CHART_ROOM
    if len(blocks) > MAX_BLOCKS or too_long:  # the chart is what gives way (its PNG follows)
        return payload
    text = truncate(f"{payload.get('text', '')}\n{slack_escape(figures)}", FALLBACK_TEXT_LIMIT)
    return {**payload, "text": text, "blocks": blocks}


def chart_alone(caption: str, chart: ChartData, figures: str, lang: str) -> Message | None:
    """The trend chart as its own reply (a digest, which has no trends reply): its caption
    in bold, the chart, its figures; None when there is nothing to draw."""
    heading = sn.rich_text(sn.text(caption, bold=True))
    drawn = with_chart({"text": caption, "blocks": [heading]}, chart, figures, lang)
    return drawn if len(drawn["blocks"]) > 1 else None


def with_picture(
    parts: list[tuple[str, Message]], picture: Chart, caption: str, file: dict[str, Any], lang: str
) -> list[tuple[str, Message]]:
    """The parts with the trend chart: drawn by Slack inside the trends reply (or, with no
    trends reply, as its own reply after the headline: `chart`), and the PNG as the reply
    after it (`picture`), for clients that leave charts out."""
    parts = list(parts)
    names = [name for name, _ in parts]
    png = ("picture", picture_alone(caption, file))
    data = picture.data
    if "trends" in names:
        index = names.index("trends")
        if data is not None:
            parts[index] = ("trends", with_chart(parts[index][1], data, picture.alt, lang))
        parts.insert(index + 1, png)
        return parts
    alone = chart_alone(caption, data, picture.alt, lang) if data is not None else None
    drawn = [("chart", alone)] if alone is not None else []
    return [*parts[:1], *drawn, png, *parts[1:]]


def picture_alone(caption: str, file: dict[str, Any]) -> Message:
    """A picture as its own reply, its caption the text."""
    return {"text": caption, "file": file}
