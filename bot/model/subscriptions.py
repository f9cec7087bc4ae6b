"""What a subscription is to: its key, parsed from text in one place and printed in one form.

The subscriptions table keeps the key as text in its `topic` column; these are its shapes:

| text | kind | value | whose |
|---|---|---|---|
| `amd`, `nvidia` … (a topic of the rules) | topic | the topic key | the core |
| `label:rocm`, `author:alice`, `path:vllm/v1/**` | label, author, path | its match | the core |
| `mine` (the reader's linked GitHub login) | mine | None | the core |
| a word a feature says alone (`ci`, `plugins`) | the word | None | the feature |
| a word a feature puts a value after (`ci:amd`, `radar:x`) | the word | the value | the feature |

A topic and the personal filters (what a day's items are selected by) are the core's
grammar; every other kind is a feature's, declared as `KeyForm`s in its `feature.py` and
known here once `bot.features.declared()` has read the declarations (`declare`): the core
names no feature's word. `SubscriptionKey.parse` reads the shape only: what a kind's value
must be in the world (a topic of the rules, a watched plugin, a hardware CI runs on, a label
GitHub has) is checked where that world is known (bot.commands, the features' checks). Its
kind words are read in any case, its value is kept as given, and `str(key)` prints it back:
every text stored today round-trips byte for byte (tests/model/test_subscription_keys.py),
so no stored subscription needs migrating.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.model.errors import InputError

MINE = "mine"
CADENCES = ("daily", "weekly", "off")  # off: kept, sent nothing until changed again
# What a personal subscription may be, as a person is told to write it.
FILTER_FORMS = "`label:<name>`, `author:<login>`, `path:<glob>` or `mine`"
TOPIC = "topic"
_FILTERS = ("label", "author", "path")
_PERSONAL = frozenset({*_FILTERS, MINE})
_EXAMPLES = {"label": "label:rocm", "author": "author:alice", "path": "path:vllm/v1/*"}


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


@dataclass(frozen=True)
class KeyForm:
    """One kind of subscription key a feature declares: said alone (`ci`, `plugins`), with
    a value after `<kind>:` (`ci:amd`, `radar:vllm-ascend`), or both; what to say when the
    value is missing; and how its digest is named to the person subscribing ("Red on main
    (amd)"). The kind is the word itself, so a stored key reads back as written."""

    kind: str
    alone: bool = False
    prefixed: bool = False
    missing: str = ""  # `ci:` with nothing after it: the sentence that says what to write
    name: Callable[[SubscriptionKey], str] | None = None
    # Another text the same subscription may have been stored under (`radar:gaudi` typed,
    # `radar:vllm-gaudi` stored), tried when unsubscribing finds nothing.
    stored_as: Callable[[SubscriptionKey], SubscriptionKey | None] | None = None


class SubscriptionKeyError(InputError, ValueError):
    """Text that is no subscription's key; the message says how to write one."""


class _Declared:
    """The features' key forms, by kind: empty until `declare` is called, and a key read
    before then would be misread (`ci` as a topic), so reading one is refused loudly."""

    def __init__(self) -> None:
        self.forms: dict[str, KeyForm] | None = None

    def all(self) -> dict[str, KeyForm]:
        if self.forms is None:
            raise RuntimeError(
                "subscription keys read before the features declared theirs: "
                "call bot.features.declared() first"
            )
        return self.forms


_DECLARED = _Declared()


def declare(forms: Iterable[KeyForm]) -> None:
    """Learn the features' key forms (bot.features.declared() calls this once). A kind the
    core or another feature already has is a mistake in a declaration, said at start-up."""
    known: dict[str, KeyForm] = {}
    for form in forms:
        if form.kind in known or form.kind in _PERSONAL or form.kind == TOPIC:
            raise ValueError(f"subscription kind `{form.kind}` is declared twice")
        if not (form.alone or form.prefixed):
            raise ValueError(f"subscription kind `{form.kind}` is neither alone nor prefixed")
        known[form.kind] = form
    _DECLARED.forms = known


def declared_form(kind: str) -> KeyForm | None:
    """The feature's form of `kind`; None for the core's kinds and for unknown ones."""
    return _DECLARED.all().get(kind)


def kinds() -> tuple[str, ...]:
    """Every kind a key may have: the core's, then the features' in declaration order."""
    return (TOPIC, *_FILTERS, MINE, *_DECLARED.all())


@dataclass(frozen=True)
class SubscriptionKey:
    """One subscription's key: its `kind` and, for the kinds that take one, its `value`
    (see the module's table). Made by `parse`, or directly; either way checked here, so a
    key that exists prints a text that parses back to it."""

    kind: str
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
        form = declared_form(said)
        if not colon:
            if said == MINE or (form is not None and form.alone):
                return cls(said)
            return cls(TOPIC, text.strip())
        if said in _FILTERS or (form is not None and form.prefixed):
            return cls(said, value)
        if said == MINE or form is not None:  # `mine:x`, `plugins:x`
            raise SubscriptionKeyError(f"`{said}` takes nothing after it: say `{said}`")
        raise SubscriptionKeyError(f"`{said}:` is not a filter: say {FILTER_FORMS}")

    @classmethod
    def of_filter(cls, rule: Filter) -> SubscriptionKey:
        """The key of a personal subscription by `rule`."""
        return cls.parse(rule.key)

    @property
    def text(self) -> str:
        """The key as the subscriptions table keeps it and people type it."""
        if self.kind == TOPIC:
            return self.value or ""
        return self.kind if self.value is None else f"{self.kind}:{self.value}"

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
        return self.value if self.kind == TOPIC else None

    @property
    def form(self) -> KeyForm | None:
        """The feature's declaration of this key's kind; None for the core's kinds."""
        return declared_form(self.kind)


def _problem(kind: str, value: str | None) -> str:
    """Why (`kind`, `value`) is no key, in one sentence a person can act on; '' when it is.
    A value is never blank where one is needed, and never there where none may be."""
    form = declared_form(kind)
    if kind not in _PERSONAL and kind != TOPIC and form is None:
        return f"`{kind}:` is not a filter: say {FILTER_FORMS}"
    alone = kind == MINE or (form is not None and form.alone)
    prefixed = kind in _FILTERS or kind == TOPIC or (form is not None and form.prefixed)
    if value is None:
        if alone:
            return ""
    elif not prefixed:
        return f"`{kind}` takes nothing after it: say `{kind}`"
    if value is None or not value.strip():
        if form is not None:
            return form.missing or f"say what follows `{kind}:`"
        if kind == TOPIC:
            return f"say which topic or filter: `amd` (see `/vllm-topics`), or {FILTER_FORMS}"
        return f"say what to match after `{kind}:`, e.g. `{_EXAMPLES[kind]}`"
    if kind == TOPIC and (":" in value or _alone(value.strip().lower())):
        # Printed, it would read back as another kind: `ci`, `mine`, `label:x`.
        return f"`{value}` is not a topic: see `/vllm-topics`"
    return ""


def _alone(word: str) -> bool:
    form = declared_form(word)
    return word == MINE or (form is not None and form.alone)
