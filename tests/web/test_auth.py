"""Who is at the page: Telegram's init data checked as Telegram specifies, and the WebSocket's
short-lived token; anything forged, altered, expired or missing gets 401 and no data."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.web.auth import AuthError, Identity, TokenSigner, check_init_data
from tests.web.conftest import BOT_TOKEN, Web, init_data, user


def _telegram_hash(fields: dict[str, str], token: str) -> str:
    # Written out from core.telegram.org/bots/webapps, independently of bot.web.auth.
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()


def test_init_data_signed_as_telegram_signs_it_is_accepted() -> None:
    now = 1_800_000_000
    fields = {
        "auth_date": str(now),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps(
            {
                "id": 279058397,
                "first_name": "Vladislav",
                "last_name": "K",
                "username": "vdkfrost",
                "language_code": "it",
            }
        ),
        "start_param": "42",
    }
    raw = urlencode({**fields, "hash": _telegram_hash(fields, BOT_TOKEN)})
    who = check_init_data(raw, BOT_TOKEN, max_age=86400, now=now + 10)
    assert who == Identity("telegram", "279058397", "Vladislav K", "it", "42")


@pytest.mark.parametrize(
    "tamper",
    ["user", "auth_date", "hash", "add_field", "drop_field", "other_token", "empty", "garbage"],
)
def test_altered_or_forged_init_data_is_refused(tamper: str) -> None:
    now = 1_800_000_000
    raw = init_data(user(1), auth_date=now, token=BOT_TOKEN)
    fields = dict(parse_qsl(raw))
    if tamper == "user":
        fields["user"] = fields["user"].replace("1001", "1002")
    elif tamper == "auth_date":
        fields["auth_date"] = str(now + 1)
    elif tamper == "hash":
        fields["hash"] = "0" * 64
    elif tamper == "add_field":
        fields["start_param"] = "7"
    elif tamper == "drop_field":
        del fields["query_id"]
    altered = urlencode(fields)
    if tamper == "other_token":
        altered = init_data(user(1), auth_date=now, token="999:another-bot")
    elif tamper == "empty":
        altered = ""
    elif tamper == "garbage":
        altered = "%%%&&&==="
    with pytest.raises(AuthError):
        check_init_data(altered, BOT_TOKEN, max_age=86400, now=now + 5)


def test_old_init_data_is_refused() -> None:
    now = 1_800_000_000
    raw = init_data(user(1), auth_date=now)
    check_init_data(raw, BOT_TOKEN, max_age=3600, now=now + 3600)
    with pytest.raises(AuthError):
        check_init_data(raw, BOT_TOKEN, max_age=3600, now=now + 3601)
    with pytest.raises(AuthError):  # from the future
        check_init_data(raw, BOT_TOKEN, max_age=3600, now=now - 3600)


def test_tokens_expire_and_cannot_be_altered() -> None:
    now = [1000.0]
    signer = TokenSigner(b"k" * 32, ttl=60, clock=lambda: now[0])
    token = signer.issue(Identity("telegram", "5", "Ann", "it", "9"))
    assert signer.check(token) == Identity("telegram", "5", "Ann", "it", "9")
    body, mac = token.split(".")
    for bad in (body + "." + mac[:-2] + "AA", body[:-2] + "AA." + mac, "", "x.y", token + "."):
        with pytest.raises(AuthError):
            signer.check(bad)
    other = TokenSigner(b"q" * 32, ttl=60, clock=lambda: now[0])
    with pytest.raises(AuthError):
        other.check(token)
    now[0] += 61
    with pytest.raises(AuthError):
        signer.check(token)


async def test_the_http_sign_in_answers_401_and_no_data(web: Web) -> None:
    good = init_data(user(1))
    async with web.session.post(web.url("/api/auth/telegram"), json={"init_data": good}) as r:
        assert r.status == 200
        body = await r.json()
        assert body["user"]["id"] == "1001" and body["token"]
    fields = dict(parse_qsl(good))
    fields["user"] = fields["user"].replace("Player1", "Mallory")
    old = init_data(user(1), auth_date=time.time() - 86400 - 120)
    for payload in (
        {"init_data": urlencode(fields)},
        {"init_data": old},
        {"init_data": init_data(user(1), token="1:forged")},
        {},
        {"init_data": 5},
    ):
        async with web.session.post(web.url("/api/auth/telegram"), json=payload) as r:
            assert r.status == 401
            assert await r.json() == {"error": "unauthorized"}
    async with web.session.post(web.url("/api/auth/telegram"), data=b"not json") as r:
        assert r.status == 401
    # Local sign-in exists only under `tavolo web`.
    async with web.session.post(web.url("/api/auth/local")) as r:
        assert r.status == 401


async def test_the_socket_needs_a_valid_token(web: Web) -> None:
    token = await web.token(user(1))
    body, mac = token.split(".")
    for bad in ("", "nonsense", body + "." + mac[::-1], body[::-1] + "." + mac):
        async with web.session.get(web.url(f"/ws?token={bad}")) as r:
            assert r.status == 401
    expired = TokenSigner(b"0123456789abcdef0123456789abcdef", ttl=-1).issue(
        Identity("telegram", "1001", "Player1")
    )
    async with web.session.get(web.url(f"/ws?token={expired}")) as r:
        assert r.status == 401
    ws = await web.session.ws_connect(web.url(f"/ws?token={token}"))
    await ws.close()


async def test_bodies_are_size_limited(web: Web) -> None:
    big = {"init_data": "a" * 20_000}
    async with web.session.post(web.url("/api/auth/telegram"), json=big) as r:
        assert r.status in (401, 413)
        assert "token" not in await r.text()
