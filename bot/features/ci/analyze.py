"""Red on main, decided: which failures a window's section lists, and which suspect of each
is shown. Pure: the records, GitHub's answers and people's corrections come in.

- **Red** at the window's end: failures open then (begun, no pass observed by then); code
  failures and infrastructure trouble apart.
- **Resolved** in the window: closed in it by an observed pass (the pass's build is named).
  A record closed without a pass is `closed`: the job may simply have stopped running.
- **Suspect**: a vLLM PR the dashboard's analysis names, shown only when it is a merged PR
  that landed after the job's last observed pass (an earlier failure's resolving build)
  and no later than the first failing build; with no pass on record, within
  `NO_PASS_LOOK_BACK_DAYS` before the first failure. A PR a person corrected is never shown
  for that failure again. Each suspect not shown keeps its reason (`Red.dropped`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from bot.features.ci.model import (
    NO_PASS_LOOK_BACK_DAYS,
    Attribution,
    CiCorrection,
    CiState,
    Failure,
    Red,
    Suspect,
)
from bot.model.report import ActivityItem


def last_pass(failure: Failure, earlier: Sequence[Failure]) -> datetime | None:
    """The newest observed pass of the failure's job before its first failure."""
    passes = [
        f.resolved.at
        for f in earlier
        if f.job == failure.job and f.resolved is not None and f.resolved.at <= failure.first.at
    ]
    return max(passes) if passes else None


def judge(
    failure: Failure,
    number: int,
    item: ActivityItem | None,
    passed: datetime | None,
    asked: bool,
) -> Suspect:
    """One named PR against the failure's facts (`item`: GitHub's answer, None when it has
    no such number or, with `asked` False, was not asked)."""
    if item is None:
        why = "missing" if asked else "not-asked"
        return Suspect(number, why=why)
    found = Suspect(number, item.title, item.author, item.merged_at)
    if item.kind != "pr":
        return _drop(found, "issue")
    if item.merged_at is None:
        return _drop(found, "unmerged")
    if item.merged_at > failure.first.at:
        return _drop(found, "after")
    if passed is not None and item.merged_at <= passed:
        return _drop(found, "before-pass")
    floor = failure.first.at - timedelta(days=NO_PASS_LOOK_BACK_DAYS)
    if passed is None and item.merged_at < floor:
        return _drop(found, "too-old")
    return Suspect(number, item.title, item.author, item.merged_at, verified=True)


def _drop(found: Suspect, why: str) -> Suspect:
    return Suspect(found.number, found.title, found.author, found.merged_at, why=why)


def red_of(
    failure: Failure,
    facts: Mapping[int, ActivityItem | None],
    passed: datetime | None,
    corrections: Sequence[CiCorrection],
    confirmations: Mapping[int, str],
) -> Red:
    """The failure with its first verified, uncorrected suspect shown and the rest's
    reasons kept."""
    wrong = {c.number: c.by for c in corrections if c.alert_id == failure.alert_id}
    shown, dropped = None, []
    for number in failure.suspects:
        judged = judge(failure, number, facts.get(number), passed, number in facts)
        if number in wrong:
            judged = Suspect(
                number, judged.title, judged.author, judged.merged_at,
                why="corrected", corrected=True, by=wrong[number],
            )  # fmt: skip
        elif judged.verified and number in confirmations:
            judged = Suspect(
                number, judged.title, judged.author, judged.merged_at, verified=True,
                confirmed_by=confirmations[number],
            )  # fmt: skip
        if judged.verified and shown is None:
            shown = judged
        else:
            dropped.append(judged)
    return Red(failure, shown, tuple(dropped))


def attribution(reds: Sequence[Red]) -> Attribution:
    """How the suspects shown (or shown, then corrected) have held up."""
    confirmed = corrected = unconfirmed = 0
    for red in reds:
        if red.suspect is not None:
            if red.suspect.confirmed_by:
                confirmed += 1
            else:
                unconfirmed += 1
        corrected += sum(1 for s in red.dropped if s.corrected)
    return Attribution(confirmed, corrected, unconfirmed)


def ci_state(
    reds: Sequence[Red],
    *,
    source: str,
    start: datetime,
    end: datetime,
    read_at: datetime,
    skipped: int = 0,
    topic: str | None = None,
    measured: Attribution | None = None,
) -> CiState:
    """The window's section from the failures that touch it (each already judged)."""
    if topic is not None:
        reds = [r for r in reds if r.failure.hardware == topic]
    open_now = [
        Red(r.failure, r.suspect, r.dropped, new=start < r.failure.first.at <= end)
        for r in reds
        if r.failure.open_at(end)
    ]
    open_now.sort(key=_order)
    ended = [
        r for r in reds if r.failure.closed_at is not None and start < r.failure.closed_at <= end
    ]
    ended.sort(key=lambda r: (r.failure.closed_at, r.failure.alert_id))
    return CiState(
        "known",
        source,
        start,
        end,
        read_at=read_at,
        red=tuple(r for r in open_now if not r.failure.infra),
        infra=tuple(r for r in open_now if r.failure.infra),
        resolved=tuple(r for r in ended if r.failure.resolved is not None),
        closed=tuple(r for r in ended if r.failure.resolved is None),
        attribution=measured or Attribution(),
        skipped=skipped,
        topic=topic,
    )


def _order(red: Red) -> tuple[int, float, str]:
    """New failures first (newest first), then the longest red."""
    moment = red.failure.first.at.timestamp()
    return (0, -moment, red.failure.alert_id) if red.new else (1, moment, red.failure.alert_id)


def unknown(source: str, start: datetime, end: datetime, why: str, topic: str | None) -> CiState:
    return CiState("unknown", source, start, end, why=why, topic=topic)


def of_hardware(state: CiState, hardware: str | None) -> CiState:
    """The state limited to one hardware's failures (all when None)."""
    if hardware is None or not state.known:
        return state if hardware is None else replace(state, topic=hardware)

    def mine(reds: tuple[Red, ...]) -> tuple[Red, ...]:
        return tuple(r for r in reds if r.failure.hardware == hardware)

    return replace(
        state,
        red=mine(state.red),
        infra=mine(state.infra),
        resolved=mine(state.resolved),
        closed=mine(state.closed),
        topic=hardware,
    )


def is_news(state: CiState) -> bool:
    """Whether a subscriber hears of the day: a failure began or passed again in it, or the
    state could not be known (silence would read as "nothing broke")."""
    if not state.known:
        return True
    return bool(state.resolved) or any(r.new for r in (*state.red, *state.infra))


def suspected_of(state: CiState | None, login: str | None) -> tuple[Red, ...]:
    """The failures open at the window's end, or passing again in it, whose shown suspect
    `login` wrote (a `mine` digest's CI part)."""
    if state is None or not state.known or not login:
        return ()
    who = login.lower()
    return tuple(
        r
        for r in (*state.red, *state.resolved)
        if r.suspect is not None and (r.suspect.author or "").lower() == who
    )
