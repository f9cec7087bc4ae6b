"""What the archive learned since a moment: the rows written after it, read by their stamps.

The site uses it to rebuild only the report days whose facts changed. Every table a report
reads per item carries the time it was fetched (`fetched_at`); the newest of those stamps is
the archive's *mark*. Rows stamped after an earlier mark are what was written since.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from bot.store.engine import Transactions
from bot.store.schema import CommentFetchRow, ItemRow, PullDetailsRow, ResponseFactRow

# Per-item facts beside the item itself, each with the number it belongs to.
_BESIDE = (CommentFetchRow, PullDetailsRow, ResponseFactRow)


@dataclass(frozen=True)
class Written:
    """One row written after a moment: an item, or facts beside one (comments, details)."""

    table: str
    number: int
    fetched_at: datetime
    moments: tuple[datetime, ...] = ()  # an item's created/closed/merged times


class Changes:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def mark(self, repo: str) -> datetime | None:
        """The newest fetch stamp of `repo`'s facts (None for an empty archive)."""
        with self._tx.begin() as session:
            stamps = [
                session.scalar(select(func.max(table.fetched_at)).where(table.repo == repo))
                for table in (ItemRow, *_BESIDE)
            ]
        found = [s for s in stamps if s is not None]
        return max(found) if found else None

    def since(self, repo: str, moment: datetime) -> list[Written]:
        """The rows of `repo`'s facts stamped after `moment`."""
        with self._tx.begin() as session:
            written = [
                Written(
                    ItemRow.__tablename__,
                    row.number,
                    row.fetched_at,
                    tuple(
                        t for t in (row.created_at, row.closed_at, row.merged_at) if t is not None
                    ),
                )
                for row in session.execute(
                    select(
                        ItemRow.number,
                        ItemRow.fetched_at,
                        ItemRow.created_at,
                        ItemRow.closed_at,
                        ItemRow.merged_at,
                    ).where(ItemRow.repo == repo, ItemRow.fetched_at > moment)
                )
            ]
            for table in _BESIDE:
                written += [
                    Written(table.__tablename__, number, stamp)
                    for number, stamp in session.execute(
                        select(table.number, table.fetched_at).where(
                            table.repo == repo, table.fetched_at > moment
                        )
                    )
                ]
        return written
