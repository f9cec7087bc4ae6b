"""Named leases with a fencing token: one holder at a time across processes and machines.

The scheduler's leadership is one (`scheduler`): every `serve` replica tries to take it,
the holder renews it, and when the holder dies the lease runs out and another replica takes
it over, with a higher `epoch`. Taking and renewing are single conditional statements
(`INSERT … ON CONFLICT DO NOTHING`, `UPDATE … WHERE owner = me OR lease_until <= now`), so
two replicas can never both hold it on PostgreSQL or SQLite; the epoch is the fencing
token a holder checks before it acts (`still_holds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import LeaseRow


@dataclass(frozen=True)
class Held:
    """A lease this owner holds: its fencing token and until when."""

    name: str
    owner: str
    epoch: int
    until: datetime


class Leases:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def acquire(self, name: str, owner: str, now: datetime, ttl: timedelta) -> Held | None:
        """Take or renew `name` for `ttl`; None while another owner's lease is alive."""
        until = now + ttl
        with self._tx.begin() as session:
            inserted = session.execute(
                _insert(session)
                .values(name=name, owner=owner, epoch=1, lease_until=until, updated_at=now)
                .on_conflict_do_nothing(index_elements=["name"])
                .returning(LeaseRow.name)
            ).first()
            if inserted is not None:
                return Held(name, owner, 1, until)
        with self._tx.begin() as session:
            renewed = session.execute(
                update(LeaseRow)
                .where(LeaseRow.name == name, LeaseRow.owner == owner, LeaseRow.lease_until > now)
                .values(lease_until=until, updated_at=now)
                .execution_options(synchronize_session=False)
            )
            if _count(renewed) != 1:
                taken = session.execute(
                    update(LeaseRow)
                    .where(
                        LeaseRow.name == name,
                        or_(LeaseRow.lease_until <= now, LeaseRow.owner == owner),
                    )
                    .values(
                        owner=owner, epoch=LeaseRow.epoch + 1, lease_until=until, updated_at=now
                    )
                    .execution_options(synchronize_session=False)
                )
                if _count(taken) != 1:
                    return None
            epoch = session.scalar(select(LeaseRow.epoch).where(LeaseRow.name == name))
            return Held(name, owner, int(epoch or 0), until)

    def still_holds(self, held: Held, now: datetime) -> bool:
        """The fencing check: the same owner and epoch, and not expired."""
        with self._tx.begin() as session:
            row = session.get(LeaseRow, held.name)
            return (
                row is not None
                and row.owner == held.owner
                and row.epoch == held.epoch
                and row.lease_until > now
            )

    def release(self, held: Held, now: datetime) -> None:
        """Hand the lease back at once (a clean shutdown): the next replica need not wait."""
        with self._tx.begin() as session:
            session.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.name == held.name,
                    LeaseRow.owner == held.owner,
                    LeaseRow.epoch == held.epoch,
                )
                .values(lease_until=now, updated_at=now)
                .execution_options(synchronize_session=False)
            )

    def holder(self, name: str) -> tuple[str, int, datetime] | None:
        """Who holds `name` (owner, epoch, until), for logs and tests."""
        with self._tx.begin() as session:
            row = session.get(LeaseRow, name)
            return (row.owner, row.epoch, row.lease_until) if row is not None else None


def _insert(session: Session) -> Any:
    # Imported here: the PostgreSQL dialect pulls in asyncpg's (~45 ms) for every command
    # that opens the store, most of which never write a delivery or a lease.
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(LeaseRow)
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(LeaseRow)


def _count(result: Any) -> int:
    return int(getattr(result, "rowcount", 0) or 0)
