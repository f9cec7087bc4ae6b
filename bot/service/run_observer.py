"""What a daily run tells, step by step: its log lines, its metrics, the health check.

bot.service.daily_run does the steps and hands each outcome here, so its `__call__` reads as
the run itself (report → files → site → channels → digests) and every figure a person reads
in the log or on /metrics is made in one place. Each part of the observer is optional:
`vllm-report post` from the command line has no metrics, health check or GitHub meter.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from bot.model.errors import masked
from bot.model.report import Report
from bot.observe.logs import event, problem
from bot.platforms.registry import platform_named

if TYPE_CHECKING:
    from bot.observe.github_meter import GitHubMeter
    from bot.observe.metrics import Metrics
    from bot.service.health import RunHealth
    from bot.service.site import SiteBuild

log = logging.getLogger("bot.service.daily_run")  # the name operators filter on


@dataclass(frozen=True)
class DestinationResult:
    """What one destination (a channel, or a subscriber's digest) got in one run."""

    destination: str  # its key: `slack:C1`, `discord:1#digest-amd`
    sent: int = 0  # messages sent now (or found posted by a run that died before noting it)
    skipped: int = 0  # messages an earlier run had posted
    failed: str | None = None  # why the destination refused, in the platform's words

    @property
    def platform(self) -> str:
        return self.destination.split(":", 1)[0].removesuffix("-dm")


@dataclass(frozen=True)
class SyncStarted:
    """Where the GitHub meter and the clock stood when a report was asked for."""

    requests: int
    began: float


@dataclass
class JobObserver:
    """Where a run's figures go: the metrics, the health check, the GitHub meter."""

    metrics: Metrics | None = None
    health: RunHealth | None = None
    meter: GitHubMeter | None = None

    def sync_started(self) -> SyncStarted:
        return SyncStarted(self.meter.requests if self.meter else 0, time.perf_counter())

    def synced(self, started: SyncStarted, label: str, report: Report) -> None:
        """The report is made: how long it took and what it cost at GitHub."""
        took = time.perf_counter() - started.began
        meter, metrics = self.meter, self.metrics
        requests = meter.requests - started.requests if meter is not None else None
        left = meter.remaining() if meter is not None else None
        if metrics is not None:
            metrics.report_build.observe(took)
            if report.complete:
                metrics.last_sync.set(time.time())
            if report.prose is not None:
                prose = report.prose
                metrics.prose_sentences.labels(verdict="shown").inc(prose.kept)
                metrics.prose_sentences.labels(verdict="dropped").inc(prose.dropped)
                metrics.prose_requests.labels(source="model").inc(prose.calls)
                metrics.prose_requests.labels(source="cache").inc(prose.cached)
        event(
            log,
            "sync",
            "synced %s: %s GitHub requests, %d items, report made in %.1f s%s",
            label,
            "?" if requests is None else requests,
            len(report.items),
            took,
            f" (rate limit: {left} left)" if left is not None else "",
            window=label,
            requests=requests,
            items=len(report.items),
            seconds=round(took, 3),
            rate_limit_remaining=left,
            complete=report.complete,
        )

    def incomplete(self, label: str, report: Report) -> None:
        problem(
            log,
            "incomplete",
            "report %s is incomplete (%s); archived as partial, not posted",
            label,
            "; ".join(report.notes) or "GitHub did not give everything",
            window=label,
        )

    def site_built(self, root: Path, built: SiteBuild) -> None:
        if self.metrics is not None:
            self.metrics.site_build.observe(built.seconds)
        event(
            log,
            "site",
            "report site %s: %d days, %d files written in %.1f s",
            root,
            built.days,
            len(built.written),
            built.seconds,
            days=built.days,
            written=len(built.written),
            seconds=round(built.seconds, 3),
        )

    def site_failed(self, root: Path, exc: Exception) -> None:
        """A site that cannot be built is told; the post goes on."""
        if isinstance(exc, OSError):
            problem(
                log,
                "site-failed",
                "the report site was not rebuilt (cannot write %s: %s): the post goes on; make "
                "the folder writable or set VLLM_REPORT_SITE_DIR",
                exc.filename or root,
                exc.strerror or exc,
            )
            return
        log.debug("site build failed", exc_info=exc)
        problem(
            log,
            "site-failed",
            "the report site was not rebuilt (%s: %s): the post goes on; "
            "`vllm-report -vv site build %s` shows why",
            type(exc).__name__,
            exc,
            root,
        )

    def delivered(
        self, label: str, results: Sequence[DestinationResult], copies_left: Sequence[str]
    ) -> None:
        """One line per destination (or one saying the run is archive-only), its counts on
        /metrics, and every copy a person must delete by hand."""
        if not results:
            event(
                log, "post", "archived %s (no chat destination: archive-only)", label, window=label
            )
        for done in results:
            self._count(done)
            if done.failed:
                problem(
                    log,
                    "post-failed",
                    "posting %s to %s failed: %s; %s",
                    label,
                    done.destination,
                    done.failed,
                    platform_named(done.platform).destination_hint(),
                    window=label,
                    destination=done.destination,
                )
                continue
            event(
                log,
                "post",
                "posted %s to %s: %d messages sent, %d already there",
                label,
                done.destination,
                done.sent,
                done.skipped,
                window=label,
                destination=done.destination,
                sent=done.sent,
                skipped=done.skipped,
            )
        for copy in copies_left:
            problem(log, "copy-left", "%s", copy, window=label)

    def quiet(self, label: str, destination: str, topic: str) -> None:
        """A subscriber's topic had nothing in the window: no digest is sent."""
        event(
            log,
            "digest-quiet",
            "no %s digest for %s to %s: nothing of the topic in the window",
            topic,
            label,
            destination,
            window=label,
            destination=destination,
            topic=topic,
        )

    def run_ended(self, label: str, reason: str | None, at: datetime) -> None:
        """The run's outcome for /healthz and the metrics (`reason`: why it is not done)."""
        if self.metrics is not None:
            self.metrics.last_run_failed.set(1 if reason else 0)
            if reason is None:
                self.metrics.last_post.set(time.time())
        if self.health is not None:
            told = masked(reason) if reason else None  # a destination's refusal, as it said it
            self.health.record(label, reason is None, told, at)

    def _count(self, done: DestinationResult) -> None:
        if self.metrics is None:
            return
        posts, key, platform = self.metrics.posts, done.destination, done.platform
        posts.labels(platform=platform, destination=key, outcome="sent").inc(done.sent)
        posts.labels(platform=platform, destination=key, outcome="skipped").inc(done.skipped)
        if done.failed:
            posts.labels(platform=platform, destination=key, outcome="failed").inc()
