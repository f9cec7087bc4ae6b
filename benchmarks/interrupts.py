"""Ctrl-C during a daily post to Slack, many times: how each run ends. Not part of CI.

    python benchmarks/interrupts.py [--runs 50] [--seed 1]

Each run starts `vllm-report post 2026-03-25` (a process of its own) against the fake
GitHub and a fake Slack of its own whose every post takes 0.3 s, waits until Slack has received its
first request, then a random 0 to 1.5 s more, and sends SIGINT. A run ends well when its exit
status is 130 and stderr holds the one "interrupted" sentence, no Python traceback and no
native abort ("terminate called", SIGABRT: exit 134 or -6). Prints the exit statuses seen
and the counts of tracebacks and aborts (goal: every run 130, none of either).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.anchor_data import anchor_days  # noqa: E402
from tests.fakes.slack_api import FakeSlack  # noqa: E402
from tests.fixture_run import fixture_github  # noqa: E402

DAY = anchor_days()[2]


def one_run(slack: FakeSlack, data: str, wait: float) -> tuple[int, str]:
    """One interrupted `post`: its exit status and stderr."""
    pause = threading.Event()  # never set: its wait is a pause
    env = {
        **os.environ,
        "VLLM_REPORT_DATA_DIR": data,
        "SLACK_BOT_TOKEN": "xoxb-bench",
        "SLACK_API_URL": slack.api_url,
        "SLACK_CHANNELS": "C1",
        "VLLM_REPORT_SLACK_POST_INTERVAL": "0",
    }
    argv = [sys.executable, "-m", "bot", "post", DAY.label, "--cutoff", DAY.cutoff]
    process = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True, cwd=ROOT)  # noqa: S603
    started = len(slack.calls)
    while process.poll() is None and len(slack.calls) == started:
        pause.wait(0.05)  # until Slack is asked something (or the run ends)
    if process.poll() is None:
        pause.wait(wait)
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    return process.returncode, err


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    statuses: Counter[int] = Counter()
    tracebacks = aborts = 0
    with fixture_github(), tempfile.TemporaryDirectory() as root:
        for n in range(args.runs):
            data = str(Path(root) / f"run-{n}")
            with FakeSlack() as slack:  # a Slack of its own: nothing posted yet
                slack.post_delay = 0.3
                code, err = one_run(slack, data, rng.uniform(0.0, 1.5))
            statuses[code] += 1
            tracebacks += "Traceback" in err
            aborts += "terminate called" in err or code in (134, -6)
            if code != 130 or "Traceback" in err:
                print(f"run {n}: exit {code}: {err.strip()[-300:]}")
    print(f"runs: {args.runs}")
    print("exit statuses: " + ", ".join(f"{c}: {n}" for c, n in sorted(statuses.items())))
    print(f"tracebacks: {tracebacks}")
    print(f"native aborts: {aborts}")


if __name__ == "__main__":
    main()
