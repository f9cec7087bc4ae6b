"""Edges of the pure helpers the mutation run found untested: text hygiene (formatters/_text,
read-only here: tested, not changed), coverage spans, the counts' repo filter, windows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.analyze.counts import build_report
from bot.model.windows import Window, WindowError, format_local, parse_window, read_phrase
from bot.store.spans import Span, merge_spans, subtract_spans
from formatters._text import ZWSP, clean, discord_escape, item_url, truncate
from tests.factories import item

T0 = datetime(2026, 3, 26, 3, 45, tzinfo=UTC)
H = timedelta(hours=1)


def test_clean_removes_invisible_folds_control_and_defuses_links() -> None:
    assert clean("", 10) == "" and clean(None, 10) == ""
    assert clean("a\u200bb\u202ec", 50) == "abc"
    assert clean("a\x00b", 50) == "a b"
    assert clean("see https://evil.example now", 100) == f"see https:{ZWSP}//evil.example now"
    assert clean("www.evil.example", 100) == f"www{ZWSP}.evil.example"
    assert clean("abcdef", 1) == "a…"


def test_discord_mentions_are_broken_with_a_zero_width_space() -> None:
    assert discord_escape("@everyone") == f"@{ZWSP}everyone"


def test_item_url_refuses_bad_repos_and_numbers() -> None:
    assert item_url("o/r", "pr", 1) == "https://github.com/o/r/pull/1"
    with pytest.raises(ValueError, match="refusing to build a link for 'not a repo' #5"):
        item_url("not a repo", "issue", 5)
    with pytest.raises(ValueError, match="refusing"):
        item_url("o/r", "issue", 0)


def test_truncate_keeps_what_fits_and_cuts_the_rest() -> None:
    assert truncate("abcde", 5) == "abcde"
    assert truncate("abcdef", 5) == "abcd…"
    assert truncate("  abcdef", 4) == "  a…"
    assert truncate("abcdef", 1) == "a…"
    assert truncate("ab cdef", 4) == "ab…"


def test_a_short_quote_ends_on_a_whole_word_and_a_long_text_gives_up_at_most_a_fifth() -> None:
    title = "Add tuned moe configs for Qwen3NextForCausalLM on MI355X"
    assert truncate(title, 38) == "Add tuned moe configs for…"  # not "…for Qwen3NextFo…"
    assert truncate("Supercalifragilisticexpialidocious words", 20) == "Supercalifragilisti…"
    words = "word " * 60  # a long description: the cut is never more than a fifth back
    cut = truncate(words + "tail", 200)
    assert len(cut) >= 160 and cut.endswith("word…")


def test_spans_merge_and_subtract_at_touching_edges() -> None:
    assert merge_spans([Span(T0, T0 + 2 * H), Span(T0 + H, T0 + 2 * H)]) == [Span(T0, T0 + 2 * H)]
    wanted = Span(T0, T0 + 4 * H)
    # covered up to exactly the start, and from exactly the end: the whole span is a gap
    assert subtract_spans(wanted, [Span(T0 - H, T0), Span(T0 + 4 * H, T0 + 5 * H)]) == [wanted]
    # a span before the wanted one does not stop the search for those inside it
    assert subtract_spans(wanted, [Span(T0 - 2 * H, T0 - H), Span(T0 + H, T0 + 2 * H)]) == [
        Span(T0, T0 + H),
        Span(T0 + 2 * H, T0 + 4 * H),
    ]


def test_counts_skip_other_repositories_and_keep_the_generation_time() -> None:
    window = Window(T0, T0 + 24 * H, "UTC", "2026-03-26")
    items = [item(1, repo="other/repo", created_at=T0 + H), item(2, created_at=T0 + H)]
    report = build_report(items, window, repo="vllm-project/vllm", complete=True, generated_at=T0)
    assert list(report.items) == [2]
    assert report.generated_at == T0


def test_windows_refuse_naive_or_empty_spans() -> None:
    naive = datetime(2026, 3, 26)  # noqa: DTZ001 - the point of the test
    with pytest.raises(ValueError, match="timezone-aware"):
        Window(T0, naive, "UTC", "x")
    with pytest.raises(ValueError, match="after its start"):
        Window(T0, T0, "UTC", "x")
    with pytest.raises(ValueError, match="now must be timezone-aware"):
        parse_window("today", now=naive, tz=ZoneInfo("UTC"), cutoff=T0.time(), max_days=31)


def test_a_one_day_range_and_a_window_starting_now() -> None:
    said = read_phrase("2026-03-25..2026-03-25")
    assert said.first == said.last and said.text == "2026-03-25..2026-03-25"
    tz, cutoff = ZoneInfo("UTC"), T0.time()
    window = parse_window("2026-03-26", now=T0, tz=tz, cutoff=cutoff, max_days=31)
    assert window.start == T0  # starting this very moment: allowed
    last = parse_window("7d", now=T0, tz=tz, cutoff=cutoff, max_days=31)
    assert (last.timezone, last.label) == ("UTC", "last 7 days")
    with pytest.raises(WindowError, match="which has not come yet"):
        parse_window("2026-03-27", now=T0, tz=tz, cutoff=cutoff, max_days=31)


@pytest.mark.parametrize(
    ("zone", "says"),
    [
        ("UTC", "UTC+0"),
        ("America/New_York", "UTC-4"),
        ("Asia/Kolkata", "UTC+5:30"),
        ("America/St_Johns", "UTC-2:30"),
    ],
)
def test_format_local_offsets(zone: str, says: str) -> None:
    assert format_local(T0.astimezone(ZoneInfo(zone))).endswith(f"({says})")
