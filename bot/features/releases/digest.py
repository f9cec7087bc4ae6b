"""What a `releases` subscriber gets: on the daily run whose window saw a release published,
the report of the window from the release before it to this one (what merged between them,
by vendor and area, with the report's checked facts); nothing on any other day.

A release is what GitHub's releases list says (bot.collect.releases, read at most hourly),
so a release published between two daily runs is told once, by the run whose window holds
its publication."""

from __future__ import annotations

import logging

from bot.collect.source import CollectError
from bot.features import FeatureContext
from bot.model.query import ReportQuery
from bot.model.report import Report
from bot.model.subscriptions import KeyForm, SubscriptionKey
from bot.model.windows import Window, WindowError

log = logging.getLogger(__name__)

RELEASES = "releases"
NAME = "release"  # "the release digest", as /vllm-subscribe says it
# What the digest shows of the release's report: what it amounts to, each vendor's work, the
# key technical changes (the appendix lists every item; the report site has it whole).
SECTIONS = ("summary", "vendors", "key")
KEY_FORMS = (KeyForm(RELEASES, alone=True, name=lambda key: NAME),)


class ReleaseDigests:
    """`releases` subscriptions, answered from the day's report window and the archive."""

    def __init__(self, ctx: FeatureContext) -> None:
        # Each subscriber's report is made again: the archive answers it, the prose is kept.
        self.ctx = ctx

    def wants(self, key: SubscriptionKey) -> bool:
        return key.kind == RELEASES

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]] | None:
        window = self.window(report)
        if window is None:
            return None
        made = self._report(report, window)
        return (made, SECTIONS) if made is not None else None

    def window(self, report: Report) -> Window | None:
        """From the release before the one published in `report`'s window to it; None on a
        day no release came out (or the releases could not be read: said in the log)."""
        ctx = self.ctx
        repo = ctx.settings.repo
        if report.repo != repo or report.topic is not None:
            return None
        try:
            newest = ctx.archiver.release(repo, None, ctx.clock())
        except (WindowError, CollectError) as exc:
            log.warning("the release digest could not read %s's releases: %s", repo, exc)
            return None
        if not report.window.contains(newest.at):
            return None
        before = ctx.store.releases.before(repo, newest.at)
        if before is None:
            return None
        days = (newest.at - before.at).days + 1
        if days > ctx.settings.max_range_days:  # a release after a long pause: no year's report
            log.warning(
                "no release digest for %s: %d days since %s, more than the %d-day limit "
                "(VLLM_REPORT_MAX_RANGE_DAYS)",
                newest.tag,
                days,
                before.tag,
                ctx.settings.max_range_days,
            )
            return None
        tz = report.window.start.tzinfo
        label = f"{before.tag}..{newest.tag}"
        return Window(
            before.at.astimezone(tz),
            newest.at.astimezone(tz),
            report.window.timezone,
            label,
            since=before.tag,
        )

    def _report(self, report: Report, window: Window) -> Report | None:
        reports = self.ctx.reports
        if reports is None:
            return None
        try:
            return reports.report(ReportQuery(report.repo, window, self.ctx.settings.lang))
        except CollectError as exc:
            log.warning("the release digest of %s could not be made: %s", window.label, exc)
            return None
