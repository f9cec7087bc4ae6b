"""Features: each one folder holding its own model, collection, store, analysis, drawing,
slash commands and command line, built on the core and never on one another.

Each declares itself once, in its folder's `feature.py` (a `Feature`, below:
its report part, slash commands, subscriptions' digests, site pages, doctor line and
command line, section words, subscription kinds), and is listed once, below. The
composition root (bot/app/features.py) and the command line walk the list; no core module
imports a feature, and the core learns the features' words from the declarations: their
section words (`section_words`) and subscription kinds (`declare`, when `declared` first
reads them). Their settings (config/fields.py) and tables (schema.py) are still the core's.
A feature reaches the report through a `ReportPart` (bot/model/parts.py) that draws its
own section, headline line, chat reply and JSON. `lint-imports` holds the two rules:
features do not import each other, and the core does not import features.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from bot.model.report import sections_with
from bot.model.subscriptions import KeyForm, declare

if TYPE_CHECKING:
    import argparse

    from bot.collect.sync import Archiver
    from bot.commands import Command
    from bot.commands.base import Press
    from bot.commands.services import Logins, TopicCheck
    from bot.model.buttons import ButtonsFor
    from bot.model.report import ActivityItem, Report
    from bot.model.rules import TopicRules
    from bot.service.daily import DailyJob
    from bot.service.daily_run import DestinationDigests, FeatureDigests
    from bot.service.doctor import Check
    from bot.service.reports import Asking, Reports
    from bot.service.site import SitePages
    from bot.store import Store
    from config.settings import Settings


# What a feature tells a `mine` reader of a day's report (the report, their GitHub login):
# None, or news the personal digests show (bot.features.personal.model.ReaderNews).
NewsFor = Callable[["Report", str], Any]
# What adds a feature's part to a report, given how the report is being made.
AddPart = Callable[["Report", "Asking"], "Report"]
# The leader's gate: a job wrapped so only the replica that leads runs it.
Gate = Callable[[Callable[[], Awaitable[Any]]], Callable[[], Awaitable[Any]]]


class Shared:
    """The services features share across the bot, by feature name, each built when it is
    first asked for: a command that needs none (`show --counts-only`) loads none."""

    def __init__(self) -> None:
        self._make: dict[str, Callable[[], Any]] = {}
        self._built: dict[str, Any] = {}

    def offer(self, name: str, make: Callable[[], Any]) -> None:
        self._make[name] = make

    def get(self, name: str) -> Any:
        if name not in self._built and name in self._make:
            self._built[name] = self._make[name]()
        return self._built.get(name)


@dataclass(frozen=True)
class FeatureContext:
    """What a feature's hooks build on: the bot's settings, archive, store and clock, and
    the services features share across the bot (`shared`, by feature name: each feature
    reads only its own)."""

    settings: Settings
    rules: TopicRules
    archiver: Archiver
    store: Store
    clock: Callable[[], datetime]
    shared: Shared = field(default_factory=Shared)
    # The bot's reports, for a hook that makes a report of its own (the release digest's
    # window between two releases); None where no bot is open (a feature's own command line).
    reports: Reports | None = None

    def own(self, feature: str) -> Any:
        return self.shared.get(feature)


@dataclass(frozen=True)
class Commands:
    """A feature's slash commands, each with its place among all (`rank`: the core's are
    10 report, 50 subscribe, 60 unsubscribe, 70 subscriptions, 90 topics), in the order
    Slack's manifest and Discord's command list show them."""

    ranked: Callable[[], Sequence[tuple[int, Command[Any, Any]]]]


@dataclass(frozen=True)
class CommandServices:
    """What a feature gives the slash commands: its services by type, which subscription
    keys it lets a channel subscribe to (`ci:amd`, `radar:vllm-ascend`), and readers'
    GitHub logins (the personal feature's)."""

    by_type: Mapping[type, Any] = field(default_factory=dict)
    topic_check: TopicCheck | None = None
    topic_lines: Sequence[str] = ()  # those keys, as `/vllm-topics` lists them
    logins: Logins | None = None


@dataclass(frozen=True)
class Feature:
    """One feature, as the bot meets it. Every hook is optional: a feature without a report
    section has no `part`, one without a command line no `cli`."""

    name: str  # its folder's name, and its key in `FeatureContext.shared`
    # The section words one may ask a report for its part by (`--section ci`, a slash
    # command's section word), and the subscription keys it answers (`ci`, `ci:amd`).
    sections: tuple[str, ...] = ()
    keys: tuple[KeyForm, ...] = ()
    # A service the bot builds once and shares among this feature's hooks (the review
    # queue's, which its part, command and weekly digest all read).
    shared: Callable[[FeatureContext], Any] | None = None
    # Its share of every report: what adds its part (bot.service.reports), made when a
    # report first needs it, or None when the feature is off; `part_name` names it in the
    # report's note when its source fails ("Red on main: …").
    part: Callable[[FeatureContext], AddPart | None] | None = None
    part_name: str = ""
    commands: Commands | None = None
    services: Callable[[FeatureContext], CommandServices] | None = None
    # What the daily run sends its subscribers after the post.
    digests: Callable[[FeatureContext], FeatureDigests | None] | None = None
    # Personal digests: one message per destination (only the personal feature has them),
    # given what the other features tell a `mine` reader.
    destination_digests: (
        Callable[[FeatureContext, tuple[NewsFor, ...]], DestinationDigests] | None
    ) = None
    reader_news: NewsFor | None = None  # what it tells a `mine` reader of a day's report
    # What it knows of one item, for `vllm-report explain` (lines; none: nothing).
    explain: Callable[[FeatureContext, ActivityItem], Sequence[str]] | None = None
    site_pages: Callable[[], SitePages] | None = None
    doctor: Callable[[Settings], Check] | None = None  # its line in `vllm-report doctor`
    cli: Callable[[argparse._SubParsersAction[Any]], None] | None = None  # its subcommand
    # What it says on stderr after `show` prints a report (the plugins it could not read):
    # given the report, the sections asked for and the time; None: nothing to say.
    after_show: Callable[[FeatureContext, Report, Sequence[str], datetime], str | None] | None = (
        None
    )
    # What its buttons on posted messages do, by their ids' prefix (`vr.feedback`), and the
    # buttons it puts under each section of the daily post (None: none today).
    presses: Callable[[FeatureContext], Mapping[str, Press]] | None = None
    buttons: Callable[[FeatureContext], ButtonsFor | None] | None = None
    # Its jobs in `serve`'s scheduler (the weekly queue digest): given the scheduler, the
    # daily job (its deliverer) and the leader's gate every job runs through.
    scheduled: Callable[[FeatureContext, Any, DailyJob, Gate], None] | None = None


# The features, in the order their parts, commands and subcommands are met: one line each.
FEATURES = (
    "queue",
    "radar",
    "ci",
    "personal",
    "releases",
    "feedback",
)


@cache
def declared() -> tuple[Feature, ...]:
    """Every listed feature's declaration (its `feature.py`: cheap, it imports none of the
    feature's services). A dotted name is a declaring module elsewhere (a test's)."""
    modules = (name if "." in name else f"{__name__}.{name}.feature" for name in FEATURES)
    features = tuple(importlib.import_module(module).FEATURE for module in modules)
    declare(form for feature in features for form in feature.keys)
    return features


def section_words() -> tuple[str, ...]:
    """The words `--section` and the slash commands take (besides a topic key): the core's,
    each feature's where its part sits, and the appendix last."""
    return sections_with(word for feature in declared() for word in feature.sections)
