"""What personal digests keep: chat users' GitHub logins (`/vllm-me`), and the PR facts a
digest reads (files, requested reviewers, review decision), each read once per version of
its PR (a newer `updated_at` on the item means they may have changed)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select

from bot.features.personal.model import PullFacts
from bot.store.engine import Transactions
from bot.store.schema import GitHubLinkRow, PullFactsRow


class GitHubLinks:
    """platform + chat user id → GitHub login; each user's own row, nobody else's."""

    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def link(self, platform: str, user: str, login: str, now: datetime) -> str | None:
        """Link `user` to `login`; the login it was linked to before (None: none)."""
        with self._tx.begin() as session:
            row = session.get(GitHubLinkRow, (platform, user))
            if row is None:
                session.add(
                    GitHubLinkRow(platform=platform, user_id=user, login=login, linked_at=now)
                )
                return None
            was, row.login, row.linked_at = row.login, login, now
            return was

    def unlink(self, platform: str, user: str) -> str | None:
        """Forget `user`'s login; the login it was (None: there was none)."""
        with self._tx.begin() as session:
            row = session.get(GitHubLinkRow, (platform, user))
            if row is None:
                return None
            session.delete(row)
            return row.login

    def login(self, platform: str, user: str) -> str | None:
        with self._tx.begin() as session:
            row = session.get(GitHubLinkRow, (platform, user))
            return row.login if row is not None else None

    def all(self) -> dict[tuple[str, str], str]:
        """Every link: (platform, user) → login (the daily run reads them once)."""
        with self._tx.begin() as session:
            return {
                (r.platform, r.user_id): r.login for r in session.scalars(select(GitHubLinkRow))
            }


class PullFactsStore:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(
        self, repo: str, facts: PullFacts, item_updated_at: datetime, fetched_at: datetime
    ) -> None:
        row = PullFactsRow(
            repo=repo,
            number=facts.number,
            paths=list(facts.paths),
            more_paths=facts.more_paths,
            requested=list(facts.requested),
            decision=facts.decision,
            comments=[[login, at.isoformat()] for login, at in facts.comments],
            item_updated_at=item_updated_at,
            fetched_at=fetched_at,
        )
        self._tx.write(lambda session: session.merge(row))  # a second run read them too

    def of(self, repo: str, numbers: Iterable[int]) -> dict[int, tuple[PullFacts, datetime]]:
        """Stored facts by number, each with the item version it was read for."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(PullFactsRow).where(
                    PullFactsRow.repo == repo, PullFactsRow.number.in_(set(numbers))
                )
            )
            return {
                row.number: (
                    PullFacts(
                        row.number,
                        tuple(row.paths),
                        row.more_paths,
                        tuple(row.requested),
                        row.decision,
                        tuple(
                            (login, datetime.fromisoformat(at)) for login, at in row.comments or ()
                        ),
                    ),
                    row.item_updated_at,
                )
                for row in rows
            }
