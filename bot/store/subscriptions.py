"""Who gets which digest: a channel or a person's DMs, per platform, and how often.

A subscription's `topic` is a topic key (`amd`, `plugins`) or a personal filter's key
(`label:rocm`, `author:alice`, `path:vllm/v1/**`, `mine`: bot.model.personal.Filter)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError

from bot.store.engine import Transactions
from bot.store.schema import SubscriptionRow


@dataclass(frozen=True)
class Subscription:
    platform: str
    target_kind: str  # channel, dm
    target_id: str
    topic: str
    created_by: str
    cadence: str = "daily"  # daily, weekly, off (bot.model.personal.CADENCES)


class Subscriptions:
    def __init__(self, transactions: Transactions) -> None:
        self._tx = transactions

    def add(self, sub: Subscription, now: datetime) -> bool:
        """Add a subscription; False when it already existed."""
        try:
            with self._tx.begin(conflicts=True) as session:
                session.add(
                    SubscriptionRow(
                        platform=sub.platform,
                        target_kind=sub.target_kind,
                        target_id=sub.target_id,
                        topic=sub.topic,
                        created_by=sub.created_by,
                        created_at=now,
                        cadence=sub.cadence,
                    )
                )
            return True
        except IntegrityError:
            return False

    def remove(self, sub: Subscription) -> bool:
        with self._tx.begin() as session:
            row = session.scalars(_same(sub)).first()
            if row is None:
                return False
            session.delete(row)
            return True

    def set_cadence(self, sub: Subscription) -> str | None:
        """Give the stored subscription `sub`'s cadence; the cadence it had (None: there is
        no such subscription)."""
        with self._tx.begin() as session:
            row = session.scalars(_same(sub)).first()
            if row is None:
                return None
            was, row.cadence = row.cadence, sub.cadence
            return was

    def list(
        self, platform: str | None = None, target_ids: Iterable[str] | None = None
    ) -> list[Subscription]:
        with self._tx.begin() as session:
            query = select(SubscriptionRow).order_by(SubscriptionRow.id)
            if platform is not None:
                query = query.where(SubscriptionRow.platform == platform)
            if target_ids is not None:
                query = query.where(SubscriptionRow.target_id.in_(list(target_ids)))
            return [
                Subscription(
                    r.platform, r.target_kind, r.target_id, r.topic, r.created_by, r.cadence
                )
                for r in session.scalars(query)
            ]


def _same(sub: Subscription) -> Select[SubscriptionRow]:
    """The stored row of the same place and topic as `sub`."""
    return select(SubscriptionRow).where(
        SubscriptionRow.platform == sub.platform,
        SubscriptionRow.target_kind == sub.target_kind,
        SubscriptionRow.target_id == sub.target_id,
        SubscriptionRow.topic == sub.topic,
    )
