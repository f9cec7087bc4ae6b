"""The queue's request budget: the benchmark's figures stay within the issue's limits, and
the benchmark itself fails a run over them. Every limit is a count of requests; the seconds
it prints are information, so a busy machine cannot fail it. On a failure the script's
output is shown: what it measured, and what it said on standard error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# The limits, kept here as well: a script whose own limits were loosened still
# fails here.
COLD_LIMIT, WARM_LIMIT = 60, 10
# A guard against a run that hangs, not a limit: the whole run takes under a minute on a
# busy 2-core machine, and a run that keeps asking ends at the script's request cap.
HANG_SECONDS = 900


def benchmark(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "benchmarks/queue_requests.py", *args]
    try:
        return subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, timeout=HANG_SECONDS
        )
    except subprocess.TimeoutExpired as exc:
        out, err = (
            (s.decode(errors="replace") if isinstance(s, bytes) else s or "")
            for s in (exc.stdout, exc.stderr)
        )
        pytest.fail(f"{' '.join(command[1:])} still ran after {HANG_SECONDS} s\n{out}\n{err}")


def said(result: subprocess.CompletedProcess[str]) -> str:
    """The script's exit status and output, for an assertion's message."""
    return (
        f"benchmarks/queue_requests.py exited {result.returncode}\n"
        f"--- stdout\n{result.stdout}--- stderr\n{result.stderr}"
    )


def rows(result: subprocess.CompletedProcess[str]) -> dict[str, tuple[int, int]]:
    """The table's rows: name → (requests, the row's limit); the seconds are left out."""
    found = {}
    for line in result.stdout.splitlines()[2:]:
        requests, limit, _seconds = line[48:].split()
        found[line[:48].strip()] = (int(requests), int(limit))
    return found


def test_queue_requests_stay_within_the_limits() -> None:
    """A cold daily queue (every vendor) within 60 requests, a warm one within 10: on the
    fixture and on a vLLM-sized month."""
    result = benchmark()
    assert result.returncode == 0, said(result)
    found = rows(result)
    assert len(found) == 10, said(result)
    for name, (requests, limit) in found.items():
        assert limit == (COLD_LIMIT if "cold" in name else WARM_LIMIT), (name, said(result))
        assert 0 < requests <= limit, (name, said(result))


def test_the_benchmark_fails_a_run_over_its_limit() -> None:
    """Limits doctored below what the fixture's warm queues ask: exit status 1, and each
    row over its limit named on standard error (none of those within it)."""
    result = benchmark("--fixture-only", "--warm-limit", "4")
    assert result.returncode == 1, said(result)
    found = rows(result)
    assert len(found) == 5, said(result)
    over = {name for name, (requests, limit) in found.items() if requests > limit}
    assert over and all("cold" not in name for name in over), said(result)
    named = {line.rsplit(": ", 1)[0] for line in result.stderr.splitlines()}
    assert named == over, said(result)
