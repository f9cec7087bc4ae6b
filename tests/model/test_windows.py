"""Window parsing: what a typed phrase means, to the second, and what is refused."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.model.windows import WindowError, format_local, parse_window

CST = ZoneInfo("Asia/Shanghai")
CUTOFF = time(11, 45)
NOW = datetime(2026, 3, 30, 2, 0, tzinfo=UTC)  # 10:00 in Shanghai, before the cutoff


def parse(phrase: str, now: datetime = NOW, max_days: int = 31, tz: ZoneInfo = CST):
    return parse_window(phrase, now=now, tz=tz, cutoff=CUTOFF, max_days=max_days)


def test_a_date_is_its_cutoff_to_the_next_days_cutoff() -> None:
    """2026-03-26 means 03-26 11:45 (UTC+8) up to 03-27 11:45 (UTC+8), as in the reference."""
    window = parse("2026-03-26")
    assert window.start == datetime(2026, 3, 26, 11, 45, tzinfo=CST)
    assert window.end == datetime(2026, 3, 27, 11, 45, tzinfo=CST)
    assert window.label == "2026-03-26"
    assert f"{format_local(window.start)} ~ {format_local(window.end)}" == (
        "2026-03-26 11:45 (UTC+8) ~ 2026-03-27 11:45 (UTC+8)"
    )


def test_range_includes_both_days() -> None:
    """2026-03-20..2026-03-26 is seven report days."""
    window = parse("2026-03-20..2026-03-26")
    assert window.start == datetime(2026, 3, 20, 11, 45, tzinfo=CST)
    assert window.end == datetime(2026, 3, 27, 11, 45, tzinfo=CST)
    assert window.duration == timedelta(days=7)


def test_today_is_the_window_in_progress_and_yesterday_the_last_complete_one() -> None:
    """Before the cutoff, the window in progress started at yesterday's cutoff."""
    today, yesterday = parse("today"), parse("yesterday")
    assert today.start <= NOW < today.end
    assert not today.is_past(NOW)
    assert yesterday.end == today.start and yesterday.is_past(NOW)
    after_cutoff = NOW + timedelta(hours=2)  # 12:00 Shanghai
    assert parse("today", now=after_cutoff).start == datetime(2026, 3, 30, 11, 45, tzinfo=CST)


@pytest.mark.parametrize("phrase", ["7d", "last 7 days", "7 days", "LAST 7 DAYS"])
def test_last_n_days_are_the_complete_windows_before_now(phrase: str) -> None:
    """7d ends where today's window begins and spans seven days."""
    window = parse(phrase)
    assert window.end == parse("today").start
    assert window.end - window.start == timedelta(days=7)


def test_dst_day_is_23_hours() -> None:
    """Windows are cut on the local clock: the spring-forward day is an hour short."""
    window = parse("2026-03-07", tz=ZoneInfo("America/New_York"))
    assert window.duration == timedelta(hours=23)
    assert window.end.hour == window.start.hour == 11


@pytest.mark.parametrize(
    ("phrase", "says"),
    [
        ("next tuesday", "could not read 'next tuesday' as a date"),
        ("2026-02-30", "not a real date"),
        ("2026-13-01", "not a real date"),
        ("2026-03-26..2026-03-20", "ends before it starts"),
        ("2026-01-01..2026-03-26", "more than the 31-day limit"),
        ("40d", "more than the 31-day limit"),
        ("2026-03-31", "has not come yet"),
        ("0d", "names no days"),
    ],
)
def test_bad_phrases_get_one_clear_sentence(phrase: str, says: str) -> None:
    """Each refusal names the problem; none is a bare parser error."""
    with pytest.raises(WindowError, match=says):
        parse(phrase)


def test_window_started_but_not_ended_is_allowed() -> None:
    """The current report day can be asked for by date; it is simply not past yet."""
    window = parse("2026-03-29")
    assert window.start < NOW < window.end
