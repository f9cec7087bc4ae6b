"""Start-up time of the command line: how long a person waits before anything happens.

Runs each command as a fresh `python -m bot` subprocess (so it pays every import), once to
warm the disk cache and then N timed times, and prints the median, min and max wall time
beside the target:

    python benchmarks/startup.py [--runs 7]

- `python -c pass`: the interpreter alone, the floor nothing below can beat;
- `--help`, `--version`; usage errors (`show not-a-date`, `show --topic amdd`, exit status 2);
  `topics`;
- `demo`: the whole offline demo (the bundled sample loaded into a new store, the report,
  the Slack preview, the site with its charts), each run in a fresh temporary folder;
- `python -X importtime -c "import bot.cli"`: the total import time of `bot.cli` and the
  costliest top-level packages (cumulative µs, median over the runs). Cumulative figures
  nest: a package first imported by another one is counted inside it as well.

Each subprocess runs in an empty temporary folder with this checkout first on PYTHONPATH and
without the bot's own settings in its environment, so a local `.env`, `vllm-report.toml` or
chat token cannot change what is measured.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 0.3
TARGETS = {"python -m bot demo": 10.0}  # a whole report and site, not a start-up
TOP = 8
# The bot's own settings and secrets; none may leak into a measured run.
SETTING_PREFIXES = ("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_", "OPENAI_")
SETTING_NAMES = ("DATABASE_URL", "PYTHONPATH")
IMPORT_LINE = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)\s*$")


def clean_env(data_dir: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(SETTING_PREFIXES) and key not in SETTING_NAMES
    }
    env["PYTHONPATH"] = str(ROOT)
    env["VLLM_REPORT_DATA_DIR"] = data_dir
    return env


def wall(argv: list[str], env: dict[str, str], cwd: str, expect: int) -> float:
    began = time.perf_counter()
    result = subprocess.run(  # noqa: S603 - argv is built above from sys.executable
        argv, env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - began
    if result.returncode != expect:
        raise SystemExit(
            f"{' '.join(argv)} exited {result.returncode}, expected {expect}:\n{result.stderr}"
        )
    return elapsed


def import_times(env: dict[str, str], cwd: str) -> tuple[int, dict[str, tuple[int, str]]]:
    """Cumulative µs of `bot.cli`, and per top-level package (with the module importing it)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import bot.cli"],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    rows = []
    for line in result.stderr.splitlines():
        match = IMPORT_LINE.match(line)
        if match:
            rows.append((match.group(4), int(match.group(2)), len(match.group(3))))
    # importtime prints a module after everything it imported, so `bot.cli`'s imports are
    # the lines between the top-level line before it (`bot`) and its own line; the
    # interpreter's start-up (`site`, `encodings`) comes earlier and is left out.
    end = max(i for i, (name, _, _) in enumerate(rows) if name == "bot.cli")
    outer = rows[end][2]
    start = max((i for i in range(end) if rows[i][2] <= outer), default=-1) + 1
    total = rows[end][1]
    packages: dict[str, tuple[int, str]] = {}
    for index in range(start, end):
        name, cumulative, depth = rows[index]
        if "." in name or name in packages:
            continue
        parent = next(n for n, _, d in rows[index + 1 : end + 1] if d < depth)
        packages[name] = (cumulative, parent)
    return total, packages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    args = parser.parse_args()

    python = sys.executable
    commands = [
        ("python -c pass (interpreter floor)", [python, "-c", "pass"], 0),
        ("python -m bot --help", [python, "-m", "bot", "--help"], 0),
        ("python -m bot --version", [python, "-m", "bot", "--version"], 0),
        ("python -m bot show not-a-date", [python, "-m", "bot", "show", "not-a-date"], 2),
        (
            "python -m bot show --topic amdd",
            [python, "-m", "bot", "show", "yesterday", "--topic", "amdd"],
            2,
        ),
        ("python -m bot topics", [python, "-m", "bot", "topics"], 0),
        ("python -m bot demo", [python, "-m", "bot", "demo"], 0),
    ]
    timings: dict[str, list[float]] = defaultdict(list)
    totals: list[int] = []
    per_package: dict[str, list[int]] = defaultdict(list)
    parents: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as cwd, tempfile.TemporaryDirectory() as data:
        env = clean_env(data)
        env["TMPDIR"] = data  # the demo's temporary folders go, and are removed, with it
        for _, argv, expect in commands:  # warm the disk cache and the .pyc files
            wall(argv, env, cwd, expect)
        for _ in range(args.runs):  # interleaved, so a slow moment hits every command alike
            for name, argv, expect in commands:
                timings[name].append(wall(argv, env, cwd, expect))
            total, packages = import_times(env, cwd)
            totals.append(total)
            for package, (cumulative, parent) in packages.items():
                per_package[package].append(cumulative)
                parents.setdefault(package, parent)

    print(f"{sys.executable} ({sys.version.split()[0]}), {ROOT}, {args.runs} runs each")
    print()
    print(f"{'command':40} {'median s':>9} {'min s':>7} {'max s':>7}  target")
    for name, _, _ in commands:
        values = timings[name]
        limit = TARGETS.get(name, TARGET_S)
        target = "-" if name.startswith("python -c pass") else f"≤ {limit} s"
        print(
            f"{name:40} {statistics.median(values):>9.3f} {min(values):>7.3f} "
            f"{max(values):>7.3f}  {target}"
        )
    print()
    total_s = statistics.median(totals) / 1e6
    print(
        f'python -X importtime -c "import bot.cli": bot.cli cumulative '
        f"{statistics.median(totals):,.0f} µs ({total_s:.3f} s; target ≤ {TARGET_S} s)"
    )
    medians = {name: statistics.median(values) for name, values in per_package.items()}
    print(f"{'top-level package':24} {'cumulative µs':>14}  imported by")
    for name in sorted(medians, key=medians.__getitem__, reverse=True)[:TOP]:
        print(f"{name:24} {medians[name]:>14,.0f}  {parents[name]}")


if __name__ == "__main__":
    main()
