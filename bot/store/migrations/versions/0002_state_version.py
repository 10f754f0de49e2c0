"""Snapshots: tables.state_version, the version the saved state belongs to.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("state_version", sa.Integer, nullable=False, server_default="0"))
    # Tables saved before snapshots hold the state of their current version.
    op.execute("UPDATE tables SET state_version = version WHERE state IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("state_version")
