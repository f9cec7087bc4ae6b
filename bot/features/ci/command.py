"""`/vllm-ci [hardware] [when] [lang] [public]`: which CI jobs were failing on vLLM's main at
the window's end, since when, on which hardware, and the PR suspected; `/vllm-ci wrong
<failure> <PR>`: a person says a suspect is wrong (kept; answered only to them)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, Message, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.report import PUBLIC
from bot.commands.services import Services
from bot.commands.words import CommandError, Option, sort_words
from bot.features.ci.model import HARDWARE, CiState, is_ci, key_hardware
from bot.features.ci.service import CiService
from bot.model.asking import AskError
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window
from bot.platforms.registry import Platform

USAGE = "say `/vllm-ci wrong <failure> <PR>`, e.g. `/vllm-ci wrong 1006 37483`"


@dataclass(frozen=True)
class CiRequest(Request):
    hardware: str | None = None
    when: str = "today"  # the report day in progress, as it stands now
    lang: str | None = None


@dataclass(frozen=True)
class CiCorrection(Request):
    """`wrong <failure> <PR>`, as typed (never public: it is the asker's word)."""

    words: tuple[str, ...] = ()

    def said(self) -> tuple[str, ...]:
        return ("wrong", *self.words)


@dataclass(frozen=True)
class Look:
    ci: CiService
    window: Window
    hardware: str | None
    public: bool
    lang: str = "en"


@dataclass(frozen=True)
class Fix:
    ci: CiService
    failure: str
    pr: str


class Ci(Command[CiRequest | CiCorrection, Look | Fix]):
    name = "vllm-ci"
    description = "What is failing on vLLM's main, since when, and the suspected PR"
    options = (
        Option("hardware", "word", f"one hardware: {', '.join(HARDWARE)} (default: all)"),
        Option("when", "when", "the window (default: today, as it stands now)"),
        Option("lang", "lang", "en or zh (default: the bot's)", choices=("en", "zh")),
        PUBLIC,
        Option("wrong", "word", "a suspect is wrong: <failure> <PR>, e.g. 1006 37483"),
    )
    example = "/vllm-ci amd"
    costly = True
    failing = "read the CI dashboard"

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        if words and words[0].lower() == "wrong":
            return {"wrong": words[1:]}
        looking = [o for o in self.options if o.name != "wrong"]
        return sort_words(words, looking, self.example, services)

    def request(self, values: Mapping[str, Any]) -> CiRequest | CiCorrection:
        said = values.get("wrong")
        if isinstance(said, list) or said:
            words = said if isinstance(said, list) else str(said).split()
            return CiCorrection(words=tuple(str(w) for w in words))
        return CiRequest(
            hardware=text(values.get("hardware")),
            when=text(values.get("when")) or "today",
            lang=text(values.get("lang")),
            public=bool(values.get("public")),
        )

    def is_costly(self, request: CiRequest | CiCorrection) -> bool:
        return isinstance(request, CiRequest)

    def failure(self, request: CiRequest | CiCorrection) -> str:
        return self.failing if isinstance(request, CiRequest) else "keep the correction"

    def check(self, services: Services, request: CiRequest | CiCorrection) -> Look | Fix:
        ci = services.feature(CiService)
        if ci is None:
            raise CommandError("Red on main is off here (VLLM_REPORT_CI_URL=none)")
        if isinstance(request, CiCorrection):
            if len(request.words) != 2:
                given = len(request.words)
                said = f"a correction names a failure and a PR ({given} given)"
                raise CommandError(f"{said}: {USAGE}.")
            return Fix(ci, *request.words)
        hardware = request.hardware.strip().lower() if request.hardware else None
        if hardware is not None and hardware not in HARDWARE:
            known = ", ".join(HARDWARE)
            raise CommandError(f"'{request.hardware}' is no hardware: say one of {known}")
        lang = request.lang or services.settings.lang
        if lang not in ("en", "zh"):
            raise CommandError("say `en` or `zh`")
        return Look(ci, services.window(request.when), hardware, request.public, lang)

    async def answer(self, services: Services, asker: Asker, checked: Look | Fix) -> Answer:
        if isinstance(checked, Fix):
            fix = checked
            said = await asyncio.to_thread(fix.ci.correct, fix.failure, fix.pr, asker.key)
            return Said(said)
        state = await asyncio.to_thread(
            checked.ci.state, checked.window, ask=True, topic=checked.hardware
        )
        return CiShown(state, checked.window.label, not checked.public, checked.lang)


@dataclass(frozen=True)
class CiShown:
    """Red on main: what failed on vLLM's main at a window's end."""

    state: CiState
    label: str
    ephemeral: bool = True
    lang: str = "en"

    def told(self) -> str:
        return f"the {self.label} CI state ({self.state.state})"

    def draw(self, platform: Platform) -> list[Message]:
        from bot.features.ci.render import ci_message

        one = ci_message(self.state, self.label, self.lang)
        return platform.answered(platform.one_message(one, self.lang))


def ci_topics(key: SubscriptionKey) -> SubscriptionKey | None:
    """CI news for every hardware (`ci`) or one it runs on (`ci:amd`); AskError (one
    sentence) for a hardware CI does not run on."""
    if not is_ci(key):
        return None
    hardware = key_hardware(key)
    if hardware is not None and hardware not in HARDWARE:
        raise AskError(
            f"'{key}' names no hardware: say `ci` or `ci:<hardware>` ({', '.join(HARDWARE)})"
        )
    return key
