"""A feature as small as one can be, declared the way bot/features/<name>/feature.py
declare theirs, for tests/features/test_declared.py: a report section one may ask for by
its word (`--section tiny`), a subscription kind (`tiny`, `tiny:<word>`) with its digest, a
slash command, a command-line subcommand, a `/vllm-topics` line and a doctor line, and
nothing in the core naming it."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request
from bot.commands.services import Services
from bot.features import AddPart, Commands, CommandServices, Feature, FeatureContext
from bot.model.outline_parts import Block, Entry, Our, Section
from bot.model.report import Report
from bot.model.subscriptions import KeyForm, SubscriptionKey
from bot.service.doctor import Check
from bot.service.reports import Asking


@dataclass(frozen=True)
class TinyPart:
    """The feature's share of a report: one section with one line."""

    name: str = "tiny"
    json_key: str = "tiny"
    rank: int = 95
    chat_rank: int | None = None
    on_quiet_day: bool = False

    def section(self, lang: str) -> Section | None:
        said = "一个小功能" if lang == "zh" else "a tiny feature was here"
        return Section("tiny", "🐣 Tiny", (Block(entries=(Entry((Our(said),)),)),))

    def headline(self, lang: str) -> str | None:
        return None

    def chat_blocks(self, section: Section, label: str, lang: str) -> tuple[Block, ...]:
        return section.blocks

    def to_json(self) -> dict[str, Any]:
        return {"here": True}


class Tiny(Command[Request, None]):
    name = "vllm-tiny"
    description = "A tiny feature's command"

    def request(self, values: Mapping[str, Any]) -> Request:
        return Request()

    def check(self, services: Services, request: Request) -> None:
        return None

    async def answer(self, services: Services, asker: Asker, checked: None) -> Answer:
        return Said("tiny")


def _part(ctx: FeatureContext) -> AddPart:
    def add(report: Report, asking: Asking) -> Report:
        return report.with_part(TinyPart())

    return add


class TinyDigests:
    """What a `tiny` or `tiny:<word>` subscriber gets after the day's post: the Tiny section."""

    def wants(self, key: SubscriptionKey) -> bool:
        return key.kind == "tiny"

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]]:
        return report.with_part(TinyPart()), ("tiny",)


def _check(key: SubscriptionKey) -> SubscriptionKey | None:
    """A channel may subscribe to `tiny` and `tiny:<word>` (stored in lower case)."""
    if key.kind != "tiny":
        return None
    return SubscriptionKey("tiny", key.value.lower() if key.value else None)


def _named(key: SubscriptionKey) -> str:
    return "Tiny" + (f" of {key.value}" if key.value else "")


def _cli(commands: argparse._SubParsersAction[Any]) -> None:
    tiny = commands.add_parser("tiny", help="a tiny feature's subcommand")
    tiny.set_defaults(func=lambda args: print("tiny") or 0)


FEATURE = Feature(
    "tiny",
    sections=("tiny",),
    keys=(
        KeyForm("tiny", alone=True, prefixed=True, missing="say a word after `tiny:`", name=_named),
    ),
    part=_part,
    commands=Commands(lambda: ((85, Tiny()),)),
    services=lambda ctx: CommandServices(
        topic_check=_check, topic_lines=("tiny, tiny:<word> — what a tiny feature says",)
    ),
    digests=lambda ctx: TinyDigests(),
    doctor=lambda settings: Check("tiny", True, "a tiny feature is fine"),
    cli=_cli,
)
