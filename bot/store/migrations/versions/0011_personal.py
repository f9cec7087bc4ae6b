"""Personal digests: a cadence per subscription, room for a path glob in its topic, chat
users' GitHub logins, and the PR facts (files, requested reviewers, review decision); the
approvals and change requests of a PR's details (what "since last time" tells).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.store.schema import UTCDateTime

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite alters a column by copying the table (batch mode); PostgreSQL in place.
    with op.batch_alter_table("subscriptions") as batch:
        batch.add_column(
            sa.Column("cadence", sa.String(10), nullable=False, server_default="daily")
        )
        batch.alter_column(  # a path glob is longer than a topic key
            "topic", type_=sa.String(200), existing_type=sa.String(40), existing_nullable=False
        )
    op.add_column("pull_details", sa.Column("verdicts", sa.JSON, nullable=True))
    op.create_table(
        "github_links",
        sa.Column("platform", sa.String(10), primary_key=True),
        sa.Column("user_id", sa.String(40), primary_key=True),
        sa.Column("login", sa.String(100), nullable=False),
        sa.Column("linked_at", UTCDateTime, nullable=False),
    )
    op.create_table(
        "pull_facts",
        sa.Column("repo", sa.String(200), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("paths", sa.JSON, nullable=False),
        sa.Column("more_paths", sa.Boolean, nullable=False),
        sa.Column("requested", sa.JSON, nullable=False),
        sa.Column("decision", sa.String(30)),
        sa.Column("comments", sa.JSON, nullable=True),
        sa.Column("item_updated_at", UTCDateTime, nullable=False),
        sa.Column("fetched_at", UTCDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pull_facts")
    op.drop_table("github_links")
    with op.batch_alter_table("pull_details") as batch:
        batch.drop_column("verdicts")
    with op.batch_alter_table("subscriptions") as batch:
        batch.alter_column(
            "topic", type_=sa.String(40), existing_type=sa.String(200), existing_nullable=False
        )
        batch.drop_column("cadence")
