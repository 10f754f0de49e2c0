"""The web table's API: refusals as the service gives them (translated), resuming after a
reconnect, the lobby's buttons, local play, card pictures, limits and security headers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from bot.web.server import CSP
from tests.web.conftest import CHAT, Page, Web, user


async def watching(web: Web, who: Any, table: int) -> tuple[Page, dict[str, Any]]:
    page = await web.page(who)
    await page.send({"type": "watch", "table": table, "since": None})
    return page, await page.state()


async def test_refusals_change_nothing_and_say_why(web: Web) -> None:
    anna, bruno = user(1, "it"), user(2, "en")
    table = await web.table("scopa", [anna, bruno])
    a, first = await watching(web, anna, table)
    b, second = await watching(web, bruno, table)
    version = first["version"]
    turn = first["state"]["turn"]
    mover, waiter = (a, b) if turn == 0 else (b, a)
    mover_state = first["state"] if turn == 0 else second["state"]
    first_move = mover_state["moves"][0]["move"]
    # Not your turn (in English for Bruno, Italian for Anna).
    ident = await waiter.send(
        {"type": "act", "table": table, "version": version, "action": first_move}
    )
    refused = await waiter.answer(ident)
    assert refused["type"] == "refused" and refused["code"] in ("not_your_turn", "illegal_move")
    assert refused["reason"]
    # An illegal move, then a stale version.
    ident = await mover.send({"type": "act", "table": table, "version": version, "action": "ZZ"})
    refused = await mover.answer(ident)
    assert refused["code"] == "illegal_move" and refused["reason"]
    ident = await mover.send(
        {"type": "act", "table": table, "version": version - 1, "action": first_move}
    )
    refused = await mover.answer(ident)
    assert refused["code"] == "stale" and refused["version"] == version
    # Nothing changed: the right move at the right version is accepted.
    ident = await mover.send(
        {"type": "act", "table": table, "version": version, "action": first_move}
    )
    assert (await mover.answer(ident))["type"] == "ack"
    assert (await mover.state(version + 1))["version"] == version + 1
    texts = {json.loads(r).get("reason") for r in a.raw + b.raw} - {None}
    it_or_en = " ".join(texts)
    assert "turno" in it_or_en or "turn" in it_or_en


async def test_a_page_resumes_from_the_version_it_has(web: Web) -> None:
    anna, bruno = user(1), user(2)
    table = await web.table("scopa", [anna, bruno])
    a, first = await watching(web, anna, table)
    seen = first["version"]
    await a.ws.close()
    # Bruno's page and Anna's (through the service) play on while Anna's page is closed.
    b, state = await watching(web, bruno, table)
    for _ in range(3):
        turn = state["state"]["turn"]
        who = anna if turn == 0 else bruno
        moves = state["state"]["moves"] if turn == 1 else None
        if moves is None:
            shown = await web.service.show(CHAT, anna, table)
            hand = next(e for e in shown.events if type(e).__name__ == "HandView")
            move = hand.view.legal_moves[0]
        else:
            move = moves[0]["move"]
        played = await web.service.play(CHAT, who, table, version=state["version"], move=move)
        assert played.ok, played.refusal
        state = await b.state(state["version"] + 1)
    now = state["version"]
    a2 = await web.page(anna)
    await a2.send({"type": "watch", "table": table, "since": seen})
    got = [(await a2.state())["version"] for _ in range(now - seen)]
    assert got == list(range(seen + 1, now + 1))
    # Up to date: nothing to resend.
    a3 = await web.page(anna)
    await a3.send({"type": "watch", "table": table, "since": now})
    assert (await a3.until(lambda f: f["type"] in ("uptodate", "state")))["type"] == "uptodate"


async def test_the_lobby_is_played_with_its_buttons(web: Web) -> None:
    anna, bruno = user(1), user(2)
    created = await web.service.create_table(CHAT, anna, "scopa", players=2)
    assert created.table is not None
    table = created.table.id
    b = await web.page(bruno, start=str(table))
    await b.send({"type": "watch", "table": table, "since": None})
    lobby = await b.state()
    assert lobby["state"]["status"] == "lobby" and lobby["state"]["you"] is None
    actions = {a["action"] for a in lobby["state"]["actions"]}
    assert "@join" in actions
    ident = await b.send(
        {"type": "act", "table": table, "version": lobby["version"], "action": "@join"}
    )
    assert (await b.answer(ident))["type"] == "ack"
    joined = await b.state(lobby["version"] + 1)
    assert joined["state"]["you"] == 1
    a, state = await watching(web, anna, table)
    assert "@start" in {x["action"] for x in state["state"]["actions"]}
    ident = await a.send(
        {"type": "act", "table": table, "version": state["version"], "action": "@start"}
    )
    assert (await a.answer(ident))["type"] == "ack"
    dealt = await a.until(lambda f: f.get("type") == "state" and f["state"]["status"] == "playing")
    assert len(dealt["state"]["view"]["hand"]) == 3
    # A page opened later gets what the chat heard lately (the deal), as its log.
    _later, first = await watching(web, bruno, table)
    assert first["log"] and first["log"][-1] in dealt["events"]


async def test_local_play_against_the_computer(make_web: Callable[..., Any]) -> None:
    web: Web = await make_web(local=True, local_name="Ann", bot_token=None)
    async with web.session.post(web.url("/api/auth/local")) as r:
        assert r.status == 200
        body = await r.json()
    assert body["local"] is True
    games = {g["game"]: g for g in body["games"]}
    assert games["scopa"]["players"] == [2, 3, 4] and games["scopone"]["default"] == 4
    async with web.session.post(web.url("/api/auth/telegram"), json={"init_data": "x"}) as r:
        assert r.status == 401
    ws = await web.session.ws_connect(web.url(f"/ws?token={body['token']}"))
    page = Page(ws)
    ident = await page.send({"type": "new", "game": "briscola", "players": 2, "level": "easy"})
    created = await page.answer(ident)
    assert created["type"] == "created"
    table = created["table"]
    await page.send({"type": "watch", "table": table, "since": None})
    for _ in range(200):
        frame = await page.state()
        state = frame["state"]
        if state["status"] == "over":
            break
        if state["turn"] == state["you"] and state["moves"]:
            await page.send(
                {
                    "type": "act",
                    "table": table,
                    "version": frame["version"],
                    "action": state["moves"][-1]["move"],
                }
            )
    assert state["status"] == "over"
    assert "@rematch" in {a["action"] for a in state["actions"]}
    ident = await page.send(
        {"type": "act", "table": table, "version": frame["version"], "action": "@rematch"}
    )
    ack = await page.answer(ident)
    assert ack["type"] == "ack" and ack["table"] != table


async def test_bad_frames_close_the_socket(web: Web) -> None:
    page = await web.page(user(1))
    await page.ws.send_str("not json")
    error = await page.receive()
    assert error is not None and error["type"] == "error"
    assert await page.receive() is None
    page = await web.page(user(1))
    await page.ws.send_str(json.dumps({"type": "watch", "table": 1, "pad": "x" * 10_000}))
    for _ in range(3):
        if await page.receive() is None:
            break
    assert page.ws.closed


async def test_moves_are_rate_limited(make_web: Callable[..., Any]) -> None:
    web: Web = await make_web(rate=1.0, burst=3.0)
    page = await web.page(user(1))
    for _ in range(6):
        await page.send({"type": "watch", "table": 999, "since": None})
    frames = [await page.receive() for _ in range(6)]
    codes = [f["code"] for f in frames if f is not None]
    assert codes.count("rate") >= 2 and codes.count("no_table") >= 1


async def test_headers_and_card_pictures(web: Web) -> None:
    async with web.session.get(web.url("/api/texts?locale=it")) as r:
        assert r.status == 200
        assert r.headers["Content-Security-Policy"] == CSP
        assert "frame-ancestors" in CSP and "unsafe-inline" not in CSP
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        texts = await r.json()
        assert texts["cards"]["italian"]["7D"] == "7 di denari"
    async with web.session.get(web.url("/cards/napoletane/7D.png")) as r:
        assert r.status == 200 and r.content_type == "image/png"
        assert "immutable" in r.headers["Cache-Control"]
        assert (await r.read())[:4] == b"\x89PNG"
    for path in (
        "/cards/napoletane/joker.png",
        "/cards/nope/7D.png",
        "/cards/francesi/ZZ.png",
        "/static/../server.py",
        "/cards/francesi/7D.gif",
    ):
        async with web.session.get(web.url(path)) as r:
            assert r.status == 404, path
    async with web.session.get(web.url("/cards/francesi/joker.png")) as r:
        assert r.status == 200


async def test_presence_follows_the_pages(web: Web) -> None:
    anna, bruno = user(1), user(2)
    table = await web.table("scopa", [anna, bruno])
    presence = web.web_table.presence
    assert not presence.looking("telegram", anna.user_id, table)
    a, _ = await watching(web, anna, table)
    assert presence.looking("telegram", anna.user_id, table)
    assert not presence.looking("telegram", bruno.user_id, table)
    await a.ws.close()
    for _ in range(100):
        if not presence.looking("telegram", anna.user_id, table):
            break
        await asyncio.sleep(0.02)
    assert not presence.looking("telegram", anna.user_id, table)


async def test_pages_are_told_when_the_server_goes_away(web: Web) -> None:
    anna, bruno = user(1), user(2)
    table = await web.table("scopa", [anna, bruno])
    page, _ = await watching(web, anna, table)
    closing = asyncio.ensure_future(web.server.close())
    message = await asyncio.wait_for(page.ws.receive(), 20)
    assert message.type.name in ("CLOSE", "CLOSED", "CLOSING")
    assert page.ws.close_code in (None, 1001) or message.data == 1001
    await asyncio.wait_for(closing, 20)


async def test_one_user_holds_a_bounded_number_of_pages(web: Web) -> None:
    from bot.web.server import MAX_PAGES

    token = await web.token(user(1))
    url = web.url(f"/ws?token={token}")
    sockets = [await web.session.ws_connect(url) for _ in range(MAX_PAGES)]
    async with web.session.get(web.url(f"/ws?token={token}")) as r:
        assert r.status == 429
    await sockets[0].close()
    for _ in range(100):
        if web.web_table.open_pages[("telegram", "1001")] < MAX_PAGES:
            break
        await asyncio.sleep(0.02)
    again = await web.session.ws_connect(web.url(f"/ws?token={token}"))
    for ws in [*sockets[1:], again]:
        await ws.close()
