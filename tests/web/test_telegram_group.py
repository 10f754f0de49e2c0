"""The web table inside Telegram: the group's table message opens the Mini App, and a Scopone
played entirely from four pages costs the group a fraction of a Bot API request a move under
Telegram's real flood limits (the fake enforces them; the bot runs its production limiter)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from aiohttp.test_utils import TestServer

from bot.render import Renderer
from bot.service import ChatRef, ComputerPlayers, TableService, UserRef, default_registry
from bot.store import Store
from bot.telegram import TelegramBot, build_bot
from bot.telegram.settings import TelegramSettings
from bot.telegram.web_links import WebLinks
from bot.web import WebConfig, WebTable, build_web_app
from bot.web.auth import sign_init_data
from tests.fakes.telegram_api import FakeApiError, FakeBotApi
from tests.web.conftest import Page

GROUP = -1005550001
CHAT = ChatRef("telegram", str(GROUP))
PLAYERS = [UserRef("telegram", str(2001 + i), f"P{i}", "it") for i in range(4)]
COALESCE = 1.0  # seconds between two edits of the group's table (20 in production)
THINK = 0.15  # seconds a player takes to move (3 in real life: the same ratio)


@dataclass
class Setup:
    api: FakeBotApi
    service: TableService
    bot: TelegramBot
    web_table: WebTable
    server: TestServer
    session: ClientSession

    async def page(self, who: UserRef, start: int) -> Page:
        fields = {
            "auth_date": str(int(time.time())),
            "user": json.dumps({"id": int(who.user_id), "first_name": who.name}),
            "start_param": str(start),
        }
        init = sign_init_data(fields, self.api.token)
        async with self.session.post(
            self.server.make_url("/api/auth/telegram"), json={"init_data": init}
        ) as r:
            assert r.status == 200
            token = (await r.json())["token"]
        ws = await self.session.ws_connect(self.server.make_url(f"/ws?token={token}"))
        return Page(ws)


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[Setup]:
    async with FakeBotApi() as api:
        api.enforce_flood_limits()  # Telegram's: 20 a minute in a group, 30 a second overall
        store = Store.open(f"sqlite+aiosqlite:///{tmp_path / 'tg.sqlite3'}")
        await store.upgrade()
        service = TableService(store, registry=default_registry(), computers=ComputerPlayers())
        renderer = Renderer()
        deliveries: dict[str, Any] = {}
        web_table = WebTable(
            service,
            renderer,
            WebConfig(
                bot_token=api.token,
                pace=0.0,
                token_secret=b"k" * 32,
                deliveries=deliveries,
                rate=1000.0,
                burst=1000.0,
            ),
        )
        presence = web_table.presence
        links = WebLinks(
            renderer=renderer,
            public_url="https://tavolo.example.org",
            short_name="table",
            looking=lambda user_id, table_id: presence.looking("telegram", str(user_id), table_id),
            watched=presence.watched,
            coalesce=COALESCE,
        )
        settings = TelegramSettings(token=api.token, api_url=api.url, poll_timeout=2)
        bot = build_bot(settings, service=service, renderer=renderer, state=store, web=links)
        deliveries["telegram"] = bot.deliver
        await bot.start()
        server = TestServer(build_web_app(web_table), host="127.0.0.1")
        await server.start_server()
        session = ClientSession()
        try:
            yield Setup(api, service, bot, web_table, server, session)
        finally:
            await session.close()
            await server.close()
            await bot.stop()
            await service.computers.aclose()
            await store.close()


def group_requests(api: FakeBotApi) -> int:
    return sum(1 for r in api.requests if r.params.get("chat_id") == GROUP)


def private_requests(api: FakeBotApi) -> int:
    ids = {int(p.user_id) for p in PLAYERS}
    return sum(1 for r in api.requests if r.params.get("chat_id") in ids)


@pytest.mark.slow
async def test_a_scopone_from_four_pages_costs_the_group_little(setup: Setup) -> None:
    api, service = setup.api, setup.service
    created = await service.create_table(CHAT, PLAYERS[0], "scopone", players=4)
    assert created.table is not None
    table = created.table.id
    await setup.bot.delivery.deliver(created, origin=None)
    for player in PLAYERS[1:]:
        await setup.bot.delivery.deliver(await service.join(CHAT, player, table), origin=None)
    # The group's table message opens the Mini App through its direct link.
    lobby = api.last_bot_message(GROUP)
    urls = [b.get("url") for b in lobby.buttons()]
    assert f"https://t.me/{api.bot_username}/table?startapp={table}" in urls
    assert not any("web_app" in b for b in lobby.buttons())
    pages = {i: await setup.page(PLAYERS[i], table) for i in range(4)}
    for page in pages.values():
        await page.send({"type": "watch", "table": table, "since": None})
        await page.state()
    await setup.bot.delivery.settled()
    before, before_private = group_requests(api), private_requests(api)
    started = await service.start(CHAT, PLAYERS[0], table)
    assert started.ok
    await setup.bot.delivery.deliver(started, origin=None)
    moves = 0
    final: dict[str, Any] | None = None
    for _ in range(5000):
        frames = [await page.state() for page in pages.values()]
        versions = {f["version"] for f in frames}
        assert len(versions) == 1, versions
        state = frames[0]["state"]
        if state["status"] == "over":
            final = state
            break
        seat = state["turn"]
        mine = frames[seat]["state"]
        await asyncio.sleep(THINK)
        await pages[seat].send(
            {
                "type": "act",
                "table": table,
                "version": frames[seat]["version"],
                "action": mine["moves"][0]["move"],
            }
        )
        moves += 1
    assert final is not None and final["closed"] == "finished"
    await setup.bot.delivery.settled()
    await api.wait_idle(quiet=COALESCE + 0.5, timeout=30)
    spent = group_requests(api) - before
    assert api.flood_refusals == []
    assert moves > 40
    print(f"group requests: {spent} for {moves} moves ({spent / moves:.3f} a move)")
    assert spent / moves <= 0.25, (spent, moves)
    # Every player was looking: no hand and no turn notice went privately.
    assert private_requests(api) - before_private == 0
    # The group shows the finished game.
    texts = "\n".join(m.text or "" for m in api.bot_messages(GROUP))
    assert texts


async def test_web_app_buttons_are_for_private_chats_only(setup: Setup) -> None:
    api = setup.api
    markup = {"inline_keyboard": [[{"text": "x", "web_app": {"url": "https://a.example/app/"}}]]}
    with pytest.raises(FakeApiError):
        api._check_markup(markup, GROUP)
    assert api._check_markup(markup, 2001) == markup
    links = setup.bot.delivery.web
    assert links is not None
    button = links.button(7, "it", private=True, bot_username="b")
    assert button is not None and button.web_app is not None
    assert button.web_app.url == "https://tavolo.example.org/app/?table=7"
    group = links.button(7, "en", private=False, bot_username="b")
    assert group is not None and group.url == "https://t.me/b/table?startapp=7"
    assert group.text == "🎴 Open the table"


def shown_version(api: FakeBotApi, table: int) -> int:
    """The version the group's newest table message shows (its buttons carry it)."""
    from bot.service import decode_button

    for message in reversed(api.bot_messages(GROUP)):
        for button in message.buttons():
            data = button.get("callback_data")
            if isinstance(data, str):
                try:
                    found = decode_button(data)
                except ValueError:
                    continue
                if found.table_id == table:
                    return found.version
    return -1


async def test_a_player_who_follows_the_group_sees_their_turn_at_once(setup: Setup) -> None:
    api, service, delivery = setup.api, setup.service, setup.bot.delivery
    anna, bruno = PLAYERS[0], PLAYERS[1]
    created = await service.create_table(CHAT, anna, "scopa", players=2)
    assert created.table is not None
    table = created.table.id
    await delivery.deliver(await service.join(CHAT, bruno, table), origin=None)
    page = await setup.page(anna, table)  # Anna plays from the page, Bruno in the chat
    await page.send({"type": "watch", "table": table, "since": None})
    await page.state()
    await delivery.deliver(await service.start(CHAT, anna, table), origin=None)
    frame = await page.state()
    for _ in range(6):
        state = frame["state"]
        version = frame["version"]
        if state["turn"] == 0:
            ident = await page.send(
                {
                    "type": "act",
                    "table": table,
                    "version": version,
                    "action": state["moves"][0]["move"],
                }
            )
            assert (await page.answer(ident))["type"] == "ack"
            frame = await page.state(version + 1)
            await asyncio.sleep(0.05)
            await delivery.settled()
            # Bruno's turn: the group's message shows it now, not after the coalescing.
            assert shown_version(api, table) == version + 1
            assert not delivery.held_edits.holds(table)
        else:
            shown = await service.show(CHAT, bruno, table)
            hand = next(e for e in shown.events if type(e).__name__ == "HandView")
            played = await service.play(
                CHAT, bruno, table, version=version, move=hand.view.legal_moves[0]
            )
            assert played.ok
            await delivery.deliver(played, origin=None)
            frame = await page.state(version + 1)
            # Anna's turn, and she looks at the page: the group's edit waits.
            assert delivery.held_edits.holds(table) or shown_version(api, table) == version + 1
