"""Asking a command as a person types it, without a platform in between."""

from __future__ import annotations

import asyncio

from bot.commands import Answer, Asker, Commands, Said


def ask(
    commands: Commands,
    name: str,
    text: str = "",
    *,
    user: str = "U1",
    channel: str = "C1",
    manage: bool = False,
) -> Answer:
    """`/<name> <text>` typed by `user` in `channel` (may they manage it: `manage`)."""
    command = commands.table[name]

    async def may_manage() -> bool:
        return manage

    async def answer() -> Answer:
        return await commands.answer(
            command, Asker("slack", user, channel, may_manage=may_manage), request
        )

    request = commands.read(command, text)
    return asyncio.run(answer())


def said(answer: Answer) -> str:
    """The sentence of an answer that is one (else the test fails)."""
    assert isinstance(answer, Said), answer
    return answer.text
