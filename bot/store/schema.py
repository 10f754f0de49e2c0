"""The database schema, as SQLAlchemy Core tables (the migrations create exactly these).

Times are UNIX seconds (float) so SQLite and PostgreSQL store them alike; JSON documents are
stored as text written by the store, so both dialects hold the same bytes.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

chats = sa.Table(
    "chats",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("chat_id", sa.String(64), primary_key=True),
    sa.Column("locale", sa.String(8), nullable=True),
    # How many open (lobby or playing) tables the chat may hold at once.
    sa.Column("max_open_tables", sa.Integer, nullable=False, server_default="1"),
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(128), nullable=False, server_default=""),
    sa.Column("locale", sa.String(8), nullable=True),
)

tables = sa.Table(
    "tables",
    metadata,
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
    # The version ``state`` was saved at: the moves from this version on replay to the present
    # (a snapshot every few moves keeps a move's write small; the move rows are the record).
    sa.Column("state_version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("seed", sa.BigInteger, nullable=False),
    # Every change bumps the version; updates are compare-and-set on it.
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("deadline_kind", sa.String(16), nullable=True),
    sa.Column("rematch_of", sa.Integer, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # Set only on a table imported from an export-game file (migration 0005): the game's
    # stable id across databases, so a second import of the same game is recognised.
    sa.Column("origin", sa.String(80), nullable=True),
    sa.Index("ix_tables_chat_status", "platform", "chat_id", "status"),
    sa.Index("ix_tables_deadline", "deadline"),
    # One rematch per finished table, however many players press "rematch" at once.
    sa.Index("ux_tables_rematch_of", "rematch_of", unique=True),
    sa.Index("ux_tables_origin", "origin", unique=True),
)

# Who sits at which table, so a user's tables are found without scanning seat documents.
members = sa.Table(
    "members",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.String(64), primary_key=True),
    sa.Index("ix_members_user", "platform", "user_id"),
)

# The full move log: with the table's seed and options it replays the game in the engine.
moves = sa.Table(
    "moves",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    # The table version the move was played on: the primary key forbids two moves on one version.
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("move", sa.String(128), nullable=False),
    sa.Column("actor", sa.String(16), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

results = sa.Table(
    "results",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("platform", sa.String(16), nullable=False),
    sa.Column("chat_id", sa.String(64), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("family", sa.String(32), nullable=False),
    sa.Column("winner_side", sa.Integer, nullable=True),
    # FIGS single/double/triple win = 1/2/3; otherwise 1.
    sa.Column("multiplier", sa.Integer, nullable=False),
    # {"sides": [[seat, ...], ...], "points": [...], "ranks": [...], "seats": [...]}
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=False),
)

# Current OpenSkill rating of a player, per scope ("global" or "<platform>:<chat_id>") and family.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("scope", sa.String(96), primary_key=True),
    sa.Column("family", sa.String(32), primary_key=True),
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(128), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    # The conservative rating (mu - 3 sigma) the leaderboard sorts by.
    sa.Column("ordinal", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    # Wins weighted by the FIGS multiplier.
    sa.Column("win_points", sa.Integer, nullable=False),
    sa.Index("ix_ratings_board", "scope", "family", "ordinal"),
)

# Every rating update, per finished game (the audit trail of the leaderboard).
rating_changes = sa.Table(
    "rating_changes",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("scope", sa.String(96), primary_key=True),
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.String(64), primary_key=True),
    sa.Column("mu_before", sa.Float, nullable=False),
    sa.Column("sigma_before", sa.Float, nullable=False),
    sa.Column("mu_after", sa.Float, nullable=False),
    sa.Column("sigma_after", sa.Float, nullable=False),
)

# What the chat adapters remember between processes (migration 0004): which message shows a
# table or a hand (so a restarted or second process edits it in place), a chat's or user's deck
# style, users who want direct messages, uploaded picture ids. ``scope`` is the chat or user id
# (or another key, e.g. a picture digest); ``table_id`` 0 when it is about no table; ``value``
# a JSON document written by the store.
adapter_state = sa.Table(
    "adapter_state",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("scope", sa.String(96), primary_key=True),
    sa.Column("table_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # A finished table's entries are dropped together.
    sa.Index("ix_adapter_state_table", "platform", "table_id"),
)

# A chat's own settings (migration 0007): ``/settings`` in a chat, one row per setting.
# ``key`` names it (``timer``, ``pictures``, ``open``, or ``<game>.<option>`` for a default rule
# option of a game); ``value`` a JSON document written by the store. No row: the bot's default.
# The chat's language stays in ``chats.locale`` and its deck style in ``adapter_state`` (where
# ``/lang`` and ``/style`` always kept them), so nothing set before is lost.
chat_settings = sa.Table(
    "chat_settings",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("chat_id", sa.String(64), primary_key=True),
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

# Where each rule option of a table came from (migration 0007), for ``/rules``: a JSON object
# ``{option: "chat" | "command"}``; an option not named is the game's default.
table_option_sources = sa.Table(
    "table_option_sources",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("sources", sa.Text, nullable=False),
)
