"""The features' tables (the breakage radar's, Red on main's, readers' feedback), as
SQLAlchemy 2.x declarative classes on the one base; bot.store.schema re-exports them, and
Alembic migrations create them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Integer,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.store.schema_base import Base, UTCDateTime


class FeedbackRow(Base):
    """One reader's word on one section of one day's post (bot.features.feedback): useful
    or not. One row per reader, section and day: pressed again, the vote changes, never
    counts twice. The platform's user id is all that is kept of the reader."""

    __tablename__ = "feedback"

    platform: Mapped[str] = mapped_column(String(20), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    day: Mapped[str] = mapped_column(String(60), primary_key=True)  # the report's window label
    section: Mapped[str] = mapped_column(String(60), primary_key=True)
    useful: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


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
