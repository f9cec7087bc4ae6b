"""The archive: items, coverage spans and the incremental sync cursor.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "items",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("author", sa.String(100)),
        sa.Column("labels", sa.JSON, nullable=False),
        sa.Column("state", sa.String(20), nullable=False),
        sa.Column("state_reason", sa.String(40)),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
        sa.Column("closed_at", UTCDateTime),
        sa.Column("merged_at", UTCDateTime),
        sa.Column("url", sa.Text, nullable=False),
        sa.Column("comments", sa.Integer, nullable=False),
        sa.Column("body", sa.Text),
        sa.Column("author_association", sa.String(40)),
        sa.Column("draft", sa.Boolean, nullable=False),
        sa.Column("reactions", sa.Integer, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_items_created_at", "items", ["created_at"])
    op.create_index("ix_items_closed_at", "items", ["closed_at"])
    op.create_table(
        "coverage",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("repo", sa.String(200), nullable=False),
        sa.Column("start", UTCDateTime, nullable=False),
        sa.Column("end", UTCDateTime, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("recorded_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_coverage_repo", "coverage", ["repo"])
    op.create_table(
        "sync_cursors",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("cursor", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sync_cursors")
    op.drop_table("coverage")
    op.drop_table("items")
