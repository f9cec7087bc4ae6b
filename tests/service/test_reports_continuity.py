"""Continuity across days on the real fixture days: 2026-03-24 published, then 2026-03-25.

The fake GitHub serves the anchor days as they were, except that #37975 (featured on
2026-03-24, in review then) merges on the evening of 2026-03-25.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from bot.analyze.continuity import phase, state_at
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.windows import Window, day_window
from bot.platforms.registry import chat_parts
from bot.service.reports import Reports
from formatters.html import report_page
from formatters.json_report import report_to_dict
from formatters.markdown import render_markdown
from formatters.outline import featured, gist_numbers, outline
from tests.anchor_data import REPO
from tests.factories import CST
from tests.sites import CUTOFF, FixtureArchive

MERGED_ON_0325 = 37975
CLOSED_ON_0325 = 37992  # a notable issue of 2026-03-24, filed under vendors and subjects
MERGE_TIME = datetime(2026, 3, 25, 12, tzinfo=UTC)  # 20:00 in Shanghai, inside 2026-03-25


@dataclass
class Days:
    alone: Report  # 2026-03-25 while 2026-03-24 was only shown, not published
    before: Report  # 2026-03-24, published (its report files written)
    after: Report  # 2026-03-25, with its past
    requests: int  # GitHub requests its past cost
    fresh: Report  # 2026-03-25 again, by a pipeline that remembers nothing of 2026-03-24
    fresh_requests: int


def window(label: str) -> Window:
    return day_window(datetime.fromisoformat(label).date(), CST, CUTOFF)


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Days]:
    archive = FixtureArchive(tmp_path_factory.mktemp("data"), hostile=False)
    fake = next(it for it in archive.items if it.number == MERGED_ON_0325)
    fake.merged_at = fake.closed_at = fake.updated_at = MERGE_TIME
    with archive:
        reports = archive.bot.reports
        before = reports.report(ReportQuery(REPO, window("2026-03-24"), "en"))
        alone = reports.report(ReportQuery(REPO, window("2026-03-25"), "en"))
        reports.write(before, "en")  # published, as the daily run and backfill do
        asked = archive.github_requests
        after = reports.facts_only().report(ReportQuery(REPO, window("2026-03-25"), "en"))
        requests = archive.github_requests - asked
        forgetful = Reports(reports.archiver, reports.rules, reports.files, reports.clock)
        fresh = forgetful.report(ReportQuery(REPO, window("2026-03-25"), "en"))
        yield Days(alone, before, after, requests, fresh, archive.github_requests - asked)


def test_featured_then_merged_is_under_since_last_time_with_its_first_day(days: Days) -> None:
    """#37975, featured on 2026-03-24 in review, merged on 2026-03-25: said so there,
    in both languages, in Markdown, JSON, chat and on the site; nothing asked of GitHub."""
    assert days.before.sections is not None
    assert MERGED_ON_0325 in {f.number for f in featured(days.before)}
    found = days.after.continuity
    assert found is not None and found.last_day == "2026-03-24"
    [landed] = [e for e in found.since if e.number == MERGED_ON_0325]
    assert (landed.first_day, landed.then, landed.now) == ("2026-03-24", "review", "merged")
    assert days.requests == 0

    en, zh = render_markdown(days.after, "en"), render_markdown(days.after, "zh")
    assert "## ⏮️ Since last time" in en and "## ⏮️ 自上次日报以来" in zh
    since_en = en.split("## ⏮️ Since last time", 1)[1].split("\n## ", 1)[0]
    assert f"[#{MERGED_ON_0325}]" in since_en
    assert "— featured 03-24 in review → merged today" in since_en
    since_zh = zh.split("## ⏮️ 自上次日报以来", 1)[1].split("\n## ", 1)[0]
    assert "— 03-24 报道时审阅中 → 今日已合并" in since_zh
    assert en.index("## ⏮️ Since last time") < en.index("## 📊 Summary")

    data = json.loads(json.dumps(report_to_dict(days.after)))
    [said] = data["continuity"]["since_last_time"]
    assert said["number"] == MERGED_ON_0325 and said["first_featured"] == "2026-03-24"
    assert (said["then"], said["now"]) == ("review", "merged")
    old = report_to_dict(days.alone)
    assert set(old) < set(data) and set(data) - set(old) == {"continuity"}

    for platform in ("slack", "discord"):
        parts = chat_parts(platform, days.after, "en")
        assert [name for name, _ in parts][:2] == ["headline", "since"]
        assert f"#{MERGED_ON_0325}" in json.dumps(parts[1][1])
    page = report_page(outline(days.after, "zh"))
    assert '<section id="since">' in page and "今日已合并" in page


def test_featured_and_unchanged_is_not_featured_again(days: Days) -> None:
    """What 2026-03-24 featured and has not changed state since is not among 2026-03-25's
    key changes, nor in its gist."""
    end = days.after.window.end
    items = {**days.after.context, **days.after.items}
    unchanged = {
        r.number
        for r in featured(days.before)
        if r.number in items and phase(r.state) == phase(state_at(items[r.number], end))
    }
    assert unchanged  # #37974, a notable issue then, is named by a fix of 2026-03-25
    assert days.after.continuity is not None
    assert unchanged <= set(days.after.continuity.old_news)
    assert days.after.sections is not None
    assert not unchanged & {k.number for k in days.after.sections.key_changes}
    assert not unchanged & set(gist_numbers(days.after, days.after.sections))


def test_a_day_not_published_leaves_the_next_one_alone(days: Days) -> None:
    """2026-03-24 shown but not published: 2026-03-25 stands alone, as before."""
    assert days.alone.continuity is None
    assert "Since last time" not in render_markdown(days.alone, "en")


def test_the_past_is_worked_out_again_from_the_archive_alone(days: Days) -> None:
    """A pipeline that remembers nothing of 2026-03-24 works its featuring out again from
    the archive (no GitHub request) and finds the same past."""
    assert days.fresh_requests == 0
    assert days.fresh.continuity == days.after.continuity


def test_a_topic_digest_says_what_of_its_topic_landed_since_last_time(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The digest of #37992's topics (a notable issue of 2026-03-24, open then, closed as
    completed on 2026-03-25) says it was settled, with its first day; another topic's does
    not; and asking a digest first never replaces what the day itself featured."""
    archive = FixtureArchive(tmp_path_factory.mktemp("data"), hostile=False)
    fake = next(it for it in archive.items if it.number == CLOSED_ON_0325)
    fake.closed_at = fake.updated_at = MERGE_TIME
    fake.state_reason = "completed"
    with archive:
        reports = archive.bot.reports
        before = reports.report(ReportQuery(REPO, window("2026-03-24"), "en"))
        topics = (
            {t for t, found in before.sections.topics.items() if CLOSED_ON_0325 in found.issues}
            if before.sections
            else set()
        )
        ours = sorted(topics)[0]
        other = next(
            t.key for t in reports.rules.topics if t.key not in topics and t.kind == "vendor"
        )
        reports.report(ReportQuery(REPO, window("2026-03-24"), "en", ours))  # a digest first
        reports.write(before, "en")
        fresh = reports.facts_only()
        digest = fresh.report(ReportQuery(REPO, window("2026-03-25"), "en", ours))
        elsewhere = fresh.report(ReportQuery(REPO, window("2026-03-25"), "en", other))
        full = fresh.report(ReportQuery(REPO, window("2026-03-25"), "en"))
        forgetful = Reports(reports.archiver, reports.rules, reports.files, reports.clock)
        unasked = forgetful.report(ReportQuery(REPO, window("2026-03-25"), "en"))
    assert full.continuity == unasked.continuity  # as if no digest had been asked
    assert digest.continuity is not None and full.continuity is not None
    [landed] = [e for e in digest.continuity.since if e.number == CLOSED_ON_0325]
    assert landed.first_day == "2026-03-24"
    assert elsewhere.continuity is not None
    assert CLOSED_ON_0325 not in {e.number for e in elsewhere.continuity.since}
    assert {e.number for e in digest.continuity.since} <= {e.number for e in full.continuity.since}
    parts = chat_parts("slack", digest, "en", only=("since", ours))
    assert [name for name, _ in parts][:2] == ["headline", "since"]


def test_a_featured_pr_approved_since_is_said_so(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A key change of 2026-03-24 still in review gets an approval on the evening of
    2026-03-25: the daily run of 2026-03-25 (made as its window closes) says "approved",
    with its first day, in both languages; `show` of the same day later says the same from
    the archive alone; a review before 2026-03-24 ended is no news."""
    archive = FixtureArchive(tmp_path_factory.mktemp("data"), hostile=False)
    with archive:
        reports = archive.bot.reports
        before = reports.report(ReportQuery(REPO, window("2026-03-24"), "en"))
        assert before.sections is not None
        items = archive._fake.items
        open_prs = [
            it.number
            for it in items.values()
            if it.kind == "pr" and it.merged_at is None and it.closed_at is None
        ]
        featured_open = [r.number for r in featured(before) if r.number in open_prs]
        open_keys = featured_open + [n for n in open_prs if n not in featured_open]
        approved, early = open_keys[0], open_keys[1]
        at = (
            window("2026-03-25").start + (window("2026-03-25").end - window("2026-03-25").start) / 2
        )
        for number, when in ((approved, at), (early, window("2026-03-24").start)):
            fake = archive._fake.items[number]
            fake.reviews.append(
                {
                    "id": 900 + number % 100,
                    "user": "simon-mo",
                    "state": "APPROVED",
                    "submitted_at": when,
                }
            )
            fake.updated_at = max(fake.updated_at, at)
        reports.write(before, "en")
        # The daily run, minutes after the window closed: the live sync brings every item
        # updated since (the approved PR among them), as it does each morning.
        archive.now = window("2026-03-25").end + timedelta(minutes=5)
        daily = reports.report(ReportQuery(REPO, window("2026-03-25"), "en", queue=True))
        later = reports.facts_only().report(ReportQuery(REPO, window("2026-03-25"), "zh"))
    assert daily.continuity is not None
    said = {e.number: e for e in daily.continuity.since}
    assert (said[approved].then, said[approved].now, said[approved].first_day) == (
        "review",
        "approved",
        "2026-03-24",
    )
    assert early not in said
    en = render_markdown(daily, "en").split("## ⏮️ Since last time", 1)[1].split("\n## ", 1)[0]
    assert f"[#{approved}]" in en and "— featured 03-24 in review → approved today" in en
    assert later.continuity is not None
    assert approved in {e.number for e in later.continuity.since}
    zh = render_markdown(later, "zh").split("## ⏮️ 自上次日报以来", 1)[1].split("\n## ", 1)[0]
    assert "03-24 报道时审阅中 → 今日已获批准" in zh


def test_landed_work_the_day_features_anyway_is_told_once_there(days: Days) -> None:
    """Had a key change of 2026-03-25 merged that day been featured on 2026-03-24 in review,
    Since last time would name it a fourth time, after What happened, the summary and Key
    changes: it is told where the day features it, and Since keeps the rest."""
    from dataclasses import replace

    from bot.model.report import Landed

    found = days.after.continuity
    assert found is not None and days.after.sections is not None
    key = next(
        k.number
        for k in days.after.sections.key_changes
        if k.state == "merged" and k.number != MERGED_ON_0325
    )
    landed = Landed(key, "2026-03-24", "review", "merged", days.after.window.end)
    report = replace(days.after, continuity=replace(found, since=(*found.since, landed)))
    for lang, title in (("en", "## ⏮️ Since last time"), ("zh", "## ⏮️ 自上次日报以来")):
        text = render_markdown(report, lang)
        since = text.split(title, 1)[1].split("\n## ", 1)[0]
        assert f"[#{MERGED_ON_0325}]" in since and f"[#{key}]" not in since
    slack = json.dumps(dict(chat_parts("slack", report, "en"))["since"])
    assert f"#{MERGED_ON_0325}" in slack and f"|#{key}>" not in slack
