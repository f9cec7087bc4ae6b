"""The repository's releases as last read from GitHub (bot.collect.releases): a window from
a release (`since v0.33.0`) asks GitHub once, and a later one the archive."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bot.model.windows import Release
from bot.store.engine import Transactions
from bot.store.schema import ReleaseRow


class Releases:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(self, repo: str, found: Iterable[tuple[Release, bool]], fetched_at: datetime) -> None:
        """Keep each (release, is a pre-release) as read at `fetched_at`."""
        rows = [
            ReleaseRow(repo=repo, tag=r.tag, at=r.at, prerelease=pre, fetched_at=fetched_at)
            for r, pre in found
        ]

        def write(session: Session) -> None:
            for row in rows:  # two readers may store the same release: merge, not insert
                session.merge(row)

        if rows:
            self._tx.write(write)

    def of(self, repo: str, tag: str) -> Release | None:
        with self._tx.begin() as session:
            row = session.get(ReleaseRow, (repo, tag))
            return Release(row.tag, row.at) if row is not None else None

    def newest(self, repo: str) -> tuple[Release, datetime] | None:
        """The newest release that is no pre-release, and when the list was last read."""
        with self._tx.begin() as session:
            row = session.scalars(
                select(ReleaseRow)
                .where(ReleaseRow.repo == repo, ReleaseRow.prerelease.is_(False))
                .order_by(ReleaseRow.at.desc())
                .limit(1)
            ).first()
            if row is None:
                return None
            read = session.scalar(
                select(func.max(ReleaseRow.fetched_at)).where(ReleaseRow.repo == repo)
            )
            return Release(row.tag, row.at), read or row.fetched_at

    def before(self, repo: str, moment: datetime) -> Release | None:
        """The newest release before `moment` that is no pre-release (a release digest's
        start: the one before the release just out)."""
        with self._tx.begin() as session:
            row = session.scalars(
                select(ReleaseRow)
                .where(
                    ReleaseRow.repo == repo,
                    ReleaseRow.prerelease.is_(False),
                    ReleaseRow.at < moment,
                )
                .order_by(ReleaseRow.at.desc())
                .limit(1)
            ).first()
            return Release(row.tag, row.at) if row is not None else None
