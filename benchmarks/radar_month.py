"""The breakage radar for the fixture data's busiest month (2025-09), end to end.

    python benchmarks/radar_month.py [--latency 0.1]

Serves the real 2025 plugin records (tests/data/radar/) from the fake GitHub as six
repositories plus vLLM, runs `RadarService` over 2025-09-01..2025-09-30 into a new SQLite
store, and prints: the links found, their precision and recall against the plugin authors'
own attributions (a link: plugin PR → upstream PR or commit that the record names as the
culprit of a break or what an upgrade adapted to); the most-breaking upstream PRs; the GitHub
requests cold and warm; the pins and their lag as read "now" (2026-08-22, where the pin
records end) for the day 2026-08-21; and the `/vllm-radar` answer as Slack blocks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.app import open_bot, radar
from bot.model.radar import Radar
from bot.model.rules import load_rules
from bot.model.windows import parse_window
from config.settings import load_settings
from formatters.radar import render_radar_markdown, render_radar_slack
from tests.radar_data import month_window_days, radar_github, records

NOW = datetime(2026, 8, 22, 13, 34, 22, tzinfo=UTC)
PLUGINS = (
    "vllm-project/vllm-ascend,vllm-project/vllm-gaudi,vllm-project/tpu-inference,"
    "vllm-project/vllm-spyre,vllm-project/vllm-metal,vllm-project/vllm-omni"
)


def truth(found: Radar) -> set[tuple[str, int, str]]:
    wanted = set()
    for record in records():
        at = record["plugin_merged_at"]
        if not at or record["relation"] == "mention-only":
            continue
        if not found.window.start <= datetime.fromisoformat(at) < found.window.end:
            continue
        for ref in record["upstream_refs"]:
            if ref["role"] in ("culprit", "adapted"):
                key = f"#{ref['number']}" if ref.get("number") else (ref.get("sha") or "")[:7]
                wanted.add((record["plugin_repo"], record["plugin_number"], key))
    return wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    args = parser.parse_args()
    tz = ZoneInfo("Asia/Shanghai")
    with tempfile.TemporaryDirectory() as tmp, radar_github(args.latency) as fake:
        os.environ.update(
            GITHUB_API_URL=fake.url,
            VLLM_REPORT_DATA_DIR=tmp,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_PLUGINS=PLUGINS,
        )
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
        service = radar(bot)
        first, last = month_window_days()
        window = parse_window(
            f"{first}..{last}", now=NOW, tz=tz, cutoff=datetime.min.time(), max_days=366
        )
        started = time.perf_counter()
        found = service.radar(window)
        cold, cold_s = len(fake.requests), time.perf_counter() - started
        started = time.perf_counter()
        service.radar(window)
        warm, warm_s = len(fake.requests) - cold, time.perf_counter() - started
        day = parse_window("2026-08-21", now=NOW, tz=tz, cutoff=datetime.min.time(), max_days=1)
        before = len(fake.requests)
        today = service.radar(day)
        pin_requests = len(fake.requests) - before
        bot.close()

    said = {
        (link.plugin_repo, link.number, ref.key)
        for link in found.links
        if link.relation in ("breakage-fix", "upgrade")
        for ref in link.confirmed  # what the radar shows: causes GitHub confirmed
    }
    wanted = truth(found)
    right = len(said & wanted)
    print(f"window {window.label}: {len(found.links)} plugin PRs name upstream")
    print(
        f"links: found {len(said)}, right {right}, extra {len(said - wanted)}, "
        f"missed {len(wanted - said)}; precision {right / len(said):.3f}, "
        f"recall {right / len(wanted):.3f} (of {len(wanted)} in the records)"
    )
    print(f"GitHub requests: cold {cold} ({cold_s:.2f} s), warm {warm} ({warm_s:.2f} s)")
    print("\nmost-breaking upstream PRs:")
    for culprit in found.culprits[:5]:
        fixes = ", ".join(f"{f.plugin_repo.split('/')[1]}#{f.number}" for f in culprit.fixes)
        n = len(culprit.plugins)
        print(f"  {culprit.ref.key:>7}  {n} plugin{'s' if n > 1 else ' '}  {fixes}")
    print(f"\npins on 2026-08-21, read now ({pin_requests} requests):")
    for pin in today.pins:
        lag = (
            f"{pin.behind_commits} commits, {pin.behind_days} days behind main"
            if pin.unknown is None
            else f"unknown: {pin.unknown}"
        )
        print(f"  {pin.plugin_repo.split('/')[1]:<14} {str(pin.upstream_commit)[:12]:<13} {lag}")
    print("\nthe report's head:\n")
    print("\n".join(render_radar_markdown(found).splitlines()[:8]))
    print("\n/vllm-radar as Slack blocks:\n")
    print(json.dumps(render_radar_slack(found), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
