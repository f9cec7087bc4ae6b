"""What a report is asked for: typed, checked, the same from the CLI, a command or the job."""

from __future__ import annotations

from dataclasses import dataclass

from bot.model.windows import Window


@dataclass(frozen=True)
class ReportQuery:
    """One report asked for: which repository, window, topic, language, how much."""

    repo: str
    window: Window
    lang: str = "en"
    topic: str | None = None
    counts_only: bool = False
    refresh: bool = False
    # With the review queue as GitHub shows it now: the daily job's report (the pipeline adds
    # it only near the window's end: a past day asked later would get today's queue).
    queue: bool = False
