"""The web table as a Discord Activity: signing in with Discord's identity.

Discord opens the Activity (the same page as Telegram's Mini App) in an iframe, with
``frame_id``, ``instance_id``, ``platform``, ``guild_id`` and ``channel_id`` in the query. The
page speaks the Embedded App SDK's protocol with the Discord client (``static/discord.js``):
``AUTHORIZE`` gives it a one-time OAuth2 code, which it posts here. The server, and only the
server, holds the application's secret: it exchanges the code at Discord's token endpoint, reads
the user from ``/users/@me`` with the access token, checks with the bot's token that the channel
belongs to a guild the user is a member of, finds the channel's table, and only then issues the
same WebSocket token as Telegram's sign-in. The page passes the access token on to the client
(``AUTHENTICATE``). A code Discord refuses, a forged token or a user outside the guild: 401.

``POST /api/auth/discord`` body ``{"code", "channel_id", "guild_id", "instance_id", "join"}``
(``join``: the page's first sign-in, when it may join the channel's open lobby); the answer is
the sign-in answer of docs/web-protocol.md plus ``access_token``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from bot.domain.records import JSONObject
from bot.service import ChatRef, Result, TableInfo, UserRef
from bot.web.auth import AuthError, Identity

if TYPE_CHECKING:  # the types only: bot.web.server imports this module
    from bot.config import Settings
    from bot.web.server import WebTable

__all__ = [
    "DISCORD_API",
    "DISCORD_FRAME_ANCESTORS",
    "DiscordActivity",
    "DiscordAuthConfig",
    "DiscordOAuth",
    "add_discord_routes",
    "discord_auth_config",
]

logger = logging.getLogger(__name__)

PLATFORM = "discord"
DISCORD_API = "https://discord.com/api/v10"
SCOPES = ("identify", "guilds")
# Discord's clients: the app in a browser, its test builds, and the Activity's own proxy origin.
DISCORD_FRAME_ANCESTORS = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
    "https://*.discordsays.com",
)
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")
MAX_INSTANCES = 10_000  # Activity instances remembered
MAX_EXCHANGES = 8  # sign-ins talking to Discord at once
_CODE = re.compile(r"[A-Za-z0-9_\-.~]{1,200}")


class Unsupported:
    """An API base without a lookup (a test double): the check falls back (see below)."""


UNSUPPORTED = Unsupported()


class _NoRoute(Exception):
    """The API has no such route."""


class _Limited(Exception):
    """A user signing in too often."""


class DiscordAuthError(AuthError):
    """Discord refused the code or the token, or the user is not in the channel's guild."""


@dataclass
class ChannelGuilds:
    """The Discord adapter's knowledge of channels (its gateway cache), when it runs in the
    same process: ``guild_of(channel id)`` -> the guild id, or None."""

    guild_of: Callable[[str], str | None] | None = None


@dataclass(frozen=True)
class DiscordAuthConfig:
    """The application's OAuth2 credentials (``DISCORD_CLIENT_ID``/``DISCORD_CLIENT_SECRET``),
    the bot's token (the guild member lookup) and Discord's API base (``DISCORD_API_URL``)."""

    client_id: str
    client_secret: str
    bot_token: str | None = None
    api_url: str = DISCORD_API
    timeout: float = 10.0
    channels: ChannelGuilds = field(default_factory=ChannelGuilds)

    def __repr__(self) -> str:  # never a secret in a log line
        return f"DiscordAuthConfig(client_id={self.client_id!r}, api_url={self.api_url!r})"


def discord_auth_config(settings: Settings) -> DiscordAuthConfig | None:
    """The Activity's sign-in from the settings (``bot.config.Settings``): None unless
    ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` are set. The composition root passes it
    as ``WebConfig.discord``."""
    client_id, secret = settings.discord_client_id, settings.discord_client_secret
    if not client_id or secret is None:
        return None
    token = settings.discord_token
    return DiscordAuthConfig(
        client_id=client_id,
        client_secret=secret.get_secret_value(),
        bot_token=None if token is None else token.get_secret_value(),
        api_url=settings.discord_api_url,
    )


@dataclass(frozen=True, slots=True)
class DiscordUser:
    user_id: str
    name: str
    locale: str | None


class DiscordOAuth:
    """The calls to Discord's REST API: the code's exchange, the user, the guild member."""

    def __init__(self, config: DiscordAuthConfig) -> None:
        self.config = config
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=self.config.timeout)
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def _url(self, path: str) -> str:
        return self.config.api_url.rstrip("/") + path

    async def exchange(self, code: str) -> str:
        """The access token for an ``AUTHORIZE`` code (``DiscordAuthError`` when refused)."""
        form = {
            "client_id": self.config.client_id,
            "client_secret": self.config.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._http().post(self._url("/oauth2/token"), data=form) as response:
                if response.status != 200:
                    raise DiscordAuthError(f"the code was refused ({response.status})")
                body = await response.json(content_type=None)
        except (TimeoutError, aiohttp.ClientError, ValueError) as exc:
            raise DiscordAuthError(f"the token endpoint failed: {type(exc).__name__}") from exc
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordAuthError("no access token")
        return token

    async def user(self, access_token: str) -> DiscordUser:
        """``/users/@me`` with the user's access token."""
        headers = {"Authorization": f"Bearer {access_token}"}
        body = await self._get("/users/@me", headers, refused="the access token was refused")
        user_id = body.get("id")
        if not isinstance(user_id, str) or not _SNOWFLAKE.fullmatch(user_id):
            raise DiscordAuthError("no user id")
        name = next(
            (
                str(body[key])
                for key in ("global_name", "username")
                if isinstance(body.get(key), str) and body[key]
            ),
            user_id,
        )
        locale = body.get("locale")
        code = locale[:2].lower() if isinstance(locale, str) else None
        return DiscordUser(user_id, name[:64], code if code in ("it", "en") else None)

    async def guild_of(self, channel_id: str) -> str | Unsupported | None:
        """The guild of a channel, as the bot sees it (None: no such channel, or a DM)."""
        try:
            body = await self._get(f"/channels/{channel_id}", self._bot(), refused="no channel")
        except _NoRoute:
            return UNSUPPORTED
        except DiscordAuthError:
            return None
        guild = body.get("guild_id")
        return guild if isinstance(guild, str) else None

    async def is_member(self, guild_id: str, user_id: str, access_token: str) -> bool | Unsupported:
        """Whether the user is a member of the guild: the bot's member lookup, else the user's
        own guilds (the ``guilds`` scope)."""
        try:
            await self._get(f"/guilds/{guild_id}/members/{user_id}", self._bot(), refused="")
        except _NoRoute:
            pass
        except DiscordAuthError:
            return False
        else:
            return True
        headers = {"Authorization": f"Bearer {access_token}"}
        try:
            guilds = await self._get("/users/@me/guilds", headers, refused="", listing=True)
        except _NoRoute:
            return UNSUPPORTED
        except DiscordAuthError:
            return False
        items = guilds["items"]
        return isinstance(items, list) and any(
            isinstance(g, dict) and g.get("id") == guild_id for g in items
        )

    def _bot(self) -> dict[str, str]:
        if not self.config.bot_token:
            raise DiscordAuthError("no bot token to check the guild with")
        return {"Authorization": f"Bot {self.config.bot_token}"}

    async def _get(
        self, path: str, headers: dict[str, str], *, refused: str, listing: bool = False
    ) -> JSONObject:
        try:
            async with self._http().get(self._url(path), headers=headers) as response:
                if response.status != 200:
                    if response.status in (404, 405) and await _no_route(response):
                        raise _NoRoute(path)
                    raise DiscordAuthError(f"{refused or path} ({response.status})")
                body = await response.json(content_type=None)
        except (TimeoutError, aiohttp.ClientError, ValueError) as exc:
            raise DiscordAuthError(f"{path} failed: {type(exc).__name__}") from exc
        if listing and isinstance(body, list):
            return {"items": body}
        if not isinstance(body, dict):
            raise DiscordAuthError(f"{path}: not an object")
        return body


async def _no_route(response: aiohttp.ClientResponse) -> bool:
    """A 404 for a path the API does not have (Discord's own says ``code: 0``), not for a
    thing it does not know (``10003`` Unknown Channel, ``10007`` Unknown Member...)."""
    try:
        body = await response.json(content_type=None)
    except (ValueError, aiohttp.ClientError):
        return True
    return not isinstance(body, dict) or not body.get("code")


class DiscordActivity:
    """``POST /api/auth/discord``: the Activity's sign-in (see the module's docstring)."""

    def __init__(self, web_table: WebTable, config: DiscordAuthConfig) -> None:
        self.w = web_table
        self.config = config
        self.oauth = DiscordOAuth(config)
        self._calls = asyncio.Semaphore(MAX_EXCHANGES)
        # The table each Activity instance (the players launched together) shows, remembered
        # in this process so the latecomers of an instance open the same one.
        self._instances: OrderedDict[str, int] = OrderedDict()

    async def close(self, _: web.Application | None = None) -> None:
        await self.oauth.close()

    async def settings(self, request: web.Request) -> web.StreamResponse:
        """What the page needs for its handshake: the application's (public) client id."""
        return web.json_response(
            {"client_id": self.config.client_id, "scopes": list(SCOPES)},
            headers={"Cache-Control": "no-cache"},
        )

    async def sign_in(self, request: web.Request) -> web.StreamResponse:
        # Behind Discord's proxy every page comes from its addresses: the limits are on the
        # failures as a whole and, once Discord said who it is, per user; and a few exchanges
        # with Discord at a time (each sign-in makes four calls there).
        if self.w.failed_limiter.exhausted("failed"):
            return web.json_response({"error": "too many requests"}, status=429)
        try:
            body = await request.json()
        except (ValueError, web.HTTPRequestEntityTooLarge):
            body = None
        try:
            async with self._calls:
                answer = await self._sign_in(body if isinstance(body, dict) else {})
        except DiscordAuthError as exc:
            logger.info("Discord Activity sign-in refused: %s", exc)
            self.w.failed_limiter.allow("failed")
            return web.json_response({"error": "unauthorized"}, status=401)
        except _Limited:
            return web.json_response({"error": "too many requests"}, status=429)
        return web.json_response(answer)

    async def _sign_in(self, body: JSONObject) -> JSONObject:
        code, channel, guild = body.get("code"), body.get("channel_id"), body.get("guild_id")
        if not isinstance(code, str) or not _CODE.fullmatch(code):
            raise DiscordAuthError("no code")
        if not isinstance(channel, str) or not _SNOWFLAKE.fullmatch(channel):
            raise DiscordAuthError("no channel")
        if guild is not None and (not isinstance(guild, str) or not _SNOWFLAKE.fullmatch(guild)):
            raise DiscordAuthError("a malformed guild")
        access_token = await self.oauth.exchange(code)
        person = await self.oauth.user(access_token)
        if not self.w.http_limiter.allow((PLATFORM, person.user_id)):
            raise _Limited()
        # The channel's guild as the bot knows it (not the page's word), and the user in it.
        # An API base without the lookups (a test double, never Discord's own): the bot's
        # gateway cache says where the channel is; membership unchecked there (logged).
        real_guild = await self.oauth.guild_of(channel)
        if isinstance(real_guild, Unsupported):
            lookup = self.config.channels.guild_of
            real_guild = lookup(channel) if lookup is not None else guild
            logger.warning("no channel lookup at %s: the bot's cache is used", self.config.api_url)
        if real_guild is None or (guild is not None and guild != real_guild):
            raise DiscordAuthError("the channel is in no guild the bot knows")
        member = await self.oauth.is_member(real_guild, person.user_id, access_token)
        if isinstance(member, Unsupported):
            logger.warning("no guild member lookup at %s: not checked", self.config.api_url)
        elif not member:
            raise DiscordAuthError("the user is not a member of the channel's guild")
        user = UserRef(PLATFORM, person.user_id, person.name, person.locale)
        chat = ChatRef(PLATFORM, channel)
        instance = body.get("instance_id")
        instance = instance[:100] if isinstance(instance, str) and instance else None
        table = await self._table_of(chat, user, join=body.get("join") is True, instance=instance)
        if table is not None and instance is not None:
            self._instances[instance] = table
            self._instances.move_to_end(instance)
            while len(self._instances) > MAX_INSTANCES:
                self._instances.popitem(last=False)
        who = Identity(
            platform=PLATFORM,
            user_id=person.user_id,
            name=person.name,
            locale=person.locale,
            start=None if table is None else str(table),
        )
        tables = await self.w.service.tables_of(user)
        return {
            "token": self.w.signer.issue(who),
            "expires_in": int(self.w.config.token_ttl),
            "user": {
                "platform": PLATFORM,
                "id": person.user_id,
                "name": person.name,
                "locale": await self.w.service.user_locale(user),
            },
            "table": table,
            "tables": [{"id": t.id, "game": t.game, "status": t.status} for t in tables],
            "local": False,
            "access_token": access_token,
            "channel_id": channel,
        }

    async def _table_of(
        self, chat: ChatRef, user: UserRef, *, join: bool, instance: str | None
    ) -> int | None:
        """The channel's table for this user: one where they sit, else the one their Activity
        instance shows, else the newest lobby (which they join, when the page asks), else the
        newest game (watched as a spectator)."""
        tables: list[TableInfo] = await self.w.service.open_tables(chat)
        if not tables:
            return None
        for table in reversed(tables):
            seat = table.seat_of(user.platform, user.user_id)
            if seat is not None:
                return table.id
        shown = self._instances.get(instance) if instance is not None else None
        lobby = next((t for t in reversed(tables) if t.status == "lobby"), None)
        if shown is not None and any(t.id == shown for t in tables):
            lobby = next((t for t in tables if t.id == shown and t.status == "lobby"), None)
            if lobby is None:
                return shown
        if lobby is None:
            return tables[-1].id
        if join:
            result = await self.w.service.join(chat, user, lobby.id)
            if result.refusal is not None:
                logger.info("table %s: the Activity's join refused (%s)", lobby.id, result.refusal)
            else:
                self._deliver(result)
        return lobby.id

    def _deliver(self, result: Result) -> None:
        deliver = self.w.config.deliveries.get(PLATFORM)
        if deliver is not None and result.events:
            self.w.spawn(deliver(result))


def add_discord_routes(
    app: web.Application, web_table: WebTable, config: DiscordAuthConfig
) -> None:
    """Register ``POST /api/auth/discord`` on the web table's application."""
    activity = DiscordActivity(web_table, config)
    app.router.add_get("/api/auth/discord", activity.settings)
    app.router.add_post("/api/auth/discord", activity.sign_in)
    app.on_cleanup.append(activity.close)
