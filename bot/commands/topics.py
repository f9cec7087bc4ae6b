"""`/vllm-topics`: the topics a report, a queue or a digest can be limited to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import Services


class Topics(Command[Request, None]):
    name = "vllm-topics"
    description = "The topics a report can be limited to"

    def request(self, values: Mapping[str, Any]) -> Request:
        return Request()

    def check(self, services: Services, request: Request) -> None:
        return None

    async def answer(self, services: Services, asker: Asker, checked: None) -> Answer:
        lang = services.settings.lang
        lines = [
            f"{t.key} — {t.display_name(lang)}: {t.description}" for t in services.rules.topics
        ]
        lines += services.topic_lines  # what the features let a channel subscribe to
        return Said("\n".join(lines))
