"""Pull details (lines, files, reviewers) of key-change candidates, read once per version."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import select

from bot.model.report import PullDetails, Verdict
from bot.store.engine import Transactions
from bot.store.schema import PullDetailsRow

NEVER = datetime.min.replace(tzinfo=UTC)  # "read for no version": any item is newer


class PullDetailsStore:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(
        self, repo: str, details: PullDetails, item_updated_at: datetime, fetched_at: datetime
    ) -> None:
        row = PullDetailsRow(
            repo=repo,
            number=details.number,
            additions=details.additions,
            deletions=details.deletions,
            changed_files=details.changed_files,
            reviewers=list(details.reviewers),
            verdicts=[[v.login, v.state, v.at.isoformat()] for v in details.verdicts],
            item_updated_at=item_updated_at,
            fetched_at=fetched_at,
        )
        # Two runs of one day (an operator's `post` beside the scheduled job) read the same
        # candidates: `write` runs the merge again when the other stored the row first.
        self._tx.write(lambda session: session.merge(row))

    def of(self, repo: str, numbers: Iterable[int]) -> dict[int, tuple[PullDetails, datetime]]:
        """Stored details by number, each with the item version it was read for (details
        read before verdicts were kept count as read for no version: read again once)."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(PullDetailsRow).where(
                    PullDetailsRow.repo == repo, PullDetailsRow.number.in_(set(numbers))
                )
            )
            return {
                row.number: (
                    PullDetails(
                        row.number,
                        row.additions,
                        row.deletions,
                        row.changed_files,
                        tuple(row.reviewers),
                        tuple(
                            Verdict(login, state, datetime.fromisoformat(at))
                            for login, state, at in row.verdicts or ()
                        ),
                    ),
                    row.item_updated_at if row.verdicts is not None else NEVER,
                )
                for row in rows
            }
