"""The fake Discord's OAuth2 side, for the Activity (mounted on ``FakeDiscord``'s server).

What Discord does for an Activity's sign-in, with Discord's shapes:
* ``POST /oauth2/token`` (form: ``client_id``, ``client_secret``, ``grant_type=
  authorization_code``, ``code``): a code is good once, for the application it was issued to,
  with the application's secret; else 400 ``invalid_grant`` / 401 ``invalid_client``.
* ``GET /users/@me`` with ``Authorization: Bearer <access token>``: that user (401 otherwise).
* ``GET /guilds/{guild}/members/{user}`` with the bot's token: the member, or 404 ``10007
  Unknown Member`` for a user who is not in the guild (``outsiders``); ``GET
  /users/@me/guilds`` with the user's bearer token (the ``guilds`` scope). A test may hide
  either (``hidden``: a 404 ``code 0``, as Discord answers a route it has not).
* The ``LAUNCH_ACTIVITY`` interaction callback (type 12): recorded on the interaction
  (``callback_type``) and in ``launched``.

A test plays the Discord client: ``code_for(user)`` is what AUTHORIZE would hand the page.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from tests.fakes.discord_api import FakeDiscord, FakeUser

LAUNCH_ACTIVITY = 12
CLIENT_SECRET = "fake-client-secret"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(body: Any, status: int = 200) -> web.Response:
    return web.json_response(body, status=status)


@dataclass
class FakeOAuth:
    """Codes and access tokens of the fake's users, and who is outside the guild."""

    fake: FakeDiscord
    client_secret: str = CLIENT_SECRET
    codes: dict[str, int] = field(default_factory=dict)  # code -> user id (one use)
    tokens: dict[str, int] = field(default_factory=dict)  # access token -> user id
    outsiders: set[int] = field(default_factory=set)  # users not in the guild
    exchanged: list[str] = field(default_factory=list)  # codes exchanged, in order
    refused: list[str] = field(default_factory=list)  # why each refused call was refused
    launched: list[int] = field(default_factory=list)  # interactions answered LAUNCH_ACTIVITY
    # Routes a test hides, to play an API without them ("members", "my_guilds").
    hidden: set[str] = field(default_factory=set)

    @property
    def client_id(self) -> str:
        return str(self.fake.application_id)

    def code_for(self, user: FakeUser) -> str:
        """A fresh code, as the client's AUTHORIZE gives it for ``user``."""
        code = secrets.token_urlsafe(18)
        self.codes[code] = user.id
        return code

    def routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("POST", "/oauth2/token", self._token),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._member),
            ("GET", "/users/@me/guilds", self._my_guilds),
        ]

    def open_path(self, relative: str, auth: str | None) -> bool:
        """Requests that carry no bot token: the token endpoint, a user's bearer token."""
        return relative == "/oauth2/token" or (auth or "").startswith("Bearer ")

    async def _token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("client_id") != self.client_id or form.get("client_secret") != (
            self.client_secret
        ):
            self.refused.append("invalid_client")
            return _json({"error": "invalid_client"}, 401)
        code = str(form.get("code") or "")
        if form.get("grant_type") != "authorization_code" or code not in self.codes:
            self.refused.append("invalid_grant")
            return _json(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, 400
            )
        user_id = self.codes.pop(code)
        self.exchanged.append(code)
        token = secrets.token_urlsafe(24)
        self.tokens[token] = user_id
        return _json(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify guilds",
            }
        )

    async def me(self, request: web.Request) -> web.Response:
        """``/users/@me`` with a user's bearer token."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user_id = self.tokens.get(token)
        user = None if user_id is None else self.fake.users.get(user_id)
        if user is None:
            self.refused.append("bad bearer token")
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        return _json(user.payload() | {"global_name": user.username, "locale": "en-US"})

    async def _my_guilds(self, request: web.Request) -> web.Response:
        """``/users/@me/guilds`` with a bearer token (the ``guilds`` scope)."""
        if "my_guilds" in self.hidden:
            return _json({"message": "404: Not Found", "code": 0}, 404)
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user_id = self.tokens.get(token)
        if user_id is None:
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        if user_id in self.outsiders:
            return _json([])
        return _json([{"id": str(self.fake.guild_id), "name": self.fake.guild_name}])

    async def _member(self, request: web.Request) -> web.Response:
        if "members" in self.hidden:
            return _json({"message": "404: Not Found", "code": 0}, 404)
        guild = int(request.match_info["guild_id"])
        user_id = int(request.match_info["user_id"])
        user = self.fake.users.get(user_id)
        if guild != self.fake.guild_id:
            return _json({"message": "Unknown Guild", "code": 10004}, 404)
        if user is None or user_id in self.outsiders:
            return _json({"message": "Unknown Member", "code": 10007}, 404)
        return _json(self.fake._member_payload(user))
