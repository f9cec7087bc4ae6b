"""Pull details: size of the change and reviewers, for key-change candidates.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "pull_details",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("additions", sa.Integer),
        sa.Column("deletions", sa.Integer),
        sa.Column("changed_files", sa.Integer),
        sa.Column("reviewers", sa.JSON, nullable=False),
        sa.Column("item_updated_at", UTCDateTime, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pull_details")
