"""Comment threads of hot-discussion candidates, and when each thread was read."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.model.report import CommentRecord
from bot.store.engine import Transactions
from bot.store.schema import CommentFetchRow, CommentRow
from bot.store.spans import Span


class Threads:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(
        self,
        repo: str,
        number: int,
        comments: Iterable[CommentRecord],
        since: datetime,
        fetched_at: datetime,
    ) -> None:
        """Store a thread read from `since` on, and remember that it was read."""
        comments = list(comments)

        def work(session: Session) -> None:
            for comment in comments:
                session.merge(
                    CommentRow(
                        repo=repo,
                        comment_id=comment.comment_id,
                        number=comment.number,
                        author=comment.author,
                        author_association=comment.author_association,
                        created_at=comment.created_at,
                        body=comment.body,
                    )
                )
            fetch = session.get(CommentFetchRow, (repo, number))
            if fetch is None:
                session.add(
                    CommentFetchRow(repo=repo, number=number, since=since, fetched_at=fetched_at)
                )
            else:
                fetch.since, fetch.fetched_at = min(fetch.since, since), fetched_at

        self._tx.write(work)

    def known(self, repo: str, number: int, span: Span) -> bool:
        """True when #number's thread was read from before `span` to after it."""
        with self._tx.begin() as session:
            fetch = session.get(CommentFetchRow, (repo, number))
            return fetch is not None and fetch.since <= span.start and fetch.fetched_at >= span.end

    def of(self, repo: str, numbers: Iterable[int]) -> dict[int, list[CommentRecord]]:
        """The stored threads of `numbers` that were ever read (unread ones are absent)."""
        wanted = set(numbers)
        with self._tx.begin() as session:
            read = set(
                session.scalars(
                    select(CommentFetchRow.number).where(
                        CommentFetchRow.repo == repo, CommentFetchRow.number.in_(wanted)
                    )
                )
            )
            threads: dict[int, list[CommentRecord]] = {n: [] for n in read}
            rows = session.scalars(
                select(CommentRow)
                .where(CommentRow.repo == repo, CommentRow.number.in_(read))
                .order_by(CommentRow.created_at)
            )
            for row in rows:
                threads[row.number].append(
                    CommentRecord(
                        repo,
                        row.number,
                        row.comment_id,
                        row.author,
                        row.author_association,
                        row.created_at,
                        row.body or "",
                    )
                )
        return threads
