"""`vllm-report check FILE`: read any report text for its claims, each checked on
GitHub's facts."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.common import asked_window, configured, opened, repo_checked
from bot.cli.options import UsageError, command, common_options

if TYPE_CHECKING:
    from bot.model.windows import Window
    from config.settings import Settings


def add_check_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = command(
        commands,
        "check",
        "check a report's claims against the facts: states, authors, titles, counts, vendors",
        "Read any report text (ours or anyone's; Markdown or plain; English or Chinese) for "
        "the claims a reader could check on GitHub — which items merged, who opened them, "
        "their titles and kinds, the window's counts, which vendor an item belongs to, which "
        "item fixes which — and check each against the facts of its window (the archive, "
        "fetched like `show` when missing). Every claim is printed with its verdict: correct, "
        "wrong with the truth, or unverifiable. Exit status 1 when a claim is wrong.",
        [
            "vllm-report check report-2026-03-25.md",
            "vllm-report check today.txt --day 2026-03-26 --cutoff 11:45",
            "vllm-report check report.md --format json",
        ],
    )
    check.add_argument("file", help="the report text to read (a file; - reads standard input)")
    check.add_argument("--day", help="the report day, when the text does not say (YYYY-MM-DD)")
    common_options(check)
    check.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    check.add_argument("--all", action="store_true", help="print correct claims too (text)")
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from bot.service.checking import check_text
    from formatters.check_report import render_check_json, render_check_text

    text = _read_text(args.file)
    settings, rules = configured(args)
    window = _check_window(args, text, settings)
    with opened(settings, rules) as bot, repo_checked(settings):
        result = check_text(bot.reports, rules, text, window, settings.repo, settings.lang)
    if args.format == "json":
        print(render_check_json(result), end="")
    else:
        print(render_check_text(result, every=args.all), end="")
    return 1 if result.wrong else 0


# A day's report is tens of kilobytes (the busiest fixture day, in full with its appendix,
# is under 100 kB): 2 MB is room for a month's range, and a file or pipe that never ends
# (`/dev/zero`, a log being written) is refused instead of read until memory runs out.
MAX_CHECK_BYTES = 2_000_000


def _read_text(name: str) -> str:
    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", None)  # None: a text stream (in tests)
            limit = MAX_CHECK_BYTES + 1
            raw = stream.read(limit) if stream else sys.stdin.read(limit).encode()
        else:
            with Path(name).open("rb") as file:
                raw = file.read(MAX_CHECK_BYTES + 1)
    except FileNotFoundError:
        raise UsageError(f"{name}: no such file: name the report text to check") from None
    except IsADirectoryError:
        raise UsageError(f"{name} is a folder: name the report text to check") from None
    except OSError as exc:
        raise UsageError(f"{name} cannot be read: {exc.strerror}") from None
    if len(raw) > MAX_CHECK_BYTES:
        raise UsageError(
            f"{name} is longer than {MAX_CHECK_BYTES // 1_000_000} MB, far more than a report: "
            "name the report text itself"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text: save it as UTF-8") from None
    return _as_shown(name, text)


def _as_shown(name: str, text: str) -> str:
    """The text as people read it: a chat payload's messages, not its JSON keys (read as
    claims, they were false alarms); other JSON is refused."""
    from bot.analyze.claims.payloads import payload_text

    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return text
    try:
        data = json.loads(stripped)
    except ValueError:
        return text  # a text that starts with a bracket
    shown = payload_text(data)
    if shown is None:
        raise UsageError(
            f"{name} is JSON but not a Slack or Discord message: check the Markdown "
            "(`vllm-report show DAY > report.md`) or a chat payload (`--format slack`)"
        )
    return shown


def _check_window(args: argparse.Namespace, text: str, settings: Settings) -> Window:
    """The window to check the text against: --day (with --cutoff), else what the text says."""
    from bot.service.checking import window_of

    if args.day:
        parsed = argparse.Namespace(when=[args.day])
        return asked_window(parsed, settings)
    found = window_of(text, settings.tz, settings.cutoff_time)
    if found is None:
        raise UsageError(
            "the text does not say which day it reports on: give --day YYYY-MM-DD "
            "(and --cutoff HH:MM when the day ends at another time)"
        )
    return found
