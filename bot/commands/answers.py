"""A command's answer, one type per kind of answer, each drawn for Slack and for Discord.

The adapters only deliver what a member draws (`slack()`, `discord()`: a list of message
payloads) and log what it `told()`; none of them branches on the kind. Drawing a report is
CPU work (tens of milliseconds): adapters call these in a worker thread, and the same
report asked in the same words is drawn once (bot.commands.drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.commands.drawn import drawn, key_of
from bot.model.ci import CiState
from bot.model.queue import Queue
from bot.model.radar import Radar
from bot.model.report import Report
from formatters._text import clean, discord_escape, slack_escape, truncate
from formatters.discord_embeds import render_discord, render_discord_queue
from formatters.radar import render_radar_discord, render_radar_slack
from formatters.slack_blocks import render_slack, render_slack_queue

Message = dict[str, Any]

# Slack truncates a message's text above 40,000 characters and advises staying under 4,000
# (https://api.slack.com/changelog/2018-04-truncating-really-long-messages).
SLACK_TEXT_LIMIT = 4000
# A command's answer goes out through its response_url, which takes at most five messages
# (https://api.slack.com/interactivity/slash-commands: five responses in 30 minutes).
SLACK_RESPONSES = 5
# A Discord message's `content` (https://discord.com/developers/docs/resources/message).
DISCORD_CONTENT_LIMIT = 2000


@dataclass(frozen=True)
class Said:
    """A sentence: help, a refusal, a subscription done."""

    text: str
    ephemeral: bool = True

    def told(self) -> str:
        return "a sentence"

    def slack(self) -> list[Message]:
        # Escaping can grow a text fourfold (`<` is `&lt;`): cut after it, so an answer that
        # echoes what was typed stays within what Slack shows whole.
        return [{"text": truncate(slack_escape(shown(self.text)), SLACK_TEXT_LIMIT)}]

    def discord(self) -> list[Message]:
        return [{"content": truncate(discord_escape(shown(self.text)), DISCORD_CONTENT_LIMIT)}]


def shown(text: str) -> str:
    """A sentence that may echo what a person typed, with the characters that would act
    instead of show written out (`\\u202e`): bidi overrides and isolates (U+202E turns the
    rest of the line around), zero-width and other invisible characters, and controls. Shown
    escaped rather than removed, so `amd\\u202e` is not answered as if `amd` were unknown.
    The invisible ones are those formatters._text.clean removes from strangers' text; line
    breaks stay (a list is one line per entry), other spaces are plain spaces."""
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if char == "\n" or (char.isascii() and char.isprintable()):
        return char
    if char.isspace():
        return " "
    if char.isprintable() and clean(char, 1, defuse=False):
        return char
    return f"\\u{ord(char):04x}" if ord(char) <= 0xFFFF else f"\\U{ord(char):08x}"


@dataclass(frozen=True)
class ReportShown:
    """A report, or the sections of it that were asked for (`only`)."""

    report: Report
    only: tuple[str, ...] = ()
    lang: str = "en"
    ephemeral: bool = True
    link: str | None = None

    def told(self) -> str:
        return f"the {self.report.window.label} report"

    def slack(self) -> list[Message]:
        key = key_of("slack", self.report, self.lang, self.only, self.link)
        messages = drawn(
            key, lambda: render_slack(self.report, self.lang, only=self.only, link=self.link)
        )
        if len(messages) <= SLACK_RESPONSES:
            return messages
        kept = messages[: SLACK_RESPONSES - 1]
        where = f" <{self.link}|Full report>" if self.link else ""
        more = len(messages) - len(kept)
        return [*kept, {"text": f"…and {more} more messages in this section.{where}"}]

    def discord(self) -> list[Message]:
        key = key_of("discord", self.report, self.lang, self.only, self.link)

        def draw() -> list[Message]:
            return [
                {"embeds": m["embeds"]}
                for m in render_discord(self.report, self.lang, only=self.only, link=self.link)
            ]

        return drawn(key, draw)


@dataclass(frozen=True)
class QueueShown:
    """The review queue: what waits on whom."""

    queue: Queue
    lang: str = "en"
    ephemeral: bool = True

    def told(self) -> str:
        return f"the {self.queue.window.label} review queue"

    def slack(self) -> list[Message]:
        return [
            {"text": m["text"], "blocks": m["blocks"]}
            for m in render_slack_queue(self.queue, self.lang)
        ]

    def discord(self) -> list[Message]:
        return [{"embeds": m["embeds"]} for m in render_discord_queue(self.queue, self.lang)]


@dataclass(frozen=True)
class RadarShown:
    """The breakage radar: which upstream changes broke which plugin."""

    radar: Radar
    ephemeral: bool = True
    lang: str = "en"

    def told(self) -> str:
        return f"the {self.radar.window.label} radar"

    def slack(self) -> list[Message]:
        message = render_radar_slack(self.radar, lang=self.lang)
        return [{"text": message["text"], "blocks": message["blocks"]}]

    def discord(self) -> list[Message]:
        return [render_radar_discord(self.radar, self.lang)]


@dataclass(frozen=True)
class CiShown:
    """Red on main: what failed on vLLM's main at a window's end."""

    state: CiState
    label: str
    ephemeral: bool = True
    lang: str = "en"

    def told(self) -> str:
        return f"the {self.label} CI state ({self.state.state})"

    def slack(self) -> list[Message]:
        from formatters.ci import render_ci_slack

        drawn_ = render_ci_slack(self.state, self.label, self.lang)
        return [{"text": m["text"], "blocks": m["blocks"]} for m in drawn_]

    def discord(self) -> list[Message]:
        from formatters.ci import render_ci_discord

        drawn_ = render_ci_discord(self.state, self.label, self.lang)
        return [{"embeds": m["embeds"]} for m in drawn_]


Answer = Said | ReportShown | QueueShown | RadarShown | CiShown
