"""Pictures of a run of report days, drawn headless with matplotlib (Agg) as PNG.

Three charts: the five daily counts (`counts`), items per vendor in small multiples with the
first vendor (or a digest's topic) first (`vendors`), and PRs merged against PRs opened
(`merged`). About 1200×675 pixels with large type, so a phone shows them legibly; the
Okabe–Ito colours stay apart for colour-blind readers and on an opaque light card they read
the same in light and dark chat themes. A day the archive does not hold is shaded and
labelled "not archived", never drawn as zero. Every chart comes with an alt text that
states its numbers. Output is byte-stable for the same input (no timestamps in the file).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.model.history import History
from bot.model.report import ListName

if TYPE_CHECKING:
    from matplotlib.axes import Axes

KINDS = ("counts", "vendors", "merged")
WIDTH, HEIGHT, DPI = 12.0, 6.75, 100  # 1200×675 pixels
# Okabe & Ito's palette (colour-blind safe), in the order the lines are drawn.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442")
INK, GRID, CARD, GAP = "#222222", "#D0D0D0", "#FFFFFF", "#EDEDED"
SERIES = {
    ListName.NEW_ISSUES: "New issues",
    ListName.CLOSED_ISSUES: "Closed issues",
    ListName.NEW_PRS: "New PRs",
    ListName.MERGED_PRS: "Merged PRs",
    ListName.CLOSED_UNMERGED_PRS: "Closed without merging",
}
SMALL_MULTIPLES = 6
PLOT = (0.07, 0.25, 0.91, 0.58)  # left, bottom, width, height: the legend goes below
TITLES = {
    "counts": "Daily activity",
    "vendors": "Items per vendor",
    "merged": "PRs merged and opened",
}


class ChartError(ValueError):
    """The chart cannot be drawn (no day of the run is archived); the message says why."""


@dataclass(frozen=True)
class Chart:
    kind: str
    png: bytes
    alt: str
    days: int  # report days drawn


def chart(history: History, kind: str = "counts", first: str | None = None) -> Chart:
    """The `kind` chart of `history` as PNG bytes with its alt text; `first`: the vendor
    drawn first (a digest's topic), else the history's topic, else the rules' order."""
    if kind not in KINDS:
        raise ChartError(f"unknown chart '{kind}': use {', '.join(KINDS)}")
    if not history.covered:
        first, last = history.days[0].label, history.days[-1].label
        raise ChartError(
            f"no day from {first} to {last} is archived: run `vllm-report show` or "
            "`vllm-report backfill` for those days first"
        )
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    with plt.rc_context(_STYLE):  # type: ignore[arg-type]
        if kind == "vendors":
            figure = _vendors(history, first)
        else:
            figure = {"counts": _counts, "merged": _merged}[kind](history)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI, facecolor=CARD, metadata={"Software": None})
        plt.close(figure)
    return Chart(kind, buffer.getvalue(), alt_text(history, kind, first), len(history.days))


_STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 16,
    "axes.titlesize": 20,
    "axes.labelsize": 16,
    "axes.edgecolor": INK,
    "axes.labelcolor": INK,
    "axes.facecolor": CARD,
    "axes.grid": True,
    "grid.color": GRID,
    "xtick.color": INK,
    "ytick.color": INK,
    "text.color": INK,
    "legend.frameon": False,
    "svg.hashsalt": "vllm-report",
}


def _days(history: History) -> list[str]:
    return [day.label[5:] for day in history.days]  # MM-DD: the year is in the title


def _series(history: History, name: ListName) -> list[float]:
    return [day.counts[name] if day.covered else math.nan for day in history.days]


def _topic_series(history: History, key: str) -> list[float]:
    return [day.topics.get(key, 0) if day.covered else math.nan for day in history.days]


def _figure(title: str, history: History):  # type: ignore[no-untyped-def]
    from matplotlib import pyplot as plt

    figure = plt.figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    figure.text(0.015, 0.965, title, ha="left", va="top", fontsize=20, fontweight="bold")
    figure.text(
        0.015,
        0.905,
        f"report days in {history.timezone}",
        ha="left",
        va="top",
        fontsize=13,
        color="#555555",
    )
    return figure


def _gaps(axes: Axes, history: History) -> None:
    """Shade the days the archive does not hold, and say so once."""
    labelled = False
    for index, day in enumerate(history.days):
        if day.covered:
            continue
        axes.axvspan(index - 0.5, index + 0.5, color=GAP, zorder=0, lw=0)
        if not labelled:
            axes.text(
                index,
                0.5,
                "not archived",
                transform=axes.get_xaxis_transform(),
                rotation=90,
                ha="center",
                va="center",
                fontsize=12,
                color="#666666",
            )
            labelled = True


def _x_axis(axes: Axes, history: History, every: int | None = None, y_ticks: int = 8) -> None:
    from matplotlib.ticker import MaxNLocator

    labels = _days(history)
    step = every or max(1, math.ceil(len(labels) / 10))
    axes.set_xticks(range(0, len(labels), step), labels[::step])
    axes.set_xlim(-0.5, len(labels) - 0.5)
    axes.set_ylim(bottom=0)
    # Items are whole: no 2.5 on the axis.
    axes.yaxis.set_major_locator(MaxNLocator(y_ticks, integer=True, min_n_ticks=2))


def _title(history: History, what: str) -> str:
    scope = history.catalog.topic_name(history.topic, "en") if history.topic else history.repo
    first, last = history.days[0].label, history.days[-1].label
    return f"{what} · {scope} · {first} to {last}"


def _counts(history: History):  # type: ignore[no-untyped-def]
    figure = _figure(_title(history, TITLES["counts"]), history)
    axes = figure.add_axes(PLOT)
    _gaps(axes, history)
    for colour, (name, label) in zip(PALETTE, SERIES.items(), strict=False):
        axes.plot(_series(history, name), color=colour, lw=3, marker="o", ms=6, label=label)
    _x_axis(axes, history)
    axes.set_ylabel("items per report day")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=15)
    return figure


def _merged(history: History):  # type: ignore[no-untyped-def]
    figure = _figure(_title(history, TITLES["merged"]), history)
    axes = figure.add_axes(PLOT)
    _gaps(axes, history)
    opened = _series(history, ListName.NEW_PRS)
    merged = _series(history, ListName.MERGED_PRS)
    axes.plot(opened, color=PALETTE[0], lw=3, marker="o", ms=6, label="Opened")
    axes.plot(merged, color=PALETTE[2], lw=3, marker="s", ms=6, label="Merged")
    axes.fill_between(range(len(opened)), merged, opened, color=PALETTE[0], alpha=0.12, lw=0)
    _x_axis(axes, history)
    axes.set_ylabel("PRs per report day")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, fontsize=15)
    return figure


def vendor_order(history: History, first: str | None = None) -> list[str]:
    """Vendors with any activity, the digest's topic first, then the rules' order (AMD first)."""
    keys = [t.key for t in history.catalog.vendors]
    lead = first or history.topic
    if lead is not None:
        keys = [lead] + [k for k in keys if k != lead]
    active = [k for k in keys if any(day.topics.get(k) for day in history.covered)]
    return active[:SMALL_MULTIPLES]


def _vendors(history: History, first: str | None):  # type: ignore[no-untyped-def]
    figure = _figure(_title(history, TITLES["vendors"]), history)
    keys = vendor_order(history, first) or [history.catalog.vendors[0].key]
    columns = 3 if len(keys) > 4 else 2 if len(keys) > 1 else 1
    rows = math.ceil(len(keys) / columns)
    grid = figure.add_gridspec(
        rows, columns, left=0.06, right=0.98, top=0.8, bottom=0.08, hspace=0.6, wspace=0.2
    )
    for index, key in enumerate(keys):
        axes = figure.add_subplot(grid[index // columns, index % columns])
        _gaps(axes, history)
        colour = PALETTE[index % len(PALETTE)]
        axes.plot(_topic_series(history, key), color=colour, lw=3, marker="o", ms=5)
        axes.set_title(history.catalog.topic_name(key, "en"), fontsize=16, loc="left")
        _x_axis(axes, history, every=max(1, math.ceil(len(history.days) / 4)), y_ticks=4)
    return figure


def alt_text(history: History, kind: str, first: str | None = None) -> str:
    """What the chart shows, with its numbers, for people who cannot see it."""
    days = history.days
    missing = [day.label for day in days if not day.covered]
    head = _title(history, TITLES[kind]) + "."
    if kind == "vendors":
        parts = [
            f"{history.catalog.topic_name(key, 'en')}: "
            + ", ".join(_figure_of(day.topics.get(key, 0), day.covered) for day in days)
            for key in vendor_order(history, first)
        ]
    else:
        names = (
            SERIES
            if kind == "counts"
            else {ListName.NEW_PRS: "Opened PRs", ListName.MERGED_PRS: "Merged PRs"}
        )
        parts = [
            f"{label}: "
            + ", ".join(_figure_of(day.counts.get(name, 0), day.covered) for day in days)
            for name, label in names.items()
        ]
    tail = f" Not archived: {', '.join(missing)}." if missing else ""
    return f"{head} Per day from {days[0].label}: " + "; ".join(parts) + "." + tail


def _figure_of(value: int, covered: bool) -> str:
    return str(value) if covered else "n/a"
