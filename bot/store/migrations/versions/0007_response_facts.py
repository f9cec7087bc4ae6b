"""Response facts of the review queue: per merged PR and opened issue, and the spans read.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "response_facts",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("author", sa.String(100)),
        sa.Column("labels", sa.JSON, nullable=False),
        sa.Column("author_association", sa.String(40)),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("ready_at", UTCDateTime),
        sa.Column("merged_at", UTCDateTime),
        sa.Column("closed_at", UTCDateTime),
        sa.Column("first_response_at", UTCDateTime),
        sa.Column("responder", sa.String(100)),
        sa.Column("known", sa.Boolean, nullable=False),
        sa.Column("first_merge", sa.Boolean),
        sa.Column("final", sa.Boolean, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_response_facts_created_at", "response_facts", ["created_at"])
    op.create_index("ix_response_facts_merged_at", "response_facts", ["merged_at"])
    op.create_table(
        "response_spans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("repo", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("start", UTCDateTime, nullable=False),
        sa.Column("end", UTCDateTime, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )
    op.create_index("ix_response_spans_repo", "response_spans", ["repo"])


def downgrade() -> None:
    op.drop_table("response_spans")
    op.drop_table("response_facts")
