"""Slash commands under load: ack latency of signed /vllm-report requests at concurrency.

    python benchmarks/command_load.py                        # 200 requests at 1, 20 and 50
    python benchmarks/command_load.py --calls 100 --levels 1,50 --text "2026-03-25 amd"
    python benchmarks/command_load.py --baseline     # also: drawn on the event loop, as before

Slack's HTTP mode as `serve` runs it (Bolt's aiohttp app behind our checks, on a real
port), against the fake Slack and fake GitHub, the window archived and its report cached
by a first request. Each request is a distinct user (no per-user limit is hit). Prints per
level: ack p50/p95/p99/max (the HTTP answer Slack waits 3 s for), acks over 3 s, errors,
and how many answers reached the response URL.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from bot.app import commands, open_bot
from bot.model.rules import load_rules
from bot.platforms.slack.app import build_slack_app, slack_web_app
from config.settings import load_settings
from tests.anchor_data import REPO, anchor_days, anchor_items, background_items
from tests.fakes.github_api import FakeGitHub
from tests.fakes.slack_api import FakeSlack, signed_command

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def level(
    url: str, fake: FakeSlack, text: str, calls: int, concurrency: int
) -> tuple[list[float], int, int]:
    acks: list[float] = []
    errors = 0
    before = len(fake.responses)
    gate = asyncio.Semaphore(concurrency)

    async def one(session: aiohttp.ClientSession, index: int) -> None:
        nonlocal errors
        async with gate:
            body, headers = signed_command(fake, "/vllm-report", text, SECRET, user=f"U{index}")
            began = time.perf_counter()
            async with session.post(url, data=body, headers=headers) as answer:
                await answer.read()
                acks.append(time.perf_counter() - began)
                errors += answer.status != 200

    async with aiohttp.ClientSession() as session:
        await asyncio.gather(*(one(session, i) for i in range(calls)))

    def answered() -> int:  # an answer is several messages to its own response URL
        return len({r[0] for r in fake.responses[before:]})

    deadline = time.monotonic() + 300
    while answered() < calls and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # the last messages of the last answers
    return acks, errors, answered()


def draw_on_the_loop() -> None:
    """The baseline: every answer drawn again, on the event loop (the code before issue 20)."""
    import bot.commands.answers as answers
    import bot.platforms.slack.slash as slack

    class Inline:
        @staticmethod
        async def to_thread(function, /, *args, **kwargs):  # type: ignore[no-untyped-def]
            return function(*args, **kwargs)

        def __getattr__(self, name: str) -> object:
            return getattr(asyncio, name)

    slack.asyncio = Inline()  # type: ignore[assignment]
    answers.drawn = lambda key, draw: draw()  # type: ignore[assignment]


async def measure(calls: int, levels: list[int], text: str) -> None:
    with FakeSlack() as fake:
        os.environ["SLACK_API_URL"] = fake.api_url
        settings = load_settings()
        bot = open_bot(settings, load_rules())
        runner = web.AppRunner(slack_web_app(build_slack_app(settings, commands(bot))))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        url = f"http://127.0.0.1:{port}/slack/events"
        await level(url, fake, text, 1, 1)  # archive the window, cache the report
        print(f"{calls} signed /vllm-report '{text}' per level (report cached)")
        for concurrency in levels:
            acks, errors, answered = await level(url, fake, text, calls, concurrency)
            ms = [a * 1000 for a in acks]
            late = sum(1 for a in acks if a > 3)
            print(
                f"concurrency {concurrency:>3}: ack p50 {percentile(ms, 0.5):7.0f} ms  "
                f"p95 {percentile(ms, 0.95):7.0f}  p99 {percentile(ms, 0.99):7.0f}  "
                f"max {max(ms):7.0f}  over 3 s {late:>3}  errors {errors}  "
                f"answered {answered}/{calls}"
            )
        await runner.cleanup()
        bot.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--levels", default="1,20,50")
    parser.add_argument("--text", default=None, help="the command's text (default: a whole day)")
    parser.add_argument("--baseline", action="store_true", help="then measure the old way")
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
            }
        )
        levels = [int(x) for x in args.levels.split(",")]
        asyncio.run(measure(args.calls, levels, args.text or day.label))
        if args.baseline:
            print("baseline: drawn on the event loop, every time")
            draw_on_the_loop()
            asyncio.run(measure(args.calls, levels, args.text or day.label))


if __name__ == "__main__":
    main()
