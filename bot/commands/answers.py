"""A command's answer, one type per kind of answer, each drawn for any chat platform.

The adapters only deliver what a member draws (`draw(platform)`, the platform an object
of bot.platforms: a list of message payloads) and log what it `told()`; none of them
branches on the kind, and no answer branches on the platform. Drawing a report is
CPU work (tens of milliseconds): adapters call these in a worker thread, and the same
report asked in the same words is drawn once (bot.commands.drawn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.commands.drawn import drawn, key_of
from bot.model.report import Report
from bot.platforms.registry import Platform
from formatters._text import clean

Message = dict[str, Any]


@dataclass(frozen=True)
class Said:
    """A sentence: help, a refusal, a subscription done."""

    text: str
    ephemeral: bool = True

    def told(self) -> str:
        return "a sentence"

    def draw(self, platform: Platform) -> list[Message]:
        return [platform.said(shown(self.text))]


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

    def draw(self, platform: Platform) -> list[Message]:
        key = key_of(platform.name, self.report, self.lang, self.only, self.link)
        return drawn(
            key, lambda: platform.report_answer(self.report, self.lang, self.only, self.link)
        )


class Answer(Protocol):
    """What a command answers: drawn for a platform, logged in a few words. The core's
    answers are here; a feature's are in its command module (the queue's, the radar's,
    Red on main's), and the adapters deliver them all alike."""

    @property
    def ephemeral(self) -> bool:
        """Seen only by who asked (or, False, by the channel)."""
        ...

    def told(self) -> str:
        """What was answered, in a few words, for the log line."""
        ...

    def draw(self, platform: Platform) -> list[Message]:
        """The messages of the answer on `platform`."""
        ...
