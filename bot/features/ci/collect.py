"""vLLM's CI dashboard (ci.vllm.ai, `vllm-project/vllm-dashboard`): its failure records of
main, read in one request and turned into our own `Failure`s at the boundary.

`GET {base}/api/alerts/main-ci` answers every open failure episode and those resolved in the
last 30 days (at most 500, open first), each with its first and last failing job run, the
passing run that resolved it, and the worker's analysis (`classification`, a `summary` that
may name the PR it suspects, `suspectedFixPrs`). No key is needed. The compact
`/api/agent/failures` gives only the last failure of each, so the report reads this one.

A record that does not parse is counted (`skipped`) and left out, never guessed at; an
answer that is not the dashboard's (an error status, not JSON, no `alerts`) raises
`CiUnavailable` with one sentence: the section then says the CI state is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import requests

from bot.collect.numbers import items_by_number
from bot.features.ci.model import INFRA_STATES, Build, Failure
from bot.model.report import ActivityItem

if TYPE_CHECKING:
    from bot.collect.client import Collector
    from bot.service.doctor import Check
    from config.settings import Settings

PATH = "/api/alerts/main-ci"
TIMEOUT = 30.0  # seconds: the dashboard's own deadline for a request
CAP = 500  # the most records one answer holds (the dashboard's MAX_ALERTS)
# A vLLM PR in the analysis: "#38139", "vllm#38139" or its URL (another repository's
# "owner/name#N" is not vLLM's).
_URL = re.compile(r"github\.com/vllm-project/vllm/pull/(\d{1,7})\b")
_REF = re.compile(r"(?<![\w/#-])(?:vllm)?#(\d{2,7})\b")
# Where a job runs, by its name: "AMD: Kernels Test (mi325_1)", "TPU V1 Test", "Intel XPU
# Test", "CPU-Test". A name that names no other hardware runs on the NVIDIA fleet, where
# vLLM's main CI runs by default (its L4, H100, B200 queues).
_HARDWARE = (
    ("amd", re.compile(r"\bamd\b|\brocm\b|\bmi\d{3}", re.I)),
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

    def __init__(self, base: str, get: Callable[..., Any] | None = None) -> None:
        self.base = base.rstrip("/")
        self._get = get or requests.get

    def read(self) -> Answer:
        url = self.base + PATH
        try:
            response = self._get(url, timeout=TIMEOUT, headers={"Accept": "application/json"})
        except requests.RequestException as exc:
            where = f"the CI dashboard at {self.base}"
            raise CiUnavailable(f"{where} could not be reached ({_why(exc)})") from None
        if response.status_code != 200:
            raise CiUnavailable(
                f"the CI dashboard at {self.base} answered HTTP {response.status_code}"
                + _error_of(response)
            )
        try:
            data = response.json()
        except ValueError:
            raise CiUnavailable(
                f"the CI dashboard at {self.base} answered something not JSON"
            ) from None
        return parse(data, self.base)


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
        resolved = _build(record.get("resolution"))
        closed_at = _moment(record["resolvedAt"]) if record.get("resolvedAt") else None
        if status == "resolved" and closed_at is None:
            return None
        if resolved is not None and resolved.state not in ("", "passed"):
            resolved = None  # only a pass resolves a failure
        analysis = record.get("analysis") or {}
        fixes = _fix_numbers(analysis.get("suspectedFixPrs"))
        said = " ".join(
            str(text)
            for text in (analysis.get("summary"), *(analysis.get("evidenceUrls") or ()))
            if isinstance(text, str)
        )
        suspects = tuple(n for n in dict.fromkeys(_numbers(said)) if n not in fixes)
        job = str(record["jobName"])
        infra = analysis.get("classification") == "infra" or last.state in INFRA_STATES
        return Failure(
            alert_id=str(record["alertId"]),
            job=job,
            hardware=hardware_of(job),
            infra=infra,
            first=first,
            last=last,
            count=int(record.get("failureCount") or 1),
            resolved=resolved,
            closed_at=closed_at,
            suspects=suspects,
            fixes=fixes,
        )
    except (KeyError, TypeError, ValueError):
        return None


def _build(ref: Any) -> Build | None:
    if not isinstance(ref, dict):
        return None
    return Build(
        number=int(ref["buildNumber"]),
        commit=str(ref.get("commitSha") or ""),
        at=_moment(ref["finishedAt"]),
        url=str(ref.get("jobUrl") or ref.get("buildUrl") or ""),
        state=str(ref.get("state") or ""),
    )


def _moment(text: Any) -> datetime:
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError("a time without a zone")
    return moment


def _numbers(text: str) -> list[int]:
    return [int(n) for n in _URL.findall(text)] + [int(n) for n in _REF.findall(text)]


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
    if isinstance(exc, requests.Timeout):
        return f"no answer in {TIMEOUT:g} s"
    if isinstance(exc, requests.ConnectionError):
        return "connection failed"
    return type(exc).__name__


def _error_of(response: Any) -> str:
    """The dashboard's own `error` sentence, when it gave one (short, quoted)."""
    try:
        said = response.json().get("error")
    except (ValueError, AttributeError):
        return ""
    return f": “{str(said)[:120]}”" if said else ""


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
