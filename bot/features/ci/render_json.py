"""Red on main's facts for the JSON report (`ci`) and `vllm-report ci --format json`:
`state` is `known`, `unknown` (with `why`) or `off`."""

from __future__ import annotations

from typing import Any

from bot.features.ci.model import Build, CiState, Red, Reported


def off(why: str) -> dict[str, Any]:
    """The JSON of a section that is switched off: said, never an empty answer."""
    return {"state": "off", "why": why}


def ci_to_dict(state: CiState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "state": state.state,
        "source": state.source,
        "end": state.end.isoformat(),
        "read_at": state.read_at.isoformat() if state.read_at else None,
    }
    if not state.known:
        data["why"] = state.why
        return data
    for key in ("red", "flaky", "infra", "resolved", "closed"):
        data[key] = [_red_dict(r) for r in getattr(state, key)]
    data["reported"] = [_reported_dict(r) for r in state.reported]
    data["skipped"] = state.skipped
    return data


def _build(build: Build | None) -> dict[str, Any] | None:
    if build is None:
        return None
    return {"build": build.number, "commit": build.commit, "at": build.at.isoformat()}


def _red_dict(red: Red) -> dict[str, Any]:
    failure, suspect, analysis = red.failure, red.suspect, red.failure.analysis
    return {
        "id": failure.alert_id,
        "job_key": failure.job_key,
        "job": failure.job,
        "hardware": failure.hardware,
        "kind": failure.kind,
        "new": red.new,
        "red_since": failure.first.at.isoformat(),
        "first_failure": _build(failure.first),
        "last_failure": _build(failure.last),
        "failing_runs": failure.count,
        "resolved_by": _build(failure.resolved),
        "closed_by_hand": failure.by_hand,
        "closed_at": failure.closed_at.isoformat() if failure.closed_at else None,
        "last_pass": _build(red.history.last_pass) if red.history else None,
        "flips_30d": red.history.flips if red.history else None,
        "flaky": red.flaky,
        "blame_range": list(red.blame.prs) if red.blame else None,
        "suspect": None
        if suspect is None
        else {
            "number": suspect.number,
            "title": suspect.title,
            "author": suspect.author,
            "merged_at": suspect.merged_at.isoformat() if suspect.merged_at else None,
            "because": suspect.because,
        },
        "evidence": list(red.evidence),
        "named_outside_range": list(red.outside),
        "cleared": list(red.cleared),
        "ask": list(red.owners),
        "analysis": None
        if analysis is None
        else {
            "classification": analysis.classification,
            "summary": analysis.summary,
            "stale": analysis.stale,
        },
    }


def _reported_dict(report: Reported) -> dict[str, Any]:
    return {
        "number": report.number,
        "job": report.job,
        "hardware": report.hardware,
        "opened_at": report.opened_at.isoformat(),
        "closed_at": report.closed_at.isoformat() if report.closed_at else None,
        "first_failing_build": report.build or None,
        "fix": report.fix,
    }
