"""`/vllm-queue [topic] [when] [en|zh] [public]`: what waits on whom (reviews, response
times), the topic's first."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, Message, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.report import LANG, PUBLIC
from bot.commands.services import Services
from bot.commands.words import CommandError, Option
from bot.features.queue.model import Queue
from bot.features.queue.service import QueueError, QueueQuery, QueueService
from bot.model import asking
from bot.platforms.registry import Platform


@dataclass(frozen=True)
class QueueRequest(Request):
    topic: str | None = None
    when: str = "yesterday"
    lang: str | None = None


@dataclass(frozen=True)
class Checked:
    queues: QueueService
    query: QueueQuery
    lang: str
    public: bool


class ReviewQueue(Command[QueueRequest, Checked]):
    name = "vllm-queue"
    description = "What waits on whom: reviews, response times"
    options = (
        Option("topic", "topic", "your topic first (default: every vendor)", complete="topic"),
        Option("when", "when", "the window of the response times (default: yesterday)"),
        LANG,
        PUBLIC,
    )
    example = "/vllm-queue amd"
    costly = True
    failing = "make the queue"

    def request(self, values: Mapping[str, Any]) -> QueueRequest:
        return QueueRequest(
            topic=text(values.get("topic")),
            when=text(values.get("when")) or "yesterday",
            lang=text(values.get("lang")),
            public=bool(values.get("public")),
        )

    def check(self, services: Services, request: QueueRequest) -> Checked:
        rules = services.rules
        topic = asking.topic(request.topic, rules) if request.topic else None
        lang = asking.language(request.lang or services.settings.lang)
        window = services.window(request.when)
        queues = services.feature(QueueService)
        if queues is None:
            raise CommandError("the review queue is not served here")
        query = QueueQuery(services.settings.repo, window, topic)
        return Checked(queues, query, lang, request.public)

    async def answer(self, services: Services, asker: Asker, checked: Checked) -> Answer:
        try:
            queue = await asyncio.to_thread(checked.queues.queue, checked.query)
        except QueueError as exc:
            return Said(str(exc))
        return QueueShown(queue=queue, lang=checked.lang, ephemeral=not checked.public)


@dataclass(frozen=True)
class QueueShown:
    """The review queue: what waits on whom."""

    queue: Queue
    lang: str = "en"
    ephemeral: bool = True

    def told(self) -> str:
        return f"the {self.queue.window.label} review queue"

    def draw(self, platform: Platform) -> list[Message]:
        from bot.features.queue.render import queue_message

        return platform.answered(
            platform.one_message(queue_message(self.queue, self.lang), self.lang)
        )
