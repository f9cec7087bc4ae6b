"""Report windows: which span of time a phrase like `2026-03-26` or `7d` means.

A report day D is `[D cutoff, D+1 cutoff)` in the report time zone, so the 2026-03-26
report with a 11:45 Asia/Shanghai cutoff covers 2026-03-26 11:45 (UTC+8) up to, not
including, 2026-03-27 11:45 (UTC+8). Every datetime here is timezone-aware; `now` is always
passed in, so parsing is pure and testable.

A window may also start at a release: `since v0.33.0` (to the end of the report day in
progress), `since last release`, `v0.32.0..v0.33.0`. When a release came out is the
repository's to say: the caller hands in a `ReleaseLookup` (the archive's, asking GitHub's
releases and tags once), and the window runs from that moment.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import cached_property
from zoneinfo import ZoneInfo

from bot.model.errors import InputError

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# The report days a window may name. Before 1970 nothing was on GitHub and time zones go
# back to local mean time; the upper end leaves room for the next day's cutoff, a 7-day
# trend baseline before the start and any zone's offset, so no date arithmetic overflows.
FIRST_DAY = date(1970, 1, 8)
LAST_DAY = date(9999, 12, 30)
_DAYS_RE = re.compile(r"^(?:last\s+)?(\d{1,3})\s*(?:d|days?)$")
_RANGE_SEPARATOR = ".."
HELP = (
    "use YYYY-MM-DD, YYYY-MM-DD..YYYY-MM-DD, today, yesterday, Nd (e.g. 7d), "
    "since v0.33.0, since last release or v0.32.0..v0.33.0"
)
# A release's tag as vLLM writes them (v0.33.0, v0.11.0rc1) and as people type them (0.33.0).
_TAG_RE = re.compile(r"^v?\d+(?:\.\d+)+(?:[.-]?[a-z]+\d*)*$")
_LATEST = ("last release", "latest release", "the last release", "latest")


class WindowError(InputError, ValueError):
    """The phrase names no window we can report; the message says what to type instead."""


@dataclass(frozen=True)
class Release:
    """A release of the repository: its tag and when it came out (published on GitHub, or
    its tag's commit for a tag with no release)."""

    tag: str
    at: datetime


# What the caller knows of releases: the one tagged so (None: the newest), or a WindowError
# saying the repository has no such release.
ReleaseLookup = Callable[[str | None], Release]


@dataclass(frozen=True)
class Window:
    """A half-open span `[start, end)` of report days, in the report time zone (or from a
    release's moment: `since` names that release's tag)."""

    start: datetime
    end: datetime
    timezone: str
    label: str
    since: str | None = None

    def __post_init__(self) -> None:
        if self.start.tzinfo is None or self.end.tzinfo is None:
            raise ValueError("window datetimes must be timezone-aware")
        if self.end <= self.start:
            raise ValueError("window end must be after its start")

    def contains(self, moment: datetime) -> bool:
        # Aware datetimes of different zones compare through utcoffset() on every call; the
        # window's bounds in UTC compare directly with the UTC times items carry.
        return self._utc[0] <= moment < self._utc[1]

    @cached_property
    def _utc(self) -> tuple[datetime, datetime]:
        return self.start.astimezone(UTC), self.end.astimezone(UTC)

    def is_past(self, now: datetime) -> bool:
        """True when the window has ended, so its events can no longer change."""
        return self.end <= now

    @property
    def duration(self) -> timedelta:
        """Elapsed time (in UTC: same-zone subtraction in Python ignores DST shifts)."""
        return self.end.astimezone(UTC) - self.start.astimezone(UTC)


def day_window(day: date, tz: ZoneInfo, cutoff: time) -> Window:
    """The window of report day `day`: from its cutoff to the next day's cutoff."""
    start = datetime.combine(day, cutoff, tzinfo=tz)
    end = datetime.combine(day + timedelta(days=1), cutoff, tzinfo=tz)
    return Window(start, end, tz.key, day.isoformat())


def span_window(first: date, last: date, tz: ZoneInfo, cutoff: time) -> Window:
    """The days `first` to `last`, both included."""
    start = datetime.combine(first, cutoff, tzinfo=tz)
    end = datetime.combine(last + timedelta(days=1), cutoff, tzinfo=tz)
    label = first.isoformat() if first == last else f"{first.isoformat()}..{last.isoformat()}"
    return Window(start, end, tz.key, label)


def current_day(now: datetime, tz: ZoneInfo, cutoff: time) -> date:
    """The report day whose window contains `now` (before the cutoff, that is yesterday's)."""
    local = now.astimezone(tz)
    return local.date() if local.time() >= cutoff else local.date() - timedelta(days=1)


@dataclass(frozen=True)
class WindowKey:
    """The delivery ledger's name for what one run posts: a report window by its label and
    exact start (a cutoff may change, so a label alone could name two windows), or the
    weekly review queue's window by its label.

    Its text (`2026-03-25@2026-03-25T11:43:00+08:00`, `queue:2026-03-25`) is what the
    ledger's rows and every posted message's identity (`PartKey.identity`) carry: it must
    never change, or a restarted bot would post a day again.
    """

    label: str
    start: datetime | None = None  # None: the queue digest's key, named by its label alone

    @classmethod
    def of(cls, window: Window) -> WindowKey:
        return cls(window.label, window.start)

    @classmethod
    def queue_of(cls, window: Window) -> WindowKey:
        return cls(window.label)

    def __str__(self) -> str:
        return f"{self.label}@{self.start.isoformat()}" if self.start else f"queue:{self.label}"


@dataclass(frozen=True)
class Phrase:
    """What a window phrase says, before any clock or zone is consulted.

    `relative` days count back from the report day in progress: `yesterday` is (1, 1),
    `today` (0, 0), `7d` (7, 1). Otherwise `first` and `last` name report days.
    """

    text: str
    first: date | None = None
    last: date | None = None
    relative: tuple[int, int] | None = None
    days_label: int | None = None  # "last N days"
    # From a release (its tag; None: the newest) to another's tag, or (None) to today's end.
    release: tuple[str | None, str | None] | None = None


def read_phrase(phrase: str, max_days: int = 366) -> Phrase:
    """The phrase's meaning, or WindowError with a fix to type (no settings needed)."""
    text = " ".join(phrase.strip().lower().split())
    if text in ("", "yesterday", "last"):
        return Phrase(phrase, relative=(1, 1))
    if text == "today":
        return Phrase(phrase, relative=(0, 0))
    if text.startswith("since "):
        tag = text.removeprefix("since ").strip()
        if tag in _LATEST:
            return Phrase(phrase, release=(None, None))
        if not _TAG_RE.match(tag):
            raise WindowError(
                f"'{tag}' is no release tag: say `since v0.33.0` or `since last release`"
            )
        return Phrase(phrase, release=(tag, None))
    if match := _DAYS_RE.match(text):
        count = int(match.group(1))
        if count < 1:
            raise WindowError(f"'{phrase}' names no days: {HELP}")
        _check_length(phrase, count, max_days, "is")
        return Phrase(phrase, relative=(count, 1), days_label=count)
    if _RANGE_SEPARATOR in text:
        left, _, right = (part.strip() for part in text.partition(_RANGE_SEPARATOR))
        if _TAG_RE.match(left) and _TAG_RE.match(right):
            return Phrase(phrase, release=(left, right))
        first, last = _parse_date(left, phrase), _parse_date(right, phrase)
        if last < first:
            raise WindowError(
                f"'{phrase}' ends before it starts: write the earlier day first "
                f"({last.isoformat()}..{first.isoformat()})"
            )
    else:
        first = last = _parse_date(text, phrase)
    _check_length(phrase, (last - first).days + 1, max_days, "spans")
    return Phrase(phrase, first=first, last=last)


def parse_window(
    phrase: str,
    *,
    now: datetime,
    tz: ZoneInfo,
    cutoff: time,
    max_days: int,
    releases: ReleaseLookup | None = None,
) -> Window:
    """Turn what a person typed into a Window, or raise WindowError with a fix to type.

    `today` is the window in progress; `yesterday` the last complete one; `Nd` the last N
    complete windows; `D` and `D1..D2` name report days (both ends included); `since <tag>`
    runs from the release to the end of the report day in progress, `<tag>..<tag>` from
    one release to the next (`releases` says when each came out).
    """
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    said = read_phrase(phrase, max_days)
    if said.release is not None:
        return _release_window(said.release, now, tz, cutoff, max_days, releases)
    if said.relative is not None:
        in_progress = current_day(now, tz, cutoff)
        back_first, back_last = said.relative
        first, last = (
            in_progress - timedelta(days=back_first),
            in_progress - timedelta(days=back_last),
        )
    else:
        assert said.first is not None and said.last is not None  # noqa: S101 - set together
        first, last = said.first, said.last
    window = span_window(first, last, tz, cutoff)
    if said.days_label is not None:
        return Window(window.start, window.end, window.timezone, f"last {said.days_label} days")
    if window.start > now:
        raise WindowError(
            f"the window for {window.label} starts {format_local(window.start)}, "
            "which has not come yet"
        )
    return window


def _release_window(
    tags: tuple[str | None, str | None],
    now: datetime,
    tz: ZoneInfo,
    cutoff: time,
    max_days: int,
    releases: ReleaseLookup | None,
) -> Window:
    """From a release's moment to the next's (or to the end of the report day in progress)."""
    if releases is None:
        raise WindowError("a window from a release needs the repository's releases: ask the bot")
    first = releases(tags[0])
    if tags[1] is not None:
        last = releases(tags[1])
        if last.at <= first.at:
            raise WindowError(
                f"{last.tag} came out before {first.tag}: write the earlier release first "
                f"({last.tag}..{first.tag})"
            )
        end, label = last.at.astimezone(tz), f"{first.tag}..{last.tag}"
    else:
        end = day_window(current_day(now, tz, cutoff), tz, cutoff).end
        label = f"since {first.tag}"
    start = first.at.astimezone(tz)
    if start >= end:
        raise WindowError(f"{first.tag} came out {format_local(start)}, which has not come yet")
    days = math.ceil((end - start) / timedelta(days=1))
    _check_length(label, days, max_days, "spans")
    return Window(start, end, tz.key, label, since=first.tag)


def _check_length(phrase: str, days: int, max_days: int, verb: str) -> None:
    if days > max_days:
        raise WindowError(
            f"'{phrase}' {verb} {days} days, more than the {max_days}-day limit; "
            "ask for a shorter range"
        )


def _parse_date(text: str, phrase: str) -> date:
    text = text.strip()
    if not _DATE_RE.match(text):
        raise WindowError(f"could not read '{phrase}' as a date: {HELP}")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise WindowError(f"'{text}' is not a real date (check month and day): {HELP}") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise WindowError(
            f"'{text}' is outside the days a report can cover "
            f"({FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()})"
        )
    return day


def format_local(moment: datetime) -> str:
    """`2026-03-26 11:45 (UTC+8)`: the way the reference report writes times."""
    offset = moment.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    zone = f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")
    return f"{moment:%Y-%m-%d %H:%M} ({zone})"
