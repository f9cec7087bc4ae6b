"""Both editions hold every phrase, with the same blanks: a key missing in Chinese is a
KeyError in the Chinese report only, and a blank named differently ('{n}' in one language,
'{count}' in the other) is a KeyError the day that phrase is first used."""

from __future__ import annotations

import string

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
