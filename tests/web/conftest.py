"""The web table's fixtures: a real service on SQLite (a temporary file), the real games and
computer players, the aiohttp app on 127.0.0.1, and pages played by aiohttp's own WebSocket
client. Telegram's init data is signed here with the test's bot token, as Telegram signs it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestServer

from bot.render import Renderer
from bot.service import ChatRef, ComputerPlayers, TableService, UserRef, default_registry
from bot.store import Store
from bot.web import WebConfig, WebTable, build_web_app
from bot.web.auth import sign_init_data

BOT_TOKEN = "123456:TEST-token-for-the-web-table"
CHAT = ChatRef("telegram", "-1001")
FRAME_WAIT = 20.0  # seconds a test waits for one frame before failing


def user(n: int, locale: str = "en") -> UserRef:
    return UserRef("telegram", str(1000 + n), f"Player{n}", locale)


def init_data(
    who: UserRef,
    *,
    start: str | None = None,
    auth_date: float | None = None,
    token: str = BOT_TOKEN,
) -> str:
    fields = {
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAH-test",
        "user": json.dumps(
            {"id": int(who.user_id), "first_name": who.name, "language_code": who.locale or "en"},
            separators=(",", ":"),
        ),
    }
    if start is not None:
        fields["start_param"] = start
    return sign_init_data(fields, token)


@dataclass
class Page:
    """One browser page's WebSocket, as the page would drive it."""

    ws: ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    next_id: int = 1
    # Frames read while waiting for another kind (a state that came before its ack): the next
    # wait looks at them first.
    pending: list[dict[str, Any]] = field(default_factory=list)

    async def send(self, frame: dict[str, Any]) -> int:
        ident = self.next_id
        self.next_id += 1
        await self.ws.send_str(json.dumps({"id": ident, **frame}))
        return ident

    async def receive(self) -> dict[str, Any] | None:
        message = await asyncio.wait_for(self.ws.receive(), FRAME_WAIT)
        if message.type != WSMsgType.TEXT:
            return None
        self.raw.append(message.data)
        frame: dict[str, Any] = json.loads(message.data)
        self.frames.append(frame)
        return frame

    async def until(self, accept: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for index, frame in enumerate(self.pending):
            if accept(frame):
                del self.pending[: index + 1]
                return frame
        for _ in range(2000):
            frame = await self.receive()
            if frame is None:
                raise AssertionError(f"the socket closed; last frames {self.frames[-3:]}")
            if accept(frame):
                return frame
            self.pending.append(frame)
        raise AssertionError("no such frame in 2000")

    async def answer(self, ident: int) -> dict[str, Any]:
        return await self.until(
            lambda f: f.get("type") in ("ack", "refused", "created") and f.get("id") == ident
        )

    async def state(self, version: int | None = None) -> dict[str, Any]:
        return await self.until(
            lambda f: f.get("type") == "state" and (version is None or f["version"] >= version)
        )


@dataclass
class Web:
    service: TableService
    web_table: WebTable
    server: TestServer
    session: ClientSession

    def url(self, path: str) -> str:
        return str(self.server.make_url(path))

    async def token(self, who: UserRef, *, start: str | None = None) -> str:
        async with self.session.post(
            self.url("/api/auth/telegram"), json={"init_data": init_data(who, start=start)}
        ) as response:
            assert response.status == 200, await response.text()
            body = await response.json()
            return str(body["token"])

    async def page(self, who: UserRef, *, start: str | None = None) -> Page:
        token = await self.token(who, start=start)
        ws = await self.session.ws_connect(self.url(f"/ws?token={token}"))
        return Page(ws)

    async def table(self, game: str, players: list[UserRef], *, computers: int = 0) -> int:
        """A table of ``game`` in the chat with these players (the first opens it), started."""
        count = len(players) + computers
        created = await self.service.create_table(
            CHAT, players[0], game, players=count, computers=computers, level="easy"
        )
        assert created.ok and created.table is not None, created.refusal
        table = created.table.id
        for other in players[1:]:
            joined = await self.service.join(CHAT, other, table)
            assert joined.ok, joined.refusal
        started = await self.service.start(CHAT, players[0], table)
        assert started.ok, started.refusal
        return table


@pytest.fixture
async def make_web(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    made: list[tuple[Store, TableService, TestServer, ClientSession]] = []

    async def make(**config: Any) -> Web:
        store = Store.open(f"sqlite+aiosqlite:///{tmp_path / f'web{len(made)}.sqlite3'}")
        await store.upgrade()
        service = TableService(
            store, registry=default_registry(), computers=ComputerPlayers(), default_locale="it"
        )
        config.setdefault("bot_token", BOT_TOKEN)
        config.setdefault("pace", 0.0)
        config.setdefault("rate", 1000.0)
        config.setdefault("burst", 1000.0)
        config.setdefault("token_secret", b"0123456789abcdef0123456789abcdef")
        web_table = WebTable(service, Renderer(), WebConfig(**config))
        server = TestServer(build_web_app(web_table), host="127.0.0.1")
        await server.start_server()
        session = ClientSession()
        made.append((store, service, server, session))
        return Web(service, web_table, server, session)

    yield make
    for store, service, server, session in made:
        await session.close()
        await server.close()
        await service.computers.aclose()
        await store.close()


@pytest.fixture
async def web(make_web: Callable[..., Any]) -> Web:
    made: Web = await make_web()
    return made
