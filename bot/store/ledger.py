"""The delivery ledger: which part of which report went to which destination, and gone
destinations. Rows are unique on (repo, window, destination, part); see bot/delivery.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import DeliveryRow, DestinationRow


@dataclass(frozen=True)
class Claim:
    """What claiming a part found: the message id if it went out, and whether it is new."""

    message_id: str | None
    new: bool  # True when this call created the claim


class Ledger:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def claim(self, repo: str, window: str, destination: str, part: str, now: datetime) -> Claim:
        """Claim a part for sending, or return what an earlier run recorded for it.

        The unique constraint makes two runs race safely: the loser sees the winner's row.
        """
        with self._tx.begin() as session:
            row = _row(session, repo, window, destination, part)
            if row is not None:
                row.attempts += 1
                row.updated_at = now
                return Claim(row.message_id, new=False)
        try:
            with self._tx.begin() as session:
                session.add(
                    DeliveryRow(
                        repo=repo,
                        window=window,
                        destination=destination,
                        part=part,
                        state="claimed",
                        message_id=None,
                        attempts=1,
                        updated_at=now,
                    )
                )
            return Claim(None, new=True)
        except IntegrityError:
            with self._tx.begin() as session:
                row = _row(session, repo, window, destination, part)
                return Claim(row.message_id if row is not None else None, new=False)

    def record(
        self,
        repo: str,
        window: str,
        destination: str,
        part: str,
        state: str,
        message_id: str | None,
        now: datetime,
    ) -> None:
        with self._tx.begin() as session:
            row = _row(session, repo, window, destination, part)
            if row is None:
                session.add(
                    DeliveryRow(
                        repo=repo,
                        window=window,
                        destination=destination,
                        part=part,
                        state=state,
                        message_id=message_id,
                        attempts=1,
                        updated_at=now,
                    )
                )
            else:
                row.state, row.updated_at = state, now
                row.message_id = message_id or row.message_id

    def parts(self, repo: str, window: str, destination: str) -> set[str]:
        """The parts recorded for one destination and window."""
        with self._tx.begin() as session:
            return set(
                session.scalars(
                    select(DeliveryRow.part).where(
                        DeliveryRow.repo == repo,
                        DeliveryRow.window == window,
                        DeliveryRow.destination == destination,
                    )
                )
            )

    def destination_failed(self, destination: str, reason: str, limit: int, now: datetime) -> bool:
        """Count a 'gone' failure; True when the destination is now disabled."""
        with self._tx.begin() as session:
            row = session.get(DestinationRow, destination)
            if row is None:
                row = DestinationRow(
                    destination=destination, failures=0, disabled=False, updated_at=now
                )
                session.add(row)
            row.failures += 1
            row.reason, row.updated_at = reason, now
            row.disabled = row.failures >= limit
            return row.disabled

    def destination_ok(self, destination: str) -> None:
        with self._tx.begin() as session:
            row = session.get(DestinationRow, destination)
            if row is not None and not row.disabled:
                row.failures = 0

    def disabled(self) -> dict[str, str]:
        """Destinations disabled as gone, with the reason."""
        with self._tx.begin() as session:
            rows = session.scalars(select(DestinationRow).where(DestinationRow.disabled))
            return {r.destination: r.reason or "" for r in rows}


def _row(
    session: Session, repo: str, window: str, destination: str, part: str
) -> DeliveryRow | None:
    return session.scalars(
        select(DeliveryRow).where(
            DeliveryRow.repo == repo,
            DeliveryRow.window == window,
            DeliveryRow.destination == destination,
            DeliveryRow.part == part,
        )
    ).first()
