"""A plugin's pin lag over the report days: how many days behind vLLM main its pin stood at
each day's end (the site's `plugins/<plugin>/lag.png`), with its alt text.

A day whose lag is not known (no pin file yet, GitHub down when the day was read) is a gap
in the line, never a zero: a pin that was current and a pin nobody could read look alike
otherwise.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from formatters.charts import CARD, DPI, WIDTH, drawing

HEIGHT = 4.5  # lower than the day charts: one line


def lag_png(plugin: str, points: Sequence[tuple[str, float | None]]) -> bytes:
    """The chart of `points` (day label, days behind main or None), oldest first."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    lock, drawn_like = drawing()
    style: Any = drawn_like  # matplotlib types rc keys as literals
    labels = [label for label, _ in points]
    values = [float("nan") if days is None else days for _, days in points]
    with lock, plt.rc_context(style):
        figure = plt.figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
        axes = figure.add_subplot()
        axes.plot(range(len(values)), values, marker="o", linewidth=2)
        axes.set_title(f"{plugin}: days its pin of vLLM stood behind main")
        axes.set_ylabel("days behind main")
        axes.set_ylim(bottom=0)
        step = max(1, len(labels) // 10)
        axes.set_xticks(range(0, len(labels), step), labels[::step], rotation=30, ha="right")
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI, facecolor=CARD, metadata={"Software": None})
        plt.close(figure)
    return buffer.getvalue()


def lag_alt(plugin: str, points: Sequence[tuple[str, float | None]]) -> str:
    """What the chart shows, in words: the first and last known lag and the largest."""
    known = [(label, days) for label, days in points if days is not None]
    if not known:
        return f"{plugin}: its pin's lag is not known on any of {len(points)} days"
    first, last = known[0], known[-1]
    most = max(known, key=lambda point: point[1])
    gaps = len(points) - len(known)
    unknown = f"; not known on {gaps} of them" if gaps else ""
    return (
        f"{plugin}: days its pin of vLLM stood behind main over {len(points)} days, "
        f"{first[1]:g} on {first[0]} to {last[1]:g} on {last[0]}, most {most[1]:g} on "
        f"{most[0]}{unknown}"
    )
