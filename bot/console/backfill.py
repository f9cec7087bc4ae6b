"""`vllm-report backfill` on the terminal: a Rich progress bar (days, GitHub requests, rate
limit left), then what it cost. Off a terminal (a log file, a pipe, `2>backfill.log`) no bar
is drawn: one plain line per day, each whole, with no carriage return."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from bot.console import progress
from bot.model.errors import ServiceError
from bot.model.windows import Window
from bot.service.backfill import Backfill, BackfillCost, DayDone

if TYPE_CHECKING:
    from rich.console import Console


def run(
    backfill: Backfill, windows: Sequence[Window], out: TextIO, bar: bool = True
) -> BackfillCost:
    """Fill `windows` oldest first, told on `out`: a progress bar on a terminal (unless
    `bar` is False: -v's log lines would be written over), else a line per day. Stops at
    the first failure (the days done stay done: running again goes on from there)."""
    console = progress.terminal(out) if bar else None  # tests replace it to force one
    if console is None:
        return _lines(backfill, windows, out)
    return _bar(backfill, windows, console)


def _lines(backfill: Backfill, windows: Sequence[Window], out: TextIO) -> BackfillCost:
    """A line per day as it is done, flushed: what a log file or `tail -f` can read."""
    cost = BackfillCost()
    for number, window in enumerate(windows, 1):
        if not _filled(backfill, window, cost):
            break
        print(_day_line(cost.days[-1], number, len(windows), cost, backfill), file=out)
        out.flush()
    return cost


def _day_line(day: DayDone, number: int, total: int, cost: BackfillCost, backfill: Backfill) -> str:
    done = (
        "already archived" if day.skipped else "archived" if day.complete else "archived as partial"
    )
    return (
        f"backfill {day.label}: {done} · {number}/{total} days · {cost.requests} requests"
        f"{_left(backfill)}"
    )


def _bar(backfill: Backfill, windows: Sequence[Window], console: Console) -> BackfillCost:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    cost = BackfillCost()
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("days · {task.fields[requests]} requests{task.fields[left]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as shown:
        task = shown.add_task(
            windows[0].label, total=len(windows), requests=0, left=_left(backfill)
        )
        for window in windows:
            shown.update(task, description=window.label)
            if not _filled(backfill, window, cost):
                break
            shown.update(task, advance=1, requests=cost.requests, left=_left(backfill))
    return cost


def _filled(backfill: Backfill, window: Window, cost: BackfillCost) -> bool:
    """One day filled into `cost`; False when it failed (GitHub or the store: the days done
    stay done, and `cost.stopped` says where and why)."""
    try:
        cost.days.append(backfill.fill(window))
    except ServiceError as exc:
        cost.stopped = (window.label, str(exc))
        return False
    return True


def _left(backfill: Backfill) -> str:
    """` · rate limit N left`, or nothing when no request has told it (all archived)."""
    left = backfill.rate_left()
    return "" if left is None else f" · rate limit {left} left"


def summary(phrase: str, cost: BackfillCost, left: int | None) -> str:
    """What the backfill cost, in one line."""
    per_day = cost.requests / cost.fetched if cost.fetched else 0.0
    minutes, seconds = divmod(round(cost.seconds), 60)
    took = f"{minutes} min {seconds} s" if minutes else f"{cost.seconds:.1f} s"
    parts = [
        f"backfill {phrase}: {len(cost.days)} report days",
        f"{cost.fetched} archived now, {cost.skipped} already archived",
        f"{cost.requests} GitHub requests" + (f" ({per_day:.1f} a day)" if cost.fetched else ""),
        took,
    ]
    if left is not None:
        parts.append(f"rate limit {left} left")
    line = "; ".join(parts)
    if cost.stopped is not None:
        day, why = cost.stopped
        line += f"; stopped at {day}: {why} — run the same command again to go on from there"
    if cost.incomplete:
        line += (
            f"; incomplete (archived as partial): {', '.join(cost.incomplete)} — run again later"
        )
    return line
