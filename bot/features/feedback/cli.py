"""`vllm-report feedback [--weeks N] [--format text|json]`: what readers said of the daily
post's sections, by week."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from datetime import timedelta

from bot.cli.common import configured, now, opened
from bot.cli.options import UsageError, command, lang_option


def add_feedback_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    feedback = command(
        commands,
        "feedback",
        "what readers said of the daily post's sections (👍 useful / 👎 not useful), by week",
        "Count the readers' presses of the buttons under each section of the daily post "
        "(VLLM_REPORT_FEEDBACK=on draws them): per ISO week of the report day and section, "
        "how many found it useful, how many not, and how many readers pressed. Each reader "
        "counts once per section and day; only the platform's user id is kept.",
        ["vllm-report feedback", "vllm-report feedback --weeks 12 --format json"],
    )
    feedback.add_argument("--weeks", type=int, default=4, help="how many weeks back (default 4)")
    feedback.add_argument("--format", choices=("text", "json"), default="text")
    lang_option(feedback)
    feedback.set_defaults(func=run_feedback)


def run_feedback(args: argparse.Namespace) -> int:
    from bot.features.feedback.phrases import said
    from bot.features.feedback.store import Votes
    from bot.features.feedback.tally import tallies

    if not 1 <= args.weeks <= 520:
        raise UsageError(f"--weeks {args.weeks}: say how many weeks back, 1 to 520")
    settings, rules = configured(args)
    with opened(settings, rules) as bot:
        votes = Votes(bot.store.transactions).since(now() - timedelta(weeks=args.weeks))
    rows = tallies(votes)
    if args.format == "json":
        print(json.dumps({"weeks": args.weeks, "tallies": [asdict(t) for t in rows]}, indent=2))
        return 0
    lang = settings.lang
    if not rows:
        state = "on" if settings.feedback else "off"
        print(said(lang, "none", weeks=args.weeks, state=state))
        return 0
    print(said(lang, "title"))
    print(said(lang, "header"))
    for t in rows:
        print(f"{t.week:10} {t.section[:16]:16} {t.useful:>4} {t.not_useful:>5} {t.readers:>8}")
    return 0
