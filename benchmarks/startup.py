"""Start-up time of the command line: how long a person waits before anything happens.

Runs each command as a fresh `python -m bot` subprocess (so it pays every import), once to
warm the disk cache and then N timed times, and prints the median, min and max wall time
beside the target:

    python benchmarks/startup.py [--runs 7] [--skip demo]

- `python -c pass`: the interpreter alone, the floor nothing below can beat;
- `--help`, `--version`; usage errors (`show not-a-date`, `show --topic amdd`, `queue --topic
  moe`, exit status 2); `topics`;
- `demo`: the whole offline demo (the bundled sample loaded into a new store, the report,
  the Slack preview, the site with its charts), each run in a fresh temporary folder;
- `python -X importtime -c "import bot.cli"`: the total import time of `bot.cli` and the
  costliest top-level packages (cumulative µs, median over the runs). Cumulative figures
  nest: a package first imported by another one is counted inside it as well;
- store creation: `Store(url)` on a new SQLite file and on one already at the newest
  revision, timed inside a fresh process after its imports, each beside a bare baseline of
  the same run — the store's own tables created with the `sqlite3` module alone (the DDL
  SQLAlchemy emits, one transaction), the least creating them can cost — and a whole process
  that creates a store beside `python -c pass`.

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
# Timed inside one fresh process per run (after its imports): the bare baseline, a new
# store, the same store opened again. Prints three seconds.
STORE_PROBE = """
import sqlite3, sys, time
from pathlib import Path
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateIndex, CreateTable
from bot.store import Store
from bot.store.schema import Base
folder = Path(sys.argv[1])
dialect = sqlite.dialect()
ddl = [str(CreateTable(t).compile(dialect=dialect)) for t in Base.metadata.sorted_tables]
ddl += [str(CreateIndex(i).compile(dialect=dialect))
        for t in Base.metadata.sorted_tables for i in t.indexes]
began = time.perf_counter()
bare = sqlite3.connect(folder / "bare.sqlite3", isolation_level=None)
bare.execute("PRAGMA journal_mode=WAL")
bare.execute("BEGIN")
for statement in ddl:
    bare.execute(statement)
bare.execute("COMMIT")
bare.close()
baseline = time.perf_counter() - began
url = f"sqlite:///{folder / 'store.sqlite3'}"
began = time.perf_counter()
Store(url).close()
created = time.perf_counter() - began
began = time.perf_counter()
Store(url).close()
reopened = time.perf_counter() - began
print(baseline, created, reopened)
"""
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


def store_times(env: dict[str, str], cwd: str) -> tuple[float, float, float]:
    """Seconds of the bare DDL, a new store and a reopened one, in one fresh process."""
    with tempfile.TemporaryDirectory(dir=cwd) as folder:
        result = subprocess.run(  # noqa: S603 - our own interpreter and probe
            [sys.executable, "-c", STORE_PROBE, folder],
            env=env,
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        )
    baseline, created, reopened = (float(x) for x in result.stdout.split())
    return baseline, created, reopened


def new_store_command(python: str, cwd: str) -> list[str]:
    """A whole process that creates a store in a new file (removed first, each run)."""
    path = Path(cwd) / "new-store.sqlite3"
    code = (
        "import pathlib, sys; from bot.store import Store; p = pathlib.Path(sys.argv[1]); "
        "[q.unlink() for q in p.parent.glob(p.name + '*')]; Store(f'sqlite:///{p}').close()"
    )
    return [python, "-c", code, str(path)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    parser.add_argument(
        "--skip", default="", help="leave out the commands naming these words, e.g. demo"
    )
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
        (
            "python -m bot queue --topic moe",
            [python, "-m", "bot", "queue", "--topic", "moe"],
            2,
        ),
        ("python -m bot demo", [python, "-m", "bot", "demo"], 0),
    ]
    skipped = [word for word in args.skip.split(",") if word]
    commands = [c for c in commands if not any(word in c[0] for word in skipped)]
    timings: dict[str, list[float]] = defaultdict(list)
    totals: list[int] = []
    per_package: dict[str, list[int]] = defaultdict(list)
    parents: dict[str, str] = {}
    stores: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory() as cwd, tempfile.TemporaryDirectory() as data:
        commands.append(("python -c 'Store(new file)'", new_store_command(python, cwd), 0))
        env = clean_env(data)
        env["TMPDIR"] = data  # the demo's temporary folders go, and are removed, with it
        for _, argv, expect in commands:  # warm the disk cache and the .pyc files
            wall(argv, env, cwd, expect)
        for _ in range(args.runs):  # interleaved, so a slow moment hits every command alike
            for name, argv, expect in commands:
                timings[name].append(wall(argv, env, cwd, expect))
            stores.append(store_times(env, cwd))
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
        # The floor, and a store's creation (a first start's cost, read as a ratio): no target.
        target = "-" if name.startswith(("python -c pass", "python -c 'Store")) else f"≤ {limit} s"
        ratio = statistics.median(values) / statistics.median(timings[commands[0][0]])
        print(
            f"{name:40} {statistics.median(values):>9.3f} {min(values):>7.3f} "
            f"{max(values):>7.3f}  {target:8} {ratio:5.1f}× python -c pass"
        )
    print()
    baseline, created, reopened = (
        statistics.median(column) for column in zip(*stores, strict=True)
    )
    print("store creation, in a fresh process after its imports (median ms):")
    print(f"  bare: the same tables with sqlite3 alone   {baseline * 1000:>8.1f}")
    print(
        f"  Store(url), a new SQLite file               {created * 1000:>8.1f}  "
        f"{created / baseline:5.1f}× bare"
    )
    print(
        f"  Store(url), the same file again (at head)   {reopened * 1000:>8.1f}  "
        f"{reopened / baseline:5.1f}× bare"
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
