"""A fake of vLLM's CI dashboard (vllm-project/vllm-dashboard) on 127.0.0.1: its
`GET /api/alerts/main-ci`, answered in the route's shape (`{alerts, schemaStatus}`, each
alert as `toMainCiJobAlert` builds it: a close by hand points its resolution at the last
failing job, `state: "passed"`) and `GET /api/jobs/runs?jobName=` (`{runs}`, the route's
columns), from a recording of failure episodes and other runs, as the dashboard held them
at the fake's `now`: a run after `now` is not there yet, an episode
resolved after `now` is still open, one resolved over 30 days before `now` is gone, and
the answer is cut at 500 (open first, then the newest resolution). `mode` makes it fail as
a server can: `down` (503 with the dashboard's error JSON), `garbage` (not JSON),
`drip` (the answer one byte at a time),
`pending` (the schema not migrated yet). Every request is recorded."""

from __future__ import annotations

import hashlib
import json
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from tests.fakes.server import FakeServer

if TYPE_CHECKING:
    from tests.fakes.github_api import FakeGitHub, FakeItem

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
        split = urlsplit(self.path)
        path = split.path
        if path not in ("/api/alerts/main-ci", "/api/jobs/runs"):
            self._send(404, {"error": "Not found"})
        elif fake.mode == "down":
            self._send(503, {"error": fake.error})
        elif fake.mode == "drip":
            self._drip(json.dumps(fake.answer()).encode())
        elif fake.mode == "garbage":
            self._raw(200, b"<html>maintenance</html>", "text/html")
        elif fake.mode == "pending":
            self._send(200, {"alerts": [], "schemaStatus": "pending"})
        elif path == "/api/jobs/runs" and fake.runs_down:
            self._send(500, {"error": "Failed to fetch job runs"})
        elif path == "/api/jobs/runs":
            query = {k: v[0] for k, v in parse_qs(split.query).items()}
            if "jobName" not in query:
                self._send(400, {"error": "jobName is required"})
            else:
                self._send(200, {"runs": fake.runs(query)})
        else:
            self._send(200, fake.answer())

    def _drip(self, body: bytes) -> None:
        """Headers at once, then the body one byte every `drip_every` seconds (a server
        that never quite stops answering), until the client hangs up."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            for i in range(len(body)):
                self.wfile.write(body[i : i + 1])
                self.wfile.flush()
                time.sleep(self.fake.drip_every)
        except (BrokenPipeError, ConnectionResetError):
            pass

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
        self.other_runs: dict[str, list[dict[str, Any]]] = data["runs"] if episodes is None else {}
        self.now = datetime(2026, 4, 1, tzinfo=UTC)
        self.mode = "ok"
        self.error = "Main CI job alerts could not be loaded."  # what `down` answers
        self.drip_every = 0.2  # seconds between the bytes of a `drip` answer
        self.runs_down = False  # `/api/jobs/runs` answers 500, as its route does on errors
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
        if done and episode.get("resolutionKind") == "manual":
            # The resolve route: the resolution is the alert's own last failing job, and
            # `toMainCiJobAlert` says "passed" of it (`resolution_kind` is not returned).
            resolution = {**runs[-1], "state": "passed"}
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

    def runs(self, query: dict[str, str]) -> list[dict[str, Any]]:
        """`/api/jobs/runs`: one job's finished runs whose build began in the dates asked
        (a build begins about an hour before its run finishes), oldest first."""
        job = query["jobName"]
        start = _at(query["startDate"] + "T00:00:00Z") if "startDate" in query else None
        end = (
            _at(query["endDate"] + "T00:00:00Z") + timedelta(days=1) if "endDate" in query else None
        )
        found = list(self.other_runs.get(job, []))
        for episode in self.episodes:
            if episode["jobName"] != job:
                continue
            found += [{**run, "state": run.get("state", "failed")} for run in episode["runs"]]
            resolution = episode.get("resolution")
            if resolution and episode.get("resolutionKind") != "manual":
                found.append(resolution)
        rows = []
        for run in sorted(found, key=lambda r: r["finishedAt"]):
            finished = _at(run["finishedAt"])
            began = finished - timedelta(hours=1)
            if finished > self.now or (start and began < start) or (end and began >= end):
                continue
            build = f"{BUILDS}/{run['buildNumber']}"
            rows.append({
                "job_id": f"run-{run['buildNumber']}-{job}",
                "web_url": f"{build}#run-{run['buildNumber']}",
                "state": run.get("state", "failed"),
                "started_at": (finished - timedelta(minutes=30)).isoformat(),
                "finished_at": run["finishedAt"],
                "duration_secs": 1800,
                "commit_sha": run["commitSha"],
                "build_created_at": began.isoformat(),
            })  # fmt: skip
        return rows

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


def serve_main(github: FakeGitHub) -> None:
    """Main's history on the fake GitHub as the recording's commits say: each merged PR of
    the fake one squash-merge commit at its merge time ("title (#N)"), the recording's
    mapped SHAs standing for the PRs they merged; a blame range is GitHub's compare."""
    mapped = {number: sha for sha, number in recording()["commits"].items()}
    line = []
    for item in github.items.values():
        if item.kind == "pr" and item.merged_at is not None:
            sha = (
                mapped.get(item.number)
                or hashlib.sha1(f"merge-{item.number}".encode(), usedforsecurity=False).hexdigest()
            )
            line.append((sha, item.merged_at))
            github.messages[sha] = f"{item.title} (#{item.number})\n\nSigned-off-by: {item.author}"
    github.history[github.repo] = sorted(line, key=lambda commit: commit[1])
    codeowners = (RECORDING.parent / "CODEOWNERS").read_text()
    github.files[(github.repo, ".github/CODEOWNERS", "main")] = codeowners


REPORTS = Path(__file__).parent.parent / "data" / "ci" / "ci-failure-reports.json"


def ci_failure_reports() -> list[FakeItem]:
    """vLLM's real `[CI Failure]` issues (tests/data/ci/ci-failure-reports.json), as the
    fake GitHub serves them: open, as each was on the days after it was filed (the record
    does not say when the closed ones closed)."""
    from tests.fakes.github_api import FakeItem

    items = []
    for issue in json.loads(REPORTS.read_text())["issues"]:
        created = _at(issue["created_at"])
        items.append(
            FakeItem(
                issue["number"],
                "issue",
                issue["title"],
                issue["author"],
                issue["labels"],
                created,
                created,
                body=issue["body"],
            )
        )
    return items
