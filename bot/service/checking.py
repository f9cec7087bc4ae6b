"""`vllm-report check`: any report text read for its claims, each checked against the facts
of its window (bot.analyze.claims), the facts read from the archive and fetched like `show`
fetches them when missing.

The window is the one the text says (its "Window: 2026-03-25 11:43 ~ …" or "时间窗口:
2026-03-25 11:43 (UTC+8) ~ …" line), else `--day` and `--cutoff`. Items the text cites from
outside the window are read too, so "PR #37128" of an earlier day can be checked. A window
the archive cannot give whole makes its counts unverifiable, never wrong.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, datetime
from datetime import time as time_of_day
from zoneinfo import ZoneInfo

from bot.analyze.claims import Facts, claims_in, sentences
from bot.analyze.topics import classify
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.model.claims import CheckResult
from bot.model.query import ReportQuery
from bot.model.report import ActivityItem
from bot.model.rules import TopicRules
from bot.model.windows import Window, day_window
from bot.service.reports import Reports

SCHEMA = "vllm-check/1"
_WINDOW_LINE = re.compile(
    r"(?:时间窗口|Window)\s*[:：]\s*(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})", re.I
)
_TITLE_DAY = re.compile(r"(?:报告|report)\D{0,12}(\d{4}-\d{2}-\d{2})", re.I)
_CITED = re.compile(r"(?<![\w&/])#(\d{2,7})\b")
# Items of other days a text cites, asked of GitHub one request each when the archive lacks
# them: a report cites a few dozen such at most, and a text citing hundreds must not spend
# the hour's rate limit.
MAX_LOOK_UPS = 60


def window_of(text: str, tz: ZoneInfo, cutoff: time_of_day) -> Window | None:
    """The report day a text says it covers, with its own cutoff when it gives one."""
    found = _WINDOW_LINE.search(text)
    if found is not None:
        hours, minutes = (int(x) for x in found.group(2).split(":"))
        return day_window(date.fromisoformat(found.group(1)), tz, time_of_day(hours, minutes))
    titled = _TITLE_DAY.search(text)
    if titled is not None:
        return day_window(date.fromisoformat(titled.group(1)), tz, cutoff)
    return None


def check_text(
    reports: Reports, rules: TopicRules, text: str, window: Window, repo: str, lang: str = "en"
) -> CheckResult:
    """Every claim of `text` about `repo`'s `window`, checked."""
    report = reports.facts_only().report(ReportQuery(repo, window, lang))
    cited = {int(n) for n in _CITED.findall(text)}
    missing = cited - set(report.items) - set(report.context)
    known = cited_items(reports.archiver, repo, missing, reports.clock())
    facts = Facts(report, known, lambda item: set(classify(item, rules)), rules.vendor_names())
    claims = claims_in(text, facts)
    if not report.complete:  # figures of a window not archived whole prove nothing
        claims = [
            replace(c, verdict="unverifiable", truth="the window is not archived whole")
            if c.type == "count"
            else c
            for c in claims
        ]
    quotes = {c.quote for c in claims if c.verdict != "unverifiable"}
    read = [s.text for s in sentences(text, facts)]
    return CheckResult(window, tuple(claims), len(read), sum(1 for s in read if s in quotes))


def cited_items(
    archiver: Archiver, repo: str, numbers: set[int], now: datetime
) -> dict[int, ActivityItem]:
    """The items of other days a text cites: from the archive, else asked of GitHub (once:
    an answer, even "no such item", is archived), so "PR #37128" of two weeks before is
    judged on its facts, not left unverifiable."""
    if not numbers:
        return {}
    known = {it.number: it for it in archiver.named(repo, numbers)}
    asked = archiver.looked_up(repo, (f"#{n}" for n in numbers - set(known)))
    unasked = sorted(n for n in numbers - set(known) if f"#{n}" not in asked)
    for number in unasked[:MAX_LOOK_UPS] if archiver.fetch else ():
        try:
            found = archiver.look_up(repo, f"#{number}", now)
        except CollectError:  # GitHub down or the limit spent: the rest stay unverifiable
            break
        if found is not None:
            known[found.number] = found
    return known
