"""Alembic environment: run with a connection handed in by ``bot.store.migrate``."""

from __future__ import annotations

from alembic import context

from bot.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only reached by a misconfigured direct alembic call
    raise RuntimeError("run migrations with `tavolo db upgrade` (bot.store.migrate)")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
