"""Discord as a platform: its limits, and what it draws (messages with embeds, through
formatters.discord_embeds, imported when first drawn so a command that never posts to
Discord never loads it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.model.outline_parts import OneMessage

if TYPE_CHECKING:
    from bot.model.buttons import Button
    from bot.model.report import Report
    from formatters.charts import Chart

Message = dict[str, Any]
Parts = list[tuple[str, Message]]


class Discord:
    """Discord's limits and drawings; one instance, `DISCORD`."""

    name = "discord"
    # A message's `content` (https://discord.com/developers/docs/resources/message); the
    # one place this limit is written.
    text_limit = 2000

    @property
    def content_limit(self) -> int:
        return self.text_limit

    @property
    def header_limit(self) -> int:
        from formatters import discord_embeds as de

        return de.EMBED_TITLE_LIMIT

    @property
    def description_limit(self) -> int:
        from formatters import discord_embeds as de

        return de.EMBED_DESCRIPTION_LIMIT

    @property
    def embeds_limit(self) -> int:
        from formatters import discord_embeds as de

        return de.EMBEDS_PER_MESSAGE

    @property
    def message_embed_limit(self) -> int:
        from formatters import discord_embeds as de

        return de.MESSAGE_EMBED_TOTAL

    def report_parts(
        self,
        report: Report,
        lang: str,
        *,
        only: Sequence[str] = (),
        link: str | None = None,
        with_headline: bool = True,
    ) -> Parts:
        from formatters.discord_embeds import discord_parts

        return discord_parts(report, lang, only=only, link=link, with_headline=with_headline)

    def with_picture(self, parts: Parts, picture: Chart, lang: str, label: str) -> Parts:
        from formatters.chat import picture_file, placed
        from formatters.discord_embeds import picture_alone, picture_merged

        caption, file = picture_file(picture, lang, label)
        return placed(
            parts, lambda payload: picture_merged(payload, file), picture_alone(caption, file)
        )

    def one_message(self, one: OneMessage, lang: str) -> list[Message]:
        from formatters.discord_embeds import one_message

        return one_message(one, lang)

    def said(self, text: str) -> Message:
        from formatters._text import discord_escape, truncate

        return {"content": truncate(discord_escape(text), self.text_limit)}

    def report_answer(
        self, report: Report, lang: str, only: Sequence[str], link: str | None
    ) -> list[Message]:
        """A report as a command's answer: every message (a follow-up takes as many as
        needed), its embeds only."""
        from formatters.discord_embeds import render_discord

        return self.answered(render_discord(report, lang, only=only, link=link))

    def answered(self, messages: Sequence[Message]) -> list[Message]:
        """What a command's answer carries of a drawn message: its embeds (the follow-up
        sets its own allowed mentions)."""
        return [{"embeds": m["embeds"]} for m in messages]

    def with_buttons(self, message: Message, buttons: Sequence[Button]) -> Message:
        """`message` with `buttons` under it (bot.model.buttons; none when it has no room)."""
        from formatters.buttons import discord_buttons

        return discord_buttons(message, buttons)

    def destination_hint(self) -> str:
        """What to do when a channel refuses the bot."""
        return "give the bot access to the channel or fix DISCORD_CHANNELS"


DISCORD = Discord()
