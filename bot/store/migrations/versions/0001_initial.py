"""The first schema: chats, users, tables, members, moves, results, ratings, rating changes.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chats",
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("chat_id", sa.String(64), primary_key=True),
        sa.Column("locale", sa.String(8), nullable=True),
        sa.Column("max_open_tables", sa.Integer, nullable=False, server_default="1"),
    )
    op.create_table(
        "users",
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(128), nullable=False, server_default=""),
        sa.Column("locale", sa.String(8), nullable=True),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator", sa.String(64), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deadline_kind", sa.String(16), nullable=True),
        sa.Column("rematch_of", sa.Integer, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_chat_status", "tables", ["platform", "chat_id", "status"])
    op.create_index("ix_tables_deadline", "tables", ["deadline"])
    op.create_table(
        "members",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.String(64), primary_key=True),
    )
    op.create_index("ix_members_user", "members", ["platform", "user_id"])
    op.create_table(
        "moves",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(128), nullable=False),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "results",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("winner_side", sa.Integer, nullable=True),
        sa.Column("multiplier", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("scope", sa.String(96), primary_key=True),
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("win_points", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["scope", "family", "ordinal"])
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("scope", sa.String(96), primary_key=True),
        sa.Column("platform", sa.String(16), primary_key=True),
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("rating_changes", "ratings", "results", "moves", "members", "tables", "users"):
        op.drop_table(name)
    op.drop_table("chats")
