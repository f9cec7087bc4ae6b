"""Pin history: the commits of the plugins' pin files and what each pinned, main's head at
past moments, and compares of two commits (the breakage radar's pins of any day).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pin_commits",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("path", sa.String(300), primary_key=True),
        sa.Column("ref", sa.String(200), primary_key=True),
        sa.Column("sha", sa.String(40), primary_key=True),
        sa.Column("committed_at", UTCDateTime, nullable=False),
        sa.Column("read", sa.Boolean, nullable=False),
        sa.Column("present", sa.Boolean, nullable=False),
        sa.Column("pinned", sa.String(64), nullable=True),
    )
    op.create_table(
        "pin_reads",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("path", sa.String(300), primary_key=True),
        sa.Column("ref", sa.String(200), primary_key=True),
        sa.Column("read_until", UTCDateTime, nullable=False),
    )
    op.create_table(
        "branch_heads",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("ref", sa.String(200), primary_key=True),
        sa.Column("at", UTCDateTime, primary_key=True),
        sa.Column("sha", sa.String(40), nullable=False),
        sa.Column("committed_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "compares",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("base", sa.String(64), primary_key=True),
        sa.Column("head", sa.String(64), primary_key=True),
        sa.Column("ahead_by", sa.Integer, nullable=False),
        sa.Column("base_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    for table in ("compares", "branch_heads", "pin_reads", "pin_commits"):
        op.drop_table(table)
