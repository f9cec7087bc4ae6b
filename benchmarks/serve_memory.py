"""Idle memory of `vllm-report serve` with no model and no chat configured (archive only).

    python benchmarks/serve_memory.py [--runs 3] [--settle 8]

Starts `python -m bot serve` in a fresh data folder with GitHub pointed at a closed local
port (the start-up catch-up fails at once), waits `settle` seconds, reads VmRSS from
/proc/<pid>/status, stops it with SIGTERM and prints the median. Linux only.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_MB = 100


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS line")


def one_run(settle: float) -> float:
    with tempfile.TemporaryDirectory() as data:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_"))
            and k != "DATABASE_URL"
        }
        env.update(
            PYTHONPATH=str(ROOT),
            VLLM_REPORT_DATA_DIR=data,
            GITHUB_API_URL=f"http://127.0.0.1:{closed_port()}",
        )
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve"],
            env=env,
            cwd=data,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            time.sleep(settle)
            if proc.poll() is not None:
                raise RuntimeError(f"serve exited early with status {proc.returncode}")
            return rss_kb(proc.pid) / 1024
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=8.0)
    args = parser.parse_args()
    figures = [one_run(args.settle) for _ in range(args.runs)]
    print(f"serve, archive only, idle after {args.settle:.0f} s ({args.runs} runs)")
    print(
        f"VmRSS median {statistics.median(figures):.1f} MB "
        f"(min {min(figures):.1f}, max {max(figures):.1f}); target ≤ {TARGET_MB} MB"
    )


if __name__ == "__main__":
    main()
