"""Rendered reports as files, and the links where those files are served.

`<root>/<owner>__<repo>/<label>[.<topic>][.partial].<lang>.md` and `.json`, each replaced
whole (written beside, then renamed), so readers never see half a file; an incomplete
report says so in its name, so it is never mistaken for the day's report.
`VLLM_REPORT_SITE_URL` is where the report site (`vllm-report site build`) is served: a
day's page is `<url>/2026-03-26/`, its Chinese page `<url>/2026-03-26/zh/`, a topic's
section `…/2026-03-26/#amd`. One module knows that layout, so the page the site writes and
the link a chat post carries cannot drift apart.

A folder that cannot be made or written (a read-only mount, another user's folder, a file
in the way, a full disk) is told in one sentence naming the folder, the setting that
chooses it and what to do (`unwritable`), never as Python's errno.
"""

from __future__ import annotations

import errno
import json
import os
import re
import threading
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.model.errors import InputError, ServiceError
from bot.model.report import Report
from bot.model.windows import Window

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")  # one report day (a range has no page of its own)


DATA_DIR = "VLLM_REPORT_DATA_DIR"  # the setting that chooses the archive's folder


class ReportFiles:
    def __init__(
        self,
        root: Path,
        base_url: str | None = None,
        site_repo: str | None = None,
        setting: str | None = DATA_DIR,
    ):
        self.root = root
        self.base_url = base_url.rstrip("/") if base_url else None
        self.site_repo = site_repo  # the repository the site shows (None: any)
        self.setting = setting  # what chooses `root`, said when it cannot be written

    def write(self, report: Report, lang: str, markdown: str, json_text: str) -> list[Path]:
        """Write the rendered report; each file is replaced whole. A folder that cannot be
        written: one sentence (InputError, or ServiceError for a full disk)."""
        md = self._folder(report.repo) / f"{_stem(report)}.{lang}.md"
        paths = [md, md.with_name(f"{_stem(report)}.json")]
        try:
            md.parent.mkdir(parents=True, exist_ok=True)
            for path, content in zip(paths, (markdown, json_text), strict=True):
                # A name of this process's own: two runs writing the same report at once (a
                # racing `post`, two replicas) must not rename each other's half-written file.
                tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
                tmp.write_text(content, encoding="utf-8")
                tmp.replace(path)
        except OSError as exc:
            raise unwritable(md.parent, self.setting, exc, "the report archive") from None
        return paths

    def link(self, report: Report, lang: str) -> str | None:
        """The report's page on the site, or None: no site URL, another repository, a range
        of days or a day in progress (the site has a page per finished report day only)."""
        if self.base_url is None or not report.complete or not _DAY.match(report.window.label):
            return None
        if self.site_repo is not None and report.repo != self.site_repo:
            return None
        anchor = f"#{report.topic}" if report.topic else ""
        return f"{self.base_url}/{page_path(report.window.label, lang)}{anchor}"

    def exists(self, repo: str, window: Window, lang: str) -> bool:
        """True when the complete report of `window` was written in `lang`."""
        return (self._folder(repo) / f"{_label(window.label)}.{lang}.md").exists()

    def published_ends(self, repo: str) -> dict[str, str]:
        """Each published report day's label → the local time its window ended ("11:43"),
        read from its JSON: a day published at another cutoff has no page on a site built
        at this one, and `site build` says so."""
        ends: dict[str, str] = {}
        folder = self._folder(repo)
        for path in sorted(folder.glob("????-??-??.json")) if folder.is_dir() else ():
            try:
                window = json.loads(path.read_text(encoding="utf-8"))["window"]
                end = datetime.fromisoformat(window["end"])
                ends[window["label"]] = end.astimezone(ZoneInfo(window["timezone"])).strftime(
                    "%H:%M"
                )
            except (OSError, ValueError, KeyError, TypeError):
                continue  # not a report's JSON: not ours to judge here
        return ends

    def _folder(self, repo: str) -> Path:
        return self.root / _folder_name(repo)


def page_path(label: str, lang: str) -> str:
    """A report day's page, relative to the site's root: `2026-03-26/`, `2026-03-26/zh/`."""
    return f"{label}/" if lang == "en" else f"{label}/{lang}/"


def _folder_name(repo: str) -> str:
    return repo.replace("/", "__")


def _label(label: str) -> str:
    return label.replace(" ", "-")


def _stem(report: Report) -> str:
    stem = _label(report.window.label) + (f".{report.topic}" if report.topic else "")
    return stem + ("" if report.complete else ".partial")


class FolderError(InputError):
    """A folder the bot writes cannot be made or written: the setting choosing it is to be
    changed, or the folder's owner, mount or mode (exit status 2)."""


class FullDiskError(ServiceError):
    """The disk holding a folder the bot writes is full (exit status 1: free some space)."""


def unwritable(
    folder: Path, setting: str | None, exc: OSError, what: str = "files"
) -> FolderError | FullDiskError:
    """One sentence for `exc`, raised making or writing `folder`: the folder, why, and what
    to do — change `setting` (the setting or option that chooses the folder; None: none
    does) or the folder itself."""
    elsewhere = f"set {setting} to a folder" if setting else "name a folder"
    blocker = _file_in_the_way(folder)
    if blocker is not None:
        return FolderError(
            f"cannot write {what} in {folder}: {blocker} is a file, not a folder — move it "
            f"aside, or {elsewhere} elsewhere"
        )
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return FullDiskError(
            f"cannot write {what} in {folder}: the disk holding it is full — free some space "
            "and run again"
        )
    if code == errno.EROFS:
        return FolderError(
            f"cannot write {what} in {folder}: it is on a read-only file system — {elsewhere} "
            "on a writable one (in Docker, mount a volume there)"
        )
    if code in (errno.EACCES, errno.EPERM):
        return FolderError(
            f"cannot write {what} in {folder}: this user (uid {os.getuid()}) may not write "
            f"there — make the folder writable by it (in Docker the image's user is 10001), "
            f"or {elsewhere} it may write"
        )
    why = exc.strerror or type(exc).__name__
    return FolderError(
        f"cannot write {what} in {folder} ({why}) — {elsewhere} this user may make and write"
    )


def _file_in_the_way(folder: Path) -> Path | None:
    """The file where `folder` or one of the folders above it should be, if any."""
    for path in (folder, *folder.parents):
        try:
            if path.exists():
                return None if path.is_dir() else path
        except OSError:
            return None
    return None
