"""Comment bodies: what a hot discussion argued, for the model's account of it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Threads read before this revision keep no body (None); the next read fills them in.
    op.add_column("comments", sa.Column("body", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("comments") as batch:  # SQLite drops a column by copying
        batch.drop_column("body")
