"""The breakage radar's pin history, as GitHub told it once: each pin file's commits and
what each pinned, how far each file's commit list was read, upstream main's head at past
moments, and how far one commit is ahead of another. Every row is a fact about commits,
which never change, so nothing here is ever asked of GitHub twice
(`bot.features.radar.collect_pins`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import BranchHeadRow, CompareRow, PinCommitRow, PinReadRow


@dataclass(frozen=True)
class FileCommit:
    sha: str
    at: datetime
    read: bool  # whether the file's text at this commit was read
    present: bool  # False: this commit deleted the file
    pinned: str | None  # the upstream it named then (None: none, or the file was deleted)


class PinArchive:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def commits(self, repo: str, path: str, ref: str) -> tuple[list[FileCommit], datetime | None]:
        """The file's archived commits, oldest first, and how far its list was read."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(PinCommitRow)
                .where(PinCommitRow.repo == repo, PinCommitRow.path == path)
                .where(PinCommitRow.ref == ref)
                .order_by(PinCommitRow.committed_at, PinCommitRow.sha)
            )
            found = [FileCommit(r.sha, r.committed_at, r.read, r.present, r.pinned) for r in rows]
            read = session.get(PinReadRow, (repo, path, ref))
            return found, (read.read_until if read else None)

    def add_commits(
        self,
        repo: str,
        path: str,
        ref: str,
        commits: Iterable[tuple[str, datetime]],
        read_until: datetime,
    ) -> None:
        """Commits of the file listed up to `read_until` (those known already are kept with
        what was read of them)."""

        listed = list(commits)

        def work(session: Session) -> None:
            for sha, at in listed:
                if session.get(PinCommitRow, (repo, path, ref, sha)) is None:
                    row = PinCommitRow(
                        repo=repo,
                        path=path,
                        ref=ref,
                        sha=sha,
                        committed_at=at,
                        read=False,
                        present=True,
                    )
                    session.merge(row)
            held = session.get(PinReadRow, (repo, path, ref))
            if held is None or held.read_until < read_until:
                session.merge(PinReadRow(repo=repo, path=path, ref=ref, read_until=read_until))

        self._tx.write(work)

    def set_pinned(
        self, repo: str, path: str, ref: str, sha: str, pinned: str | None, *, present: bool
    ) -> None:
        """What the file named at commit `sha` (read once: a commit never changes)."""

        def work(session: Session) -> None:
            row = session.get(PinCommitRow, (repo, path, ref, sha))
            if row is not None:
                row.read, row.present, row.pinned = True, present, pinned

        self._tx.write(work)

    def head(self, repo: str, ref: str, at: datetime) -> tuple[str, datetime] | None:
        with self._tx.begin() as session:
            row = session.get(BranchHeadRow, (repo, ref, at))
            return (row.sha, row.committed_at) if row else None

    def save_head(self, repo: str, ref: str, at: datetime, sha: str, committed: datetime) -> None:
        row = BranchHeadRow(repo=repo, ref=ref, at=at, sha=sha, committed_at=committed)
        self._tx.write(lambda session: session.merge(row))

    def compare(self, repo: str, base: str, head: str) -> tuple[int, datetime] | None:
        with self._tx.begin() as session:
            row = session.get(CompareRow, (repo, base, head))
            return (row.ahead_by, row.base_at) if row else None

    def save_compare(
        self, repo: str, base: str, head: str, ahead_by: int, base_at: datetime
    ) -> None:
        row = CompareRow(repo=repo, base=base, head=head, ahead_by=ahead_by, base_at=base_at)
        self._tx.write(lambda session: session.merge(row))
