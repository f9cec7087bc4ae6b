"""Red on main against the fake CI dashboard with a recorded month of failures: what each
day's section lists at its cutoff, from one read a day and then from the archive alone;
the suspects GitHub confirms and why the others are not shown; people's corrections and
the attribution figure; and "unknown", never zero, when the dashboard cannot be read. On
SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.ci.model import CiState
from bot.features.ci.service import CiService
from bot.model.report import ActivityItem
from bot.model.windows import Window, day_window
from tests.fakes.ci_dashboard import (
    FakeCiDashboard,
    episodes_open_at,
    first_run,
    recording,
)
from tests.fakes.github_api import FakeGitHub

REPO = "vllm-project/vllm"
CST = ZoneInfo("Asia/Shanghai")
CUTOFF = time(11, 45)  # the default report day's end


def window_of(day: str) -> Window:
    return day_window(date.fromisoformat(day), CST, CUTOFF)


@dataclass
class Red:
    service: CiService
    dashboard: FakeCiDashboard
    github: FakeGitHub
    clock: list[datetime]

    def at(self, moment: datetime) -> None:
        self.clock[0] = moment
        self.dashboard.now = moment

    def day(self, label: str, ask: bool = True, topic: str | None = None) -> CiState:
        """The day's section as its daily run makes it, 15 minutes after its cutoff."""
        window = window_of(label)
        self.at(window.end + timedelta(minutes=15))
        return self.service.state(window, ask=ask, topic=topic)

    @property
    def suspect_queries(self) -> int:
        return sum(1 for r in self.github.requests if r.graphql and "Suspects" in r.graphql)


@pytest.fixture
def red(
    store_url: str, fake_github: FakeGitHub, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Red]:
    from bot.app import ci, open_bot
    from bot.model.rules import load_rules
    from config.settings import load_settings

    with FakeCiDashboard() as dashboard:
        monkeypatch.setenv("VLLM_REPORT_CI_URL", dashboard.url)
        monkeypatch.setenv("DATABASE_URL", store_url)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp-test")
        clock = [datetime(2026, 3, 1, tzinfo=UTC)]
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: clock[0])
        service = ci(bot)
        assert service is not None
        try:
            yield Red(service, dashboard, fake_github, clock)
        finally:
            bot.close()


def month() -> list[str]:
    start = date(2026, 3, 1)
    return [(start + timedelta(days=n)).isoformat() for n in range(30)]


def _expected_closed(window: Window) -> tuple[dict[str, Any], dict[str, Any]]:
    """The recording's episodes closed in the window: by an observed pass, or without one."""
    passed, closed = {}, {}
    for episode in recording()["episodes"]:
        at = episode.get("resolvedAt")
        if at is None:
            continue
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
        if window.start < moment <= window.end:
            (passed if episode.get("resolution") else closed)[episode["alertId"]] = episode
    return passed, closed


def test_a_month_of_daily_runs_lists_every_failure_open_at_each_cutoff(red: Red) -> None:
    """Each day of March: exactly the failures open at the cutoff (code and infrastructure
    apart), each red since its first failing build, and each closing in the day told as
    passing again (with the build) or closed without a pass; one dashboard request a day."""
    told: dict[str, CiState] = {}
    for label in month():
        state = red.day(label)
        window = window_of(label)
        assert state.known, (label, state.why)
        expected = episodes_open_at(window.end)
        shown = {r.failure.alert_id: r for r in (*state.red, *state.infra)}
        assert set(shown) == set(expected), label
        for alert, episode in expected.items():
            build, since = first_run(episode)
            failure = shown[alert].failure
            assert (failure.first.number, failure.first.at) == (build, since), (label, alert)
            infra = (episode.get("analysis") or {}).get("classification") == "infra"
            assert (shown[alert] in state.infra) == infra, (label, alert)
            assert shown[alert].new == (window.start < since <= window.end)
        passed, closed = _expected_closed(window)
        assert {r.failure.alert_id for r in state.resolved} == set(passed), label
        for item in state.resolved:
            resolution = passed[item.failure.alert_id]["resolution"]
            assert item.failure.resolved is not None
            assert item.failure.resolved.number == resolution["buildNumber"]
        assert {r.failure.alert_id for r in state.closed} == set(closed), label
        assert state.skipped == 1  # the recording's one record without its first failure
        told[label] = state
    assert len(red.dashboard.requests) == len(month())  # one read a day
    assert red.suspect_queries <= len(month())

    # Any past day again, now, from the archive alone: the same section, no request.
    asked = len(red.dashboard.requests), len(red.github.requests)
    red.at(datetime(2026, 4, 2, tzinfo=UTC))
    for label in month():
        again = red.service.state(window_of(label), ask=False)
        assert _ids(again) == _ids(told[label]), label
    assert (len(red.dashboard.requests), len(red.github.requests)) == asked


def _ids(state: CiState) -> tuple[list[str], ...]:
    return tuple(
        [r.failure.alert_id for r in reds]
        for reds in (state.red, state.infra, state.resolved, state.closed)
    )


def test_a_day_no_read_covers_is_unknown_never_nothing_failing(red: Red) -> None:
    """The dashboard read in April holds nothing resolved before March 3: March 1 is not
    known from it; a day after that read is."""
    red.at(datetime(2026, 4, 2, tzinfo=UTC))
    red.service.read()
    early = red.service.state(window_of("2026-03-01"))
    assert not early.known and early.red == ()
    assert "no read of the CI dashboard covers 2026-03-01" in early.why
    late = red.service.state(window_of("2026-03-29"))
    assert late.known and [r.failure.alert_id for r in late.red] == ["1010", "1006"]


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("down", "answered HTTP 503: “Main CI job alerts could not be loaded.”"),
        ("garbage", "answered something not JSON"),
        ("pending", "has no failure records yet"),
    ],
)
def test_a_dashboard_that_fails_makes_the_day_unknown_with_its_reason(
    red: Red, mode: str, said: str
) -> None:
    red.dashboard.mode = mode
    state = red.day("2026-03-25")
    assert not state.known and said in state.why
    assert state.red == state.resolved == ()


def test_a_daily_run_asks_the_dashboard_once_and_github_once_for_its_suspects(red: Red) -> None:
    """2026-03-25's suspects are asked in one GraphQL request; asked again, nothing."""
    state = red.day("2026-03-25")
    assert len(red.dashboard.requests) == 1 and red.suspect_queries == 1
    shown = {r.failure.alert_id: r.suspect for r in state.red}
    assert shown["1008"] is not None and shown["1008"].number == 37640
    assert shown["1006"] is not None and shown["1006"].number == 37483
    again = red.service.state(window_of("2026-03-25"), ask=True)
    assert red.suspect_queries == 1 and len(red.dashboard.requests) == 1  # fresh and archived
    assert again == state


def test_a_suspect_is_shown_only_when_it_merged_between_the_last_pass_and_the_failure(
    red: Red,
) -> None:
    """#36723 merged 46 minutes before the first failure: shown with its title and author.
    #9999 is no vLLM PR; #1406 merged a year before; #37833 merged after the failure began;
    #37616 merged before the job's last observed pass (build #58920)."""
    state = red.day("2026-03-11")
    [spec] = [r for r in state.red if r.failure.alert_id == "1004"]
    assert spec.suspect is not None and spec.suspect.verified
    assert (spec.suspect.number, spec.suspect.author) == (36723, "benchislett")
    assert spec.suspect.title == "[DSV3.2][MTP] Optimize Indexer MTP handling"

    def dropped(label: str, alert: str) -> dict[int, str]:
        day = red.day(label)
        [found] = [r for r in day.alerts() if r.failure.alert_id == alert]
        assert found.suspect is None
        return {s.number: s.why for s in found.dropped}

    assert dropped("2026-03-05", "1002") == {9999: "missing"}
    assert dropped("2026-03-14", "1005") == {1406: "too-old"}
    assert dropped("2026-03-25", "1007") == {37833: "after", 37616: "before-pass"}


def test_a_correction_hides_the_suspect_and_counts_against_its_precision(red: Red) -> None:
    red.day("2026-03-25")
    said = red.service.correct("1006", "37483", "U123")
    assert said.startswith("noted: #37483 did not cause failure 1006")
    assert red.service.correct("1006", "#37483", "U999").endswith(
        "already corrected for failure 1006"
    )
    state = red.day("2026-03-26")
    [web] = [r for r in state.red if r.failure.alert_id == "1006"]
    assert web.suspect is None
    assert [(s.number, s.why, s.by) for s in web.dropped] == [(37483, "corrected", "U123")]
    assert state.attribution.corrected == 1
    with pytest.raises(Exception, match="names #37483 as its suspect, not #1"):
        red.service.correct("1006", "1", "U123")
    with pytest.raises(Exception, match="no CI failure '77' is on record"):
        red.service.correct("77", "37483", "U123")


def test_a_later_revert_or_fix_naming_the_suspect_confirms_it(red: Red) -> None:
    """A fix merged after the failure whose title says fix and which names the suspect, as
    the archive holds it: the suspect is confirmed, and the precision counts it."""
    red.day("2026-03-26")
    at = datetime(2026, 3, 27, 1, 0, tzinfo=UTC)
    fix = ActivityItem(
        REPO, 38300, "pr", "[CI] Fix realtime WebSocket test timeouts", "someone", (), "closed",
        at - timedelta(hours=3), at, f"https://github.com/{REPO}/pull/38300", closed_at=at,
        merged_at=at, body="Follows up #37483, whose timeout change broke the test.",
    )  # fmt: skip
    red.service.archiver.store.items.save([fix], at)
    state = red.day("2026-03-26")
    [web] = [r for r in state.red if r.failure.alert_id == "1006"]
    assert web.suspect is not None and web.suspect.confirmed_by == "#38300 fixes it"
    assert state.attribution.confirmed >= 1
    assert state.attribution.precision == 1.0


def test_one_hardware_at_a_time(red: Red) -> None:
    amd = red.day("2026-03-25", topic="amd")
    assert {r.failure.hardware for r in amd.alerts()} == {"amd"}
    assert [r.failure.alert_id for r in amd.red] == ["1007", "1008"]
    with pytest.raises(Exception, match="'gpu' is no hardware CI runs on"):
        red.day("2026-03-25", topic="gpu")
