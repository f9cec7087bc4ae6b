"""Delivery ledger, gone destinations, topic subscriptions.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deliveries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("repo", sa.String(200), nullable=False),
        sa.Column("window", sa.String(80), nullable=False),
        sa.Column("destination", sa.String(120), nullable=False),
        sa.Column("part", sa.String(80), nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("message_id", sa.String(80)),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
        sa.UniqueConstraint("repo", "window", "destination", "part"),
    )
    op.create_table(
        "destinations",
        sa.Column("destination", sa.String(120), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("disabled", sa.Boolean, nullable=False),
        sa.Column("reason", sa.Text),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("platform", sa.String(10), nullable=False),
        sa.Column("target_kind", sa.String(10), nullable=False),
        sa.Column("target_id", sa.String(40), nullable=False),
        sa.Column("topic", sa.String(40), nullable=False),
        sa.Column("created_by", sa.String(40), nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.UniqueConstraint("platform", "target_kind", "target_id", "topic"),
    )


def downgrade() -> None:
    op.drop_table("subscriptions")
    op.drop_table("destinations")
    op.drop_table("deliveries")
