"""What every chat payload must satisfy, checked with the platforms' own SDK models.

Used by the golden tests and the property tests alike: limits (validated by slack_sdk's
Block Kit classes where it has them, the fake Slack's Block Kit checks for the blocks it has
none for, and discord.py's Embed), no live mention, no link we did not build, and no listed
item missing from the messages.

Slack's mrkdwn (section and context texts, a message's `text`) is where `<!channel>`, `<@U…>`
and `<url|text>` are read, so those are searched there; rich_text reads none of them (a
mention there is an element of its own, which the bot never draws), so its links are its
`link` elements and its texts must hold no bare URL.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from slack_sdk.models.blocks import Block

from bot.model.report import Report
from bot.platforms.registry import DISCORD
from formatters import discord_embeds as dc
from formatters import slack_blocks as sl
from tests.fakes.block_kit import check_message, text_size
from tests.slack_text import mrkdwn_texts

SLACK_LIVE = re.compile(r"<!(?:channel|here|everyone|group|subteam)|<@[UWB]|<#C", re.IGNORECASE)
SLACK_LINK = re.compile(r"<([^<>|]+)(?:\|[^<>]*)?>")
BARE_URL = re.compile(r"(?i)\b(?:https?|ftp)://[^\s<>|)\]]+|\bwww\.[^\s<>|)\]]+")
DISCORD_LIVE = re.compile(r"@(?:everyone|here)\b|<@[!&]?\d+>|<#\d+>", re.IGNORECASE)
DISCORD_MASKED = re.compile(r"(?<!\\)\]\(([^)\s]+)\)")
SLACK_MENTIONS = {"user", "channel", "usergroup", "broadcast", "team"}  # rich_text's live ones


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def ours(url: str, report: Report, extra: tuple[str, ...] = ()) -> bool:
    return url.startswith(f"https://github.com/{report.repo}/") or url.startswith(extra)


def check_slack(
    messages: list[dict[str, Any]], report: Report, links: tuple[str, ...] = ()
) -> None:
    for message in messages:
        assert message["text"] and len(message["text"]) <= sl.FALLBACK_TEXT_LIMIT
        blocks = message["blocks"]
        assert 0 < len(blocks) <= sl.MAX_BLOCKS
        assert check_message(blocks) is None, check_message(blocks)  # as the fake Slack checks
        for raw in blocks:
            parsed = Block.parse(raw)
            if parsed is not None:  # slack_sdk's own checks, where it models the block
                parsed.validate_json()
                if raw["type"] == "rich_text":  # its shape is the SDK's, key for key
                    assert parsed.to_dict() == raw
            if raw["type"] == "context":
                assert len(raw["elements"]) <= sl.CONTEXT_ELEMENTS
        # The budget a message's rows are cut to, and its title and context lines above it.
        assert text_size(blocks) <= sl.MESSAGE_TEXT_BUDGET + 1000
        for text in mrkdwn_texts(message):
            assert not SLACK_LIVE.search(text), text
            for url in SLACK_LINK.findall(text):
                assert ours(url, report, links), url
            outside = SLACK_LINK.sub(" ", text)
            assert not BARE_URL.search(outside), outside
        for element in rich_elements(message):
            assert element["type"] not in SLACK_MENTIONS, element
            if element["type"] == "link":
                assert ours(element["url"], report, links), element
            else:
                assert not BARE_URL.search(str(element.get("text", ""))), element


def rich_elements(value: Any) -> list[dict[str, Any]]:
    """Every inline element of the rich_text in `value` (a table's rich_text cells too)."""
    if isinstance(value, list):
        return [e for v in value for e in rich_elements(v)]
    if not isinstance(value, dict):
        return []
    if value.get("type") == "rich_text_section":
        return list(value.get("elements") or [])
    return [e for v in value.values() for e in rich_elements(v)]


def check_discord(
    messages: list[dict[str, Any]], report: Report, links: tuple[str, ...] = ()
) -> None:
    for message in messages:
        assert message["allowed_mentions"] == {"parse": []}
        assert len(message.get("content", "")) <= DISCORD.content_limit
        embeds = [discord.Embed.from_dict(raw) for raw in message["embeds"]]
        assert 0 < len(embeds) <= dc.EMBEDS_PER_MESSAGE
        assert sum(len(e) for e in embeds) <= dc.MESSAGE_EMBED_TOTAL
        for embed in embeds:
            assert len(embed.title or "") <= dc.EMBED_TITLE_LIMIT
            assert len(embed.description or "") <= dc.EMBED_DESCRIPTION_LIMIT
            assert len(embed.fields) <= dc.FIELDS_PER_EMBED
            for field in embed.fields:
                assert len(field.name or "") <= dc.FIELD_NAME_LIMIT
                assert len(field.value or "") <= dc.FIELD_VALUE_LIMIT
            assert len(embed.footer.text or "") <= dc.FOOTER_LIMIT
        for text in [*_strings(message["embeds"]), message.get("content", "")]:
            assert not DISCORD_LIVE.search(text), text
            for url in DISCORD_MASKED.findall(text):
                assert ours(url, report, links), url
            outside = DISCORD_MASKED.sub(" ", text)
            for url in BARE_URL.findall(outside):
                assert ours(url, report, links), url


def listed_numbers(report: Report) -> set[int]:
    return {n for numbers in report.lists.values() for n in numbers}


def numbers_in_slack(messages: list[dict[str, Any]]) -> set[int]:
    """The items a Slack post links (rich_text links, and mrkdwn `<url|#123>` links)."""
    found = set()
    for message in messages:
        for text in mrkdwn_texts(message):
            found |= {int(n) for n in re.findall(r"\|#(\d+)>", text)}
        for element in rich_elements(message):
            said = str(element.get("text", ""))
            if element["type"] == "link" and re.fullmatch(r"#\d+", said):
                found.add(int(said[1:]))
    return found


def numbers_in_discord(messages: list[dict[str, Any]]) -> set[int]:
    found = set()
    for text in _strings(messages):
        found |= {int(n) for n in re.findall(r"\[#(\d+)\]\(", text)}
    return found
