"""What a subscription is to: its key, parsed from text in one place and printed in one form.

The subscriptions table keeps the key as text in its `topic` column; these are its shapes:

| text | kind | value |
|---|---|---|
| `amd`, `nvidia` … (a topic of the rules) | topic | the topic key |
| `plugins` (the daily report's Plugins section) | plugins | None |
| `radar:vllm-ascend` (one watched plugin's part of it) | radar | the plugin's short name |
| `ci`, `ci:amd` (Red on main: every hardware, or one) | ci | None, or the hardware |
| `label:rocm`, `author:alice`, `path:vllm/v1/**` | label, author, path | what it matches |
| `mine` (the reader's linked GitHub login) | mine | None |

`SubscriptionKey.parse` reads the shape only: what a kind's value must be in the world (a
topic of the rules, a watched plugin, a hardware CI runs on, a label GitHub has) is checked
where that world is known (bot.commands). Its kind words are read in any case, its value is
kept as given, and `str(key)` prints it back: every text stored today round-trips byte for
byte (tests/model/test_subscription_keys.py), so no stored subscription needs migrating.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from bot.model.errors import InputError

# The features' words, kept here so that the parser needs no feature (the features import
# them from here): Red on main (`ci`, `ci:amd`), the radar (`plugins`, `radar:<plugin>`),
# personal digests (`mine`; the others are label, author and path).
CI_TOPIC = "ci"
CI_PREFIX = "ci:"
# Where a CI job runs, by the words of its name: the topic keys of the vendors (topics.toml).
HARDWARE = ("amd", "nvidia", "intel", "tpu", "neuron", "ascend", "cpu")
PLUGINS_TOPIC = "plugins"
PLUGINS_DIGEST = "Plugins (breakage radar)"  # what a `plugins` subscriber gets, named
RADAR_TOPIC = "radar:"
MINE = "mine"
CADENCES = ("daily", "weekly", "off")  # off: kept, sent nothing until changed again


@dataclass(frozen=True)
class Filter:
    """What a personal subscription selects: `kind` label/author/path/mine and its value."""

    kind: str
    value: str = ""

    @property
    def key(self) -> str:
        """How the filter is written (`label:rocm`, `mine`): its subscription's text, which
        bot.model.subscriptions parses back."""
        return MINE if self.kind == MINE else f"{self.kind}:{self.value}"


Kind = Literal["topic", "plugins", "radar", "ci", "label", "author", "path", "mine"]
KINDS: tuple[Kind, ...] = get_args(Kind)
# What a personal subscription may be, as a person is told to write it.
FILTER_FORMS = "`label:<name>`, `author:<login>`, `path:<glob>` or `mine`"

# The words that are a kind on their own, and the prefixes a kind's value follows: the
# vocabulary of bot.features.ci.model, bot.features.radar.model and bot.features.personal.model,
# read here alone.
_ALONE: dict[str, Kind] = {PLUGINS_TOPIC: "plugins", CI_TOPIC: "ci", MINE: "mine"}
_PREFIXED: dict[str, Kind] = {
    RADAR_TOPIC.removesuffix(":"): "radar",
    CI_PREFIX.removesuffix(":"): "ci",
    "label": "label",
    "author": "author",
    "path": "path",
}
_PERSONAL: frozenset[Kind] = frozenset({"label", "author", "path", "mine"})
_EXAMPLES = {"label": "label:rocm", "author": "author:alice", "path": "path:vllm/v1/*"}


class SubscriptionKeyError(InputError, ValueError):
    """Text that is no subscription's key; the message says how to write one."""


@dataclass(frozen=True)
class SubscriptionKey:
    """One subscription's key: its `kind` and, for the kinds that take one, its `value`
    (see the module's table). Made by `parse`, or directly; either way checked here, so a
    key that exists prints a text that parses back to it."""

    kind: Kind
    value: str | None = None

    def __post_init__(self) -> None:
        problem = _problem(self.kind, self.value)
        if problem:
            raise SubscriptionKeyError(problem)

    @classmethod
    def parse(cls, text: str) -> SubscriptionKey:
        """The key `text` names, as stored or as typed (spaces around it dropped, its kind
        word in any case); SubscriptionKeyError, one sentence, for text that names none."""
        word, colon, value = text.strip().partition(":")
        said = word.strip().lower()
        if not colon:
            alone = _ALONE.get(said)
            return cls(alone) if alone is not None else cls("topic", text.strip())
        kind = _PREFIXED.get(said)
        if kind is not None:
            return cls(kind, value)
        if said in _ALONE:  # `mine:x`, `plugins:x`
            raise SubscriptionKeyError(f"`{said}` takes nothing after it: say `{said}`")
        raise SubscriptionKeyError(f"`{said}:` is not a filter: say {FILTER_FORMS}")

    @classmethod
    def of_filter(cls, rule: Filter) -> SubscriptionKey:
        """The key of a personal subscription by `rule`."""
        return cls.parse(rule.key)

    @classmethod
    def of_plugin(cls, repo: str) -> SubscriptionKey:
        """The key of one watched plugin's radar, `radar:vllm-ascend`, from its repository
        (`vllm-project/vllm-ascend`) or its short name."""
        return cls("radar", repo.split("/", 1)[-1].lower())

    @property
    def text(self) -> str:
        """The key as the subscriptions table keeps it and people type it."""
        if self.filter is not None:  # a personal filter is spelled as Filter spells it
            return self.filter.key
        if self.kind == "topic":
            return self.value or ""
        if self.kind == "plugins":
            return PLUGINS_TOPIC
        if self.kind == "radar":
            return f"{RADAR_TOPIC}{self.value}"
        return CI_TOPIC if self.value is None else f"{CI_PREFIX}{self.value}"

    def __str__(self) -> str:
        return self.text

    @property
    def is_personal(self) -> bool:
        """A personal digest (label, author, path, mine): sent with a cadence, selected from
        the day's items by its filter; not a part of the daily report."""
        return self.kind in _PERSONAL

    @property
    def is_mine(self) -> bool:
        return self.kind == MINE

    @property
    def filter(self) -> Filter | None:
        """A personal subscription's filter; None for the other kinds."""
        if not self.is_personal:
            return None
        return Filter(self.kind) if self.is_mine else Filter(self.kind, self.value or "")

    @property
    def topic(self) -> str | None:
        """A topic subscription's topic key (`amd`); None for the other kinds."""
        return self.value if self.kind == "topic" else None

    @property
    def is_ci(self) -> bool:
        """Red on main, for every hardware or one (`hardware`)."""
        return self.kind == "ci"

    @property
    def hardware(self) -> str | None:
        """`ci:amd` → `amd`; None for `ci` (every hardware) and the other kinds."""
        return self.value if self.kind == "ci" else None

    @property
    def is_plugins(self) -> bool:
        """The daily report's Plugins section: whole (`plugins`) or one plugin's (`radar:`)."""
        return self.kind in ("plugins", "radar")

    @property
    def plugin(self) -> str | None:
        """`radar:vllm-ascend` → `vllm-ascend`; None for the other kinds."""
        return self.value if self.kind == "radar" else None


def _problem(kind: str, value: str | None) -> str:
    """Why (`kind`, `value`) is no key, in one sentence a person can act on; '' when it is.
    A value is never blank where one is needed, and never there where none may be."""
    if kind not in KINDS:
        return f"`{kind}:` is not a filter: say {FILTER_FORMS}"
    if kind in ("plugins", "mine"):
        return "" if value is None else f"`{kind}` takes nothing after it: say `{kind}`"
    if kind == "ci":
        if value is None or value.strip():
            return ""
        return "name a hardware after `ci:`, e.g. `ci:amd`, or say `ci` for every hardware"
    if value is None or not value.strip():
        if kind == "radar":
            return "name a plugin: `radar:<plugin>`, e.g. `radar:vllm-ascend` (see `/vllm-topics`)"
        if kind == "topic":
            return f"say which topic or filter: `amd` (see `/vllm-topics`), or {FILTER_FORMS}"
        return f"say what to match after `{kind}:`, e.g. `{_EXAMPLES[kind]}`"
    if kind == "topic" and (":" in value or value.strip().lower() in _ALONE):
        # Printed, it would read back as another kind: `ci`, `mine`, `label:x`.
        return f"`{value}` is not a topic: see `/vllm-topics`"
    return ""
