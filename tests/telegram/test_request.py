"""The aiohttp transport under PTB (``bot.telegram.request``): what HTTPXRequest did, it does.

Calls of every shape go through the real ``telegram.Bot`` to the fake Bot API: form-encoded
parameters (numbers, JSON objects, strings that look like numbers), multipart uploads, long polls
with their own read timeout; and the failures PTB's callers handle: ``TimedOut``, ``NetworkError``.
"""

from __future__ import annotations

import base64
import socket

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import NetworkError, TimedOut

from bot.telegram.app import build_application
from bot.telegram.request import AiohttpRequest, _env_proxy, _timeout, build_requests
from bot.telegram.settings import TelegramSettings
from tests.fakes.telegram_api import FakeBotApi, group_chat, user
from tests.telegram.support import fast_rate_limiter

GROUP = group_chat(-100700, "Trasporto")


def bot_for(api: FakeBotApi, request: AiohttpRequest) -> Bot:
    return Bot(api.token, base_url=api.base_url, request=request, get_updates_request=request)


async def test_the_application_uses_the_aiohttp_transport(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    calls, polls = app.bot._request[1], app.bot._request[0]
    assert isinstance(calls, AiohttpRequest) and isinstance(polls, AiohttpRequest)
    # Long polls outlast the poll timeout they ask for; other calls keep PTB's 5 s.
    assert polls.read_timeout == settings.poll_timeout + 10
    assert calls.read_timeout == 5.0
    async with app:
        assert app.bot.username == api.bot_username


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", "42"),  # a string that looks like a number stays a string
        ("è così: 7♦ + 3♣", "è così: 7♦ + 3♣"),
        ("a&b=c?d", "a&b=c?d"),  # form encoding escapes what it must
    ],
)
async def test_parameters_arrive_as_telegram_reads_them(
    api: FakeBotApi, text: str, expected: str
) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("ok", callback_data="1:2:7D")]])
    async with bot_for(api, AiohttpRequest()) as bot:
        message = await bot.send_message(GROUP["id"], text, reply_markup=markup)
    call = api.calls("sendMessage")[-1]
    assert call.params["chat_id"] == GROUP["id"]
    assert call.params["text"] == expected
    assert call.params["reply_markup"] == markup.to_dict()
    assert message.text == expected and message.chat.id == GROUP["id"]


async def test_an_upload_is_multipart_with_its_fields(api: FakeBotApi) -> None:
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    async with bot_for(api, AiohttpRequest()) as bot:
        message = await bot.send_photo(
            GROUP["id"], InputFile(png, filename="t.png"), caption="tavolo"
        )
    call = api.calls("sendPhoto")[-1]
    assert call.files["photo"] == png
    assert call.params == {"chat_id": GROUP["id"], "caption": "tavolo"}
    assert message.photo and message.caption == "tavolo"


async def test_a_long_poll_returns_the_update_that_arrives_during_it(api: FakeBotApi) -> None:
    calls, polls = build_requests(get_updates_read_timeout=3)
    bot = Bot(api.token, base_url=api.base_url, request=calls, get_updates_request=polls)
    async with bot:
        first = await bot.get_updates(timeout=0)
        api.send_text(GROUP, user(7, "Ada"), "ciao")
        updates = await bot.get_updates(timeout=2)
    assert first == ()
    assert [u.message.text for u in updates if u.message] == ["ciao"]


async def test_a_stalled_answer_is_timed_out(api: FakeBotApi) -> None:
    api.inject_timeout("sendMessage", seconds=1.5)
    async with bot_for(api, AiohttpRequest(read_timeout=0.3)) as bot:
        with pytest.raises(TimedOut):
            await bot.send_message(GROUP["id"], "late")
        # The transport is still usable afterwards.
        assert (await bot.send_message(GROUP["id"], "now")).text == "now"


async def test_a_server_that_is_not_there_is_a_network_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bot = Bot("1:x", base_url=f"http://127.0.0.1:{port}/bot", request=AiohttpRequest())
    await bot.request.initialize()
    try:
        with pytest.raises(NetworkError) as caught:
            await bot.send_message(1, "anyone?")
        assert not isinstance(caught.value, TimedOut)
        assert "aiohttp." in str(caught.value)
    finally:
        await bot.request.shutdown()


async def test_unused_or_closed_transport_says_so(api: FakeBotApi) -> None:
    request = AiohttpRequest()
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(f"{api.base_url}{api.token}/getMe", "POST")
    await request.initialize()
    await request.shutdown()
    await request.shutdown()  # twice is harmless
    with pytest.raises(RuntimeError, match="not initialized"):
        await request.do_request(f"{api.base_url}{api.token}/getMe", "POST")
    with pytest.raises(ValueError, match="pool"):
        AiohttpRequest(connection_pool_size=0)


@pytest.mark.parametrize(
    ("env", "scheme", "host", "proxy", "login"),
    [
        ({}, "https", "api.telegram.org", None, None),
        ({"HTTPS_PROXY": "http://proxy:3128"}, "https", "t.org", "http://proxy:3128", None),
        ({"HTTPS_PROXY": "http://u%40x:pw@proxy:3128"}, "https", "t.org", "http://proxy:3128",
         "u@x"),
        ({"HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "api.telegram.org"}, "https",
         "api.telegram.org", None, None),
        ({"HTTP_PROXY": "http://proxy:3128"}, "https", "api.telegram.org", None, None),
        ({"ALL_PROXY": "http://proxy:1"}, "https", "api.telegram.org", "http://proxy:1", None),
        ({"HTTPS_PROXY": "socks5://proxy:1080"}, "https", "api.telegram.org", None, None),
    ],
)  # fmt: skip
def test_proxies_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
    env: dict[str, str],
    scheme: str,
    host: str,
    proxy: str | None,
    login: str | None,
) -> None:
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    found, headers = _env_proxy(scheme, host)
    assert found == proxy
    if login is None:
        assert headers is None
    else:
        assert headers is not None
        token = headers["Proxy-Authorization"].removeprefix("Basic ")
        assert base64.b64decode(token).decode() == f"{login}:pw"


@pytest.mark.parametrize(
    ("read", "write", "connect", "pool", "total", "sock_read", "wait"),
    [
        (5.0, 5.0, 5.0, 1.0, 16.0, 5.0, 6.0),
        (20.0, 20.0, 5.0, 1.0, 46.0, 20.0, 6.0),
        (None, 5.0, 5.0, 1.0, None, None, 6.0),  # no read timeout: nothing bounds the whole
        (5.0, 5.0, None, 1.0, None, 5.0, None),
    ],
)
def test_httpx_timeouts_map_onto_aiohttps(
    read: float | None,
    write: float | None,
    connect: float | None,
    pool: float | None,
    total: float | None,
    sock_read: float | None,
    wait: float | None,
) -> None:
    timeout = _timeout(read=read, write=write, connect=connect, pool=pool)
    assert isinstance(timeout, aiohttp.ClientTimeout)
    assert (timeout.total, timeout.sock_read, timeout.connect) == (total, sock_read, wait)
    assert timeout.sock_connect == connect


async def test_requests_go_through_the_proxy_the_environment_names(
    api: FakeBotApi, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fake answers by path, so it can stand in for an HTTP proxy: a host that does not
    # exist is reachable only through it.
    for name in ("HTTPS_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.setenv("HTTP_PROXY", api.url)
    bot = Bot(api.token, base_url="http://telegram.invalid/bot", request=AiohttpRequest())
    await bot.request.initialize()
    try:
        me = await bot.get_me()
    finally:
        await bot.request.shutdown()
    assert me.username == api.bot_username
    assert [r.method for r in api.requests] == ["getMe"]
