"""Slack slash-command latency: time to ack and time to the full answer, cached window.

Runs the real Bolt app against the fake Slack and fake GitHub (tests/fakes), warms the
archive with one /vllm-report, then sends N signed /vllm-report requests for the same
window and prints p50/p95/max of the ack (the HTTP response Slack waits 3 s for) and of
the answer (the last response_url post):

    python benchmarks/slack_ack_latency.py [--calls 100]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from slack_bolt.request.async_request import AsyncBoltRequest

from bot.adapters.slack_app import build_slack_app
from bot.app import commands, open_bot
from bot.model.rules import load_rules
from config.settings import load_settings
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack, signed_command

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(calls: int, text: str) -> tuple[list[float], list[float]]:
    acks: list[float] = []
    answers: list[float] = []
    with FakeSlack() as fake:
        os.environ["SLACK_API_URL"] = fake.api_url
        settings = load_settings()
        bot = open_bot(settings, load_rules())
        service = commands(bot)
        app = build_slack_app(settings, service)
        for index in range(calls + 1):  # the first call fills the archive
            expected = len(fake.responses) + 2
            body, headers = signed_command(fake, "/vllm-report", text, SECRET)
            began = time.perf_counter()
            response = await app.async_dispatch(AsyncBoltRequest(body=body, headers=headers))
            acked = time.perf_counter()
            assert response.status == 200
            while len(fake.responses) < expected:
                await asyncio.sleep(0.001)
            if index:
                acks.append((acked - began) * 1000)
                answers.append((time.perf_counter() - began) * 1000)
        bot.close()
    return acks, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    args = parser.parse_args()
    day = anchor_days()[2]
    items = anchor_items() + background_items(2000, before=day.start)
    with tempfile.TemporaryDirectory() as data, FakeGitHub(REPO, items) as github:
        os.environ.update(
            {
                "VLLM_REPORT_DATA_DIR": data,
                "GITHUB_API_URL": github.url,
                "VLLM_REPORT_GITHUB_REQUEST_INTERVAL": "0",
                "VLLM_REPORT_CUTOFF": day.cutoff,
                "SLACK_BOT_TOKEN": "xoxb-bench",
                "SLACK_SIGNING_SECRET": SECRET,
                "VLLM_REPORT_COMMAND_LIMIT_PER_MINUTE": "600",
            }
        )
        acks, answers = asyncio.run(measure(args.calls, f"{day.label} hot"))
    print(f"{args.calls} cached /vllm-report calls ({day.label}, section hot)")
    for name, values in (("ack", acks), ("answer", answers)):
        print(
            f"{name:7} p50 {percentile(values, 0.5):7.1f} ms   "
            f"p95 {percentile(values, 0.95):7.1f} ms   max {max(values):7.1f} ms   "
            f"mean {statistics.mean(values):7.1f} ms"
        )


if __name__ == "__main__":
    main()
