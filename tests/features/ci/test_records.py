"""Red on main's rules one at a time, on records in the dashboard's wire shape and on real
vLLM PRs: what a record means (hand closes, kinds, PR numbers in prose, hardware), what a
job's runs say (last pass, flips), when the evidence singles out a suspect, what is news
to a subscriber, and what `vllm-report ci --format json` prints with the feature off."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.features.ci.analyze import history_of, is_news, prs_merged, suspect_of
from bot.features.ci.collect import hardware_of, parse
from bot.features.ci.model import BlameRange, Build, CiState, Failure, Red, Reported
from bot.features.ci.reported import also_on_dashboard, reported_of
from bot.model.report import ActivityItem
from tests.cli_run import run

T0 = datetime(2026, 3, 25, 10, 0, tzinfo=UTC)


def outcome(build: int, at: datetime, state: str = "failed", job: str = "") -> dict[str, Any]:
    return {
        "buildkiteJobId": job or f"job-{build}",
        "state": state,
        "finishedAt": at.isoformat().replace("+00:00", "Z"),
        "buildNumber": build,
        "commitSha": f"{build:040d}",
    }


def record(**fields: Any) -> dict[str, Any]:
    base = {
        "alertId": "1",
        "jobKey": "kernels",
        "jobName": "Kernels Test",
        "status": "resolved",
        "firstFailure": outcome(100, T0),
        "lastFailure": outcome(104, T0 + timedelta(hours=4)),
        "failureCount": 3,
        "resolvedAt": (T0 + timedelta(hours=8)).isoformat(),
        "resolution": outcome(110, T0 + timedelta(hours=8), "passed"),
        "analysis": None,
    }
    return {**base, **fields}


def one(data: dict[str, Any]) -> Failure:
    [failure] = parse({"alerts": [data]}).failures
    return failure


def test_a_pass_resolves_a_failure_and_a_close_by_hand_never_does() -> None:
    assert one(record()).resolved is not None and not one(record()).by_hand
    # The resolve route: the resolution is the last failing job, and it says "passed".
    last = outcome(104, T0 + timedelta(hours=4), "passed", job="job-104")
    by_job = one(record(resolution=last))
    assert by_job.by_hand and by_job.resolved is None
    unnamed = {**outcome(104, T0 + timedelta(hours=4), "passed"), "buildkiteJobId": None}
    last_unnamed = {**outcome(104, T0 + timedelta(hours=4)), "buildkiteJobId": None}
    assert one(record(resolution=unnamed, lastFailure=last_unnamed)).by_hand  # same build
    assert one(record(resolution=outcome(110, T0, "timed_out"))).by_hand
    assert one(record(resolutionKind="manual")).by_hand
    assert one(record(resolution=outcome(110, T0, "failed"))).by_hand
    assert one(record(resolution=None)).by_hand
    assert one(record(status="open", resolvedAt=None, resolution=None)).closed_at is None


def test_the_analysis_decides_the_kind_and_the_state_only_without_one() -> None:
    hung = outcome(104, T0, "timed_out")
    code = {"classification": "code", "summary": "The server hangs at startup."}
    assert one(record(lastFailure=hung, analysis=code)).kind == "code"
    assert one(record(lastFailure=hung)).kind == "infra"
    assert one(record(lastFailure=outcome(104, T0, "broken"))).kind == "infra"
    assert one(record()).kind == "code"
    flaky = {"classification": "flaky", "summary": ""}
    assert one(record(analysis=flaky)).kind == "flaky"
    assert one(record(lastFailure=hung, analysis={"classification": "unknown"})).kind == "infra"


def test_a_number_after_build_or_job_is_no_pr_and_a_cleared_one_is_kept_apart() -> None:
    said = {
        "classification": "code",
        "summary": "First seen in build #61784 (amd-ci #912); #38139 reverted part of the "
        "earlier fix #28404. #37616 is innocent: its head passed.",
        "evidenceUrls": ["https://github.com/vllm-project/vllm/pull/38200"],
        "stale": True,
    }
    analysis = one(record(analysis=said)).analysis
    assert analysis is not None and analysis.stale
    assert analysis.named == (38139, 28404, 37616, 38200)
    assert analysis.cleared == (37616,)


@pytest.mark.parametrize(
    ("job", "hardware"),
    [
        ("mi325_1: Kernels Test", "amd"),
        ("Kernels MoE Test (mi3xx)", "amd"),
        ("amd_mi300_8: Distributed", "amd"),
        ("AMD: Entrypoints Test (mi325_1)", "amd"),
        ("Kernels MoE Test 1", "nvidia"),
        ("Intel XPU Test", "intel"),
        ("TPU V1 Test", "tpu"),
    ],
)
def test_the_hardware_of_a_job_by_its_name_and_queue(job: str, hardware: str) -> None:
    assert hardware_of(job) == hardware


def run_of(build: int, at: datetime, state: str) -> Build:
    return Build(build, f"{build:040d}", at, state=state)


def failure_of(**fields: Any) -> Failure:
    first = run_of(100, T0, "failed")
    base = Failure("1", "Kernels Test", "nvidia", "code", first, first, 1, None, None)
    return replace(base, **fields)


def test_the_last_pass_is_the_newest_before_the_failure_within_a_week() -> None:
    failure = failure_of()
    runs = [
        run_of(90, T0 - timedelta(days=8), "passed"),  # too old
        run_of(95, T0 - timedelta(days=2), "passed"),
        run_of(97, T0 - timedelta(hours=3), "passed"),
        run_of(99, T0 - timedelta(hours=1), "failed"),
        run_of(101, T0 + timedelta(hours=1), "passed"),  # after the failure began
    ]
    assert history_of(runs, failure).last_pass == runs[2]
    assert history_of(runs[:1], failure).last_pass is None
    flips = [run_of(n, T0 - timedelta(days=n), "passed" if n % 2 else "failed") for n in range(8)]
    assert history_of(flips, failure).flips == 7 and history_of(flips, failure).flaky
    assert not history_of(flips[:6], failure).flaky


def test_a_compare_s_commits_name_the_prs_merged() -> None:
    messages = ["[CI] Fix X (#38139)\n\nbody (#1)", "Merge branch 'x'", "Revert Y (#38200)"]
    assert prs_merged(messages) == (38139, 38200)


def fix_at(at: datetime) -> dict[int, list[tuple[datetime, str]]]:
    return {37880: [(at, "#38300 fixes it")]}


def test_the_suspect_only_with_evidence_that_rules_the_others_out() -> None:
    passed = run_of(120, T0 + timedelta(hours=10), "passed")
    done = failure_of(resolved=passed, closed_at=passed.at)
    one_pr, three = BlameRange("a", "b", (37880,)), BlameRange("a", "b", (37001, 37880, 37002))
    none: frozenset[int] = frozenset()
    assert suspect_of(done, one_pr, False, none, {}) == (37880, "alone")
    assert suspect_of(done, one_pr, False, frozenset({37880}), {}) is None  # cleared
    assert suspect_of(done, one_pr, True, none, {}) is None  # a flaky-looking job
    assert suspect_of(done, None, False, none, {}) is None  # no last pass: no range
    assert suspect_of(done, three, False, none, {}) is None  # one of three: no verdict
    between = fix_at(T0 + timedelta(hours=2))
    assert suspect_of(done, three, False, none, between) == (37880, "#38300 fixes it")
    assert suspect_of(done, three, False, none, fix_at(T0 - timedelta(hours=1))) is None
    assert suspect_of(done, three, False, none, fix_at(T0 + timedelta(hours=11))) is None
    still_red = failure_of()
    assert suspect_of(still_red, three, False, none, between) is None  # no pass after it
    outside = {99999: [(T0 + timedelta(hours=2), "#38300 fixes it")]}
    assert suspect_of(done, three, False, none, outside) is None  # not in the range


def state_of(**fields: Any) -> CiState:
    start, end = T0, T0 + timedelta(days=1)
    return replace(CiState("known", "x", start, end), **fields)


def test_what_is_news_to_a_ci_subscriber() -> None:
    quiet = Red(failure_of(first=run_of(1, T0 - timedelta(days=3), "failed")))
    assert not is_news(state_of(red=(quiet,)))
    assert is_news(state_of(red=(replace(quiet, new=True),)))
    closed = Red(failure_of(by_hand=True, closed_at=T0 + timedelta(hours=2)))
    assert is_news(state_of(closed=(closed,)))
    assert is_news(state_of(resolved=(closed,)))
    old = Reported(1, "[CI Failure]: mi325_1: X", "mi325_1: X", "amd", T0 - timedelta(days=3))
    assert not is_news(state_of(reported=(old,)))
    assert is_news(state_of(reported=(replace(old, opened_at=T0 + timedelta(hours=1)),)))
    assert is_news(state_of(reported=(replace(old, closed_at=T0 + timedelta(hours=1)),)))
    assert is_news(CiState("unknown", "x", T0, T0, why="down"))


def issue(title: str, labels: tuple[str, ...] = ("ci-failure",), body: str = "") -> ActivityItem:
    return ActivityItem(
        "vllm-project/vllm", 34637, "issue", title, "AndreasKaratzas", labels, "open", T0, T0,
        "https://github.com/vllm-project/vllm/issues/34637", body=body,
    )  # fmt: skip


def test_a_github_report_names_its_job_hardware_and_build_and_meets_the_dashboard() -> None:
    report = reported_of(
        issue(
            "[CI Failure]:  mi325_1: Entrypoints Integration Test (API Server 2)",
            body="Failing since https://buildkite.com/vllm/amd-ci/builds/4802#0190",
        )
    )
    assert report is not None and report.hardware == "amd"
    assert report.job == "mi325_1: Entrypoints Integration Test (API Server 2)"
    assert report.build == "amd-ci #4802"
    assert reported_of(issue("[Bug]: slow", labels=())) is None
    assert also_on_dashboard(report, ["AMD: Entrypoints Integration Test (API Server 2) (mi325_1)"])
    assert not also_on_dashboard(report, ["Entrypoints Integration Test (API Server 2)"])  # NVIDIA
    assert not also_on_dashboard(report, ["AMD: Kernels Test (mi325_1)"])
    rocm = reported_of(issue("[CI Failure]: Samplers Test", labels=("rocm", "ci-failure")))
    assert rocm is not None and rocm.hardware == "amd"


def test_ci_json_with_the_feature_off_still_prints_its_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("VLLM_REPORT_CI_URL", "none")
    monkeypatch.setenv("VLLM_REPORT_DATA_DIR", str(tmp_path))
    code, out, err = run(capsys, "ci", "--format", "json")
    assert code == 2 and '"state": "off"' in out and "Red on main is off" in err
