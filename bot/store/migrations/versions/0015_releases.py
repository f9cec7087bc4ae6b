"""When each release of a repository came out, read once for windows from a release
(`since v0.33.0`).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "releases",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("tag", sa.String(100), primary_key=True),
        sa.Column("at", UTCDateTime, nullable=False),
        sa.Column("prerelease", sa.Boolean, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("releases")
