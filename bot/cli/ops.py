"""The operator's commands: `doctor`, `backup`, `backfill`, `demo`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli.common import configured, opened, written
from bot.cli.options import UsageError, command, common_options, lang_option

if TYPE_CHECKING:
    pass


def add_ops_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    doctor = command(
        commands,
        "doctor",
        "check every setting and connection; exit 0 only when all is well",
        "Check the settings, the data and site folders, GitHub (reachable, the rate limit "
        "left, the repository exists), the store and its schema, Slack (auth.test and each "
        "channel), Discord (login and each channel) and the model endpoint. One line each: "
        "what is wrong and how to fix it. Never prints a secret. Exit status: 0 all well, 2 "
        "a setting is wrong, 1 a service failed.",
        ["vllm-report doctor", "docker run --env-file .env vllm-report-bot doctor"],
    )
    doctor.set_defaults(func=run_doctor)

    backup = command(
        commands,
        "backup",
        "copy the store to FILE, safely while `serve` runs",
        "Copy the store to FILE while the bot may be running: SQLite through its online "
        "backup API (the copy is checked with quick_check), PostgreSQL with pg_dump (custom "
        "format; pg_dump must be installed). An existing FILE is kept unless --force. "
        "Restore: stop the bot, then copy the SQLite file back (or pg_restore the dump); see "
        "docs/backup-and-upgrade.md.",
        [
            "vllm-report backup vllm-report-$(date +%F).sqlite3",
            "docker exec vllm-report vllm-report backup /data/before-upgrade.sqlite3",
        ],
    )
    backup.add_argument("file", type=Path, help="the file to write (refused if it exists)")
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.set_defaults(func=run_backup)

    backfill = command(
        commands,
        "backfill",
        "fill the archive day by day for a range of report days",
        "Archive each report day of a range (oldest first) as the daily job would, with a "
        "progress bar, and print what it cost. Days already archived are skipped at no cost, "
        "so an interrupted backfill goes on where it stopped when run again. Up to 366 days; "
        "anonymous GitHub allows 60 requests an hour (a day costs about 16): set GITHUB_TOKEN.",
        [
            "vllm-report backfill 2026-03-01..2026-03-26",
            "vllm-report backfill 30d",
        ],
    )
    backfill.add_argument("when", nargs="+", help="2026-03-01..2026-03-26, or 30d")
    common_options(backfill)
    backfill.set_defaults(func=run_backfill)

    demo = command(
        commands,
        "demo",
        "the real report of real vLLM activity, offline (a bundled sample)",
        "Load a small bundled sample of real vLLM activity (three published report days) into "
        "a throwaway store and show the report, the Slack post and the report site it makes. "
        "No network, no token, no setting.",
        ["vllm-report demo", "vllm-report demo --lang zh --day 2026-03-24"],
    )
    lang_option(demo)
    demo.add_argument("--day", help="the sample day to show (default the newest, 2026-03-25)")
    demo.add_argument(
        "--output", help="folder for the demo's store and site (default: a new temporary one)"
    )
    demo.set_defaults(func=run_demo)


def run_doctor(args: argparse.Namespace) -> int:
    import asyncio

    from bot.app import doctor
    from bot.console.doctor import show
    from bot.observe.logs import guard_secrets
    from config.settings import diagnose_settings

    settings, problems = diagnose_settings()
    guard_secrets(settings.secrets())
    return show(asyncio.run(doctor(settings, problems)), sys.stdout)


def run_backup(args: argparse.Namespace) -> int:
    from bot.observe.logs import guard_secrets
    from bot.store.backup import backup
    from config.settings import load_settings

    settings = load_settings()
    guard_secrets(settings.secrets())
    print(backup(settings.store_url(), args.file, force=args.force).summary())
    return 0


def run_backfill(args: argparse.Namespace) -> int:
    from bot.console import backfill as view
    from bot.observe.github_meter import github_meter
    from bot.service.backfill import Backfill

    phrase = " ".join(args.when)
    settings, rules = configured(args)
    meter = github_meter(show_debug=args.verbose >= 2)
    with opened(settings, rules) as bot:
        job = Backfill(
            bot.reports,
            settings.repo,
            settings.lang,
            settings.tz,
            settings.cutoff_time,
            bot.reports.clock,
            meter,
        )
        windows = job.windows(phrase)
        try:
            cost = view.run(job, windows, sys.stderr, bar=not args.verbose)
        except OSError as exc:
            raise written(settings, exc) from None
    print(view.summary(phrase, cost, meter.remaining()))
    return 1 if cost.incomplete or cost.stopped else 0


def run_demo(args: argparse.Namespace) -> int:
    import tempfile

    from bot.console import demo
    from bot.model.rules import load_rules

    if args.output:
        folder = Path(args.output)
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder} is a file: name a folder for the demo")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                f"cannot make the folder {folder} ({exc.strerror}): name a folder you may write"
            ) from None
    else:
        folder = Path(tempfile.mkdtemp(prefix="vllm-report-demo-"))
    try:
        return demo.run(folder, load_rules(None), sys.stdout, lang=args.lang or "en", day=args.day)
    except OSError as exc:
        raise UsageError(f"cannot write {exc.filename or folder}: {exc.strerror}") from None
