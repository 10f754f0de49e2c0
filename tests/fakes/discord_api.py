"""A small fake Discord (REST + gateway WebSocket) on 127.0.0.1 for driving the real discord.py.

It implements just the part of the Discord API the Tavolo adapter touches, with Discord's real
shapes, so the library builds its own objects (``Interaction``, ``Message``, ``Guild``) from what it
receives: nothing in the library is mocked. Tests act as Discord users through ``slash()``,
``click()`` and ``select()``, which dispatch ``INTERACTION_CREATE`` over the gateway and hand back
an ``InteractionRecord`` to wait on.

What it emulates faithfully because the library depends on it:
* REST replies carry ``Content-Type: application/json`` exactly (discord.py only decodes JSON when
  the header is exactly that) and errors carry Discord's ``{"code", "message"}`` body.
* A 429 carries a ``Via`` header and a JSON ``retry_after``: without them discord.py takes it for a
  Cloudflare ban and raises instead of retrying.
* The gateway speaks plain JSON text frames: the client asks for ``compress=zlib-stream`` in the
  query, but a server may send uncompressed text frames and the library only decompresses binary
  frames, so the fake ignores the request ("no compression").
* An interaction must get its initial callback within ``interaction_deadline`` seconds (Discord:
  3 s) or its token stops working (``10062 Unknown interaction``); late answers are recorded.
* A DM to a user in ``closed_dms`` fails with ``403`` and code ``50007`` (Discord creates the DM
  channel fine and refuses the message).
* An interaction token works for webhook calls (follow-ups, edits and deletes of ``@original``
  or a follow-up, also of ephemeral messages) for ``token_lifetime`` seconds (Discord: 15
  minutes), then ``401`` / ``50027 Invalid Webhook Token``; ``advance(seconds)`` moves the fake's
  clock so a test need not wait.
* A new message notifies (``pings``) the users its ``<@id>`` mentions that ``allowed_mentions``
  lets through (all of them when absent); edits notify nobody.

Pointing the client at the fake: ``discord.http.Route.BASE`` (REST, also used by the webhook
adapter for interaction callbacks and follow-ups) and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a non-sharded ``Client`` connects there and
never asks ``/gateway``). ``FakeDiscord.patch_client_urls(monkeypatch)`` does both.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes.discord_oauth import LAUNCH_ACTIVITY, FakeOAuth

logger = logging.getLogger(__name__)

API_PREFIX = "/api/v10"
EPHEMERAL = 1 << 6
# The files of a multipart request, kept beside its JSON body: {index: (filename, bytes)}.
UPLOADS = "_uploads"
# Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 9, 10, 11
# Interaction types and callback types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT = 1, 2, 3
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
BUTTON, STRING_SELECT = 2, 3
# Application command option types, for filling the types of a slash command's options.
OPTION_STRING, OPTION_INTEGER, OPTION_BOOLEAN, OPTION_USER, OPTION_NUMBER = 3, 4, 5, 6, 10

JsonDict = dict[str, Any]


class FakeDiscordError(AssertionError):
    """A test used the fake in a way Discord would not allow (e.g. clicking a missing button)."""


@dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False

    def payload(self) -> JsonDict:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.username,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    author: FakeUser
    content: str
    components: list[JsonDict]
    flags: int = 0
    embeds: list[JsonDict] = field(default_factory=list)
    guild_id: int | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    edited: bool = False
    # Every content this message has shown, oldest first: what channel readers could have seen.
    history: list[str] = field(default_factory=list)
    # The users this message notified when it was posted (its <@id> mentions that its
    # allowed_mentions let through; an edit notifies nobody).
    pings: list[int] = field(default_factory=list)
    # Uploaded files as Discord lists them (id, filename, size, url), and their bytes by id.
    attachments: list[JsonDict] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        return [cid for cid, _ in _walk_components(self.components)]

    def payload(self) -> JsonDict:
        data: JsonDict = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": datetime.now(UTC).isoformat() if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "pinned": False,
            "type": 0,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


@dataclass
class InteractionRecord:
    """One interaction the fake dispatched, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    dispatched_at: float
    deadline: float
    source_message_id: int | None = None
    callback_type: int | None = None
    callback_data: JsonDict | None = None
    late: bool = False
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    def messages(self) -> list[StoredMessage]:
        """The messages this interaction produced: the original response, then follow-ups."""
        found = [] if self.original is None else [self.original]
        return found + self.followups

    async def wait_answer(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the initial callback (any type)."""
        await asyncio.wait_for(self.answered.wait(), timeout)
        return self

    async def wait_for(
        self, predicate: Callable[[InteractionRecord], bool], timeout: float = 5.0
    ) -> InteractionRecord:
        """Wait until ``predicate(self)`` holds, re-checked after every change."""

        async def _until() -> None:
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(_until(), timeout)
        return self

    async def wait_messages(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        """Wait until the interaction has at least ``count`` messages with content or components."""
        await self.wait_for(
            lambda r: len([m for m in r.messages() if m.content or m.components]) >= count, timeout
        )
        return self.messages()


@dataclass
class RateLimitRule:
    method: str
    path: re.Pattern[str]
    times: int
    retry_after: float


@dataclass
class HoldRule:
    """Requests held (not answered) until ``release`` is set; ``arrived`` once one came."""

    method: str
    path: re.Pattern[str]
    release: asyncio.Event
    arrived: asyncio.Event


def _walk_components(rows: list[JsonDict]) -> Iterator[tuple[str, JsonDict]]:
    for row in rows:
        for component in row.get("components", []):
            if "custom_id" in component:
                yield component["custom_id"], component
            yield from _walk_components([component]) if "components" in component else ()


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    # Not web.json_response: it appends "; charset=utf-8", and discord.py then treats the body as
    # text instead of decoding the JSON.
    out = {"Content-Type": "application/json"}
    out.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=out)


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status=status)


class FakeDiscord:
    """The fake server: ``await start()``, ``patch_client_urls(monkeypatch)``, ``await stop()``."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60,
        guild_name: str = "Osteria",
        guild_locale: str = "it",
    ) -> None:
        self.token = token
        self.interaction_deadline = interaction_deadline
        # An interaction's token works for follow-ups and edits this long after the interaction
        # (Discord: 15 minutes); then webhook calls get 401 / 50027 "Invalid Webhook Token".
        self.token_lifetime = token_lifetime
        self.guild_locale = guild_locale
        # Seconds added to the event loop's clock: ``advance()`` lets tokens expire at once.
        self.clock_offset = 0.0
        self._ids = itertools.count(1_200_000_000_000_000_000)
        self.bot_user = FakeUser(self.next_id(), "Tavolo", bot=True)
        self.owner = FakeUser(self.next_id(), "owner")
        self.application_id = self.bot_user.id
        self.guild_id = self.next_id()
        self.guild_name = guild_name
        self.channel_id = self.next_id()
        self.users: dict[int, FakeUser] = {}
        # Members with the Manage Server permission (guild admins), as set by a test.
        self.admins: set[int] = set()
        self.messages: dict[int, StoredMessage] = {}
        self.text_channels: dict[int, str] = {self.channel_id: "tavolo"}
        self.dm_channels: dict[int, int] = {}  # channel id -> recipient user id
        self.closed_dms: set[int] = set()
        self.admins: set[int] = set()  # members with Manage Server in the guild
        self.pinged: list[int] = []  # every notification a mention sent, in order (user ids)
        self.interactions: dict[int, InteractionRecord] = {}
        self.global_commands: list[JsonDict] = []
        self.command_overwrites = 0
        self.requests: list[tuple[str, str]] = []
        self.rate_limits: list[RateLimitRule] = []
        self.rate_limited: list[tuple[str, str]] = []
        self.holds: list[HoldRule] = []
        self.identifies = 0
        self.gateway_queries: list[dict[str, str]] = []
        # Message bodies Discord would have refused (400); a test should end with none.
        self.violations: list[str] = []
        self.resumes = 0
        self.expired_calls = 0  # webhook calls refused because the token had expired
        self._sockets: set[web.WebSocketResponse] = set()
        self._socket_sessions: dict[web.WebSocketResponse, str] = {}
        self._sessions: dict[str, int] = {}  # session id -> last sequence number sent
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.message_posted = asyncio.Condition()
        # The Activity's OAuth2 side: codes, access tokens, the guild's outsiders.
        self.oauth = FakeOAuth(self)

    # ----------------------------------------------------------------- lifecycle

    def next_id(self) -> int:
        return next(self._ids)

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware])
        app.router.add_get("/gateway", self._gateway_socket)
        app.router.add_get("/gateway/", self._gateway_socket)
        p = API_PREFIX
        routes = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._get_hook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._edit_hook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._delete_hook),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            *self.oauth.routes(),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, p + path, handler)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets, "the fake server did not bind"
        self.port = server.sockets[0].getsockname()[1]
        logger.debug("fake Discord listening on 127.0.0.1:%s", self.port)

    async def stop(self) -> None:
        for hold in self.holds:
            hold.release.set()
        for ws in list(self._sockets):
            await ws.close(code=4000, message=b"fake server stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def patch_client_urls(self, monkeypatch: Any) -> None:
        """Point discord.py's REST and gateway at this fake for the duration of a test."""
        import discord.gateway
        import discord.http
        import yarl

        monkeypatch.setattr(discord.http.Route, "BASE", self.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url + "/")
        )

    # ----------------------------------------------------------------- test controls

    def now(self) -> float:
        """The fake's clock (the event loop's, moved on by ``advance``)."""
        return asyncio.get_running_loop().time() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass for the fake's deadlines (interaction tokens expire)."""
        self.clock_offset += seconds

    async def drop_connections(self) -> None:
        """Close every gateway socket with 4000 (unknown error): a client should RESUME."""
        for ws in list(self._sockets):
            await ws.close(code=4000, message=b"dropped by the test")

    async def add_text_channel(self, name: str) -> int:
        """A new text channel in the guild (announced with CHANNEL_CREATE when connected)."""
        channel_id = self.next_id()
        self.text_channels[channel_id] = name
        if self._sockets:
            await self.dispatch("CHANNEL_CREATE", self._channel_payload(channel_id))
        return channel_id

    def add_user(self, username: str) -> FakeUser:
        user = FakeUser(self.next_id(), username)
        self.users[user.id] = user
        return user

    def post_as_bot(
        self, content: str, components: list[JsonDict], *, channel_id: int | None = None
    ) -> StoredMessage:
        """A message the bot posted earlier (e.g. by an older version, with its buttons)."""
        channel = self.channel_id if channel_id is None else channel_id
        body = {"content": content, "components": components}
        return self._new_message(channel_id=channel, body=body)

    def make_admin(self, user: FakeUser) -> None:
        """``user`` may manage the guild: their member permissions include Manage Server."""
        self.admins.add(user.id)

    def rate_limit(
        self, method: str, path_regex: str, *, times: int = 1, retry_after: float = 0.05
    ) -> None:
        """Answer the next ``times`` matching requests with a 429 (as Discord's edge does)."""
        self.rate_limits.append(RateLimitRule(method, re.compile(path_regex), times, retry_after))

    def hold(self, method: str, path_regex: str) -> HoldRule:
        """Hold the matching requests until the rule's ``release`` is set (a slow Discord)."""
        rule = HoldRule(method, re.compile(path_regex), asyncio.Event(), asyncio.Event())
        self.holds.append(rule)
        return rule

    def channel_messages(self, channel_id: int | None = None) -> list[StoredMessage]:
        """Non-ephemeral messages posted in a guild text channel (default: the main channel)."""
        wanted = self.channel_id if channel_id is None else channel_id
        return [m for m in self.messages.values() if m.channel_id == wanted and not m.ephemeral]

    def public_texts(self) -> list[str]:
        """Every text any channel member could ever have read: all versions of public messages."""
        return [
            text
            for m in self.messages.values()
            if m.channel_id in self.text_channels and not m.ephemeral
            for text in m.history
        ]

    def dm_messages(self, user: FakeUser) -> list[StoredMessage]:
        ids = {cid for cid, uid in self.dm_channels.items() if uid == user.id}
        return [m for m in self.messages.values() if m.channel_id in ids]

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until a condition on the fake's state holds (re-checked after every request
        and every IDENTIFY)."""

        async def _until() -> None:
            async with self.message_posted:
                await self.message_posted.wait_for(predicate)

        await asyncio.wait_for(_until(), timeout)

    async def slash(
        self,
        user: FakeUser,
        name: str,
        *,
        channel_id: int | None = None,
        locale: str = "it",
        **options: Any,
    ) -> InteractionRecord:
        """Run a synced slash command as ``user``; option types come from the synced definition."""
        command = next((c for c in self.global_commands if c["name"] == name), None)
        if command is None:
            raise FakeDiscordError(f"/{name} is not synced; synced: {self.command_names()}")
        declared = {o["name"]: o for o in command.get("options", [])}
        sent = []
        for key, value in options.items():
            if key not in declared:
                raise FakeDiscordError(f"/{name} has no option {key!r}; it has {sorted(declared)}")
            option = declared[key]
            allowed = [c["value"] for c in option.get("choices", [])]
            if allowed and value not in allowed:
                raise FakeDiscordError(f"/{name} {key}={value!r} is not one of {allowed}")
            if option["type"] == OPTION_USER:
                value = str(value)  # snowflakes travel as strings
            sent.append({"name": key, "type": option["type"], "value": value})
        missing = [k for k, o in declared.items() if o.get("required") and k not in options]
        if missing:
            raise FakeDiscordError(f"/{name} needs options {missing}")
        data: JsonDict = {"id": command["id"], "name": name, "type": 1, "options": sent}
        users = [self.users[int(o["value"])] for o in sent if o["type"] == OPTION_USER]
        if users:
            # Discord sends the users (and members) an option names, resolved.
            data["resolved"] = {
                "users": {str(u.id): u.payload() for u in users},
                "members": {
                    str(u.id): {k: v for k, v in self._member_payload(u).items() if k != "user"}
                    for u in users
                },
            }
        return await self._dispatch_interaction(
            APPLICATION_COMMAND, user, data, channel_id=channel_id, locale=locale
        )

    def command_names(self) -> list[str]:
        return [c["name"] for c in self.global_commands]

    async def click(
        self, user: FakeUser, message: StoredMessage | int, custom_id: str, *, locale: str = "it"
    ) -> InteractionRecord:
        """Press a button that is really on ``message`` (Discord sends the message along)."""
        stored = self._message_for_component(message, custom_id, BUTTON)
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, user, data, message=stored, locale=locale
        )

    async def select(
        self,
        user: FakeUser,
        message: StoredMessage | int,
        custom_id: str,
        values: list[str],
        *,
        locale: str = "it",
    ) -> InteractionRecord:
        """Choose ``values`` in a string select menu that is really on ``message``."""
        stored = self._message_for_component(message, custom_id, STRING_SELECT)
        component = dict(_walk_components(stored.components))[custom_id]
        offered = {o["value"] for o in component.get("options", [])}
        if not set(values) <= offered:
            raise FakeDiscordError(f"values {values} not among the options {sorted(offered)}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise FakeDiscordError(f"{len(values)} values chosen, allowed {low}..{high}")
        data = {"custom_id": custom_id, "component_type": STRING_SELECT, "values": values}
        return await self._dispatch_interaction(
            MESSAGE_COMPONENT, user, data, message=stored, locale=locale
        )

    def _message_for_component(
        self, message: StoredMessage | int, custom_id: str, kind: int
    ) -> StoredMessage:
        message_id = message if isinstance(message, int) else message.id
        stored = self.messages.get(message_id)
        if stored is None:
            raise FakeDiscordError(f"no message {message_id}")
        components = dict(_walk_components(stored.components))
        if custom_id not in components:
            raise FakeDiscordError(f"{custom_id!r} is not on message {message_id}: {components}")
        if components[custom_id].get("type") != kind:
            raise FakeDiscordError(f"{custom_id!r} is not a component of type {kind}")
        if components[custom_id].get("disabled"):
            raise FakeDiscordError(f"{custom_id!r} is disabled")
        return stored

    # ----------------------------------------------------------------- gateway

    async def dispatch(self, event: str, data: JsonDict) -> None:
        """Send a DISPATCH event to every connected gateway session."""
        if not self._sockets:
            raise FakeDiscordError(f"no client connected to receive {event}")
        for ws in list(self._sockets):
            await self._send_dispatch(ws, event, data)

    async def _send_dispatch(self, ws: web.WebSocketResponse, event: str, data: JsonDict) -> None:
        session = self._socket_sessions.get(ws)
        sequence = self._sessions.get(session, 0) + 1 if session else 1
        if session:
            self._sessions[session] = sequence
        await ws.send_str(json.dumps({"op": OP_DISPATCH, "t": event, "s": sequence, "d": data}))

    async def _gateway_socket(self, request: web.Request) -> web.WebSocketResponse:
        self.gateway_queries.append(dict(request.query))
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding")
            return ws
        self._sockets.add(ws)
        await ws.send_str(json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}}))
        try:
            # Ends when the client or the server closes the socket.
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._on_gateway_message(ws, json.loads(msg.data))
        finally:
            self._sockets.discard(ws)
            self._socket_sessions.pop(ws, None)
        return ws

    async def _on_gateway_message(self, ws: web.WebSocketResponse, msg: JsonDict) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == OP_HEARTBEAT:
            await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK}))
        elif op == OP_IDENTIFY:
            if data.get("token") != self.token:
                await ws.close(code=4004, message=b"Authentication failed.")
                return
            self.identifies += 1
            session = secrets.token_hex(16)
            self._socket_sessions[ws] = session
            self._sessions[session] = 0
            await self._send_dispatch(ws, "READY", self._ready_payload(session))
            await self._send_dispatch(ws, "GUILD_CREATE", self.guild_payload())
            await self._notify()
        elif op == OP_RESUME:
            session = data.get("session_id")
            if data.get("token") != self.token or session not in self._sessions:
                await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
                return
            self.resumes += 1
            self._socket_sessions[ws] = session
            await self._send_dispatch(ws, "RESUMED", {})
        else:
            logger.debug("fake gateway ignores op %s", op)

    def _ready_payload(self, session: str) -> JsonDict:
        return {
            "v": 10,
            "user": self.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": session,
            "resume_gateway_url": self.gateway_url + "/",
            "application": {"id": str(self.application_id), "flags": 0},
        }

    def guild_payload(self) -> JsonDict:
        channels = [self._channel_payload(cid) for cid in self.text_channels]
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner.id),
            "unavailable": False,
            "member_count": 1 + len(self.users),
            "large": False,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(0x800 | 0x400),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": channels,
            "threads": [],
            "members": [self._member_payload(self.bot_user)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "preferred_locale": self.guild_locale,
        }

    def _channel_payload(self, channel_id: int) -> JsonDict:
        return {
            "id": str(channel_id),
            "type": 0,
            "name": self.text_channels[channel_id],
            "position": list(self.text_channels).index(channel_id),
            "guild_id": str(self.guild_id),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }

    def _member_payload(self, user: FakeUser) -> JsonDict:
        return {
            "user": user.payload(),
            "roles": [],
            "joined_at": datetime.now(UTC).isoformat(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            # VIEW_CHANNEL | SEND_MESSAGES; a guild admin also MANAGE_GUILD (0x20).
            "permissions": str(0x800 | 0x400 | (0x20 if user.id in self.admins else 0)),
        }

    async def _dispatch_interaction(
        self,
        kind: int,
        user: FakeUser,
        data: JsonDict,
        *,
        channel_id: int | None = None,
        message: StoredMessage | None = None,
        locale: str,
    ) -> InteractionRecord:
        if message is not None:
            channel_id = message.channel_id
        channel_id = self.channel_id if channel_id is None else channel_id
        record = InteractionRecord(
            id=self.next_id(),
            token="itok-" + secrets.token_urlsafe(24),
            type=kind,
            user=user,
            channel_id=channel_id,
            dispatched_at=self.now(),
            deadline=self.now() + self.interaction_deadline,
            source_message_id=None if message is None else message.id,
        )
        self.interactions[record.id] = record
        payload: JsonDict = {
            "id": str(record.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": record.token,
            "version": 1,
            "locale": locale,
            "app_permissions": str(0x800 | 0x400),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel_id),
        }
        if channel_id in self.dm_channels:
            payload["channel"] = self._dm_payload(channel_id)
            payload["user"] = user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": str(user.id)}
        else:
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = self.guild_locale
            payload["channel"] = self._channel_payload(channel_id)
            payload["member"] = self._member_payload(user)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
        if message is not None:
            payload["message"] = message.payload()
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    def _dm_payload(self, channel_id: int) -> JsonDict:
        recipient = self.users[self.dm_channels[channel_id]]
        return {
            "id": str(channel_id),
            "type": 1,
            "last_message_id": None,
            "recipients": [recipient.payload()],
        }

    # ----------------------------------------------------------------- REST plumbing

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        path = request.path
        self.requests.append((request.method, path))
        if path.startswith(API_PREFIX):
            relative = path[len(API_PREFIX) :]
            webhook = relative.startswith(("/webhooks/", "/interactions/"))
            auth = request.headers.get("Authorization")
            if self.oauth.open_path(relative, auth):
                webhook = True  # the user's own bearer token, or the OAuth2 token endpoint
            if not webhook and auth != f"Bot {self.token}":
                return _error(401, 0, "401: Unauthorized")
            for rule in self.rate_limits:
                if (
                    rule.times > 0
                    and rule.method == request.method
                    and rule.path.fullmatch(relative)
                ):
                    rule.times -= 1
                    self.rate_limited.append((request.method, relative))
                    body = {
                        "message": "You are being rate limited.",
                        "retry_after": rule.retry_after,
                        "global": False,
                    }
                    headers = {
                        "Via": "1.1 google",
                        "Retry-After": str(max(1, round(rule.retry_after))),
                        "X-RateLimit-Scope": "user",
                    }
                    return _json(body, status=429, headers=headers)
            for hold in self.holds:
                if hold.method == request.method and hold.path.fullmatch(relative):
                    hold.arrived.set()
                    await asyncio.wait_for(hold.release.wait(), 30)
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPNotFound:
            response = _error(404, 0, "404: Not Found")
        await self._notify()  # wake wait_until() after every request
        return response

    async def _body(self, request: web.Request) -> JsonDict:
        if request.content_type == "multipart/form-data":
            form = await request.post()
            raw = form.get("payload_json")
            body: JsonDict = json.loads(str(raw)) if raw is not None else {}
            uploads: dict[int, tuple[str, bytes]] = {}
            for name, value in form.items():
                found = re.fullmatch(r"files\[(\d+)\]", name)
                if found and isinstance(value, web.FileField):
                    uploads[int(found.group(1))] = (value.filename, value.file.read())
            if uploads:
                body[UPLOADS] = uploads
            return body
        if not request.can_read_body:
            return {}
        plain: JsonDict = await request.json()
        return plain

    def _refuse(self, body: JsonDict) -> web.Response | None:
        problem = _message_problem(body)
        if problem is None:
            return None
        self.violations.append(problem)
        return _error(400, 50035, f"Invalid Form Body: {problem}")

    async def _notify(self) -> None:
        async with self.message_posted:
            self.message_posted.notify_all()

    def _new_message(
        self,
        *,
        channel_id: int,
        body: JsonDict,
        author: FakeUser | None = None,
        interaction: InteractionRecord | None = None,
    ) -> StoredMessage:
        message = StoredMessage(
            id=self.next_id(),
            channel_id=channel_id,
            author=author or self.bot_user,
            content=body.get("content") or "",
            components=body.get("components") or [],
            flags=int(body.get("flags") or 0),
            embeds=body.get("embeds") or [],
            guild_id=None if channel_id in self.dm_channels else self.guild_id,
            webhook_id=None if interaction is None else self.application_id,
            interaction_id=None if interaction is None else interaction.id,
        )
        message.history.append(message.content)
        message.pings = _pings(message.content, body.get("allowed_mentions"))
        self.pinged.extend(message.pings)
        self._attach(message, body)
        self.messages[message.id] = message
        return message

    def _attach(self, message: StoredMessage, body: JsonDict) -> None:
        """Discord's attachment rules: ``attachments`` lists what the message keeps (old ones
        by their id) and what is new (``id`` = the index of a ``files[n]`` part)."""
        uploads: dict[int, tuple[str, bytes]] = body.get(UPLOADS) or {}
        if "attachments" not in body and not uploads:
            return
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": index} for index in uploads]
        kept: list[JsonDict] = []
        files: dict[str, bytes] = {}
        old = {a["id"]: a for a in message.attachments}
        for item in listed:
            key = str(item.get("id"))
            if key in old:
                kept.append(old[key])
                files[key] = message.files[key]
                continue
            upload = uploads.get(int(key)) if key.isdigit() else None
            if upload is None:
                continue
            filename, data = upload
            new_id = str(self.next_id())
            url = f"{self.api_base}/attachments/{new_id}/{filename}"
            kept.append(
                {
                    "id": new_id,
                    "filename": item.get("filename") or filename,
                    "description": item.get("description"),
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                }
            )
            files[new_id] = data
        message.attachments, message.files = kept, files

    def _apply_edit(self, message: StoredMessage, body: JsonDict) -> None:
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "attachments" in body or UPLOADS in body:
            self._attach(message, body)
        if "flags" in body and body["flags"] is not None:
            # Discord only lets an edit toggle SUPPRESS_EMBEDS; ephemerality is fixed at creation.
            message.flags = (message.flags & EPHEMERAL) | (int(body["flags"]) & ~EPHEMERAL)
        message.edited = True
        message.history.append(message.content)

    # ----------------------------------------------------------------- REST handlers

    async def _get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return await self.oauth.me(request)
        return _json(self.bot_user.payload() | {"verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            return _error(404, 10013, "Unknown User")
        return _json(user.payload())

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "Tavolo",
                "icon": None,
                "description": "Scopa, Scopone e Scala 40",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _create_dm(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user_id = int(body["recipient_id"])
        if user_id not in self.users:
            return _error(400, 50033, "Invalid Recipient(s)")
        channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
        if channel_id is None:
            channel_id = self.next_id()
            self.dm_channels[channel_id] = user_id
        return _json(self._dm_payload(channel_id))

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        if channel_id in self.dm_channels:
            return _json(self._dm_payload(channel_id))
        if channel_id not in self.text_channels:
            return _error(404, 10003, "Unknown Channel")
        return _json(
            next(c for c in self.guild_payload()["channels"] if int(c["id"]) == channel_id)
        )

    async def _post_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        if channel_id not in self.text_channels and channel_id not in self.dm_channels:
            return _error(404, 10003, "Unknown Channel")
        if self.dm_channels.get(channel_id) in self.closed_dms:
            return _error(403, 50007, "Cannot send messages to this user")
        body = await self._body(request)
        if not (
            body.get("content") or body.get("components") or body.get("embeds") or UPLOADS in body
        ):
            return _error(400, 50006, "Cannot send an empty message")
        refused = self._refuse(body)
        if refused is not None:
            return refused
        message = self._new_message(channel_id=channel_id, body=body)
        await self._notify()
        return _json(message.payload())

    def _channel_message(self, request: web.Request) -> StoredMessage | None:
        channel_id = int(request.match_info["channel_id"])
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None or message.channel_id != channel_id or message.ephemeral:
            return None
        return message

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload())

    async def _edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        if message.author.id != self.bot_user.id:
            return _error(403, 50005, "Cannot edit a message authored by another user")
        body = await self._body(request)
        refused = self._refuse(body)
        if refused is not None:
            return refused
        self._apply_edit(message, body)
        await self._notify()
        return _json(message.payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        del self.messages[message.id]
        await self._notify()
        return web.Response(status=204)

    def _live_interaction(self, token: str) -> InteractionRecord | None:
        return next((r for r in self.interactions.values() if r.token == token), None)

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if record.acknowledged:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if self.now() > record.deadline:
            record.late = True
            record.changed.set()
            return _error(404, 10062, "Unknown interaction")
        body = await self._body(request)
        kind, data = body.get("type"), body.get("data") or {}
        if UPLOADS in body:
            data = {**data, UPLOADS: body[UPLOADS]}
        refused = self._refuse(data)
        if refused is not None:
            return refused
        record.callback_type, record.callback_data = kind, data
        resource: JsonDict | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if kind == DEFERRED_CHANNEL_MESSAGE:
                # Discord shows "thinking..." in a message whose content comes with the edit.
                data = {"content": "", "flags": flags}
            record.original = self._new_message(
                channel_id=record.channel_id, body=data, interaction=record
            )
            resource = {"type": kind, "message": record.original.payload()}
        elif kind == UPDATE_MESSAGE:
            source = self.messages.get(record.source_message_id or 0)
            if source is None:
                return _error(400, 50035, "Invalid Form Body: no message to update")
            self._apply_edit(source, data)
            resource = {"type": kind, "message": source.payload()}
        elif kind == LAUNCH_ACTIVITY:
            self.oauth.launched.append(record.id)
            resource = {"type": kind, "activity_instance": {"id": f"i-{record.id}"}}
        elif kind != DEFERRED_UPDATE:
            return _error(400, 50035, f"Invalid Form Body: callback type {kind}")
        record.answered.set()
        record.changed.set()
        await self._notify()
        out: JsonDict = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(
                    record.original is not None and record.original.ephemeral
                ),
            }
        }
        if record.original is not None:
            out["interaction"]["response_message_id"] = str(record.original.id)
        if resource is not None:
            out["resource"] = resource
        return _json(out)

    def _hook_record(self, request: web.Request) -> InteractionRecord | None:
        if int(request.match_info["app_id"]) != self.application_id:
            return None
        record = self._live_interaction(request.match_info["token"])
        if record is None or not record.acknowledged:
            return None
        return record

    def _expired(self, record: InteractionRecord | None) -> web.Response | None:
        """Discord's answer to a webhook call with an interaction token past its lifetime."""
        if record is None or self.now() <= record.dispatched_at + self.token_lifetime:
            return None
        self.expired_calls += 1
        return _error(401, 50027, "Invalid Webhook Token")

    def _hook_message(
        self, request: web.Request, record: InteractionRecord
    ) -> StoredMessage | None:
        wanted = request.match_info["message_id"]
        if wanted == "@original":
            if record.original is not None:
                return record.original
            # After a component's update/deferred update, @original is the component's message.
            return self.messages.get(record.source_message_id or 0)
        message = self.messages.get(int(wanted))
        allowed = {m.id for m in record.messages()} | {record.source_message_id}
        return message if message is not None and message.id in allowed else None

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._hook_record(request)
        expired = self._expired(record)
        if expired is not None:
            return expired
        if record is None:
            return _error(404, 10015, "Unknown Webhook")
        body = await self._body(request)
        refused = self._refuse(body)
        if refused is not None:
            return refused
        message = self._new_message(channel_id=record.channel_id, body=body, interaction=record)
        record.followups.append(message)
        record.changed.set()
        await self._notify()
        return _json(message.payload())

    async def _get_hook_message(self, request: web.Request) -> web.Response:
        record = self._hook_record(request)
        expired = self._expired(record)
        if expired is not None:
            return expired
        message = None if record is None else self._hook_message(request, record)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        return _json(message.payload())

    async def _edit_hook_message(self, request: web.Request) -> web.Response:
        record = self._hook_record(request)
        expired = self._expired(record)
        if expired is not None:
            return expired
        message = None if record is None else self._hook_message(request, record)
        if record is None or message is None:
            return _error(404, 10008, "Unknown Message")
        body = await self._body(request)
        refused = self._refuse(body)
        if refused is not None:
            return refused
        self._apply_edit(message, body)
        record.changed.set()
        await self._notify()
        return _json(message.payload())

    async def _delete_hook(self, request: web.Request) -> web.Response:
        record = self._hook_record(request)
        expired = self._expired(record)
        if expired is not None:
            return expired
        message = None if record is None else self._hook_message(request, record)
        if message is None:
            return _error(404, 10008, "Unknown Message")
        del self.messages[message.id]
        await self._notify()
        return web.Response(status=204)

    async def _get_commands(self, request: web.Request) -> web.Response:
        if int(request.match_info["app_id"]) != self.application_id:
            return _error(403, 50001, "Missing Access")
        return _json(self.global_commands if "guild_id" not in request.match_info else [])

    async def _put_commands(self, request: web.Request) -> web.Response:
        if int(request.match_info["app_id"]) != self.application_id:
            return _error(403, 50001, "Missing Access")
        body = await request.json()
        if not isinstance(body, list) or len(body) > 100:
            return _error(400, 50035, "Invalid Form Body")
        stored = []
        for command in body:
            problem = _command_problem(command)
            if problem:
                return _error(400, 50035, f"Invalid Form Body: {problem}")
            stored.append(
                command
                | {
                    "id": str(self.next_id()),
                    "application_id": str(self.application_id),
                    "version": str(self.next_id()),
                    "type": command.get("type", 1),
                }
            )
        if "guild_id" not in request.match_info:
            self.global_commands = stored
            self.command_overwrites += 1
        return _json(stored)


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


def _command_problem(command: JsonDict) -> str | None:
    """Discord's validation of a chat input command, the parts a bad definition would hit."""
    names = [command.get("name", "")]
    names += list((command.get("name_localizations") or {}).values())
    for option in command.get("options", []):
        names.append(option.get("name", ""))
        names += list((option.get("name_localizations") or {}).values())
        if len(option.get("choices", [])) > 25:
            return f"option {option.get('name')} has more than 25 choices"
        if not 1 <= len(option.get("description", "")) <= 100:
            return f"option {option.get('name')} description must be 1-100 characters"
    for name in names:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            return f"bad command or option name {name!r}"
    if not 1 <= len(command.get("description", "")) <= 100:
        return f"description of {command.get('name')} must be 1-100 characters"
    return None


def _pings(content: str, allowed: JsonDict | None) -> list[int]:
    """Who a new message's user mentions notify: every ``<@id>`` when ``allowed_mentions`` is
    absent, else only those it allows (``parse: ["users"]`` or listed in ``users``)."""
    mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", content)]
    if allowed is None:
        return mentioned
    if "users" in (allowed.get("parse") or []):
        return mentioned
    listed = {int(u) for u in allowed.get("users") or []}
    return [u for u in mentioned if u in listed]


def _message_problem(body: JsonDict) -> str | None:
    """What Discord would refuse in a message body (it answers 400 / 50035)."""
    content = body.get("content") or ""
    if len(content) > 2000:
        return f"content of {len(content)} characters > 2000"
    rows = body.get("components") or []
    if len(rows) > 5:
        return f"{len(rows)} action rows > 5"
    for row in rows:
        inner = row.get("components", [])
        if len(inner) > 5:
            return f"an action row with {len(inner)} components > 5"
        selects = [c for c in inner if c.get("type") == STRING_SELECT]
        if selects and len(inner) > 1:
            return "a select menu must be alone in its action row"
        for component in inner:
            if len(component.get("custom_id", "")) > 100:
                return f"custom_id longer than 100: {component['custom_id']!r}"
            if len(component.get("options", [])) > 25:
                return "a select menu with more than 25 options"
            if len(component.get("label") or "") > 80:
                return f"a label longer than 80: {component['label']!r}"
    return None
