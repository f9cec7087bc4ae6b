"""Rendered reports as files, and the links where those files are served.

`<root>/<owner>__<repo>/<label>[.<topic>][.partial].<lang>.md` and `.json`, each replaced
whole (written beside, then renamed), so readers never see half a file; an incomplete
report says so in its name, so it is never mistaken for the day's report. The same names
make the links of `VLLM_REPORT_ARCHIVE_URL`: one module knows the layout, so the file
written and the link posted cannot drift apart.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from bot.model.report import Report
from bot.model.windows import Window


class ReportFiles:
    def __init__(self, root: Path, base_url: str | None = None) -> None:
        self.root = root
        self.base_url = base_url.rstrip("/") if base_url else None

    def write(self, report: Report, lang: str, markdown: str, json_text: str) -> list[Path]:
        """Write the rendered report; each file is replaced whole."""
        md = self._folder(report.repo) / f"{_stem(report)}.{lang}.md"
        paths = [md, md.with_name(f"{_stem(report)}.json")]
        md.parent.mkdir(parents=True, exist_ok=True)
        for path, content in zip(paths, (markdown, json_text), strict=True):
            # A name of this process's own: two runs writing the same report at once (a
            # racing `post`, two replicas) must not rename each other's half-written file.
            tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(content, encoding="utf-8")
            tmp.replace(path)
        return paths

    def link(self, report: Report, lang: str) -> str | None:
        """Where the report's Markdown is served (None when no archive URL is set)."""
        if self.base_url is None:
            return None
        return f"{self.base_url}/{_folder_name(report.repo)}/{_stem(report)}.{lang}.md"

    def exists(self, repo: str, window: Window, lang: str) -> bool:
        """True when the complete report of `window` was written in `lang`."""
        return (self._folder(repo) / f"{_label(window.label)}.{lang}.md").exists()

    def _folder(self, repo: str) -> Path:
        return self.root / _folder_name(repo)


def _folder_name(repo: str) -> str:
    return repo.replace("/", "__")


def _label(label: str) -> str:
    return label.replace(" ", "-")


def _stem(report: Report) -> str:
    stem = _label(report.window.label) + (f".{report.topic}" if report.topic else "")
    return stem + ("" if report.complete else ".partial")
