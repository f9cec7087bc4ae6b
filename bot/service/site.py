"""The report site: every report day the archive holds whole, as static pages, charts and feeds.

    index.html              every report day, newest first: its five counts and a sparkline
    feed.xml                Atom, one entry per report day (the newest FEED_ENTRIES)
    style.css, favicon.svg
    2026-03-25/index.html   the day's report, every section; zh/index.html: in Chinese
    2026-03-25/counts.png   the five counts over the CHART_DAYS report days ending that day
    2026-03-25/vendors.png  items per vendor over the same days
    topics/amd/index.html   the report days with AMD items; topics/amd/feed.xml

Links inside the site are relative, so it works as-is on GitHub Pages or any static host;
the page paths are `report_files.page_path`, the same the chat posts link to.

Built from the archive alone (a reading-only pipeline: no GitHub request, no model call) and
only from days it holds whole, so a page never shows a half-collected day. Incremental: a
file is written only when its bytes change, and a chart is drawn only when the figures
behind it changed (`.site-inputs.json` keeps a digest of each chart's figures), so a rebuild
after one new day rewrites the new day's pages, the previous day's "next" link, the index,
the feeds and the pages of the topics that day touched.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as time_of_day
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.model.history import History
from bot.model.query import ReportQuery
from bot.model.windows import Window, day_window
from bot.report_files import page_path
from bot.service.reports import CHART_DAYS, Reports
from formatters import html
from formatters import outline as ol

log = logging.getLogger(__name__)

LANGS = ("en", "zh")

CHARTS = ("counts", "vendors")
FEED_ENTRIES = 60
ASSETS = ("style.css", "favicon.svg")
INPUTS = ".site-inputs.json"  # chart digests and the files the last build wrote


@dataclass(frozen=True)
class SiteBuild:
    days: int  # report days on the site
    pages: int  # HTML pages
    files: int  # every file of the site
    written: tuple[str, ...]  # files this build wrote (new or changed), relative to the root
    removed: tuple[str, ...]  # files of an earlier build no longer part of the site
    seconds: float


@dataclass
class _TopicDay:
    label: str
    items: int
    line: str
    updated: datetime


@dataclass
class _Topic:
    key: str
    name: str
    days: list[_TopicDay] = field(default_factory=list)


class SiteBuilder:
    def __init__(
        self,
        reports: Reports,
        repo: str,
        tz: ZoneInfo,
        cutoff: time_of_day,
        base_url: str | None = None,
    ) -> None:
        self.reports = reports.reading_only()
        self.repo = repo
        self.tz = tz
        self.cutoff = cutoff
        self.base_url = base_url.rstrip("/") if base_url else None

    def days(self) -> list[date]:
        """The report days the archive holds whole, oldest first."""
        found: set[date] = set()
        for span in self.reports.archiver.store.coverage.spans(self.repo):
            day = span.start.astimezone(self.tz).date() - timedelta(days=1)
            while (window := self._window(day)).start < span.end:
                if span.start <= window.start and window.end <= span.end:
                    found.add(day)
                day += timedelta(days=1)
        return sorted(found)

    def build(self, root: Path) -> SiteBuild:
        started = time.perf_counter()
        files = _Files(root)
        for asset in ASSETS:
            files.put(asset, html.asset(asset))
        days = self.days()
        topics: dict[str, _Topic] = {}
        rows: list[html.DayRow] = []
        entries: list[html.FeedEntry] = []
        if days:
            first = days[0] - timedelta(days=CHART_DAYS - 1)
            windows = [
                self._window(first + timedelta(days=n)) for n in range((days[-1] - first).days + 1)
            ]
            run = self.reports.history_of(self.repo, windows)
            at = {point.label: index for index, point in enumerate(run.days)}
            for index, day in enumerate(days):
                label = day.isoformat()
                near = (
                    days[index - 1] if index else None,
                    days[index + 1] if index + 1 < len(days) else None,
                )
                last14 = run.ending(at[label], CHART_DAYS)
                full = self._day(files, windows[at[label]], last14, near)
                rows.append(html.day_row(last14, page_path(label, "en"), page_path(label, "zh")))
                entries.append(self._entry(label, full, windows[at[label]].end, ""))
                for section in full.sections:
                    line = ol.topic_line(section, "en")
                    if section.kind == "section" or line is None:
                        continue
                    topic = topics.setdefault(section.key, _Topic(section.key, section.name))
                    items = last14.days[-1].topics.get(section.key, 0)
                    topic.days.append(_TopicDay(label, items, line, windows[at[label]].end))
        rows.reverse()
        entries.reverse()
        title = f"{self.repo} daily reports"
        files.put(
            "index.html",
            html.index_page(
                title, rows, [(t.key, t.name) for t in topics.values()], home="", feed="feed.xml"
            ),
        )
        files.put("feed.xml", self._feed(title, entries, "feed.xml", "reports"))
        for topic in topics.values():
            self._topic(files, topic)
        written, removed = files.finish()
        build = SiteBuild(
            days=len(days),
            pages=sum(1 for name in files.produced if name.endswith(".html")),
            files=len(files.produced),
            written=tuple(written),
            removed=tuple(removed),
            seconds=time.perf_counter() - started,
        )
        log.info(
            "site: %d days, %d files, %d written in %.2f s",
            build.days,
            build.files,
            len(build.written),
            build.seconds,
        )
        return build

    # -- one report day ----------------------------------------------------------------------

    def _day(
        self, files: _Files, window: Window, last14: History, near: tuple[date | None, date | None]
    ) -> ol.Outline:
        """The day's pages and charts; its outline in English (for the index and feeds)."""
        label = window.label
        outlines = {}
        for lang in LANGS:
            pictures = [self._chart(files, label, last14, kind, lang) for kind in CHARTS]
            report = self.reports.report(ReportQuery(self.repo, window, lang))
            full = outlines[lang] = ol.outline(report, lang)
            up = "../" if lang == "en" else "../../"
            page = html.report_page(
                full,
                pictures=pictures,  # each page's charts sit beside it
                languages=[
                    (other, up + page_path(label, other)) for other in LANGS if other != lang
                ],
                home=up,
                previous=up + page_path(near[0].isoformat(), lang) if near[0] else None,
                following=up + page_path(near[1].isoformat(), lang) if near[1] else None,
            )
            files.put(page_path(label, lang) + "index.html", page)
        return outlines["en"]

    def _chart(
        self, files: _Files, label: str, last14: History, kind: str, lang: str = "en"
    ) -> html.Picture:
        """A day's chart in the page's language (`counts.png`, `zh/counts.png`)."""
        from formatters import charts

        file = f"{kind}.png" if lang == "en" else f"{lang}/{kind}.png"
        name = f"{label}/{file}"
        digest = hashlib.sha256(
            repr((kind, lang, last14.days, last14.catalog)).encode() + _source_digest()
        ).hexdigest()
        drawn: list[charts.Chart] = []

        def draw() -> bytes:
            drawn.append(charts.chart(last14, kind, lang=lang))
            return drawn[0].png

        files.drawn(name, digest, draw)
        return html.Picture(f"{kind}.png", charts.alt_text(last14, kind, lang=lang))

    # -- topics and feeds --------------------------------------------------------------------

    def _topic(self, files: _Files, topic: _Topic) -> None:
        folder = f"topics/{topic.key}/"
        days = list(reversed(topic.days))
        rows = [
            (d.label, f"../../{page_path(d.label, 'en')}#{topic.key}", d.items, d.line)
            for d in days
        ]
        title = f"{topic.name} · {self.repo}"
        files.put(
            folder + "index.html", html.topic_page(title, rows, home="../../", feed="feed.xml")
        )
        entries = [
            html.FeedEntry(
                title=f"{topic.name} on {d.label}",
                href=self._href(f"{page_path(d.label, 'en')}#{topic.key}", "../../"),
                updated=d.updated,
                summary=d.line,
                id=f"tag:vllm-report-bot,2026:{self.repo}/{d.label}/{topic.key}",
            )
            for d in days[:FEED_ENTRIES]
        ]
        files.put(folder + "feed.xml", self._feed(title, entries, folder + "feed.xml", topic.key))

    def _entry(self, label: str, full: ol.Outline, updated: datetime, up: str) -> html.FeedEntry:
        counts = " · ".join(f"{name} {value}" for name, value in full.counts)
        return html.FeedEntry(
            title=full.title,
            href=self._href(page_path(label, "en"), up),
            updated=updated,
            summary="\n".join([counts, *full.vendors]),
            id=f"tag:vllm-report-bot,2026:{self.repo}/{label}",
        )

    def _feed(self, title: str, entries: list[html.FeedEntry], path: str, key: str) -> str:
        return html.atom_feed(
            title,
            entries[:FEED_ENTRIES],
            self_href=self._href(path, "") if self.base_url else path.rsplit("/", 1)[-1],
            feed_id=f"tag:vllm-report-bot,2026:{self.repo}/{key}",
        )

    def _href(self, path: str, up: str) -> str:
        """A site path as a feed links it: absolute under the site URL, else relative."""
        return f"{self.base_url}/{path}" if self.base_url else up + path

    def _window(self, day: date) -> Window:
        return day_window(day, self.tz, self.cutoff)


class _Files:
    """The site's folder: a file is replaced whole, and only when its bytes change."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.produced: list[str] = []
        self._written: list[str] = []
        try:
            self._before = json.loads((root / INPUTS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self._before = {}
        self._digests: dict[str, str] = {}

    def put(self, name: str, content: str | bytes) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        self.produced.append(name)
        path = self.root / name
        try:
            if path.read_bytes() == data:
                return
        except OSError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        self._written.append(name)

    def drawn(self, name: str, digest: str, draw: Callable[[], bytes]) -> None:
        """A picture, drawn again only when the figures behind it changed."""
        self._digests[name] = digest
        if self._before.get("charts", {}).get(name) == digest and (self.root / name).is_file():
            self.produced.append(name)
            return
        self.put(name, draw())

    def finish(self) -> tuple[list[str], list[str]]:
        """Remove what an earlier build wrote and this one did not; remember this build."""
        removed = sorted(set(self._before.get("files", [])) - set(self.produced))
        for name in removed:
            (self.root / name).unlink(missing_ok=True)
        inputs = {"charts": self._digests, "files": sorted(self.produced)}
        self.put(INPUTS, json.dumps(inputs, indent=1, sort_keys=True))
        self.produced.remove(INPUTS)
        if INPUTS in self._written:
            self._written.remove(INPUTS)
        return self._written, removed


@cache
def _source_digest() -> bytes:
    """The chart code itself is an input: a change to how charts are drawn redraws them."""
    from formatters import charts

    return hashlib.sha256(Path(charts.__file__).read_bytes()).digest()
