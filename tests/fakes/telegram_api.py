"""A small fake Telegram Bot API server for end-to-end tests of the real python-telegram-bot.

The real ``telegram.ext.Application`` talks to it over HTTP on 127.0.0.1 (``base_url`` /
``base_file_url``), exactly as it would to a self-hosted Bot API server. The fake:

* records every request (method, decoded parameters, uploaded files, the reply it gave);
* keeps the messages the bot sent or edited per chat, so a test can find the buttons a user sees;
* lets a test inject updates: text messages and commands from chosen users in chosen chats (private,
  group, forum topics) and presses of inline buttons (callback queries, also forged ones);
* answers ``getUpdates`` by long polling with ``offset``/``timeout``, or pushes updates to a webhook
  with its secret token once ``setWebhook`` was called;
* answers with Bot API errors where Telegram does: 403 when the bot writes first to a user who
  never opened it, 400 "message is not modified", and any injected fault (429 with
  ``retry_after``, ...);
* plays Telegram's inline mode (its own section, ``FakeBotApi(inline=True)``): users' inline
  queries, ``answerInlineQuery`` with Telegram's limits and errors (50 results, result ids of
  1-64 bytes, unique, offsets of at most 64 bytes), a chosen result posted in the chat as the
  user's message "via @bot" and reported as a ``chosen_inline_result`` (inline feedback), either
  or both, in either order; editing such a message by its ``inline_message_id``; deleting a
  user's message only where the bot is an admin (``make_bot_admin``).

Start it in a test with ``async with FakeBotApi() as api:`` and build the bot with
``base_url=api.base_url, base_file_url=api.base_file_url`` (or ``TELEGRAM_API_URL=api.url``).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import random
import re
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

logger = logging.getLogger(__name__)

JSON = dict[str, Any]

DEFAULT_TOKEN = "123456:TEST-token-for-the-fake-server"

# Parameters the Bot API documents as strings: PTB sends them raw, never JSON-encoded, so they must
# not be decoded (a message text "42" stays the string "42").
_STRING_PARAMS = frozenset(
    {
        "text",
        "caption",
        "parse_mode",
        "callback_query_id",
        "url",
        "secret_token",
        "language_code",
        "inline_message_id",
        "ip_address",
        "emoji",
    }
)

# answerInlineQuery: at most this many results; a start parameter is 1-64 of [A-Za-z0-9_-].
MAX_INLINE_RESULTS = 50
_START_PARAMETER = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Inline keyboard buttons that need no callback data.
_INLINE_BUTTON_KINDS = frozenset(
    {
        "url",
        "switch_inline_query",
        "switch_inline_query_current_chat",
        "login_url",
        "pay",
        "web_app",
    }
)

# Long polls never outlast this, whatever timeout the client asks for, so a forgotten poller
# cannot keep a test's event loop busy for long.
MAX_POLL_SECONDS = 5.0

FORBIDDEN_DM = "Forbidden: bot can't initiate conversation with a user"
FORBIDDEN_BLOCKED = "Forbidden: bot was blocked by the user"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)


class FakeApiError(Exception):
    """A Bot API error reply: ``{"ok": false, "error_code", "description", "parameters"}``."""

    def __init__(self, error_code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def body(self) -> JSON:
        body: JSON = {"ok": False, "error_code": self.error_code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


@dataclass
class RecordedRequest:
    """One call the bot made, as the server understood it."""

    index: int
    method: str
    params: JSON
    files: dict[str, bytes] = field(default_factory=dict)
    status: int = 200
    reply: JSON = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> int | str | None:
        value = self.params.get("chat_id")
        return value if isinstance(value, int | str) else None


@dataclass
class Fault:
    """An error the server gives instead of handling a matching request."""

    method: str
    error_code: int
    description: str
    parameters: JSON | None = None
    remaining: int = 1
    chat_id: int | None = None
    # Seconds the server stalls before answering (a client timeout when long enough); with
    # ``error_code == 0`` the request is then handled normally: Telegram did the work late.
    delay: float = 0.0

    def matches(self, method: str, params: JSON) -> bool:
        if self.remaining <= 0 or self.method != method:
            return False
        return self.chat_id is None or params.get("chat_id") == self.chat_id


# Calls that put something in a chat, and so count against Telegram's flood limits.
FLOOD_COUNTED = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
        # Several messages of one chat in one call: one call against the limits.
        "deleteMessages",
    }
)


@dataclass
class FloodLimits:
    """Telegram's flood limits as sliding windows: at most ``group_rate`` counted calls in
    any ``group_period`` seconds in one group (negative chat id), and ``overall_rate`` in any
    ``overall_period`` seconds over all chats; past them, 429 with ``retry_after``."""

    overall_rate: int = 30
    overall_period: float = 1.0
    group_rate: int = 20
    group_period: float = 60.0


@dataclass
class FaultMix:
    """Random trouble on a share of the calls of ``methods``: 429 (``retry_after`` 1-3 s),
    500, 502, and stalls of ``stall_seconds`` (longer than the client's timeout; the call is
    then done, late), each with its own probability; reproducible from ``seed``."""

    flood: float = 0.0
    error_500: float = 0.0
    error_502: float = 0.0
    stall: float = 0.0
    stall_seconds: float = 6.0
    seed: int = 0
    methods: frozenset[str] = FLOOD_COUNTED | {"answerCallbackQuery"}


@dataclass
class StoredMessage:
    """A message as the chat shows it now (the latest text and keyboard)."""

    chat: JSON
    message_id: int
    sender: JSON
    date: int
    text: str | None = None
    caption: str | None = None
    reply_markup: JSON | None = None
    message_thread_id: int | None = None
    has_photo: bool = False
    # The picture it shows: its bytes and the file id Telegram gave them.
    photo_data: bytes | None = None
    file_id: str | None = None
    # A user's message posted by an inline result: the bot it came "via".
    via_bot: JSON | None = None

    def to_api(self) -> JSON:
        message: JSON = {
            "message_id": self.message_id,
            "date": self.date,
            "chat": self.chat,
            "from": self.sender,
        }
        if self.text is not None:
            message["text"] = self.text
        if self.caption is not None:
            message["caption"] = self.caption
        if self.has_photo:
            message["photo"] = [
                {
                    "file_id": self.file_id or f"photo-{self.chat['id']}-{self.message_id}",
                    "file_unique_id": f"u{self.message_id}",
                    "width": 640,
                    "height": 480,
                }
            ]
        if self.reply_markup:
            message["reply_markup"] = self.reply_markup
        if self.message_thread_id is not None:
            message["message_thread_id"] = self.message_thread_id
            message["is_topic_message"] = True
        if self.via_bot is not None:
            message["via_bot"] = self.via_bot
        return message

    def buttons(self) -> list[JSON]:
        """Every inline button of the keyboard, row by row."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard", [])
        return [button for row in rows for button in row]

    def button(self, text_contains: str) -> JSON:
        """The one button whose label contains ``text_contains``."""
        found = [b for b in self.buttons() if text_contains in b.get("text", "")]
        if len(found) != 1:
            labels = [b.get("text") for b in self.buttons()]
            raise AssertionError(f"{len(found)} buttons match {text_contains!r} among {labels}")
        return found[0]


def request_texts(request: RecordedRequest) -> list[str]:
    """The texts a request puts on screen: a message text, a caption, an edited media's caption."""
    out = [v for k in ("text", "caption") if isinstance(v := request.params.get(k), str)]
    media = request.params.get("media")
    if isinstance(media, dict) and isinstance(media.get("caption"), str):
        out.append(media["caption"])
    return out


def user(user_id: int, first_name: str, *, username: str | None = None, lang: str = "it") -> JSON:
    """A Telegram ``User`` object for a human."""
    result: JSON = {
        "id": user_id,
        "is_bot": False,
        "first_name": first_name,
        "language_code": lang,
    }
    if username:
        result["username"] = username
    return result


def private_chat(of_user: JSON) -> JSON:
    """The private chat between the bot and ``of_user`` (its id is the user's id)."""
    return {"id": of_user["id"], "type": "private", "first_name": of_user["first_name"]}


def group_chat(chat_id: int, title: str, *, forum: bool = False) -> JSON:
    """A supergroup (negative id), optionally with forum topics."""
    if chat_id >= 0:
        raise ValueError("group chat ids are negative")
    chat: JSON = {"id": chat_id, "type": "supergroup", "title": title}
    if forum:
        chat["is_forum"] = True
    return chat


def _commands_key(params: JSON) -> tuple[str, str]:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps(scope, sort_keys=True), str(params.get("language_code", ""))


def _decode(name: str, value: str) -> Any:
    if name in _STRING_PARAMS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


class FakeBotApi:
    """The fake server; see the module docstring."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_id: int = 123456,
        bot_username: str = "tavolo_test_bot",
        bot_name: str = "Tavolo",
        inline: bool = False,
    ) -> None:
        self.token = token
        self.bot_user: JSON = {
            "id": bot_id,
            "is_bot": True,
            "first_name": bot_name,
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            # Inline mode, as @BotFather's /setinline leaves it.
            "supports_inline_queries": inline,
        }
        self.requests: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        # The ids of each chat's messages, oldest first: finding a chat must not scan every
        # message of every chat (1,000 groups in the load benchmark).
        self._chat_index: dict[int, dict[int, None]] = {}
        # Every picture uploaded, by the file id it got (a later request may name it instead).
        self.files: dict[str, bytes] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.answered_callbacks: dict[str, JSON] = {}
        self.webhook_url: str | None = None
        self.webhook_secret: str | None = None
        self.webhook_replies: list[int] = []
        self.admins: set[tuple[int, int]] = set()
        # Users who never opened the bot: it may not write to them first (Telegram's 403).
        self._blocked_private: set[int] = set()
        self._blocked_bot: set[int] = set()
        self._pending: list[JSON] = []
        self._confirmed_offset = 0
        self._update_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)
        self._message_ids: dict[int, Iterator[int]] = {}
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._client: aiohttp.ClientSession | None = None
        self._push_tasks: set[asyncio.Task[None]] = set()
        # Set by stop(): long polls still waiting answer at once (see stop()).
        self._closing = False
        self.port = 0
        self._init_inline()
        self._init_limits_and_faults()

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle_file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])
        logger.debug("fake Bot API listening on port %s", self.port)

    async def stop(self) -> None:
        # A client that stopped polling (PTB cancels its request) leaves the server's getUpdates
        # handler waiting out its long poll, and the server's cleanup waits for every handler:
        # answer them now, as Telegram answers a poll when the bot goes away, so a test's
        # teardown does not sit out the poll timeout.
        self._closing = True
        async with self._changed:
            self._changed.notify_all()
        for task in list(self._push_tasks):
            task.cancel()
        if self._push_tasks:
            await asyncio.gather(*self._push_tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeBotApi:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        """What ``TELEGRAM_API_URL`` would be for a self-hosted server at this address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    @property
    def bot_username(self) -> str:
        return str(self.bot_user["username"])

    # --- what tests inject -------------------------------------------------------------------

    def block_private(self, user_id: int) -> None:
        """``user_id`` has never opened the bot: a first private message to them gets a 403."""
        self._blocked_private.add(user_id)

    def unblock_private(self, user_id: int) -> None:
        """``user_id`` opened the bot in a way the bot is not told of (no ``/start``)."""
        self._blocked_private.discard(user_id)
        self._blocked_bot.discard(user_id)

    def block_bot(self, user_id: int) -> None:
        """``user_id`` blocked the bot: every message to their private chat, sent or edited,
        gets a 403 until they write to it again."""
        self._blocked_bot.add(user_id)

    def make_admin(self, chat_id: int, user_id: int) -> None:
        """``user_id`` administers the group ``chat_id`` (``getChatMember`` says so)."""
        self.admins.add((chat_id, user_id))

    def inject_fault(
        self,
        method: str,
        *,
        error_code: int,
        description: str,
        parameters: JSON | None = None,
        times: int = 1,
        chat_id: int | None = None,
        delay: float = 0.0,
    ) -> Fault:
        """Answer the next ``times`` calls of ``method`` (in ``chat_id`` if given) with an error
        (after ``delay`` seconds; ``error_code=0``: a slow success instead of an error)."""
        fault = Fault(method, error_code, description, parameters, times, chat_id, delay)
        self.faults.append(fault)
        return fault

    def inject_flood(self, method: str, *, times: int, retry_after: int = 1) -> Fault:
        """Telegram's flood control: 429 with ``retry_after`` for the next ``times`` calls."""
        return self.inject_fault(
            method,
            error_code=429,
            description=f"Too Many Requests: retry after {retry_after}",
            parameters={"retry_after": retry_after},
            times=times,
        )

    def inject_server_error(self, method: str, *, times: int = 1, error_code: int = 502) -> Fault:
        """Telegram's own trouble: 500/502/504 for the next ``times`` calls of ``method``."""
        names = {500: "Internal Server Error", 502: "Bad Gateway", 504: "Gateway Timeout"}
        return self.inject_fault(
            method, error_code=error_code, description=names.get(error_code, "Error"), times=times
        )

    def inject_timeout(self, method: str, *, seconds: float, times: int = 1) -> Fault:
        """The next ``times`` calls of ``method`` stall ``seconds`` (then succeed, too late for a
        client with a shorter timeout)."""
        return self.inject_fault(method, error_code=0, description="", times=times, delay=seconds)

    def delete_by_user(self, chat_id: int, message_id: int) -> None:
        """A user (or an admin) deletes a message: later edits of it find nothing."""
        self._forget_message(chat_id, message_id)

    def _forget_message(self, chat_id: int, message_id: int) -> None:
        del self.messages[(chat_id, message_id)]
        del self._chat_index[chat_id][message_id]

    def send_text(
        self,
        chat: JSON,
        sender: JSON,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: StoredMessage | None = None,
    ) -> StoredMessage:
        """``sender`` writes ``text`` in ``chat`` (a command if it starts with ``/``), in reply
        to ``reply_to`` when given."""
        if chat["type"] == "private":
            if chat["id"] != sender["id"]:
                raise ValueError("only the user writes in their private chat with the bot")
            # Writing to the bot opens the private chat: from now on the bot may write first.
            self._blocked_private.discard(sender["id"])
            self._blocked_bot.discard(sender["id"])
        stored = self._store(chat, sender, text=text, thread_id=thread_id)
        message = stored.to_api()
        if text.startswith("/"):
            length = len(text.split()[0])
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
        if reply_to is not None:
            message["reply_to_message"] = reply_to.to_api()
        self.push_update({"message": message})
        return stored

    def press(
        self,
        message: StoredMessage,
        sender: JSON,
        *,
        data: str | None = None,
        button: str | None = None,
    ) -> str:
        """``sender`` presses an inline button of ``message``: by label, or with any ``data``.

        Passing ``data`` that is on no button is how a test forges a callback query.
        """
        if (data is None) == (button is None):
            raise ValueError("give exactly one of data= or button=")
        if button is not None:
            data = str(message.button(button)["callback_data"])
        query_id = f"cq{next(self._callback_ids)}"
        current = self.messages[(message.chat["id"], message.message_id)]
        self.push_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": sender,
                    "message": current.to_api(),
                    "chat_instance": f"ci{message.chat['id']}",
                    "data": data,
                }
            }
        )
        return query_id

    def push_update(self, payload: JSON) -> int:
        """Queue a raw update (the ``update_id`` is added); returns its id."""
        update_id = next(self._update_ids)
        update = {"update_id": update_id, **payload}
        if self.webhook_url:
            task = asyncio.get_running_loop().create_task(self._push_webhook(update))
            self._push_tasks.add(task)
            task.add_done_callback(self._push_tasks.discard)
        else:
            self._pending.append(update)
            self._notify()
        return update_id

    # --- what tests read ---------------------------------------------------------------------

    def calls(self, method: str | None = None, **params: Any) -> list[RecordedRequest]:
        """Recorded requests of ``method`` whose parameters include ``params``."""
        return [
            r
            for r in self.requests
            if (method is None or r.method == method)
            and all(r.params.get(k) == v for k, v in params.items())
        ]

    def chat_messages(self, chat_id: int, *, thread_id: int | None = None) -> list[StoredMessage]:
        """The messages now in a chat (and topic), oldest first."""
        return [
            m
            for (cid, _), m in sorted(self.messages.items())
            if cid == chat_id and (thread_id is None or m.message_thread_id == thread_id)
        ]

    def bot_messages(self, chat_id: int, *, thread_id: int | None = None) -> list[StoredMessage]:
        return [
            m
            for m in self.chat_messages(chat_id, thread_id=thread_id)
            if m.sender["id"] == self.bot_user["id"]
        ]

    def last_bot_message(self, chat_id: int) -> StoredMessage:
        messages = self.bot_messages(chat_id)
        if not messages:
            raise AssertionError(f"the bot wrote nothing in chat {chat_id}")
        return messages[-1]

    def message(self, chat_id: int, message_id: int) -> StoredMessage:
        return self.messages[(chat_id, message_id)]

    def texts_sent_to(self, chat_id: int) -> list[str]:
        """Every text the bot ever put in ``chat_id`` (sent or edited), in order."""
        out: list[str] = []
        for r in self.requests:
            if not r.ok or r.params.get("chat_id") != chat_id:
                continue
            out.extend(request_texts(r))
        return out

    async def wait_for(
        self, predicate: Callable[[], Any], *, timeout: float = 10.0, what: str = "condition"
    ) -> Any:
        """Wait (bounded) until ``predicate()`` is truthy after some request; returns its value."""
        deadline = time.monotonic() + timeout
        async with self._changed:
            while True:
                value = predicate()
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"timed out waiting for {what}")
                try:
                    await asyncio.wait_for(self._changed.wait(), timeout=remaining)
                except TimeoutError:
                    continue

    async def wait_idle(self, *, quiet: float = 0.3, timeout: float = 15.0) -> None:
        """Wait (bounded) until every update was fetched and no request came for ``quiet`` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = len(self.requests)
            await asyncio.sleep(quiet)
            if len(self.requests) == seen and not self._pending:
                return
        raise AssertionError("the bot never went idle")

    async def wait_answered(self, query_id: str, *, timeout: float = 10.0) -> JSON:
        """Wait until the bot answered callback query ``query_id``; returns the answer."""
        answer = await self.wait_for(
            lambda: self.answered_callbacks.get(query_id),
            timeout=timeout,
            what=f"answer to {query_id}",
        )
        assert isinstance(answer, dict)
        return answer

    # --- the HTTP side -----------------------------------------------------------------------

    def _notify(self) -> None:
        async def notify() -> None:
            async with self._changed:
                self._changed.notify_all()

        task = asyncio.get_running_loop().create_task(notify())
        self._push_tasks.add(task)
        task.add_done_callback(self._push_tasks.discard)

    def _next_message_id(self, chat_id: int) -> int:
        counter = self._message_ids.setdefault(chat_id, itertools.count(1))
        return next(counter)

    def _store(
        self,
        chat: JSON,
        sender: JSON,
        *,
        text: str | None = None,
        caption: str | None = None,
        reply_markup: JSON | None = None,
        thread_id: int | None = None,
        has_photo: bool = False,
    ) -> StoredMessage:
        stored = StoredMessage(
            chat=chat,
            message_id=self._next_message_id(chat["id"]),
            sender=sender,
            date=int(time.time()),
            text=text,
            caption=caption,
            reply_markup=reply_markup,
            message_thread_id=thread_id,
            has_photo=has_photo,
        )
        self.messages[(chat["id"], stored.message_id)] = stored
        self._chat_index.setdefault(chat["id"], {})[stored.message_id] = None
        return stored

    async def _read_params(self, request: web.Request) -> tuple[JSON, dict[str, bytes]]:
        params: JSON = {}
        files: dict[str, bytes] = {}
        if request.method == "GET":
            for name, text in request.query.items():
                params[name] = _decode(name, text)
            return params, files
        if request.content_type == "application/json":
            body = await request.json()
            return (dict(body) if isinstance(body, dict) else {}), files
        form = await request.post()
        for name, field_value in form.items():
            value: object = field_value
            if isinstance(value, web.FileField):
                files[name] = value.file.read()
            elif isinstance(value, bytes | bytearray):
                files[name] = bytes(value)
            else:
                params[name] = _decode(name, str(value))
        return params, files

    async def _handle(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        params, files = await self._read_params(request)
        record = RecordedRequest(len(self.requests), method, params, files)
        try:
            result = await self._dispatch(method, params, files)
        except FakeApiError as error:
            record.status, record.reply = error.error_code, error.body()
        else:
            record.reply = {"ok": True, "result": result}
        if method != "getUpdates" or record.reply.get("result") or not record.ok:
            logger.debug("fake Bot API %s %s -> %s", method, params, record.status)
        self.requests.append(record)
        async with self._changed:
            self._changed.notify_all()
        return web.json_response(record.reply, status=record.status)

    async def _handle_file(self, request: web.Request) -> web.Response:
        return web.Response(body=b"", status=404)

    async def _dispatch(self, method: str, params: JSON, files: dict[str, bytes]) -> Any:
        await self._limits_and_faults(method, params)
        for fault in self.faults:
            if fault.matches(method, params):
                fault.remaining -= 1
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.error_code:
                    raise FakeApiError(fault.error_code, fault.description, fault.parameters)
                break
        handler = getattr(self, f"_api_{method}", None)
        if handler is None:
            raise FakeApiError(404, "Not Found: method not found")
        return await handler(params, files)

    # --- flood limits and random faults (off unless a test or benchmark turns them on) -------

    def _init_limits_and_faults(self) -> None:
        self.flood_limits: FloodLimits | None = None
        self.fault_mix: FaultMix | None = None
        self._fault_rng = random.Random(0)
        self._overall_times: deque[float] = deque()
        self._group_times: dict[int, deque[float]] = {}
        # 429s the limits gave (the bot went too fast), and the faults the mix injected.
        self.flood_refusals: list[tuple[float, str, int | None]] = []
        self.injected: Counter[str] = Counter()

    def enforce_flood_limits(self, limits: FloodLimits | None = None) -> FloodLimits:
        """Answer 429 with ``retry_after`` to calls beyond Telegram's flood limits."""
        self.flood_limits = limits or FloodLimits()
        return self.flood_limits

    def inject_fault_mix(self, mix: FaultMix) -> FaultMix:
        """Random 429/500/502/stalls on a share of the calls (``None`` mix: off)."""
        self.fault_mix = mix
        self._fault_rng = random.Random(mix.seed)
        return mix

    async def _limits_and_faults(self, method: str, params: JSON) -> None:
        mix = self.fault_mix
        if mix is not None and method in mix.methods:
            roll = self._fault_rng.random()
            for kind, share in (
                ("429", mix.flood),
                ("500", mix.error_500),
                ("502", mix.error_502),
                ("stall", mix.stall),
            ):
                if roll < share:
                    self.injected[kind] += 1
                    if kind == "stall":
                        await asyncio.sleep(mix.stall_seconds)
                        break
                    if kind == "429":
                        seconds = self._fault_rng.randint(1, 3)
                        raise FakeApiError(
                            429,
                            f"Too Many Requests: retry after {seconds}",
                            {"retry_after": seconds},
                        )
                    raise FakeApiError(
                        int(kind), "Internal Server Error" if kind == "500" else "Bad Gateway"
                    )
                roll -= share
        limits = self.flood_limits
        if limits is None or method not in FLOOD_COUNTED:
            return
        now = time.monotonic()
        chat_id = params.get("chat_id")
        group = chat_id if isinstance(chat_id, int) and chat_id < 0 else None
        windows = [(self._overall_times, limits.overall_rate, limits.overall_period)]
        if group is not None:
            times = self._group_times.setdefault(group, deque())
            windows.append((times, limits.group_rate, limits.group_period))
        wait = 0.0
        for times, rate, period in windows:
            while times and times[0] <= now - period:
                times.popleft()
            if len(times) >= rate:
                wait = max(wait, times[0] + period - now)
        if wait > 0:
            self.flood_refusals.append((now, method, group))
            retry_after = max(1, math.ceil(wait))
            raise FakeApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )
        for times, _, _ in windows:
            times.append(now)

    # --- Bot API methods ---------------------------------------------------------------------

    async def _api_getMe(self, params: JSON, files: dict[str, bytes]) -> Any:
        return self.bot_user

    async def _api_getUpdates(self, params: JSON, files: dict[str, bytes]) -> Any:
        if self.webhook_url:
            raise FakeApiError(409, "Conflict: can't use getUpdates method while webhook is active")
        offset = int(params.get("offset") or 0)
        if offset:
            # Telegram forgets every update below the offset: they are confirmed.
            self._confirmed_offset = max(self._confirmed_offset, offset)
            self._pending = [u for u in self._pending if u["update_id"] >= offset]
        limit = int(params.get("limit") or 100)
        timeout = min(float(params.get("timeout") or 0), MAX_POLL_SECONDS)
        if not self._pending and timeout > 0:
            deadline = time.monotonic() + timeout
            async with self._changed:
                while not self._pending and not self._closing:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    try:
                        await asyncio.wait_for(self._changed.wait(), timeout=remaining)
                    except TimeoutError:
                        break
        return self._pending[:limit]

    async def _api_deleteWebhook(self, params: JSON, files: dict[str, bytes]) -> Any:
        self.webhook_url = None
        self.webhook_secret = None
        if params.get("drop_pending_updates"):
            self._pending.clear()
        return True

    async def _api_setWebhook(self, params: JSON, files: dict[str, bytes]) -> Any:
        url = params.get("url")
        if not isinstance(url, str) or not url.startswith(("http://127.0.0.1", "https://")):
            raise FakeApiError(400, "Bad Request: bad webhook: an HTTPS URL must be provided")
        self.webhook_url = url
        self.webhook_secret = params.get("secret_token")
        pending, self._pending = self._pending, []
        for update in pending:
            task = asyncio.get_running_loop().create_task(self._push_webhook(update))
            self._push_tasks.add(task)
            task.add_done_callback(self._push_tasks.discard)
        return True

    async def _api_getWebhookInfo(self, params: JSON, files: dict[str, bytes]) -> Any:
        return {
            "url": self.webhook_url or "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._pending),
        }

    async def _api_setMyCommands(self, params: JSON, files: dict[str, bytes]) -> Any:
        commands = params.get("commands")
        if not isinstance(commands, list) or not commands:
            raise FakeApiError(400, "Bad Request: commands must be a non-empty list")
        for command in commands:
            name = command.get("command", "")
            if not (1 <= len(name) <= 32) or name != name.lower() or not name.isascii():
                raise FakeApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not (1 <= len(command.get("description", "")) <= 256):
                raise FakeApiError(400, "Bad Request: command description is invalid")
        key = _commands_key(params)
        self.commands[key] = commands
        return True

    async def _api_getMyCommands(self, params: JSON, files: dict[str, bytes]) -> Any:
        key = _commands_key(params)
        return self.commands.get(key, [])

    async def _api_deleteMyCommands(self, params: JSON, files: dict[str, bytes]) -> Any:
        key = _commands_key(params)
        self.commands.pop(key, None)
        return True

    def _target_chat(self, params: JSON) -> JSON:
        chat_id = params.get("chat_id")
        if not isinstance(chat_id, int):
            raise FakeApiError(400, "Bad Request: chat not found")
        if chat_id > 0:
            if chat_id in self._blocked_private:
                raise FakeApiError(403, FORBIDDEN_DM)
            if chat_id in self._blocked_bot:
                raise FakeApiError(403, FORBIDDEN_BLOCKED)
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        # The chat as its oldest message still there shows it.
        for message_id in self._chat_index.get(chat_id, ()):
            return self.messages[(chat_id, message_id)].chat
        return {"id": chat_id, "type": "supergroup", "title": f"group{chat_id}"}

    def _check_text(self, text: Any, *, required: bool = True) -> None:
        if text is None and not required:
            return
        if not isinstance(text, str) or not text.strip():
            raise FakeApiError(400, "Bad Request: message text is empty")
        if len(text) > 4096:
            raise FakeApiError(400, "Bad Request: message is too long")

    def _check_markup(self, markup: Any, chat_id: Any = None) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise FakeApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        for row in markup.get("inline_keyboard", []):
            for button in row:
                data = button.get("callback_data")
                if data is not None and not (1 <= len(str(data).encode()) <= 64):
                    raise FakeApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                if data is None and not _INLINE_BUTTON_KINDS & button.keys():
                    raise FakeApiError(400, 'Bad Request: can\'t find field "text"')
                if "web_app" in button:
                    # Telegram: web_app buttons only in private chats between a user and the
                    # bot; groups open a Mini App through its t.me link (a url button).
                    url = (
                        button["web_app"].get("url", "")
                        if isinstance(button["web_app"], dict)
                        else ""
                    )
                    if not str(url).startswith("https://"):
                        raise FakeApiError(400, "Bad Request: BUTTON_URL_INVALID")
                    if isinstance(chat_id, int) and chat_id < 0:
                        raise FakeApiError(400, "Bad Request: BUTTON_TYPE_INVALID")
        return markup

    async def _api_sendMessage(self, params: JSON, files: dict[str, bytes]) -> Any:
        chat = self._target_chat(params)
        self._check_text(params.get("text"))
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        thread_id = params.get("message_thread_id")
        stored = self._store(
            chat,
            self.bot_user,
            text=params["text"],
            reply_markup=markup,
            thread_id=thread_id if isinstance(thread_id, int) else None,
        )
        return stored.to_api()

    def _photo(self, value: Any, files: dict[str, bytes]) -> tuple[bytes, str]:
        """An uploaded picture (a new file id) or a file id uploaded before."""
        if isinstance(value, str) and value.startswith("attach://"):
            data = files.get(value.removeprefix("attach://"))
            if data is None:
                raise FakeApiError(400, "Bad Request: media not found")
        elif isinstance(value, str):
            if value not in self.files:
                raise FakeApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            return self.files[value], value
        elif isinstance(value, bytes):
            data = value
        else:
            raise FakeApiError(400, "Bad Request: there is no photo in the request")
        if not data:
            raise FakeApiError(400, "Bad Request: file must be non-empty")
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = data
        return data, file_id

    def _check_caption(self, caption: Any) -> None:
        self._check_text(caption, required=False)
        if isinstance(caption, str) and len(caption) > 1024:
            raise FakeApiError(400, "Bad Request: message caption is too long")

    async def _api_sendPhoto(self, params: JSON, files: dict[str, bytes]) -> Any:
        chat = self._target_chat(params)
        data, file_id = self._photo(files.get("photo", params.get("photo")), files)
        self._check_caption(params.get("caption"))
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        thread_id = params.get("message_thread_id")
        stored = self._store(
            chat,
            self.bot_user,
            caption=params.get("caption"),
            reply_markup=markup,
            thread_id=thread_id if isinstance(thread_id, int) else None,
            has_photo=True,
        )
        stored.photo_data, stored.file_id = data, file_id
        return stored.to_api()

    async def _api_editMessageMedia(self, params: JSON, files: dict[str, bytes]) -> Any:
        stored = self._editable(params)
        media = params.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            raise FakeApiError(400, "Bad Request: can't parse InputMedia: media not found")
        if not stored.has_photo:
            raise FakeApiError(400, "Bad Request: there is no media in the message to edit")
        caption = media.get("caption")
        self._check_caption(caption)
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        data, file_id = self._photo(media.get("media"), files)
        if (
            data == stored.photo_data
            and caption == stored.caption
            and (stored.reply_markup or None) == markup
        ):
            raise FakeApiError(400, NOT_MODIFIED)
        stored.photo_data, stored.file_id = data, file_id
        stored.caption = caption if isinstance(caption, str) else None
        stored.reply_markup = markup
        return stored.to_api()

    def _editable(self, params: JSON) -> StoredMessage:
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        if not isinstance(chat_id, int) or not isinstance(message_id, int):
            raise FakeApiError(400, "Bad Request: message identifier is not specified")
        if chat_id in self._blocked_bot:
            raise FakeApiError(403, FORBIDDEN_BLOCKED)
        stored = self.messages.get((chat_id, message_id))
        if stored is None:
            raise FakeApiError(400, "Bad Request: message to edit not found")
        if stored.sender["id"] != self.bot_user["id"]:
            raise FakeApiError(400, "Bad Request: message can't be edited")
        return stored

    async def _api_editMessageText(self, params: JSON, files: dict[str, bytes]) -> Any:
        if "inline_message_id" in params:
            return self._edit_inline_text(params)
        stored = self._editable(params)
        self._check_text(params.get("text"))
        if stored.text is None:
            raise FakeApiError(400, "Bad Request: there is no text in the message to edit")
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        if stored.text == params["text"] and (stored.reply_markup or None) == markup:
            raise FakeApiError(400, NOT_MODIFIED)
        stored.text = params["text"]
        stored.reply_markup = markup
        return stored.to_api()

    async def _api_editMessageCaption(self, params: JSON, files: dict[str, bytes]) -> Any:
        stored = self._editable(params)
        if not stored.has_photo:
            raise FakeApiError(400, "Bad Request: there is no caption in the message to edit")
        self._check_caption(params.get("caption"))
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        if stored.caption == params.get("caption") and (stored.reply_markup or None) == markup:
            raise FakeApiError(400, NOT_MODIFIED)
        stored.caption = params.get("caption")
        stored.reply_markup = markup
        return stored.to_api()

    async def _api_editMessageReplyMarkup(self, params: JSON, files: dict[str, bytes]) -> Any:
        stored = self._editable(params)
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        if (stored.reply_markup or None) == markup:
            raise FakeApiError(400, NOT_MODIFIED)
        stored.reply_markup = markup
        return stored.to_api()

    async def _api_deleteMessage(self, params: JSON, files: dict[str, bytes]) -> Any:
        users = self._users_message(params)
        if users is not None:
            self._forget_message(users.chat["id"], users.message_id)
            return True
        stored = self._editable(params)
        self._forget_message(stored.chat["id"], stored.message_id)
        return True

    async def _api_answerCallbackQuery(self, params: JSON, files: dict[str, bytes]) -> Any:
        query_id = params.get("callback_query_id")
        if not isinstance(query_id, str) or not query_id:
            raise FakeApiError(400, "Bad Request: query is too old and response timeout expired")
        if query_id in self.answered_callbacks:
            raise FakeApiError(400, "Bad Request: query is too old and response timeout expired")
        text = params.get("text")
        if isinstance(text, str) and len(text) > 200:
            raise FakeApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answered_callbacks[query_id] = {
            "text": text,
            "show_alert": bool(params.get("show_alert")),
            "url": params.get("url"),
        }
        return True

    async def _api_getChatMember(self, params: JSON, files: dict[str, bytes]) -> Any:
        chat_id, user_id = params.get("chat_id"), params.get("user_id")
        if not isinstance(chat_id, int) or not isinstance(user_id, int):
            raise FakeApiError(400, "Bad Request: invalid user_id specified")
        member = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
        if (chat_id, user_id) in self.admins:
            return {
                "status": "administrator",
                "user": member,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
            }
        return {"status": "member", "user": member}

    async def _api_sendChatAction(self, params: JSON, files: dict[str, bytes]) -> Any:
        self._target_chat(params)
        return True

    async def _api_close(self, params: JSON, files: dict[str, bytes]) -> Any:
        return True

    # --- inline mode ---------------------------------------------------------------------------

    def _init_inline(self) -> None:
        self.inline_queries: dict[str, JSON] = {}
        # query id -> the answerInlineQuery parameters (results, is_personal, cache_time...)
        self.inline_answers: dict[str, JSON] = {}
        # inline_message_id -> (chat id, message id) of a result's message that has a keyboard
        self.inline_messages: dict[str, tuple[int, int]] = {}
        self.bot_admin_chats: set[int] = set()
        self._inline_ids = itertools.count(1)

    def make_bot_admin(self, chat_id: int) -> None:
        """The bot is an admin of ``chat_id`` with the right to delete others' messages."""
        self.bot_admin_chats.add(chat_id)

    def inline_query(
        self, sender: JSON, query: str = "", *, chat_type: str = "supergroup", offset: str = ""
    ) -> str:
        """``sender`` types ``@bot <query>`` (or taps a switch-inline button); returns its id."""
        if not self.bot_user.get("supports_inline_queries"):
            raise AssertionError("inline mode is off for this bot: clients send no queries")
        query_id = f"iq{next(self._inline_ids)}"
        payload = {
            "id": query_id,
            "from": sender,
            "query": query,
            "offset": offset,
            "chat_type": chat_type,
        }
        self.inline_queries[query_id] = payload
        self.push_update({"inline_query": payload})
        return query_id

    async def wait_inline_answer(self, query_id: str, *, timeout: float = 10.0) -> JSON:
        """The bot's answer to inline query ``query_id`` (waits, bounded)."""
        answer = await self.wait_for(
            lambda: self.inline_answers.get(query_id),
            timeout=timeout,
            what=f"answer to inline query {query_id}",
        )
        assert isinstance(answer, dict)
        return answer

    def inline_results(self, query_id: str) -> list[JSON]:
        answer = self.inline_answers.get(query_id) or {}
        results = answer.get("results") or []
        return list(results) if isinstance(results, list) else []

    def choose_inline_result(
        self,
        sender: JSON,
        query_id: str,
        result_id: str,
        *,
        chat: JSON,
        thread_id: int | None = None,
        feedback: bool = True,
        post: bool = True,
        message_first: bool = True,
        held: list[JSON] | None = None,
    ) -> StoredMessage | None:
        """``sender`` taps result ``result_id`` of the answer to ``query_id``: its message is
        posted in ``chat`` as theirs "via @bot" (``post``), and with inline feedback on the bot
        gets a ``chosen_inline_result`` (``feedback``), after the message or before it. With
        ``held`` only the first update goes now; the second is put in ``held`` for the test to
        push later (``push_update``), as when the bot stops between the two."""
        found = [r for r in self.inline_results(query_id) if r.get("id") == result_id]
        if len(found) != 1:
            raise AssertionError(f"no result {result_id!r} in the answer to {query_id}")
        result = found[0]
        content = result.get("input_message_content") or {}
        markup = result.get("reply_markup")
        stored = self._store(
            chat,
            sender,
            text=content.get("message_text"),
            reply_markup=markup,
            thread_id=thread_id,
            has_photo=not content and result.get("type") == "photo",
        )
        stored.via_bot = {k: self.bot_user[k] for k in ("id", "is_bot", "first_name", "username")}
        inline_message_id = None
        if markup:
            inline_message_id = f"im{next(self._inline_ids)}"
            self.inline_messages[inline_message_id] = (chat["id"], stored.message_id)
        chosen: JSON = {
            "result_id": result_id,
            "from": sender,
            "query": self.inline_queries[query_id]["query"],
        }
        if inline_message_id is not None:
            chosen["inline_message_id"] = inline_message_id
        updates: list[JSON] = []
        if post:
            updates.append({"message": stored.to_api()})
        if feedback:
            where = len(updates) if message_first else 0
            updates.insert(where, {"chosen_inline_result": chosen})
        if not post:
            self._forget_message(chat["id"], stored.message_id)
        if held is not None:
            held.extend(updates[1:])
            updates = updates[:1]
        for update in updates:
            self.push_update(update)
        return stored if post else None

    def forge_chosen_result(self, sender: JSON, result_id: str, *, query: str = "") -> int:
        """A ``chosen_inline_result`` for any result id (one never offered, or an old one)."""
        return self.push_update(
            {"chosen_inline_result": {"result_id": result_id, "from": sender, "query": query}}
        )

    def via_bot_messages(self, chat_id: int) -> list[StoredMessage]:
        """The messages inline results posted in ``chat_id`` that are still there."""
        return [m for m in self.chat_messages(chat_id) if m.via_bot is not None]

    async def _api_answerInlineQuery(self, params: JSON, files: dict[str, bytes]) -> Any:
        query_id = params.get("inline_query_id")
        if query_id not in self.inline_queries or query_id in self.inline_answers:
            raise FakeApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        results = params.get("results")
        if not isinstance(results, list):
            raise FakeApiError(400, "Bad Request: can't parse inline query results JSON object")
        if len(results) > MAX_INLINE_RESULTS:
            raise FakeApiError(400, "Bad Request: RESULTS_TOO_MUCH")
        seen: set[str] = set()
        for result in results:
            self._check_inline_result(result, seen)
        next_offset = params.get("next_offset")
        if next_offset is not None and len(str(next_offset).encode()) > 64:
            raise FakeApiError(400, "Bad Request: NEXT_OFFSET_INVALID")
        button = params.get("button")
        if button is not None:
            start = button.get("start_parameter") if isinstance(button, dict) else None
            if not isinstance(button, dict) or not button.get("text"):
                raise FakeApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
            if start is not None and not _START_PARAMETER.fullmatch(str(start)):
                raise FakeApiError(400, "Bad Request: START_PARAM_INVALID")
        self.inline_answers[str(query_id)] = params
        return True

    def _check_inline_result(self, result: Any, seen: set[str]) -> None:
        if not isinstance(result, dict):
            raise FakeApiError(400, "Bad Request: can't parse inline query result")
        result_id = result.get("id")
        if not isinstance(result_id, str) or not 1 <= len(result_id.encode()) <= 64:
            raise FakeApiError(400, "Bad Request: RESULT_ID_INVALID")
        if result_id in seen:
            raise FakeApiError(400, "Bad Request: RESULT_ID_DUPLICATE")
        seen.add(result_id)
        kind = result.get("type")
        content = result.get("input_message_content")
        if kind == "article":
            if not result.get("title"):
                raise FakeApiError(400, "Bad Request: RESULT_TITLE_EMPTY")
            if not isinstance(content, dict):
                raise FakeApiError(400, "Bad Request: MESSAGE_EMPTY")
        elif kind == "photo":
            file_id = result.get("photo_file_id")
            if not isinstance(file_id, str) or file_id not in self.files:
                raise FakeApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        else:
            raise FakeApiError(400, "Bad Request: RESULT_TYPE_INVALID")
        if content is not None:
            if not isinstance(content, dict):
                raise FakeApiError(400, "Bad Request: MESSAGE_EMPTY")
            self._check_text(content.get("message_text"))
        self._check_markup(result.get("reply_markup"))

    def _edit_inline_text(self, params: JSON) -> Any:
        where = self.inline_messages.get(str(params.get("inline_message_id")))
        if where is None or where not in self.messages:
            raise FakeApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        stored = self.messages[where]
        self._check_text(params.get("text"))
        markup = self._check_markup(params.get("reply_markup"), params.get("chat_id"))
        if stored.text == params["text"] and (stored.reply_markup or None) == markup:
            raise FakeApiError(400, NOT_MODIFIED)
        stored.text = params["text"]
        stored.reply_markup = markup
        return True

    async def _api_deleteMessages(self, params: JSON, files: dict[str, bytes]) -> Any:
        """Several messages of one chat at once; missing ones are skipped, as Telegram does,
        and a user's message where the bot is no admin refuses the whole call."""
        chat_id, ids = params.get("chat_id"), params.get("message_ids")
        if not isinstance(ids, list) or not 1 <= len(ids) <= 100:
            raise FakeApiError(400, "Bad Request: message identifiers are not specified")
        found = []
        for message_id in ids:
            stored = self.messages.get((chat_id, message_id))  # type: ignore[arg-type]
            if stored is None:
                continue
            if stored.sender["id"] != self.bot_user["id"]:
                self._users_message({"chat_id": chat_id, "message_id": message_id})
            found.append(stored)
        for stored in found:
            self._forget_message(stored.chat["id"], stored.message_id)
        return True

    def _users_message(self, params: JSON) -> StoredMessage | None:
        """A user's message the bot deletes: in a group only as an admin (else Telegram's
        "message can't be deleted"); ``None`` for the bot's own messages."""
        chat_id, message_id = params.get("chat_id"), params.get("message_id")
        stored = self.messages.get((chat_id, message_id))  # type: ignore[arg-type]
        if stored is None or stored.sender["id"] == self.bot_user["id"]:
            return None
        if isinstance(chat_id, int) and chat_id < 0 and chat_id not in self.bot_admin_chats:
            raise FakeApiError(400, "Bad Request: message can't be deleted")
        return stored

    # --- webhook delivery --------------------------------------------------------------------

    async def _push_webhook(self, update: JSON) -> None:
        url = self.webhook_url
        if url is None:
            self._pending.append(update)
            return
        if self._client is None:
            self._client = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        headers = {}
        if self.webhook_secret:
            headers["X-Telegram-Bot-Api-Secret-Token"] = self.webhook_secret
        try:
            async with self._client.post(url, json=update, headers=headers) as response:
                self.webhook_replies.append(response.status)
        except aiohttp.ClientError as error:
            logger.warning("webhook delivery failed: %s", error)
            self.webhook_replies.append(0)
        self._notify()

    async def post_to_webhook(self, payload: JSON, *, secret: str | None) -> int:
        """POST an update to the bot's webhook with a chosen secret header (forgery tests)."""
        assert self.webhook_url is not None
        if self._client is None:
            self._client = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
        update = {"update_id": next(self._update_ids), **payload}
        async with self._client.post(self.webhook_url, json=update, headers=headers) as response:
            return response.status
