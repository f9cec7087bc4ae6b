"""The report site: every report day the archive holds whole, as static pages, charts and feeds.

    index.html              every report day, newest first: its five counts and a sparkline
    feed.xml                Atom, one entry per report day (the newest FEED_ENTRIES)
    style.css, favicon.svg
    2026-03-25/index.html   the day's report, every section; zh/index.html: in Chinese
    2026-03-25/counts.png   the five counts over the CHART_DAYS report days ending that day
    2026-03-25/vendors.png  items per vendor over the same days
    topics/amd/index.html   the report days with AMD items; topics/amd/feed.xml
    plugins/vllm-ascend/    a feature's pages (SitePages, handed in by the composition root:
                            the radar's, bot.features.radar.site)

Links inside the site are relative, so it works as-is on GitHub Pages or any static host;
the page paths are `report_files.page_path`, the same the chat posts link to.

Built from the archive alone (a reading-only pipeline: no GitHub request, no model call) and
only from days it holds whole, so a page never shows a half-collected day.

Incremental, so the daily cost follows what changed, not the archive's size: INPUTS keeps a
record per day (what the index, feeds and topic pages need of it, the items its pages show,
its files) and the archive's mark (its newest fetch stamp). A build reads the rows written
since the last mark (`bot.store.changes`) and makes again only new days, days whose
neighbours changed, days showing an item the archive learned more about, and the fortnight
after a day whose counts may have moved; the other days' records stand. A file is written
only when its bytes change, and a chart drawn only when the figures behind it changed.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from datetime import time as time_of_day
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from bot.model.history import History
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.windows import Window, day_window
from bot.report_files import page_path
from bot.service.reports import CHART_DAYS, Reports
from bot.service.site_days import Changed, DayRecord, code_digest, near, parse_mark, runs, stable
from bot.service.site_files import SiteFiles, source_digest
from formatters import html
from formatters import outline as ol

log = logging.getLogger(__name__)

LANGS = ("en", "zh")

CHARTS = ("counts", "vendors")
FEED_ENTRIES = 60
ASSETS = ("style.css", "favicon.svg")
# Rows stamped this long before the last build's mark are read again: a sync running beside
# that build may have stamped rows with a time before the build read its mark.
SETTLE = timedelta(minutes=10)
# An event can reach the archive this long after it happened (GitHub's search index lags).
LAG = timedelta(days=1)


@dataclass(frozen=True)
class SiteBuild:
    days: int  # report days on the site
    pages: int  # HTML pages
    files: int  # every file of the site
    written: tuple[str, ...]  # files this build wrote (new or changed), relative to the root
    removed: tuple[str, ...]  # files of an earlier build no longer part of the site
    seconds: float
    # Report days made again, oldest first (the rest stood as the last build left them).
    made: tuple[str, ...] = ()


class SitePages(Protocol):
    """What a feature adds to the site: what its pages need of each report day (JSON values,
    kept in INPUTS with the day's record, so a day that stands is not read again), then its
    pages from every day's record, and the index's links to them."""

    key: str  # its records' name in INPUTS
    heading: str  # what the index calls its pages ("Plugins")

    def of_day(self, report: Report) -> list[Any]:
        """What its pages keep of the day (the English report); empty: nothing."""
        ...

    def pages(
        self, files: SiteFiles, days: Sequence[tuple[str, list[Any]]], digest: Callable[..., str]
    ) -> list[tuple[str, str]]:
        """Its pages, from the days' records (oldest first; `digest(*made_of)` keys a page
        so it is drawn again only when it changed); the index's links (name, path)."""
        ...


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
        pages: Sequence[SitePages] = (),
    ) -> None:
        self.reports = reports.reading_only()
        self.pages = tuple(pages)  # what features add to the site
        self.repo = repo
        self.tz = tz
        self.cutoff = cutoff
        self.base_url = base_url.rstrip("/") if base_url else None
        self._made_with = ""  # the recipe of the build under way

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

    def build(self, root: Path, progress: Callable[[str], None] | None = None) -> SiteBuild:
        """Make the site in `root`; `progress` is told each day as it is made."""
        started = time.perf_counter()
        files = SiteFiles(root)
        for asset in ASSETS:
            files.put(asset, html.asset(asset))
        days = self.days()
        recipe = self._made_with = self._recipe()
        before = files.before
        kept: dict[str, DayRecord] = {}
        raw: dict[str, Any] = {}  # the records as the last build wrote them
        if before.get("recipe") == recipe:  # same code and settings: earlier days may stand
            raw = before.get("days", {})
            kept = {label: DayRecord.load(r) for label, r in raw.items()}
        mark, changed, seen = self._changes(before if kept else {})
        stale = self._stale(days, kept, changed, root)
        records: dict[str, DayRecord] = {}
        for run in runs(sorted(stale)):
            first = run[0] - timedelta(days=CHART_DAYS - 1)
            windows = [
                self._window(first + timedelta(days=n)) for n in range((run[-1] - first).days + 1)
            ]
            history = self.reports.history_of(self.repo, windows)
            at = {point.label: index for index, point in enumerate(history.days)}
            for day in run:
                label = day.isoformat()
                if progress is not None:
                    made = len(records) + 1
                    progress(f"building the site: {label}, day {made} of {len(stale)}")
                last14 = history.ending(at[label], CHART_DAYS)
                records[label] = self._day(files, windows[at[label]], last14, near(days, day))
        for day in days:
            label = day.isoformat()
            if label not in records:  # unchanged: its files stand as the last build left them
                records[label] = kept[label]
                files.keep(records[label].files, records[label].charts)
        self._pages(files, [records[day.isoformat()] for day in days])
        written, removed = files.finish(
            recipe=recipe,
            mark=mark.isoformat() if mark else None,
            seen=seen,
            days={
                day.isoformat(): raw[day.isoformat()]
                if day.isoformat() in raw and day not in stale
                else records[day.isoformat()].dump()
                for day in days
            },
        )
        build = SiteBuild(
            days=len(days),
            pages=sum(1 for name in files.produced if name.endswith(".html")),
            files=len(files.produced),
            written=tuple(written),
            removed=tuple(removed),
            seconds=time.perf_counter() - started,
            made=tuple(day.isoformat() for day in sorted(stale)),
        )
        log.info(
            "site: %d days (%d made again), %d files, %d written in %.2f s",
            build.days,
            len(build.made),
            build.files,
            len(build.written),
            build.seconds,
        )
        return build

    def _changes(
        self, before: dict[str, Any]
    ) -> tuple[datetime | None, Changed | None, dict[str, str]]:
        """The archive's mark now; what was written since the last build (None: no last
        build to compare with); the rows near the mark, remembered for the next build.

        Rows stamped up to SETTLE before the last mark are read again, since a sync running
        beside that build may have stamped rows with a time before the build read its mark;
        the ones that build already saw, with the same stamp, are not news."""
        store = self.reports.archiver.store.changes
        mark = store.mark(self.repo)  # read first: what is written during the build is newer
        earlier = parse_mark(before.get("mark"))
        if mark is None:
            return None, None, {}
        rows = store.since(self.repo, min(mark, earlier or mark) - SETTLE)
        seen = {f"{r.table}:{r.number}": r.fetched_at.isoformat() for r in rows}
        if earlier is None:
            return mark, None, seen
        known = before.get("seen", {})
        changed = Changed(since=earlier)
        for row in rows:
            key = f"{row.table}:{row.number}"
            if known.get(key) != seen[key]:
                changed.numbers.add(row.number)
                changed.moments[row.number] = row.moments
        band = mark - SETTLE
        return mark, changed, {k: v for k, v in seen.items() if datetime.fromisoformat(v) > band}

    def _stale(
        self, days: list[date], kept: dict[str, DayRecord], changed: Changed | None, root: Path
    ) -> set[date]:
        """The days whose pages must be made again: new days, days whose neighbours changed,
        days that show an item the archive learned more about, days with a file gone, and
        the fortnight after a new day or a day whose counts may have changed (its charts
        and trend baselines include that day)."""
        if changed is None:
            return set(days)
        present = set(days)
        new = [day for day in days if day.isoformat() not in kept]
        stale = {
            day
            for day in days
            if (record := kept.get(day.isoformat())) is None
            or record.near != near(days, day)
            or not changed.numbers.isdisjoint(record.shows)
            # a file gone (a person cleaned the folder, a sync to a host lost one): pages
            # and charts alike, since a page that stands would show a missing picture
            or not all((root / n).is_file() for n in record.files)
        }
        for touched in [*new, *self._counted(changed, kept)]:
            stale.update(
                later
                for n in range(CHART_DAYS)
                if (later := touched + timedelta(days=n)) in present
            )
        return stale

    def _counted(self, changed: Changed, kept: dict[str, DayRecord]) -> set[date]:
        """The days whose counts may have changed: those of an item no page showed yet,
        and those of a recent event (an item's creation, closing or merge after the last
        build's facts, less the search index's LAG). An older event of an item a page
        already showed was counted then: it changes that page, not the charts after it."""
        shown = set().union(*(record.shows for record in kept.values()))
        recent = changed.since - LAG if changed.since else None
        return {
            self._day_of(moment)
            for number, moments in changed.moments.items()
            for moment in moments
            if number not in shown or recent is None or moment > recent
        }

    def _pages(self, files: SiteFiles, records: list[DayRecord]) -> None:
        """The index, the feeds and the topic pages, from every day's record."""
        topics: dict[str, _Topic] = {}
        for record in records:
            for key, name, items, line in record.topics:
                topic = topics.setdefault(key, _Topic(key, name))
                topic.days.append(_TopicDay(record.label, items, line, record.entry.updated))
        more = []
        for pages in self.pages:
            days = [(r.label, r.parts[pages.key]) for r in records if r.parts.get(pages.key)]
            links = pages.pages(files, days, self._digest)
            if links:
                more.append((pages.heading, links))
        rows = [record.row for record in reversed(records)]
        entries = [record.entry for record in reversed(records)]
        title = f"{self.repo} daily reports"
        files.put(
            "index.html",
            html.index_page(
                title,
                rows,
                [(t.key, t.name) for t in topics.values()],
                home="",
                feed="feed.xml",
                more=more,
            ),
        )
        files.put("feed.xml", self._feed(title, entries, "feed.xml", "reports"))
        for topic in topics.values():
            self._topic(files, topic)

    def _recipe(self) -> str:
        """What every page is made with besides the facts: the code, the topic rules, the
        site's settings and the features' pages. A change to any of them makes every page
        again."""
        pages = [p.key for p in self.pages]  # a day's record keeps what these pages need
        settings = (self.repo, str(self.tz), self.cutoff, self.base_url, self.reports.rules, pages)
        return hashlib.sha256(stable(settings).encode() + code_digest()).hexdigest()

    def _day_of(self, moment: datetime) -> date:
        """The report day whose window holds `moment`."""
        day = moment.astimezone(self.tz).date()
        return day if self._window(day).start <= moment else day - timedelta(days=1)

    # -- one report day ----------------------------------------------------------------------

    def _day(
        self, files: SiteFiles, window: Window, last14: History, near: tuple[str | None, str | None]
    ) -> DayRecord:
        """The day's pages and charts, and its record: what the index, feeds and topic pages
        need of it, and the items it shows (a change to one of them makes it again)."""
        label = window.label
        first = len(files.produced)
        outlines, shows = {}, set()
        parts: dict[str, list[Any]] = {}
        for lang in LANGS:
            pictures = [self._chart(files, label, last14, kind, lang) for kind in CHARTS]
            report = self.reports.report(ReportQuery(self.repo, window, lang))
            if lang == "en":  # a feature's facts are the same in every language
                parts = {pages.key: pages.of_day(report) for pages in self.pages}
            shows |= report.items.keys() | report.context.keys()
            full = outlines[lang] = ol.outline(report, lang)
            up = "../" if lang == "en" else "../../"
            page = html.report_page(
                full,
                pictures=pictures,  # each page's charts sit beside it
                languages=[
                    (other, up + page_path(label, other)) for other in LANGS if other != lang
                ],
                home=up,
                previous=up + page_path(near[0], lang) if near[0] else None,
                following=up + page_path(near[1], lang) if near[1] else None,
            )
            files.put(page_path(label, lang) + "index.html", page)
        made = files.produced[first:]
        full = outlines["en"]
        return DayRecord(
            label=label,
            near=near,
            shows=sorted(shows),
            files=made,
            charts={name: files.digests[name] for name in made if name in files.digests},
            row=html.day_row(last14, page_path(label, "en"), page_path(label, "zh")),
            entry=self._entry(label, full, window.end, ""),
            topics=[
                (section.key, section.name, last14.days[-1].topics.get(section.key, 0), line)
                for section in full.sections
                if section.kind != "section" and (line := ol.topic_line(section, "en"))
            ],
            parts={key: rows for key, rows in parts.items() if rows},
        )

    def _chart(
        self, files: SiteFiles, label: str, last14: History, kind: str, lang: str = "en"
    ) -> html.Picture:
        """A day's chart in the page's language (`counts.png`, `zh/counts.png`)."""
        from formatters import charts

        file = f"{kind}.png" if lang == "en" else f"{lang}/{kind}.png"
        name = f"{label}/{file}"
        digest = hashlib.sha256(
            repr((kind, lang, last14.days, last14.catalog)).encode() + source_digest()
        ).hexdigest()
        drawn: list[charts.Chart] = []

        def draw() -> bytes:
            drawn.append(charts.chart(last14, kind, lang=lang))
            return drawn[0].png

        files.drawn(name, digest, draw)
        return html.Picture(f"{kind}.png", charts.alt_text(last14, kind, lang=lang))

    # -- topics and feeds --------------------------------------------------------------------

    def _topic(self, files: SiteFiles, topic: _Topic) -> None:
        folder = f"topics/{topic.key}/"
        days = list(reversed(topic.days))
        rows = [
            (d.label, f"../../{page_path(d.label, 'en')}#{topic.key}", d.items, d.line)
            for d in days
        ]
        title = f"{topic.name} · {self.repo}"
        # A topic page lists every day of its topic: drawn again only when its rows change
        # (at a thousand days, rendering the topic pages was most of a build's time).
        files.drawn(
            folder + "index.html",
            self._digest(title, rows),
            lambda: html.topic_page(title, rows, home="../../", feed="feed.xml").encode(),
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
        files.drawn(
            folder + "feed.xml",
            self._digest(title, entries),
            lambda: self._feed(title, entries, folder + "feed.xml", topic.key).encode(),
        )

    def _digest(self, *made_of: object) -> str:
        """What a page is made of, with what it is made by (the recipe)."""
        return hashlib.sha256(repr((self._made_with, made_of)).encode()).hexdigest()

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
