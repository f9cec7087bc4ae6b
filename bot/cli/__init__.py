"""Command line: `vllm-report show|post|serve|chart|site|explain|queue|digest|radar|ci|topics`,
and the operator's `doctor|backup|backfill|demo`.

Exit status: 0 done, 1 GitHub or the store failed (the message says why), 2 the command
or a setting is wrong (the message says what to type instead). No traceback reaches the
user for any of these.

Only argparse is imported up front: `--help` and usage errors answer at once. Each command
imports what it needs when it runs (settings, the store, the SDKs). One module per
command group here (reports, check, ops); each feature adds its own from its declaration
(bot/features/<name>/feature.py); options.py and common.py are shared.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import NoReturn

from bot.cli.check import add_check_command
from bot.cli.ops import add_ops_commands
from bot.cli.options import Version
from bot.cli.reports import add_report_commands, add_topics_command
from bot.features import declared
from bot.model.errors import InputError, ServiceError, masked

log = logging.getLogger("bot")


def run() -> NoReturn:
    """The console entry point (`vllm-report`, `python -m bot`): `main`, then the exit."""
    # `docker stop`, systemd and Kubernetes stop a process with SIGTERM: a command stops as
    # on Ctrl-C, with its sentence (`serve` puts its own handler in place of this one).
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        code = main()
    except KeyboardInterrupt as exc:  # before the command started (still importing it)
        print("vllm-report: interrupted before anything was done", file=sys.stderr)
        code = 143 if isinstance(exc, Terminated) else 130
    except BrokenPipeError:
        # The reader went away (`vllm-report topics | head -1`): what it wanted it has, and
        # the rest has nowhere to go. Python would print a traceback flushing stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 141  # 128 + SIGPIPE, as a shell says of a writer whose reader left
    # The answer is given: a Ctrl-C from here on lands while Python closes its threads and
    # files, has nothing left to stop, and would print Python's own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if _left_running():
        # An interrupted command leaves its steps' daemon threads in a request (bot.app's
        # Workers abandon them). Python's exit would end each mid-call (pthread_exit), and
        # native code on such a stack can abort the process instead ("terminate called
        # without an active exception", SIGABRT, exit 134): everything is said and
        # committed, so the process leaves at once with its own status.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise SystemExit(code)


def _left_running() -> list[threading.Thread]:
    """The daemon threads still running (a step abandoned by an interrupt, a timer)."""
    main_thread = threading.main_thread()
    return [t for t in threading.enumerate() if t is not main_thread and t.daemon and t.is_alive()]


class Terminated(KeyboardInterrupt):
    """SIGTERM: stopped from outside, as Ctrl-C stops, but told apart by its exit status."""


def _interrupt(signum: int, frame: object) -> None:
    raise Terminated


def main(argv: Sequence[str] | None = None) -> int:
    from bot.observe.logs import setup_logging

    args = _parsed(build_parser(), argv)
    setup_logging(args.verbose)
    sys.excepthook = _masked_traceback
    handler: Callable[[argparse.Namespace], int] = args.func
    return _guarded(handler, args)


def _parsed(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line read, with a window typed after the options too: `digest mine
    --login alice 2026-03-25` (argparse gives a filter-then-window command's window only
    the words before the first option). Anything else left over is argparse's error."""
    args, extra = parser.parse_known_args(argv)
    words = not any(word.startswith("-") for word in extra)
    if extra and words and getattr(args, "when", None) == []:
        args.when = list(extra)
    elif extra:
        parser.parse_args(argv)  # argparse's own "unrecognized arguments" and exit 2
    return args


def _guarded(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command; every expected failure ends in one sentence and its exit status.

    The sentence is masked (bot.model.errors): no secret, whatever a library put in it."""
    try:
        try:
            return handler(args)
        except (InputError, ServiceError) as exc:
            print(f"vllm-report: {masked(str(exc))}", file=sys.stderr)
            return exc.exit_status
    except KeyboardInterrupt as exc:  # also one that lands while the failure above is told
        print(
            "vllm-report: interrupted; nothing half-done was recorded as complete, and running "
            "the same command again resumes where it stopped",
            file=sys.stderr,
        )
        return 143 if isinstance(exc, Terminated) else 130  # 128 + the signal, as shells say


def _masked_traceback(
    kind: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    """A bug still shows its traceback (to be reported), with every secret masked."""
    import traceback

    text = "".join(traceback.format_exception(kind, exc, tb))
    print(masked(text), end="", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vllm-report",
        description="Daily reports of a GitHub repository's issues and pull requests "
        "(vllm-project/vllm by default), for the terminal, Slack and Discord.",
        epilog="Start with `vllm-report demo` (offline), then `vllm-report show yesterday`. "
        "`vllm-report COMMAND --help` shows each command's options and examples.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    parser.add_argument("--version", action=Version, help="print the version and exit", nargs=0)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    add_report_commands(commands)
    for feature in declared():  # each feature's subcommand, in the features' order
        if feature.cli is not None:
            feature.cli(commands)
    add_check_command(commands)
    add_topics_command(commands)
    add_ops_commands(commands)
    return parser
