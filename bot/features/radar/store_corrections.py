"""What people said the breakage radar got wrong, and what the archive says of reverts.

- `RadarCorrections`: `/vllm-radar wrong <plugin PR> <upstream PR>` (and `vllm-report radar
  wrong`): that upstream PR did not break that plugin PR. Kept for good; the radar applies
  every one (`bot.features.radar.culprits.corrected`).
- `Reverts`: the archived upstream PRs titled "Revert …" merged since a moment, for
  the radar to say whether a culprit was since reverted (from the archive alone).

Neither is a concern of `Store` itself: `of_store` opens them on a store's engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from bot.features.radar.model import Correction
from bot.model.report import ActivityItem
from bot.store.engine import Transactions
from bot.store.items import Items
from bot.store.schema import ItemRow, RadarCorrectionRow

if TYPE_CHECKING:
    from bot.store import Store


class RadarCorrections:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> RadarCorrections:
        return cls(Transactions(store.engine, store.url))

    def add(self, correction: Correction) -> bool:
        """Keep a correction; False when the same pair was corrected before (the first
        word, its author and time, stands)."""
        row = RadarCorrectionRow(
            plugin_repo=correction.plugin_repo,
            plugin_number=correction.plugin_number,
            upstream_number=correction.upstream_number,
            said_by=correction.by[:80],
            said_at=correction.at,
        )
        try:
            with self._tx.begin(conflicts=True) as session:
                session.add(row)
            return True
        except IntegrityError:
            return False

    def of(self, plugin_repos: Iterable[str] | None = None) -> list[Correction]:
        """The corrections of these plugins (all when None), oldest first."""
        query = select(RadarCorrectionRow).order_by(
            RadarCorrectionRow.said_at,
            RadarCorrectionRow.plugin_repo,
            RadarCorrectionRow.plugin_number,
            RadarCorrectionRow.upstream_number,
        )
        if plugin_repos is not None:
            query = query.where(RadarCorrectionRow.plugin_repo.in_(list(plugin_repos)))
        with self._tx.begin() as session:
            return [
                Correction(
                    row.plugin_repo,
                    row.plugin_number,
                    row.upstream_number,
                    row.said_by,
                    row.said_at,
                )
                for row in session.scalars(query)
            ]


class Reverts:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    @classmethod
    def of_store(cls, store: Store) -> Reverts:
        return cls(Transactions(store.engine, store.url))

    def merged_since(self, repo: str, since: datetime) -> list[ActivityItem]:
        """The archived PRs of `repo` merged after `since` whose title says revert (the
        caller reads which PR each reverts)."""
        with self._tx.begin() as session:
            numbers = session.scalars(
                select(ItemRow.number).where(
                    ItemRow.repo == repo,
                    ItemRow.merged_at > since,
                    ItemRow.title.ilike("%revert%"),
                )
            ).all()
        return Items(self._tx).many(repo, numbers)
