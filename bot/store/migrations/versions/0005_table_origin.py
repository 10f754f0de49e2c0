"""Imported games: tables.origin, the stable id of a game that came from an export-game file.

``tavolo import`` stores the game's origin (``bot.store.game_origin`` of the table it was exported
from) so that importing the same file again, or the export of an imported table back into its
source database, is recognised instead of counting the result and the ratings twice. Tables
played here keep ``NULL``; the unique index makes two concurrent imports of one game collide.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("origin", sa.String(80), nullable=True))
    op.create_index("ux_tables_origin", "tables", ["origin"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tables_origin", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("origin")
