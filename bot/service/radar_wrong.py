"""`/vllm-radar wrong <plugin PR> <upstream PR>`: a person says the breakage radar named the
wrong culprit for a plugin fix, on Slack or Discord (the command line's `vllm-report radar
wrong` calls `RadarService.correct` itself).

The words come from each adapter (Slack's text after `wrong`, Discord's `wrong` option);
the pair is checked and kept by `RadarService.correct`. The answer is one sentence, bad
input included; nothing here raises to the adapter. Timed and logged like every command
when the service is `TimedCommands`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.collect.source import CollectError
from bot.model.errors import InputError
from bot.service.command_log import TimedCommands
from bot.service.commands import Answer, CommandService
from bot.store import StoreError

log = logging.getLogger(__name__)

WORD = "wrong"
USAGE = (
    "say `/vllm-radar wrong <plugin PR> <upstream PR>`, "
    "e.g. `/vllm-radar wrong vllm-ascend#3221 24982`"
)


def wrong_words(text: str) -> list[str] | None:
    """The words after `wrong` when `text` (a `/vllm-radar` command's) starts with it, else
    None: it is an ordinary radar request."""
    words = text.split()
    if not words or words[0].lower() != WORD:
        return None
    return words[1:]


async def correct(service: CommandService, user: str, words: Sequence[str]) -> Answer:
    """Keep the correction the words say (`vllm-ascend#3221 24982`); the answer in a
    sentence, only to the person who said it."""

    async def answer() -> Answer:
        try:
            if service.radars is None:
                raise InputError("the breakage radar is not served here")
            if len(words) != 2:
                raise InputError(f"a correction names two PRs ({len(words)} given): {USAGE}.")
            said = await asyncio.to_thread(service.radars.correct, words[0], words[1], user)
        except InputError as exc:
            return Answer(text=str(exc))
        except (CollectError, StoreError) as exc:
            log.warning("radar correction failed: %s", exc)
            return Answer(text=f"could not keep the correction: {exc}")
        return Answer(text=said)

    if isinstance(service, TimedCommands):
        return await service._timed_async("vllm-radar", (WORD, *words), user, answer())
    return await answer()
