"""The local archive folder: one Markdown and one JSON file per report, written atomically.

`<data dir>/archive/<owner>__<repo>/<label>[.<topic>][.partial].<lang>.md` and `.json`; an
incomplete report says so in its name, so it is never mistaken for the day's report.
"""

from __future__ import annotations

from pathlib import Path

from bot.report import Report
from config.settings import Settings
from formatters.json_report import render_json


def report_stem(label: str, topic: str | None = None, complete: bool = True) -> str:
    stem = label.replace(" ", "-") + (f".{topic}" if topic else "")
    return stem + ("" if complete else ".partial")


def markdown_path(settings: Settings, repo: str, stem: str) -> Path:
    return settings.archive_dir / repo.replace("/", "__") / f"{stem}.{settings.lang}.md"


def write_report(
    settings: Settings, report: Report, markdown: str, topic: str | None = None
) -> list[Path]:
    """Write the rendered report; each file is replaced whole, so readers never see half."""
    stem = report_stem(report.window.label, topic, report.complete)
    md = markdown_path(settings, report.repo, stem)
    paths = [md, md.with_name(f"{stem}.json")]
    md.parent.mkdir(parents=True, exist_ok=True)
    for path, content in zip(paths, (markdown, render_json(report, settings.lang)), strict=True):
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(path)
    return paths
