"""The web table's aiohttp application: the page, its files, the card pictures, sign-in and the
WebSocket (docs/web-protocol.md is the contract with the page).

Moves and buttons go to the same :class:`~bot.service.TableService` calls as the chat's
(``play`` for a move string, ``press`` for ``@``/``?`` actions), so a refusal is the service's
own, translated by the renderer; the results are handed to the table's platform adapter
(``deliveries``) so the chat sees what the page did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import WSCloseCode, WSMsgType, web

from bot.domain.records import JSON, JSONObject
from bot.render import Renderer
from bot.service import (
    Result,
    TableInfo,
    TableService,
    UserRef,
)
from bot.service.presence import Presence
from bot.web.auth import AuthError, Identity, TokenSigner, check_init_data
from bot.web.hub import Connection, Hub
from bot.web.session import GAMES, LOCAL_CHAT, Session
from bot.web.state import Viewer
from bot.web.texts import page_texts

if TYPE_CHECKING:  # imported when used: the Activity and the pictures are optional
    from bot.render.images.sprites import SpriteCache
    from bot.web.discord_auth import DiscordAuthConfig

__all__ = ["LOCAL_CHAT", "STATIC_DIR", "CardCache", "WebConfig", "WebTable", "build_web_app"]

logger = logging.getLogger(__name__)

STATIC_DIR = Path(__file__).resolve().parent / "static"
MAX_BODY = 8 * 1024  # bytes of an HTTP request body (init data is < 4 KiB)
MAX_FRAME = 4 * 1024  # bytes of a WebSocket frame from a page
MAX_PAGES = 8  # WebSockets one user may hold open at once (tabs, devices)
CARD_WIDTH = 120  # pixels of a card picture (2x a phone's ~60 CSS px)

Delivery = Callable[[Result], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org https://t.me"
    # Discord's clients, for the Activity (bot/web/discord_auth.py), and a client's page on
    # this machine's loopback (a developer's, a test's; as the Embedded App SDK allows).
    " https://discord.com https://*.discord.com https://discordapp.com https://*.discordapp.com"
    " https://*.discordsays.com http://127.0.0.1:* http://localhost:*"
)


@dataclass
class WebConfig:
    """How the web table is served.

    ``bot_token``: checks Telegram's init data (None: no Telegram sign-in). ``local``: the
    ``tavolo web`` player signs in with no platform (never on a public server).
    ``token_secret``: signs the WebSocket tokens (random per process when None: pages then
    sign in again after a restart, which Telegram's init data lets them do)."""

    bot_token: str | None = None
    discord: DiscordAuthConfig | None = None  # the Activity's sign-in
    local: bool = False
    local_name: str = "player"
    local_locale: str | None = None
    init_data_max_age: float = 86400.0
    token_secret: bytes | None = None
    token_ttl: float = 900.0
    pace: float = 0.7
    static_dir: Path = STATIC_DIR
    rate: float = 5.0  # actions a second a user may send, on average
    burst: float = 30.0  # and at once
    deliveries: Mapping[str, Delivery] = field(default_factory=dict)


class RateLimiter:
    """A token bucket per key: ``rate`` a second, up to ``burst`` at once."""

    def __init__(
        self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[object, tuple[float, float]] = {}

    def exhausted(self, key: object) -> bool:
        """Whether ``key`` has no request left now (nothing is taken)."""
        now = self.clock()
        level, at = self._buckets.get(key, (self.burst, now))
        return min(self.burst, level + (now - at) * self.rate) < 1

    def allow(self, key: object) -> bool:
        now = self.clock()
        level, at = self._buckets.get(key, (self.burst, now))
        level = min(self.burst, level + (now - at) * self.rate)
        if level < 1:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1, now)
        if len(self._buckets) > 100_000:
            # Full buckets carry no information: forget them.
            rate, burst = self.rate, self.burst
            self._buckets = {
                k: v for k, v in self._buckets.items() if v[0] + (now - v[1]) * rate < burst
            }
        return True


class CardCache:
    """The card pictures already drawn, by (style, card name): each is drawn once while fewer
    than ``limit`` are kept, then drawn on each request."""

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self._data: dict[tuple[str, str], bytes] = {}

    def get(self, style: str, card: str) -> bytes | None:
        return self._data.get((style, card))

    def put(self, style: str, card: str, data: bytes) -> None:
        if len(self._data) < self.limit:
            self._data[(style, card)] = data


class WebTable:
    """The application's state: service, renderer, signer, hub, limits."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        config: WebConfig,
        *,
        style_for: Callable[[TableInfo, Viewer], Awaitable[str]] | None = None,
        presence: Presence | None = None,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.config = config
        secret = config.token_secret or secrets.token_bytes(32)
        self.signer = TokenSigner(secret, ttl=config.token_ttl)
        self.hub = Hub(
            renderer, style_for=style_for or _default_style, presence=presence, pace=config.pace
        )
        self.limiter = RateLimiter(config.rate, config.burst)
        self.http_limiter = RateLimiter(1.0, 20.0)  # sign-ins a second per user
        self.failed_limiter = RateLimiter(50.0, 500.0)  # refused sign-ins a second, in all
        self._tasks: set[asyncio.Task[None]] = set()
        self.cards = CardCache()
        self.connections: set[Connection] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self.open_pages: Counter[tuple[str, str]] = Counter()
        self._sprite_cache: SpriteCache | None = None
        service.add_table_listener(self.hub.table_changed)

    def sprites(self) -> SpriteCache:
        """The card sprites (``bot.render.images``), made on the first card asked for."""
        if self._sprite_cache is None:
            from bot.render.images.sprites import Fonts, SpriteCache

            self._sprite_cache = SpriteCache(fonts=Fonts())
        return self._sprite_cache

    @property
    def presence(self) -> Presence:
        return self.hub.presence

    async def close(self) -> None:
        self.service.remove_table_listener(self.hub.table_changed)
        for conn in list(self.connections):
            await self.hub.close(conn)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception:
                logger.exception("delivering a web table's result failed")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


async def _default_style(table: TableInfo, viewer: Viewer) -> str:
    from bot.render.images import choose_style

    return choose_style(None, "french" if table.family == "scala40" else "italian")


def _json_error(status: int, reason: str) -> web.Response:
    return web.json_response({"error": reason}, status=status)


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        response = exc
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
    if isinstance(response, web.HTTPException):
        raise response
    return response


WEB_TABLE = web.AppKey("web_table", WebTable)


def build_web_app(web_table: WebTable) -> web.Application:
    """The aiohttp application serving ``web_table``."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers])
    app[WEB_TABLE] = web_table
    routes = _Routes(web_table)
    app.router.add_get("/", routes.root)
    app.router.add_get("/app/", routes.page)
    app.router.add_get("/app", routes.root)
    app.router.add_get("/static/{path:.+}", routes.static)
    app.router.add_get("/cards/{style}/{card}", routes.card)
    app.router.add_get("/api/texts", routes.texts)
    app.router.add_post("/api/auth/telegram", routes.auth_telegram)
    app.router.add_post("/api/auth/local", routes.auth_local)
    app.router.add_get("/ws", routes.websocket)
    if web_table.config.discord is not None:
        from bot.web.discord_auth import add_discord_routes

        add_discord_routes(app, web_table, web_table.config.discord)

    async def on_shutdown(_: web.Application) -> None:
        # Open pages would hold the shutdown for aiohttp's shutdown_timeout: they are told the
        # server goes away (1001), reconnect and resume with ``since``.
        for conn in list(web_table.connections):
            conn.closed = True
        for ws in list(web_table.sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutdown")

    async def on_cleanup(_: web.Application) -> None:
        await web_table.close()

    app.on_shutdown.append(on_shutdown)
    app.on_cleanup.append(on_cleanup)
    return app


class _Routes:
    def __init__(self, web_table: WebTable) -> None:
        self.w = web_table

    # -- the page -----------------------------------------------------------------------------

    async def root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPFound("/app/" + (f"?{request.query_string}" if request.query_string else ""))

    async def page(self, request: web.Request) -> web.StreamResponse:
        index = self.w.config.static_dir / "index.html"
        if not index.is_file():
            return web.Response(text="the web table's page is not installed", status=404)
        response = web.FileResponse(index)
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def static(self, request: web.Request) -> web.StreamResponse:
        base = self.w.config.static_dir.resolve()
        path = (base / request.match_info["path"]).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            raise web.HTTPNotFound()
        response = web.FileResponse(path)
        # No build step, no hashed names: the browser revalidates (a 304 costs no body).
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def card(self, request: web.Request) -> web.StreamResponse:
        from bot.render.images.styles import style_names

        style = request.match_info["style"]
        name = request.match_info["card"]
        if style not in style_names() or not name.endswith(".png") or len(name) > 12:
            raise web.HTTPNotFound()
        card = name[:-4]
        data = self.w.cards.get(style, card)
        if data is None:
            try:
                data = await asyncio.to_thread(_draw_card, self.w.sprites(), style, card)
            except ValueError:
                raise web.HTTPNotFound() from None
            self.w.cards.put(style, card, data)
        return web.Response(
            body=data,
            content_type="image/png",
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    async def texts(self, request: web.Request) -> web.StreamResponse:
        locale = request.query.get("locale", "")
        code = locale[:2].lower() if locale[:2].lower() in ("it", "en") else None
        return web.json_response(
            page_texts(self.w.renderer, code or self.w.renderer.catalogs.default),
            headers={"Cache-Control": "public, max-age=3600"},
        )

    # -- signing in ---------------------------------------------------------------------------

    async def auth_telegram(self, request: web.Request) -> web.StreamResponse:
        # Behind the reverse proxy every page comes from its address: the limits are per user
        # once the init data is checked (an HMAC: cheap), and on the failures as a whole.
        if self.w.failed_limiter.exhausted("failed"):
            return _json_error(429, "too many requests")
        token = self.w.config.bot_token
        if token is None:
            return _json_error(401, "unauthorized")
        try:
            body = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            return _json_error(401, "unauthorized")
        init_data = body.get("init_data") if isinstance(body, dict) else None
        if not isinstance(init_data, str):
            return _json_error(401, "unauthorized")
        try:
            who = check_init_data(init_data, token, max_age=self.w.config.init_data_max_age)
        except AuthError as exc:
            logger.info("web sign-in refused: %s", exc)
            self.w.failed_limiter.allow("failed")
            return _json_error(401, "unauthorized")
        if not self.w.http_limiter.allow((who.platform, who.user_id)):
            return _json_error(429, "too many requests")
        return web.json_response(await self._signed_in(who))

    async def auth_local(self, request: web.Request) -> web.StreamResponse:
        if not self.w.config.local:
            return _json_error(401, "unauthorized")
        who = Identity(
            platform=LOCAL_CHAT.platform,
            user_id="local",
            name=self.w.config.local_name,
            locale=self.w.config.local_locale,
        )
        answer = await self._signed_in(who)
        games: list[JSON] = []
        for game in GAMES:
            kind = self.w.service.registry.get(game)
            if kind is not None:
                games.append(
                    {"game": game, "players": list(kind.players), "default": kind.default_players}
                )
        answer["games"] = games
        return web.json_response(answer)

    async def _signed_in(self, who: Identity) -> JSONObject:
        user = UserRef(who.platform, who.user_id, who.name, who.locale)
        tables = await self.w.service.tables_of(user)
        if who.platform == LOCAL_CHAT.platform:
            tables = [t for t in tables if t.chat_id == LOCAL_CHAT.chat_id]
        start = int(who.start) if who.start and who.start.isdigit() else None
        table = start if start is not None else (tables[-1].id if tables else None)
        return {
            "token": self.w.signer.issue(who),
            "expires_in": int(self.w.config.token_ttl),
            "user": {
                "platform": who.platform,
                "id": who.user_id,
                "name": who.name,
                "locale": await self.w.service.user_locale(user),
            },
            "table": table,
            "tables": [{"id": t.id, "game": t.game, "status": t.status} for t in tables],
            "local": who.platform == LOCAL_CHAT.platform,
        }

    # -- the WebSocket ------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        try:
            who = self.w.signer.check(request.query.get("token", ""))
        except AuthError as exc:
            logger.info("web socket refused: %s", exc)
            return _json_error(401, "unauthorized")
        key = (who.platform, who.user_id)
        if self.w.open_pages[key] >= MAX_PAGES:
            return _json_error(429, "too many pages open")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30.0)
        await ws.prepare(request)
        user = UserRef(who.platform, who.user_id, who.name, who.locale)
        locale = await self.w.service.user_locale(user)
        viewer = Viewer(who.platform, who.user_id, locale)

        async def send(text: str) -> None:
            if not ws.closed:
                await ws.send_str(text)

        conn = self.w.hub.open(viewer, send)
        self.w.connections.add(conn)
        self.w.sockets.add(ws)
        self.w.open_pages[key] += 1
        session = Session(self.w, conn, who, user, ws)
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    if message.type == WSMsgType.ERROR:
                        break
                    await session.fail("text frames only")
                    break
                if conn.closed:
                    break
                if not await session.handle(message.data):
                    break
        finally:
            self.w.connections.discard(conn)
            self.w.sockets.discard(ws)
            self.w.open_pages[key] -= 1
            if self.w.open_pages[key] <= 0:
                del self.w.open_pages[key]
            await self.w.hub.close(conn)
            if not ws.closed:
                await ws.close()
        return ws


def _draw_card(sprites: SpriteCache, style: str, name: str) -> bytes:
    """A card's picture as PNG bytes (``back``, ``joker``, or a card in engine notation)."""
    import io

    from bot.render.images.styles import get_style
    from engine.cards import CardParseError, parse_card

    deck_style = get_style(style)
    if name == "back":
        image = sprites.back(deck_style, CARD_WIDTH)
    else:
        try:
            card = parse_card("*" if name == "joker" else name)
        except CardParseError as exc:
            raise ValueError(str(exc)) from exc
        deck_style.check(card)
        image = sprites.sprite(deck_style, card, CARD_WIDTH)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
