"""`/vllm-subscribe <what> [here|dm] [daily|weekly|off]` and `/vllm-unsubscribe <what>
[here|dm]`: a digest in this channel (needs permission to manage it) or in the asker's DMs.

<what> is a topic (`amd`, see /vllm-topics), sent after each daily report, or a personal
filter (bot.commands.filters): `label:<name>`, `author:<login>`, `path:<glob>`, `mine` (the
asker's linked GitHub login: /vllm-me), sent daily, weekly or not at all (`off` keeps it).
A DM subscription is the asker's own; a channel's needs permission to manage the channel,
asked only once the words are known to be right. `mine` is always the asker's DMs, wherever
it is typed, so it never needs that permission."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.commands.answers import Answer, Said
from bot.commands.base import Asker, Command, Request, text
from bot.commands.filters import confirm, parsed, read_cadence, read_key
from bot.commands.services import Services
from bot.commands.words import CommandError, Option
from bot.model.asking import AskError
from bot.model.errors import InputError
from bot.model.subscriptions import (
    CADENCES,
    FILTER_FORMS,
    MINE,
    Filter,
    SubscriptionKey,
)
from bot.store import Subscription


@dataclass(frozen=True)
class SubscribeRequest(Request):
    topic: str = ""
    where: str = ""  # "": not said (this channel; `mine`: the asker's DMs)
    cadence: str = ""  # "": daily for a new subscription, unchanged for a known one


@dataclass(frozen=True)
class Checked:
    key: SubscriptionKey  # in its stored form
    name: str  # the topic as readers know it: "AMD / ROCm"
    where: str
    cadence: str = ""

    @property
    def filter(self) -> Filter | None:
        """A personal digest's filter."""
        return self.key.filter


class Subscribe(Command[SubscribeRequest, Checked]):
    name = "vllm-subscribe"
    description = "Get a topic's daily digest, or your own by label, author, path or mine"
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "topic",
            "topic",
            "a topic (see /vllm-topics), or label:<name>, author:<login>, path:<glob>, mine",
            required=True,
            complete="topic",
        ),
        Option("where", "where", "this channel, or your DMs", choices=("here", "dm")),
        Option("cadence", "word", "how often (label:, author:, path:, mine)", choices=CADENCES),
    )
    example = "/vllm-subscribe amd"
    failing = "subscribe"
    remove: ClassVar[bool] = False

    def read_words(self, words: list[str], services: Services) -> dict[str, Any]:
        """Positional: the topic or filter, then where and how often, in any order (checked by
        `check`, which says what to type). The topic or filter as typed (`check` reads it:
        a path keeps its case, everything else is lower); the other words lower case."""
        if not words:
            raise CommandError(self._nothing_said())
        words = _quoted(words)
        first = words[0]
        rest = [w.lower() for w in words[1:]]
        cadence = [w for w in rest if read_cadence(w)]
        where = [w for w in rest if not read_cadence(w)]
        _spaced(first, where)
        if len(cadence) > 1:
            raise CommandError(f"one cadence at a time ({', '.join(cadence)})")
        if cadence and self.remove:
            raise CommandError(
                f"`{cadence[0]}` is how often a digest comes, not one to stop: "
                f"`/vllm-unsubscribe {first}` stops it"
            )
        return {"topic": first, "where": " ".join(where), "cadence": "".join(cadence)}

    def _nothing_said(self) -> str:
        return (
            "say which topic or filter: `/vllm-subscribe amd` (see `/vllm-topics`), "
            f"or {FILTER_FORMS}"
        )

    def request(self, values: Mapping[str, Any]) -> SubscribeRequest:
        return SubscribeRequest(
            topic=text(values.get("topic")) or "",
            where=text(values.get("where")) or "",
            cadence=text(values.get("cadence")) or "",
        )

    def check(self, services: Services, request: SubscribeRequest) -> Checked:
        if request.where not in ("", "here", "dm"):
            raise CommandError("say `here` (this channel) or `dm` (your direct messages)")
        if request.cadence and read_cadence(request.cadence) is None:
            raise CommandError("say how often: `daily`, `weekly` or `off`")
        cadence = request.cadence.lower()
        key = read_key(request.topic)
        if key.is_personal:
            return Checked(key, key.text, request.where, cadence)
        key = self._topic(services, key)
        if cadence not in ("", "daily"):
            raise CommandError(
                f"a topic's digest comes with each daily report; `{cadence}` is for "
                f"{FILTER_FORMS} (e.g. `/vllm-subscribe label:rocm weekly`)"
            )
        return Checked(key, _name(services, key), request.where)

    def _topic(self, services: Services, key: SubscriptionKey) -> SubscriptionKey:
        """The key checked; a feature's key it no longer serves (`radar:<plugin>` of a plugin
        no longer watched) can still be unsubscribed from: it sends nothing, but it can go."""
        try:
            return services.check_topic(key)
        except AskError:
            if self.remove and key.form is not None and key.value is not None:
                return key
            raise

    async def answer(self, services: Services, asker: Asker, checked: Checked) -> Answer:
        mine = checked.key.is_mine
        if mine and checked.where == "here" and not asker.in_dm and not self.remove:
            return Said(
                "`mine` is yours alone, so never a channel's: "
                "`/vllm-subscribe mine` sends it to your DMs"
            )
        # In a DM, `here` is the DM; `mine` is one person's queue: their DMs, wherever typed.
        to_dm = asker.in_dm or mine or checked.where == "dm"
        kind, target = ("dm", asker.user) if to_dm else ("channel", asker.channel)
        place = "your DMs" if to_dm else "this channel"
        if mine and not asker.in_dm and checked.where != "dm":  # typed in a channel: say where
            verb = "is in" if self.remove else "goes to"
            place = f"`mine` is yours alone, so it {verb} your DMs: your DMs"
        sub = Subscription(asker.platform, kind, target, checked.key, asker.user)
        if self.remove:
            return await _unsubscribe(services, asker, checked, sub, place)
        return await _subscribe(services, asker, checked, sub, place)


async def _unsubscribe(
    services: Services, asker: Asker, checked: Checked, sub: Subscription, place: str
) -> Said:
    if sub.target_kind == "channel" and not await asker.can_manage():
        return Said(
            "unsubscribing this channel needs permission to manage it; "
            f"`/vllm-unsubscribe {checked.key} dm` stops the digest in your DMs instead"
        )
    done = services.store.remove(sub)
    form = checked.key.form
    other = form.stored_as(checked.key) if form is not None and form.stored_as else None
    if not done and other is not None:  # `radar:gaudi`, unwatched: stored `radar:vllm-gaudi`
        done = services.store.remove(replace(sub, key=other))
    if done:
        return Said(f"{place} will no longer get the {checked.name} digest")
    gets = "get" if sub.target_kind == "dm" else "gets"  # DMs are plural
    return Said(f"{place} {gets} no {checked.name} digest: nothing to unsubscribe")


async def _subscribe(
    services: Services, asker: Asker, checked: Checked, sub: Subscription, place: str
) -> Said:
    """Store `sub` with its cadence, or change the cadence of the one stored; a personal
    filter not stored yet is checked with GitHub first, and the channel's permission after
    (a wrong label is told as wrong, whoever typed it)."""
    stored = services.store.list(sub.platform, [sub.target_id])
    known = any(s.key == sub.key and s.target_kind == sub.target_kind for s in stored)
    if checked.filter is not None and not known:  # a known one only changes its cadence
        refusal = await _personal(services, asker, checked.filter)
        if refusal:
            return Said(refusal)
    if sub.target_kind == "channel" and not await asker.can_manage():
        return Said(
            "subscribing this channel needs permission to manage it; "
            f"`/vllm-subscribe {checked.key} dm` sends the digest to you instead"
        )
    cadence = checked.cadence or "daily"
    wanted = replace(sub, cadence=cadence)
    name, when = checked.name, _when(checked, cadence)
    if services.store.add(wanted, services.clock()):
        return Said(f"{place} will get the {name} digest {when}")
    before = services.store.set_cadence(wanted) if checked.cadence else None
    if before is not None and before != cadence:
        return Said(f"{place} will get the {name} digest {when} (was {before})")
    gets = "get" if sub.target_kind == "dm" else "gets"
    return Said(f"{place} already {gets} the {name} digest")


def _spaced(first: str, rest: list[str]) -> None:
    """`path:a b` or `label:good first issue` typed unquoted in Slack's text: the filter's
    own sentence (a path has no spaces, quote the label), not "say `here` or `dm`" for the
    words after the space."""
    stray = [w for w in rest if w not in ("here", "dm")]
    if not stray:
        return
    key = parsed(first)
    if not key.is_personal or key.is_mine:
        return
    wanted = read_key(" ".join([first, *stray]))  # a path's or a login's error, or a label
    raise CommandError(
        f"`{' '.join(stray)}` is not `here`, `dm`, `daily`, `weekly` or `off`; a label with "
        f'spaces goes in quotes: `label:"{wanted.value}"`'
    )


def _quoted(words: list[str]) -> list[str]:
    """`label:"good first issue" dm` typed as text: the quoted words are one (a label may
    hold spaces); without a closing quote, the rest is the label."""
    try:
        key = SubscriptionKey.parse(words[0])
    except InputError:
        return words  # nothing to join: `check` says what is wrong with it
    value = (key.value or "") if key.is_personal else ""
    if not value.startswith('"'):
        return words
    for end, word in enumerate(words):
        if word.endswith('"') and (end > 0 or len(value) > 1):
            return [" ".join(words[: end + 1]).replace('"', ""), *words[end + 1 :]]
    return [" ".join(words).replace('"', "")]


async def _personal(services: Services, asker: Asker, rule: Filter) -> str | None:
    """Why this person cannot subscribe to `rule` (None: they can): `mine` needs their
    GitHub login; a label, a login or a path is checked against GitHub (CommandError)."""
    if rule.kind == MINE:
        links = services.logins
        if links is None or links.login(asker.platform, asker.user) is None:
            return "link your GitHub login first: `/vllm-me github <login>`"
        return None
    await asyncio.to_thread(confirm, rule, services)
    return None


def _name(services: Services, key: SubscriptionKey) -> str:
    """A checked topic's digest as readers know it: "AMD / ROCm", "Red on main (amd)" (a
    feature's key named as its feature declares)."""
    if key.form is not None:
        return key.form.name(key) if key.form.name is not None else key.text
    rule = services.rules.topic(key.text)
    return rule.display_name(services.settings.lang) if rule is not None else key.text


def _when(checked: Checked, cadence: str) -> str:
    if checked.filter is None:
        return "after each daily report"
    return {
        "daily": "after each daily report",
        "weekly": "once a week, with the weekly day's report",
        "off": "no more until you say `daily` or `weekly` (kept, paused)",
    }[cadence]


class Unsubscribe(Subscribe):
    name = "vllm-unsubscribe"
    description = "Stop a digest (a topic, or label:, author:, path:, mine)"
    options = Subscribe.options[:2]
    example = "/vllm-unsubscribe amd"
    failing = "unsubscribe"
    remove = True

    def _nothing_said(self) -> str:
        return (
            "say which digest to stop: `/vllm-unsubscribe amd` (`/vllm-subscriptions` lists them)"
        )
