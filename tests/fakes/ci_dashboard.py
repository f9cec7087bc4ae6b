"""A fake of vLLM's CI dashboard (vllm-project/vllm-dashboard) on 127.0.0.1: its
`GET /api/alerts/main-ci`, answered in the route's shape (`{alerts, schemaStatus}`, each
alert as `toMainCiJobAlert` builds it) from a recording of failure episodes, as the
dashboard held them at the fake's `now`: a run after `now` is not there yet, an episode
resolved after `now` is still open, one resolved over 30 days before `now` is gone, and
the answer is cut at 500 (open first, then the newest resolution). `mode` makes it fail as
a server can: `down` (503 with the dashboard's error JSON), `garbage` (not JSON),
`pending` (the schema not migrated yet). Every request is recorded."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.fakes.server import FakeServer

RECORDING = Path(__file__).parent.parent / "data" / "ci" / "main-ci-2026-03.json"
BUILDS = "https://buildkite.com/vllm/ci/builds"


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def recording() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDING.read_text())
    return data


class _Handler(BaseHTTPRequestHandler):
    fake: FakeCiDashboard  # set by FakeServer.start

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        fake = self.fake
        fake.requests.append(self.path)
        path = urlsplit(self.path).path
        if path != "/api/alerts/main-ci":
            self._send(404, {"error": "Not found"})
        elif fake.mode == "down":
            self._send(503, {"error": "Main CI job alerts could not be loaded."})
        elif fake.mode == "garbage":
            self._raw(200, b"<html>maintenance</html>", "text/html")
        elif fake.mode == "pending":
            self._send(200, {"alerts": [], "schemaStatus": "pending"})
        else:
            self._send(200, fake.answer())

    def _send(self, status: int, body: dict[str, Any]) -> None:
        self._raw(status, json.dumps(body).encode(), "application/json")

    def _raw(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class FakeCiDashboard(FakeServer):
    handler = _Handler

    def __init__(self, episodes: list[dict[str, Any]] | None = None) -> None:
        super().__init__()
        data = recording()
        self.episodes = data["episodes"] if episodes is None else episodes
        self.broken: list[dict[str, Any]] = data["broken"] if episodes is None else []
        self.now = datetime(2026, 4, 1, tzinfo=UTC)
        self.mode = "ok"
        self.requests: list[str] = []

    def answer(self) -> dict[str, Any]:
        alerts = [a for a in (self._alert(e) for e in self.episodes) if a is not None]
        opened = sorted(
            (a for a in alerts if a["status"] == "open"),
            key=lambda a: a["lastFailure"]["finishedAt"],
            reverse=True,
        )
        closed = sorted(
            (a for a in alerts if a["status"] != "open"),
            key=lambda a: a["resolvedAt"],
            reverse=True,
        )
        return {"alerts": (opened + closed + self.broken)[:500], "schemaStatus": "ready"}

    def _alert(self, episode: dict[str, Any]) -> dict[str, Any] | None:
        runs = [r for r in episode["runs"] if _at(r["finishedAt"]) <= self.now]
        if not runs:
            return None
        resolved_at = episode.get("resolvedAt")
        done = resolved_at is not None and _at(resolved_at) <= self.now
        if done and _at(resolved_at) < self.now - timedelta(days=30):
            return None  # the route keeps resolved episodes 30 days
        resolution = episode.get("resolution") if done else None
        analysis = episode.get("analysis")
        return {
            "alertId": episode["alertId"],
            "jobKey": episode["jobKey"],
            "jobName": episode["jobName"],
            "status": "resolved" if done else "open",
            "openedAt": runs[0]["finishedAt"],
            "firstFailure": self._outcome(episode, runs[0]),
            "lastFailure": self._outcome(episode, runs[-1]),
            "failureCount": len(runs),
            "resolvedAt": resolved_at if done else None,
            "resolution": self._outcome(episode, resolution) if resolution else None,
            "analysis": None
            if analysis is None
            else {
                **analysis,
                "analyzedFailureJobId": self._job_id(episode, runs[0]),
                "analyzedAt": runs[0]["finishedAt"],
                "stale": len(runs) > 1,
            },
        }

    def _job_id(self, episode: dict[str, Any], run: dict[str, Any]) -> str:
        return f"0190{int(episode['alertId']):04d}-0000-7000-8000-{run['buildNumber']:012d}"

    def _outcome(self, episode: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
        job = self._job_id(episode, run)
        build = f"{BUILDS}/{run['buildNumber']}"
        return {
            "buildkiteJobId": job,
            "state": run.get("state", "failed"),
            "finishedAt": run["finishedAt"],
            "buildkiteBuildId": f"0190build-{run['buildNumber']}",
            "buildNumber": run["buildNumber"],
            "buildUrl": build,
            "jobUrl": f"{build}#{job}",
            "commitSha": run["commitSha"],
        }


def cutoff_of(day: str) -> datetime:
    """The end of report day `day` at the default cutoff (11:45 in Asia/Shanghai)."""
    return _at(f"{day}T03:45:00Z")


def episodes_open_at(moment: datetime) -> dict[str, dict[str, Any]]:
    """The recording's episodes failing at `moment`: begun, not yet closed."""
    found = {}
    for episode in recording()["episodes"]:
        first = _at(episode["runs"][0]["finishedAt"])
        closed = episode.get("resolvedAt")
        if first <= moment and (closed is None or _at(closed) > moment):
            found[episode["alertId"]] = episode
    return found


def first_run(episode: dict[str, Any]) -> tuple[int, datetime]:
    run = episode["runs"][0]
    return run["buildNumber"], _at(run["finishedAt"])
