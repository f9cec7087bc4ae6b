"""What explains a failure, asked once and archived (`CiArchive.evidence`), so a past day is
told again without a request:

- a job's runs on main (the dashboard's `/api/jobs/runs`): its last pass before the failure
  and its flips, asked again only when the failure has failing runs newer than those kept;
- the blame range's commits (GitHub's compare of the last passing and the first failing
  commit), asked once per pair: commits never change;
- vLLM's `.github/CODEOWNERS`, once a day;
- the GitHub reports of CI failures (label `ci-failure`): two searches per window end,
  the items archived with the bot's other items.

With `ask` False (or no request allowed) only the archive answers; what it lacks is None,
and the section says so rather than guessing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.collect.source import CollectError
from bot.collect.sync import Archiver
from bot.features.ci.analyze import history_of, prs_merged
from bot.features.ci.collect import CiDashboard, CiUnavailable
from bot.features.ci.model import (
    FRESH,
    PASS_LOOK_BACK_DAYS,
    RETAINED_DAYS,
    BlameRange,
    Failure,
    History,
)
from bot.features.ci.reported import LABEL
from bot.features.ci.store import CiArchive, build_dict, build_of
from bot.model.report import ActivityItem

log = logging.getLogger(__name__)

CODEOWNERS = ".github/CODEOWNERS"
RUNS_PER_ASK = 40  # the most failing jobs whose runs one ask reads; the rest on the next


@dataclass
class Evidence:
    archiver: Archiver
    archive: CiArchive
    dashboard: CiDashboard
    source: str
    repo: str
    clock: Callable[[], datetime]
    # Runs requests one ask may still make (`begin` sets it): a day with many failing
    # jobs, or a dashboard whose runs route fails, never holds a daily post for long.
    runs_left: int = 0

    def begin(self) -> None:
        self.runs_left = RUNS_PER_ASK

    def history(self, failure: Failure, ask: bool) -> History | None:
        """The job's last pass and flips around the failure (None: its runs never read)."""
        kept = self.archive.evidence(self.source, "runs", failure.alert_id)
        through = failure.last.at.isoformat()
        stale = kept is None or kept["through"] < through
        if ask and self.archiver.fetch and stale and self.runs_left > 0:
            self.runs_left -= 1
            start = min(
                failure.first.at - timedelta(days=PASS_LOOK_BACK_DAYS),
                failure.last.at - timedelta(days=RETAINED_DAYS),
            )
            try:
                runs = self.dashboard.runs(failure.job, start, failure.last.at)
            except CiUnavailable as exc:
                log.info("CI runs of %s not read: %s", failure.job, exc)
                self.runs_left = 0  # the dashboard is unwell: no more waits on it this time
            else:
                kept = {"through": through, "runs": [build_dict(r) for r in runs]}
                self.archive.keep_evidence(
                    self.source, "runs", failure.alert_id, kept, self.clock()
                )
        if kept is None:
            return None
        runs = [b for b in (build_of(r) for r in kept["runs"]) if b is not None]
        return history_of(runs, failure)

    def blame(self, failure: Failure, history: History | None, ask: bool) -> BlameRange | None:
        """The merged PRs between the job's last pass and its first failure (None: no last
        pass on record, or GitHub could not say)."""
        if history is None or history.last_pass is None:
            return None
        base, head = history.last_pass.commit, failure.first.commit
        key = f"{base}...{head}"
        kept = self.archive.evidence(self.source, "range", key)
        if kept is None and ask and self.archiver.fetch:
            try:
                with self.archiver.github(self.repo) as github:
                    messages = github().commits_between(base, head)
            except CollectError as exc:
                log.warning("CI blame range not read: %s", exc)
                return None
            kept = {"messages": messages}
            self.archive.keep_evidence(self.source, "range", key, kept, self.clock())
        if kept is None or kept["messages"] is None:
            return None
        return BlameRange(base, head, prs_merged(kept["messages"]))

    def codeowners(self, ask: bool) -> str:
        """vLLM's CODEOWNERS as kept (asked again once a day); "" when never read."""
        kept = self.archive.evidence(self.source, "owners", self.repo)
        now = self.clock()
        stale = kept is None or datetime.fromisoformat(kept["at"]) < now - timedelta(days=1)
        if stale and ask and self.archiver.fetch:
            try:
                with self.archiver.github(self.repo) as github:
                    text = github().file_text(CODEOWNERS, "main") or ""
            except CollectError as exc:
                log.warning("CODEOWNERS not read: %s", exc)
            else:
                kept = {"at": now.isoformat(), "text": text}
                self.archive.keep_evidence(self.source, "owners", self.repo, kept, now)
        return kept["text"] if kept else ""

    def reports(self, start: datetime, end: datetime, ask: bool) -> list[ActivityItem] | None:
        """The `ci-failure` issues opened in the RETAINED_DAYS before the window's end or
        closed in the window (None: never asked). GitHub's searches take UTC dates, so an
        answer serves every window of the same dates; it is asked again only when it was
        asked over FRESH before the end told (today, as it goes on)."""
        first, last = start.astimezone(UTC).date(), end.astimezone(UTC).date()
        since = last - timedelta(days=RETAINED_DAYS)
        key = f"{since}..{last} {first}"
        kept = self.archive.evidence(self.source, "reports", key)
        stale = kept is None or datetime.fromisoformat(kept["at"]) < end - FRESH
        if stale and ask and self.archiver.fetch:
            base = f"repo:{self.repo} is:issue label:{LABEL}"
            queries = (f"{base} created:{since}..{last}", f"{base} closed:{first}..{last}")
            try:
                with self.archiver.github(self.repo) as github:
                    found = [
                        it for q in queries for it in github().search_list(q, items=True).items
                    ]
            except CollectError as exc:
                log.warning("CI failure reports not read: %s", exc)
            else:
                now = self.clock()
                self.archiver.store.items.save(found, now)
                kept = {"at": now.isoformat(), "numbers": sorted({it.number for it in found})}
                self.archive.keep_evidence(self.source, "reports", key, kept, now)
        if kept is None:
            return None
        return self.archiver.store.items.many(self.repo, kept["numbers"])
