"""CI failures reported on GitHub: vLLM's `[CI Failure]: <job>: <test>` issues (label
`ci-failure`, template `.github/ISSUE_TEMPLATE/450-ci-failure.yml`). AMD's nightly CI
(`amd-ci`) and other vendors' reach vLLM this way; the dashboard reads one pipeline only.

Read from the issue as written: the job from the title, the hardware from the job's and
the labels' words, the first failing build from a Buildkite link in the body. A PR the
report suspects stays the reporter's word: it is not shown as a suspect.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.features.ci.collect import hardware_of
from bot.features.ci.model import Reported
from bot.model.report import ActivityItem

LABEL = "ci-failure"
_TITLE = re.compile(r"^\s*\[CI(?: Failure)?\]\s*:?\s*(.+)$", re.I)
_BUILD = re.compile(r"buildkite\.com/vllm/([\w-]+)/builds/(\d+)")
# Words that say which job a report is about, without the hardware and filler words, so
# "mi325_1: Entrypoints Integration Test (API Server 1)" meets the dashboard's
# "AMD: Entrypoints Integration Test (API Server 1) (mi325_1)".
_WORD = re.compile(r"[a-z0-9]+")
_FILLER = frozenset({"amd", "nvidia", "test", "tests", "ci", "failure", "failing", "job"})


def reported_of(item: ActivityItem, fix: int | None = None) -> Reported | None:
    """The report an issue is, or None when it is none (a PR, another title)."""
    if item.kind != "issue":
        return None
    match = _TITLE.match(item.title)
    if match is None and LABEL not in item.labels:
        return None
    job = " ".join((match.group(1) if match else item.title).split())
    build = _BUILD.search(item.body or "")
    said = " ".join((job, *item.labels))
    return Reported(
        number=item.number,
        title=item.title,
        job=job,
        hardware=hardware_of(said),
        opened_at=item.created_at,
        closed_at=item.closed_at,
        build=f"{build.group(1)} #{build.group(2)}" if build else "",
        fix=fix,
        author=item.author,
    )


def job_words(job: str) -> frozenset[str]:
    """A job's distinctive words (hardware queue names and filler left out)."""
    words = _WORD.findall(job.lower())
    return frozenset(w for w in words if w not in _FILLER and hardware_of(w) == "nvidia")


def also_on_dashboard(report: Reported, jobs: Iterable[str]) -> bool:
    """Whether the dashboard already tells this report's failure: a job of the same
    hardware whose distinctive words hold the report's (or the other way round)."""
    mine = job_words(report.job)
    if not mine:
        return False
    for job in jobs:
        theirs = job_words(job)
        if hardware_of(job) == report.hardware and theirs and (mine <= theirs or theirs <= mine):
            return True
    return False
