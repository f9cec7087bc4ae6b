"""One line on the terminal saying what a long command is doing ("fetching 2026-03-25 from
GitHub: request 7 (closed PRs, page 2)", "building the site: 2026-03-12, day 12 of 40").

Shown only when stderr is a terminal, as a Rich spinner that is gone when the work is: a
script, a pipe or a test sees exactly what it saw before, byte for byte. Fed by what the
work already says: PyGithub's record of each answer on the `github.Requester` logger (the
one bot.observe.github_meter counts) and the reports the site builder asks for.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO
from urllib.parse import parse_qs, urlsplit

if TYPE_CHECKING:
    from rich.console import Console

Say = Callable[[str], None]
REQUESTER_LOGGER = "github.Requester"


def terminal(stream: TextIO) -> Console | None:
    """A Rich console on `stream` when it is a terminal, else None (no progress at all).

    Only a real terminal counts: FORCE_COLOR, which CI runners often set, must not put
    spinners into their logs. Tests replace this function to force one."""
    if not stream.isatty():
        return None
    from rich.console import Console

    return Console(file=stream, stderr=stream is sys.stderr, highlight=False)


@contextmanager
def progress(first: str, stream: TextIO | None = None) -> Iterator[Say | None]:
    """A function that replaces the line shown with its text; None off a terminal (nothing
    is shown, and nothing needs to be watched)."""
    console = terminal(stream or sys.stderr)
    if console is None:
        yield None
        return
    from rich.live import Live
    from rich.spinner import Spinner

    spinner = Spinner("dots", text=first)
    # stdout and stderr left alone: the report goes to stdout, maybe into a file.
    with Live(
        spinner,
        console=console,
        transient=True,
        refresh_per_second=8,
        redirect_stdout=False,
        redirect_stderr=False,
    ) as live:
        live.refresh()

        def say(text: str) -> None:
            spinner.update(text=text)
            live.refresh()  # at once, not at the next tick: each step is seen

        yield say


@contextmanager
def github_requests(say: Say | None, doing: str) -> Iterator[None]:
    """Each GitHub answer while inside, told as `doing: request N (what it asked)`.

    A filter placed first on PyGithub's logger reads the record and lets it pass to the
    meter's (which drops it unless -vv asked for GitHub's lines); records are made only
    when that logger is at DEBUG, which installing the meter sets."""
    if say is None:
        yield
        return
    from bot.observe.github_meter import github_meter

    github_meter()
    watcher = _RequestWatcher(say, doing)
    logger = logging.getLogger(REQUESTER_LOGGER)
    logger.filters.insert(0, watcher)
    try:
        yield
    finally:
        logger.removeFilter(watcher)


class _RequestWatcher(logging.Filter):
    def __init__(self, say: Say, doing: str) -> None:
        super().__init__()
        self.say, self.doing, self.requests = say, doing, 0

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > 3 and isinstance(args[3], str):
            self.requests += 1
            self.say(f"{self.doing}: request {self.requests} ({asked(args[3])})")
        return True


def asked(url: str) -> str:
    """What a GitHub request URL asks for, in a few words."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    page = query.get("page", ["1"])[0]
    path = [p for p in parts.path.split("/") if p]
    if path[-2:] == ["search", "issues"]:
        words = query.get("q", [""])[0].split()
        kind = "PRs" if "is:pr" in words else "issues"
        how = next((w.split(":", 1)[0] for w in words if w.startswith(_DATED)), "")
        what = f"{_HOW.get(how, '')}{kind}"
    elif path[-1:] == ["graphql"]:
        what = "a GraphQL query"
    elif len(path) >= 5 and path[0] == "repos" and path[3] in ("issues", "pulls"):
        number = f"#{path[4]}"
        what = f"{path[5]} of {number}" if len(path) > 5 else number
    else:
        what = parts.path
    return what if page == "1" else f"{what}, page {page}"


_DATED = ("created:", "closed:", "merged:", "updated:")
_HOW = {"created": "new ", "closed": "closed ", "merged": "merged ", "updated": "updated "}
