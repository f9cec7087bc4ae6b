"""What GitHub answered about single upstream numbers and commits, so each is asked once.

A number GitHub has no item for (404) and a commit no pull request merged leave nothing in
`items`; the lookup says they were asked, when, and what was found (a commit: which PR).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from bot.store.engine import Transactions
from bot.store.schema import LookupRow


@dataclass(frozen=True)
class Lookup:
    number: int | None  # the item found (a commit's: the PR that merged it); None: none
    fetched_at: datetime


class Lookups:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(self, repo: str, key: str, number: int | None, fetched_at: datetime) -> None:
        row = LookupRow(repo=repo, key=key, number=number, fetched_at=fetched_at)
        # Two runs may ask at once: `write` merges again when the other stored it first.
        self._tx.write(lambda session: session.merge(row))

    def of(self, repo: str, keys: Iterable[str]) -> dict[str, Lookup]:
        """The stored answers among `keys` (the rest were never asked)."""
        wanted = set(keys)
        if not wanted:
            return {}
        with self._tx.begin() as session:
            rows = session.scalars(
                select(LookupRow).where(LookupRow.repo == repo, LookupRow.key.in_(wanted))
            )
            return {row.key: Lookup(row.number, row.fetched_at) for row in rows}
