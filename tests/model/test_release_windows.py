"""Windows from a release: `since v0.18.0`, `since last release`, `v0.17.0..v0.18.0` run from
the moment the repository's releases say, and what cannot be one is one sentence.

The release times here are the test's own (not vLLM's real publication times)."""

from __future__ import annotations

from datetime import UTC, datetime, time
from zoneinfo import ZoneInfo

import pytest

from bot.model.windows import Release, WindowError, parse_window, read_phrase

CST = ZoneInfo("Asia/Shanghai")
CUTOFF = time(11, 45)
NOW = datetime(2026, 3, 26, 5, 0, tzinfo=UTC)  # 13:00 in Shanghai: the 03-26 day in progress
RELEASES = {
    "v0.17.0": Release("v0.17.0", datetime(2026, 3, 10, 9, 30, tzinfo=UTC)),
    "v0.18.0": Release("v0.18.0", datetime(2026, 3, 24, 6, 0, tzinfo=UTC)),
}
asked: list[str | None] = []


def lookup(tag: str | None) -> Release:
    asked.append(tag)
    if tag is None:
        return RELEASES["v0.18.0"]
    for name in (tag, f"v{tag}"):
        if name in RELEASES:
            return RELEASES[name]
    raise WindowError(f"vllm-project/vllm has no release or tag `{tag}`")


def parse(phrase: str, max_days: int = 31):
    return parse_window(phrase, now=NOW, tz=CST, cutoff=CUTOFF, max_days=max_days, releases=lookup)


def test_since_a_release_runs_from_its_moment_to_the_end_of_the_day_in_progress() -> None:
    window = parse("since v0.18.0")
    assert window.start == datetime(2026, 3, 24, 14, 0, tzinfo=CST)  # 06:00 UTC, in the zone
    assert window.end == datetime(2026, 3, 27, 11, 45, tzinfo=CST)
    assert (window.label, window.since) == ("since v0.18.0", "v0.18.0")
    assert not window.is_past(NOW)  # in progress: the report says it is not complete


def test_since_last_release_asks_for_the_newest_and_a_tag_may_be_typed_without_v() -> None:
    asked.clear()
    assert parse("since last release").since == "v0.18.0"
    assert parse("Since  0.18.0").start == parse("since v0.18.0").start
    assert asked[0] is None


def test_between_two_releases_is_the_first_s_moment_to_the_second_s() -> None:
    window = parse("v0.17.0..v0.18.0")
    assert (window.start, window.end) == (
        RELEASES["v0.17.0"].at.astimezone(CST),
        RELEASES["v0.18.0"].at.astimezone(CST),
    )
    assert window.label == "v0.17.0..v0.18.0"


@pytest.mark.parametrize(
    ("phrase", "says"),
    [
        ("v0.18.0..v0.17.0", "v0.17.0 came out before v0.18.0: write the earlier release first"),
        ("since v0.99.0", "vllm-project/vllm has no release or tag `v0.99.0`"),
        ("since banana", "'banana' is no release tag: say `since v0.33.0`"),
    ],
)
def test_what_is_no_release_window_is_one_sentence(phrase: str, says: str) -> None:
    with pytest.raises(WindowError) as raised:
        parse(phrase)
    assert str(raised.value).startswith(says)


def test_a_release_window_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(WindowError, match="spans 17 days, more than the 14-day limit"):
        parse("since v0.17.0", max_days=14)


def test_dates_still_read_as_dates() -> None:
    assert read_phrase("2026-03-20..2026-03-26").release is None
    assert read_phrase("since v0.18.0").release == ("v0.18.0", None)
