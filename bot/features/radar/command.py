"""`/vllm-radar [plugin] [when] [lang] [public]`: which upstream vLLM changes broke which watched
hardware plugin, and how far each plugin's pin lags; `/vllm-radar wrong <plugin PR>
<upstream PR>`: a person says a culprit is wrong (kept; every later radar respects it;
answered only to them); `/vllm-radar predict [plugin] [lang] [public]`: the upstream PRs
that will break a plugin, as the last run (the daily run, `vllm-report radar --predict`)
found them, from the archive alone (reading six plugins' source is the daily run's work)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.commands.answers import Answer, Message, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.report import PUBLIC
from bot.commands.services import Services, TopicCheck
from bot.commands.words import CommandError, Option, sort_words
from bot.features.radar.forecast import Forecast
from bot.features.radar.message import radar_message
from bot.features.radar.model import PLUGINS_TOPIC, plugin_key, plugin_of
from bot.features.radar.model import Radar as RadarFacts
from bot.features.radar.phrases import said as phrase
from bot.features.radar.render_forecast import forecast_message
from bot.features.radar.service import RadarService
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window
from bot.platforms.registry import Platform

USAGE = (
    "say `/vllm-radar wrong <plugin PR> <upstream PR>`, "
    "e.g. `/vllm-radar wrong vllm-ascend#3221 24982`"
)


@dataclass(frozen=True)
class RadarRequest(Request):
    plugin: str | None = None
    when: str = "7d"  # a week of plugin fixes: what a plugin team reviews at a time
    lang: str | None = None  # en or zh (default: the bot's)


@dataclass(frozen=True)
class Correction(Request):
    """`wrong <plugin PR> <upstream PR>`, as typed (never public: it is the asker's word)."""

    words: tuple[str, ...] = ()

    def said(self) -> tuple[str, ...]:
        return ("wrong", *self.words)


@dataclass(frozen=True)
class PredictRequest(Request):
    """`predict [plugin]`: the warnings the last run made."""

    plugin: str | None = None
    lang: str | None = None


@dataclass(frozen=True)
class Foretold:
    radars: RadarService
    plugin: str | None
    public: bool
    lang: str = "en"


@dataclass(frozen=True)
class Look:
    radars: RadarService
    window: Window
    plugin: str | None
    public: bool
    lang: str = "en"


@dataclass(frozen=True)
class Fix:
    radars: RadarService
    plugin_pr: str
    upstream_pr: str


class Radar(Command[RadarRequest | Correction | PredictRequest, Look | Fix | Foretold]):
    name = "vllm-radar"
    description = "Which upstream vLLM changes broke which plugin"
    options = (
        Option("plugin", "word", "one plugin, e.g. gaudi (default: every watched plugin)"),
        Option("when", "when", "the window (default: the last 7 days)"),
        Option("lang", "lang", "en or zh (default: the bot's)", choices=("en", "zh")),
        PUBLIC,
        Option(
            "wrong",
            "word",
            "a culprit is wrong: <plugin PR> <upstream PR>, e.g. vllm-ascend#3221 24982",
        ),
        Option(
            "predict",
            "word",
            "upstream PRs that will break a plugin: the plugin, or all",
        ),
    )
    example = "/vllm-radar gaudi 7d"
    costly = True
    failing = "make the radar"

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        if words and words[0].lower() == "wrong":  # every word after it is the correction's
            return {"wrong": words[1:]}
        # Typed as text, a free word is the plugin (`wrong` and `predict` are read here,
        # never free).
        looking = [o for o in self.options if o.name not in ("wrong", "predict")]
        if words and words[0].lower() == "predict":  # `predict [plugin] [lang] [public]`
            looking = [o for o in looking if o.name != "when"]
            values = sort_words(words[1:], looking, "/vllm-radar predict gaudi", services)
            return {**values, "predict": values.pop("plugin", None) or "all"}
        return sort_words(words, looking, self.example, services)

    def request(self, values: Mapping[str, Any]) -> RadarRequest | Correction | PredictRequest:
        said = values.get("wrong")
        if isinstance(said, list) or said:  # Slack: the words after `wrong`; Discord: text
            words = said if isinstance(said, list) else str(said).split()
            return Correction(words=tuple(str(w) for w in words))  # a fuzzed body: any JSON
        foretell = text(values.get("predict"))
        if foretell:  # Slack: the plugin read after `predict` (or `all`); Discord: text
            plugin = None if foretell.strip().lower() == "all" else foretell
            return PredictRequest(
                plugin=plugin or text(values.get("plugin")),
                lang=text(values.get("lang")),
                public=bool(values.get("public")),
            )
        return RadarRequest(
            plugin=text(values.get("plugin")),
            when=text(values.get("when")) or "7d",
            lang=text(values.get("lang")),
            public=bool(values.get("public")),
        )

    def is_costly(self, request: RadarRequest | Correction | PredictRequest) -> bool:
        return isinstance(request, RadarRequest)

    def failure(self, request: RadarRequest | Correction | PredictRequest) -> str:
        if isinstance(request, PredictRequest):
            return "read the warnings"
        return self.failing if isinstance(request, RadarRequest) else "keep the correction"

    def check(
        self, services: Services, request: RadarRequest | Correction | PredictRequest
    ) -> Look | Fix | Foretold:
        radars = services.feature(RadarService)
        if radars is None:
            raise CommandError("the breakage radar is not served here")
        if isinstance(request, PredictRequest):
            if not radars.plugins:
                raise CommandError("no plugin is watched here (VLLM_REPORT_PLUGINS=none)")
            plugin = radars.plugin(request.plugin) if request.plugin else None
            lang = request.lang or services.settings.lang
            if lang not in ("en", "zh"):
                raise CommandError("say `en` or `zh`")
            return Foretold(radars, plugin, request.public, lang)
        if isinstance(request, Correction):
            if len(request.words) != 2:
                given = len(request.words)
                raise CommandError(f"a correction names two PRs ({given} given): {USAGE}.")
            return Fix(radars, *request.words)
        if not radars.plugins:
            raise CommandError("no plugin is watched here (VLLM_REPORT_PLUGINS=none)")
        plugin = radars.plugin(request.plugin) if request.plugin else None
        lang = request.lang or services.settings.lang
        if lang not in ("en", "zh"):
            raise CommandError("say `en` or `zh`")
        return Look(radars, services.window(request.when), plugin, request.public, lang)

    async def answer(
        self, services: Services, asker: Asker, checked: Look | Fix | Foretold
    ) -> Answer:
        if isinstance(checked, Foretold):
            warned = await asyncio.to_thread(checked.radars.last_forecast, checked.plugin)
            if warned is None:
                told = phrase(checked.lang, "warn_no_forecast")
                return Said(told, ephemeral=not checked.public)
            return ForecastShown(warned, ephemeral=not checked.public, lang=checked.lang)
        if isinstance(checked, Fix):
            said = await asyncio.to_thread(
                checked.radars.correct, checked.plugin_pr, checked.upstream_pr, asker.key
            )
            return Said(said)
        found = await asyncio.to_thread(checked.radars.radar, checked.window, checked.plugin)
        return RadarShown(radar=found, ephemeral=not checked.public, lang=checked.lang)


@dataclass(frozen=True)
class RadarShown:
    """The breakage radar: which upstream changes broke which plugin."""

    radar: RadarFacts
    ephemeral: bool = True
    lang: str = "en"

    def told(self) -> str:
        return f"the {self.radar.window.label} radar"

    def draw(self, platform: Platform) -> list[Message]:
        return platform.answered([radar_message(platform, self.radar, self.lang)])


@dataclass(frozen=True)
class ForecastShown:
    """The warnings: upstream PRs that will break a plugin, as the last run found them."""

    forecast: Forecast
    ephemeral: bool = True
    lang: str = "en"

    def told(self) -> str:
        return f"the {self.forecast.label or 'last'} warnings"

    def draw(self, platform: Platform) -> list[Message]:
        return platform.answered([forecast_message(platform, self.forecast, self.lang)])


def plugin_topics(radars: RadarService) -> TopicCheck:
    """What a channel may subscribe to of the radar: `plugins` (the daily report's Plugins
    section) and `radar:<plugin>` (that section for one watched plugin, named any way people
    name it; AskError naming the watched ones for any other), when plugins are watched."""

    def check(key: SubscriptionKey) -> SubscriptionKey | None:
        if not radars.plugins:
            return None  # no plugin is watched: `plugins` is an unknown topic here
        if key.kind == PLUGINS_TOPIC:
            return key
        plugin = plugin_of(key)
        if plugin is not None:
            return plugin_key(radars.plugin(plugin))
        return None

    return check
