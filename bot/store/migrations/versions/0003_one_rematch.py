"""One rematch per finished table: a unique index on tables.rematch_of.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ux_tables_rematch_of", "tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tables_rematch_of", "tables")
