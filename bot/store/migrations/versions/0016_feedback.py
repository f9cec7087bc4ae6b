"""Readers' word on each section of a day's post (useful or not), one row per reader,
section and day.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("platform", sa.String(20), primary_key=True),
        sa.Column("user_id", sa.String(100), primary_key=True),
        sa.Column("day", sa.String(60), primary_key=True),
        sa.Column("section", sa.String(60), primary_key=True),
        sa.Column("useful", sa.Boolean, nullable=False),
        sa.Column("at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("feedback")
