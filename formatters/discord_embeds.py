"""Discord messages with embeds: a compact headline, then one message per section.

`render_discord(report, lang)` returns `POST /channels/{id}/messages` payloads in
posting order: the first starts the thread, the rest go into it. Every payload carries
`allowed_mentions: {"parse": []}` and a stable `nonce` with `enforce_nonce`, so a retried
send is not posted twice. Markdown in strangers' text is escaped and mentions are broken;
masked links are only ever ours (`[#123](https://github.com/...)`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from bot.model.report import Report
from formatters import chat_outline as outline
from formatters._text import clean, discord_escape, truncate

# Discord's limits (../shared/facts/platform-facts.md §2.1), obeyed below.
CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
FIELDS_PER_EMBED = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
AUTHOR_LIMIT = 256
MESSAGE_EMBED_TOTAL = 6000  # title+description+fields+footer+author across a message's embeds
NONCE_LIMIT = 25
# Margins: a description is cut at a line break below its limit, so leave room.
DESCRIPTION_BUDGET = EMBED_DESCRIPTION_LIMIT - 96
MESSAGE_BUDGET = MESSAGE_EMBED_TOTAL - 200
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
    """(part name, payload) pairs: the name keys the delivery ledger ("headline", "amd-2")."""
    return outline.assemble(report, lang, only, link, with_headline, _headline, _section)


def markdown(line: outline.Line) -> str:
    out = []
    for part in line:
        if isinstance(part, outline.Ref):
            out.append(f"[#{part.number}]({part.url})")
        elif isinstance(part, outline.Theirs):
            out.append(discord_escape(clean(part.text, part.limit)))
        else:
            out.append(discord_escape(part.text))
    return "".join(out)


def _headline(report: Report, lang: str, link: str | None) -> Message:
    head = outline.headline(report, lang, link)
    lines = [discord_escape(head.window)]
    lines += [f"⚠️ {discord_escape(note)}" for note in head.notes]
    embed: dict[str, Any] = {
        "title": truncate(head.title, EMBED_TITLE_LIMIT),
        "color": COLOUR,
        "fields": [
            {
                "name": truncate(name, FIELD_NAME_LIMIT),
                "value": truncate(value, FIELD_VALUE_LIMIT),
                "inline": True,
            }
            for name, value in head.counts
        ],
        "footer": {"text": truncate(head.labels["thread"], FOOTER_LIMIT)},
    }
    if link:
        embed["url"] = link
    for label, rows in (("vendors", head.vendors), ("hot", head.hot)):
        if rows:
            value = _fit(
                [
                    ("• " if label == "vendors" else f"{i}. ") + markdown(row)
                    for i, row in enumerate(rows, 1)
                ],
                FIELD_VALUE_LIMIT,
            )
            for index, chunk in enumerate(value):
                name = head.labels[label] + (f" ({index + 1})" if len(value) > 1 else "")
                embed["fields"].append(
                    {"name": truncate(name, FIELD_NAME_LIMIT), "value": chunk, "inline": False}
                )
    embed["description"] = truncate("\n".join(lines), DESCRIPTION_BUDGET)
    embed["fields"] = embed["fields"][:FIELDS_PER_EMBED]
    return _message(report, "headline", [embed])


def _section(report: Report, section: outline.ChatSection) -> list[tuple[str, Message]]:
    rows: list[str] = []
    for group in section.groups:
        if group.heading:
            rows.append(f"**{discord_escape(group.heading)}**")
        for line in group.lines:
            bullet = "• " if line and isinstance(line[0], outline.Ref) else ""
            rows.append(bullet + markdown(line))
    descriptions = _fit(rows, DESCRIPTION_BUDGET)
    embeds: list[dict[str, Any]] = []
    for index, description in enumerate(descriptions, 1):
        counter = f" ({index}/{len(descriptions)})" if len(descriptions) > 1 else ""
        title = truncate(section.title, EMBED_TITLE_LIMIT - len(counter)) + counter
        embeds.append({"title": title, "description": description, "color": COLOUR})
    messages: list[list[dict[str, Any]]] = [[]]
    used = 0
    for embed in embeds:
        size = len(embed["title"]) + len(embed["description"])
        if messages[-1] and (
            len(messages[-1]) == EMBEDS_PER_MESSAGE or used + size > MESSAGE_BUDGET
        ):
            messages.append([])
            used = 0
        messages[-1].append(embed)
        used += size
    names = [section.key if i == 1 else f"{section.key}-{i}" for i in range(1, len(messages) + 1)]
    return [
        (name, _message(report, name, chunk)) for name, chunk in zip(names, messages, strict=True)
    ]


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


def _message(report: Report, part: str, embeds: list[dict[str, Any]]) -> Message:
    digest = hashlib.sha256(f"{report.repo}|{report.window.label}|{part}".encode()).hexdigest()
    return {
        "embeds": embeds,
        "allowed_mentions": NO_MENTIONS,
        "nonce": ("vr" + digest)[:NONCE_LIMIT],
        "enforce_nonce": True,
    }
