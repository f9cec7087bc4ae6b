"""The tables, as SQLAlchemy 2.x declarative classes; Alembic migrations create them. The
features' tables are in bot.store.schema_features; both are re-exported here with the base,
so that every table is known wherever the schema is imported."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.schema_base import HEAD_REVISION as HEAD_REVISION
from bot.store.schema_base import Base as Base
from bot.store.schema_base import UTCDateTime as UTCDateTime
from bot.store.schema_features import BranchHeadRow as BranchHeadRow
from bot.store.schema_features import CiCorrectionRow as CiCorrectionRow
from bot.store.schema_features import CiEvidenceRow as CiEvidenceRow
from bot.store.schema_features import CiFailureRow as CiFailureRow
from bot.store.schema_features import CiReadRow as CiReadRow
from bot.store.schema_features import CodeBlobRow as CodeBlobRow
from bot.store.schema_features import CodeFileRow as CodeFileRow
from bot.store.schema_features import CodeTreeRow as CodeTreeRow
from bot.store.schema_features import CompareRow as CompareRow
from bot.store.schema_features import FeedbackRow as FeedbackRow
from bot.store.schema_features import PinCommitRow as PinCommitRow
from bot.store.schema_features import PinReadRow as PinReadRow
from bot.store.schema_features import PullChangeRow as PullChangeRow
from bot.store.schema_features import RadarCorrectionRow as RadarCorrectionRow
from bot.store.schema_features import RadarForecastRow as RadarForecastRow
from bot.store.schema_features import RadarWarningRow as RadarWarningRow
from bot.store.schema_features import RadarWarningSentRow as RadarWarningSentRow


class ItemRow(Base):
    __tablename__ = "items"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    title: Mapped[str] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(100))
    labels: Mapped[list[str]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(20))
    state_reason: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    merged_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    url: Mapped[str] = mapped_column(Text)
    comments: Mapped[int] = mapped_column(Integer, default=0)
    body: Mapped[str | None] = mapped_column(Text)
    author_association: Mapped[str | None] = mapped_column(String(40))
    draft: Mapped[bool] = mapped_column(Boolean, default=False)
    reactions: Mapped[int] = mapped_column(Integer, default=0)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CoverageRow(Base):
    __tablename__ = "coverage"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200), index=True)
    start: Mapped[datetime] = mapped_column(UTCDateTime)
    end: Mapped[datetime] = mapped_column(UTCDateTime)
    source: Mapped[str] = mapped_column(String(20))
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SyncCursorRow(Base):
    __tablename__ = "sync_cursors"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    cursor: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CommentRow(Base):
    __tablename__ = "comments"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    comment_id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    author: Mapped[str | None] = mapped_column(String(100))
    author_association: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    body: Mapped[str | None] = mapped_column(Text)  # None: stored before bodies were kept


class CommentFetchRow(Base):
    """When an item's comment thread was last read, and from when on."""

    __tablename__ = "comment_fetches"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    since: Mapped[datetime] = mapped_column(UTCDateTime)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ProseRow(Base):
    """Model-written prose, cached by a hash of (prompt version, model, language, facts)."""

    __tablename__ = "prose_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    model: Mapped[str] = mapped_column(String(200))
    value: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DeliveryRow(Base):
    """The delivery ledger: one row per (repo, window, destination, part); see bot/deliver.py."""

    __tablename__ = "deliveries"
    __table_args__ = (UniqueConstraint("repo", "window", "destination", "part"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200))
    window: Mapped[str] = mapped_column(String(80))
    destination: Mapped[str] = mapped_column(String(120))
    part: Mapped[str] = mapped_column(String(80))
    state: Mapped[str] = mapped_column(String(12))  # claimed, sent, confirmed
    message_id: Mapped[str | None] = mapped_column(String(80))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # The lease: only `owner` may send the part, and only until `lease_until`.
    owner: Mapped[str | None] = mapped_column(String(120))
    lease_until: Mapped[datetime | None] = mapped_column(UTCDateTime)


class DestinationRow(Base):
    """A destination that failed as gone (deleted, archived, no access) and how often."""

    __tablename__ = "destinations"

    destination: Mapped[str] = mapped_column(String(120), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class LeaseRow(Base):
    """A named lease (the scheduler's leadership): one holder at a time, with a fencing token.

    `epoch` grows by one each time the lease changes hands, so a holder that lost it (and
    may not know yet) can be told from the new one.
    """

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(80), primary_key=True)
    owner: Mapped[str] = mapped_column(String(120))
    epoch: Mapped[int] = mapped_column(BigInteger)
    lease_until: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SubscriptionRow(Base):
    __tablename__ = "subscriptions"
    __table_args__ = (UniqueConstraint("platform", "target_kind", "target_id", "topic"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(10))  # slack, discord
    target_kind: Mapped[str] = mapped_column(String(10))  # channel, dm
    target_id: Mapped[str] = mapped_column(String(40))
    topic: Mapped[str] = mapped_column(String(200))
    created_by: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # daily, weekly or off (a personal digest's; a topic digest is daily); since 0011
    cadence: Mapped[str] = mapped_column(String(10), default="daily", server_default="daily")


class GitHubLinkRow(Base):
    """A chat user's GitHub login (`/vllm-me github <login>`): theirs alone to change."""

    __tablename__ = "github_links"

    platform: Mapped[str] = mapped_column(String(10), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    login: Mapped[str] = mapped_column(String(100))
    linked_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PullFactsRow(Base):
    """Files, requested reviewers and review decision of a PR, or an issue's last comments,
    as GitHub showed them when the item was at `item_updated_at` (read again only for a
    newer item)."""

    __tablename__ = "pull_facts"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    paths: Mapped[list[str]] = mapped_column(JSON)
    more_paths: Mapped[bool] = mapped_column(Boolean)
    requested: Mapped[list[str]] = mapped_column(JSON)
    decision: Mapped[str | None] = mapped_column(String(30))
    comments: Mapped[list[list[str]] | None] = mapped_column(JSON, nullable=True)  # [login, ISO]
    item_updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PullDetailsRow(Base):
    """Size and reviewers of a PR, as the pulls API showed them when the item was at
    `item_updated_at` (a newer item means the details may have changed)."""

    __tablename__ = "pull_details"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    additions: Mapped[int | None] = mapped_column(Integer)
    deletions: Mapped[int | None] = mapped_column(Integer)
    changed_files: Mapped[int | None] = mapped_column(Integer)
    reviewers: Mapped[list[str]] = mapped_column(JSON)
    item_updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # [login, approved | changes_requested, ISO time], oldest first; NULL: read before 0011
    verdicts: Mapped[list[list[str]] | None] = mapped_column(JSON, nullable=True)


class ResponseFactRow(Base):
    """A PR merged or an issue opened, as far as the queue's response times go; `final` once
    nothing can change it (merged or closed, or an issue answered): never read again."""

    __tablename__ = "response_facts"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    title: Mapped[str] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(100))
    labels: Mapped[list[str]] = mapped_column(JSON)
    author_association: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ready_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    merged_at: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    first_response_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    responder: Mapped[str | None] = mapped_column(String(100))
    known: Mapped[bool] = mapped_column(Boolean, default=True)
    first_merge: Mapped[bool | None] = mapped_column(Boolean)
    final: Mapped[bool] = mapped_column(Boolean, default=False)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ResponseSpanRow(Base):
    """A span whose merged PRs (`kind` pr) or opened issues (`kind` issue) were all read."""

    __tablename__ = "response_spans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    repo: Mapped[str] = mapped_column(String(200), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    start: Mapped[datetime] = mapped_column(UTCDateTime)
    end: Mapped[datetime] = mapped_column(UTCDateTime)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class LookupRow(Base):
    """What GitHub answered when asked about one upstream number or commit (the breakage
    radar's check of a culprit): `key` is `#N` or the commit's sha as named; `number` the
    item found (a commit's: the pull request that merged it), None when GitHub had none. The
    item itself is archived in `items`."""

    __tablename__ = "lookups"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    number: Mapped[int | None] = mapped_column(Integer)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ReleaseRow(Base):
    """When one release of a repository came out (bot.collect.releases): published on
    GitHub, or its tag's commit; `fetched_at` is when GitHub was read."""

    __tablename__ = "releases"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    tag: Mapped[str] = mapped_column(String(100), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    prerelease: Mapped[bool] = mapped_column(Boolean, default=False)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)
