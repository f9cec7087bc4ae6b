"""Topic rules from `config/topics.toml`: parsed and compiled once, then used by pure code.

Word matching treats `_` as a word break (unlike regex `\\b`), because vLLM names things
`ROCM_AITER_TRITON_MLA`; case is ignored. A rule file with a bad pattern or a missing key
is refused at load time with the topic and key named.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from bot.model.errors import InputError
from bot.model.queue_rules import QueueRules, StaleRules
from bot.model.report import Catalog, GroupInfo, TopicInfo

DEFAULT_RULES = Path(__file__).resolve().parents[2] / "config" / "topics.toml"


class RulesError(InputError, ValueError):
    """The topic rules file is wrong; the message names the topic and key."""


def word_pattern(patterns: list[str]) -> re.Pattern[str] | None:
    """One case-insensitive regex matching any of `patterns` as a whole word."""
    if not patterns:
        return None
    joined = "|".join(f"(?:{p})" for p in patterns)
    return re.compile(rf"(?<![A-Za-z0-9])(?:{joined})(?![A-Za-z0-9])", re.IGNORECASE)


@dataclass(frozen=True)
class TopicRule:
    key: str
    name: str
    name_zh: str
    kind: str  # "vendor" or "topic"
    description: str
    tags: frozenset[str]  # lower-case title tags
    keywords: re.Pattern[str] | None
    labels: frozenset[str]
    authors: re.Pattern[str] | None  # any of the author patterns
    people: frozenset[str] = frozenset()  # known contributors (lower-case logins)
    ignore: re.Pattern[str] | None = None  # title phrases that are not this topic
    queue_labels: tuple[str, ...] = ()  # the topic in the review queue (GitHub labels)

    def is_author(self, login: str | None) -> bool:
        """The login matches an author pattern or is on the topic's roster."""
        if not login:
            return False
        return login.lower() in self.people or bool(self.authors and self.authors.search(login))

    def display_name(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else self.name


@dataclass(frozen=True)
class GroupRule:
    key: str
    name: str
    name_zh: str
    tags: frozenset[str]
    labels: frozenset[str]
    keywords: re.Pattern[str] | None

    def display_name(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else self.name


@dataclass(frozen=True)
class TopicRules:
    topics: tuple[TopicRule, ...]
    groups: tuple[GroupRule, ...]
    models: re.Pattern[str] | None
    hardware: re.Pattern[str] | None
    bots: tuple[re.Pattern[str], ...]
    maintainer_associations: frozenset[str]
    queue: QueueRules = field(default_factory=QueueRules)

    def topic(self, key: str) -> TopicRule | None:
        return next((t for t in self.topics if t.key == key), None)

    @cached_property
    def group_index(self) -> dict[str, GroupRule]:
        return {g.key: g for g in self.groups}

    @cached_property
    def vendors(self) -> tuple[TopicRule, ...]:
        return tuple(t for t in self.topics if t.kind == "vendor")

    def vendor_names(self) -> dict[str, list[str]]:
        """How text may name each vendor: its names in both languages and its tags."""
        return {t.key: [t.name, t.name_zh, *t.tags] for t in self.vendors}

    @cached_property
    def vendor_tags(self) -> frozenset[str]:
        return frozenset().union(*(t.tags for t in self.vendors))

    @cached_property
    def _bot_logins(self) -> dict[str, bool]:
        return {}  # login → is a bot: a report asks about the same few hundred logins often

    def is_bot(self, login: str | None) -> bool:
        if login is None:
            return False
        known = self._bot_logins.get(login)
        if known is None:
            known = self._bot_logins[login] = any(p.search(login) for p in self.bots)
        return known

    def catalog(self) -> Catalog:
        """What a report needs to show these topics and groups (names, order, kinds)."""
        return Catalog(
            topics=tuple(
                TopicInfo(t.key, {"en": t.name, "zh": t.name_zh}, t.kind) for t in self.topics
            ),
            groups=tuple(GroupInfo(g.key, {"en": g.name, "zh": g.name_zh}) for g in self.groups),
        )


def load_rules(path: Path | None = None) -> TopicRules:
    path = path or DEFAULT_RULES
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesError(f"topic rules file {path} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"topic rules file {path} is not valid TOML: {exc}") from None
    return parse_rules(data, str(path))


def parse_rules(data: dict[str, Any], source: str = "topics.toml") -> TopicRules:
    def compile_all(where: str, patterns: list[str]) -> tuple[re.Pattern[str], ...]:
        try:
            return tuple(re.compile(p, re.IGNORECASE) for p in patterns)
        except re.error as exc:
            raise RulesError(f"{source}: {where}: bad pattern ({exc})") from None

    def any_of(where: str, patterns: list[str]) -> re.Pattern[str] | None:
        compile_all(where, patterns)  # names the bad one
        return re.compile("|".join(f"(?:{p})" for p in patterns), re.I) if patterns else None

    def words(where: str, patterns: list[str]) -> re.Pattern[str] | None:
        compile_all(where, patterns)  # names the bad one
        return word_pattern(patterns)

    topics = []
    for key, raw in data.get("topics", {}).items():
        where = f"topics.{key}"
        try:
            kind = raw.get("kind", "topic")
            if kind not in ("vendor", "topic"):
                raise RulesError(f"{source}: {where}.kind must be 'vendor' or 'topic'")
            topics.append(
                TopicRule(
                    key=key,
                    name=raw["name"],
                    name_zh=raw.get("name_zh", raw["name"]),
                    kind=kind,
                    description=raw.get("description", ""),
                    tags=frozenset(t.lower() for t in raw.get("tags", [])),
                    keywords=words(f"{where}.keywords", raw.get("keywords", [])),
                    labels=frozenset(label.lower() for label in raw.get("labels", [])),
                    authors=any_of(f"{where}.authors", raw.get("authors", [])),
                    people=frozenset(p.lower() for p in raw.get("people", [])),
                    ignore=any_of(f"{where}.ignore", raw.get("ignore", [])),
                    queue_labels=tuple(raw.get("queue_labels", raw.get("labels", []))),
                )
            )
        except KeyError as exc:
            raise RulesError(f"{source}: {where} needs a {exc.args[0]!r}") from None
    groups = []
    for key, raw in data.get("groups", {}).items():
        groups.append(
            GroupRule(
                key=key,
                name=raw.get("name", key),
                name_zh=raw.get("name_zh", raw.get("name", key)),
                tags=frozenset(t.lower() for t in raw.get("tags", [])),
                labels=frozenset(label.lower() for label in raw.get("labels", [])),
                keywords=words(f"groups.{key}.keywords", raw.get("keywords", [])),
            )
        )
    if not any(g.key == "other" for g in groups):
        groups.append(GroupRule("other", "Other", "其他", frozenset(), frozenset(), None))
    models = data.get("models", {})
    bots = data.get("bots", {})
    return TopicRules(
        topics=tuple(topics),
        groups=tuple(groups),
        models=words("models.families", models.get("families", [])),
        hardware=words("models.hardware", models.get("hardware", [])),
        bots=compile_all("bots.logins", bots.get("logins", [r"\[bot\]$"])),
        maintainer_associations=frozenset(
            bots.get("maintainer_associations", ["OWNER", "MEMBER", "COLLABORATOR"])
        ),
        queue=parse_queue(data, {t.key: t.queue_labels for t in topics}, source),
    )


def parse_queue(
    data: dict[str, Any], labels: dict[str, tuple[str, ...]], source: str = "topics.toml"
) -> QueueRules:
    """The review queue's rules: `[queue]` and `[stale]` (defaults: vLLM's own workflow)."""
    queue, stale = data.get("queue", {}), data.get("stale", {})
    default, default_stale = QueueRules(), StaleRules()

    def number(table: dict[str, Any], where: str, key: str, fallback: int) -> int:
        value = table.get(key, fallback)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RulesError(f"{source}: {where}.{key} must be a whole number of days, 0 or more")
        return value

    ages = queue.get("ages", list(default.ages))
    if not (isinstance(ages, list) and ages and all(isinstance(a, int) and a > 0 for a in ages)):
        raise RulesError(f"{source}: queue.ages must be a list of days, e.g. [2, 7, 30]")
    rules = StaleRules(
        label=str(stale.get("label", default_stale.label)),
        exempt_labels=tuple(stale.get("exempt_labels", default_stale.exempt_labels)),
        exempt_drafts=bool(stale.get("exempt_drafts", default_stale.exempt_drafts)),
        days_before_stale=number(stale, "stale", "days_before_stale", 90),
        days_before_close=number(stale, "stale", "days_before_close", 30),
        soon_days=number(stale, "stale", "soon_days", 7),
    )
    if rules.soon_days > rules.days_before_close:
        raise RulesError(f"{source}: stale.soon_days cannot be more than days_before_close")
    return QueueRules(
        stale=rules,
        rebase_label=str(queue.get("rebase_label", default.rebase_label)),
        ages=tuple(sorted(ages)),
        previous_days=number(queue, "queue", "previous_days", default.previous_days) or 28,
        oldest_shown=number(queue, "queue", "oldest_shown", default.oldest_shown),
        topic_labels={key: found for key, found in labels.items() if found},
    )
