"""What a Slack answer of one sentence looks like whatever was typed: within Slack's limits."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.commands import Said
from bot.platforms.registry import SLACK
from bot.platforms.slack.slash import deliver


def test_an_answer_that_echoes_a_long_text_stays_within_slacks_limit() -> None:
    """`<` escapes to `&lt;`: a 12,000-character echo would be a 48,000-character text,
    which Slack cuts without saying where."""
    sent: list[dict[str, Any]] = []

    async def respond(**message: Any) -> None:
        sent.append(message)

    typed = "<" * 12_000
    asyncio.run(deliver(respond, Said(f"No topic named '{typed}'.")))
    [message] = sent
    assert len(message["text"]) <= SLACK.text_limit
    assert message["text"].startswith("No topic named '&lt;&lt;")
    assert message["text"].endswith("…")
