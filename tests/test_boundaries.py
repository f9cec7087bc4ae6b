"""Tests that bite: one per mutant that the earlier suite let live (issue 10).

Each test names the mutant it kills. They pin edges the fixtures never touched: a bound
that is inclusive on one side, a second at a cut, a time that equals another in every
fixture, a cap that nothing exceeded.
"""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.analyze.topics import NOISY_AREA_TOPICS, NOISY_LABEL_COUNT, label_noise
from bot.app import table as whole_table
from bot.collect.client import Collector, _cut
from bot.collect.source import GitHubSource
from bot.collect.sync import Archiver
from bot.commands import Asker, Commands, RateLimiter, Said, Services
from bot.commands.report import ReportRequest
from bot.model.rules import load_rules
from bot.model.windows import WindowError, current_day, day_window, parse_window
from bot.store import Span, Store
from config.settings import load_settings
from tests.anchor_data import REPO
from tests.factories import item
from tests.fakes.github_api import FakeGitHub, FakeItem

CST = ZoneInfo("Asia/Shanghai")
CUTOFF = time(11, 45)
RULES = load_rules()
MICRO = timedelta(microseconds=1)


# -- the search split past GitHub's 1,000-result cap (bot/collect/client.py `_cut`) ----------


@pytest.mark.parametrize(("seconds", "parts"), [(86400, 3), (86400, 7), (10, 3), (7, 7), (5, 2)])
def test_cut_ranges_follow_each_other_to_the_second(seconds: int, parts: int) -> None:
    """Mutant: a part starting one second late (the second between two parts never searched)."""
    first = datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
    ranges = list(_cut(first, seconds, parts))
    assert len(ranges) == parts
    assert ranges[0][0] == first
    assert ranges[-1][1] == first + timedelta(seconds=seconds - 1)
    for (_, end), (start, _) in itertools.pairwise(ranges):
        assert start == end + timedelta(seconds=1)
    assert all(start <= end for start, end in ranges)


def test_split_search_finds_items_at_every_cut_second() -> None:
    """Through the fake GitHub: 1,500 PRs packed into 15 minutes, one per cut boundary too."""
    start = datetime(2026, 3, 25, 3, 43, tzinfo=UTC)
    seconds = 900
    moments = [start + timedelta(seconds=s) for s in range(seconds)]
    items = [
        FakeItem(n + 1, "pr", f"[Perf] pr {n}", "dev", [], moments[n % seconds], moments[0])
        for n in range(1500)
    ]
    with FakeGitHub(REPO, items) as fake:
        source = GitHubSource(repo=REPO, api_url=fake.url, request_interval=0, retries=1)
        result = Collector(source).search_span(start, start + timedelta(seconds=seconds))
    assert len(result.items) == 1500 and result.complete


# -- merged time (bot/collect/client.py `_to_item`) -------------------------------------------


def test_merged_time_comes_from_merged_at_not_closed_at() -> None:
    """Mutant: merged_at taken from closed_at (equal in every real fixture)."""
    merged = datetime(2026, 3, 25, 5, 0, tzinfo=UTC)
    closed = merged + timedelta(minutes=3)
    pr = FakeItem(
        7, "pr", "[Core] x", "dev", [], merged - timedelta(days=1), closed, closed, merged
    )
    with FakeGitHub(REPO, [pr]) as fake:
        source = GitHubSource(repo=REPO, api_url=fake.url, request_interval=0, retries=1)
        found = Collector(source).search_span(
            merged - timedelta(hours=1), merged + timedelta(hours=1)
        )
    assert found.items[7].merged_at == merged
    assert found.items[7].closed_at == closed


# -- a live window is never complete (bot/collect/sync.py `Archiver.window`) ------------------


def test_a_live_window_is_incomplete_even_when_its_past_is_all_covered(tmp_path: Path) -> None:
    """Mutant: complete = no gaps (the clock margin hid it: sync coverage stops short of now)."""
    store = Store(f"sqlite:///{tmp_path / 's.sqlite3'}")
    window = day_window(date(2026, 3, 25), CST, CUTOFF)
    now = window.start + timedelta(hours=5)
    store.coverage.add(REPO, Span(window.start, window.end), "search", now)
    archiver = Archiver(store, GitHubSource(repo=REPO, api_url="http://127.0.0.1:9"))
    archived = archiver.window(REPO, window, now)
    store.close()
    assert not archived.complete
    assert any("in progress" in note for note in archived.notes)


# -- windows (bot/model/windows.py) --------------------------------------------------------------


def test_the_cutoff_instant_belongs_to_the_new_day() -> None:
    """Mutant: `>` for `>=` at the cutoff (11:45:00 is the new day's first instant)."""
    at = datetime(2026, 3, 26, 11, 45, tzinfo=CST)
    assert current_day(at, CST, CUTOFF) == at.date()
    assert current_day(at - MICRO, CST, CUTOFF) == at.date() - timedelta(days=1)


def test_is_past_at_the_window_end() -> None:
    """Mutant: `<` for `<=` (the end itself is outside the window, so the window is past)."""
    window = day_window(date(2026, 3, 26), CST, CUTOFF)
    assert window.is_past(window.end)
    assert not window.is_past(window.end - MICRO)
    assert window.contains(window.start) and not window.contains(window.end)


@pytest.mark.parametrize(
    ("phrase", "allowed"),
    [
        ("2026-03-01..2026-03-31", True),
        ("2026-03-01..2026-04-01", False),
        ("31d", True),
        ("32d", False),
    ],
)
def test_the_31_day_limit_is_inclusive(phrase: str, allowed: bool) -> None:
    """Mutant: `>=` for `>` (31 days is allowed, 32 is not)."""
    now = datetime(2026, 6, 1, tzinfo=UTC)
    ask = lambda: parse_window(phrase, now=now, tz=CST, cutoff=CUTOFF, max_days=31)  # noqa: E731
    if allowed:
        assert ask().duration == timedelta(days=31)
    else:
        with pytest.raises(WindowError, match="31-day limit"):
            ask()


# -- the per-user command limit (bot/commands/table.py) ----------------------------------------


def test_rate_limiter_window_edge() -> None:
    """Mutant: `>` for `>=` (a request exactly 60 s old no longer counts)."""
    now = [0.0]
    limiter = RateLimiter(1, clock=lambda: now[0])
    assert limiter.allow("u") == 0.0
    now[0] = 59.999
    assert limiter.allow("u") > 0
    now[0] = 60.0
    assert limiter.allow("u") == 0.0  # allowed, and counted from now on:
    assert limiter.allow("u") == pytest.approx(60.0)


class _Reports:
    """Just enough of the reports service: counts the reports asked for."""

    def __init__(self) -> None:
        self.asked = 0
        self.files = self

    def report(self, query: Any) -> Any:
        self.asked += 1
        from bot.analyze.counts import build_report

        return build_report([], query.window, repo=query.repo, complete=True)

    def link(self, report: Any, lang: str) -> None:
        return None


def test_the_service_applies_the_per_user_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: the service never asks the limiter (the limiter's own test passes either way)."""
    monkeypatch.setenv("VLLM_REPORT_COMMAND_LIMIT_PER_MINUTE", "2")
    reports = _Reports()
    services = Services(
        load_settings(),
        RULES,
        reports,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        lambda: datetime(2026, 3, 30, tzinfo=UTC),
    )
    now = [100.0]
    services.limiter = RateLimiter(2, clock=lambda: now[0])
    commands = Commands(services, table=whole_table())

    async def ask(user: str) -> str | None:
        asker = Asker("slack", user.removeprefix("slack:"))
        told = await commands.answer(
            commands.table["vllm-report"], asker, ReportRequest(when="2026-03-25")
        )
        return told.text if isinstance(told, Said) else None

    answers = [asyncio.run(ask("slack:U1")) for _ in range(3)]
    assert answers[:2] == [None, None]
    assert answers[2] is not None and "try again in 60 s" in answers[2]
    assert asyncio.run(ask("slack:U2")) is None  # per user
    now[0] = 160.0  # the window's edge: the first request is exactly 60 s old
    assert asyncio.run(ask("slack:U1")) is None
    assert reports.asked == 4


# -- Slack's five responses per response_url (bot/platforms/slack/draw.py) -------------------------


def test_slack_answers_use_at_most_five_responses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: the cap removed (Slack drops the 6th response and later ones)."""
    from bot.commands import ReportShown, answers
    from bot.platforms.registry import SLACK
    from bot.platforms.slack.slash import deliver
    from formatters import slack_blocks

    messages = [{"text": f"m{n}", "blocks": []} for n in range(8)]
    monkeypatch.setattr(slack_blocks, "render_slack", lambda *a, **k: messages)
    monkeypatch.setattr(answers, "key_of", lambda *a: (object(),))  # no memo across tests
    sent: list[dict[str, Any]] = []

    async def respond(**kwargs: Any) -> None:
        sent.append(kwargs)

    answer = ReportShown(report=object(), link="https://example.org/r.md")  # type: ignore[arg-type]
    asyncio.run(deliver(respond, answer))
    assert len(sent) == SLACK.responses == 5
    assert [m["text"] for m in sent[:4]] == ["m0", "m1", "m2", "m3"]
    assert sent[4]["text"].startswith("…and 4 more messages")


# -- the noisy-labels threshold (bot/analyze/topics.py, read-only here) ------------------------


def test_noisy_label_thresholds() -> None:
    """Mutant: `>` for `>=` on the label count or on the number of areas."""
    plain = [f"plain-{n}" for n in range(NOISY_LABEL_COUNT)]
    assert label_noise(item(1, labels=tuple(plain)), RULES) is not None
    assert label_noise(item(1, labels=tuple(plain[:-1])), RULES) is None
    areas = [t for t in RULES.topics if t.kind == "topic" and t.labels][:NOISY_AREA_TOPICS]
    assert len(areas) == NOISY_AREA_TOPICS
    labels = [sorted(t.labels)[0] for t in areas]
    assert label_noise(item(1, labels=tuple(labels)), RULES) is not None
    assert label_noise(item(1, labels=tuple(labels[:-1])), RULES) is None


# -- more edges found by the mutation run ------------------------------------------------------


def test_day_window_is_one_report_day_in_the_report_zone() -> None:
    window = day_window(date(2026, 3, 26), CST, CUTOFF)
    assert window.start == datetime(2026, 3, 26, 11, 45, tzinfo=CST)
    assert window.end == datetime(2026, 3, 27, 11, 45, tzinfo=CST)
    assert (window.timezone, window.label) == ("Asia/Shanghai", "2026-03-26")
    ranged = parse_window(
        "2026-03-20..2026-03-26",
        now=datetime(2026, 6, 1, tzinfo=UTC),
        tz=CST,
        cutoff=CUTOFF,
        max_days=31,
    )
    assert (ranged.timezone, ranged.label) == ("Asia/Shanghai", "2026-03-20..2026-03-26")


@pytest.mark.parametrize(
    ("phrase", "relative"), [("", (1, 1)), ("last", (1, 1)), ("today", (0, 0)), ("1d", (1, 1))]
)
def test_short_phrases(phrase: str, relative: tuple[int, int]) -> None:
    from bot.model.windows import read_phrase

    said = read_phrase(phrase)
    assert said.relative == relative and said.text == phrase


def test_the_supported_days_include_both_ends() -> None:
    from bot.model.windows import FIRST_DAY, LAST_DAY, read_phrase

    assert read_phrase(FIRST_DAY.isoformat()).first == FIRST_DAY
    assert read_phrase(LAST_DAY.isoformat()).last == LAST_DAY
    with pytest.raises(WindowError, match="outside the days a report can cover"):
        read_phrase((FIRST_DAY - timedelta(days=1)).isoformat())
    with pytest.raises(WindowError, match=r"'40d' is 40 days, more than the 31-day limit; ask"):
        read_phrase("40d", 31)
    with pytest.raises(WindowError, match=r"'2026-01-01\.\.2026-03-01' spans 60 days"):
        read_phrase("2026-01-01..2026-03-01", 31)
    assert read_phrase("7d").days_label == 7


def test_the_replay_guard_edges() -> None:
    """No signature (Socket Mode) is always fresh; a signature exactly 300 s old is forgotten."""
    from bot.adapters.replay import REPLAY_WINDOW, ReplayGuard

    now = [1000.0]
    guard = ReplayGuard(clock=lambda: now[0])
    assert guard.fresh(None) and guard.fresh(None) and guard.fresh("")
    assert guard.fresh("sig") and not guard.fresh("sig")
    now[0] += REPLAY_WINDOW - 1
    assert not guard.fresh("sig")
    now[0] = 1000.0 + REPLAY_WINDOW
    assert guard.fresh("sig")
