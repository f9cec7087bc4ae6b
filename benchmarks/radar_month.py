"""The breakage radar for the fixture data's busiest month (2025-09), end to end.

    python benchmarks/radar_month.py [--latency 0.1] [--window 2025-04-01..2025-12-31]
                                     [--anonymous]

Serves the real 2025 plugin records (tests/data/radar/) from the fake GitHub as six
repositories plus vLLM, runs `RadarService` over 2025-09-01..2025-09-30 into a new SQLite
store, and prints: the links found, their precision and recall against the plugin authors'
own attributions (a link: plugin PR → upstream PR or commit that the record names as the
culprit of a break or what an upgrade adapted to); the most-breaking upstream PRs; the GitHub
requests cold and warm; the pins and their lag as read "now" (2026-08-22, where the pin
records end) for the day 2026-08-21; and the `/vllm-radar` answer as Slack blocks.

`--window` runs another window instead (up to 366 days: the whole data is
2025-02-01..2025-12-31) and prints the culprits shown against the records' culprits, the
requests (how many asked about upstream numbers: GraphQL, a hundred a request, with the
token the benchmark gives the fake; `--anonymous`: none, one REST request each) and whether
the radar is complete.
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

from bot.app import open_bot
from bot.features.radar.message import radar_message
from bot.features.radar.model import Radar
from bot.features.radar.render import render_radar_markdown
from bot.features.radar.service import radar_service
from bot.model.rules import load_rules
from bot.model.windows import parse_window
from bot.platforms.registry import SLACK
from config.settings import load_settings
from tests.fakes.github_api import RecordedRequest
from tests.features.radar.radar_data import month_window_days, radar_github, records

NOW = datetime(2026, 8, 22, 13, 34, 22, tzinfo=UTC)
PLUGINS = (
    "vllm-project/vllm-ascend,vllm-project/vllm-gaudi,vllm-project/tpu-inference,"
    "vllm-project/vllm-spyre,vllm-project/vllm-metal,vllm-project/vllm-omni"
)


def truth(
    found: Radar, roles: tuple[str, ...] = ("culprit", "adapted")
) -> set[tuple[str, int, str]]:
    """The records' links of the window: (plugin, PR, `#N` or a commit's 7 characters)."""
    wanted = set()
    for record in records():
        at = record["plugin_merged_at"]
        if not at or record["relation"] == "mention-only":
            continue
        if "culprit" in roles and roles == ("culprit",) and record["relation"] != "breakage-fix":
            continue
        if not found.window.start <= datetime.fromisoformat(at) < found.window.end:
            continue
        for ref in record["upstream_refs"]:
            if ref["role"] in roles:
                key = f"#{ref['number']}" if ref.get("number") else (ref.get("sha") or "")[:7]
                wanted.add((record["plugin_repo"], record["plugin_number"], key))
    return wanted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--window", help="FIRST..LAST report days (default: 2025-09)")
    parser.add_argument("--anonymous", action="store_true", help="no GitHub token")
    args = parser.parse_args()
    tz = ZoneInfo("Asia/Shanghai")
    with tempfile.TemporaryDirectory() as tmp, radar_github(args.latency) as fake:
        os.environ.update(
            GITHUB_API_URL=fake.url,
            VLLM_REPORT_DATA_DIR=tmp,
            VLLM_REPORT_GITHUB_REQUEST_INTERVAL="0",
            VLLM_REPORT_PLUGINS=PLUGINS,
        )
        if not args.anonymous:  # the radar runs with a token (the daily run needs one)
            os.environ["GITHUB_TOKEN"] = "ghp-benchmark"
        bot = open_bot(load_settings(), load_rules(None), clock=lambda: NOW)
        service = radar_service(bot.context())
        first, last = month_window_days()
        window = parse_window(
            args.window or f"{first}..{last}",
            now=NOW,
            tz=tz,
            cutoff=datetime.min.time(),
            max_days=366,
        )
        started = time.perf_counter()
        found = service.radar(window)
        cold, cold_s = len(fake.requests), time.perf_counter() - started
        asked = _upstream_asks(fake.requests)
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
    print(f"  of them asking about upstream numbers and commits: {asked}")
    shown = {c.ref.key for c in found.culprits}
    named = {key for _, _, key in truth(found, ("culprit",)) if key.startswith("#")}
    print(
        f"culprits shown {len(shown & named)} of {len(named)} the records name "
        f"({len(shown - named)} more shown); "
        f"{'complete' if found.complete else 'INCOMPLETE: ' + '; '.join(found.notes)}"
    )
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
    print(json.dumps(radar_message(SLACK, found, "en"), ensure_ascii=False, indent=1))


def _upstream_asks(requests: list[RecordedRequest]) -> str:
    graphql = sum(1 for r in requests if r.path == "/graphql")
    numbers = sum(1 for r in requests if r.path.startswith("/repos/vllm-project/vllm/issues/"))
    commits = sum(
        1
        for r in requests
        if r.path.startswith("/repos/vllm-project/vllm/commits/") and r.path.endswith("/pulls")
    )
    return f"{graphql} GraphQL, {numbers} numbers by REST, {commits} commits by REST"


if __name__ == "__main__":
    main()
