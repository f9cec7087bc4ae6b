"""Model-written prose, cached by a hash of (prompt version, model, language, facts)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.store.engine import Transactions
from bot.store.schema import ProseRow


class ProseCache:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def get(self, key: str) -> dict[str, Any] | None:
        with self._tx.begin() as session:
            row = session.get(ProseRow, key)
            return dict(row.value) if row is not None else None

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        row = ProseRow(key=key, model=model, value=value, created_at=datetime.now(UTC))
        self._tx.write(lambda session: session.merge(row))
