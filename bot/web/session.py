"""One page's WebSocket session on the web table: its frames (watch, act, new for local play,
ping) turned into the service's calls, their answers and refusals sent back
(docs/web-protocol.md)."""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from aiohttp import web

from bot.domain.records import JSONObject
from bot.service import ChatRef, Refusal, Result, TableChange, UserRef, encode_button
from bot.web.auth import Identity
from bot.web.hub import Connection

if TYPE_CHECKING:
    from bot.web.server import WebTable

__all__ = ["GAMES", "LOCAL_CHAT", "MAX_ACTION", "Session"]

logger = logging.getLogger(__name__)

LOCAL_CHAT = ChatRef("web", "local")  # ``tavolo web``'s one chat
MAX_ACTION = 200  # characters of an action or move string
GAMES = ("scopa", "scopone", "scientifico", "scala40", "briscola", "chiamata")


class Session:
    """One page's frames: watch, act, new (local play), ping."""

    def __init__(
        self, w: WebTable, conn: Connection, who: Identity, user: UserRef, ws: web.WebSocketResponse
    ) -> None:
        self.w, self.conn, self.who, self.user, self.ws = w, conn, who, user, ws
        self.chats: dict[int, ChatRef] = {}

    async def send(self, frame: Mapping[str, object]) -> None:
        await self.conn.send(json.dumps(frame, ensure_ascii=False))

    async def fail(self, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.send({"type": "error", "reason": reason})

    def _refusal_text(self, refusal: Refusal) -> str:
        return self.w.renderer.refusal(replace(refusal, locale=self.conn.viewer.locale))

    def _code_text(self, code: str) -> str:
        return self._refusal_text(Refusal(code, self.conn.viewer.locale))

    async def handle(self, data: str) -> bool:
        """One frame; False closes the connection."""
        try:
            frame = json.loads(data)
        except ValueError:
            await self.fail("not JSON")
            return False
        if not isinstance(frame, dict):
            await self.fail("not a frame")
            return False
        kind = frame.get("type")
        if kind == "ping":
            await self.send({"type": "pong", "id": frame.get("id")})
            return True
        if not self.w.limiter.allow((self.who.platform, self.who.user_id)):
            await self.send(
                {
                    "type": "refused",
                    "id": frame.get("id"),
                    "code": "rate",
                    "reason": self.w.renderer.translations(self.conn.viewer.locale).gettext(
                        "Too many requests: wait a moment."
                    ),
                }
            )
            return True
        if kind == "watch":
            return await self.watch(frame)
        if kind == "act":
            return await self.act(frame)
        if kind == "new":
            return await self.new(frame)
        await self.fail("unknown frame type")
        return False

    async def watch(self, frame: JSONObject) -> bool:
        table, since = frame.get("table"), frame.get("since")
        if (
            not isinstance(table, int)
            or isinstance(table, bool)
            or not (since is None or (isinstance(since, int) and not isinstance(since, bool)))
        ):
            await self.fail("bad watch frame")
            return False
        current = await self.w.service.current(table)
        if current is None or not self._may_watch(current):
            await self.send(
                {
                    "type": "refused",
                    "table": table,
                    "code": "no_table",
                    "reason": self._code_text("no_table"),
                }
            )
            return True
        self.chats[table] = ChatRef(current.table.platform, current.table.chat_id)
        await self.w.hub.watch(self.conn, current, since)
        return True

    def _may_watch(self, current: TableChange) -> bool:
        """A player sees their own tables; anyone the table their signed link named (a
        spectator); the local player every table of ``tavolo web``."""
        table = current.table
        if table.platform != self.who.platform:
            return False
        if self.who.platform == LOCAL_CHAT.platform:
            return table.chat_id == LOCAL_CHAT.chat_id
        if table.seat_of(self.who.platform, self.who.user_id) is not None:
            return True
        return self.who.start == str(table.id)

    async def act(self, frame: JSONObject) -> bool:
        ident, table, version, action = (
            frame.get("id"),
            frame.get("table"),
            frame.get("version"),
            frame.get("action"),
        )
        if (
            not isinstance(table, int)
            or not isinstance(version, int)
            or not isinstance(action, str)
            or not action
            or len(action) > MAX_ACTION
        ):
            await self.fail("bad act frame")
            return False
        chat = self.chats.get(table)
        if chat is None or self.conn.table != table:
            await self.send(
                {
                    "type": "refused",
                    "id": ident,
                    "code": "no_table",
                    "reason": self._code_text("no_table"),
                }
            )
            return True
        service = self.w.service
        if action[0] in "@?#":
            try:
                data = encode_button(table, version, action)
            except ValueError:
                await self.send(
                    {
                        "type": "refused",
                        "id": ident,
                        "code": "bad_button",
                        "reason": self._code_text("bad_button"),
                    }
                )
                return True
            result = await service.press(chat, self.user, data)
        else:
            result = await service.play(chat, self.user, table, version=version, move=action)
        if result.refusal is not None:
            answer: JSONObject = {
                "type": "refused",
                "id": ident,
                "code": result.refusal.code,
                "reason": self._refusal_text(result.refusal),
            }
            if result.refusal.code == "stale":
                answer["version"] = self.w.hub.version_of(table)
            await self.send(answer)
        else:
            ack: JSONObject = {"type": "ack", "id": ident}
            if result.table is not None:
                ack["version"] = result.table.version
                if result.table.id != table:
                    ack["table"] = result.table.id  # a rematch: the new table
            await self.send(ack)
        self._deliver(chat, result)
        return True

    def _deliver(self, chat: ChatRef, result: Result) -> None:
        if not result.events:
            return
        deliver = self.w.config.deliveries.get(chat.platform)
        if deliver is not None:
            self.w.spawn(deliver(result))

    async def new(self, frame: JSONObject) -> bool:
        """Local play only: a new game against the computer."""
        ident = frame.get("id")
        if not self.w.config.local or self.who.platform != LOCAL_CHAT.platform:
            await self.send(
                {
                    "type": "refused",
                    "id": ident,
                    "code": "not_local",
                    "reason": self._code_text("no_table"),
                }
            )
            return True
        game, players, level = frame.get("game"), frame.get("players"), frame.get("level", "easy")
        if (
            game not in GAMES
            or not (players is None or isinstance(players, int))
            or not (isinstance(level, str))
        ):
            await self.fail("bad new frame")
            return False
        service = self.w.service
        for old in await service.tables_of(self.user):
            if old.chat_id == LOCAL_CHAT.chat_id:
                await service.abandon(LOCAL_CHAT, self.user, old.id)
        kind = service.registry.get(game)
        count = players if players is not None else (kind.default_players if kind else 2)
        created = await service.create_table(
            LOCAL_CHAT, self.user, game, players=count, computers=max(0, count - 1), level=level
        )
        if created.refusal is not None or created.table is None:
            assert created.refusal is not None
            await self.send(
                {
                    "type": "refused",
                    "id": ident,
                    "code": created.refusal.code,
                    "reason": self._refusal_text(created.refusal),
                }
            )
            return True
        started = await service.start(LOCAL_CHAT, self.user, created.table.id, fill_with=level)
        if started.refusal is not None:
            await self.send(
                {
                    "type": "refused",
                    "id": ident,
                    "code": started.refusal.code,
                    "reason": self._refusal_text(started.refusal),
                }
            )
            return True
        await self.send({"type": "created", "id": ident, "table": created.table.id})
        return True
