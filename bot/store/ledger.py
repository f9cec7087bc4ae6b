"""The delivery ledger: which part of which report went to which destination, who may send
it (a lease: owner and expiry), and gone destinations. Rows are unique on (repo, window,
destination, part); see bot/delivery.py for how the lease is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from bot.model.windows import WindowKey
from bot.store.engine import Transactions
from bot.store.schema import DeliveryRow, DestinationRow


@dataclass(frozen=True)
class Claim:
    """What claiming a part found.

    `message_id`: the part is known to be out (nothing to do). `held`: this owner holds the
    lease and alone may send it. `new`: the row was made by this call (no earlier run
    touched the part). Neither: another owner's lease is alive until `lease_until`.
    """

    message_id: str | None
    held: bool = False
    new: bool = False
    lease_until: datetime | None = None


class Ledger:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def claim(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        owner: str,
        now: datetime,
        lease: timedelta,
    ) -> Claim:
        """Take the part's lease, or say who has it or that it went out.

        Atomic on both backends: the row is created with `INSERT … ON CONFLICT DO NOTHING`
        (only one of two racing inserts makes it), and an existing row changes hands only
        through `UPDATE … WHERE` its lease ran out (or is already ours), which the database
        evaluates under the row's write lock. On PostgreSQL the row is first read with
        `FOR UPDATE SKIP LOCKED`: a row another claimer is changing right now counts as held.
        """
        until = now + lease
        keys = _keys(repo, window, destination, part)
        with self._tx.begin() as session:
            insert = _insert(session).values(
                repo=repo,
                window=str(window),
                destination=destination,
                part=part,
                state="claimed",
                message_id=None,
                attempts=1,
                updated_at=now,
                owner=owner,
                lease_until=until,
            )
            inserted = session.execute(
                insert.on_conflict_do_nothing(
                    index_elements=["repo", "window", "destination", "part"]
                ).returning(DeliveryRow.id)
            ).first()
            if inserted is not None:  # only the one insert that made the row returns it
                return Claim(None, held=True, new=True)
        with self._tx.begin() as session:
            query = select(DeliveryRow).where(*keys)
            if session.get_bind().dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)
            row = session.scalars(query).first()
            if row is None:  # another claimer has the row locked this instant
                return Claim(None, lease_until=until)
            if row.message_id is not None:
                return Claim(row.message_id)
            takeover = session.execute(
                update(DeliveryRow)
                .where(
                    DeliveryRow.id == row.id,
                    DeliveryRow.message_id.is_(None),
                    or_(
                        DeliveryRow.owner == owner,
                        DeliveryRow.owner.is_(None),
                        DeliveryRow.lease_until.is_(None),
                        DeliveryRow.lease_until <= now,
                    ),
                )
                .values(
                    owner=owner,
                    lease_until=until,
                    state="claimed",
                    attempts=DeliveryRow.attempts + 1,
                    updated_at=now,
                )
                .execution_options(synchronize_session=False)
            )
            if _count(takeover) == 1:
                return Claim(None, held=True)
            return Claim(None, lease_until=row.lease_until)

    def holds(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        owner: str,
        now: datetime,
        lease: timedelta,
    ) -> bool:
        """Fencing before a send: True (and the lease extended) only while `owner` holds it."""
        with self._tx.begin() as session:
            result = session.execute(
                update(DeliveryRow)
                .where(
                    *_keys(repo, window, destination, part),
                    DeliveryRow.owner == owner,
                    DeliveryRow.message_id.is_(None),
                    DeliveryRow.lease_until > now,
                )
                .values(lease_until=now + lease)
                .execution_options(synchronize_session=False)
            )
            return _count(result) == 1

    def renew(self, owner: str, now: datetime, lease: timedelta) -> int:
        """Extend every live lease `owner` holds on an unsent part (the holder's heartbeat)."""
        with self._tx.begin() as session:
            result = session.execute(
                update(DeliveryRow)
                .where(
                    DeliveryRow.owner == owner,
                    DeliveryRow.message_id.is_(None),
                    DeliveryRow.lease_until > now,
                )
                .values(lease_until=now + lease)
                .execution_options(synchronize_session=False)
            )
            return _count(result)

    def release(
        self, repo: str, window: WindowKey, destination: str, part: str, owner: str, now: datetime
    ) -> None:
        """Give a lease up at once (the send failed): the next run need not wait it out."""
        with self._tx.begin() as session:
            session.execute(
                update(DeliveryRow)
                .where(
                    *_keys(repo, window, destination, part),
                    DeliveryRow.owner == owner,
                    DeliveryRow.message_id.is_(None),
                )
                .values(lease_until=now)
                .execution_options(synchronize_session=False)
            )

    def message_ids(self, repo: str, window: WindowKey) -> set[str]:
        """Every platform message id recorded for a window (any destination, any part)."""
        with self._tx.begin() as session:
            found = session.scalars(
                select(DeliveryRow.message_id).where(
                    DeliveryRow.repo == repo,
                    DeliveryRow.window == str(window),
                    DeliveryRow.message_id.is_not(None),
                )
            )
            return {str(m) for m in found}

    def record(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        state: str,
        message_id: str | None,
        now: datetime,
    ) -> None:
        """Set a part's state (and message id); two runs recording at once both succeed."""
        with self._tx.begin() as session:
            session.execute(
                _insert(session)
                .values(
                    repo=repo,
                    window=str(window),
                    destination=destination,
                    part=part,
                    state=state,
                    message_id=message_id,
                    attempts=1,
                    updated_at=now,
                )
                .on_conflict_do_nothing(index_elements=["repo", "window", "destination", "part"])
            )
        with self._tx.begin() as session:
            values: dict[str, Any] = {"state": state, "updated_at": now}
            if message_id is not None:
                values.update(message_id=message_id, lease_until=None)  # out: nobody holds it
            session.execute(
                update(DeliveryRow)
                .where(*_keys(repo, window, destination, part))
                .values(**values)
                .execution_options(synchronize_session=False)
            )

    def sent(
        self,
        repo: str,
        window: WindowKey,
        destination: str,
        part: str,
        message_id: str,
        now: datetime,
    ) -> str:
        """Record a part as sent, unless another holder recorded it first: the message id
        that stands. (A holder paused past its lease may send after the one that took over
        did; the second to record learns it sent a copy.)"""
        with self._tx.begin() as session:
            session.execute(
                update(DeliveryRow)
                .where(*_keys(repo, window, destination, part), DeliveryRow.message_id.is_(None))
                .values(state="sent", message_id=message_id, lease_until=None, updated_at=now)
                .execution_options(synchronize_session=False)
            )
            standing = session.scalar(
                select(DeliveryRow.message_id).where(*_keys(repo, window, destination, part))
            )
        return standing or message_id

    def parts(self, repo: str, window: WindowKey, destination: str) -> set[str]:
        """The parts recorded for one destination and window."""
        with self._tx.begin() as session:
            return set(
                session.scalars(
                    select(DeliveryRow.part).where(
                        DeliveryRow.repo == repo,
                        DeliveryRow.window == str(window),
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
        """A post went through: the destination is back, whatever it was before."""
        with self._tx.begin() as session:
            row = session.get(DestinationRow, destination)
            if row is not None:
                row.failures, row.disabled = 0, False

    def disabled(self, since: datetime | None = None) -> dict[str, str]:
        """Destinations disabled as gone (with `since`: only those last tried since then;
        an older one is tried again), with the reason."""
        with self._tx.begin() as session:
            query = select(DestinationRow).where(DestinationRow.disabled)
            if since is not None:
                query = query.where(DestinationRow.updated_at >= since)
            return {r.destination: r.reason or "" for r in session.scalars(query)}

    def enable(self, destination: str) -> bool:
        """Take a destination off the disabled list (`doctor` found it reachable again);
        True when it was on it."""
        with self._tx.begin() as session:
            row = session.get(DestinationRow, destination)
            if row is None or not row.disabled:
                return False
            row.failures, row.disabled = 0, False
            return True


def _keys(repo: str, window: WindowKey, destination: str, part: str) -> tuple[Any, ...]:
    return (
        DeliveryRow.repo == repo,
        DeliveryRow.window == str(window),
        DeliveryRow.destination == destination,
        DeliveryRow.part == part,
    )


def _insert(session: Session) -> Any:
    """The backend's INSERT, which knows ON CONFLICT DO NOTHING."""
    # Imported here: the PostgreSQL dialect pulls in asyncpg's (~45 ms) for every command
    # that opens the store, most of which never write a delivery or a lease.
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(DeliveryRow)
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(DeliveryRow)


def _count(result: Any) -> int:
    return int(getattr(result, "rowcount", 0) or 0)
