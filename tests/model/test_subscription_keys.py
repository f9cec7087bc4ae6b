"""A subscription's key: every shape the subscriptions table holds reads back as itself, what
is no key is one sentence that says how to write one, and what the callers ask of a key."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.features.ci.model import is_ci, key_hardware
from bot.features.personal.model import Filter
from bot.features.radar.model import is_plugins, plugin_key, plugin_of
from bot.model.errors import InputError
from bot.model.subscriptions import KeyForm, SubscriptionKey, SubscriptionKeyError, declare, kinds

# (stored text, kind, value): one of each shape the bot has ever stored.
STORED = [
    ("amd", "topic", "amd"),
    ("spec_decode", "topic", "spec_decode"),
    ("plugins", "plugins", None),
    ("radar:vllm-ascend", "radar", "vllm-ascend"),
    ("radar:tpu-inference", "radar", "tpu-inference"),
    ("ci", "ci", None),
    ("ci:amd", "ci", "amd"),
    ("label:rocm", "label", "rocm"),
    ("label:good first issue", "label", "good first issue"),
    ("label:ci/build", "label", "ci/build"),
    ("label:a:b", "label", "a:b"),  # only the first colon ends the kind
    ("author:alice", "author", "alice"),
    ("path:vllm/v1/**", "path", "vllm/v1/**"),
    ("path:vllm/V1/[ab]*.py", "path", "vllm/V1/[ab]*.py"),  # a path keeps its case
    ("mine", "mine", None),
    ("releases", "releases", None),
]


@pytest.mark.parametrize(("text", "kind", "value"), STORED)
def test_every_stored_shape_reads_back_byte_for_byte(text: str, kind: str, value: str) -> None:
    """Existing subscriptions keep working: the store reads its text with `parse` and writes
    `str(key)`, so both must give back exactly what is stored today."""
    key = SubscriptionKey.parse(text)
    assert (key.kind, key.value) == (kind, value)
    assert str(key) == key.text == text
    assert SubscriptionKey.parse(str(key)) == key


def test_every_kind_is_in_the_round_trip() -> None:
    """The core's kinds and every kind the features declare (bot.features.declared)."""
    assert {kind for _, kind, _ in STORED} == set(kinds())


@pytest.mark.parametrize(
    ("typed", "text"),
    [
        ("  amd ", "amd"),
        ("MINE", "mine"),
        ("Plugins", "plugins"),
        ("CI", "ci"),
        ("CI:amd", "ci:amd"),
        ("Label:ROCm", "label:ROCm"),  # the kind word in any case; the value as given
        ("RADAR:Ascend", "radar:Ascend"),
    ],
)
def test_a_kind_word_is_read_in_any_case_and_a_value_kept(typed: str, text: str) -> None:
    assert str(SubscriptionKey.parse(typed)) == text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("radar:", "name a plugin: `radar:<plugin>`, e.g. `radar:vllm-ascend`"),
        ("radar:  ", "name a plugin: `radar:<plugin>`"),
        ("label:", "say what to match after `label:`, e.g. `label:rocm`"),
        ("author:", "say what to match after `author:`, e.g. `author:alice`"),
        ("path:", "say what to match after `path:`, e.g. `path:vllm/v1/*`"),
        ("ci:", "name a hardware after `ci:`, e.g. `ci:amd`, or say `ci` for every hardware"),
        ("labels:rocm", "`labels:` is not a filter: say `label:<name>`, `author:<login>`"),
        ("mine:x", "`mine` takes nothing after it: say `mine`"),
        ("plugins:x", "`plugins` takes nothing after it: say `plugins`"),
        ("", "say which topic or filter: `amd` (see `/vllm-topics`)"),
        ("   ", "say which topic or filter"),
    ],
)
def test_text_that_is_no_key_is_one_sentence_saying_what_to_write(text: str, says: str) -> None:
    with pytest.raises(SubscriptionKeyError) as raised:
        SubscriptionKey.parse(text)
    said = str(raised.value)
    assert said.startswith(says), said
    assert isinstance(raised.value, InputError)  # exit status 2, the message the answer
    assert "\n" not in said and not re.search(r"[.!?]\s+[A-Z]", said)  # one sentence


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("topic", "label:x"),  # would print as a label
        ("topic", "mine"),  # would print as `mine`
        ("topic", "CI"),
        ("plugins", "x"),
        ("mine", "x"),
        ("label", ""),
        ("ci", ""),
        ("nope", "x"),
    ],
)
def test_a_key_made_directly_is_checked_too(kind: str, value: str) -> None:
    """A key that exists prints a text that parses back to it: `replace` and the
    constructor refuse what would not (a reading step that empties a value included)."""
    with pytest.raises(SubscriptionKeyError):
        SubscriptionKey(kind, value)  # type: ignore[arg-type]
    with pytest.raises(SubscriptionKeyError):
        replace(SubscriptionKey.parse("label:rocm"), value="  ")


def test_what_the_callers_ask_of_a_key() -> None:
    parse = SubscriptionKey.parse
    personal = [parse(t) for t in ("label:rocm", "author:alice", "path:vllm/**", "mine")]
    assert all(k.is_personal for k in personal)
    assert [k.filter for k in personal] == [
        Filter("label", "rocm"),
        Filter("author", "alice"),
        Filter("path", "vllm/**"),
        Filter("mine"),
    ]
    assert [k.is_mine for k in personal] == [False, False, False, True]
    others = [parse(t) for t in ("amd", "plugins", "radar:vllm-gaudi", "ci", "ci:tpu")]
    assert not any(k.is_personal or k.is_mine or k.filter for k in others)
    assert [k.topic for k in others] == ["amd", None, None, None, None]
    assert [is_plugins(k) for k in others] == [False, True, True, False, False]
    assert [plugin_of(k) for k in others] == [None, None, "vllm-gaudi", None, None]
    assert [is_ci(k) for k in others] == [False, False, False, True, True]
    assert [key_hardware(k) for k in others] == [None, None, None, None, "tpu"]
    assert [k.form is not None for k in others] == [False, True, True, True, True]


def test_a_filter_and_a_plugin_make_the_key_they_are_stored_as() -> None:
    assert str(SubscriptionKey.of_filter(Filter("mine"))) == "mine"
    assert str(SubscriptionKey.of_filter(Filter("path", "vllm/V1/*"))) == "path:vllm/V1/*"
    assert plugin_key("vllm-project/vLLM-Ascend") == SubscriptionKey.parse("radar:vllm-ascend")
    assert str(plugin_key("vllm-gaudi")) == "radar:vllm-gaudi"


def test_a_kind_the_features_do_not_declare_is_no_key_and_one_declared_twice_is_refused() -> None:
    """The parser knows a feature's words only from its declaration: with the radar's
    forms gone, `radar:x` is no key and `plugins` reads as a topic; a kind declared twice
    (or one of the core's) is a mistake said at start-up."""
    import bot.features

    everyone = [form for feature in bot.features.declared() for form in feature.keys]
    try:
        declare(f for f in everyone if f.kind not in ("plugins", "radar"))
        with pytest.raises(SubscriptionKeyError, match="`radar:` is not a filter"):
            SubscriptionKey.parse("radar:vllm-ascend")
        assert SubscriptionKey.parse("plugins").topic == "plugins"
        assert str(SubscriptionKey.parse("CI:amd")) == "ci:amd"  # the others still read
        with pytest.raises(ValueError, match="`ci` is declared twice"):
            declare([*everyone, KeyForm("ci", alone=True)])
        with pytest.raises(ValueError, match="`label` is declared twice"):
            declare([KeyForm("label", prefixed=True)])
    finally:
        declare(everyone)
    assert SubscriptionKey.parse("radar:vllm-ascend").form is not None
