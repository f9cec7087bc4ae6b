"""Red on main's evidence: what the bot asked to explain a failure (a job's runs, a blame
range's commits, CODEOWNERS, the GitHub reports of CI failures), kept so a past day is
told again without a request.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ci_evidence",
        sa.Column("source", sa.String(300), primary_key=True),
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("asked_at", UTCDateTime, nullable=False),
        sa.Column("value", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ci_evidence")
