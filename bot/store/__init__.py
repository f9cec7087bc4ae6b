"""The store: the archive (items, coverage, cursor, threads, prose) and the delivery ledger.

SQLAlchemy 2.x on SQLite by default, PostgreSQL when `DATABASE_URL` says so; the schema is
versioned with Alembic and brought up to date when the store opens. Only this package
imports SQLAlchemy: `schema.py` (tables), `engine.py` (opening, upgrading), `spans.py`
(coverage arithmetic), and here the `Store` with its short transactions.

Coverage is what makes the archive answer without GitHub: a row `[start, end)` says every
issue and PR created or closed in that span was collected, with the state GitHub showed at
`recorded_at`. Only complete collections write coverage, so a partial fetch keeps its items
but never passes for a whole window.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from bot.report import ActivityItem, CommentRecord
from bot.store.engine import MIGRATIONS, _first_line, _make_engine, _safe_url, upgrade
from bot.store.schema import (
    Base,
    CommentFetchRow,
    CommentRow,
    CoverageRow,
    DeliveryRow,
    DestinationRow,
    ItemRow,
    ProseRow,
    SubscriptionRow,
    SyncCursorRow,
    UTCDateTime,
)
from bot.store.spans import Span, merge_spans, subtract_spans

__all__ = [
    "MIGRATIONS",
    "Base",
    "ItemRow",
    "Ledger",
    "Span",
    "Store",
    "StoreError",
    "Subscription",
    "UTCDateTime",
    "merge_spans",
    "subtract_spans",
]


@dataclass(frozen=True)
class Ledger:
    """What the ledger holds for one part: its state and the platform's message id."""

    state: str
    message_id: str | None
    attempts: int
    new: bool  # True when this call created the claim


@dataclass(frozen=True)
class Subscription:
    platform: str
    target_kind: str
    target_id: str
    topic: str
    created_by: str


class StoreError(Exception):
    """The database could not be opened or written; the message says which and why."""


class Store:
    """All persistence of the bot. Open once per process; short transactions only."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine = _make_engine(url)
            upgrade(self.engine)
        except Exception as exc:  # driver errors vary; the message is what matters
            raise StoreError(
                f"cannot open the store ({_safe_url(url)}): {_first_line(exc)}"
            ) from exc
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions.begin() as session:
            yield session

    # -- items -------------------------------------------------------------------------

    def save_items(self, items: Iterable[ActivityItem], fetched_at: datetime) -> int:
        """Insert or update items by (repo, number); the newest GitHub view wins."""
        rows = [_to_row(item, fetched_at) for item in items]
        if not rows:
            return 0
        with self._session() as session:
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
        return len(rows)

    def items_touching(self, repo: str, span: Span) -> list[ActivityItem]:
        """Items created or closed (merges close too) inside `span`."""
        with self._session() as session:
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

    def item(self, repo: str, number: int) -> ActivityItem | None:
        with self._session() as session:
            row = session.get(ItemRow, (repo, number))
            return _from_row(row) if row is not None else None

    def count_items(self, repo: str) -> int:
        with self._session() as session:
            return len(session.scalars(select(ItemRow.number).where(ItemRow.repo == repo)).all())

    # -- coverage ----------------------------------------------------------------------

    def add_coverage(self, repo: str, span: Span, source: str, recorded_at: datetime) -> None:
        with self._session() as session:
            session.add(
                CoverageRow(
                    repo=repo,
                    start=span.start,
                    end=span.end,
                    source=source,
                    recorded_at=recorded_at,
                )
            )

    def coverage(self, repo: str) -> list[Span]:
        """The collected spans of `repo`, merged where they touch or overlap."""
        with self._session() as session:
            rows = session.execute(
                select(CoverageRow.start, CoverageRow.end)
                .where(CoverageRow.repo == repo)
                .order_by(CoverageRow.start)
            ).all()
        return merge_spans(Span(start, end) for start, end in rows)

    def gaps(self, repo: str, wanted: Span) -> list[Span]:
        """The parts of `wanted` that no coverage row answers for."""
        return subtract_spans(wanted, self.coverage(repo))

    # -- comment threads ---------------------------------------------------------------

    def save_comments(
        self,
        repo: str,
        number: int,
        comments: Iterable[CommentRecord],
        since: datetime,
        fetched_at: datetime,
    ) -> None:
        """Store a thread read from `since` on, and remember that it was read."""
        with self._session() as session:
            for comment in comments:
                session.merge(
                    CommentRow(
                        repo=repo,
                        comment_id=comment.comment_id,
                        number=comment.number,
                        author=comment.author,
                        author_association=comment.author_association,
                        created_at=comment.created_at,
                    )
                )
            fetch = session.get(CommentFetchRow, (repo, number))
            if fetch is None:
                session.add(
                    CommentFetchRow(repo=repo, number=number, since=since, fetched_at=fetched_at)
                )
            else:
                fetch.since, fetch.fetched_at = min(fetch.since, since), fetched_at

    def comments_known(self, repo: str, number: int, span: Span) -> bool:
        """True when #number's thread was read from before `span` to after it."""
        with self._session() as session:
            fetch = session.get(CommentFetchRow, (repo, number))
            return fetch is not None and fetch.since <= span.start and fetch.fetched_at >= span.end

    def comments_for(self, repo: str, numbers: Iterable[int]) -> dict[int, list[CommentRecord]]:
        """The stored threads of `numbers` that were ever read (unread ones are absent)."""
        wanted = set(numbers)
        with self._session() as session:
            read = set(
                session.scalars(
                    select(CommentFetchRow.number).where(
                        CommentFetchRow.repo == repo, CommentFetchRow.number.in_(wanted)
                    )
                )
            )
            threads: dict[int, list[CommentRecord]] = {n: [] for n in read}
            rows = session.scalars(
                select(CommentRow)
                .where(CommentRow.repo == repo, CommentRow.number.in_(read))
                .order_by(CommentRow.created_at)
            )
            for row in rows:
                threads[row.number].append(
                    CommentRecord(
                        repo,
                        row.number,
                        row.comment_id,
                        row.author,
                        row.author_association,
                        row.created_at,
                    )
                )
        return threads

    # -- model prose cache -------------------------------------------------------------

    def get_prose(self, key: str) -> dict[str, Any] | None:
        with self._session() as session:
            row = session.get(ProseRow, key)
            return dict(row.value) if row is not None else None

    def put_prose(self, key: str, model: str, value: dict[str, Any]) -> None:
        with self._session() as session:
            session.merge(ProseRow(key=key, model=model, value=value, created_at=datetime.now(UTC)))

    # -- incremental sync cursor -------------------------------------------------------

    def sync_cursor(self, repo: str) -> datetime | None:
        with self._session() as session:
            row = session.get(SyncCursorRow, repo)
            return row.cursor if row else None

    def set_sync_cursor(self, repo: str, cursor: datetime, now: datetime) -> None:
        with self._session() as session:
            row = session.get(SyncCursorRow, repo)
            if row is None:
                session.add(SyncCursorRow(repo=repo, cursor=cursor, updated_at=now))
            else:
                row.cursor, row.updated_at = cursor, now

    # -- delivery ledger ---------------------------------------------------------------

    def claim(self, repo: str, window: str, destination: str, part: str, now: datetime) -> Ledger:
        """Claim a part for sending, or return what an earlier run recorded for it.

        The unique constraint makes two runs race safely: the loser sees the winner's row.
        """
        with self._session() as session:
            row = _ledger_row(session, repo, window, destination, part)
            if row is not None:
                row.attempts += 1
                row.updated_at = now
                return Ledger(row.state, row.message_id, row.attempts, new=False)
        try:
            with self._session() as session:
                session.add(
                    DeliveryRow(
                        repo=repo,
                        window=window,
                        destination=destination,
                        part=part,
                        state="claimed",
                        message_id=None,
                        attempts=1,
                        updated_at=now,
                    )
                )
            return Ledger("claimed", None, 1, new=True)
        except IntegrityError:
            with self._session() as session:
                row = _ledger_row(session, repo, window, destination, part)
                assert row is not None  # noqa: S101 - the conflicting row exists
                return Ledger(row.state, row.message_id, row.attempts, new=False)

    def record(
        self,
        repo: str,
        window: str,
        destination: str,
        part: str,
        state: str,
        message_id: str | None,
        now: datetime,
    ) -> None:
        with self._session() as session:
            row = _ledger_row(session, repo, window, destination, part)
            if row is None:
                session.add(
                    DeliveryRow(
                        repo=repo,
                        window=window,
                        destination=destination,
                        part=part,
                        state=state,
                        message_id=message_id,
                        attempts=1,
                        updated_at=now,
                    )
                )
            else:
                row.state, row.updated_at = state, now
                row.message_id = message_id or row.message_id

    def deliveries(self, repo: str, window: str, destination: str) -> dict[str, Ledger]:
        with self._session() as session:
            rows = session.scalars(
                select(DeliveryRow).where(
                    DeliveryRow.repo == repo,
                    DeliveryRow.window == window,
                    DeliveryRow.destination == destination,
                )
            )
            return {r.part: Ledger(r.state, r.message_id, r.attempts, new=False) for r in rows}

    def destination_failed(self, destination: str, reason: str, limit: int, now: datetime) -> bool:
        """Count a 'gone' failure; True when the destination is now disabled."""
        with self._session() as session:
            row = session.get(DestinationRow, destination)
            if row is None:
                row = DestinationRow(
                    destination=destination, failures=0, disabled=False, updated_at=now
                )
                session.add(row)
            row.failures += 1
            row.reason, row.updated_at = reason, now
            row.disabled = row.failures >= limit
            return row.disabled

    def destination_ok(self, destination: str) -> None:
        with self._session() as session:
            row = session.get(DestinationRow, destination)
            if row is not None and not row.disabled:
                row.failures = 0

    def disabled_destinations(self) -> dict[str, str]:
        with self._session() as session:
            rows = session.scalars(select(DestinationRow).where(DestinationRow.disabled))
            return {r.destination: r.reason or "" for r in rows}

    # -- subscriptions -----------------------------------------------------------------

    def subscribe(self, sub: Subscription, now: datetime) -> bool:
        """Add a subscription; False when it already existed."""
        try:
            with self._session() as session:
                session.add(
                    SubscriptionRow(
                        platform=sub.platform,
                        target_kind=sub.target_kind,
                        target_id=sub.target_id,
                        topic=sub.topic,
                        created_by=sub.created_by,
                        created_at=now,
                    )
                )
            return True
        except IntegrityError:
            return False

    def unsubscribe(self, sub: Subscription) -> bool:
        with self._session() as session:
            row = session.scalars(
                select(SubscriptionRow).where(
                    SubscriptionRow.platform == sub.platform,
                    SubscriptionRow.target_kind == sub.target_kind,
                    SubscriptionRow.target_id == sub.target_id,
                    SubscriptionRow.topic == sub.topic,
                )
            ).first()
            if row is None:
                return False
            session.delete(row)
            return True

    def subscriptions(
        self, platform: str | None = None, target_ids: Iterable[str] | None = None
    ) -> list[Subscription]:
        with self._session() as session:
            query = select(SubscriptionRow).order_by(SubscriptionRow.id)
            if platform is not None:
                query = query.where(SubscriptionRow.platform == platform)
            if target_ids is not None:
                query = query.where(SubscriptionRow.target_id.in_(list(target_ids)))
            return [
                Subscription(r.platform, r.target_kind, r.target_id, r.topic, r.created_by)
                for r in session.scalars(query)
            ]


def _ledger_row(
    session: Session, repo: str, window: str, destination: str, part: str
) -> DeliveryRow | None:
    return session.scalars(
        select(DeliveryRow).where(
            DeliveryRow.repo == repo,
            DeliveryRow.window == window,
            DeliveryRow.destination == destination,
            DeliveryRow.part == part,
        )
    ).first()


# Item rows mirror ActivityItem field for field (plus fetched_at); labels are a JSON list.
_ITEM_FIELDS = tuple(f.name for f in fields(ActivityItem))


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
