"""What the breakage radar costs in GitHub requests: a 30-day radar over six plugins, cold
and warm, and the same 30 days as the daily runs read them (one day each, in order).

    python benchmarks/radar_requests.py [--days 30] [--latency 0.05]

Serves the real 2025 plugin records and the pin files' dated histories
(tests/features/radar/radar_data.py)
from the fake GitHub as vLLM plus six plugins, into a new SQLite store each scenario, and
prints one row per scenario: the requests by kind (the plugins' searches, the upstream
look-ups that check each culprit, the pins: file histories, files at a commit, vLLM main at
a moment, compares) and the wall time. "warm" repeats the scenario on the archive the cold
run left; "show" reads every day's Plugins section from the archive, as `show`, a slash
command and the site do.
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
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import open_bot
from bot.features.radar.service import RadarService, radar_service
from bot.model.rules import load_rules
from bot.model.windows import Window, day_window, parse_window
from config.settings import load_settings
from tests.fakes.github_api import FakeGitHub
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30, help="days in the window (1-30)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    args = parser.parse_args()
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
