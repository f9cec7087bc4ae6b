"""The chat payloads of a report for one platform, importing only that platform's renderer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.model.report import Report


def chat_parts(
    platform: str,
    report: Report,
    lang: str,
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> list[tuple[str, dict[str, Any]]]:
    """(part name, payload) pairs in posting order for `platform` ("slack" or "discord")."""
    if platform == "slack":
        from formatters.slack_blocks import slack_parts

        return slack_parts(report, lang, only=only, link=link, with_headline=with_headline)
    if platform == "discord":
        from formatters.discord_embeds import discord_parts

        return discord_parts(report, lang, only=only, link=link, with_headline=with_headline)
    raise ValueError(f"no chat renderer for {platform!r}")
