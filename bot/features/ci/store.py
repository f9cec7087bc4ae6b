"""Red on main's archive: each read of the CI dashboard, the failure records it held (the
newest reading of each), the suspects people corrected, and the evidence asked to explain
a failure (`evidence`/`keep_evidence`: a job's runs, a range's commits, CODEOWNERS, the
GitHub reports).

A past day's CI state is answered from here alone. It is known only when a read that
worked covers it: a read at or after the day's end and within the dashboard's 30 days of
resolved records (or, when that answer was cut at 500 records, after its oldest
resolution), so every failure open at the day's end was in it (`covering`).
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError

from bot.features.ci.model import (
    RETAINED_DAYS,
    Analysis,
    Build,
    CiCorrection,
    CiRead,
    Failure,
)
from bot.store.engine import Transactions
from bot.store.schema import CiCorrectionRow, CiEvidenceRow, CiFailureRow, CiReadRow

if TYPE_CHECKING:
    from bot.store import Store

IN_CHUNK = 500  # alert ids per `IN (…)`: well under SQLite's and PostgreSQL's limits


class CiArchive:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> CiArchive:
        return cls(Transactions(store.engine, store.url))

    def keep(self, read: CiRead, failures: tuple[Failure, ...] = ()) -> None:
        """Record a read and, when it worked, the failures it held (newest reading wins)."""
        with self._tx.begin(conflicts=True) as session:
            session.add(
                CiReadRow(
                    source=read.source,
                    read_at=read.at,
                    ok=read.ok,
                    problem=read.problem[:500],
                    records=read.records,
                    skipped=read.skipped,
                    oldest=read.oldest,
                )
            )
            # The rows already kept, read at once: one SELECT per IN_CHUNK records, not one
            # per record (a hostile 20,000-record answer costs 20 reads, not 20,000).
            ids = [failure.alert_id for failure in failures]
            kept: dict[str, CiFailureRow] = {}
            for start in range(0, len(ids), IN_CHUNK):
                chunk = ids[start : start + IN_CHUNK]
                kept.update(
                    (row.alert_id, row)
                    for row in session.scalars(
                        select(CiFailureRow).where(
                            CiFailureRow.source == read.source, CiFailureRow.alert_id.in_(chunk)
                        )
                    )
                )
            for failure in failures:
                row = kept.get(failure.alert_id)
                if row is None:
                    row = CiFailureRow(source=read.source, alert_id=failure.alert_id)
                    session.add(row)
                    kept[failure.alert_id] = row  # an answer naming a record twice
                elif row.seen_at > read.at:
                    continue  # a newer read already told more
                row.opened_at = failure.first.at
                row.closed_at = failure.closed_at
                row.seen_at = read.at
                row.record = _record(failure)

    def last_read(self, source: str) -> CiRead | None:
        """The newest read of `source`, whether it worked or not."""
        with self._tx.begin() as session:
            row = session.scalars(
                select(CiReadRow)
                .where(CiReadRow.source == source)
                .order_by(CiReadRow.read_at.desc(), CiReadRow.id.desc())
                .limit(1)
            ).first()
            return _read(row) if row is not None else None

    def covering(self, source: str, start: datetime, end: datetime) -> CiRead | None:
        """The earliest read that worked and holds every failure open at `end` and every one
        closed after `start`: None when no read covers the window."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(CiReadRow)
                .where(
                    CiReadRow.source == source,
                    CiReadRow.ok.is_(True),
                    CiReadRow.read_at >= end,
                    CiReadRow.read_at <= start + timedelta(days=RETAINED_DAYS),
                )
                .order_by(CiReadRow.read_at, CiReadRow.id)
            ).all()
            for row in rows:
                if row.oldest is None or row.oldest <= start:
                    return _read(row)
        return None

    def failures(self, source: str, start: datetime, end: datetime) -> list[Failure]:
        """The failures that began before `end` and were not closed before `start`."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(CiFailureRow)
                .where(
                    CiFailureRow.source == source,
                    CiFailureRow.opened_at <= end,
                    or_(CiFailureRow.closed_at.is_(None), CiFailureRow.closed_at > start),
                )
                .order_by(CiFailureRow.opened_at, CiFailureRow.alert_id)
            ).all()
            return [_failure(row.record) for row in rows]

    def evidence(self, source: str, kind: str, key: str) -> Any | None:
        """What was asked and kept as `kind` of `key` (None: never asked)."""
        with self._tx.begin() as session:
            row = session.get(CiEvidenceRow, (source, kind, key[:300]))
            return row.value if row is not None else None

    def keep_evidence(self, source: str, kind: str, key: str, value: Any, at: datetime) -> None:
        """Keep an answer (a newer answer of the same key replaces it)."""
        with self._tx.begin(conflicts=True) as session:
            row = session.get(CiEvidenceRow, (source, kind, key[:300]))
            if row is None:
                session.add(
                    CiEvidenceRow(source=source, kind=kind, key=key[:300], asked_at=at, value=value)
                )
            else:
                row.asked_at, row.value = at, value

    def correct(self, correction: CiCorrection) -> bool:
        """Keep a correction; False when the same pair was corrected before."""
        row = CiCorrectionRow(
            alert_id=correction.alert_id,
            number=correction.number,
            said_by=correction.by[:80],
            said_at=correction.at,
        )
        try:
            with self._tx.begin(conflicts=True) as session:
                session.add(row)
            return True
        except IntegrityError:
            return False

    def corrections(self) -> list[CiCorrection]:
        with self._tx.begin() as session:
            rows = session.scalars(
                select(CiCorrectionRow).order_by(CiCorrectionRow.said_at, CiCorrectionRow.alert_id)
            ).all()
            return [CiCorrection(r.alert_id, r.number, r.said_by, r.said_at) for r in rows]

    def known(self, source: str, alert_id: str) -> Failure | None:
        with self._tx.begin() as session:
            row = session.get(CiFailureRow, (source, alert_id))
            return _failure(row.record) if row is not None else None


def _read(row: CiReadRow) -> CiRead:
    return CiRead(
        row.source, row.read_at, row.ok, row.problem, row.records, row.skipped, row.oldest
    )


def _record(failure: Failure) -> dict[str, Any]:
    data = asdict(failure)
    for key in ("first", "last", "resolved"):
        if data[key] is not None:
            data[key]["at"] = data[key]["at"].isoformat()
    data["closed_at"] = failure.closed_at.isoformat() if failure.closed_at else None
    return data


def build_of(part: dict[str, Any] | None) -> Build | None:
    if part is None:
        return None
    return Build(**{**part, "at": datetime.fromisoformat(part["at"])})


def build_dict(build: Build) -> dict[str, Any]:
    return {**asdict(build), "at": build.at.isoformat()}


def _failure(data: dict[str, Any]) -> Failure:
    first, last = build_of(data["first"]), build_of(data["last"])
    if first is None or last is None:  # never stored so (`keep` stores both)
        raise ValueError(f"CI failure {data['alert_id']} is stored without its builds")
    said = data.get("analysis")
    analysis = None
    if said is not None:
        analysis = Analysis(
            classification=said["classification"],
            summary=said["summary"],
            stale=said["stale"],
            named=tuple(said["named"]),
            cleared=tuple(said["cleared"]),
            fixes=tuple(said["fixes"]),
            test=said.get("test", ""),
        )
    return Failure(
        alert_id=data["alert_id"],
        job=data["job"],
        hardware=data["hardware"],
        # A record kept before the kinds were read (revision 0013) said only `infra`.
        kind=data.get("kind") or ("infra" if data.get("infra") else "code"),
        first=first,
        last=last,
        count=data["count"],
        resolved=build_of(data["resolved"]),
        closed_at=datetime.fromisoformat(data["closed_at"]) if data["closed_at"] else None,
        job_key=data.get("job_key", ""),
        by_hand=data.get("by_hand", False),
        analysis=analysis,
    )
