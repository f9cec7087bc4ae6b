"""Where the features meet the core: each hook the core declares, filled by walking the
declared features (`bot.features.declared()`, each folder's `feature.py`). Nothing here
names a feature: what a new one adds through these hooks is its folder and one line of
`bot.features.FEATURES`. What it needs beyond them is not (its tables, settings, section
word, subscription keys, its slash command in manifest.yml): docs/architecture.md,
"Features", lists it.

Each builder takes the parts it needs, not the Bot, so bot.app.wiring can call them while
it opens one. A declaration imports none of its feature's services: each hook imports what
it builds when it is called, so importing the composition root loads no feature's service.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.collect.sync import Archiver
from bot.features import AddPart, Feature, FeatureContext, Shared, declared
from bot.service.reports import Asking, PartSource, Reports
from config.settings import Settings

if TYPE_CHECKING:
    from bot.commands import Command
    from bot.commands.base import Press
    from bot.commands.services import Logins, TopicCheck
    from bot.model.buttons import Button, ButtonsFor
    from bot.model.report import Report
    from bot.model.rules import TopicRules
    from bot.service.daily_run import DestinationDigests, FeatureDigests
    from bot.service.doctor import Check
    from bot.service.site import SitePages
    from bot.store import Store


def context(
    settings: Settings,
    rules: TopicRules,
    archiver: Archiver,
    store: Store,
    clock: Callable[[], datetime],
    shared: Shared | None = None,
    reports: Reports | None = None,
) -> FeatureContext:
    """What the features' hooks build on. A new `Shared` is offered every feature's shared
    service (built when first asked for); one given is the bot's, already offered them."""
    if shared is not None:
        return FeatureContext(settings, rules, archiver, store, clock, shared, reports)
    ctx = FeatureContext(settings, rules, archiver, store, clock, Shared())
    for feature in declared():
        if feature.shared is not None:
            ctx.shared.offer(feature.name, functools.partial(feature.shared, ctx))
    return ctx


def report_parts(ctx: FeatureContext) -> list[PartSource]:
    """What the features add to a report, in their order (the review queue, the plugins'
    Plugins section, Red on main); each decides from `Asking` whether and how, and the
    daily run reads each fresh (`ask`) while everyone else gets what the run archived.
    Each is made when a report first needs it: a command that makes none loads none."""
    return [(f.part_name or f.name, _when_needed(f, ctx)) for f in declared() if f.part]


def _when_needed(feature: Feature, ctx: FeatureContext) -> AddPart:
    made: list[AddPart | None] = []

    def add(report: Report, asking: Asking) -> Report:
        if not made and feature.part is not None:
            made.append(feature.part(ctx))
        part = made[0] if made else None
        return part(report, asking) if part is not None else report

    return add


def table() -> tuple[Command[Any, Any], ...]:
    """Every slash command, the core's and the features', in the order Slack's manifest and
    Discord's command list show them (each by its rank)."""
    from bot.commands import CORE_RANKED

    ranked: list[tuple[int, Command[Any, Any]]] = list(CORE_RANKED)
    for feature in declared():
        if feature.commands is not None:
            ranked += feature.commands.ranked()
    return tuple(command for _, command in sorted(ranked, key=lambda pair: pair[0]))


def command_services(
    ctx: FeatureContext,
) -> tuple[dict[type, Any], Logins | None, list[TopicCheck], list[str]]:
    """What the slash commands get of the features, together: each one's service by type,
    the readers' logins, which subscription keys each lets a channel subscribe to and how
    `/vllm-topics` lists them."""
    by_type: dict[type, Any] = {}
    logins: Logins | None = None
    checks: list[TopicCheck] = []
    lines: list[str] = []
    for feature in declared():
        if feature.services is None:
            continue
        given = feature.services(ctx)
        by_type.update(given.by_type)
        logins = given.logins or logins
        checks += [given.topic_check] if given.topic_check is not None else []
        lines += given.topic_lines
    return by_type, logins, checks, lines


def digests(ctx: FeatureContext) -> tuple[DestinationDigests | None, tuple[FeatureDigests, ...]]:
    """What the daily run sends subscribers after the post: personal digests, one message
    per destination (with what every feature tells a `mine` reader), and the features' own
    subscriptions' news (`ci:amd`, `plugins`, `radar:vllm-ascend`)."""
    features = declared()
    news = tuple(f.reader_news for f in features if f.reader_news is not None)
    personal = next(
        (f.destination_digests(ctx, news) for f in features if f.destination_digests), None
    )
    each = (f.digests(ctx) for f in features if f.digests is not None)
    return personal, tuple(d for d in each if d is not None)


def presses(ctx: FeatureContext) -> dict[str, Press]:
    """What the features' buttons on posted messages do, by their ids' prefix."""
    found: dict[str, Press] = {}
    for feature in declared():
        if feature.presses is not None:
            found.update(feature.presses(ctx))
    return found


def buttons(ctx: FeatureContext) -> ButtonsFor | None:
    """The buttons under each section of the daily post: every feature's, side by side."""
    given = [b for f in declared() if f.buttons is not None and (b := f.buttons(ctx))]
    if not given:
        return None

    def together(day: str, section: str, lang: str) -> tuple[Button, ...]:
        return tuple(button for each in given for button in each(day, section, lang))

    return together


def site_pages() -> Sequence[SitePages]:
    """What the features add to the report site (the radar's plugin pages)."""
    return tuple(f.site_pages() for f in declared() if f.site_pages is not None)


def doctor_checks() -> list[Callable[[Settings], Check]]:
    """Each feature's line in `vllm-report doctor`, in the features' order."""
    return [f.doctor for f in declared() if f.doctor is not None]
