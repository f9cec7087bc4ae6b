"""Red on main: the failures of vLLM's CI on its main branch, as its public dashboard records
them, the GitHub issues that report CI failures the dashboard does not read (AMD's own CI
among them), and what the report says of them.

The dashboard (ci.vllm.ai, `vllm-project/vllm-dashboard`) keeps one record per failure
episode of a job on main, keyed by the job's `jobKey`: its first and last failing job run,
the run that closed it, and a model-written analysis of the *latest* failure (a
classification, a summary in prose; no culprit field). What those fields mean, as the
dashboard's own code writes them:

- a record closed by hand (`resolve` route) points its resolution at its own last failing
  job and still reads `state: "passed"`: **closed by hand, no pass seen**, never a fix;
- the analysis classes a failure `code`, `flaky` or `infra`; the state decides only where
  there is no analysis (`broken` and `timed_out` are the fleet's; a hung server classed
  `code` is code); `stale` marks an analysis of an earlier failure of the episode;
- PR numbers in the summary are context (earlier fixes, reverts, builds), not a verdict.

So a **suspect** is never read from prose. The **blame range** of a failure is the merged
PRs between the job's last passing commit and its first failing commit (GitHub's compare);
one of them is *the suspect* only with evidence that rules the others out: it is alone in
its range, or its revert (or a fix naming it) was followed by the job's next pass. What the
analysis names inside the range is shown as evidence; outside it, never as a suspect.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.model.subscriptions import KeyForm, SubscriptionKey

# The subscriptions Red on main answers: `ci` (every hardware) and `ci:amd` (one).
CI_TOPIC = "ci"
CI_PREFIX = "ci:"
# Where a CI job runs, by the words of its name: the topic keys of the vendors (topics.toml).
HARDWARE = ("amd", "nvidia", "intel", "tpu", "neuron", "ascend", "cpu")

# The states the dashboard gives a failing job run (its `/api/jobs/runs` and alert rows).
FAILING_STATES = frozenset({"failed", "failing", "broken", "timed_out"})
# Of those, the fleet's: an agent lost or a job stopped by its deadline. Only where the
# analysis did not class the failure.
INFRA_STATES = frozenset({"broken", "timed_out"})
KINDS = ("code", "flaky", "infra")  # the analysis's classifications we act on


def is_ci(key: SubscriptionKey) -> bool:
    """Red on main, for every hardware or one."""
    return key.kind == CI_TOPIC


def key_hardware(key: SubscriptionKey) -> str | None:
    """`ci:amd` → `amd`; None for `ci` (every hardware) and the other kinds."""
    return key.value if is_ci(key) else None


def _named(key: SubscriptionKey) -> str:
    hardware = key_hardware(key)
    return "Red on main" + (f" ({hardware})" if hardware else "")


KEY_FORMS = (
    KeyForm(
        CI_TOPIC,
        alone=True,
        prefixed=True,
        missing="name a hardware after `ci:`, e.g. `ci:amd`, or say `ci` for every hardware",
        name=_named,
    ),
)

# How far before a failure's first failing run its job's last pass is looked for: vLLM's
# main runs its CI on every merge, so a job with no pass in a week has no blame range.
PASS_LOOK_BACK_DAYS = 7
# The dashboard keeps resolved records this long; the flips of a job are counted over it.
RETAINED_DAYS = 30
# A dashboard read that worked, or GitHub's answer on the reports, this much older than
# the moment told is still told from (a command asked twice, both languages).
FRESH = timedelta(minutes=10)
# Pass↔fail flips in RETAINED_DAYS that make a job "flaky-looking": kept out of suspects.
FLAKY_FLIPS = 6


@dataclass(frozen=True)
class Build:
    """One run of a job on main: its build number, commit, when it finished, its state."""

    number: int
    commit: str
    at: datetime
    url: str = ""
    state: str = ""  # failed, failing, broken, timed_out, passed
    job_id: str = ""  # Buildkite's id of the job run


@dataclass(frozen=True)
class Analysis:
    """The dashboard's analysis of a failure, as data: its class, its one-line summary (their
    words), whether it is about an earlier failure than the latest, and the vLLM PRs its
    prose names (`named`), says were not the cause (`cleared`) or suggests as fixes."""

    classification: str = ""
    summary: str = ""
    stale: bool = False
    named: tuple[int, ...] = ()
    cleared: tuple[int, ...] = ()
    fixes: tuple[int, ...] = ()
    test: str = ""  # the failing test's path, when the summary names one


@dataclass(frozen=True)
class Failure:
    """One failure episode as the dashboard recorded it at the read (`last` and `count` are
    as of that read)."""

    alert_id: str
    job: str
    hardware: str  # a key of HARDWARE
    kind: str  # code, flaky or infra (KINDS)
    first: Build
    last: Build
    count: int  # failing runs recorded
    resolved: Build | None  # the observed pass that closed it
    closed_at: datetime | None  # when the dashboard closed it (with or without a pass)
    job_key: str = ""  # the dashboard's key of the job (names change, keys do not)
    by_hand: bool = False  # closed by a person, no pass seen
    analysis: Analysis | None = None

    @property
    def infra(self) -> bool:
        return self.kind == "infra"

    def open_at(self, moment: datetime) -> bool:
        return self.first.at <= moment and (self.closed_at is None or self.closed_at > moment)


@dataclass(frozen=True)
class History:
    """A job's runs on main around a failure (the dashboard's `/api/jobs/runs`): its last
    pass before the failure began, and its pass↔fail flips over RETAINED_DAYS."""

    last_pass: Build | None
    flips: int = 0

    @property
    def flaky(self) -> bool:
        return self.flips >= FLAKY_FLIPS


@dataclass(frozen=True)
class BlameRange:
    """The vLLM PRs merged between a job's last passing commit and its first failing one,
    oldest first (GitHub's compare of the two commits)."""

    base: str
    head: str
    prs: tuple[int, ...]


@dataclass(frozen=True)
class Suspect:
    """The PR evidence singles out of a blame range: `because` it is alone in it, or "#N
    reverts it" / "#N fixes it" (and the job passed after)."""

    number: int
    title: str = ""
    author: str | None = None
    merged_at: datetime | None = None
    because: str = "alone"


@dataclass(frozen=True)
class Red:
    """A failure as the section tells it."""

    failure: Failure
    history: History | None = None  # None: the job's runs could not be read
    blame: BlameRange | None = None  # None: no last pass on record, or no compare
    suspect: Suspect | None = None
    evidence: tuple[int, ...] = ()  # PRs the analysis names inside the range
    outside: tuple[int, ...] = ()  # PRs the analysis names outside it (never suspects)
    cleared: tuple[int, ...] = ()  # PRs a person said did not cause it
    owners: tuple[str, ...] = ()  # who to ask: CODEOWNERS of the failing test
    new: bool = False  # its first failure fell in the window

    @property
    def flaky(self) -> bool:
        return self.failure.kind == "flaky" or (self.history is not None and self.history.flaky)


@dataclass(frozen=True)
class Reported:
    """A CI failure reported on GitHub (`[CI Failure]: …`, label `ci-failure`): AMD's own CI
    and other vendors' reach vLLM this way, not through the dashboard."""

    number: int
    title: str
    job: str
    hardware: str
    opened_at: datetime
    closed_at: datetime | None = None
    build: str = ""  # the first failing build the report names ("amd-ci #1234")
    fix: int | None = None  # a merged PR that says it fixes the report
    author: str | None = None


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
    flaky: tuple[Red, ...] = ()  # classed flaky, or flaky-looking from the job's runs
    infra: tuple[Red, ...] = ()  # infrastructure trouble open at the window's end
    resolved: tuple[Red, ...] = ()  # passing again in the window (an observed pass)
    closed: tuple[Red, ...] = ()  # closed in the window without a pass (by hand)
    reported: tuple[Reported, ...] = ()  # GitHub reports open at the end or closed in it
    skipped: int = 0
    topic: str | None = None  # limited to this hardware

    @property
    def known(self) -> bool:
        return self.state == "known"

    def alerts(self) -> tuple[Red, ...]:
        return (*self.red, *self.flaky, *self.infra, *self.resolved, *self.closed)
