"""Who is at the page: Telegram's signed init data, checked as Telegram specifies, and the
short-lived token the page then opens its WebSocket with.

Telegram (core.telegram.org/bots/webapps, "Validating data received via the Mini App"):
``secret_key = HMAC_SHA256(key="WebAppData", msg=bot_token)``; ``hash`` = hex of
``HMAC_SHA256(key=secret_key, msg=data_check_string)`` where ``data_check_string`` is every
received field but ``hash``, as ``key=value`` sorted by key and joined with newlines. Nothing
else identifies a user: a page without valid, recent init data gets no token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

__all__ = [
    "AuthError",
    "Identity",
    "TokenSigner",
    "check_init_data",
    "sign_init_data",
]

# Init data longer than this is not Telegram's (a user object and a few fields).
MAX_INIT_DATA = 4096


class AuthError(ValueError):
    """Init data or a token that identifies nobody: the reason, for the log only (never
    shown to the caller beyond "unauthorized")."""


@dataclass(frozen=True, slots=True)
class Identity:
    """A person at the page: ``platform`` ("telegram", or "web" for ``tavolo web``'s local
    player), their id there, their name, language hint, and the table the link named."""

    platform: str
    user_id: str
    name: str
    locale: str | None = None
    start: str | None = None  # the Mini App link's start parameter (a table id)


def _secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """``fields`` signed as Telegram signs init data, URL-encoded (tests, and the local
    benchmark, play Telegram here)."""
    from urllib.parse import urlencode

    digest = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


def check_init_data(
    init_data: str,
    bot_token: str,
    *,
    max_age: float,
    now: float | None = None,
) -> Identity:
    """The user of Telegram's ``init_data`` (the raw query string); :class:`AuthError` when
    it is missing, malformed, not signed with ``bot_token``'s key, or older than ``max_age``
    seconds."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise AuthError("no init data, or too long")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise AuthError("init data is not a query string") from exc
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError("a field given twice")
    received = fields.get("hash", "")
    expected = hmac.new(_secret(bot_token), _check_string(fields).encode(), hashlib.sha256)
    if not hmac.compare_digest(expected.hexdigest(), received.lower()):
        raise AuthError("bad hash")
    try:
        auth_date = int(fields.get("auth_date", ""))
    except ValueError as exc:
        raise AuthError("no auth_date") from exc
    moment = time.time() if now is None else now
    if auth_date > moment + 60 or moment - auth_date > max_age:
        raise AuthError("init data expired")
    try:
        user = json.loads(fields.get("user", ""))
    except ValueError as exc:
        raise AuthError("no user") from exc
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        raise AuthError("no user id")
    name = " ".join(
        str(user[k]) for k in ("first_name", "last_name") if isinstance(user.get(k), str)
    ).strip() or str(user.get("username") or user["id"])
    language = user.get("language_code")
    return Identity(
        platform="telegram",
        user_id=str(user["id"]),
        name=name[:64],
        locale=language if isinstance(language, str) else None,
        start=fields.get("start_param") or None,
    )


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Short-lived bearer tokens for the WebSocket: the identity and an expiry, signed with
    HMAC-SHA256 under a key of this process's (or the deployment's) secret."""

    def __init__(
        self, secret: bytes, *, ttl: float = 600.0, clock: Callable[[], float] = time.time
    ) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._key = hmac.new(b"TavoloWebToken", secret, hashlib.sha256).digest()
        self.ttl = ttl
        self.clock = clock

    def issue(self, who: Identity) -> str:
        body = json.dumps(
            {
                "p": who.platform,
                "u": who.user_id,
                "n": who.name,
                "l": who.locale,
                "s": who.start,
                "e": int(self.clock() + self.ttl),
            },
            separators=(",", ":"),
        ).encode()
        mac = hmac.new(self._key, body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(mac)}"

    def check(self, token: str) -> Identity:
        """The identity a token carries; :class:`AuthError` when forged, altered or expired."""
        if not token or len(token) > 1024 or token.count(".") != 1:
            raise AuthError("not a token")
        body_text, mac_text = token.split(".")
        try:
            body, mac = _unb64(body_text), _unb64(mac_text)
        except ValueError as exc:
            raise AuthError("not a token") from exc
        expected = hmac.new(self._key, body, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, mac):
            raise AuthError("bad token signature")
        try:
            data = json.loads(body)
            expires = int(data["e"])
            who = Identity(
                platform=str(data["p"]),
                user_id=str(data["u"]),
                name=str(data["n"]),
                locale=data["l"] if isinstance(data.get("l"), str) else None,
                start=data["s"] if isinstance(data.get("s"), str) else None,
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise AuthError("bad token body") from exc
        if expires < self.clock():
            raise AuthError("token expired")
        return who
