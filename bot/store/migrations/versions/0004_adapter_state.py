"""Adapter state in the database: adapter_state (message ids, deck styles, DM wishes, file ids).

Telegram's table and hand message ids (kept in memory before) and Discord's table-message index
and DM choices (JSON files in DATA_DIR before) live here, so several processes on one database
edit the same messages.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "adapter_state",
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("scope", sa.String(96), primary_key=True),
        sa.Column("table_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_adapter_state_table", "adapter_state", ["platform", "table_id"])


def downgrade() -> None:
    op.drop_index("ix_adapter_state_table", "adapter_state")
    op.drop_table("adapter_state")
