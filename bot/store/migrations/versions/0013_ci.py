"""Red on main: the CI dashboard's reads, its failure records, and people's corrections of
the suspects.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ci_reads",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(300), nullable=False),
        sa.Column("read_at", UTCDateTime, nullable=False),
        sa.Column("ok", sa.Boolean, nullable=False),
        sa.Column("problem", sa.String(500), nullable=False),
        sa.Column("records", sa.Integer, nullable=False),
        sa.Column("skipped", sa.Integer, nullable=False),
        sa.Column("oldest", UTCDateTime, nullable=True),
    )
    op.create_index("ix_ci_reads_read_at", "ci_reads", ["read_at"])
    op.create_table(
        "ci_failures",
        sa.Column("source", sa.String(300), primary_key=True),
        sa.Column("alert_id", sa.String(40), primary_key=True),
        sa.Column("opened_at", UTCDateTime, nullable=False),
        sa.Column("closed_at", UTCDateTime, nullable=True),
        sa.Column("seen_at", UTCDateTime, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
    )
    op.create_index("ix_ci_failures_opened_at", "ci_failures", ["opened_at"])
    op.create_table(
        "ci_corrections",
        sa.Column("alert_id", sa.String(40), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("said_by", sa.String(80), nullable=False),
        sa.Column("said_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ci_corrections")
    op.drop_index("ix_ci_failures_opened_at", "ci_failures")
    op.drop_table("ci_failures")
    op.drop_index("ix_ci_reads_read_at", "ci_reads")
    op.drop_table("ci_reads")
