"""`/vllm-subscriptions`: the digests this channel and the asker receive."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import Services


class Subscriptions(Command[Request, None]):
    name = "vllm-subscriptions"
    description = "What this channel and you receive"

    def request(self, values: Mapping[str, Any]) -> Request:
        return Request()

    def check(self, services: Services, request: Request) -> None:
        return None

    async def answer(self, services: Services, asker: Asker, checked: None) -> Answer:
        user = asker.user
        found = services.store.list(asker.platform, [user, asker.channel])
        lines = [
            f"{'your DMs' if s.target_kind == 'dm' else 'this channel'}: {s.key}"
            + (f" ({s.cadence})" if s.key.is_personal else "")
            for s in found
            if (s.target_kind == "dm") == (s.target_id == user)
        ]
        return Said("\n".join(lines) or "no digests here: try `/vllm-subscribe amd`")
