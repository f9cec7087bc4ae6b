"""The tables, as SQLAlchemy 2.x declarative classes; Alembic migrations create them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# The newest Alembic revision in bot/migrations/versions (a test keeps the two equal).
HEAD_REVISION = "0017"


class UTCDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, aware UTC datetimes out, on SQLite (which keeps no zone) too."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


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


class RadarCorrectionRow(Base):
    """A person's word that an upstream PR did not break a plugin PR (`/vllm-radar wrong`):
    the breakage radar never shows it as that fix's culprit again."""

    __tablename__ = "radar_corrections"

    plugin_repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    plugin_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    upstream_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    said_by: Mapped[str] = mapped_column(String(80))
    said_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PinCommitRow(Base):
    """A commit of a plugin's pin file (the breakage radar's pin history): when it was made
    and, once read, the upstream vLLM the file named at it (`pinned`; None with `read`: the
    file names none, or was deleted). A commit never changes, so each is read once."""

    __tablename__ = "pin_commits"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    path: Mapped[str] = mapped_column(String(300), primary_key=True)
    ref: Mapped[str] = mapped_column(String(200), primary_key=True)
    sha: Mapped[str] = mapped_column(String(40), primary_key=True)
    committed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    read: Mapped[bool] = mapped_column(Boolean, default=False)
    present: Mapped[bool] = mapped_column(Boolean, default=True)  # False: deleted by it
    pinned: Mapped[str | None] = mapped_column(String(64))


class PinReadRow(Base):
    """How far a pin file's commit list was read: every commit of it up to `read_until` is
    in `pin_commits`."""

    __tablename__ = "pin_reads"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    path: Mapped[str] = mapped_column(String(300), primary_key=True)
    ref: Mapped[str] = mapped_column(String(200), primary_key=True)
    read_until: Mapped[datetime] = mapped_column(UTCDateTime)


class BranchHeadRow(Base):
    """The newest commit of a branch at a past moment (upstream main at a report's end)."""

    __tablename__ = "branch_heads"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    ref: Mapped[str] = mapped_column(String(200), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    sha: Mapped[str] = mapped_column(String(40))
    committed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CompareRow(Base):
    """How many commits `head` is ahead of `base` (a pin and main's head then): two commits
    never change, so neither does the answer."""

    __tablename__ = "compares"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    base: Mapped[str] = mapped_column(String(64), primary_key=True)
    head: Mapped[str] = mapped_column(String(64), primary_key=True)
    ahead_by: Mapped[int] = mapped_column(Integer)
    base_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CiReadRow(Base):
    """One read of the CI dashboard (`bot.features.ci.collect`): when, whether it worked and, if
    not,
    why; how many records it held and how many did not parse. A day's CI state is known
    only from a read that worked (`bot.features.ci.store`)."""

    __tablename__ = "ci_reads"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    source: Mapped[str] = mapped_column(String(300))
    read_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    ok: Mapped[bool] = mapped_column(Boolean)
    problem: Mapped[str] = mapped_column(String(500), default="")
    records: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    oldest: Mapped[datetime | None] = mapped_column(UTCDateTime)  # set when the answer was cut


class CiFailureRow(Base):
    """A failure episode of main's CI as the newest read saw it (`record`: our own
    `Failure`, as JSON); `opened_at` and `closed_at` say which days it belongs to."""

    __tablename__ = "ci_failures"

    source: Mapped[str] = mapped_column(String(300), primary_key=True)
    alert_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)


class CiEvidenceRow(Base):
    """What Red on main asked to explain a failure, kept as asked (`value`, JSON): a job's
    runs (`runs`), a blame range's commit messages (`range`), CODEOWNERS (`owners`), the
    numbers of the GitHub reports of CI failures (`reports`); `key` says of what."""

    __tablename__ = "ci_evidence"

    source: Mapped[str] = mapped_column(String(300), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    value: Mapped[Any] = mapped_column(JSON)


class CiCorrectionRow(Base):
    """A PR a person said did not cause a CI failure (`/vllm-ci wrong`): the report never
    shows it as that failure's suspect again."""

    __tablename__ = "ci_corrections"

    alert_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    said_by: Mapped[str] = mapped_column(String(80))
    said_at: Mapped[datetime] = mapped_column(UTCDateTime)


class CodeBlobRow(Base):
    """A file's text by its git blob sha (zlib), kept once however many commits hold it."""

    __tablename__ = "code_blobs"

    sha: Mapped[str] = mapped_column(String(40), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class CodeTreeRow(Base):
    """A plugin's Python files at a commit, from its tarball: path → blob sha, or → why."""

    __tablename__ = "code_trees"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    commit: Mapped[str] = mapped_column(String(40), primary_key=True)
    read_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    files: Mapped[dict[str, str]] = mapped_column(JSON)
    unreadable: Mapped[dict[str, str]] = mapped_column(JSON)


class CodeFileRow(Base):
    """A file at a commit, as the contents API gave it (`blob` None: none there, or `why`)."""

    __tablename__ = "code_files"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    ref: Mapped[str] = mapped_column(String(64), primary_key=True)
    path: Mapped[str] = mapped_column(String(500), primary_key=True)
    blob: Mapped[str | None] = mapped_column(String(40), nullable=True)
    why: Mapped[str | None] = mapped_column(String(300), nullable=True)
    fetched_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PullChangeRow(Base):
    """A PR's changed files at one head ([path, status, previous path]) and its base then."""

    __tablename__ = "pull_changes"

    repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    head: Mapped[str] = mapped_column(String(40), primary_key=True)
    base: Mapped[str] = mapped_column(String(40))
    read_at: Mapped[datetime] = mapped_column(UTCDateTime)
    files: Mapped[list[list[str | None]]] = mapped_column(JSON)


class RadarWarningRow(Base):
    """A warning given (`warned`), its PR's furthest stage and merge, its grade (or missed)."""

    __tablename__ = "radar_warnings"

    plugin_repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    change: Mapped[str] = mapped_column(String(400), primary_key=True)
    warned: Mapped[dict[str, Any]] = mapped_column(JSON)
    stage: Mapped[str] = mapped_column(String(10))
    first_at: Mapped[datetime] = mapped_column(UTCDateTime)
    merged_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    grade: Mapped[str | None] = mapped_column(String(20), nullable=True)
    graded_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class RadarWarningSentRow(Base):
    """A warning sent to a subscription at a stage of its PR, by the run of `window`."""

    __tablename__ = "radar_warnings_sent"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    plugin_repo: Mapped[str] = mapped_column(String(200), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    change: Mapped[str] = mapped_column(String(400), primary_key=True)
    stage: Mapped[str] = mapped_column(String(10), primary_key=True)
    window: Mapped[str] = mapped_column(String(60))
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)


class RadarForecastRow(Base):
    """A window's warnings as its run showed them (`forecast`, JSON), for a later `show`."""

    __tablename__ = "radar_forecasts"

    start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    end: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    forecast: Mapped[dict[str, Any]] = mapped_column(JSON)
