"""Issues and PRs as GitHub last showed them, keyed by (repo, number)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.model.report import ActivityItem
from bot.store.engine import Transactions
from bot.store.schema import ItemRow
from bot.store.spans import Span

# Item rows mirror ActivityItem field for field (plus fetched_at); labels are a JSON list.
_ITEM_FIELDS = tuple(f.name for f in fields(ActivityItem))


class Items:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def save(self, items: Iterable[ActivityItem], fetched_at: datetime) -> int:
        """Insert or update items by (repo, number); the newest GitHub view wins."""
        rows = [_to_row(item, fetched_at) for item in items]
        if not rows:
            return 0

        def work(session: Session) -> None:
            existing = {
                (row.repo, row.number): row
                for row in session.scalars(
                    select(ItemRow).where(
                        ItemRow.repo.in_({r["repo"] for r in rows}),
                        ItemRow.number.in_({r["number"] for r in rows}),
                    )
                )
            }
            for values in rows:
                row = existing.get((values["repo"], values["number"]))
                if row is None:
                    session.add(ItemRow(**values))
                elif values["updated_at"] >= row.updated_at:
                    for key, value in values.items():
                        setattr(row, key, value)

        self._tx.write(work)  # another process may store the same items at once
        return len(rows)

    def touching(self, repo: str, span: Span) -> list[ActivityItem]:
        """Items created or closed (merges close too) inside `span`."""
        with self._tx.begin() as session:
            rows = session.scalars(
                select(ItemRow).where(
                    ItemRow.repo == repo,
                    (
                        (ItemRow.created_at >= span.start) & (ItemRow.created_at < span.end)
                        | (ItemRow.closed_at >= span.start) & (ItemRow.closed_at < span.end)
                        | (ItemRow.merged_at >= span.start) & (ItemRow.merged_at < span.end)
                    ),
                )
            ).all()
            return [_from_row(row) for row in rows]

    def many(self, repo: str, numbers: Iterable[int]) -> list[ActivityItem]:
        """The archived items among `numbers` (the rest are simply absent)."""
        wanted = set(numbers)
        if not wanted:
            return []
        with self._tx.begin() as session:
            rows = session.scalars(
                select(ItemRow).where(ItemRow.repo == repo, ItemRow.number.in_(wanted))
            ).all()
            return [_from_row(row) for row in rows]

    def get(self, repo: str, number: int) -> ActivityItem | None:
        with self._tx.begin() as session:
            row = session.get(ItemRow, (repo, number))
            return _from_row(row) if row is not None else None


def _to_row(item: ActivityItem, fetched_at: datetime) -> dict[str, Any]:
    values = {name: getattr(item, name) for name in _ITEM_FIELDS}
    values["labels"] = list(item.labels)
    values["fetched_at"] = fetched_at
    return values


def _from_row(row: ItemRow) -> ActivityItem:
    values = {name: getattr(row, name) for name in _ITEM_FIELDS}
    labels = row.labels if isinstance(row.labels, list) else json.loads(row.labels)
    values["labels"] = tuple(labels)
    return ActivityItem(**values)
