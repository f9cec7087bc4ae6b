"""Red on main for any window: the CI dashboard read (one request, archived), the failures
that touch the window with their evidence, and GitHub's reports of CI failures.

- The daily run reads the dashboard once (`ask`); `vllm-report ci` and `/vllm-ci` read it
  when the archive holds no read that covers the window: again after RETRY when the last
  read failed, not more often than FRESH when it worked. Every read is archived
  (`bot.features.ci.store`), the failed ones with their reason, so a past day is answered
  from the archive alone, and a day no read covers is `unknown` with its real reason.
- Evidence, asked once and archived: each failing job's runs (`/api/jobs/runs`: its last
  pass, its flips), the blame range between that pass and the first failure (GitHub's
  compare), vLLM's CODEOWNERS (who owns the failing test), the `ci-failure` reports on
  GitHub (two searches a day), and the range's PRs (one GraphQL request for those the
  archive lacks).
- A suspect is confirmed by a revert of it, or a fix naming it, merged while the job was
  red (the archive's merged PRs), and never a PR a person cleared (`/vllm-ci wrong`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from bot.analyze.references import links, reverted_numbers
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.ci.analyze import ci_state, is_news, of_hardware, red_of, unknown
from bot.features.ci.collect import CiDashboard, CiUnavailable, suspects_of
from bot.features.ci.evidence import Evidence
from bot.features.ci.model import (
    FRESH,
    HARDWARE,
    RETAINED_DAYS,
    CiCorrection,
    CiRead,
    CiState,
    Failure,
    Red,
    Reported,
    is_ci,
    key_hardware,
)
from bot.features.ci.outline import CiPart, ci_of
from bot.features.ci.reported import also_on_dashboard, reported_of
from bot.features.ci.store import CiArchive
from bot.features.ci.words import when
from bot.model.asking import AskError
from bot.model.report import ActivityItem, Report
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window
from bot.store import Span

if TYPE_CHECKING:
    from bot.features import FeatureContext

log = logging.getLogger(__name__)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
RETRY = timedelta(seconds=30)  # a read that failed is tried again after this
_FIX_TITLE = re.compile(r"\bfix", re.I)


class CiService:
    def __init__(
        self,
        archiver: Archiver,
        source: str,
        clock: Callable[[], datetime],
        repo: str,
        dashboard: CiDashboard | None = None,
    ) -> None:
        self.archiver = archiver
        self.source = source.rstrip("/")
        self.clock = clock
        self.repo = repo
        self.dashboard = dashboard or CiDashboard(self.source)
        self.archive = CiArchive.of_store(archiver.store)
        self.evidence = Evidence(archiver, self.archive, self.dashboard, self.source, repo, clock)

    def read(self) -> CiRead:
        """One request to the dashboard, archived with what it held or why it failed."""
        now = self.clock()
        try:
            answer = self.dashboard.read()
        except CiUnavailable as exc:
            read = CiRead(self.source, now, ok=False, problem=str(exc))
            self.archive.keep(read)
            log.info("CI state unknown: %s", exc)
            return read
        read = CiRead(
            self.source, now, True, records=answer.records, skipped=answer.skipped,
            oldest=answer.oldest,
        )  # fmt: skip
        self.archive.keep(read, answer.failures)
        return read

    def state(self, window: Window, *, ask: bool = False, topic: str | None = None) -> CiState:
        """The window's section: from the archive, after one read of the dashboard when
        `ask` and no read covers the window (and the evidence asked for what is new)."""
        if topic is not None and topic not in HARDWARE:
            raise AskError(f"'{topic}' is no hardware CI runs on: say one of {', '.join(HARDWARE)}")
        now = self.clock()
        # A window in progress is told as it stands now, in the window's own zone.
        start, end = window.start, min(window.end, now).astimezone(window.end.tzinfo)
        if ask and self.archiver.fetch and self._due(end, now):
            self.read()
        covering = self.archive.covering(self.source, start, end)
        if covering is None and window.end > now:
            # Today, as the last read that worked saw it (a read is not repeated within FRESH).
            last = self.archive.last_read(self.source)
            if last is not None and last.ok and now - last.at < FRESH and last.at > start:
                end = last.at.astimezone(window.end.tzinfo)
                covering = self.archive.covering(self.source, start, end)
        if covering is None:
            return unknown(self.source, start, end, self._why_unknown(window, end), topic)
        touching = self.archive.failures(self.source, start, end)
        self.evidence.begin()
        # vLLM's merged PRs, read once: reverts and fixes of suspects, fixes of reports.
        since = min((f.first.at for f in touching), default=start)
        span = Span(min(since, start - timedelta(days=RETAINED_DAYS)), now + timedelta(seconds=1))
        merged = [
            it
            for it in self.archiver.items(self.repo, span)
            if it.kind == "pr" and it.merged_at is not None
        ]
        reds = self._judged(touching, merged, ask)
        reported = self._reported(start, end, touching, merged, ask)
        return ci_state(
            reds, reported, source=self.source, start=start, end=end, read_at=covering.at,
            skipped=covering.skipped, topic=topic,
        )  # fmt: skip

    def correct(self, alert_id: str, said_pr: str, by: str) -> str:
        """`/vllm-ci wrong <failure> <PR>`: that PR did not cause that failure (one sentence)."""
        alert = alert_id.strip().lstrip("#")
        failure = self.archive.known(self.source, alert)
        if failure is None:
            raise AskError(
                f"no CI failure {alert_id!r} is on record: use the failure number the CI "
                "section shows (`vllm-report ci`)"
            )
        number = _number(said_pr)
        blame = self.evidence.blame(failure, self.evidence.history(failure, False), False)
        named = (failure.analysis.named if failure.analysis else ()) + (blame.prs if blame else ())
        if number not in named:
            listed = ", ".join(f"#{n}" for n in dict.fromkeys(named)) or "no PR"
            raise AskError(
                f"failure {alert} has {listed} in its analysis or blame range, not #{number}"
            )
        done = self.archive.correct(CiCorrection(alert, number, by, self.clock()))
        if not done:
            return f"#{number} was already corrected for failure {alert}"
        return (
            f"noted: #{number} did not cause failure {alert} ({failure.job}); the report "
            "will not suspect it of that failure again"
        )

    # -- the steps ---------------------------------------------------------------------------

    def _due(self, end: datetime, now: datetime) -> bool:
        """Whether to read the dashboard: no read at or after `end` worked, and the last
        read is older than RETRY (it failed) or FRESH (it worked)."""
        last = self.archive.last_read(self.source)
        if last is None:
            return True
        if last.ok and last.at >= end:
            return False
        return now - last.at >= (FRESH if last.ok else RETRY)

    def _why_unknown(self, window: Window, end: datetime) -> str:
        last = self.archive.last_read(self.source)
        if last is None:
            return f"the CI dashboard at {self.source} has not been read yet"
        if not last.ok and (last.at >= end or window.end > self.clock()):
            # The read meant to cover this window failed: its own reason, and when.
            return f"{last.problem} (read at {when(last.at, window.end.tzinfo)})"
        if window.end - window.start > timedelta(days=RETAINED_DAYS):
            # One read tells what ended in the 30 days before it: a longer window cannot be
            # told whole, whatever the archive holds. Said so, rather than "not read".
            return (
                f"{window.label} is longer than the {RETAINED_DAYS} days one read of the CI "
                f"dashboard covers: ask for {RETAINED_DAYS} days or fewer"
            )
        return (
            f"no read of the CI dashboard covers {window.label} (it is read on each daily "
            f"run and keeps resolved failures {RETAINED_DAYS} days)"
        )

    def _facts(self, numbers: Iterable[int], ask: bool) -> dict[int, ActivityItem | None]:
        """GitHub's word on these PRs: the archive's items, then (when `ask`) one request for
        the rest. A number in no answer is left out (not asked)."""
        wanted = sorted(set(numbers))
        found: dict[int, ActivityItem | None] = {
            it.number: it for it in self.archiver.store.items.many(self.repo, wanted)
        }
        missing = [n for n in wanted if n not in found]
        if missing and ask and self.archiver.fetch:
            try:
                with self.archiver.github(self.repo) as github:
                    answers = suspects_of(github(), self.repo, missing)
            except CollectError as exc:
                log.warning("CI suspects not checked: %s", exc)
                return found
            self.archiver.store.items.save([it for it in answers.values() if it], self.clock())
            found.update(answers)
        return found

    def _judged(
        self, failures: Sequence[Failure], merged: Sequence[ActivityItem], ask: bool
    ) -> list[Red]:
        """Each failure with its evidence: the job's runs, the blame range, the suspect the
        evidence singles out, who to ask."""
        corrections = self.archive.corrections()
        named_by = _named_by(merged)
        tested = any(f.analysis and f.analysis.test for f in failures)
        owners = self.evidence.codeowners(ask) if tested else ""
        judged = []
        for failure in failures:
            history = None if failure.infra else self.evidence.history(failure, ask)
            blame = self.evidence.blame(failure, history, ask)
            cleared = [c.number for c in corrections if c.alert_id == failure.alert_id]
            judged.append((failure, history, blame, cleared))

        def reds(facts: dict[int, ActivityItem | None]) -> list[Red]:
            return [red_of(f, h, b, facts, named_by, c, owners) for f, h, b, c in judged]

        # GitHub is asked about the suspects alone (their title and author), not every PR
        # of every range.
        suspects = {r.suspect.number for r in reds({}) if r.suspect is not None}
        return reds(self._facts(suspects, ask))

    def _reported(
        self,
        start: datetime,
        end: datetime,
        failures: Sequence[Failure],
        merged: Sequence[ActivityItem],
        ask: bool,
    ) -> list[Reported]:
        """GitHub's reports of CI failures that the dashboard does not already tell, each
        with the merged PR (by the window's end) that says it fixes it."""
        items = self.evidence.reports(start, end, ask) or []
        fixes = {
            link.target: it.number
            for it in merged
            if it.merged_at is not None and it.merged_at <= end
            for link in links(it.title, it.body, it.repo, it.number)
            if link.kind == "fixes"  # "Fixes #34637", not a mention
        }
        jobs = [f.job for f in failures]
        found = []
        for item in items:
            report = reported_of(item, fixes.get(item.number))
            if report is not None and not also_on_dashboard(report, jobs):
                found.append(report)
        return found


def _named_by(merged: Sequence[ActivityItem]) -> dict[int, list[tuple[datetime, str]]]:
    """Each PR vLLM later reverted, or fixed with a PR whose title says fix and which names
    it: when, and in which words ("#38200 reverts it"), earliest first."""
    found: dict[int, list[tuple[datetime, str]]] = {}
    for item in sorted(merged, key=lambda it: (it.merged_at or EPOCH, it.number)):
        if item.merged_at is None:
            continue
        for number in reverted_numbers(item):
            found.setdefault(number, []).append((item.merged_at, f"#{item.number} reverts it"))
        if _FIX_TITLE.search(item.title):
            for link in links(item.title, item.body, item.repo, item.number):
                said = f"#{item.number} fixes it"
                found.setdefault(link.target, []).append((item.merged_at, said))
    return found


def _number(said: str) -> int:
    text = said.strip().removeprefix("vllm").lstrip("#")
    if "/pull/" in text:
        text = text.rsplit("/pull/", 1)[1].strip("/")
    if not text.isdigit():
        raise AskError(f"'{said}' is not a vLLM PR: write its number, e.g. 38139")
    return int(text)


def with_ci(report: Report, service: CiService, *, ask: bool = False) -> Report:
    """The report with its Red on main section (vLLM's own CI; a report of another repository
    has none)."""
    if report.repo != service.repo or report.topic is not None:
        return report
    return report.with_part(CiPart(service.state(report.window, ask=ask)))


class CiDigests:
    """`ci` and `ci:<hardware>` subscriptions: Red on main for one hardware (or all), on a
    day with news (a new failure, a job passing again, or the dashboard unreadable)."""

    def wants(self, key: SubscriptionKey) -> bool:
        return is_ci(key)

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]] | None:
        red = ci_of(report)
        if red is None:
            return None
        state = of_hardware(red, key_hardware(key))
        return (report.with_part(CiPart(state)), ("ci",)) if is_news(state) else None


def ci_service(ctx: FeatureContext) -> CiService | None:
    """Red on main over VLLM_REPORT_CI_URL's dashboard (None when it is off)."""
    source = ctx.settings.ci_source
    if source is None:
        return None
    return CiService(ctx.archiver, source, ctx.clock, ctx.settings.repo)
