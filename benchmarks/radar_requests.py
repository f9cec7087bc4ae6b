"""What the breakage radar costs in GitHub requests: a 30-day radar over six plugins, cold
and warm, and the same 30 days as the daily runs read them (one day each, in order); with
`--warnings`, what its warnings add to a daily run.

    python benchmarks/radar_requests.py [--days 30] [--latency 0.05]
    python benchmarks/radar_requests.py --warnings [--prs 150] [--touching 0.4] [--pushed 0.6]

Serves the real 2025 plugin records and the pin files' dated histories
(tests/features/radar/radar_data.py)
from the fake GitHub as vLLM plus six plugins, into a new SQLite store each scenario, and
prints one row per scenario: the requests by kind (the plugins' searches, the upstream
look-ups that check each culprit, the pins: file histories, files at a commit, vLLM main at
a moment, compares) and the wall time. "warm" repeats the scenario on the archive the cold
run left; "show" reads every day's Plugins section from the archive, as `show`, a slash
command and the site do.

`--warnings`: six plugins (each a tarball of tpu-inference 0.19.0's real files,
tests/data/predict/) and `--prs` upstream PRs updated on a day, a `--touching` share of them
changing real vLLM modules the plugins use (0.19.0 → 0.20.0's fused_moe), the rest a module
no plugin reaches; the first day on an empty archive, then a steady day: a `--pushed` share
of the PRs pushed again, every PR updated, one plugin moved to a new commit; then that day
read again (`radar --predict` after the daily run). Each row: API requests by kind, and the
tarball downloads apart (codeload.github.com: not the API's rate limit).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from hashlib import sha1
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import open_bot
from bot.features.radar.service import RadarService, radar_service
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window, parse_window
from config.settings import load_settings
from tests.fakes.github_api import FakeGitHub, FakeItem
from tests.features.radar.radar_data import month_window_days, pin_request, radar_github

NOW = datetime(2026, 8, 22, 13, 34, 22, tzinfo=UTC)  # where the pin records end
TZ = ZoneInfo("Asia/Shanghai")
PLUGINS = (
    "vllm-project/vllm-ascend,vllm-project/vllm-gaudi,vllm-project/tpu-inference,"
    "vllm-project/vllm-spyre,vllm-project/vllm-metal,vllm-project/vllm-omni"
)
KINDS = ("searches", "look-ups", "pins")


def kind(path: str) -> str:
    if path == "/search/issues":
        return "searches"
    return "pins" if pin_request(path) else "look-ups"


def measured(fake: FakeGitHub, run: Callable[[], object]) -> tuple[Counter[str], float]:
    before = len(fake.requests)
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    return Counter(kind(r.path) for r in fake.requests[before:]), seconds


def scenario(
    latency: float, work: Callable[[RadarService], object], days: list[Window]
) -> list[tuple[str, Counter[str], float]]:
    """Cold on a new store, warm on what it archived, then every day's archived section."""
    with tempfile.TemporaryDirectory() as tmp, radar_github(latency) as fake:
        os.environ.update(
            GITHUB_API_URL=fake.url,
            VLLM_REPORT_DATA_DIR=tmp,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_PLUGINS=PLUGINS,
        )
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
        try:
            service = radar_service(bot.context())
            cold = measured(fake, lambda: work(service))
            warm = measured(fake, lambda: work(service))
            shown = measured(fake, lambda: [service.archived(day) for day in days])
        finally:
            bot.close()
    return [("cold", *cold), ("warm", *warm), ("show, every day", *shown)]


WARNING_KINDS = ("search", "graphql", "heads", "tarball", "files", "contents", "main")


def warning_kind(path: str) -> str:
    if path.startswith("/_codeload/"):
        return "download"
    if path == "/search/issues":
        return "search"
    if path == "/graphql":
        return "graphql"
    if "/tarball/" in path:
        return "tarball"
    if "/pulls/" in path:
        return "files"
    if "/contents/" in path:
        return "contents"
    return "main" if path.startswith("/repos/vllm-project/vllm/") else "heads"


def warnings_rows(
    prs: int, touching: float, pushed: float, latency: float
) -> list[tuple[str, Counter[str], float]]:
    """The warnings' requests: a first day, a steady day, and that day again."""
    from tests.features.radar.predict_day import tarball, tree

    tz = ZoneInfo("Asia/Shanghai")
    days = [
        day_window(date(2026, 3, 24) + timedelta(days=n), tz, datetime.min.time().replace(11, 45))
        for n in (0, 1)
    ]
    old, new = tree("vllm-0.19.0"), tree("vllm-0.20.0")
    files = {**tree("tpu-inference-0.19.0"), "tpu_inference/__init__.py": ""}
    plugins = [f"vllm-project/plugin-{n}" for n in range(6)]
    reached = max(0, min(prs, round(prs * touching)))
    items = []
    for number in range(1, prs + 1):
        moe = number <= reached
        changes = (
            [(path, "modified" if path in new else "removed", None) for path in sorted(old)]
            if moe
            else [
                ("vllm/entrypoints/cli/banner.py", "modified", None),
                ("docs/a.md", "modified", None),
            ]
        )
        at = days[0].start.astimezone(UTC) + timedelta(hours=1)
        items.append(
            FakeItem(
                number,
                "pr",
                f"PR {number}",
                "someone",
                [],
                at - timedelta(days=2),
                at,
                head_sha=f"{number:040x}",
                base_sha="b" * 40,
                changes=changes,
            )
        )
    fake = FakeGitHub("vllm-project/vllm", items, latency, others={p: [] for p in plugins})
    fake.files.update({("vllm-project/vllm", path, "b" * 40): text for path, text in old.items()})
    for item in items[:reached]:
        fake.files.update(
            {("vllm-project/vllm", p, item.head_sha or ""): t for p, t in new.items()}
        )
    first = days[0].start.astimezone(UTC) - timedelta(days=9)
    fake.history["vllm-project/vllm"] = [("c" * 40, first)]
    for n, repo in enumerate(plugins):
        commit = f"{n + 1:x}" * 40
        fake.history[repo] = [(commit, first)]
        fake.tarballs[(repo, commit)] = tarball(repo, commit, files)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, fake:
        os.environ.update(
            GITHUB_API_URL=fake.url,
            GITHUB_TOKEN="ghp-benchmark",  # noqa: S106 - the fake takes any token
            VLLM_REPORT_DATA_DIR=tmp,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_PLUGINS=",".join(plugins),
        )
        for name, n in (("first day", 0), ("steady day", 1), ("steady day, again", 1)):
            moment = days[n].end.astimezone(UTC) + timedelta(hours=2)
            if name == "steady day":  # pushes, updates, a plugin's new commit
                for item in items:
                    item.updated_at = days[1].start.astimezone(UTC) + timedelta(hours=1)
                for item in items[: round(prs * pushed)]:
                    item.head_sha = sha1(
                        f"pushed {item.number}".encode(), usedforsecurity=False
                    ).hexdigest()
                    if item.number <= reached:
                        fake.files.update(
                            {("vllm-project/vllm", p, item.head_sha): t for p, t in new.items()}
                        )
                commit = "f" * 40
                fake.history[plugins[0]].append((commit, days[1].start.astimezone(UTC)))
                fake.tarballs[(plugins[0], commit)] = tarball(plugins[0], commit, files)
            bot = open_bot(load_settings(), load_rules(None), clock=lambda m=moment: m)
            try:
                service = radar_service(bot.context())
                bot.context().archiver.window("vllm-project/vllm", days[n], moment)
                counts, seconds = measured_by(
                    fake, warning_kind, lambda d=days[n], s=service: s.warnings.forecast(d)
                )
            finally:
                bot.close()
            rows.append((name, counts, seconds))
    return rows


def measured_by(
    fake: FakeGitHub, by: Callable[[str], str], run: Callable[[], object]
) -> tuple[Counter[str], float]:
    before = len(fake.requests)
    started = time.perf_counter()
    run()
    seconds = time.perf_counter() - started
    return Counter(by(r.path) for r in fake.requests[before:]), seconds


def print_warnings(args: argparse.Namespace) -> None:
    rows = warnings_rows(args.prs, args.touching, args.pushed, args.latency)
    print(
        f"the warnings of six plugins, {args.prs} upstream PRs updated a day "
        f"({args.touching:.0%} changing modules the plugins use, {args.pushed:.0%} pushed again "
        f"the next day), latency {args.latency:g} s"
    )
    head = "".join(f"{k:>9}" for k in WARNING_KINDS)
    print(f"{'run':<20}{'API':>6}{head}{'download':>10}{'s':>8}")
    for name, counts, seconds in rows:
        api = sum(n for k, n in counts.items() if k != "download")
        figures = "".join(f"{counts[k]:>9}" for k in WARNING_KINDS)
        print(f"{name:<20}{api:>6}{figures}{counts['download']:>10}{seconds:>8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30, help="days in the window (1-30)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--warnings", action="store_true", help="what the warnings add a day")
    parser.add_argument("--prs", type=int, default=150, help="upstream PRs updated a day")
    parser.add_argument("--touching", type=float, default=0.4, help="share changing used modules")
    parser.add_argument("--pushed", type=float, default=0.6, help="share pushed the next day")
    args = parser.parse_args()
    if args.warnings:
        print_warnings(args)
        return
    first = date.fromisoformat(month_window_days()[0])  # the records' busiest month
    count = max(1, min(30, args.days))
    days = [day_window(first + timedelta(days=n), TZ, datetime.min.time()) for n in range(count)]
    last = first + timedelta(days=count - 1)
    window = parse_window(
        f"{first}..{last}", now=NOW, tz=TZ, cutoff=datetime.min.time(), max_days=31
    )
    rows = [
        (f"{count}-day radar, {name}", counts, seconds)
        for name, counts, seconds in scenario(
            args.latency, lambda service: service.radar(window), days
        )
    ]
    rows += [
        (f"{count} daily radars, {name}", counts, seconds)
        for name, counts, seconds in scenario(
            args.latency, lambda service: [service.radar(d, look_up=30) for d in days], days
        )
    ]
    print(f"{window.label}, six plugins, latency {args.latency:g} s per request")
    print(f"{'scenario':<34}{'requests':>9}" + "".join(f"{k:>10}" for k in KINDS) + f"{'s':>8}")
    for name, counts, seconds in rows:
        total = sum(counts.values())
        figures = "".join(f"{counts[k]:>10}" for k in KINDS)
        print(f"{name:<34}{total:>9}{figures}{seconds:>8.2f}")


if __name__ == "__main__":
    main()
