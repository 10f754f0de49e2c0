"""The real PTB Application against the fake Bot API: polling, webhook, errors, flood control.

These tests use small handlers of their own on top of the adapter's infrastructure
(``build_application``, ``TelegramRunner``, ``Messenger``); the game scenarios are in
``test_scenarios.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import CallbackQueryHandler, CommandHandler, ContextTypes

from bot.telegram.app import TelegramRunner, build_application
from bot.telegram.messenger import BlockedError, Messenger, Where
from bot.telegram.settings import TelegramSettings
from tests.fakes.telegram_api import NOT_MODIFIED, FakeBotApi, group_chat, private_chat, user
from tests.telegram.support import fast_rate_limiter, running

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100500, "Amici")


class Echo:
    """Test handlers: /ping posts a counter with a button; the button edits the message."""

    def __init__(self) -> None:
        self.presses: list[str] = []

    async def ping(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Reply with a message that has one button."""
        assert update.effective_chat is not None and update.effective_message is not None
        messenger = Messenger(context.bot)
        where = Where(update.effective_chat.id, update.effective_message.message_thread_id)
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("+1", callback_data="t1:0:inc")]])
        await messenger.send(where, "count 0", keyboard)

    async def press(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Edit the pressed message and answer the query."""
        query = update.callback_query
        assert query is not None and query.message is not None and query.data is not None
        self.presses.append(query.data)
        messenger = Messenger(context.bot)
        where = Where(query.message.chat.id)
        ok = await messenger.edit(where, query.message.message_id, f"count {len(self.presses)}")
        await query.answer(text="ok" if ok else "gone")

    def install(self, runner: TelegramRunner) -> None:
        runner.application.add_handler(CommandHandler("ping", self.ping))
        runner.application.add_handler(CallbackQueryHandler(self.press))


def make_runner(settings: TelegramSettings, **kwargs: object) -> TelegramRunner:
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    return TelegramRunner(app, settings, **kwargs)  # type: ignore[arg-type]


async def test_settings_point_ptb_at_the_fake_server(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    assert app.bot.base_url == f"{api.url}/bot{api.token}"
    assert app.bot.base_file_url == f"{api.url}/file/bot{api.token}"
    await app.initialize()
    try:
        assert app.bot.username == api.bot_username
    finally:
        await app.shutdown()
    assert [r.method for r in api.requests] == ["getMe"]


async def test_polls_a_command_and_a_callback_query(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    echo = Echo()
    runner = make_runner(settings)
    echo.install(runner)
    async with running(runner):
        api.send_text(GROUP, ALICE, f"/ping@{api.bot_username}")
        sent = await api.wait_for(lambda: api.calls("sendMessage"), what="the reply")
        assert sent[0].params["chat_id"] == GROUP["id"]
        assert sent[0].params["reply_markup"] == {
            "inline_keyboard": [[{"text": "+1", "callback_data": "t1:0:inc"}]]
        }
        message = api.last_bot_message(GROUP["id"])
        query_id = api.press(message, BOB, button="+1")
        answer = await api.wait_answered(query_id)
        assert answer["text"] == "ok"
        assert api.message(GROUP["id"], message.message_id).text == "count 1"
        assert echo.presses == ["t1:0:inc"]
    methods = [r.method for r in api.requests]
    assert methods[0] == "getMe" and "deleteWebhook" in methods
    offsets = [r.params.get("offset") for r in api.calls("getUpdates")]
    assert max(o or 0 for o in offsets) == 3  # both updates (ids 1 and 2) were confirmed


async def test_commands_in_forum_topics_are_answered_in_the_topic(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    forum = group_chat(-100777, "Circolo", forum=True)
    runner = make_runner(settings)
    Echo().install(runner)
    async with running(runner):
        api.send_text(forum, ALICE, "/ping", thread_id=42)
        sent = await api.wait_for(lambda: api.calls("sendMessage"), what="the reply")
        assert sent[0].params["message_thread_id"] == 42
        assert api.bot_messages(forum["id"], thread_id=42)


async def test_not_modified_is_success_and_gone_is_reported(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    async with app:
        messenger = Messenger(app.bot)
        where = Where(GROUP["id"])
        message_id = await messenger.send(where, "table")
        assert await messenger.edit(where, message_id, "table") is True
        assert api.requests[-1].reply["description"] == NOT_MODIFIED
        assert await messenger.edit(where, message_id, "table 2") is True
        assert api.message(GROUP["id"], message_id).text == "table 2"
        assert await messenger.edit_markup(where, message_id, None) is True
        assert await messenger.edit(where, 999, "lost") is False
        # upsert posts anew when the old message is gone
        new_id = await messenger.upsert(where, 999, "again")
        assert new_id != 999 and api.message(GROUP["id"], new_id).text == "again"


async def test_403_on_a_private_chat_is_detected(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    api.block_private(BOB["id"])
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    async with app:
        messenger = Messenger(app.bot)
        with pytest.raises(BlockedError) as caught:
            await messenger.send(Where(BOB["id"]), "your hand")
        assert caught.value.chat_id == BOB["id"]
        reply = api.requests[-1]
        assert reply.status == 403 and reply.reply["ok"] is False
        assert "initiate conversation" in reply.reply["description"]
        # once Bob writes to the bot, it may write to him
        api.send_text(private_chat(BOB), BOB, "/start")
        assert await messenger.send(Where(BOB["id"]), "your hand") > 0


async def test_a_429_burst_is_retried_and_every_message_arrives(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    api.inject_flood("sendMessage", times=3, retry_after=1)
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    async with app:
        messenger = Messenger(app.bot)
        ids = await asyncio.gather(
            *(messenger.send(Where(GROUP["id"]), f"message {n}") for n in range(5))
        )
    assert len(set(ids)) == 5
    floods = [r for r in api.calls("sendMessage") if r.status == 429]
    assert len(floods) == 3
    assert all(r.reply["parameters"] == {"retry_after": 1} for r in floods)
    delivered = sorted(m.text or "" for m in api.bot_messages(GROUP["id"]))
    assert delivered == [f"message {n}" for n in range(5)]


async def test_sends_a_photo_as_multipart(api: FakeBotApi, settings: TelegramSettings) -> None:
    app = build_application(settings, rate_limiter=fast_rate_limiter())
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    other = b"\x89PNG\r\n\x1a\n" + bytes(range(255, -1, -1))
    where = Where(GROUP["id"])
    async with app:
        messenger = Messenger(app.bot)
        message_id, file_id = await messenger.send_photo(where, png, caption="tavolo")
        # the same picture again by its file id: nothing uploaded
        again, same_id = await messenger.send_photo(where, str(file_id), caption="again")
        # a new picture in place (editMessageMedia), then only the caption
        edited, new_id = await messenger.edit_photo(where, message_id, other, caption="new")
        captioned = await messenger.edit_caption(where, message_id, "newer")
        unchanged = await messenger.edit_caption(where, message_id, "newer")
    call = api.calls("sendPhoto")[0]
    assert call.files["photo"] == png
    assert call.params["caption"] == "tavolo"
    assert api.message(GROUP["id"], message_id).has_photo
    assert file_id and same_id == file_id and not api.calls("sendPhoto")[1].files
    assert api.message(GROUP["id"], again).photo_data == png
    assert edited and new_id and new_id != file_id
    assert captioned and unchanged  # "message is not modified" counts as done
    shown = api.message(GROUP["id"], message_id)
    assert shown.photo_data == other and shown.caption == "newer"


async def test_a_failing_handler_reaches_the_one_error_handler(
    api: FakeBotApi, settings: TelegramSettings, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Always fail."""
        raise RuntimeError("boom")

    runner = make_runner(settings)
    runner.application.add_handler(CommandHandler("boom", broken))
    Echo().install(runner)
    with caplog.at_level(logging.ERROR, logger="bot.telegram.app"):
        async with running(runner):
            api.send_text(GROUP, ALICE, "/boom")
            api.send_text(GROUP, ALICE, "/ping")
            await api.wait_for(lambda: api.calls("sendMessage"), what="the bot going on")
    assert any("update 1 failed" in r.getMessage() for r in caplog.records)
    assert api.token not in caplog.text


async def test_commands_are_registered_per_language(
    api: FakeBotApi, settings: TelegramSettings
) -> None:
    menu = {"it": [("scopa", "Nuova partita a Scopa")], "en": [("scopa", "New Scopa game")]}
    runner = make_runner(settings, group_commands=menu, private_commands=menu)
    async with running(runner):
        pass
    calls = api.calls("setMyCommands")
    assert {(json.dumps(c.params["scope"]), c.params.get("language_code")) for c in calls} == {
        ('{"type": "all_group_chats"}', "it"),
        ('{"type": "all_group_chats"}', "en"),
        ('{"type": "all_group_chats"}', None),
        ('{"type": "all_private_chats"}', "it"),
        ('{"type": "all_private_chats"}', "en"),
        ('{"type": "all_private_chats"}', None),
    }
    assert api.commands[('{"type": "all_group_chats"}', "en")] == [
        {"command": "scopa", "description": "New Scopa game"}
    ]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_webhook_mode_checks_the_secret_token(api: FakeBotApi) -> None:
    port = free_port()
    settings = TelegramSettings(
        token=api.token,
        api_url=api.url,
        webhook_url=f"http://127.0.0.1:{port}/hook",
        webhook_secret="s3cret-Token_1",
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_path="hook",
    )
    echo = Echo()
    runner = make_runner(settings)
    echo.install(runner)
    async with running(runner):
        assert api.webhook_url == f"http://127.0.0.1:{port}/hook"
        assert api.webhook_secret == "s3cret-Token_1"
        api.send_text(GROUP, ALICE, "/ping")
        await api.wait_for(lambda: api.calls("sendMessage"), what="the webhook reply")
        assert api.webhook_replies == [200]
        forged = await api.post_to_webhook(
            {"message": api.last_bot_message(GROUP["id"]).to_api()}, secret="wrong"
        )
        assert forged == 403
    assert not api.calls("getUpdates")
