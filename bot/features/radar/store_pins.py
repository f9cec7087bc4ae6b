"""The breakage radar's facts about commits, as GitHub told them once: each pin file's
commits and what each pinned, how far each file's commit list was read, upstream main's head
at past moments, and how far one commit is ahead of another (`PinArchive`,
`bot.features.radar.collect_pins`); and the code at commits its warnings read
(`CodeArchive`, `bot.features.radar.collect_code`): a plugin's Python files at a commit,
vLLM's files at a commit, a pull request's changed files at a head. Every row is a fact
about commits, which never change, so nothing here is ever asked of GitHub twice.

(Here rather than in a module of their own: the SQL contract in pyproject.toml names the
radar's two store modules as the only ones of the feature that may talk SQL.)
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.store.engine import Transactions
from bot.store.schema import (
    BranchHeadRow,
    CodeBlobRow,
    CodeFileRow,
    CodeTreeRow,
    CompareRow,
    PinCommitRow,
    PinReadRow,
    PullChangeRow,
)


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


def blob_sha(text: str) -> str:
    """Git's name for a file's text (what GitHub's contents API calls its `sha`)."""
    data = text.encode("utf-8")
    header = f"blob {len(data)}\0".encode()
    return hashlib.sha1(header + data, usedforsecurity=False).hexdigest()


@dataclass(frozen=True)
class Tree:
    """A repository's Python files at a commit, as read once from its tarball."""

    repo: str
    commit: str
    read_at: datetime
    files: dict[str, str]  # path → text
    unreadable: dict[str, str]  # path → why


@dataclass(frozen=True)
class Held:
    """A file at a commit as the archive holds it: its text, or None (`why` None: no such
    file there; else why it could not be read)."""

    text: str | None
    why: str | None = None


class CodeArchive:
    """Source code at commits, each file's text kept once by its blob sha (compressed)."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    # -- a repository's Python files at a commit (a plugin's tarball, read once) --

    def tree(self, repo: str, commit: str) -> Tree | None:
        with self._tx.begin() as session:
            row = session.get(CodeTreeRow, (repo, commit))
            if row is None:
                return None
            texts = self._texts(session, set(row.files.values()))
            files = {path: texts[sha] for path, sha in row.files.items() if sha in texts}
            missing = {
                path: "not in the archive" for path, sha in row.files.items() if sha not in texts
            }
            return Tree(repo, commit, row.read_at, files, {**row.unreadable, **missing})

    def has_tree(self, repo: str, commit: str) -> bool:
        with self._tx.begin() as session:
            return session.get(CodeTreeRow, (repo, commit)) is not None

    def trees(self, repo: str, since: datetime | None = None) -> list[tuple[str, datetime]]:
        """The commits of `repo` read (read at or after `since`), oldest read first."""
        query = select(CodeTreeRow.commit, CodeTreeRow.read_at).where(CodeTreeRow.repo == repo)
        if since is not None:
            query = query.where(CodeTreeRow.read_at >= since)
        with self._tx.begin() as session:
            rows = session.execute(query.order_by(CodeTreeRow.read_at, CodeTreeRow.commit))
            return [(commit, at) for commit, at in rows]

    def save_tree(
        self,
        repo: str,
        commit: str,
        files: Mapping[str, str],
        unreadable: Mapping[str, str],
        now: datetime,
    ) -> None:
        shas = {path: blob_sha(text) for path, text in files.items()}

        def work(session: Session) -> None:
            self._keep(session, {shas[path]: text for path, text in files.items()})
            if session.get(CodeTreeRow, (repo, commit)) is None:
                session.add(
                    CodeTreeRow(
                        repo=repo,
                        commit=commit,
                        read_at=now,
                        files=shas,
                        unreadable=dict(unreadable),
                    )
                )

        self._tx.write(work)

    # -- one file at a commit (vLLM's modules a change touches) --

    def file(self, repo: str, ref: str, path: str) -> Held | None:
        """The file as archived, or None when it was never asked for."""
        with self._tx.begin() as session:
            row = session.get(CodeFileRow, (repo, ref, path))
            if row is None:
                return None
            if row.blob is None:
                return Held(None, row.why)
            text = self._texts(session, {row.blob}).get(row.blob)
            return Held(text, None if text is not None else "not in the archive")

    def save_file(self, repo: str, ref: str, path: str, held: Held, now: datetime) -> None:
        sha = blob_sha(held.text) if held.text is not None else None

        def work(session: Session) -> None:
            if sha is not None and held.text is not None:
                self._keep(session, {sha: held.text})
            session.merge(
                CodeFileRow(repo=repo, ref=ref, path=path, blob=sha, why=held.why, fetched_at=now)
            )

        self._tx.write(work)

    # -- a pull request's changed files at a head --

    def changes(
        self, repo: str, number: int, head: str
    ) -> tuple[str, list[tuple[str, str, str | None]]] | None:
        """The PR's base then and its changed files (path, status, previous path), as
        listed at head `head`; None when never listed."""
        with self._tx.begin() as session:
            row = session.get(PullChangeRow, (repo, number, head))
            if row is None:
                return None
            return row.base, [(str(f[0]), str(f[1]), f[2]) for f in row.files]

    def save_changes(
        self,
        repo: str,
        number: int,
        head: str,
        base: str,
        files: Iterable[tuple[str, str, str | None]],
        now: datetime,
    ) -> None:
        listed: list[list[str | None]] = [
            [path, status, previous] for path, status, previous in files
        ]
        row = PullChangeRow(
            repo=repo, number=number, head=head, base=base, read_at=now, files=listed
        )
        self._tx.write(lambda session: session.merge(row))

    # -- the texts --

    @staticmethod
    def _keep(session: Session, texts: Mapping[str, str]) -> None:
        if not texts:
            return
        known = set(
            session.scalars(select(CodeBlobRow.sha).where(CodeBlobRow.sha.in_(list(texts))))
        )
        for sha, text in texts.items():
            if sha not in known:
                data = text.encode("utf-8")
                session.add(CodeBlobRow(sha=sha, data=zlib.compress(data, 6)))
                known.add(sha)

    @staticmethod
    def _texts(session: Session, shas: set[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        wanted = sorted(shas)
        for start in range(0, len(wanted), 500):  # a parameter list the databases allow
            rows = session.execute(
                select(CodeBlobRow.sha, CodeBlobRow.data).where(
                    CodeBlobRow.sha.in_(wanted[start : start + 500])
                )
            )
            for sha, data in rows:
                found[sha] = zlib.decompress(data).decode("utf-8")
        return found
