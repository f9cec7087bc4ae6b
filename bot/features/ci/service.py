"""Red on main for any window: the CI dashboard read (one request, archived), the failures
that touch the window, and each failure's suspect checked with GitHub.

- The daily run reads the dashboard once (`ask`); `vllm-report ci` and `/vllm-ci` read it
  when no read is newer than `FRESH` and the window has ended since the last one. Every
  read is archived (`bot.features.ci.store`), the failed ones with their reason, so a past day's
  state is answered from the archive alone, and a day no read covers is `unknown`, with
  the reason, never zero.
- Suspects come from the archive (the bot archives vLLM's PRs every day); the numbers it
  lacks are asked of GitHub in one GraphQL request (`bot.features.ci.collect.suspects_of`) and
  archived with the lookups, so a number is asked once.
- A suspect shown is **confirmed** when vLLM later merged a revert of it or a fix whose
  title says fix and which names it (the archive's merged PRs), and **corrected** when a
  person said it did not cause that failure (`correct`: `/vllm-ci wrong`). The section
  shows how the suspects shown so far held up (`Attribution`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta

from bot.analyze.references import links, reverted_numbers
from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.ci.analyze import (
    attribution,
    ci_state,
    is_news,
    last_pass,
    of_hardware,
    red_of,
    unknown,
)
from bot.features.ci.collect import CiDashboard, CiUnavailable, suspects_of
from bot.features.ci.model import (
    HARDWARE,
    RETAINED_DAYS,
    CiCorrection,
    CiRead,
    CiState,
    Failure,
    Red,
)
from bot.features.ci.outline import CiPart, ci_of
from bot.features.ci.store import CiArchive
from bot.model.asking import AskError
from bot.model.report import ActivityItem, Report
from bot.model.subscriptions import SubscriptionKey
from bot.model.windows import Window
from bot.store import Span

log = logging.getLogger(__name__)

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
FRESH = timedelta(minutes=10)  # a read this recent is not repeated (a command, both languages)
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
        `ask` and no read is fresh enough (and GitHub asked about new suspects)."""
        if topic is not None and topic not in HARDWARE:
            raise AskError(f"'{topic}' is no hardware CI runs on: say one of {', '.join(HARDWARE)}")
        now = self.clock()
        # A window in progress is told as it stands now.
        start, end = window.start, min(window.end, now)
        if ask and self.archiver.fetch and not self._fresh(end, now):
            self.read()
        covering = self.archive.covering(self.source, start, end)
        if covering is None:
            return unknown(self.source, start, end, self._why_unknown(window), topic)
        every = self.archive.failures(self.source, EPOCH, now)
        touching = [f for f in every if f.first.at <= end and (f.closed_at or now) > start]
        facts = self._facts({n for f in touching for n in f.suspects}, ask, now)
        reds = self._judged(touching, every, facts, now)
        measured = attribution(self._judged(every, every, self._facts(
            {n for f in every for n in f.suspects}, False, now), now))  # fmt: skip
        return ci_state(
            reds, source=self.source, start=start, end=end, read_at=covering.at,
            skipped=covering.skipped, topic=topic, measured=measured,
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
        if number not in failure.suspects:
            named = ", ".join(f"#{n}" for n in failure.suspects) or "no PR"
            raise AskError(f"failure {alert} names {named} as its suspect, not #{number}")
        done = self.archive.correct(CiCorrection(alert, number, by, self.clock()))
        if not done:
            return f"#{number} was already corrected for failure {alert}"
        return (
            f"noted: #{number} did not cause failure {alert} ({failure.job}); the report "
            "will not suspect it of that failure again"
        )

    # -- the steps ---------------------------------------------------------------------------

    def _fresh(self, end: datetime, now: datetime) -> bool:
        last = self.archive.last_read(self.source)
        return last is not None and last.at >= end and now - last.at < FRESH

    def _why_unknown(self, window: Window) -> str:
        last = self.archive.last_read(self.source)
        if last is not None and not last.ok and last.at >= min(window.end, self.clock()):
            return last.problem
        if last is None:
            return f"the CI dashboard at {self.source} has not been read yet"
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

    def _facts(
        self, numbers: Iterable[int], ask: bool, now: datetime
    ) -> dict[int, ActivityItem | None]:
        """GitHub's word on these numbers: archived items, archived "none" answers, then (when
        `ask`) one request for the rest. A number in no answer is left out (not asked)."""
        wanted = sorted(set(numbers))
        found: dict[int, ActivityItem | None] = {
            it.number: it for it in self.archiver.store.items.many(self.repo, wanted)
        }
        looked = self.archiver.looked_up(self.repo, [f"#{n}" for n in wanted if n not in found])
        for key, answer in looked.items():
            if answer.number is None:
                found[int(key[1:])] = None
        missing = [n for n in wanted if n not in found]
        if missing and ask and self.archiver.fetch:
            try:
                with self.archiver.github(self.repo) as github:
                    answers = suspects_of(github(), self.repo, missing)
            except CollectError as exc:
                log.warning("CI suspects not checked: %s", exc)
                return found
            self.archiver.store.items.save([it for it in answers.values() if it], now)
            for number, item in answers.items():
                self.archiver.store.lookups.save(
                    self.repo, f"#{number}", item.number if item else None, now
                )
                found[number] = item
        return found

    def _judged(
        self,
        failures: Sequence[Failure],
        every: Sequence[Failure],
        facts: dict[int, ActivityItem | None],
        now: datetime,
    ) -> list[Red]:
        corrections = self.archive.corrections()
        since = min((f.first.at for f in failures), default=now)
        merged = [
            it
            for it in self.archiver.items(self.repo, Span(since, now + timedelta(seconds=1)))
            if it.kind == "pr" and it.merged_at is not None
        ]
        named = _named_by(merged)
        judged = []
        for failure in failures:
            confirmations = _confirmations(failure, named)
            passed = last_pass(failure, every)
            judged.append(red_of(failure, facts, passed, corrections, confirmations))
        return judged


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


def _confirmations(
    failure: Failure, named: dict[int, list[tuple[datetime, str]]]
) -> dict[int, str]:
    """Which of the failure's suspects were reverted or fixed after it began failing."""
    said = {}
    for number in failure.suspects:
        after = [words for at, words in named.get(number, ()) if at >= failure.first.at]
        if after:
            said[number] = after[0]
    return said


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
        return key.is_ci

    def news(self, report: Report, key: SubscriptionKey) -> tuple[Report, tuple[str, ...]] | None:
        red = ci_of(report)
        if red is None:
            return None
        state = of_hardware(red, key.hardware)
        return (report.with_part(CiPart(state)), ("ci",)) if is_news(state) else None
