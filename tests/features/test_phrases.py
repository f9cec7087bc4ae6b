"""Each feature's words are its own table, bot/features/<name>/phrases.py: `<NAME>_TEXT`,
English and Chinese side by side (the shape of formatters.phrases), and `said(lang, key,
**values)`. Both languages hold every key, with the same blanks, so a phrase missing or
misnamed in Chinese is not a KeyError the first day a Chinese reader meets it."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import string

import pytest

import bot.features

FEATURES = sorted(name for _, name, _ in pkgutil.iter_modules(bot.features.__path__))
WORDED = [n for n in FEATURES if importlib.util.find_spec(f"bot.features.{n}.phrases")]


def table(feature: str) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = getattr(
        importlib.import_module(f"bot.features.{feature}.phrases"), f"{feature.upper()}_TEXT"
    )
    return found


def blanks(phrase: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(phrase) if name}


def test_the_features_keep_their_words_in_their_own_tables() -> None:
    assert {"ci", "personal", "queue", "radar"} <= set(WORDED)


@pytest.mark.parametrize("feature", WORDED)
def test_every_phrase_is_in_both_languages(feature: str) -> None:
    words = table(feature)
    assert set(words) == {"en", "zh"}
    assert set(words["en"]) == set(words["zh"])


@pytest.mark.parametrize("feature", WORDED)
def test_both_languages_fill_the_same_blanks(feature: str) -> None:
    words = table(feature)
    differ = {
        key: (blanks(words["en"][key]), blanks(words["zh"][key]))
        for key in words["en"]
        if blanks(words["en"][key]) != blanks(words["zh"][key])
    }
    assert differ == {}


@pytest.mark.parametrize("feature", WORDED)
def test_said_fills_a_phrase_in(feature: str) -> None:
    module = importlib.import_module(f"bot.features.{feature}.phrases")
    key, phrase = next((k, p) for k, p in table(feature)["zh"].items() if not blanks(p))
    assert module.said("zh", key) == phrase.format()
