"""The queue's request budget: the benchmark's figures stay within the issue's limits."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_queue_requests_stay_within_the_limits() -> None:
    """A cold daily queue (every vendor) within 60 requests, a warm one within 10: on the
    fixture and on a vLLM-sized month."""
    result = subprocess.run(
        [sys.executable, "benchmarks/queue_requests.py"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    rows = {line[:48].strip(): int(line.split()[-2]) for line in result.stdout.splitlines()[2:]}
    assert len(rows) == 10
    for name, requests in rows.items():
        limit = 60 if "cold" in name else 10
        assert 0 < requests <= limit, (name, requests)
