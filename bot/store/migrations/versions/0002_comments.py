"""Comment threads of hot-discussion candidates, and when each was read.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "comments",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("comment_id", sa.BigInteger, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("author", sa.String(100)),
        sa.Column("author_association", sa.String(40)),
        sa.Column("created_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_comments_number", "comments", ["number"])
    op.create_table(
        "comment_fetches",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("since", UTCDateTime, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("comment_fetches")
    op.drop_table("comments")
