"""The Discord Activity's launch and sign-in, without a browser: the table message's button
answered with LAUNCH_ACTIVITY, and POST /api/auth/discord against the fake Discord's OAuth2
side (the code exchanged with the application's secret, /users/@me, the guild member). A
refused code, a forged token, a user outside the guild: 401 and no data."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

from bot.service import ChatRef, UserRef
from tests.fakes.discord_oauth import LAUNCH_ACTIVITY
from tests.web.activity_harness import Stack, activity_stack, no_library_errors  # noqa: F401


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}"


async def sign_in(session: ClientSession, stack: Stack, body: dict[str, Any]) -> tuple[int, Any]:
    async with session.post(f"{stack.url}/api/auth/discord", json=body) as response:
        return response.status, await response.json()


def body_for(stack: Stack, code: str, **extra: Any) -> dict[str, Any]:
    return {
        "code": code,
        "channel_id": str(stack.fake.channel_id),
        "guild_id": str(stack.fake.guild_id),
        "instance_id": "i-1",
        **extra,
    }


async def test_launch_button_opens_the_activity_and_the_code_signs_in(
    db: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with activity_stack(db, monkeypatch) as stack, ClientSession() as session:
        fake = stack.fake
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        record = await fake.slash(alice, "scopa")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        lobby = record.original
        assert lobby is not None
        launch = stack.launch_id(lobby)
        table_id = int(launch.split(":")[1])

        pressed = await fake.click(bob, lobby, launch)
        await pressed.wait_answer()
        assert pressed.callback_type == LAUNCH_ACTIVITY
        assert fake.oauth.launched == [pressed.id]
        await asyncio.sleep(0.2)  # nothing else answers it (an "unknown component" notice)
        assert pressed.followups == [] and pressed.original is None
        assert not [r for r in caplog.records if "unknown component" in r.getMessage()]

        async with session.get(f"{stack.url}/api/auth/discord") as response:
            assert (await response.json())["client_id"] == fake.oauth.client_id

        # Bob, not seated, joins the lobby on the Activity's first sign-in.
        status, answer = await sign_in(
            session, stack, body_for(stack, fake.oauth.code_for(bob), join=True)
        )
        assert status == 200, answer
        assert answer["table"] == table_id
        assert answer["user"]["platform"] == "discord" and answer["user"]["id"] == str(bob.id)
        assert answer["access_token"] in fake.oauth.tokens
        current = await stack.service.current(table_id)
        assert current is not None
        assert current.table.seat_of("discord", str(bob.id)) is not None

        # The token opens the WebSocket, and the seat sees its table.
        async with session.ws_connect(f"{stack.url}/ws?token={answer['token']}") as ws:
            await ws.send_json({"type": "watch", "table": table_id, "since": None})
            for _ in range(20):
                frame = await ws.receive_json(timeout=10)
                if frame["type"] == "state":
                    break
            assert frame["type"] == "state" and frame["state"]["you"] is not None


async def test_refused_code_forged_token_and_outsider_get_401(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with activity_stack(db, monkeypatch) as stack, ClientSession() as session:
        fake = stack.fake
        alice, eve = fake.add_user("alice"), fake.add_user("eve")
        record = await fake.slash(alice, "scopa")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))

        def unauthorized(status: int, answer: Any) -> bool:
            return status == 401 and answer == {"error": "unauthorized"}

        # A code Discord never issued, and a code used twice.
        assert unauthorized(*await sign_in(session, stack, body_for(stack, "forged-code")))
        code = fake.oauth.code_for(alice)
        assert (await sign_in(session, stack, body_for(stack, code)))[0] == 200
        assert unauthorized(*await sign_in(session, stack, body_for(stack, code)))
        assert fake.oauth.refused.count("invalid_grant") == 2

        # A user who is not a member of the channel's guild.
        fake.oauth.outsiders.add(eve.id)
        assert unauthorized(
            *await sign_in(session, stack, body_for(stack, fake.oauth.code_for(eve)))
        )

        # An API without the bot's member lookup: the user's own guilds (the guilds scope).
        fake.oauth.hidden.add("members")
        assert unauthorized(
            *await sign_in(session, stack, body_for(stack, fake.oauth.code_for(eve)))
        )
        ok = await sign_in(session, stack, body_for(stack, fake.oauth.code_for(alice)))
        assert ok[0] == 200
        fake.oauth.hidden.clear()

        # Another guild than the channel's, a channel the bot does not know, malformed input.
        for wrong in (
            {"guild_id": "1234"},
            {"channel_id": "999"},
            {"channel_id": "../x"},
            {"code": ""},
        ):
            body = {**body_for(stack, fake.oauth.code_for(alice)), **wrong}
            assert unauthorized(*await sign_in(session, stack, body)), wrong
        async with session.post(f"{stack.url}/api/auth/discord", data=b"not json") as response:
            assert response.status == 401

        # The wrong application secret: Discord refuses the exchange.
        stack.fake.oauth.client_secret = "another-secret"
        assert unauthorized(
            *await sign_in(session, stack, body_for(stack, fake.oauth.code_for(alice)))
        )
        stack.fake.oauth.client_secret = "fake-client-secret"

        # One user signing in again and again: limited (each sign-in costs calls to Discord).
        statuses = [
            (await sign_in(session, stack, body_for(stack, fake.oauth.code_for(alice))))[0]
            for _ in range(25)
        ]
        assert 429 in statuses and statuses[0] == 200

        # A forged WebSocket token, and a forged access token at /users/@me.
        async with session.get(f"{stack.url}/ws?token=eyJwIjoiZGlzY29yZCJ9.AAAA") as response:
            assert response.status == 401
        async with session.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bearer forged"}
        ) as response:
            assert response.status == 401


@pytest.mark.parametrize("in_activity", [True, False])
async def test_the_turn_mention_skips_a_player_in_the_activity(
    db: str, monkeypatch: pytest.MonkeyPatch, in_activity: bool
) -> None:
    """A player with the table open in the Activity gets no turn mention in the channel (and
    without the Activity open, the mention is there)."""
    async with activity_stack(db, monkeypatch) as stack, ClientSession() as session:
        fake = stack.fake
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        record = await fake.slash(alice, "briscola")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        lobby = record.original
        assert lobby is not None
        table_id = int(stack.launch_id(lobby).split(":")[1])
        pages = []
        for who in (alice, bob):
            status, answer = await sign_in(
                session, stack, body_for(stack, fake.oauth.code_for(who), join=True)
            )
            assert status == 200
            if in_activity:
                ws = await session.ws_connect(f"{stack.url}/ws?token={answer['token']}")
                await ws.send_json({"type": "watch", "table": table_id, "since": None})
                pages.append(ws)
        for _ in range(50):
            if all(
                stack.web.presence.looking("discord", str(u.id), table_id) for u in (alice, bob)
            ):
                break
            await asyncio.sleep(0.05)
        started = await stack.service.start(
            ChatRef("discord", str(fake.channel_id)),
            UserRef("discord", str(alice.id), "alice"),
            table_id,
        )
        assert started.ok, started.refusal
        await stack.handler.deliver(started)
        if in_activity:
            assert fake.pinged == []
        else:
            assert len(fake.pinged) == 1 and fake.pinged[0] in (alice.id, bob.id)
        for ws in pages:
            await ws.close()


def test_settings_make_the_sign_in_config() -> None:
    from bot.config import BadSetting, load_settings
    from bot.web.discord_auth import discord_auth_config

    off = load_settings(_env_file=None)
    assert off.activity_button is False and discord_auth_config(off) is None
    on = load_settings(
        _env_file=None,
        discord_client_id="42",
        discord_client_secret="s3cret",
        discord_token="bot-token",
        discord_activity="on",
        discord_api_url="",
    )
    assert on.activity_button is True
    auto = load_settings(_env_file=None, discord_client_id="42", discord_client_secret="s")
    assert auto.activity_button is True
    assert load_settings(_env_file=None, discord_activity="off").activity_button is False
    config = discord_auth_config(on)
    assert config is not None and config.client_secret == "s3cret"
    assert config.bot_token == "bot-token" and config.api_url == "https://discord.com/api/v10"
    assert "s3cret" not in repr(config)
    with pytest.raises(BadSetting):
        load_settings(_env_file=None, discord_activity=True)


async def test_the_channel_message_waits_while_the_activity_shows_the_table(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a page shows the table, the moves made off the channel's buttons (the Activity's,
    the computers') edit the channel's table message coalesced; a press in the channel or the
    game's end edits it at once."""
    from bot.discord.activity import CoalescedEdits

    async with activity_stack(db, monkeypatch) as stack, ClientSession() as session:
        fake = stack.fake
        edits = stack.handler.table_edits = CoalescedEdits(3600.0)
        alice = fake.add_user("alice")
        record = await fake.slash(alice, "briscola", computers=1, level="easy")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        lobby = record.original
        assert lobby is not None
        table_id = int(stack.launch_id(lobby).split(":")[1])
        status, answer = await sign_in(session, stack, body_for(stack, fake.oauth.code_for(alice)))
        assert status == 200 and answer["table"] == table_id
        ws = await session.ws_connect(f"{stack.url}/ws?token={answer['token']}")
        await ws.send_json({"type": "watch", "table": table_id, "since": None})
        for _ in range(100):
            if stack.web.presence.watched(table_id):
                break
            await asyncio.sleep(0.05)
        chat = ChatRef("discord", str(fake.channel_id))
        user = UserRef("discord", str(alice.id), "alice")
        started = await stack.service.start(chat, user, table_id)
        assert started.ok, started.refusal
        await stack.handler.deliver(started)
        shown = len(fake.messages[lobby.id].history)
        moved = None
        for _ in range(200):
            frame = await ws.receive_json(timeout=10)
            if frame.get("type") == "state" and frame["state"]["moves"]:
                move = frame["state"]["moves"][0]["move"]
                moved = await stack.service.play(
                    chat, user, table_id, version=frame["version"], move=move
                )
                break
        assert moved is not None and moved.ok, moved
        await stack.handler.deliver(moved)
        assert len(fake.messages[lobby.id].history) == shown  # waiting
        assert table_id in edits._latest
        ended = await stack.service.abandon(chat, user, table_id)
        assert ended.ok, ended.refusal
        await stack.handler.deliver(ended)
        assert table_id not in edits._latest and edits.deferred >= 1
        await edits.close()
        await ws.close()


async def test_the_bot_process_serves_the_activity_sign_in(tmp_path: Path) -> None:
    """``python -m bot run`` with WEB_PORT and the Discord application's credentials: the
    Activity's sign-in is on the web server, and the Discord adapter gets its button, presence
    and coalesced edits (a Discord-only bot keys its tokens on the Discord token)."""
    from bot.cli.compose import build_app, build_service, open_store
    from bot.config import load_settings
    from bot.discord.app import build_bot
    from bot.observability import Metrics
    from bot.web.serving import start_web, token_secret

    settings = load_settings(
        _env_file=None,
        discord_token="discord-bot-token",
        discord_client_id="4242",
        discord_client_secret="s3cret",
        discord_activity=True,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'run.sqlite3'}",
        web_port=0,
        public_url="https://tavolo.example.org/",
        images=False,
    )
    assert token_secret(settings) is not None
    store = await open_store(settings)
    service = build_service(settings, store, timers=False, processes=0)
    app = build_app(settings, store=store, service=service, stop=asyncio.Event())

    async def health() -> dict[str, object]:
        return {"ok": True}

    runner = await start_web(app, metrics=Metrics(), health=health)
    try:
        port = runner.addresses[0][1]
        async with ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/api/auth/discord") as r:
                assert r.status == 200 and (await r.json())["client_id"] == "4242"
            async with session.get(f"http://127.0.0.1:{port}/app/") as r:
                assert "https://*.discordsays.com" in r.headers["Content-Security-Policy"]
        bot = build_bot(app, sync_on_start=False)
        handler: Any = bot.handler
        assert app.web is not None
        assert handler.activity is True and handler.presence is app.web.presence
        assert handler.table_edits is not None
        assert app.web.config.discord is not None
        guild_of = app.web.config.discord.channels.guild_of
        assert guild_of is not None and guild_of("123") is None  # the bot's cache: not there
        await bot.close()
    finally:
        await runner.cleanup()
        await service.computers.aclose()
        await store.close()


async def test_discord_api_url_points_the_bot_at_another_discord(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import discord.gateway
    import discord.http

    from bot.discord.endpoint import DEFAULT_API, point_library_at
    from tests.fakes.discord_api import FakeDiscord

    # Restored after the test, whatever it changes.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    assert await point_library_at(DEFAULT_API, "token") is False
    fake = FakeDiscord()
    await fake.start()
    try:
        assert await point_library_at(fake.api_base + "/", fake.token) is True
        assert fake.api_base == discord.http.Route.BASE
        assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith(fake.gateway_url)
    finally:
        await fake.stop()


async def test_the_whole_bot_process_launches_the_activity_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``python -m bot run`` serves: the web table and the Discord adapter in one process,
    pointed at the fake Discord only by DISCORD_API_URL. The table message's button launches
    the Activity, the page signs in and joins, and its moves show in the channel."""
    import discord.gateway
    import discord.http

    import bot.discord
    from bot.cli.compose import build_app, build_service, open_store
    from bot.config import load_settings
    from bot.observability import Metrics
    from bot.web.serving import start_web
    from tests.fakes.discord_api import FakeDiscord
    from tests.fakes.discord_oauth import CLIENT_SECRET

    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", gateway)
    fake = FakeDiscord()
    await fake.start()
    settings = load_settings(
        _env_file=None,
        discord_token=fake.token,
        discord_api_url=fake.api_base,
        discord_client_id=fake.oauth.client_id,
        discord_client_secret=CLIENT_SECRET,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'run.sqlite3'}",
        data_dir=tmp_path,
        web_port=0,
        web_pace=0,
        web_group_edit_seconds=0,
        public_url="https://tavolo.example.org/",
        images=False,
    )
    store = await open_store(settings)
    service = build_service(settings, store, timers=False, processes=0)
    app = build_app(settings, store=store, service=service, stop=asyncio.Event())

    async def health() -> dict[str, object]:
        return {"ok": True}

    runner = await start_web(app, metrics=Metrics(), health=health)
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    task = asyncio.create_task(bot.discord.serve(app))
    try:
        await fake.wait_until(lambda: fake.identifies == 1 and bool(fake.global_commands), 10)
        await asyncio.sleep(0.2)  # READY, then the guild
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        record = await fake.slash(alice, "briscola", computers=0)
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        lobby = record.original
        assert lobby is not None
        launch = next(c for c in lobby.custom_ids() if c.startswith("~activity:"))
        pressed = await fake.click(bob, lobby, launch)
        await pressed.wait_answer()
        assert pressed.callback_type == LAUNCH_ACTIVITY
        table_id = int(launch.split(":")[1])
        async with ClientSession() as session:
            body = {
                "code": fake.oauth.code_for(bob),
                "channel_id": str(fake.channel_id),
                "guild_id": str(fake.guild_id),
                "instance_id": "i-9",
                "join": True,
            }
            async with session.post(f"{url}/api/auth/discord", json=body) as response:
                assert response.status == 200, await response.text()
                answer = await response.json()
            assert answer["table"] == table_id
            ws = await session.ws_connect(f"{url}/ws?token={answer['token']}")
            await ws.send_json({"type": "watch", "table": table_id, "since": None})
            # Bob joined from the Activity: the channel's lobby message says so.
            await fake.wait_until(lambda: "bob" in fake.messages[lobby.id].content, 10)
            chat, alice_ref = (
                ChatRef("discord", str(fake.channel_id)),
                UserRef("discord", str(alice.id), "alice"),
            )
            started = await service.start(chat, alice_ref, table_id)
            assert started.ok, started.refusal
            await app.deliveries["discord"](started)
            # The player whose turn it is plays from their page; the move reaches the channel.
            body = {**body, "code": fake.oauth.code_for(alice), "join": False}
            async with session.post(f"{url}/api/auth/discord", json=body) as response:
                assert response.status == 200
                token = (await response.json())["token"]
            ws_alice = await session.ws_connect(f"{url}/ws?token={token}")
            await ws_alice.send_json({"type": "watch", "table": table_id, "since": None})
            assert started.table is not None
            mover = None
            for page in (ws, ws_alice):
                for _ in range(100):
                    frame = await page.receive_json(timeout=10)
                    if frame.get("type") == "state" and frame["version"] >= started.table.version:
                        break
                if frame["state"]["moves"]:
                    mover = page
                    break
            assert mover is not None, "nobody's turn"
            shown = len(fake.messages[lobby.id].history)
            move = frame["state"]["moves"][0]["move"]
            act = {"type": "act", "id": 1, "table": table_id, "version": frame["version"]}
            await mover.send_json({**act, "action": move})
            for _ in range(100):
                reply = await mover.receive_json(timeout=10)
                if reply.get("id") == 1:
                    break
            assert reply["type"] == "ack", reply
            await fake.wait_until(lambda: len(fake.messages[lobby.id].history) > shown, 10)
            await ws.close()
            await ws_alice.close()
    finally:
        app.stop.set()
        await asyncio.wait_for(task, 10)
        await runner.cleanup()
        await service.computers.aclose()
        await store.close()
        await fake.stop()
