"""The benchmark script keeps running (its figures are read by people, not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(*argv: str) -> subprocess.CompletedProcess[str]:
    """A benchmark script's run; when it fails, the failure shows what it printed (a
    captured output nobody sees cannot be mended)."""
    result = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert result.returncode == 0, (
        f"{argv[0]} exited {result.returncode}\n--- stdout\n{result.stdout}"
        f"\n--- stderr\n{result.stderr[-4000:]}"
    )
    return result


def test_benchmark_prints_its_table() -> None:
    """A small, zero-latency run prints every row with identical one-day counts."""
    result = run_script("benchmarks/github_requests.py", "--latency", "0", "--history", "500")
    rows = {line[:32].strip(): line.split() for line in result.stdout.splitlines()[2:]}
    assert set(rows) == {
        "cold, 1 day (search)",
        "warm, 1 day (archive)",
        "naive, 1 day (pulls + .merged)",
        "cold, 7 days (search)",
        "full report, 1 day, cold",
        "full report, 1 day, warm",
        "full report, 1 day, cold, token",
    }
    assert rows["warm, 1 day (archive)"][-3] == "0"  # requests column
    assert rows["full report, 1 day, warm"][-3] == "0"
    # With a token the key changes' size and reviewers are one GraphQL request, not 16 REST.
    cold, token = (int(rows[f"full report, 1 day, {n}"][-3]) for n in ("cold", "cold, token"))
    assert token < cold and token <= 30  # the budget of a cold full report
    one_day = {rows[name][-1] for name in rows if "1 day" in name}  # counts agree everywhere
    assert one_day == {"26/24/79/36/17"}


def test_personal_digests_benchmark_prints_its_table() -> None:
    """100 personal subscribers add one GraphQL request per 50 of the day's PRs (the files
    and review requests `path:` and `mine` read), nothing for a label, nothing the next run."""
    result = run_script("benchmarks/personal_requests.py", "--latency", "0", "--history", "500")
    lines = result.stdout.splitlines()
    prs = int(lines[0].split(" PRs")[0].rsplit(" ", 1)[1])
    rows = {line[:36].strip(): line[36:].split() for line in lines[2:]}
    assert set(rows) == {
        "daily report (full, cold, token)",
        "+ 1 subscriber (label:)",
        "+ 100 subscribers",
        "+ 100 subscribers, next run",
    }
    assert rows["+ 1 subscriber (label:)"][0] == "0"
    assert 0 < int(rows["+ 100 subscribers"][0]) <= -(-prs // 50) + 1
    assert rows["+ 100 subscribers, next run"][0] == "0"


def test_radar_requests_benchmark_prints_cold_warm_and_archived_rows() -> None:
    """A 3-day run: the cold rows ask GitHub, the warm rows and every day's archived
    Plugins section ask nothing."""
    result = run_script("benchmarks/radar_requests.py", "--days", "3")
    rows = {line[:34].strip(): line[34:].split() for line in result.stdout.splitlines()[2:]}
    assert set(rows) == {
        f"3{kind}, {name}"
        for kind in ("-day radar", " daily radars")
        for name in ("cold", "warm", "show, every day")
    }
    for name, figures in rows.items():
        requests, searches, lookups, pins = (int(n) for n in figures[:4])
        assert requests == searches + lookups + pins
        assert (requests > 0) == name.endswith("cold"), name
