"""Red on main against the fake CI dashboard with a recorded month of failures and the fake
GitHub holding main's history: what each day's section lists at its cutoff, from one read
a day and then from the archive alone; hand closes, flaky and infrastructure failures told
as the dashboard means them; blame ranges from GitHub's compare and the suspect only where
the evidence singles it out; people's corrections; GitHub's CI-failure reports; and
"unknown", with its reason, when the dashboard cannot be read. On SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.features.ci.analyze import is_news, of_hardware
from bot.features.ci.model import CiState
from bot.features.ci.service import CiService
from bot.model.report import ActivityItem
from bot.model.windows import Window, day_window
from tests.fakes.ci_dashboard import (
    FakeCiDashboard,
    ci_failure_reports,
    episodes_open_at,
    first_run,
    recording,
    serve_main,
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
    from bot.app import open_bot
    from bot.features.ci.service import ci_service
    from bot.model.rules import load_rules
    from config.settings import load_settings

    serve_main(fake_github)
    with FakeCiDashboard() as dashboard:
        monkeypatch.setenv("VLLM_REPORT_CI_URL", dashboard.url)
        monkeypatch.setenv("DATABASE_URL", store_url)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp-test")
        clock = [datetime(2026, 3, 1, tzinfo=UTC)]
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: clock[0])
        service = ci_service(bot.context())
        assert service is not None
        try:
            yield Red(service, dashboard, fake_github, clock)
        finally:
            bot.close()


def month() -> list[str]:
    start = date(2026, 3, 1)
    return [(start + timedelta(days=n)).isoformat() for n in range(30)]


def _expected_closed(window: Window) -> tuple[dict[str, Any], dict[str, Any]]:
    """The recording's episodes closed in the window: by an observed pass, or by hand."""
    passed, closed = {}, {}
    for episode in recording()["episodes"]:
        at = episode.get("resolvedAt")
        if at is None:
            continue
        moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
        if window.start < moment <= window.end:
            by_hand = episode.get("resolutionKind") == "manual"
            (closed if by_hand else passed)[episode["alertId"]] = episode
    return passed, closed


def _kind(episode: dict[str, Any]) -> str:
    """What the recording says a failure is: its analysis's class, else its last state."""
    classified = (episode.get("analysis") or {}).get("classification")
    if classified in ("code", "flaky", "infra"):
        return str(classified)
    return "infra" if episode["runs"][-1].get("state") in ("broken", "timed_out") else "code"


def _merged_between(github: FakeGitHub, base: str, head: str) -> list[int]:
    """The PRs main's history (the fake's) merged after commit `base`, up to `head`."""
    line = [sha for sha, _ in github.history[REPO]]
    between = line[line.index(base) + 1 : line.index(head) + 1]
    return [int(github.messages[sha].split("(#")[1].split(")")[0]) for sha in between]


def test_a_month_of_daily_runs_lists_every_failure_open_at_each_cutoff(red: Red) -> None:
    """Each day of March: exactly the failures open at the cutoff (code, flaky-looking and
    infrastructure apart, as the analysis or else the state says), each red since its first
    failing build; each closing in the day told as passing again (with the build) only when
    a pass was seen, else closed by hand; every blame range exactly main's merges between
    the last pass and the first failure, and no suspect outside it or cleared. One
    dashboard read a day, and a runs read per failing job only when it has new runs."""
    told: dict[str, CiState] = {}
    for label in month():
        state = red.day(label)
        window = window_of(label)
        assert state.known, (label, state.why)
        expected = episodes_open_at(window.end)
        shown = {r.failure.alert_id: r for r in (*state.red, *state.flaky, *state.infra)}
        assert set(shown) == set(expected), label
        for alert, episode in expected.items():
            build, since = first_run(episode)
            failure = shown[alert].failure
            assert (failure.first.number, failure.first.at) == (build, since), (label, alert)
            assert (shown[alert] in state.infra) == (_kind(episode) == "infra"), (label, alert)
            assert shown[alert].new == (window.start < since <= window.end)
        passed, closed = _expected_closed(window)
        assert {r.failure.alert_id for r in state.resolved} == set(passed), label
        for item in state.resolved:
            resolution = passed[item.failure.alert_id]["resolution"]
            assert item.failure.resolved is not None
            assert item.failure.resolved.number == resolution["buildNumber"]
        assert {r.failure.alert_id for r in state.closed} == set(closed), label
        for item in state.alerts():
            if item.blame is not None:
                assert list(item.blame.prs) == _merged_between(
                    red.github, item.blame.base, item.blame.head
                ), (label, item.failure.alert_id)
            if item.suspect is not None:
                assert item.blame is not None and item.suspect.number in item.blame.prs
                assert item.suspect.number not in item.cleared
            assert not set(item.outside) & set(item.blame.prs if item.blame else ())
        assert state.skipped == 1  # the recording's one record without its first failure
        told[label] = state
    reads = [r for r in red.dashboard.requests if r.startswith("/api/alerts/main-ci")]
    assert len(reads) == len(month())  # one read a day
    # A job's runs are asked again only when its failure has newer failing runs: at most
    # once per (failure, latest failing run) the days told.
    runs = [r for r in red.dashboard.requests if r.startswith("/api/jobs/runs")]
    seen = {(r.failure.alert_id, r.failure.last.number) for st in told.values()
            for r in st.alerts() if not r.failure.infra}  # fmt: skip
    assert runs and len(runs) <= len(seen)
    assert red.suspect_queries <= len(month())

    # Any past day again, now, from the archive alone: the same failures, no request.
    asked = len(red.dashboard.requests), len(red.github.requests)
    red.at(datetime(2026, 4, 2, tzinfo=UTC))
    for label in month():
        again = red.service.state(window_of(label), ask=False)
        assert _ids(again) == _ids(told[label]), label
    assert (len(red.dashboard.requests), len(red.github.requests)) == asked


def _ids(state: CiState) -> tuple[list[str], ...]:
    return tuple(
        [r.failure.alert_id for r in reds]
        for reds in (
            sorted((*state.red, *state.flaky), key=lambda r: r.failure.alert_id),
            state.infra,
            state.resolved,
            state.closed,
        )
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


def test_an_answer_that_never_finishes_is_given_up_at_its_deadline(red: Red) -> None:
    """A dashboard that sends its headers and then a byte every 0.2 s: the read gives up at
    its deadline (1 s here), and the day is unknown with that cause, not held forever."""
    red.dashboard.mode = "drip"
    red.service.dashboard.deadline = 1.0
    state = red.day("2026-03-25")
    assert not state.known and "sent no whole answer within 1 s" in state.why


def test_a_runs_route_that_fails_is_asked_once_and_the_failures_say_so(red: Red) -> None:
    """The failures read, the runs route failing: one runs request, not one per job; each
    failure says its runs could not be read, and no suspect is guessed."""
    red.dashboard.runs_down = True
    state = red.day("2026-03-25")
    runs = [r for r in red.dashboard.requests if r.startswith("/api/jobs/runs")]
    assert state.known and len(runs) == 1
    assert all(r.history is None and r.suspect is None for r in state.alerts())


def test_a_failed_read_says_why_today_and_the_next_ask_reads_again(red: Red) -> None:
    """Today, the dashboard down: unknown with its own reason and when it was read, in the
    report's zone; half a minute later it is back and the next ask reads it."""
    red.dashboard.mode = "down"
    today = window_of("2026-03-25")  # to 11:45 on the 26th
    red.at(datetime(2026, 3, 25, 20, 0, tzinfo=UTC))  # 04:00 on the 26th in Shanghai
    down = red.service.state(today, ask=True)
    assert not down.known
    assert "answered HTTP 503" in down.why and "(read at 2026-03-26 04:00 UTC+8)" in down.why
    red.at(datetime(2026, 3, 25, 20, 0, 10, tzinfo=UTC))  # 10 s later: not retried yet
    still = red.service.state(today, ask=True)
    assert still.why == down.why and len(red.dashboard.requests) == 1
    red.dashboard.mode = "ok"
    red.at(datetime(2026, 3, 25, 20, 0, 31, tzinfo=UTC))
    back = red.service.state(today, ask=True)
    assert back.known and len(red.dashboard.requests) >= 2
    assert back.end.utcoffset() == timedelta(hours=8)  # today's end, in the report's zone


def test_a_daily_run_reads_each_failing_jobs_runs_and_github_once(red: Red) -> None:
    """2026-03-25: #37640 is the one PR merged between the AMD Entrypoints job's last pass
    and its first failure: the suspect, with who wrote it. The Entrypoints Integration job
    has 7 PRs in its range: no suspect, the analysis's #37483 shown as evidence. Asked
    again: no request."""
    state = red.day("2026-03-25")
    shown = {r.failure.alert_id: r for r in state.alerts()}
    amd = shown["1008"]
    assert amd.suspect is not None and (amd.suspect.number, amd.suspect.because) == (37640, "alone")
    assert amd.suspect.author == "vllmellm" and "@vllmellm" in amd.owners
    assert amd.evidence == ()  # the analysis names #37640 too: shown once, as the suspect
    web = shown["1006"]
    assert web.suspect is None and web.blame is not None and len(web.blame.prs) == 7
    assert web.evidence == (37483,)
    asked = len(red.dashboard.requests), len(red.github.requests)
    again = red.service.state(window_of("2026-03-25"), ask=True)
    assert (len(red.dashboard.requests), len(red.github.requests)) == asked
    assert again == state


def test_a_pr_named_outside_the_range_or_cleared_is_never_the_suspect(red: Red) -> None:
    """2026-03-11: the analysis blames #36723, but the job passed on its merge; the one PR
    after it, #36719, is the suspect. 2026-03-26: #37616 was cleared in the analysis; a
    build number in the summary is no PR."""
    state = red.day("2026-03-11")
    [spec] = [r for r in state.alerts() if r.failure.alert_id == "1004"]
    assert spec.suspect is not None and spec.suspect.number == 36719
    assert spec.outside == (36723,)
    assert 56812 not in (*spec.outside, *spec.evidence)  # "build #56812"
    later = red.day("2026-03-26")
    [kernels] = [r for r in later.alerts() if r.failure.alert_id == "1007"]
    assert kernels.cleared == (37616,) and kernels.suspect is None
    # Who to ask: the owners CODEOWNERS gives tests/kernels/moe/test_moe.py.
    assert kernels.owners[:2] == ("@mgoin", "@tlrmchlsmth")
    assert "@AndreasKaratzas" in kernels.owners


def test_a_hand_close_is_never_passing_again(red: Red) -> None:
    """The TPU job's record was closed by hand on 2026-03-16: the dashboard says "passed"
    of its own last failing build; the section says closed by hand, no pass seen."""
    state = red.day("2026-03-16")  # the report day from 11:45 on the 16th (UTC+8)
    [tpu] = state.closed
    assert tpu.failure.alert_id == "1005" and tpu.failure.by_hand and tpu.failure.resolved is None
    assert state.resolved == ()


def test_flaky_looking_and_infrastructure_are_told_apart(red: Red) -> None:
    """The CPU job flipped pass↔fail through March: flaky-looking, no suspect. Blackwell
    timed out with no analysis: infrastructure. Intel XPU timed out but the analysis
    classed the hang as code: red."""
    march24 = red.day("2026-03-24")
    [cpu] = [r for r in march24.flaky if r.failure.alert_id == "1009"]
    assert cpu.history is not None and cpu.history.flips >= 6 and cpu.suspect is None
    march30 = red.day("2026-03-30")
    assert [r.failure.alert_id for r in march30.infra] == ["1011"]
    assert "1010" in {r.failure.alert_id for r in march30.red}


def test_a_correction_clears_the_pr_for_that_failure(red: Red) -> None:
    red.day("2026-03-25")
    said = red.service.correct("1006", "37483", "U123")
    assert said.startswith("noted: #37483 did not cause failure 1006")
    assert red.service.correct("1006", "#37483", "U999").endswith(
        "already corrected for failure 1006"
    )
    state = red.day("2026-03-26")
    [web] = [r for r in state.red if r.failure.alert_id == "1006"]
    assert web.cleared == (37483,) and web.evidence == ()
    with pytest.raises(Exception, match="in its analysis or blame range, not #1"):
        red.service.correct("1006", "1", "U123")
    with pytest.raises(Exception, match="no CI failure '77' is on record"):
        red.service.correct("77", "37483", "U123")


def test_a_fix_naming_a_pr_of_the_range_before_the_job_passed_makes_it_the_suspect(
    red: Red,
) -> None:
    """The AMD Kernels job (14 PRs in its range) passed again at 09:00 on the 26th; a fix
    naming #37880 merged at 01:00: #37880 is the suspect, "#38300 fixes it" (a fix after
    the pass, or before the failure, proves nothing: test_records.py)."""
    at = datetime(2026, 3, 26, 1, 0, tzinfo=UTC)
    fix = ActivityItem(
        REPO, 38300, "pr", "[ROCm] Fix MoE kernel tests after #37880", "someone", (),
        "closed", at - timedelta(hours=3), at, f"https://github.com/{REPO}/pull/38300",
        closed_at=at, merged_at=at, body="The batch-size change in #37880 broke them.",
    )  # fmt: skip
    red.service.archiver.store.items.save([fix], at)
    state = red.day("2026-03-26")
    [kernels] = [r for r in state.resolved if r.failure.alert_id == "1007"]
    assert kernels.suspect is not None
    assert (kernels.suspect.number, kernels.suspect.because) == (37880, "#38300 fixes it")


def test_github_reports_of_ci_failures_reach_the_section_and_ci_amd(red: Red) -> None:
    """vLLM's real `[CI Failure]: mi355_1: V1 Test entrypoints` (#35784, AMD's CI) was
    filed at 02:45 on 2026-03-03 (UTC+8): that report day's section lists it as reported
    on GitHub, and the AMD view keeps it while the NVIDIA view does not."""
    red.github.add(*ci_failure_reports())
    at = datetime(2026, 3, 2, 22, 0, tzinfo=UTC)
    fix, mention = (
        ActivityItem(
            REPO,
            number,
            "pr",
            title,
            "someone",
            (),
            "closed",
            at,
            at,
            f"https://github.com/{REPO}/pull/{number}",
            closed_at=at,
            merged_at=at,
            body=body,
        )
        for number, title, body in (
            (38401, "[ROCm] Entrypoints cleanup", "Context: #35784 is still red."),
            (38400, "[ROCm][CI] Skip the flaky entrypoint test", "Fixes #35784"),
        )
    )
    red.service.archiver.store.items.save([fix, mention], at)
    state = red.day("2026-03-02")
    numbers = {r.number: r for r in state.reported}
    assert numbers[35784].hardware == "amd" and numbers[35784].job.startswith("mi355_1")
    assert numbers[35784].fix == 38400  # the PR that says it fixes it, not the mention
    assert 35784 in {r.number for r in red.day("2026-03-02", topic="amd").reported}
    assert 35784 not in {r.number for r in red.day("2026-03-02", topic="nvidia").reported}
    assert is_news(of_hardware(state, "amd"))


def test_one_hardware_at_a_time(red: Red) -> None:
    amd = red.day("2026-03-25", topic="amd")
    assert {r.failure.hardware for r in amd.alerts()} == {"amd"}
    assert {r.failure.alert_id for r in amd.alerts()} >= {"1007", "1008"}
    with pytest.raises(Exception, match="'gpu' is no hardware CI runs on"):
        red.day("2026-03-25", topic="gpu")


def test_a_read_of_many_records_asks_the_store_in_chunks_not_once_a_record(red: Red) -> None:
    """A hostile answer (the route caps at 500; this one holds 1,200) is kept with a few
    reads of the store, not one per record (20,000 records took past 300 s when each
    record was looked up alone), and a second read of the same records adds none."""
    import copy

    from sqlalchemy import event

    episodes = []
    for n in range(1200):
        episode = copy.deepcopy(recording()["episodes"][n % 12])
        episode["alertId"] = str(900000 + n)
        episodes.append(episode)
    red.dashboard.episodes, red.dashboard.broken = episodes, []
    red.dashboard.answer = lambda: {  # type: ignore[method-assign]
        "alerts": [a for a in map(red.dashboard._alert, episodes) if a is not None],
        "schemaStatus": "ready",
    }
    red.at(datetime(2026, 3, 31, 4, tzinfo=UTC))
    statements: list[str] = []
    engine = red.service.archiver.store.engine

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        first = red.service.read()
        looked_up = sum(1 for s in statements if s.lstrip().startswith("SELECT"))
        red.at(datetime(2026, 3, 31, 5, tzinfo=UTC))
        red.service.read()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert first.ok and first.records == 1200
    assert looked_up <= 3  # 1,200 ids in chunks of 500
    kept = red.service.archive.failures(red.service.source, first.at - timedelta(days=40), first.at)
    assert len({f.alert_id for f in kept}) == len(kept) == 1200
