"""Chats and users (locale, open-table limit), per-chat settings, a table's option sources."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping

import sqlalchemy as sa

from bot.domain.records import JSONObject
from bot.store import schema
from bot.store.base import Database
from bot.store.rows import ChatRow, dumps

__all__ = ["SettingsStore"]


class SettingsStore:
    """Chats, users and per-chat settings, a table's option sources (a part of
    :class:`bot.store.Store`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def chat(self, *, platform: str, chat_id: str) -> ChatRow:
        c = schema.chats
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(c).where(c.c.platform == platform, c.c.chat_id == chat_id)
                )
            ).first()
        if row is None:
            return ChatRow(platform, chat_id, None, 1)
        return ChatRow(**dict(row._mapping))

    async def _upsert(
        self, table: sa.Table, key: Mapping[str, object], values: Mapping[str, object]
    ) -> None:
        """Update the row with this key, or insert it: plain SQL both dialects share."""
        async with self.db.engine.begin() as conn:
            updated = await conn.execute(
                table.update()
                .where(*(table.c[name] == value for name, value in key.items()))
                .values(**values)
            )
            if updated.rowcount == 0:
                await conn.execute(table.insert().values(**key, **values))

    async def set_chat(
        self, *, platform: str, chat_id: str, locale: str | None, max_open_tables: int
    ) -> None:
        await self._upsert(
            schema.chats,
            {"platform": platform, "chat_id": chat_id},
            {"locale": locale, "max_open_tables": max_open_tables},
        )

    async def user_locale(self, *, platform: str, user_id: str) -> str | None:
        u = schema.users
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u.c.locale).where(u.c.platform == platform, u.c.user_id == user_id)
                )
            ).first()
        return None if row is None else row[0]

    async def set_user_locale(
        self, *, platform: str, user_id: str, name: str, locale: str | None
    ) -> None:
        await self._upsert(
            schema.users,
            {"platform": platform, "user_id": user_id},
            {"locale": locale, "name": name},
        )

    async def chat_settings(self, *, platform: str, chat_id: str) -> JSONObject:
        """A chat's own settings, ``{key: value}`` (a setting never changed is absent)."""
        s = schema.chat_settings
        async with self.db.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(s.c.key, s.c.value).where(
                        s.c.platform == platform, s.c.chat_id == chat_id
                    )
                )
            ).all()
        return {key: json.loads(value) for key, value in rows}

    async def set_chat_setting(
        self, value: object, *, platform: str, chat_id: str, key: str
    ) -> None:
        """Set one setting of a chat; ``None`` removes it (back to the bot's default)."""
        s = schema.chat_settings
        if not key or len(key) > 64:
            raise ValueError(f"a chat setting's key must be 1..64 characters: {key!r}")
        where = (s.c.platform == platform, s.c.chat_id == chat_id, s.c.key == key)
        if value is None:
            async with self.db.engine.begin() as conn:
                await conn.execute(s.delete().where(*where))
            return
        await self._upsert(
            s,
            {"platform": platform, "chat_id": chat_id, "key": key},
            {"value": dumps(value), "updated_at": time.time()},
        )

    async def set_option_sources(self, table_id: int, sources: dict[str, str]) -> None:
        """Where the table's rule options came from (``{option: "chat" | "command"}``)."""
        await self._upsert(
            schema.table_option_sources, {"table_id": table_id}, {"sources": dumps(sources)}
        )

    async def option_sources(self, table_id: int) -> dict[str, str]:
        """The table's option sources (``{}``: every option is the game's default)."""
        t = schema.table_option_sources
        async with self.db.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.c.sources).where(t.c.table_id == table_id))
            ).first()
        if row is None:
            return {}
        found = json.loads(row[0])
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}
