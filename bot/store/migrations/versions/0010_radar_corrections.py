"""Radar corrections: an upstream PR a person said did not break a plugin PR.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-10
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "radar_corrections",
        sa.Column("plugin_repo", sa.String(200), primary_key=True),
        sa.Column("plugin_number", sa.Integer, primary_key=True),
        sa.Column("upstream_number", sa.Integer, primary_key=True),
        sa.Column("said_by", sa.String(80), nullable=False),
        sa.Column("said_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("radar_corrections")
