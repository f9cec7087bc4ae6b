"""Slack as a platform: its limits, and what it draws (Block Kit, through
formatters.slack_blocks, imported when first drawn so a command that never posts to Slack
never loads it)."""

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


class Slack:
    """Slack's limits and drawings; one instance, `SLACK`."""

    name = "slack"
    # Slack truncates a message's text above 40,000 characters and advises staying under
    # 4,000 (https://api.slack.com/changelog/2018-04-truncating-really-long-messages).
    text_limit = 4000
    # A command's answer goes out through its response_url, which takes at most five
    # messages (https://api.slack.com/interactivity/slash-commands: five in 30 minutes).
    responses = 5

    @property
    def header_limit(self) -> int:
        from formatters import slack_blocks as sb

        return sb.HEADER_TEXT_LIMIT

    @property
    def section_limit(self) -> int:
        from formatters import slack_blocks as sb

        return sb.SECTION_TEXT_LIMIT

    @property
    def blocks_limit(self) -> int:
        from formatters import slack_blocks as sb

        return sb.MAX_BLOCKS

    def report_parts(
        self,
        report: Report,
        lang: str,
        *,
        only: Sequence[str] = (),
        link: str | None = None,
        with_headline: bool = True,
    ) -> Parts:
        from formatters.slack_blocks import slack_parts

        return slack_parts(report, lang, only=only, link=link, with_headline=with_headline)

    def with_picture(self, parts: Parts, picture: Chart, lang: str, label: str) -> Parts:
        from formatters.chat import picture_file
        from formatters.slack_blocks import with_picture

        caption, file = picture_file(picture, lang, label)
        return with_picture(parts, picture, caption, file, lang)

    def one_message(self, one: OneMessage, lang: str) -> list[Message]:
        from formatters.slack_blocks import one_message

        return one_message(one, lang)

    def said(self, text: str) -> Message:
        from formatters._text import slack_escape, truncate

        # Escaping can grow a text fourfold (`<` is `&lt;`): cut after it, so an answer that
        # echoes what was typed stays within what Slack shows whole.
        return {"text": truncate(slack_escape(text), self.text_limit)}

    def report_answer(
        self, report: Report, lang: str, only: Sequence[str], link: str | None
    ) -> list[Message]:
        """A report as a command's answer: at most `responses` messages, the last saying
        how many more there are and where the full report is."""
        from formatters.slack_blocks import render_slack

        messages = render_slack(report, lang, only=only, link=link)
        if len(messages) <= self.responses:
            return messages
        kept = messages[: self.responses - 1]
        where = f" <{link}|Full report>" if link else ""
        more = len(messages) - len(kept)
        return [*kept, {"text": f"…and {more} more messages in this section.{where}"}]

    def answered(self, messages: Sequence[Message]) -> list[Message]:
        """What a command's answer carries of a drawn message (no metadata: an answer is
        not in the delivery ledger)."""
        return [{"text": m["text"], "blocks": m["blocks"]} for m in messages]

    def with_buttons(self, message: Message, buttons: Sequence[Button]) -> Message:
        """`message` with `buttons` under it (bot.model.buttons; none when it has no room)."""
        from formatters.buttons import slack_buttons

        return slack_buttons(message, buttons)

    def destination_hint(self) -> str:
        """What to do when a channel refuses the bot."""
        return "invite the bot to the channel (/invite @bot) or fix SLACK_CHANNELS"


SLACK = Slack()
