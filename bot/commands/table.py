"""The table of commands, and the one wrapper every answer goes through.

A new command is a module with a `Command` subclass and one line with its rank, its place
in the table: the core's in `CORE_RANKED` here, a feature's in its declaration
(bot/features/<name>/feature.py); the composition root puts the whole table together in
rank order (`bot.app.table`). Slack sends only the commands its app declares, so each is
also an entry of manifest.yml (tests/project/test_manifest.py keeps the two equal). Slack,
the Discord gateway and the Discord HTTP endpoint register every entry in one loop each,
and `Commands.answer` gives each the same treatment — the words checked (bad input: one
sentence, no limit spent), the per-person limit for costly ones, GitHub or store failures
said in a sentence, and one log line and one latency observation per answer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.collect.source import CollectError
from bot.commands.answers import Answer, ReportShown, Said
from bot.commands.base import Asker, Command, Press, Request
from bot.commands.report import Report
from bot.commands.services import Services
from bot.commands.subscribe import Subscribe, Unsubscribe
from bot.commands.subscriptions import Subscriptions
from bot.commands.topics import Topics
from bot.model.errors import InputError
from bot.observe.logs import event
from bot.store import StoreError

if TYPE_CHECKING:
    from bot.observe.metrics import Metrics

log = logging.getLogger(__name__)

# The core's commands, each with its place in the whole table (a feature's commands take theirs
# in its declaration: bot/features/<name>/feature.py), in the order Slack's manifest and
# Discord's command list show them.
CORE_RANKED: tuple[tuple[int, Command[Any, Any]], ...] = (
    (10, Report()),
    (50, Subscribe()),
    (60, Unsubscribe()),
    (70, Subscriptions()),
    (90, Topics()),
)
CORE_COMMANDS: tuple[Command[Any, Any], ...] = tuple(command for _, command in CORE_RANKED)


class Commands:
    """The table bound to the process's services: what every adapter calls."""

    def __init__(
        self,
        services: Services,
        metrics: Metrics | None = None,
        table: Sequence[Command[Any, Any]] = CORE_COMMANDS,
        presses: Mapping[str, Press] | None = None,
    ) -> None:
        self.services = services
        self.metrics = metrics
        self.table = {command.name: command for command in table}
        # What a button on a posted message does, by its id's prefix (`vr.feedback`).
        self.presses = dict(presses or {})

    def __iter__(self) -> Iterator[Command[Any, Any]]:
        return iter(self.table.values())

    def read(self, command: Command[Any, Any], typed: str) -> Request:
        """The request of words typed as text (Slack); bad words: CommandError."""
        values = command.read_words(typed.split(), self.services)
        request: Request = command.request(values)
        return request

    def request(self, command: Command[Any, Any], values: Mapping[str, Any]) -> Request:
        """The request of typed option values (Discord)."""
        request: Request = command.request(values)
        return request

    async def answer(self, command: Command[Any, Any], asker: Asker, request: Request) -> Answer:
        """The answer, never an exception: bad input and failures are a sentence."""
        began = time.perf_counter()
        told = await self._answer(command, asker, request)
        self._told(command.name, request.said(), asker.key, told, time.perf_counter() - began)
        return told

    async def _answer(self, command: Command[Any, Any], asker: Asker, request: Request) -> Answer:
        services = self.services
        try:
            checked = command.check(services, request)
            wait = services.limiter.allow(asker.key) if command.is_costly(request) else 0.0
            if wait:
                return Said(f"easy — one report at a time: try again in {wait:.0f} s")
            answer: Answer = await command.answer(services, asker, checked)
            return answer
        except InputError as exc:
            return Said(str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("/%s failed: %s", command.name, exc)
            return Said(f"could not {command.failure(request)}: {exc}")
        except Exception:  # a bug: the person gets a sentence, the log the traceback
            log.exception("/%s failed", command.name)
            return Said("something went wrong; try again")

    async def press(self, action: str, value: str, asker: Asker) -> Said:
        """A button pressed on a posted message (Slack's block action, Discord's component):
        its feature's answer, one sentence only the presser sees; never an exception."""
        prefix = max((p for p in self.presses if action.startswith(p)), key=len, default=None)
        if prefix is None:
            return Said("this button is no longer answered by the bot")
        began = time.perf_counter()
        try:
            said = await self.presses[prefix](asker, action.removeprefix(prefix), value)
        except InputError as exc:
            said = Said(str(exc))
        except StoreError as exc:
            log.warning("a press of %s failed: %s", prefix, exc)
            said = Said(f"could not count it: {exc}")
        except Exception:  # a bug: the presser gets a sentence, the log the traceback
            log.exception("a press of %s failed", prefix)
            said = Said("something went wrong; try again")
        self._told(
            prefix, (action.removeprefix(prefix),), asker.key, said, time.perf_counter() - began
        )
        return said

    def _told(
        self, command: str, words: tuple[str, ...], user: str, answer: Answer, took: float
    ) -> None:
        # Typed by strangers: one line, printable, short (no forged log lines).
        said = " ".join(" ".join(words).split())
        said = "".join(c for c in said if c.isprintable())[:120]
        if self.metrics is not None:
            self.metrics.command_latency.labels(command=command).observe(took)
        event(
            log,
            "command",
            "answered /%s%s for %s with %s in %.2f s",
            command,
            f" {said}" if said else "",
            user,
            answer.told(),
            took,
            command=command,
            user=user,
            seconds=round(took, 4),
            report=isinstance(answer, ReportShown),
        )
