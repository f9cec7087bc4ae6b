"""`vllm-report backfill` on the terminal: a Rich progress bar (days, GitHub requests, rate
limit left), then what it cost."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from bot.model.errors import ServiceError
from bot.model.windows import Window
from bot.service.backfill import Backfill, BackfillCost


def run(backfill: Backfill, windows: Sequence[Window], out: TextIO) -> BackfillCost:
    """Fill `windows` oldest first with a progress bar on `out`; stops at the first failure
    (the days done stay done: running again goes on from there)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    cost = BackfillCost()
    console = Console(file=out, highlight=False)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("days · {task.fields[requests]} requests{task.fields[left]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(
            windows[0].label, total=len(windows), requests=0, left=_left(backfill)
        )
        for window in windows:
            progress.update(task, description=window.label)
            try:
                cost.days.append(backfill.fill(window))
            except ServiceError as exc:  # GitHub or the store: the days done stay done
                cost.stopped = (window.label, str(exc))
                break
            progress.update(task, advance=1, requests=cost.requests, left=_left(backfill))
    return cost


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
