"""Two web table servers (two processes' worth: two stores, services, hubs) on one PostgreSQL:
a page connected to one sees the moves made through the other, announced with LISTEN/NOTIFY."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from bot.render import Renderer
from bot.service import ComputerPlayers, TableService, default_registry
from bot.store import Store
from bot.web import WebConfig, WebTable, build_web_app
from bot.web.notify import PgAnnouncer, asyncpg_dsn
from tests.store.conftest import PG_ENV, _reset_postgres, worker_pg_url
from tests.web.conftest import BOT_TOKEN, CHAT, Page, init_data, user


@pytest.fixture
def pg_url() -> Iterator[str]:
    import os

    url = worker_pg_url()
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {PG_ENV} is not: PostgreSQL tests cannot run")
        pytest.skip(f"{PG_ENV} not set: no PostgreSQL")
    _reset_postgres(url)
    yield url


@dataclass
class Process:
    store: Store
    service: TableService
    web_table: WebTable
    announcer: PgAnnouncer
    server: TestServer

    async def page(self, session: ClientSession, who: Any) -> Page:
        async with session.post(
            self.server.make_url("/api/auth/telegram"), json={"init_data": init_data(who)}
        ) as r:
            token = (await r.json())["token"]
        return Page(await session.ws_connect(self.server.make_url(f"/ws?token={token}")))


@pytest.fixture
async def processes(pg_url: str) -> AsyncIterator[list[Process]]:
    made: list[Process] = []
    dsn = asyncpg_dsn(pg_url)
    assert dsn is not None
    for index in range(2):
        store = Store.open(pg_url)
        if index == 0:
            await store.upgrade()
        service = TableService(store, registry=default_registry(), computers=ComputerPlayers())
        config = WebConfig(
            bot_token=BOT_TOKEN, pace=0.0, token_secret=b"s" * 32, rate=1000, burst=1000
        )
        web_table = WebTable(service, Renderer(), config)
        announcer = PgAnnouncer(service, web_table.hub, dsn)
        await announcer.start()
        server = TestServer(build_web_app(web_table), host="127.0.0.1")
        await server.start_server()
        made.append(Process(store, service, web_table, announcer, server))
    yield made
    for process in made:
        await process.server.close()
        await process.announcer.close()
        await process.service.computers.aclose()
        await process.store.close()


def test_the_dsn_of_a_postgresql_url() -> None:
    assert asyncpg_dsn("postgresql+asyncpg://u:p@h:5/db") == "postgresql://u:p@h:5/db"
    assert asyncpg_dsn("sqlite+aiosqlite:///x.db") is None


async def test_a_page_sees_the_moves_made_through_another_process(
    processes: list[Process],
) -> None:
    one, two = processes
    anna, bruno = user(1), user(2)
    created = await one.service.create_table(CHAT, anna, "scopa", players=2)
    assert created.table is not None
    table = created.table.id
    assert (await one.service.join(CHAT, bruno, table)).ok
    assert (await one.service.start(CHAT, anna, table)).ok
    async with ClientSession() as session:
        pages = {0: await one.page(session, anna), 1: await two.page(session, bruno)}
        for page in pages.values():
            await page.send({"type": "watch", "table": table, "since": None})
        frames = {seat: await page.state() for seat, page in pages.items()}
        waits: list[float] = []
        for _ in range(12):
            versions = {f["version"] for f in frames.values()}
            assert len(versions) == 1, versions
            version = versions.pop()
            state = frames[0]["state"]
            if state["status"] != "playing":
                break
            seat = state["turn"]
            move = frames[seat]["state"]["moves"][0]["move"]
            sent = time.perf_counter()
            ident = await pages[seat].send(
                {"type": "act", "table": table, "version": version, "action": move}
            )
            assert (await pages[seat].answer(ident))["type"] == "ack"
            # Both pages get the new version: the mover's from its own process, the other's
            # through PostgreSQL's NOTIFY.
            frames = {s: await page.state(version + 1) for s, page in pages.items()}
            waits.append(time.perf_counter() - sent)
            for frame in frames.values():
                assert frame["version"] == version + 1
        assert len(waits) >= 6
        assert one.announcer.received + two.announcer.received >= 6
        print("cross-process pushes, worst:", round(max(waits) * 1000), "ms")
        hands = [json.loads(p.raw[-1])["state"]["view"]["hand"] for p in pages.values()]
        assert not set(hands[0]) & set(hands[1])


async def test_listening_resumes_after_the_connection_is_lost(processes: list[Process]) -> None:
    import asyncio

    import asyncpg

    one, two = processes
    anna, bruno = user(1), user(2)
    created = await one.service.create_table(CHAT, anna, "scopa", players=2)
    assert created.table is not None
    table = created.table.id
    assert (await one.service.join(CHAT, bruno, table)).ok
    assert (await one.service.start(CHAT, anna, table)).ok
    async with ClientSession() as session:
        page = await one.page(session, anna)
        await page.send({"type": "watch", "table": table, "since": None})
        first = await page.state()
        # PostgreSQL drops process one's listening connection.
        dsn = asyncpg_dsn(one.store.engine.url.render_as_string(hide_password=False))
        assert dsn is not None
        admin = await asyncpg.connect(dsn)
        try:
            lost = one.announcer._pid
            await admin.execute("SELECT pg_terminate_backend($1)", lost)
        finally:
            await admin.close()
        for _ in range(200):
            if one.announcer._pid != lost and not one.announcer._conn.is_closed():
                break
            await asyncio.sleep(0.05)
        assert one.announcer._pid != lost
        # A move through process two reaches the page on process one.
        version = first["version"]
        seat = first["state"]["turn"]
        who = anna if seat == 0 else bruno
        shown = await two.service.show(CHAT, who, table)
        hand = next(e for e in shown.events if type(e).__name__ == "HandView")
        played = await two.service.play(
            CHAT, who, table, version=version, move=hand.view.legal_moves[0]
        )
        assert played.ok
        assert (await page.state(version + 1))["version"] == version + 1
