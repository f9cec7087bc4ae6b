"""Who gets which digest: a channel or a person's DMs, per platform, and how often.

A subscription's `key` (bot.model.subscriptions.SubscriptionKey) is a topic (`amd`), the
Plugins section (`plugins`, `radar:vllm-ascend`), Red on main (`ci`, `ci:amd`) or a personal
filter (`label:rocm`, `author:alice`, `path:vllm/v1/**`, `mine`). The table keeps it as
text in its `topic` column; this module turns one into the other, and nothing above it
reads that text."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, select
from sqlalchemy.exc import IntegrityError

from bot.model.subscriptions import SubscriptionKey, SubscriptionKeyError
from bot.store.engine import Transactions
from bot.store.schema import SubscriptionRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Subscription:
    platform: str
    target_kind: str  # channel, dm
    target_id: str
    key: SubscriptionKey
    created_by: str
    cadence: str = "daily"  # daily, weekly, off (bot.features.personal.model.CADENCES)

    def __post_init__(self) -> None:
        # Code outside the type-checked packages (benchmarks/personal_requests.py, tests)
        # still gives the stored text; it is parsed here, once, so `key` is always a key.
        key: object = self.key
        if isinstance(key, str):
            object.__setattr__(self, "key", SubscriptionKey.parse(key))

    @property
    def topic(self) -> str:
        """The key's stored text, for those outside bot/ that compare text (tests); the bot
        reads `key`."""
        return self.key.text


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
                        topic=sub.key.text,
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
            return [sub for row in session.scalars(query) if (sub := _subscription(row))]


def _subscription(row: SubscriptionRow) -> Subscription | None:
    """The row's subscription; None, and a log line, for a key no version of the bot
    stores: one unreadable row must not stop every other subscriber's digest."""
    try:
        key = SubscriptionKey.parse(row.topic)
    except SubscriptionKeyError as exc:
        log.warning(
            "subscription %s skipped: its key %r is unreadable (%s)", row.id, row.topic, exc
        )
        return None
    return Subscription(
        row.platform, row.target_kind, row.target_id, key, row.created_by, row.cadence
    )


def _same(sub: Subscription) -> Select[SubscriptionRow]:
    """The stored row of the same place and topic as `sub`."""
    return select(SubscriptionRow).where(
        SubscriptionRow.platform == sub.platform,
        SubscriptionRow.target_kind == sub.target_kind,
        SubscriptionRow.target_id == sub.target_id,
        SubscriptionRow.topic == sub.key.text,
    )
