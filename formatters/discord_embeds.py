"""Discord messages with embeds: the headline, then one message per section.

`render_discord(report, lang)` returns `POST /channels/{id}/messages` payloads in posting
order: the first starts the thread, the rest go into it. Each section is one message,
capped to Discord's per-message budget, ending with a link to the full report when there is
more. Every payload carries `allowed_mentions: {"parse": []}`; delivery adds the nonce
(unique per destination and part). Markdown in strangers' text is escaped and mentions are
broken; masked links are only ever ours (`[#123](https://github.com/...)`).
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
from formatters._text import clean, discord_escape, truncate

# Discord's limits (../shared/facts/platform-facts.md §2.1), obeyed below. A message's
# `content` limit is the platform object's (bot.platforms.discord.draw): embeds are drawn here.
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
FIELDS_PER_EMBED = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
MESSAGE_EMBED_TOTAL = 6000  # title+description+fields+footer+author across a message's embeds
# Margins: a description is cut at a line break below its limit, so leave room.
DESCRIPTION_BUDGET = EMBED_DESCRIPTION_LIMIT - 96
MESSAGE_BUDGET = MESSAGE_EMBED_TOTAL - 300
CONTEXT_LIMIT = 300  # a one-message digest's context line: its budget leaves room for this
COLOUR = 0x30A2FF
NO_MENTIONS: dict[str, list[str]] = {"parse": []}

Message = dict[str, Any]


def render_discord(
    report: Report,
    lang: str = "en",
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[Message]:
    """The payloads, in posting order."""
    parts = discord_parts(report, lang, only=only, link=link, with_headline=with_headline)
    return [payload for _, payload in parts]


def discord_parts(
    report: Report,
    lang: str = "en",
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[tuple[str, Message]]:
    """(part name, payload) pairs: the name keys the delivery ledger ("headline", "key")."""
    full = ol.outline(report, lang, link)
    messages = [("headline", _headline(full))] if with_headline else []
    for part in co.chat_parts(full, only):
        messages += _part(full, part)
    return messages


def markdown(line: ol.Line) -> str:
    out = []
    for part in line:
        if isinstance(part, ol.Ref):
            out.append(f"[{part.text}]({part.url})")
        elif isinstance(part, ol.Theirs):
            out.append(discord_escape(clean(part.text, part.limit)))
        else:
            out.append(discord_escape(part.text))
    return "".join(out)


def _headline(full: ol.Outline) -> Message:
    lang = full.lang
    lines = [discord_escape(full.window)]
    if full.warning:
        lines.append(f"⚠️ {discord_escape(full.warning)}")
    if full.counts:  # a quiet day says its counts in a sentence instead
        lines.append(
            " · ".join(f"**{discord_escape(n)}** {discord_escape(v)}" for n, v in full.counts)
        )
    lines += ["🎯 " + discord_escape(line) for line in full.vendors]
    lines += [discord_escape(line) for line in full.marks]
    if full.quiet and not full.gist:  # nothing at all that day: the sentence says so
        lines += ["", f"**{discord_escape(full.quiet)}**"]
    if full.gist:
        lines += ["", f"**{discord_escape(full.quiet or w.text(lang, 'gist'))}**"]
        for entry in full.gist:
            lines.append("• " + markdown(entry.head))
            lines += ["  › " + markdown(sub) for sub in entry.lines]
    if full.link:
        lines += ["", f"[{discord_escape(w.text(lang, 'full_report'))}]({full.link})"]
    embed: dict[str, Any] = {
        "title": truncate(full.title, EMBED_TITLE_LIMIT),
        "color": COLOUR,
        "description": _fit_one(lines, DESCRIPTION_BUDGET, full),
    }
    if not full.alone:  # a quiet day with no reply has no thread to point to
        embed["footer"] = {"text": truncate(w.text(lang, "thread_hint"), FOOTER_LIMIT)}
    if full.link:
        embed["url"] = full.link
    return _message([embed])


def _part(full: ol.Outline, part: ol.ChatPart) -> list[tuple[str, Message]]:
    rows = section_rows(part.blocks)
    if part.name == "appendix":
        return _split(part, rows)
    link = co.section_link(full, part.name)
    more = f"[{discord_escape(w.text(full.lang, 'full_report'))}]({link})" if link else ""
    budget = min(MESSAGE_BUDGET - len(part.title) - len(more) - 10, DESCRIPTION_BUDGET * 2)
    kept = fit_rows(rows, budget, full.lang)
    if more:
        kept.append(more)
    descriptions = _fit(kept, DESCRIPTION_BUDGET)
    embeds = []
    for index, description in enumerate(descriptions):
        embed: dict[str, Any] = {"description": description, "color": COLOUR}
        if index == 0:
            embed["title"] = truncate(part.title, EMBED_TITLE_LIMIT)
        embeds.append(embed)
    return [(part.name, _message(embeds[:EMBEDS_PER_MESSAGE]))]


def section_rows(blocks: Sequence[ol.Block]) -> list[str]:
    """A section's blocks as Discord Markdown rows."""
    return ol.rows(blocks, _MARKUP)


_MARKUP = ol.RowMarkup(
    line=markdown,
    heading=lambda text: f"**{discord_escape(text)}**",
    rest=lambda text: f"*{text}*",
    indent="  › ",
)


def fit_rows(rows: list[str], budget: int, lang: str) -> list[str]:
    """The rows that fit `budget` characters; the rest said to be in the full report (the
    cut is the outline's, shared with Slack)."""
    return fit(rows, budget, lambda hidden: discord_escape(w.text(lang, "cut_notice", n=hidden)))


def fit_texts(rows: list[str]) -> list[str]:
    """Rows joined into embed descriptions within Discord's limit; none dropped."""
    return _fit(rows, DESCRIPTION_BUDGET)


def escape(text: str) -> str:
    return discord_escape(text)


def _split(part: ol.ChatPart, rows: list[str]) -> list[tuple[str, Message]]:
    """A long list (the appendix, asked for) across messages; nothing dropped."""
    descriptions = _fit(rows, DESCRIPTION_BUDGET)
    messages: list[list[dict[str, Any]]] = [[]]
    used = 0
    for index, description in enumerate(descriptions, 1):
        counter = f" ({index}/{len(descriptions)})" if len(descriptions) > 1 else ""
        title = truncate(part.title, EMBED_TITLE_LIMIT - len(counter)) + counter
        size = len(title) + len(description)
        if messages[-1] and (
            len(messages[-1]) == EMBEDS_PER_MESSAGE or used + size > MESSAGE_BUDGET
        ):
            messages.append([])
            used = 0
        messages[-1].append({"title": title, "description": description, "color": COLOUR})
        used += size
    names = [part.name if i == 1 else f"{part.name}-{i}" for i in range(1, len(messages) + 1)]
    return [(name, _message(chunk)) for name, chunk in zip(names, messages, strict=True)]


def _fit_one(rows: list[str], limit: int, full: ol.Outline) -> str:
    """Rows that fit one text; the rest said to be in the full report."""
    kept: list[str] = []
    used = 0
    for index, row in enumerate(rows):
        if used + len(row) + 1 > limit - 80:
            kept.append(discord_escape(w.text(full.lang, "cut_notice", n=len(rows) - index)))
            break
        kept.append(row)
        used += len(row) + 1
    return "\n".join(kept)


def _fit(rows: list[str], limit: int) -> list[str]:
    """Rows joined by line breaks into texts of at most `limit` characters; none dropped."""
    texts: list[str] = []
    current = ""
    for row in rows:
        while len(row) > limit:  # one row longer than a whole text: cut it, keep all of it
            if current:
                texts.append(current)
                current = ""
            cut = row.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            texts.append(row[:cut])
            row = row[cut:].lstrip()
        candidate = f"{current}\n{row}" if current else row
        if len(candidate) > limit:
            texts.append(current)
            candidate = row
        current = candidate
    if current:
        texts.append(current)
    return texts


def _message(embeds: list[dict[str, Any]]) -> Message:
    return {"embeds": embeds, "allowed_mentions": NO_MENTIONS}


def one_message(one: OneMessage, lang: str) -> list[Message]:
    """A one-message digest as Discord draws it (no metadata: the nonce identifies it)."""
    return render_discord_single(one.title, one.context, one.section, lang)


def render_discord_single(
    title: str, context: str, section: ol.Section, lang: str
) -> list[dict[str, Any]]:
    """A one-message digest (the review queue, a personal digest): the context line and the
    section's rows in embeds, cut to fit one message."""
    rows = section_rows(section.blocks)
    kept = fit_rows(rows, MESSAGE_BUDGET - 400, lang)
    # The context line is ours but may name strangers' words (a filter's path): cut it so
    # title + context + rows stay within MESSAGE_EMBED_TOTAL.
    descriptions = fit_texts([truncate(escape(context), CONTEXT_LIMIT), "", *kept])
    embeds: list[dict[str, Any]] = []
    for index, description in enumerate(descriptions[:EMBEDS_PER_MESSAGE]):
        embed: dict[str, Any] = {"description": description, "color": COLOUR}
        if index == 0:
            embed["title"] = truncate(title, EMBED_TITLE_LIMIT)
        embeds.append(embed)
    return [{"embeds": embeds, "allowed_mentions": NO_MENTIONS}]


def picture_merged(payload: Message, file: dict[str, Any]) -> Message:
    """A reply with a picture: the picture inside the section's card."""
    embeds = [dict(embed) for embed in payload.get("embeds") or []]
    if embeds:
        embeds[-1]["image"] = {"url": f"attachment://{file['name']}"}
    return {**payload, "embeds": embeds, "file": file}


def picture_alone(caption: str, file: dict[str, Any]) -> Message:
    """A picture as its own reply, its caption the content."""
    return {"content": caption, "file": file, "allowed_mentions": NO_MENTIONS}
