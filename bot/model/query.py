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
