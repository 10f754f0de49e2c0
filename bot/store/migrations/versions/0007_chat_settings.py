"""Per-chat settings: chat_settings (turn timer, pictures, who opens tables, default rule options
per game) and table_option_sources (where each option of a table came from, for /rules).

The chat's language stays in ``chats.locale`` and its deck style in ``adapter_state`` (kind
``style``), where ``/lang`` and ``/style`` kept them: ``/settings`` reads and writes those same
places, so nothing a chat set before this migration is lost and nothing needs copying.

Revision ID: 0007
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_settings",
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("chat_id", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_option_sources",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("sources", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_option_sources")
    op.drop_table("chat_settings")
