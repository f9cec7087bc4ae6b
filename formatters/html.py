"""HTML: the outline as a web page, and the site's index, topic pages and Atom feeds.

Jinja2 with autoescape on renders every page from `formatters/templates/`: strangers' text
reaches the templates as plain strings and is escaped there; the only links are the GitHub
URLs the outline built and the site's own relative paths. Pages need no JavaScript, follow
the reader's dark mode and print cleanly (one small stylesheet, `style.css`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from bot.model.history import History
from bot.model.report import ListName
from formatters import outline as ol
from formatters import wording as w
from formatters._text import clean
from formatters.phrases import TEXT

LANG_NAMES = {"en": "English", "zh": "中文"}


@dataclass(frozen=True)
class Picture:
    """A chart on a page: its file (relative to the page) and its alt text."""

    src: str
    alt: str


@dataclass(frozen=True)
class DayRow:
    """One report day on the index or a topic page."""

    label: str
    href: str
    zh_href: str
    counts: tuple[tuple[str, int], ...]
    spark: str  # inline SVG polyline points, or ""
    spark_label: str


@cache
def _environment() -> Any:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(
        loader=PackageLoader("formatters", "templates"),
        autoescape=select_autoescape(["html", "xml", "j2"], default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["parts"] = _parts
    return env


def _parts(line: ol.Line) -> list[dict[str, Any]]:
    """A line as plain pieces the template escapes: text, or a link we built."""
    pieces: list[dict[str, Any]] = []
    for part in line:
        if isinstance(part, ol.Ref):
            pieces.append({"kind": "ref", "url": part.url, "text": part.text})
        elif isinstance(part, ol.Theirs):
            pieces.append({"kind": "text", "text": clean(part.text, part.limit, defuse=False)})
        else:
            pieces.append({"kind": "text", "text": part.text})
    return pieces


def report_page(
    full: ol.Outline,
    *,
    pictures: Sequence[Picture] = (),
    languages: Sequence[tuple[str, str]] = (),
    home: str = "../",
    previous: str | None = None,
    following: str | None = None,
) -> str:
    """A report day's page: every section, the appendix last, the charts after the counts.
    `languages` are the page in other languages: (language, relative link)."""
    lang = full.lang
    return _render(
        "report.html.j2",
        lang=lang,
        full=full,
        pictures=pictures,
        languages=[(code, LANG_NAMES.get(code, code), href) for code, href in languages],
        home=home,
        previous=previous,
        following=following,
        words=TEXT[lang],
    )


def index_page(
    title: str,
    rows: Sequence[DayRow],
    topics: Sequence[tuple[str, str]],
    *,
    home: str,
    feed: str,
    more: Sequence[tuple[str, Sequence[tuple[str, str]]]] = (),
) -> str:
    """Every report day, newest first, the topics that have a page (key, name) and the
    features' pages: a heading each, with their links (name, path)."""
    return _render(
        "index.html.j2",
        lang="en",
        title=title,
        rows=rows,
        topics=topics,
        more=more,
        home=home,
        feed=feed,
    )


def topic_page(
    title: str, rows: Sequence[tuple[str, str, int, str]], *, home: str, feed: str
) -> str:
    """A topic's report days, newest first: (day, link to its section, items, counts line)."""
    return _render("topic.html.j2", lang="en", title=title, rows=rows, home=home, feed=feed)


def plugin_page(
    title: str, picture: Picture, rows: Sequence[tuple[str, str, str, str]], *, home: str
) -> str:
    """A plugin's report days, newest first: (day, link to its Plugins section, the pin's
    lag, what broke it), under the chart of its pin lag."""
    return _render("plugin.html.j2", lang="en", title=title, picture=picture, rows=rows, home=home)


def asset(name: str) -> str:
    """A file every page uses (`style.css`, `favicon.svg`), as shipped with the templates."""
    from importlib.resources import files

    return files("formatters").joinpath(f"templates/{name}").read_text(encoding="utf-8")


def _render(template: str, **values: Any) -> str:
    return str(_environment().get_template(template).render(**values))


def day_row(history: History, href: str, zh_href: str) -> DayRow:
    """The last day of `history` as an index row, with a sparkline of new items up to it."""
    day = history.days[-1]
    counts = tuple((w.COUNT_NAMES["en"][name], day.counts.get(name, 0)) for name in ListName)
    values = [
        (d.counts.get(ListName.NEW_ISSUES, 0) + d.counts.get(ListName.NEW_PRS, 0))
        if d.covered
        else None
        for d in history.days
    ]
    return DayRow(
        day.label, href, zh_href, counts, sparkline(values), _spark_label(history, values)
    )


def sparkline(values: Sequence[int | None], width: int = 120, height: int = 24) -> str:
    """SVG polyline points for `values` (None: a day not archived, left out)."""
    known = [v for v in values if v is not None]
    if len(known) < 2:
        return ""
    top = max(known) or 1
    step = width / max(1, len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - (v / top) * (height - 2) - 1:.1f}"
        for i, v in enumerate(values)
        if v is not None
    )


def _spark_label(history: History, values: Sequence[int | None]) -> str:
    shown = ", ".join("n/a" if v is None else str(v) for v in values)
    return (
        f"New issues and PRs per day, {history.days[0].label} to {history.days[-1].label}: {shown}"
    )


@dataclass(frozen=True)
class FeedEntry:
    title: str
    href: str
    updated: datetime
    summary: str
    id: str


def atom_feed(title: str, entries: Sequence[FeedEntry], *, self_href: str, feed_id: str) -> str:
    """An Atom 1.0 feed. Its `updated` is the newest entry's, so an unchanged site writes
    an unchanged feed (readers and the incremental build see no change)."""
    updated = max((e.updated for e in entries), default=None)
    return _render(
        "feed.xml.j2",
        title=title,
        entries=entries,
        self_href=self_href,
        feed_id=feed_id,
        updated=updated.isoformat() if updated else "1970-01-01T00:00:00+00:00",
    )
