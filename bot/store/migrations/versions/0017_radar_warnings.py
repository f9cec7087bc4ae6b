"""The breakage radar's warnings: source code at commits (blobs, plugin trees, files at a
commit, a pull request's changed files at a head), the warnings given and graded, the
warnings sent to each subscription, and each window's warnings as shown.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-08
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "code_blobs",
        sa.Column("sha", sa.String(40), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "code_trees",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("commit", sa.String(40), primary_key=True),
        sa.Column("read_at", UTCDateTime, nullable=False),
        sa.Column("files", sa.JSON, nullable=False),
        sa.Column("unreadable", sa.JSON, nullable=False),
    )
    op.create_index("ix_code_trees_read_at", "code_trees", ["read_at"])
    op.create_table(
        "code_files",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("ref", sa.String(64), primary_key=True),
        sa.Column("path", sa.String(500), primary_key=True),
        sa.Column("blob", sa.String(40), nullable=True),
        sa.Column("why", sa.String(300), nullable=True),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "pull_changes",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("head", sa.String(40), primary_key=True),
        sa.Column("base", sa.String(40), nullable=False),
        sa.Column("read_at", UTCDateTime, nullable=False),
        sa.Column("files", sa.JSON, nullable=False),
    )
    op.create_table(
        "radar_warnings",
        sa.Column("plugin_repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("change", sa.String(400), primary_key=True),
        sa.Column("warned", sa.JSON, nullable=False),
        sa.Column("stage", sa.String(10), nullable=False),
        sa.Column("first_at", UTCDateTime, nullable=False),
        sa.Column("merged_at", UTCDateTime, nullable=True),
        sa.Column("grade", sa.String(20), nullable=True),
        sa.Column("graded_at", UTCDateTime, nullable=True),
    )
    op.create_table(
        "radar_warnings_sent",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("plugin_repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("change", sa.String(400), primary_key=True),
        sa.Column("stage", sa.String(10), primary_key=True),
        sa.Column("window", sa.String(60), nullable=False),
        sa.Column("sent_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "radar_forecasts",
        sa.Column("start", UTCDateTime, primary_key=True),
        sa.Column("end", UTCDateTime, primary_key=True),
        sa.Column("made_at", UTCDateTime, nullable=False),
        sa.Column("forecast", sa.JSON, nullable=False),
    )
    op.create_index("ix_radar_forecasts_made_at", "radar_forecasts", ["made_at"])


def downgrade() -> None:
    op.drop_index("ix_radar_forecasts_made_at", "radar_forecasts")
    op.drop_index("ix_code_trees_read_at", "code_trees")
    for table in (
        "radar_forecasts",
        "radar_warnings_sent",
        "radar_warnings",
        "pull_changes",
        "code_files",
        "code_trees",
        "code_blobs",
    ):
        op.drop_table(table)
