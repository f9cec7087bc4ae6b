"""`/vllm-subscribe <topic> [here|dm]` and `/vllm-unsubscribe <topic> [here|dm]`: a topic's
digest after each daily report, in this channel (needs permission to manage it) or in the
asker's DMs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.services import Services
from bot.commands.words import CommandError, Option
from bot.model.radar import PLUGINS_DIGEST, PLUGINS_TOPIC
from bot.store import Subscription


@dataclass(frozen=True)
class SubscribeRequest(Request):
    topic: str = ""
    where: str = "here"


@dataclass(frozen=True)
class Checked:
    key: str
    name: str  # the topic as readers know it: "AMD / ROCm"
    where: str


class Subscribe(Command[SubscribeRequest, Checked]):
    name = "vllm-subscribe"
    description = "Get a topic's daily digest"
    options = (
        Option("topic", "topic", "the topic (see /vllm-topics)", required=True, complete="topic"),
        Option("where", "where", "this channel, or your DMs", choices=("here", "dm")),
    )
    example = "/vllm-subscribe amd"
    remove: ClassVar[bool] = False

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        """Positional: the topic, then where (checked by `check`, which says what to type)."""
        if not words:
            raise CommandError("say which topic: `/vllm-subscribe amd` (see `/vllm-topics`)")
        low = [w.lower() for w in words]
        return {"topic": low[0], "where": " ".join(low[1:]) or "here"}

    def request(self, values: Mapping[str, Any]) -> SubscribeRequest:
        return SubscribeRequest(
            topic=text(values.get("topic")) or "", where=text(values.get("where")) or "here"
        )

    def check(self, services: Services, request: SubscribeRequest) -> Checked:
        key = services.check_topic(request.topic)
        if request.where not in ("here", "dm"):
            raise CommandError("say `here` (this channel) or `dm` (your direct messages)")
        rule = services.rules.topic(key)
        name = rule.display_name(services.settings.lang) if rule is not None else key
        return Checked(key, PLUGINS_DIGEST if key == PLUGINS_TOPIC else name, request.where)

    async def answer(self, services: Services, asker: Asker, checked: Checked) -> Answer:
        where = "dm" if asker.in_dm else checked.where  # in a DM, `here` is the DM
        if where == "here" and not await asker.can_manage():
            return Said(
                "subscribing this channel needs permission to manage it; "
                f"`/vllm-subscribe {checked.key} dm` sends the digest to you instead"
            )
        kind, target = ("dm", asker.user) if where == "dm" else ("channel", asker.channel)
        sub = Subscription(asker.platform, kind, target, checked.key, asker.user)
        place = "your DMs" if kind == "dm" else "this channel"
        gets, was = ("get", "were") if kind == "dm" else ("gets", "was")  # DMs are plural
        name = checked.name
        if self.remove:
            done = services.store.remove(sub)
            return Said(
                f"{place} will no longer get the {name} digest"
                if done
                else f"{place} {was} not subscribed to {name}"
            )
        added = services.store.add(sub, services.clock())
        return Said(
            f"{place} will get the {name} digest after each daily report"
            if added
            else f"{place} already {gets} the {name} digest"
        )


class Unsubscribe(Subscribe):
    name = "vllm-unsubscribe"
    description = "Stop a topic's daily digest"
    remove = True
