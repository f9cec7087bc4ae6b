"""The report site from the real fixture days: a page per archived day in each language,
an index newest first, topic pages, Atom feeds a feed reader reads back, strangers' text
escaped, links the chat posts carry that land on pages the site wrote, and rebuilds that
write only what changed."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import feedparser
import pytest

from bot.model.query import ReportQuery
from bot.model.windows import day_window
from bot.report_files import ReportFiles
from tests.anchor_data import REPO
from tests.factories import CST
from tests.sites import ANCHOR_LABELS, BASE_URL, CUTOFF, HOSTILE, FixtureArchive, Site


def page(root: Path, label: str, lang: str = "en") -> str:
    path = root / label / ("index.html" if lang == "en" else f"{lang}/index.html")
    return path.read_text(encoding="utf-8")


def index_days(root: Path) -> list[str]:
    text = (root / "index.html").read_text(encoding="utf-8")
    return re.findall(r'<th scope="row"><a href="([0-9-]+)/">', text)


def test_every_day_the_archive_holds_has_a_page_in_each_language(
    fixture_site: Site,
) -> None:
    archive, root, built = fixture_site
    days = [d.isoformat() for d in archive.builder().days()]
    assert set(ANCHOR_LABELS) <= set(days)  # the three real days and their baselines
    assert index_days(root) == sorted(days, reverse=True)  # newest first
    for label in days:
        assert f"vLLM daily report · {label}" in page(root, label)
        assert f"vLLM 开发动态日报 · {label}" in page(root, label, "zh")
    assert built.days == len(days)
    assert built.pages == 2 * len(days) + 1 + len(list((root / "topics").iterdir()))


def test_a_day_page_has_every_section_every_item_and_its_charts(
    fixture_site: Site,
) -> None:
    archive, root, _ = fixture_site
    text = page(root, "2026-03-25")
    window = day_window(datetime.fromisoformat("2026-03-25").date(), CST, CUTOFF)
    report = archive.bot.reports.report(ReportQuery(REPO, window, "en"))
    for number in report.items:  # the appendix lists every item, linked to GitHub
        assert re.search(
            rf'href="https://github.com/{REPO}/(issues|pull)/{number}">#{number}<', text
        )
    for section in ("summary", "amd", "nvidia", "hot", "key", "trends", "notable", "appendix"):
        assert f'<section id="{section}">' in text
    assert text.index('id="amd"') < text.index('id="nvidia"')  # AMD first
    for chart in ("counts", "vendors"):
        assert (root / "2026-03-25" / f"{chart}.png").stat().st_size > 10_000
        assert f'<img src="{chart}.png" alt="' in text
        # The Chinese page has its own charts, their words in Chinese.
        assert (root / "2026-03-25" / "zh" / f"{chart}.png").stat().st_size > 10_000
        zh = page(root, "2026-03-25", "zh")
        assert f'<img src="{chart}.png" alt="' in zh
    assert "每日动态 · vllm-project/vllm" in zh or "各厂商条目数 · vllm-project/vllm" in zh
    assert '<a href="../2026-03-24/" rel="prev">' in text


def test_strangers_text_is_escaped_on_every_page(
    fixture_site: Site,
) -> None:
    _, root, _ = fixture_site
    for path in root.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert "<script" not in text, path
        assert "<iframe" not in text and "onerror=" not in text.replace("onerror=&", ""), path
        assert "<h1>owned" not in text, path
    shown = visible_text(page(root, "2026-03-25"))
    for title in HOSTILE:  # shown as the text it is, not dropped or half-eaten
        assert title in shown


def visible_text(markup: str) -> str:
    """The page's text as a browser shows it (tags gone, entities decoded)."""

    class Text(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []

        def handle_data(self, data: str) -> None:
            self.parts.append(data)

    parser = Text()
    parser.feed(markup)
    return "".join(parser.parts)


def test_the_feeds_read_back_with_link_date_and_title(
    fixture_site: Site,
) -> None:
    archive, root, _ = fixture_site
    days = sorted((d.isoformat() for d in archive.builder().days()), reverse=True)
    feed = feedparser.parse((root / "feed.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert [entry.link for entry in feed.entries] == [f"{label}/" for label in days]
    for entry, label in zip(feed.entries, days, strict=True):
        assert entry.title == f"vLLM daily report · {label}"
        end = day_window(datetime.fromisoformat(label).date(), CST, CUTOFF).end
        assert datetime.fromisoformat(entry.updated) == end  # the day's window closed then
        assert (root / entry.link / "index.html").is_file()
    amd = feedparser.parse((root / "topics/amd/feed.xml").read_bytes())
    assert not amd.bozo
    assert amd.entries, "AMD had items on the fixture days"
    for entry in amd.entries:
        assert entry.title.startswith("AMD / ROCm on ")
        assert entry.link.endswith("#amd")
        target = (root / "topics/amd" / entry.link.split("#")[0]).resolve()
        assert (target / "index.html").is_file()
        assert "merged" in entry.summary or "new" in entry.summary or "review" in entry.summary


def test_the_links_chat_posts_carry_land_on_pages_the_site_wrote(
    fixture_site: Site,
) -> None:
    archive, root, _ = fixture_site
    files = ReportFiles(Path("unused"), BASE_URL, REPO)
    window = day_window(datetime.fromisoformat("2026-03-25").date(), CST, CUTOFF)
    report = archive.bot.reports.report(ReportQuery(REPO, window, "zh"))
    for lang in ("en", "zh"):
        link = files.link(report, lang)
        assert link is not None and link.startswith(BASE_URL + "/")
        assert (root / link.removeprefix(BASE_URL + "/") / "index.html").is_file()
    digest = files.link(replace(report, topic="amd"), "en")
    assert digest == f"{BASE_URL}/2026-03-25/#amd"
    assert '<section id="amd">' in page(root, "2026-03-25")
    # No page exists for these, so no link is posted for them:
    assert files.link(replace(report, complete=False), "en") is None
    assert files.link(replace(report, repo="someone/else"), "en") is None


def test_a_rebuild_writes_only_what_a_new_day_changed(tmp_path: Path) -> None:
    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        first = archive.build(root)
        assert first.written and not first.removed
        before = archive.github_requests
        again = archive.build(root)
        assert again.written == ()  # nothing changed, nothing written
        assert archive.github_requests == before  # the site never asks GitHub
        untouched = {p: p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}

        archive.archive("2026-03-25")
        after = archive.build(root)
    written = set(after.written)
    new_day = {
        "2026-03-25/index.html",
        "2026-03-25/zh/index.html",
        "2026-03-25/counts.png",
        "2026-03-25/vendors.png",
        "2026-03-25/zh/counts.png",
        "2026-03-25/zh/vendors.png",
    }
    assert new_day <= written
    # The day before gains its "next day" link; its charts end before the new day.
    assert {"2026-03-24/index.html", "2026-03-24/zh/index.html"} <= written
    assert {"index.html", "feed.xml", "topics/amd/index.html", "topics/amd/feed.xml"} <= written
    # Older days: no chart is drawn again (their fortnights end before the new day), and a
    # page changes only where the archive learned something: 03-24 gains its "next day"
    # link, 03-23 names the issues its fix closed (collected with 03-25).
    older = sorted(name for name in written - new_day if name[:4] == "2026")
    assert older == [
        "2026-03-23/index.html",
        "2026-03-23/zh/index.html",
        "2026-03-24/index.html",
        "2026-03-24/zh/index.html",
    ]
    for path, stamp in untouched.items():
        name = path.relative_to(root).as_posix()
        if name not in written and name != ".site-inputs.json":
            assert path.stat().st_mtime_ns == stamp, name


def test_an_empty_archive_builds_an_index_that_says_what_to_do(tmp_path: Path) -> None:
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        built = archive.build(tmp_path / "site")
    assert (built.days, built.pages) == (0, 1)
    text = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert "No report day is archived yet" in text
    assert not feedparser.parse((tmp_path / "site/feed.xml").read_bytes()).bozo


def test_every_link_in_the_daily_post_lands_on_a_section_of_the_page(
    fixture_site: Site,
) -> None:
    from bot.platforms.registry import chat_parts

    archive, root, _ = fixture_site
    files = ReportFiles(Path("unused"), BASE_URL, REPO)
    window = day_window(datetime.fromisoformat("2026-03-25").date(), CST, CUTOFF)
    for lang in ("en", "zh"):
        report = archive.bot.reports.report(ReportQuery(REPO, window, lang))
        for platform in ("slack", "discord"):
            parts = chat_parts(platform, report, lang, link=files.link(report, lang))
            found = set(
                re.findall(re.escape(BASE_URL) + r"/([0-9-]+/(?:zh/)?(?:#[a-z_]+)?)", str(parts))
            )
            assert len(found) >= 4, found  # the page, and each reply its own section
            assert any(link.endswith("#amd") for link in found)  # the vendors reply: AMD's
            for link in found:
                path, _, anchor = link.partition("#")
                text = (root / path / "index.html").read_text(encoding="utf-8")
                assert not anchor or f'id="{anchor}"' in text, link


def test_a_rebuild_makes_again_only_the_days_whose_facts_changed(tmp_path: Path) -> None:
    """The daily rebuild's cost follows what changed, not the archive's size, and the
    site it leaves is the one a build from nothing makes."""
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-11")
        archive.archive("2026-03-24")
        first = archive.build(tmp_path / "site")
        assert len(first.made) == first.days
        again = archive.build(tmp_path / "site")
        assert (again.made, again.written) == ((), ())
        archive.archive("2026-03-25")
        after = archive.build(tmp_path / "site")
        cold = archive.build(tmp_path / "cold")
    # The new day, and days showing items its collection read again; the week before
    # 03-11, which nothing touched, stands as it was.
    assert after.made[-1] == "2026-03-25"
    assert [label for label in after.made if label < "2026-03-11"] == [], after.made
    assert len(cold.made) == cold.days == after.days
    site, from_nothing = (_files(tmp_path / name) for name in ("site", "cold"))
    assert site.keys() == from_nothing.keys()
    assert [name for name in site if site[name] != from_nothing[name]] == []


def _files(root: Path) -> dict[str, bytes]:
    """Every file of a site and its bytes, but the build's own notes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and p.name != ".site-inputs.json"
    }


def test_an_item_retitled_in_the_archive_remakes_the_pages_that_show_it(tmp_path: Path) -> None:
    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-11")
        archive.build(root)
        items = archive.bot.reports.archiver.store.items
        window = day_window(datetime.fromisoformat("2026-03-11").date(), CST, CUTOFF)
        old = archive.bot.reports.report(ReportQuery(REPO, window, "en")).items
        item = next(iter(old.values()))
        archive.now += timedelta(days=2)  # read again two days on, as a later sync would
        retitled = replace(item, title="Retitled: " + item.title, updated_at=archive.now)
        items.save([retitled], archive.now)
        after = archive.build(root)
    assert after.made == ("2026-03-11",)
    assert "Retitled: " in page(root, "2026-03-11")
    assert {"2026-03-11/index.html", "2026-03-11/zh/index.html"} <= set(after.written)


def test_a_page_and_a_chart_someone_deleted_are_made_again(tmp_path: Path) -> None:
    """A person cleans part of the site folder (or a sync to a host lost files): the next
    build puts back every file, page and chart alike, as a build from nothing makes it."""
    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        archive.build(root)
        gone = ["2026-03-20/index.html", "2026-03-21/zh/counts.png", "2026-03-22/vendors.png"]
        for name in gone:
            (root / name).unlink()
        after = archive.build(root)
        cold = archive.build(tmp_path / "cold")
    assert set(gone) <= set(after.written)
    site, from_nothing = _files(root), _files(tmp_path / "cold")
    assert site.keys() == from_nothing.keys()
    assert [name for name in site if site[name] != from_nothing[name]] == []
    assert cold.days == after.days


def test_a_backfilled_day_redraws_the_fortnight_after_it(tmp_path: Path) -> None:
    """An older day archived after later ones (a backfill): the days whose charts and trend
    baselines include it are made again, and the site is the one a build from nothing
    makes; a day more than a fortnight before stands."""
    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        archive.build(root)
        charts_before = (root / "2026-03-24/counts.png").read_bytes()
        archive.archive("2026-03-11")  # its window is 13 days before 03-24's
        after = archive.build(root)
        cold = archive.build(tmp_path / "cold")
    assert "2026-03-24" in after.made  # its fortnight now holds 03-11
    assert "2026-03-24/counts.png" in after.written
    assert (root / "2026-03-24/counts.png").read_bytes() != charts_before
    assert len(cold.made) == cold.days == after.days
    site, from_nothing = _files(root), _files(tmp_path / "cold")
    assert site.keys() == from_nothing.keys()
    assert [name for name in site if site[name] != from_nothing[name]] == []


def test_a_chinese_page_shows_charts_drawn_and_described_in_chinese(fixture_site: Site) -> None:
    """The zh page's charts are their own drawings (labels in Chinese), and their
    descriptions for screen readers are in Chinese too."""
    _, root, _ = fixture_site
    for kind in ("counts", "vendors"):
        zh, en = (root / "2026-03-25" / f / f"{kind}.png" for f in ("zh", "."))
        assert zh.read_bytes() != en.read_bytes(), kind
    alts = re.findall(r'<img src="[a-z]+\.png" alt="([^"]+)"', page(root, "2026-03-25", "zh"))
    assert len(alts) == 2 and all(re.search(r"[\u4e00-\u9fff]", alt) for alt in alts), alts


def test_a_rebuild_with_nothing_new_draws_no_chart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Charts are most of a build's time: one whose figures did not change stands as the
    last build drew it, even on a page made again (a site of a thousand days rebuilt daily
    would draw 4,000 otherwise)."""
    from formatters import charts

    drawn: list[str] = []
    real = charts.chart

    def counted(*args: Any, **kwargs: Any) -> charts.Chart:
        drawn.append(f"{args[0].days[-1].label} {args[1]}")  # the fortnight's last day
        return real(*args, **kwargs)

    monkeypatch.setattr(charts, "chart", counted)
    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        first = archive.build(root)
        assert len(drawn) == 4 * first.days  # two charts, two languages, each day
        drawn.clear()
        archive.build(root)
        assert drawn == []
        archive.archive("2026-03-25")
        after = archive.build(root)
    # 03-24 and 03-23 are made again (a "next day" link, items learned), but their figures
    # did not change: only the new day's charts are drawn.
    assert {"2026-03-24", "2026-03-23"} <= set(after.made)
    assert sorted(drawn) == sorted(f"2026-03-25 {k}" for k in ("counts", "vendors") * 2)


def test_an_event_belongs_to_the_report_day_whose_window_holds_it() -> None:
    """Which fortnight a late event redraws: the window of 2026-03-25 runs from 11:45 in
    Shanghai that day to 11:45 the next, so 11:44 is still the day before."""
    from bot.service.site import SiteBuilder

    builder = SiteBuilder.__new__(SiteBuilder)
    builder.tz, builder.cutoff = CST, time(11, 45)
    at = datetime(2026, 3, 25, 11, 45, tzinfo=CST)
    assert builder._day_of(at) == date(2026, 3, 25)
    assert builder._day_of(at - timedelta(minutes=1)) == date(2026, 3, 24)
    assert builder._day_of(at.astimezone(UTC)) == date(2026, 3, 25)  # 03:45 UTC
    assert builder._day_of((at - timedelta(seconds=1)).astimezone(UTC)) == date(2026, 3, 24)


def test_a_build_tells_its_progress_day_by_day_and_counts_its_files(tmp_path: Path) -> None:
    """`site build` shows "day N of M" as it goes (a first build of a long archive takes
    minutes), and its summary counts the files it left."""
    root = tmp_path / "site"
    said: list[str] = []
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        built = archive.builder().build(root, progress=said.append)
    days = list(built.made)  # a first build makes every day
    assert len(days) == built.days
    assert said == [
        f"building the site: {label}, day {n} of {len(days)}" for n, label in enumerate(days, 1)
    ]
    on_disk = [p for p in root.rglob("*") if p.is_file() and p.name != ".site-inputs.json"]
    assert built.files == len(on_disk) and built.removed == ()
    assert built.pages == sum(1 for p in on_disk if p.suffix == ".html")


def test_a_page_no_longer_part_of_the_site_is_removed(tmp_path: Path) -> None:
    """A page an earlier build wrote that this one does not make (a topic taken out of the
    rules, a day the archive no longer holds whole) is removed and said removed; files the
    bot never wrote (a CNAME for GitHub Pages) stay."""
    import json

    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        archive.build(root)
        gone = root / "topics/retired/index.html"
        gone.parent.mkdir(parents=True)
        gone.write_text("<p>a topic of older rules</p>", encoding="utf-8")
        (root / "CNAME").write_text("reports.example.org\n", encoding="utf-8")
        inputs = root / ".site-inputs.json"
        before = json.loads(inputs.read_text(encoding="utf-8"))
        # and one a person already deleted: nothing to remove, no failure
        before["files"] += ["topics/retired/index.html", "topics/retired/feed.xml"]
        inputs.write_text(json.dumps(before), encoding="utf-8")
        after = archive.build(root)
    assert after.removed == ("topics/retired/feed.xml", "topics/retired/index.html")
    assert not gone.exists()
    assert (root / "CNAME").read_text(encoding="utf-8") == "reports.example.org\n"


def test_a_new_version_of_the_bot_makes_every_page_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages are made by the code as much as by the facts: after an upgrade (the code's
    digest changed) every day is made again, though the archive learned nothing."""
    import bot.service.site as site

    root = tmp_path / "site"
    with FixtureArchive(tmp_path / "data", hostile=False) as archive:
        archive.archive("2026-03-24")
        first = archive.build(root)
        assert archive.build(root).made == ()
        monkeypatch.setattr(site, "code_digest", lambda: b"the next version")
        upgraded = archive.build(root)
    assert len(upgraded.made) == first.days
