"""How the cost of one report window grows with its size: 1k, 10k and 100k items.

    python benchmarks/scale.py [--sizes 1000,10000,100000] [--formats json,markdown,slack]
                               [--timeout 600] [--runs 1]

The items are the anchor day 2026-03-24's real items cloned with new numbers and times
shifted within the window (`synthetic()` of benchmarks/report_speed.py). Each (size,
format) pair runs in its own subprocess, so no two share a heap: it builds the items
(untimed), then times `analyze()` and the renderer (`render_json`, `render_markdown`,
`render_slack`, English) in CPU seconds (`time.process_time`). `peak MB` is the
subprocess's maximum resident set size (`wait4` rusage), the items included; `× 1k` is
the per-item cost over that format's per-item cost at the first size (1k by default). A
subprocess still running after `--timeout` seconds (wall clock) is killed and its row says
so; with `--runs N` each row is the median CPU of N subprocesses (and the most memory).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import time as clock
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FORMATS = ("json", "markdown", "slack")


@dataclass
class Row:
    size: int
    fmt: str
    analyze_s: float | None = None
    render_s: float | None = None
    peak_mb: float = 0.0
    failed: str = ""

    @property
    def total_s(self) -> float | None:
        if self.analyze_s is None or self.render_s is None:
            return None
        return self.analyze_s + self.render_s


def child(size: int, fmt: str) -> None:
    """One measurement, printed as JSON on stdout for the parent."""
    from benchmarks.report_speed import CUTOFF, DAY, ZONE, synthetic
    from bot.analyze import analyze
    from bot.model.rules import load_rules
    from bot.model.windows import day_window
    from formatters.json_report import render_json
    from formatters.markdown import render_markdown
    from formatters.slack_blocks import render_slack
    from tests.anchor_data import REPO

    hour, minute = map(int, CUTOFF.split(":"))
    window = day_window(DAY, ZoneInfo(ZONE), clock(hour, minute))
    rules = load_rules()
    items = synthetic(size, window)
    began = time.process_time()
    report = analyze(items, window, repo=REPO, rules=rules, complete=True)
    analyzed = time.process_time()
    if fmt == "json":
        out = len(render_json(report))
    elif fmt == "markdown":
        out = len(render_markdown(report))
    else:
        out = len(json.dumps(render_slack(report)))
    rendered = time.process_time()
    print(json.dumps({"analyze": analyzed - began, "render": rendered - analyzed, "out": out}))


def measure(size: int, fmt: str, timeout: float) -> Row:
    argv = [sys.executable, __file__, "--child", str(size), fmt]
    row = Row(size, fmt)
    # Files, not pipes: a child that writes much to stderr cannot block on a full pipe.
    with tempfile.TemporaryFile("w+") as out_file, tempfile.TemporaryFile("w+") as err_file:
        process = subprocess.Popen(argv, stdout=out_file, stderr=err_file)  # noqa: S603
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.kill(process.pid, signal.SIGKILL)  # only the child this function started
                _, status, usage = os.wait4(process.pid, 0)
                row.failed = f"killed after {timeout:.0f} s"
                break
            time.sleep(0.2)
        process.returncode = os.waitstatus_to_exitcode(status)
        out_file.seek(0)
        err_file.seek(0)
        out, err = out_file.read(), err_file.read()
    row.peak_mb = usage.ru_maxrss / 1024
    if not row.failed and process.returncode != 0:
        row.failed = f"exited {process.returncode}: {err.strip()[-300:]}"
    if not row.failed:
        figures = json.loads(out)
        row.analyze_s, row.render_s = figures["analyze"], figures["render"]
    return row


def median(runs: Iterable[Row]) -> Row:
    """The run of median CPU (the machine is shared: the least would favour the short runs,
    which can fall in a quiet moment), with the most memory of any run."""
    done = list(runs)
    timed = sorted((row for row in done if row.total_s is not None), key=lambda r: r.total_s or 0)
    row = timed[(len(timed) - 1) // 2] if timed else done[0]
    row.peak_mb = max(r.peak_mb for r in done)
    return row


def header(smallest: int) -> str:
    base = f"× {smallest // 1000}k" if smallest % 1000 == 0 else f"× {smallest}"
    return (
        f"{'items':>7} {'format':9} {'analyze s':>9} {'render s':>9} {'CPU s':>8} "
        f"{'ms/item':>8} {base:>6} {'peak MB':>8}"
    )


def show(row: Row, first: dict[str, float]) -> None:
    """One row; `first` keeps each format's per-item cost at the smallest size."""
    total = row.total_s
    if total is None:
        print(f"{row.size:>7} {row.fmt:9} {row.failed} (peak {row.peak_mb:.0f} MB)", flush=True)
        return
    per_item = total * 1000 / row.size
    base = first.setdefault(row.fmt, per_item)
    print(
        f"{row.size:>7} {row.fmt:9} {row.analyze_s:>9.2f} {row.render_s:>9.2f} "
        f"{total:>8.2f} {per_item:>8.3f} {per_item / base:>6.2f} {row.peak_mb:>8.0f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="items in the window")
    parser.add_argument("--formats", default=",".join(FORMATS), help="of json,markdown,slack")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per subprocess")
    parser.add_argument("--runs", type=int, default=1, help="subprocesses per row (median kept)")
    parser.add_argument("--child", nargs=2, metavar=("SIZE", "FORMAT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(int(args.child[0]), args.child[1])
        return
    sizes = [int(size) for size in args.sizes.split(",") if size]
    formats = [fmt for fmt in args.formats.split(",") if fmt]
    unknown = set(formats) - set(FORMATS)
    if unknown:
        parser.error(f"unknown formats: {', '.join(sorted(unknown))}")
    from benchmarks.report_speed import CUTOFF, DAY, ZONE

    print(f"one window: day {DAY} (cutoff {CUTOFF} {ZONE}), cloned anchor items; {ROOT}")
    print(header(sizes[0]), flush=True)
    first: dict[str, float] = {}
    for size in sizes:
        for fmt in formats:
            show(median(measure(size, fmt, args.timeout) for _ in range(args.runs)), first)


if __name__ == "__main__":
    main()
