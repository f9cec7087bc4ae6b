"""What a command is: its name, the options it takes (one list serves Slack's typed text,
Discord's typed options and autocomplete), its request, and how it is answered.

A command answers in two steps so that the one wrapper (bot.commands.table.Commands) can
put the rate limit between them: `check` reads the request's words into checked values
(bad words: an InputError whose message is the whole answer, and no limit spent), then
`answer` does the work.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, TypeVar

from bot.commands.answers import Answer, Said
from bot.commands.services import Services
from bot.commands.words import Option, sort_words


@dataclass(frozen=True)
class Request:
    """A command as typed, nothing checked yet. `public`: the answer is for all to see."""

    public: bool = False

    def said(self) -> tuple[str, ...]:
        """The words as given, for the log line (every text field, in order)."""
        values = (getattr(self, f.name) for f in fields(self))
        return tuple(v for v in values if isinstance(v, str) and v)


@dataclass(frozen=True)
class Asker:
    """Who asked, and where, as the platform says it."""

    platform: str  # "slack" or "discord"
    user: str
    channel: str = ""
    in_dm: bool = False
    # Asked only by a command that needs it (Slack asks its API): may they manage the channel?
    may_manage: Callable[[], Awaitable[bool]] | None = None

    @property
    def key(self) -> str:
        """One name per person across platforms (the rate limit's and the log's)."""
        return f"{self.platform}:{self.user}"

    async def can_manage(self) -> bool:
        return self.in_dm or (self.may_manage is not None and await self.may_manage())


# A button on a posted message, pressed: given who pressed it, the rest of its id after the
# prefix it is registered by (`.useful`) and its value, the sentence they alone see.
Press = Callable[["Asker", str, str], Awaitable[Said]]

R = TypeVar("R", bound=Request)
C = TypeVar("C")


class Command(ABC, Generic[R, C]):
    """One slash command. Subclasses set the class attributes and the three methods."""

    name: ClassVar[str]  # as typed: `vllm-report`
    description: ClassVar[str]  # Discord shows it (at most 100 characters)
    options: ClassVar[tuple[Option, ...]] = ()
    example: ClassVar[str] = ""  # what to try, said in an answer to bad words
    costly: ClassVar[bool] = False  # rate-limited per person, and Discord shows "thinking"
    failing: ClassVar[str] = "answer that"  # "could not <failing>: <why>" when GitHub fails

    @abstractmethod
    def request(self, values: Mapping[str, Any]) -> R:
        """The request from option values (Discord's options, or the words of Slack's text
        sorted by `bot.commands.words`)."""

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        """The option values of words typed as text; a command whose words are positional
        (subscribe) reads them itself; one that takes none ignores what was typed."""
        if not self.options:
            return {}
        return sort_words(words, self.options, self.example, services)

    def is_costly(self, request: R) -> bool:
        return self.costly

    def failure(self, request: R) -> str:
        return self.failing

    @abstractmethod
    def check(self, services: Services, request: R) -> C:
        """The request's words checked against the rules and settings (InputError)."""

    @abstractmethod
    async def answer(self, services: Services, asker: Asker, checked: C) -> Answer:
        """The work: a report, a queue, a sentence."""


def text(value: Any) -> str | None:
    """An option's text, None when not given (Discord sends "" for a cleared option)."""
    return str(value) if value not in (None, "") else None
