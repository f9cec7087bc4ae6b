"""vLLM's CI dashboard (ci.vllm.ai, `vllm-project/vllm-dashboard`): its failure records of
main, read in one request and turned into our own `Failure`s at the boundary.

`GET {base}/api/alerts/main-ci` answers every open failure episode and those resolved in the
last 30 days (at most 500, open first), each with its first and last failing job run, the
run that closed it, and the worker's analysis of the latest failure (`classification`, a
prose `summary`, `suspectedFixPrs`, `stale`). No key is needed. The compact
`/api/agent/failures` gives only the last failure of each, so the report reads this one.
`GET {base}/api/jobs/runs?jobName=…` answers one job's runs on main (passes too): the
failure's last pass and its flips come from there (`runs`).

What a field means is what the dashboard's code writes into it (`bot.features.ci.model`):
a resolution pointing at the episode's own last failing job is a close by hand whatever its
`state` says; the PR numbers of the prose are data (`Analysis.named`), and a number that
follows "build" or "job" is a build's, never a PR's.

A record that does not parse is counted (`skipped`) and left out, never guessed at; an
answer that is not the dashboard's (an error status, not JSON, no `alerts`) raises
`CiUnavailable` with one sentence: the section then says the CI state is unknown.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import requests
import urllib3

from bot.collect import deadline
from bot.collect.numbers import items_by_number
from bot.features.ci.model import FAILING_STATES, INFRA_STATES, KINDS, Analysis, Build, Failure
from bot.model.report import ActivityItem

if TYPE_CHECKING:
    from bot.collect.client import Collector
    from bot.service.doctor import Check
    from config.settings import Settings

PATH = "/api/alerts/main-ci"
TIMEOUT = 30.0  # seconds: the dashboard's own deadline for a request
# The whole answer must arrive in this long: `timeout` bounds each wait for a byte, so a
# server that sends one byte every few seconds would otherwise hold a daily post forever.
DEADLINE = 60.0
BIGGEST = 20_000_000  # bytes: 500 records are under 2 MB; more is not the dashboard's answer
CAP = 500  # the most records one answer holds (the dashboard's MAX_ALERTS)
RUNS_PATH = "/api/jobs/runs"
# A vLLM PR in the analysis: "#38139", "vllm#38139" or its URL (another repository's
# "owner/name#N" is not vLLM's) ...
_URL = re.compile(r"github\.com/vllm-project/vllm/pull/(\d{1,7})\b")
_REF = re.compile(r"(?<![\w/#-])(?:vllm)?#(\d{2,7})\b")
# ... unless the words before it make it a build's or a job's: "build #61784", "amd-ci #912".
_NOT_PR = re.compile(r"(?:build|builds|job|run|nightly|pipeline|amd-ci|ci)\s*$", re.I)
# A sentence of the summary that says a PR did not cause the failure.
_CLEARS = re.compile(
    r"innocent|not the (?:cause|culprit)|not responsible|unrelated|not related|ruled out"
    r"|did(?: not|n't) cause|not caused by|is not to blame",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+")
_TEST_PATH = re.compile(r"\btests/[\w./-]*\w")
_BUILD_NUMBER = re.compile(r"/builds/(\d+)")
# Where a job runs, by its name: "AMD: Kernels Test (mi325_1)", "TPU V1 Test", "Intel XPU
# Test", "CPU-Test". A name that names no other hardware runs on the NVIDIA fleet, where
# vLLM's main CI runs by default (its L4, H100, B200 queues).
_HARDWARE = (
    # AMD's queues name its GPUs: "mi325_1", "mi3xx", "gfx942".
    ("amd", re.compile(r"(?<![a-z])(?:amd|rocm|mi\d(?:\d\d|xx)|gfx9\d+)(?![a-z])", re.I)),
    ("tpu", re.compile(r"\btpu", re.I)),
    ("intel", re.compile(r"\bintel\b|\bxpu\b|\bhpu\b|\bgaudi\b", re.I)),
    ("neuron", re.compile(r"\bneuron\b|\btrainium\b|\binferentia\b", re.I)),
    ("ascend", re.compile(r"\bascend\b|\bnpu\b", re.I)),
    ("cpu", re.compile(r"\bcpu\b", re.I)),
)


class CiUnavailable(Exception):
    """The dashboard could not be read: one sentence a person can act on."""


@dataclass(frozen=True)
class Answer:
    failures: tuple[Failure, ...]
    records: int
    skipped: int
    oldest: datetime | None  # the answer was cut at CAP: its oldest resolution


def hardware_of(job: str) -> str:
    """The hardware a job runs on, from its name (NVIDIA when it names none)."""
    for key, words in _HARDWARE:
        if words.search(job):
            return key
    return "nvidia"


class CiDashboard:
    """The dashboard at `base` (`https://ci.vllm.ai`), read with `get` (requests by default;
    one request per `read`)."""

    def __init__(
        self, base: str, get: Callable[..., Any] | None = None, deadline: float = DEADLINE
    ) -> None:
        self.base = base.rstrip("/")
        self._get = get or requests.get
        self.deadline = deadline

    def read(self) -> Answer:
        return parse(self._json(PATH, {}), self.base)

    def runs(self, job: str, start: datetime, end: datetime) -> list[Build]:
        """Job `job`'s finished runs on main whose builds began from `start`'s day through
        `end`'s (the route takes dates), oldest first: one request."""
        params = {"jobName": job, "startDate": start.date().isoformat(),
                  "endDate": end.date().isoformat()}  # fmt: skip
        data = self._json(RUNS_PATH, params)
        rows = data.get("runs") if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise CiUnavailable(f"the CI dashboard at {self.base} answered without a job's runs")
        found = [run for run in (_run(row) for row in rows) if run is not None]
        return sorted(found, key=lambda run: run.at)

    def _json(self, path: str, params: dict[str, str]) -> Any:
        where = f"the CI dashboard at {self.base}"
        try:
            deadline.check(where)  # the section's time limit (bot/collect/deadline.py)
        except deadline.OutOfTime as exc:
            raise CiUnavailable(str(exc)) from None
        at, late = deadline.answer_by(where, self.deadline)
        try:
            response = self._get(
                self.base + path,
                params=params,
                timeout=TIMEOUT,
                headers={"Accept": "application/json"},
                stream=True,
            )
            with response:
                body = _body(response, at, late, where)
        except (requests.RequestException, urllib3.exceptions.HTTPError) as exc:
            raise CiUnavailable(f"{where} could not be reached ({_why(exc)})") from None
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if response.status_code != 200:
            raise CiUnavailable(f"{where} answered HTTP {response.status_code}{_error_of(data)}")
        if data is None:
            raise CiUnavailable(f"{where} answered something not JSON")
        return data


def _body(response: Any, at: float, late: str, where: str) -> bytes:
    """The whole answer, or CiUnavailable (`late`) when it does not arrive by `at` or grows
    past BIGGEST (a slow drip or an endless body never holds the caller). `read1` returns
    what has arrived, so the deadline is checked as each piece comes."""
    chunks, size = [], 0
    while chunk := response.raw.read1(65536, decode_content=True):
        chunks.append(chunk)
        size += len(chunk)
        if time.monotonic() > at:
            raise CiUnavailable(late)
        if size > BIGGEST:
            raise CiUnavailable(f"{where} answered more than {BIGGEST // 1_000_000} MB")
    return b"".join(chunks)


def parse(data: Any, base: str = "the CI dashboard") -> Answer:
    """The dashboard's answer as our failures (CiUnavailable when it is not its answer)."""
    if not isinstance(data, dict) or not isinstance(data.get("alerts"), list):
        raise CiUnavailable(f"the CI dashboard at {base} answered without a list of failures")
    if data.get("schemaStatus") == "pending":
        raise CiUnavailable(f"the CI dashboard at {base} has no failure records yet")
    records: Sequence[Any] = data["alerts"]
    found, skipped = [], 0
    for record in records:
        failure = _failure(record)
        if failure is None:
            skipped += 1
        else:
            found.append(failure)
    oldest = None
    if len(records) >= CAP:  # cut: the oldest resolutions were left out of the answer
        closed = [f.closed_at for f in found if f.closed_at is not None]
        oldest = min(closed) if closed else None
    return Answer(tuple(found), len(records), skipped, oldest)


def _failure(record: Any) -> Failure | None:
    try:
        first = _build(record["firstFailure"])
        last = _build(record["lastFailure"])
        status = record["status"]
        if status not in ("open", "resolved") or first is None or last is None:
            return None
        closed_at = _moment(record["resolvedAt"]) if record.get("resolvedAt") else None
        if status == "resolved" and closed_at is None:
            return None
        resolved = _build(record.get("resolution"))
        by_hand = status == "resolved" and not _is_pass(record, resolved, last)
        job = " ".join(str(record["jobName"]).split())
        analysis = _analysis(record.get("analysis"))
        return Failure(
            alert_id=str(record["alertId"]),
            job=job,
            hardware=hardware_of(job),
            kind=_kind(analysis, last),
            first=first,
            last=last,
            count=int(record.get("failureCount") or 1),
            resolved=None if by_hand else resolved,
            closed_at=closed_at,
            job_key=str(record.get("jobKey") or ""),
            by_hand=by_hand,
            analysis=analysis,
        )
    except (KeyError, TypeError, ValueError):
        return None


def _is_pass(record: Any, resolution: Build | None, last: Build) -> bool:
    """Whether a resolved record was closed by an observed pass. The dashboard's resolve
    route closes by hand by pointing the resolution at the record's own last failing job,
    and its GET still says `state: "passed"` (`resolutionKind` is not returned today)."""
    if resolution is None or record.get("resolutionKind") == "manual":
        return False
    if resolution.state not in ("", "passed"):
        return False
    if resolution.job_id and last.job_id:
        return resolution.job_id != last.job_id
    return resolution.number != last.number


def _kind(analysis: Analysis | None, last: Build) -> str:
    """The analysis's class decides; the state only where there is none (a hung server the
    analysis classed `code` is code, though its job timed out)."""
    if analysis is not None and analysis.classification in KINDS:
        return analysis.classification
    return "infra" if last.state in INFRA_STATES else "code"


def _analysis(data: Any) -> Analysis | None:
    if not isinstance(data, dict):
        return None
    summary = " ".join(str(data.get("summary") or "").split())
    urls = " ".join(u for u in data.get("evidenceUrls") or () if isinstance(u, str))
    fixes = _fix_numbers(data.get("suspectedFixPrs"))
    cleared = [
        n for part in _SENTENCE.split(summary) if _CLEARS.search(part) for n in _numbers(part)
    ]
    named = [n for n in _numbers(f"{summary} {urls}") if n not in fixes]
    test = _TEST_PATH.search(summary)
    return Analysis(
        classification=str(data.get("classification") or ""),
        summary=summary[:400],
        stale=bool(data.get("stale")),
        named=tuple(dict.fromkeys(named)),
        cleared=tuple(dict.fromkeys(cleared)),
        fixes=fixes,
        test=test.group(0) if test else "",
    )


def _build(ref: Any) -> Build | None:
    if not isinstance(ref, dict):
        return None
    return Build(
        number=int(ref["buildNumber"]),
        commit=str(ref.get("commitSha") or ""),
        at=_moment(ref["finishedAt"]),
        url=str(ref.get("jobUrl") or ref.get("buildUrl") or ""),
        state=str(ref.get("state") or ""),
        job_id=str(ref.get("buildkiteJobId") or ""),
    )


def _run(row: Any) -> Build | None:
    """One row of `/api/jobs/runs` (`job_id`, `web_url`, `state`, `finished_at`,
    `commit_sha`); None for a run not finished or not readable."""
    try:
        if not row.get("finished_at") or row.get("state") not in {*FAILING_STATES, "passed"}:
            return None
        url = str(row.get("web_url") or "")
        number = _BUILD_NUMBER.search(url)
        return Build(
            number=int(number.group(1)) if number else 0,
            commit=str(row["commit_sha"]),
            at=_moment(row["finished_at"]),
            url=url,
            state=str(row["state"]),
            job_id=str(row.get("job_id") or ""),
        )
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _moment(text: Any) -> datetime:
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError("a time without a zone")
    return moment


def _numbers(text: str) -> list[int]:
    """The vLLM PRs a text names, in order (a build's or job's number is not one)."""
    found = [(m.start(), int(m.group(1))) for m in _URL.finditer(text)]
    found += [
        (m.start(), int(m.group(1)))
        for m in _REF.finditer(text)
        if not _NOT_PR.search(text[max(0, m.start() - 12) : m.start()])
    ]
    return [number for _, number in sorted(found)]


def _fix_numbers(prs: Any) -> tuple[int, ...]:
    found = []
    for pr in prs if isinstance(prs, list) else ():
        if isinstance(pr, dict):
            if isinstance(pr.get("number"), int):
                found.append(pr["number"])
            elif isinstance(pr.get("url"), str):
                found += [int(n) for n in _URL.findall(pr["url"])]
    return tuple(dict.fromkeys(found))


def _why(exc: Exception) -> str:
    if isinstance(exc, requests.Timeout | urllib3.exceptions.TimeoutError):
        return f"no answer in {TIMEOUT:g} s"
    if isinstance(exc, requests.ConnectionError):
        return "connection failed"
    return type(exc).__name__


def _error_of(data: Any) -> str:
    """The dashboard's own `error` sentence, when it gave one (short, quoted)."""
    said = data.get("error") if isinstance(data, dict) else None
    # Their words, flattened to one line; the report draws them as a stranger's text.
    return f": “{' '.join(str(said).split())[:120]}”" if said else ""


# -- the suspects, asked of GitHub --------------------------------------------------------


def suspects_of(
    github: Collector, repo: str, numbers: Sequence[int]
) -> dict[int, ActivityItem | None]:
    """GitHub's word on these numbers of `repo`: each item, or None when it has none. One
    GraphQL request for up to 100 of them (with a token; without one, GitHub answers GraphQL
    not at all, so one REST request each): `bot.collect.numbers`."""
    return items_by_number(github, repo, numbers, "the CI suspects' query", "Suspects")


def ci_check(settings: Settings) -> Check:
    """Red on main's source answers as the dashboard does (one request). A dashboard that
    does not answer fails the check: the daily report then says the CI state is unknown."""
    from bot.service.doctor import Check  # the doctor's line, only when doctor runs

    source = settings.ci_source
    if source is None:
        return Check("ci", True, "off (VLLM_REPORT_CI_URL=none): no Red on main section")
    try:
        answer = CiDashboard(source).read()
    except CiUnavailable as exc:
        return Check(
            "ci", False, f"{exc}; the daily report says the CI state is unknown until it answers"
        )
    still = sum(1 for f in answer.failures if f.closed_at is None)
    unread = f", {answer.skipped} not readable" if answer.skipped else ""
    return Check(
        "ci",
        True,
        f"{source} answers: {answer.records} failure records of main, {still} open{unread}",
    )
