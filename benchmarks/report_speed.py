"""How long one day's report takes from the command line, against the floor PyGithub sets.

Runs against the project's fake GitHub (tests/fakes/github_api.py) serving the three real
anchor days plus older repository history, with a per-request latency injected on the
server side (default 100 ms), for the day 2026-03-24 (cutoff 11:33 Asia/Shanghai):

    python benchmarks/report_speed.py [--latency 0.1] [--history 1500] [--runs 5]

- bare PyGithub (the baseline): a minimal script, run as its own subprocess so it pays its
  own imports, that makes the collector's four searches for the day (issues/PRs ×
  created/closed, explicit UTC times, sorted by creation, ascending) and reads every result;
- cold: `python -m bot show 2026-03-24 --counts-only --format json --cutoff 11:33` with an
  empty data folder;
- warm: the same command again on the same folder (the archive answers: 0 requests);
- floor: a script that only imports what reading the archive and the settings needs
  (SQLAlchemy's ORM and pydantic-settings) and makes no request: what a warm `show` cannot
  go below while the store is SQLAlchemy and the settings pydantic-settings;
- analysis cost: `analyze()` over 2,000 and 20,000 items in one window, made by cloning the
  anchor items of the day with new numbers and times shifted within the window.

Every subprocess gets a fresh data folder, runs in an empty working folder with this
checkout first on PYTHONPATH, and sees none of the bot's settings but the ones set here.
Wall times are medians over the runs; `peak MB` is the subprocess's maximum resident set
size (`wait4` rusage). Ratios are to the bare-PyGithub median of the same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.analyze import analyze
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub

ROOT = Path(__file__).resolve().parents[1]


def _name(name: str, *modules: str) -> Any:
    """`name` from the first of `modules` that exists (the model moved to `bot.model`)."""
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise  # a module that exists failed to import: a bug, let it show
    raise ImportError(f"{name} is in none of {', '.join(modules)}")


ActivityItem = _name("ActivityItem", "bot.report", "bot.model.report")
load_rules = _name("load_rules", "bot.topic_rules", "bot.model.rules")
day_window = _name("day_window", "bot.windows", "bot.model.windows")

DAY = date(2026, 3, 24)
ZONE = "Asia/Shanghai"
CUTOFF = "11:33"
SHOW = ["show", DAY.isoformat(), "--counts-only", "--format", "json", "--cutoff", CUTOFF]
# What the warm path cannot go below (see the docstring's `floor`).
FLOOR = "import sqlalchemy.orm, pydantic_settings"
LISTS = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")
SETTING_PREFIXES = ("VLLM_REPORT_", "GITHUB_", "SLACK_", "DISCORD_", "LLM_", "OPENAI_")
SETTING_NAMES = ("DATABASE_URL", "PYTHONPATH")

# The baseline: what any client needs for the day, with nothing of this project imported.
BARE = """
import sys
from github import Github

gh = Github(base_url=sys.argv[1], per_page=100, seconds_between_requests=0)
read = 0
for query in sys.argv[2:]:
    for issue in gh.search_issues(query, sort="created", order="asc"):
        read += issue.number > 0
gh.close()
print(read)
"""


@dataclasses.dataclass
class Run:
    seconds: float
    requests: int
    peak_mb: float
    stdout: str


def clean_env(**settings: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(SETTING_PREFIXES) and key not in SETTING_NAMES
    }
    env["PYTHONPATH"] = str(ROOT)
    env.update(settings)
    return env


def run(fake: FakeGitHub, argv: list[str], env: dict[str, str], cwd: str) -> Run:
    """One subprocess: wall time, requests the fake saw, peak RSS; fails loudly on an error."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        fake.reset_log()
        began = time.perf_counter()
        process = subprocess.Popen(argv, env=env, cwd=cwd, stdout=out, stderr=err)  # noqa: S603
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - began
        process.returncode = os.waitstatus_to_exitcode(status)
        requests = len(fake.requests)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} exited {process.returncode}:\n{err.read()}")
        return Run(elapsed, requests, usage.ru_maxrss / 1024, out.read())


def queries(window: Any) -> list[str]:
    """The collector's four searches for a window: `[start, end - 1 s]`, both ends included."""
    first = window.start.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    last = (window.end - timedelta(seconds=1)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    return [
        f"repo:{REPO} is:{kind} {event}:{first}..{last}"
        for kind in ("issue", "pr")
        for event in ("created", "closed")
    ]


def counts_of(stdout: str) -> str:
    """`26/24/79/36/17` from the JSON report, or `?` when its shape is not the one known."""
    try:
        report = json.loads(stdout)
        counts = report.get("stats") or report["counts"]
        complete = "" if report.get("complete", True) else " (incomplete)"
        return "/".join(str(counts[name]) for name in LISTS) + complete
    except (ValueError, KeyError, TypeError, AttributeError):
        return "?"


# -- analysis cost ---------------------------------------------------------------------------


def to_activity(item: Any) -> Any:
    """A fake GitHub item as the collector builds it from the fake's search payload."""
    pull = item.kind == "pr"
    noun = "pull" if pull else "issues"
    values: dict[str, Any] = {
        "repo": REPO,
        "number": item.number,
        "kind": item.kind,
        "title": item.title,
        "author": item.author,
        "labels": tuple(item.labels),
        "state": "closed" if item.closed_at else "open",
        "state_reason": item.state_reason if item.closed_at else None,
        "created_at": item.created_at,
        "updated_at": item.updated_at,
        "closed_at": item.closed_at,
        "merged_at": item.merged_at if pull else None,
        "url": f"https://github.com/{REPO}/{noun}/{item.number}",
        "comments": item.comments,
        "body": item.body,
        "author_association": item.author_association,
        "draft": False,
        "reactions": item.reactions,
    }
    known = {field.name for field in dataclasses.fields(ActivityItem)}
    return ActivityItem(**{key: value for key, value in values.items() if key in known})


def synthetic(count: int, window: Any, seed: int = 11) -> list[Any]:
    """`count` items touching `window`: the day's real items, cloned with new numbers.

    Each clone moves all of its times by one offset, chosen so that every event it had in
    the window stays in it; titles, labels, authors and bodies stay real.
    """
    rng = random.Random(seed)
    start, end = window.start.astimezone(UTC), window.end.astimezone(UTC)
    base = []
    for item in anchor_items():
        inside = [
            moment
            for moment in (item.created_at, item.closed_at, item.merged_at)
            if moment is not None and start <= moment < end
        ]
        if inside:
            base.append((item, min(inside), max(inside)))
    clones = []
    for index in range(count):
        item, first, last = base[index % len(base)]
        room = (end - start) - (last - first) - timedelta(seconds=1)
        target = start + timedelta(seconds=rng.uniform(0, room.total_seconds()))
        shift = target - first

        def moved(moment: datetime | None, shift: timedelta = shift) -> datetime | None:
            return moment + shift if moment is not None else None

        clone = dataclasses.replace(
            item,
            number=100_000 + index,
            created_at=item.created_at + shift,
            updated_at=item.updated_at + shift,
            closed_at=moved(item.closed_at),
            merged_at=moved(item.merged_at),
        )
        clones.append(to_activity(clone))
    return clones


def analysis_cost(sizes: list[int], runs: int, window: Any) -> list[tuple[int, int, float]]:
    rules = load_rules()
    rows = []
    for size in sizes:
        items = synthetic(size, window)
        seconds = []
        for _ in range(runs):
            began = time.perf_counter()
            report = analyze(items, window, repo=REPO, rules=rules, complete=True)
            seconds.append(time.perf_counter() - began)
        listed = len(getattr(report, "items", items))
        rows.append((size, listed, statistics.median(seconds)))
    return rows


# -- main ------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per request")
    parser.add_argument(
        "--history",
        type=int,
        default=1500,
        help="older items in the repo (the fake's own search time grows with it: ~60 ms "
        "a search at 30000)",
    )
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument("--sizes", default="2000,20000", help="item counts for analyze()")
    parser.add_argument("--analyze-runs", type=int, default=3, help="timed analyze() calls")
    args = parser.parse_args()

    days = anchor_days()
    day = next(d for d in days if d.label == DAY.isoformat())
    assert day.cutoff == CUTOFF, f"the anchor day's cutoff is {day.cutoff}, not {CUTOFF}"
    hour, minute = map(int, CUTOFF.split(":"))
    window = day_window(DAY, ZoneInfo(ZONE), clock(hour, minute))
    items = anchor_items() + background_items(args.history, before=min(d.start for d in days))
    python = sys.executable
    results: dict[str, list[Run]] = {"bare": [], "cold": [], "warm": [], "floor": []}

    with (
        FakeGitHub(REPO, items, latency=args.latency) as fake,
        tempfile.TemporaryDirectory() as cwd,
    ):
        bare = [python, "-c", BARE, fake.url, *queries(window)]
        show = [python, "-m", "bot", *SHOW]
        floor = [python, "-c", FLOOR]
        for index in range(args.runs + 1):  # the first round warms the disk cache and .pyc
            with tempfile.TemporaryDirectory() as data:
                env = clean_env(
                    VLLM_REPORT_DATA_DIR=data,
                    GITHUB_API_URL=fake.url,
                    VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
                    VLLM_REPORT_TIMEZONE=ZONE,
                    VLLM_REPORT_CUTOFF=CUTOFF,
                )
                round_ = {
                    "bare": run(fake, bare, env, cwd),
                    "cold": run(fake, show, env, cwd),
                    "warm": run(fake, show, env, cwd),
                    "floor": run(fake, floor, env, cwd),
                }
            if index:
                for name, result in round_.items():
                    results[name].append(result)

    sizes = [int(size) for size in args.sizes.split(",") if size]
    analysis = analysis_cost(sizes, args.analyze_runs, window)

    print(
        f"fake GitHub: {len(items)} items, {args.latency * 1000:.0f} ms per request; "
        f"day {day.label} cutoff {CUTOFF} {ZONE} (reference counts "
        f"{'/'.join(str(day.counts[n]) for n in LISTS)}); {ROOT}; median of {args.runs} runs"
    )
    print(f"command: python -m bot {' '.join(SHOW)}")
    print()
    base = statistics.median(r.seconds for r in results["bare"])
    names = {
        "bare": "a. bare PyGithub (4 searches)",
        "cold": "b. show, cold (empty archive)",
        "warm": "c. show, warm (archive)",
        "floor": "d. floor: SQLAlchemy + settings",
    }
    header = f"{'row':32} {'requests':>8} {'median s':>9} {'min s':>7} {'max s':>7}"
    print(f"{header} {'/ bare':>7} {'peak MB':>8}  output")
    for key, name in names.items():
        runs = results[key]
        seconds = [r.seconds for r in runs]
        requests = sorted({r.requests for r in runs})
        shown = "/".join(str(n) for n in requests)
        output = (
            f"{runs[-1].stdout.strip()} results read"
            if key == "bare"
            else "imports only"
            if key == "floor"
            else f"counts {counts_of(runs[-1].stdout)}"
        )
        median = statistics.median(seconds)
        print(
            f"{name:32} {shown:>8} {median:>9.3f} {min(seconds):>7.3f} {max(seconds):>7.3f} "
            f"{median / base:>7.2f} {statistics.median(r.peak_mb for r in runs):>8.1f}  {output}"
        )
    print()
    print(f"e. analyze(), one window, median of {args.analyze_runs}")
    print(f"{'items':>8} {'listed':>8} {'ms':>10} {'ms / item':>10}")
    for size, listed, seconds in analysis:
        print(f"{size:>8} {listed:>8} {seconds * 1000:>10.1f} {seconds * 1000 / size:>10.4f}")


if __name__ == "__main__":
    main()
