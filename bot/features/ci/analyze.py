"""Red on main, decided: which failures a window's section lists, what each one's evidence
is, and which PR (if any) the evidence singles out. Pure: the records, the job's runs, the
blame range, GitHub's answers and people's corrections come in.

- **Red** at the window's end: failures open then (begun, no close by then); code, flaky
  (classed so, or flipping pass↔fail FLAKY_FLIPS times in RETAINED_DAYS) and infra apart.
- **Passing again** in the window: closed in it by an observed pass. A record closed by
  hand is `closed`, never a fix.
- **Blame range**: the merged PRs between the job's last pass (within PASS_LOOK_BACK_DAYS
  before its first failure) and its first failing commit. Without a last pass, no range.
- **Suspect**: a PR of the range, not cleared by a person, of a job that is not flaky,
  that is alone in its range, or whose revert (or a fix naming it) merged after the failure
  began and no later than the job's pass. What the analysis names inside the range is
  evidence; what it names outside is listed apart and never suspected.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import pairwise

from bot.features.ci.model import (
    PASS_LOOK_BACK_DAYS,
    RETAINED_DAYS,
    BlameRange,
    Build,
    CiState,
    Failure,
    History,
    Red,
    Reported,
    Suspect,
)
from bot.features.ci.owners import owners_of
from bot.model.report import ActivityItem

# vLLM squash-merges a PR into one commit whose first line ends "(#38139)".
_MERGED_PR = re.compile(r"\(#(\d+)\)\s*$")


def history_of(runs: Sequence[Build], failure: Failure) -> History:
    """The job's last pass before the failure began (looked for PASS_LOOK_BACK_DAYS back)
    and its pass↔fail flips over the RETAINED_DAYS before its latest failing run."""
    floor = failure.first.at - timedelta(days=PASS_LOOK_BACK_DAYS)
    passes = [r for r in runs if r.state == "passed" and floor <= r.at < failure.first.at]
    since = failure.last.at - timedelta(days=RETAINED_DAYS)
    states = [r.state == "passed" for r in runs if since <= r.at <= failure.last.at]
    flips = sum(1 for a, b in pairwise(states) if a != b)
    return History(max(passes, key=lambda r: r.at) if passes else None, flips)


def prs_merged(messages: Sequence[str]) -> tuple[int, ...]:
    """The vLLM PRs a compare's commits merged, from their messages' first lines."""
    found = []
    for message in messages:
        first = message.strip().split("\n", 1)[0]
        match = _MERGED_PR.search(first)
        if match:
            found.append(int(match.group(1)))
    return tuple(dict.fromkeys(found))


def suspect_of(
    failure: Failure,
    blame: BlameRange | None,
    flaky: bool,
    cleared: frozenset[int],
    named_by: Mapping[int, Sequence[tuple[datetime, str]]],
) -> tuple[int, str] | None:
    """The PR of the range the evidence singles out, and why: alone in its range, or
    reverted (or fixed) after the failure began and before the job passed again."""
    if blame is None or flaky:
        return None
    candidates = [n for n in blame.prs if n not in cleared]
    if len(blame.prs) == 1 and candidates:
        return candidates[0], "alone"
    passed = failure.resolved
    if passed is None:
        return None
    for number in candidates:
        for at, words in named_by.get(number, ()):
            if failure.first.at <= at <= passed.at:
                return number, words
    return None


def red_of(
    failure: Failure,
    history: History | None,
    blame: BlameRange | None,
    facts: Mapping[int, ActivityItem | None],
    named_by: Mapping[int, Sequence[tuple[datetime, str]]],
    corrected: Sequence[int] = (),
    codeowners: str = "",
) -> Red:
    """The failure with its evidence, its suspect (if the evidence singles one out) and who
    to ask: the suspect's author and the failing test's owners."""
    analysis = failure.analysis
    named = analysis.named if analysis else ()
    cleared = frozenset((*(analysis.cleared if analysis else ()), *corrected))
    found = suspect_of(failure, blame, Red(failure, history).flaky, cleared, named_by)
    suspect = _suspect(found, facts)
    found_number = found[0] if found else None
    in_range = set(blame.prs) if blame else set()
    owners = _owners(codeowners, analysis.test if analysis else "")
    if suspect is not None and suspect.author:
        owners = (f"@{suspect.author}", *owners)
    return Red(
        failure,
        history=history,
        blame=blame,
        suspect=suspect,
        # What the analysis names in the range, but the suspect (shown once, on its line).
        evidence=tuple(
            n for n in named if n in in_range and n not in cleared and n != found_number
        ),
        outside=tuple(n for n in named if blame and n not in in_range and n not in cleared),
        cleared=tuple(n for n in named if n in cleared),
        owners=tuple(dict.fromkeys(owners)),
    )


def _suspect(
    found: tuple[int, str] | None, facts: Mapping[int, ActivityItem | None]
) -> Suspect | None:
    if found is None:
        return None
    number, because = found
    item = facts.get(number)
    if item is None:
        return Suspect(number, because=because)
    return Suspect(number, item.title, item.author, item.merged_at, because)


def _owners(codeowners: str, test: str) -> tuple[str, ...]:
    return owners_of(codeowners, test) if codeowners and test else ()


def ci_state(
    reds: Sequence[Red],
    reported: Sequence[Reported],
    *,
    source: str,
    start: datetime,
    end: datetime,
    read_at: datetime,
    skipped: int = 0,
    topic: str | None = None,
) -> CiState:
    """The window's section from the failures and reports that touch it."""
    opened = (replace(r, new=start < r.failure.first.at <= end) for r in reds)
    open_now = sorted((r for r in opened if r.failure.open_at(end)), key=_order)
    ended = sorted(
        (r for r in reds if r.failure.closed_at and start < r.failure.closed_at <= end),
        key=lambda r: (r.failure.closed_at, r.failure.alert_id),
    )
    code = [r for r in open_now if not r.failure.infra]
    state = CiState(
        "known",
        source,
        start,
        end,
        read_at=read_at,
        red=tuple(r for r in code if not r.flaky),
        flaky=tuple(r for r in code if r.flaky),
        infra=tuple(r for r in open_now if r.failure.infra),
        resolved=tuple(r for r in ended if r.failure.resolved is not None),
        closed=tuple(r for r in ended if r.failure.resolved is None),
        reported=_reported_in(reported, start, end),
        skipped=skipped,
    )
    return of_hardware(state, topic)


def _reported_in(
    reported: Sequence[Reported], start: datetime, end: datetime
) -> tuple[Reported, ...]:
    """The reports open at the window's end or closed in it, open ones first, newest first."""
    told = [
        r for r in reported if r.opened_at <= end and (r.closed_at is None or r.closed_at > start)
    ]
    return tuple(sorted(told, key=lambda r: (r.closed_at is not None, -r.opened_at.timestamp())))


def _order(red: Red) -> tuple[int, float, str]:
    """New failures first (newest first), then the longest red."""
    moment = red.failure.first.at.timestamp()
    return (0, -moment, red.failure.alert_id) if red.new else (1, moment, red.failure.alert_id)


def unknown(source: str, start: datetime, end: datetime, why: str, topic: str | None) -> CiState:
    return CiState("unknown", source, start, end, why=why, topic=topic)


def of_hardware(state: CiState, hardware: str | None) -> CiState:
    """The state limited to one hardware's failures and reports (all when None)."""
    if hardware is None or not state.known:
        return state if hardware is None else replace(state, topic=hardware)

    def mine(reds: tuple[Red, ...]) -> tuple[Red, ...]:
        return tuple(r for r in reds if r.failure.hardware == hardware)

    return replace(
        state,
        red=mine(state.red),
        flaky=mine(state.flaky),
        infra=mine(state.infra),
        resolved=mine(state.resolved),
        closed=mine(state.closed),
        reported=tuple(r for r in state.reported if r.hardware == hardware),
        topic=hardware,
    )


def is_news(state: CiState) -> bool:
    """Whether a subscriber hears of the day: a failure began, passed again or was closed in
    it, a report was opened or closed in it, or the state could not be known (silence would
    read as "nothing broke")."""
    if not state.known:
        return True
    if state.resolved or state.closed:
        return True
    if any(r.new for r in (*state.red, *state.flaky, *state.infra)):
        return True
    return any(
        state.start < r.opened_at <= state.end
        or (r.closed_at is not None and state.start < r.closed_at <= state.end)
        for r in state.reported
    )


def suspected_of(state: CiState | None, login: str | None) -> tuple[Red, ...]:
    """The failures open at the window's end, or passing again in it, whose suspect `login`
    wrote (a `mine` digest's CI part)."""
    if state is None or not state.known or not login:
        return ()
    who = login.lower()
    return tuple(
        r
        for r in (*state.red, *state.resolved)
        if r.suspect is not None and (r.suspect.author or "").lower() == who
    )
