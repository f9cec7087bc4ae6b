"""Both editions hold every phrase, with the same blanks: a key missing in Chinese is a
KeyError in the Chinese report only, and a blank named differently ('{n}' in one language,
'{count}' in the other) is a KeyError the day that phrase is first used. The core's table
holds the core's words only: each feature's are in its own (tests/features/test_phrases.py)."""

from __future__ import annotations

import pkgutil
import string

import bot.features
from formatters import wording as w
from formatters.phrases import TEXT


def blanks(phrase: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(phrase) if name}


def test_every_phrase_is_in_both_languages() -> None:
    # English says a bucket's figure with a plural (w.count_word), Chinese has no plural.
    english_plurals = {f"count_{bucket}" for bucket in w.BUCKET_WORDS_EN}
    assert set(TEXT["en"]) | english_plurals == set(TEXT["zh"])


def test_both_languages_fill_the_same_blanks() -> None:
    differ = {
        key: (blanks(TEXT["en"][key]), blanks(TEXT["zh"][key]))
        for key in TEXT["en"]
        if blanks(TEXT["en"][key]) != blanks(TEXT["zh"][key])
    }
    assert differ == {}


def test_a_bucket_figure_reads_in_both_languages() -> None:
    assert w.count_word("en", "merged", 1) == "1 merged PR"
    assert w.count_word("en", "review", 3) == "3 PRs in review"
    for bucket in w.BUCKET_WORDS_EN:
        assert "7" in w.count_word("zh", bucket, 7)


# The words of the features' parts: the queue's metrics, the radar's Plugins section, a
# personal digest's reasons and decisions. Each feature's own name is a prefix too.
FEATURE_PREFIXES = ("queue", "metric_", "plugins", "radar", "personal", "reason_", "decision_")


def test_the_core_table_holds_no_features_words() -> None:
    features = tuple(name for _, name, _ in pkgutil.iter_modules(bot.features.__path__))
    prefixes = FEATURE_PREFIXES + tuple(f"{name}_" for name in features)
    for lang in ("en", "zh"):
        owned = [k for k in TEXT[lang] if k in features or k.startswith(prefixes)]
        assert owned == [], f"a feature's words in formatters.phrases ({lang}): {owned}"
