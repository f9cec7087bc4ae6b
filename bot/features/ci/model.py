"""Red on main: the failures of vLLM's CI on its main branch, as its public dashboard records
them, and what the report says of them.

The dashboard (ci.vllm.ai, `vllm-project/vllm-dashboard`) keeps one record per failure
episode of a job on main: the first and the last failing build, the passing build that
resolved it (when a pass was observed) and a model-written analysis that may name the PR
it suspects. `bot.features.ci.collect` reads those records and turns them into `Failure`s;
`bot.features.ci.analyze` decides what a window's section says (`CiState`).

Words: a **failure** is one episode (one job red from its first failing build until an
observed pass); it is **open at** a moment when it had begun and no pass was observed by
then; it is **resolved** only by an observed pass (a record closed by hand, or a job that
was cancelled or stopped running, is `closed`, never a fix). **Infrastructure** trouble
(lost agents, expired or timed-out jobs of the fleet, or what the analysis classified as
infra) is kept apart from code failures. A **suspect** is a vLLM PR the analysis names as
the cause; it is shown only when GitHub confirms a merged PR that landed between the job's
last observed pass and its first failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.model.subscriptions import CI_PREFIX as CI_PREFIX
from bot.model.subscriptions import CI_TOPIC as CI_TOPIC
from bot.model.subscriptions import HARDWARE as HARDWARE

# The subscription key of CI news for one hardware (`ci:amd`; `ci` alone: every hardware)
# and the hardware names (HARDWARE) are bot.model.subscriptions' vocabulary.
# States the dashboard gives a failed job attempt that say the fleet failed, not the code.
INFRA_STATES = frozenset({"expired", "timed_out", "broken", "lost"})


# How long before its first failure a suspect may have merged when no earlier pass of the
# job is on record: vLLM's main runs its full CI on every merge, so a job that passed on no
# build for a week is not suspected of a week-old PR by this reading.
NO_PASS_LOOK_BACK_DAYS = 7
# The dashboard keeps resolved records this long (its `/api/alerts/main-ci` says 30 days).
RETAINED_DAYS = 30


@dataclass(frozen=True)
class Build:
    """One run of a failure's job: its build number on main, commit, when it finished."""

    number: int
    commit: str
    at: datetime
    url: str = ""
    state: str = ""  # the job's state in that build: failed, timed_out, passed …


@dataclass(frozen=True)
class Failure:
    """One failure episode as the dashboard recorded it at the read (`last` and `count` are
    as of that read)."""

    alert_id: str
    job: str
    hardware: str  # a key of HARDWARE
    infra: bool  # the fleet's trouble, not the code's
    first: Build
    last: Build
    count: int  # failing runs recorded
    resolved: Build | None  # the observed pass that resolved it
    closed_at: datetime | None  # when the dashboard closed it (with or without a pass)
    suspects: tuple[int, ...] = ()  # vLLM PRs the analysis names as the cause
    fixes: tuple[int, ...] = ()  # vLLM PRs the analysis names as a fix

    def open_at(self, moment: datetime) -> bool:
        return self.first.at <= moment and (self.closed_at is None or self.closed_at > moment)


# Why a PR the analysis named is not shown as the suspect.
DROPPED = (
    "missing",  # GitHub has no such vLLM issue or PR
    "not-asked",  # GitHub could not be asked (no request allowed, or it failed)
    "issue",  # an issue, not a PR
    "unmerged",  # a PR not merged
    "after",  # merged after the first failing build
    "before-pass",  # merged before the job's last observed pass
    "too-old",  # no pass on record and merged over NO_PASS_LOOK_BACK_DAYS before
    "corrected",  # a person said it did not cause the failure
)


@dataclass(frozen=True)
class Suspect:
    """A suspected PR, as GitHub confirmed it (`verified`) or why it is not shown (`why`)."""

    number: int
    title: str = ""
    author: str | None = None
    merged_at: datetime | None = None
    verified: bool = False
    why: str = ""  # why not shown: one of DROPPED
    confirmed_by: str = ""  # "#38200 reverts it", "#38210 fixes it"
    corrected: bool = False  # a person said it is not the cause (`/vllm-ci wrong`)
    by: str = ""  # who corrected it


@dataclass(frozen=True)
class Red:
    """A failure as the section tells it: the failure and its shown suspect (if any)."""

    failure: Failure
    suspect: Suspect | None = None
    dropped: tuple[Suspect, ...] = ()  # named but not shown, each with its reason
    new: bool = False  # its first failure fell in the window


@dataclass(frozen=True)
class Attribution:
    """How the suspects the bot showed have held up: confirmed by a revert or a fix PR that
    names them, corrected by a person, or neither yet."""

    confirmed: int = 0
    corrected: int = 0
    unconfirmed: int = 0

    @property
    def precision(self) -> float | None:
        """Confirmed among those judged (confirmed or corrected); None when none was."""
        judged = self.confirmed + self.corrected
        return self.confirmed / judged if judged else None


@dataclass(frozen=True)
class CiCorrection:
    """A person said PR `number` did not cause failure `alert_id`."""

    alert_id: str
    number: int
    by: str
    at: datetime


@dataclass(frozen=True)
class CiRead:
    """One read of the dashboard: when, whether it worked (else why not), what it held."""

    source: str
    at: datetime
    ok: bool
    problem: str = ""
    records: int = 0
    skipped: int = 0  # records it could not parse
    oldest: datetime | None = None  # when the answer was cut short: its oldest resolution


@dataclass(frozen=True)
class CiState:
    """What the window's "Red on main" section says. `state` is `known`, or `unknown` with
    `why` (the source was down, unparsable, or never read for that day): never zero red."""

    state: str
    source: str
    start: datetime
    end: datetime
    why: str = ""
    read_at: datetime | None = None  # the read it is drawn from
    red: tuple[Red, ...] = ()  # code failures open at the window's end
    infra: tuple[Red, ...] = ()  # infrastructure trouble open at the window's end
    resolved: tuple[Red, ...] = ()  # resolved in the window by an observed pass
    closed: tuple[Red, ...] = ()  # closed in the window without an observed pass
    attribution: Attribution = Attribution()
    skipped: int = 0
    topic: str | None = None  # limited to this hardware

    @property
    def known(self) -> bool:
        return self.state == "known"

    def alerts(self) -> tuple[Red, ...]:
        return (*self.red, *self.infra, *self.resolved, *self.closed)
