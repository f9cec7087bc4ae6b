"""The command line's shared pieces: argparse options, help layout, exit status 2."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from bot.model.errors import InputError

FORMATS = ("markdown", "json", "slack", "discord")


class UsageError(InputError):
    """The command line is wrong; exit status 2."""


class Version(argparse.Action):
    """`--version`, read from the installed package only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("vllm-report-bot")
        except PackageNotFoundError:
            found = "unknown (not installed: pip install .)"
        print(f"vllm-report {found}")
        parser.exit()


def command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    summary: str,
    description: str,
    examples: Sequence[str],
) -> argparse.ArgumentParser:
    """A subcommand whose --help says what it does and shows how to call it."""
    return commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog="examples:\n" + "\n".join(f"  {line}" for line in examples),
        formatter_class=Help,
    )


class Help(argparse.HelpFormatter):
    """The description wrapped to the terminal; the examples kept line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def repo_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--repo", help="owner/name (default: VLLM_REPORT_REPO or vllm-project/vllm)")


def day_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--timezone", help="IANA zone of the report day (default Asia/Shanghai)")
    sub.add_argument("--cutoff", help="HH:MM where a report day ends (default 11:45)")


def lang_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--lang", choices=("en", "zh"), help="report language (default en)")


def common_options(sub: argparse.ArgumentParser) -> None:
    repo_option(sub)
    day_options(sub)
    lang_option(sub)


def window_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "when",
        nargs="*",
        default=["yesterday"],
        help="2026-03-26, 2026-03-20..2026-03-26, today, yesterday (default), 7d, last 7 days",
    )
    common_options(sub)
    sub.add_argument("--refresh", action="store_true", help="fetch again even if archived")


def content_options(sub: argparse.ArgumentParser) -> None:
    """What to leave out of a report: for `show` only (the archive keeps full reports)."""
    sub.add_argument("--topic", help="limit the report to one topic (see `vllm-report topics`)")
    sub.add_argument(
        "--counts-only",
        action="store_true",
        help="only the five counts and lists (no trends, no comment threads: fewest requests)",
    )


def item_number(text: str) -> int:
    """An issue or PR number as GitHub numbers them (a positive 32-bit integer)."""
    try:
        number = int(text.lstrip("#"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an issue or PR number") from None
    if not 1 <= number <= 2**31 - 1:
        raise argparse.ArgumentTypeError(f"{text} is not an issue or PR number GitHub gives")
    return number
