"""Delivery leases (owner, expiry) on each ledger row, and named leases (scheduler leader).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("deliveries") as batch:
        batch.add_column(sa.Column("owner", sa.String(120)))
        batch.add_column(sa.Column("lease_until", UTCDateTime))
    op.create_table(
        "leases",
        sa.Column("name", sa.String(80), primary_key=True),
        sa.Column("owner", sa.String(120), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("lease_until", UTCDateTime, nullable=False),
        sa.Column("updated_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("owner")
