"""Personal digests for the daily run: every personal subscription's items of the day (or,
weekly, of the 7 report days up to it), from the archive.

What GitHub is asked, beyond the daily report: only the PR facts (files, requested
reviewers, review decision) of the window's PRs and of linked readers' open PRs of the
look-back, and only when a `path:` or `mine` subscription needs them: one GraphQL request
per 50 PRs, once per version of each PR (bot.collect.sync.Archiver.pull_facts). However
many people subscribe, the day's items are read once and each digest is a filter over them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from bot.analyze.continuity import LOOKBACK_DAYS
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.personal.collect import pull_facts
from bot.features.personal.model import (
    MINE,
    WEEKLY_DAYS,
    Filter,
    NewsFor,
    PersonalDigest,
    PullFacts,
)
from bot.features.personal.selection import personal_digest
from bot.features.personal.store import GitHubLinks
from bot.model.report import ActivityItem, Report
from bot.model.windows import Window, day_window, span_window
from bot.store import Span, Subscription

log = logging.getLogger(__name__)


# The delivery stream of a destination's personal digests: one message a run whatever the
# subscriptions (added or changed between two runs of a day, a rerun still sends nothing).
STREAM = "me"


@dataclass(frozen=True)
class Due:
    """A personal digest due in this run, for one subscription."""

    subscription: Subscription
    digest: PersonalDigest


def by_destination(due: Sequence[Due]) -> list[list[Due]]:
    """The due digests of each destination (a person's DMs on one platform, or a channel),
    in the order one message tells them: daily before weekly (a weekly day's message starts
    with the day), `mine` first (what asks for the reader), then as subscribed."""
    places: dict[tuple[str, str, str], list[Due]] = {}
    for one in due:
        sub = one.subscription
        places.setdefault((sub.platform, sub.target_kind, sub.target_id), []).append(one)
    return [
        sorted(
            group, key=lambda d: (d.subscription.cadence != "daily", d.digest.filter.kind != MINE)
        )
        for group in places.values()
    ]


class PersonalDigests:
    def __init__(
        self,
        archiver: Archiver,
        links: GitHubLinks,
        weekly_on: int = 0,
        news: Sequence[NewsFor] = (),
    ) -> None:
        self.archiver = archiver
        self.links = links
        self.weekly_on = weekly_on  # the weekday of weekly digests, Monday 0
        self.news = tuple(news)  # what other features tell a `mine` reader

    def completed(self, digest: PersonalDigest, report: Report) -> PersonalDigest:
        """The digest as sent: a `mine` digest also carries what other features have for
        its reader in the day's report (Red on main: the failures their PRs are suspected
        of, from the report that read the dashboard)."""
        if digest.filter.kind != MINE or not digest.login:
            return digest
        login = digest.login
        found = tuple(news for tell in self.news if (news := tell(report, login)) is not None)
        return replace(digest, news=found)

    def due(
        self, report: Report, subscriptions: Sequence[Subscription], now: datetime
    ) -> list[Due]:
        """The digests of `report`'s day for these subscriptions, empty ones included (the
        caller sends none of those); off and not-yet-weekly ones are not due."""
        wanted = [(s, rule) for s in subscriptions if (rule := s.key.filter) is not None]
        wanted = [(s, rule) for s, rule in wanted if self._is_due(s.cadence, report.window)]
        if not wanted:
            return []
        logins = self.links.all()
        repo = report.repo
        windows = {"daily": report.window, "weekly": self._week(report.window)}
        items = {
            "daily": list(report.items.values()),
            "weekly": self.archiver.items(repo, Span(windows["weekly"].start, report.window.end))
            if any(s.cadence == "weekly" for s, _ in wanted)
            else [],
        }
        mine = any(rule.kind == MINE for _, rule in wanted)
        earlier = (
            self.archiver.items(
                repo, Span(report.window.start - timedelta(days=LOOKBACK_DAYS), report.window.start)
            )
            if mine
            else []
        )
        rules = [rule for _, rule in wanted]
        facts = self._facts(repo, rules, items, earlier, set(logins.values()), now)
        weekly = any(s.cadence == "weekly" for s, _ in wanted)
        missing: dict[str, tuple[str, ...]] = {
            "daily": (),  # the run's own day: collected, or nothing is posted
            "weekly": self._missing(repo, windows["weekly"]) if weekly else (),
        }
        out = []
        for sub, rule in wanted:
            login = logins.get((sub.platform, sub.created_by)) if rule.kind == MINE else None
            if rule.kind == MINE and login is None:
                continue  # unlinked since it subscribed: nothing to select by
            window = windows[sub.cadence]
            digest = personal_digest(repo, window, rule, items[sub.cadence], facts, login, earlier)
            out.append(Due(sub, replace(digest, missing=missing[sub.cadence])))
        return out

    def one(self, report: Report, rule: Filter, login: str | None, now: datetime) -> PersonalDigest:
        """The digest `rule` gets for `report`'s window (`vllm-report digest`: a preview)."""
        repo, window = report.repo, report.window
        items = list(report.items.values())
        earlier = (
            self.archiver.items(
                repo, Span(window.start - timedelta(days=LOOKBACK_DAYS), window.start)
            )
            if rule.kind == MINE
            else []
        )
        facts = self._facts(
            repo,
            [rule],
            {"daily": items, "weekly": []},
            earlier,
            {login} if login else set(),
            now,
        )
        return personal_digest(repo, window, rule, items, facts, login, earlier)

    def _facts(
        self,
        repo: str,
        rules: Sequence[Filter],
        items: dict[str, list[ActivityItem]],
        earlier: Sequence[ActivityItem],
        logins: set[str],
        now: datetime,
    ) -> dict[int, PullFacts]:
        """The PR facts the due filters read (none unless a path or mine filter is due)."""
        if not any(rule.kind in ("path", MINE) for rule in rules):
            return {}
        linked = {login.lower() for login in logins}
        theirs = [
            it for it in earlier if (it.author or "").lower() in linked and it.state == "open"
        ]
        # Every PR (files, reviews); issues only when a linked person opened them (comments).
        needed = [
            it
            for it in [*items["daily"], *items["weekly"], *theirs]
            if it.kind == "pr" or (it.author or "").lower() in linked
        ]
        read = {it.number: it for it in needed}
        try:
            return pull_facts(self.archiver, repo, read.values(), now)
        except CollectError as exc:  # the digests say what the archive has; the log why
            log.warning("personal digests without new PR facts: %s", exc)
            return pull_facts(self.archiver.reading_only(), repo, read.values(), now)

    def _missing(self, repo: str, week: Window) -> tuple[str, ...]:
        """The report days of `week` the archive does not hold: a weekly digest reads the
        archive alone, so their items are not in it (the daily run collects its own day)."""
        tz = ZoneInfo(week.timezone)
        start = week.start.astimezone(tz)
        days = [
            day_window(start.date() + timedelta(days=n), tz, start.time())
            for n in range(WEEKLY_DAYS)
        ]
        held = self.archiver.covers(repo, [Span(day.start, day.end) for day in days])
        return tuple(day.label for day, covered in zip(days, held, strict=True) if not covered)

    def _is_due(self, cadence: str, window: Window) -> bool:
        """Daily: every report; weekly: the report of the weekly day; off: never."""
        if cadence == "daily":
            return True
        day = window.start.astimezone(ZoneInfo(window.timezone)).date()
        return cadence == "weekly" and day.weekday() == self.weekly_on

    def _week(self, window: Window) -> Window:
        """The 7 report days ending with `window`'s."""
        tz = ZoneInfo(window.timezone)
        start = window.start.astimezone(tz)
        last, cutoff = start.date(), start.time()
        return span_window(last - timedelta(days=WEEKLY_DAYS - 1), last, tz, cutoff)
