"""The chat platforms a report is drawn for, as objects: each holds its own limits and
draws what the bot posts there (a report's parts, a picture among them, a one-message
digest, a sentence, a command's answer) and says what to do when a channel
refuses the bot. What draws looks one up by its name (`platform_named(destination.platform)`)
instead of branching on the name. The rest does not: settings (config/fields.py), the
transports and the daily run's destinations (bot/app/wiring.py), start-up (bot/app/serve.py),
`doctor` (bot/adapters/chat_checks.py, bot/service/doctor.py) and `--format`
(bot/cli/options.py, bot/features/personal/cli.py) name Slack and Discord one by one. So a
new platform is one package (`bot/platforms/<name>/`, its `draw.py` here), one entry in
`PLATFORMS`, and its lines in each of those (docs/architecture.md, "Platforms", lists them).

The drawing code stays in formatters (`slack_blocks`, `discord_embeds`), which know no
platform object: this layer sits above them and picks the renderer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.model.errors import InputError
from bot.model.outline_parts import OneMessage
from bot.platforms.discord.draw import DISCORD
from bot.platforms.slack.draw import SLACK

if TYPE_CHECKING:
    from bot.model.buttons import Button, ButtonsFor
    from bot.model.report import Report
    from formatters.charts import Chart

Message = dict[str, Any]
Parts = list[tuple[str, Message]]


class Platform(Protocol):
    """A chat platform: its limits and what it draws."""

    @property
    def name(self) -> str:
        """Its key in settings, destinations, subscriptions and the ledger."""

    @property
    def text_limit(self) -> int:
        """A plain message's text (Slack's `text`, Discord's `content`)."""

    @property
    def header_limit(self) -> int:
        """A one-message digest's title."""

    def report_parts(
        self,
        report: Report,
        lang: str,
        *,
        only: Sequence[str] = (),
        link: str | None = None,
        with_headline: bool = True,
    ) -> Parts:
        """A report's (part name, payload) pairs in posting order."""

    def with_picture(self, parts: Parts, picture: Chart, lang: str, label: str) -> Parts:
        """The parts with a chart: in the trends reply, else right after the headline."""

    def one_message(self, one: OneMessage, lang: str) -> list[Message]:
        """A one-message digest (title, context line, section) cut to fit one message."""

    def said(self, text: str) -> Message:
        """A plain sentence, escaped and cut to `text_limit`."""

    def report_answer(
        self, report: Report, lang: str, only: Sequence[str], link: str | None
    ) -> list[Message]:
        """A report as a slash command's answer."""

    def answered(self, messages: Sequence[Message]) -> list[Message]:
        """What a slash command's answer carries of drawn messages."""

    def with_buttons(self, message: Message, buttons: Sequence[Button]) -> Message:
        """`message` with `buttons` under it (none when it has no room)."""
        ...

    def destination_hint(self) -> str:
        """What to do when a channel refuses the bot."""


_ALL: tuple[Platform, ...] = (SLACK, DISCORD)
PLATFORMS: Mapping[str, Platform] = {p.name: p for p in _ALL}


def platform_named(name: str) -> Platform:
    """The platform called `name`; any other name is the person's or the settings' mistake."""
    found = PLATFORMS.get(name)
    if found is None:
        known = ", ".join(sorted(PLATFORMS))
        raise InputError(f"no chat platform is called {name!r}: the known ones are {known}")
    return found


# -- By name: what callers holding a destination's platform key draw ------------------------


def chat_parts(
    platform: str,
    report: Report,
    lang: str,
    *,
    only: Sequence[str] = (),
    link: str | None = None,
    with_headline: bool = True,
) -> Parts:
    """A report's chat payloads for the platform called `platform`."""
    drawer = platform_named(platform)
    return drawer.report_parts(report, lang, only=only, link=link, with_headline=with_headline)


def with_picture(platform: str, parts: Parts, picture: Chart, lang: str, label: str) -> Parts:
    return platform_named(platform).with_picture(parts, picture, lang, label)


def with_buttons(platform: str, parts: Parts, buttons: ButtonsFor, day: str, lang: str) -> Parts:
    """Each section reply of a post with the buttons `buttons` gives it (not the headline:
    the post's first message stays the gist alone, nor a picture on its own)."""
    drawer = platform_named(platform)
    return [
        (name, payload if _bare(name) else drawer.with_buttons(payload, buttons(day, name, lang)))
        for name, payload in parts
    ]


def _bare(name: str) -> bool:
    """The headline, and a picture (a reply of its own, or a file uploaded)."""
    return name in ("headline", "chart", "picture") or name.startswith("file:")


__all__ = [
    "DISCORD",
    "PLATFORMS",
    "SLACK",
    "Platform",
    "chat_parts",
    "platform_named",
    "with_buttons",
    "with_picture",
]
