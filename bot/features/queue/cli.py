"""`vllm-report queue`: what waits on whom (reviews, response times)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from bot.cli.common import asked_window, check_phrase, configured, opened
from bot.cli.options import FORMATS, command, common_options

if TYPE_CHECKING:
    pass


def add_queue_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    queue = command(
        commands,
        "queue",
        "what waits on whom: the review queue and response times, per vendor",
        "The review queue as GitHub shows it now (waiting for review, waiting on authors, "
        "ready to land, closed by the stale workflow soon) and the response times of the "
        "window against the four weeks before (median and P90, bots left out).",
        [
            "vllm-report queue",
            "vllm-report queue --topic amd",
            "vllm-report queue 7d --format json",
        ],
    )
    queue.add_argument(
        "when",
        nargs="*",
        default=["yesterday"],
        help="the window of the response times (default yesterday; 7d, a day, a range)",
    )
    common_options(queue)
    queue.add_argument(
        "--topic",
        help="your topic first, e.g. amd (default: every vendor); a topic needs GitHub labels "
        "to have a queue",
    )
    queue.add_argument(
        "--format",
        choices=FORMATS,
        default="markdown",
        help="markdown (default), json, or the slack/discord payloads of /vllm-queue",
    )
    queue.set_defaults(func=run_queue)


def run_queue(args: argparse.Namespace) -> int:
    from bot.model import asking

    check_phrase(args)
    settings, rules = configured(args)
    topic = asking.queue_topic(args.topic, rules) if args.topic else None
    window = asked_window(args, settings)
    from bot.features.queue.service import QueueQuery  # the store with it: only once all is checked

    with opened(settings, rules) as bot:
        queue = bot.context().own("queue").queue(QueueQuery(settings.repo, window, topic))
    from bot.features.queue import render as drawn
    from bot.features.queue.render import queue_parts
    from bot.platforms.registry import PLATFORMS

    lang = settings.lang
    if args.format == "json":
        print(drawn.render_queue_json(queue), end="")
    elif args.format in PLATFORMS:
        payloads = [p for _, p in queue_parts(args.format, queue, lang)]
        print(json.dumps(payloads, ensure_ascii=False, indent=2))
    else:
        print(drawn.render_queue_markdown(queue, lang), end="")
    return 0
