"""What was collected: spans of time fully archived, and the incremental sync cursor.

A coverage row `[start, end)` says every issue and PR created or closed in that span was
collected, with the state GitHub showed at `recorded_at`. Only complete collections write
coverage, so a partial fetch keeps its items but never passes for a whole window.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import CoverageRow, SyncCursorRow
from bot.store.spans import Span, merge_spans, subtract_spans


class Coverage:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def add(self, repo: str, span: Span, source: str, recorded_at: datetime) -> None:
        with self._tx.begin() as session:
            session.add(
                CoverageRow(
                    repo=repo,
                    start=span.start,
                    end=span.end,
                    source=source,
                    recorded_at=recorded_at,
                )
            )

    def spans(self, repo: str) -> list[Span]:
        """The collected spans of `repo`, merged where they touch or overlap."""
        with self._tx.begin() as session:
            rows = session.execute(
                select(CoverageRow.start, CoverageRow.end)
                .where(CoverageRow.repo == repo)
                .order_by(CoverageRow.start)
            ).all()
        return merge_spans(Span(start, end) for start, end in rows)

    def gaps(self, repo: str, wanted: Span) -> list[Span]:
        """The parts of `wanted` that no coverage row answers for."""
        return subtract_spans(wanted, self.spans(repo))

    def cursor(self, repo: str) -> datetime | None:
        """Where the incremental sync of the window in progress got to."""
        with self._tx.begin() as session:
            row = session.get(SyncCursorRow, repo)
            return row.cursor if row else None

    def set_cursor(self, repo: str, cursor: datetime, now: datetime) -> None:
        def work(session: Session) -> None:
            row = session.get(SyncCursorRow, repo)
            if row is None:
                session.add(SyncCursorRow(repo=repo, cursor=cursor, updated_at=now))
            else:
                row.cursor, row.updated_at = cursor, now

        self._tx.write(work)
