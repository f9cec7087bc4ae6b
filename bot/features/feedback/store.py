"""Readers' votes, one per reader, section and day (bot.store.schema.FeedbackRow): pressed
again, the vote is replaced, never added."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import FeedbackRow


@dataclass(frozen=True)
class Vote:
    platform: str
    user: str
    day: str  # the report's window label
    section: str
    useful: bool
    at: datetime


class Votes:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def record(self, vote: Vote) -> bool | None:
        """Keep `vote`; the reader's earlier vote on that section and day (None: none) is
        replaced, so a reader counts once."""

        def write(session: Session) -> bool | None:
            key = (vote.platform, vote.user, vote.day, vote.section)
            row = session.get(FeedbackRow, key)
            before = row.useful if row is not None else None
            session.merge(
                FeedbackRow(
                    platform=vote.platform,
                    user_id=vote.user,
                    day=vote.day,
                    section=vote.section,
                    useful=vote.useful,
                    at=vote.at,
                )
            )
            return before

        return self._tx.write(write)

    def since(self, moment: datetime) -> Sequence[Vote]:
        """Every vote made at or after `moment`, oldest first."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(FeedbackRow).where(FeedbackRow.at >= moment).order_by(FeedbackRow.at)
            )
            return [Vote(r.platform, r.user_id, r.day, r.section, r.useful, r.at) for r in rows]
