"""A slash command's answer as Discord messages, drawn once for both ways in: the gateway
(bot.adapters.discord_app) and the HTTP interactions endpoint (bot.adapters.discord_http).
Each message is a payload of `content` or `embeds`; the caller adds its own delivery fields
(flags, `allowed_mentions`, an interaction's follow-up)."""

from __future__ import annotations

from typing import Any

from bot.adapters.drawn import drawn, key_of
from bot.service.commands import Answer
from formatters._text import discord_escape, truncate
from formatters.discord_embeds import render_discord, render_discord_queue
from formatters.radar import render_radar_discord

CONTENT_LIMIT = 2000  # a message's `content`


def answer_messages(answer: Answer) -> list[dict[str, Any]]:
    """The messages that carry `answer`, in order (call it in a worker thread: drawing a
    report is CPU work, see bot.adapters.drawn)."""
    if answer.queue is not None:
        return [{"embeds": m["embeds"]} for m in render_discord_queue(answer.queue, answer.lang)]
    if answer.radar is not None:
        return [render_radar_discord(answer.radar)]
    if answer.report is None:
        return [{"content": truncate(discord_escape(answer.text or ""), CONTENT_LIMIT)}]
    report = answer.report
    key = key_of("discord", report, answer.lang, answer.only, answer.link)

    def draw() -> list[dict[str, Any]]:
        return [
            {"embeds": m["embeds"]}
            for m in render_discord(report, answer.lang, only=answer.only, link=answer.link)
        ]

    return drawn(key, draw)
