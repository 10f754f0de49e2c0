"""Telegram updates -> service calls; service results -> Telegram messages.

The adapter knows no rules and writes no game text: it turns a command or a button press into one
``TableService`` call and hands each event of the result to ``Delivery``, which renders it with
``bot.render`` and puts it in the right place (edited in place where it already shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from telegram import (
    CallbackQuery,
    Chat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, MessageEntityType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    ContextTypes,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from bot.render import GAME_NAMES, LOCALES, MAX_TEXT, Renderer
from bot.service import (
    Announcement,
    Audience,
    ChatRef,
    Event,
    HandView,
    Result,
    TableService,
    UserRef,
    decode_button,
)
from bot.service.settings import SETTINGS_PREFIX
from bot.telegram import phrases
from bot.telegram.delivery import Delivery
from bot.telegram.ids import PLATFORM, chat_key, parse_hand_payload, where_of
from bot.telegram.inline import InlinePlay
from bot.telegram.messenger import Where
from bot.telegram.settings_menu import SettingsMenu, is_chat_admin

logger = logging.getLogger(__name__)

GAMES = ("scopa", "scopone", "scientifico", "scala40", "briscola", "chiamata")
QUICK_GAME = "scopa"
QUICK_LEVEL = "easy"
# Game-picker buttons belong to no table yet: "new:0:<game>" can never be a table's data
# (table ids are digits), so the adapter answers them itself.
PICKER_PREFIX = "new:0:"
# Deck-style buttons ("sty:0:<style>"), answered by the adapter too.
STYLE_PREFIX = "sty:0:"


# Refusals that mean the presser's buttons are behind the table: their hand is sent again.
HEALED = frozenset({"stale", "not_your_turn", "illegal_move", "conflict"})


class Press:
    """What follows the answer to a press: the gate its messages wait behind, and the work
    done once it is answered (learning the pressed message, or healing a stale view)."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.learn: Callable[[], Awaitable[None]] | None = None
        self.heal: Callable[[], Awaitable[None]] | None = None

    async def release(self) -> None:
        try:
            if self.learn is not None:
                await self.learn()
        except Exception:
            logger.exception("could not note the pressed message")
        finally:
            self.gate.set()
        if self.heal is not None:
            try:
                await self.heal()
            except Exception:
                logger.exception("could not send the presser's view again")


def user_ref(user: User) -> UserRef:
    """The service's id of a Telegram user (the display name and language hint travel along)."""
    return UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)


def where_of_message(message: Message) -> Where:
    """The chat of a message, and its forum topic when the group has topics."""
    chat = message.chat
    if chat.is_forum and message.is_topic_message and message.message_thread_id is not None:
        return Where(chat.id, message.message_thread_id)
    return Where(chat.id)


class TelegramAdapter:
    """The handlers; every dependency comes in through the constructor."""

    def __init__(
        self,
        *,
        service: TableService,
        renderer: Renderer,
        delivery: Delivery,
        inline: InlinePlay | None = None,
    ) -> None:
        self._service = service
        self._renderer = renderer
        self._delivery = delivery
        self._inline = inline
        self._settings_menu = SettingsMenu(service=service, renderer=renderer, delivery=delivery)

    def install(self, application: Application) -> None:  # type: ignore[type-arg]
        """Register the handlers on ``application``."""
        add = application.add_handler
        add(CommandHandler("start", self.on_start))
        add(CommandHandler("play", self.on_play))
        add(CommandHandler(list(GAMES), self.on_game))
        add(CommandHandler("new", self.on_new))
        add(CommandHandler("leaderboard", self.on_leaderboard))
        add(CommandHandler("stats", self.on_stats))
        add(CommandHandler("rules", self.on_rules))
        add(CommandHandler("abandon", self.on_abandon))
        add(CommandHandler("leave", self.on_leave))
        add(CommandHandler("kick", self.on_kick))
        add(CommandHandler("lang", self.on_lang))
        add(CommandHandler("help", self.on_help))
        add(CommandHandler("style", self.on_style))
        add(CommandHandler("settings", self.on_settings))
        add(CallbackQueryHandler(self.on_button))
        add(MessageHandler(filters.StatusUpdate.MIGRATE, self.on_migrate))
        # Group 1 runs beside the commands: every group message the bot sees moves the table
        # message further up (with privacy mode on, Telegram only shows it some of them).
        add(MessageHandler(filters.ChatType.GROUPS, self.on_chatter), group=1)
        if self._inline is not None:
            add(CommandHandler("notify", self._inline.on_notify))
            add(InlineQueryHandler(self._inline.on_inline_query))
            add(ChosenInlineResultHandler(self._inline.on_chosen))
            # Group 2: a move posted "via @bot" is also chatter (group 1) first.
            add(MessageHandler(filters.VIA_BOT, self._inline.on_via_message), group=2)

    # --- commands ----------------------------------------------------------------------------

    async def on_game(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/scopa, /scopone, /scientifico, /scala40, /briscola, /chiamata [players] [options]: a
        lobby (quick game in private)."""
        message, user = self._seen(update)
        if message is None or user is None or message.text is None:
            return
        game = message.text.split()[0].lstrip("/").split("@")[0].lower()
        await self._open(message, user, game, context.args or [])

    async def on_new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/new [game]: open that game, or show a game picker."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        args = context.args or []
        if args and args[0].lower() in GAMES:
            await self._open(message, user, args[0].lower(), args[1:])
            return
        t = self._renderer.translations(await self._reply_locale(message, user))
        keyboard = InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(t.gettext(GAME_NAMES[g]), callback_data=PICKER_PREFIX + g)]
                for g in GAMES
            ]
        )
        await self._delivery.say(
            where_of_message(message), t.gettext(phrases.CHOOSE_GAME), keyboard
        )

    async def on_play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/play [game]: a quick game against the computer in the private chat."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        args = context.args or []
        game = args[0].lower() if args else QUICK_GAME
        await self._open(message, user, game, args[1:])

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start [hand-<table>]: deliver a hand (from the deep link), else the help."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        table_id = parse_hand_payload(context.args[0]) if context.args else None
        if message.chat.type == ChatType.PRIVATE:
            await self._delivery.unblocked(user.id)  # the private chat is open now
        if table_id is None or message.chat.type != ChatType.PRIVATE:
            await self.on_help(update, context)
            if message.chat.type == ChatType.PRIVATE:
                await self._resend_hands(user)
            return
        if self._inline is not None:
            await self._inline.prefer_private(user.id)  # hands now follow in this chat
        await self._deliver_hand(message, user, table_id)

    async def _resend_hands(self, user: User) -> None:
        """A plain /start in private: the hands of the user's games, anew under it (the user
        may have blocked the bot and come back, or lost the messages)."""
        who = user_ref(user)
        for table in await self._service.tables_of(who):
            if table.status == "playing":
                result = await self._service.show(ChatRef(PLATFORM, table.chat_id), who, table.id)
                if result.ok:
                    self._delivery.submit(result, origin=None)

    async def on_leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/leaderboard [scopa|scala40|briscola|chiamata] [season|all]: this chat's, or the
        global one in private; this season's (with the last season's podium) or of all time."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        words = [a.lower() for a in context.args or []]
        periods = {"season", "stagione", "all", "tutto"}
        family = leaderboard_family(
            [w for w in words if w not in periods], self._service.registry.families
        )
        period = "season" if {"season", "stagione"} & set(words) else "all"
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._chat(message)
        result = await self._service.leaderboard(
            family, user=user_ref(user), chat=chat, period=period
        )
        await self._delivery.deliver(result, origin=where_of_message(message))

    async def on_stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/stats: the user's ratings (and in this chat); in reply to a message, or naming a
        user (a text mention), that player's, answered to the asker."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._chat(message)
        asker = user_ref(user)
        subject = _named_user(message) or asker
        result = await self._service.stats(subject, chat=chat)
        if subject.user_id != asker.user_id:
            # About another player, for the asker to read, in the asker's language.
            locale = await self._service.user_locale(asker, chat=chat)
            audience = Audience("user", PLATFORM, asker.user_id)
            result = Result(
                [replace(e, audience=audience, locale=locale) for e in result.events],
                result.table,
                result.refusal,
            )
        await self._delivery.deliver(result, origin=where_of_message(message))

    async def on_leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/leave: leave the lobby, or the game (the computer plays the seat to the end)."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        result = await self._service.leave(self._chat(message), user_ref(user))
        await self._reply(message, result)
        await self._close_left_hands(result)

    async def on_kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/kick (in reply to a player's message, naming them, or a seat number; else a list
        of buttons): the table's creator or a group admin removes a player."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        chat = self._chat(message)
        target = _named_user(message)
        seat = table_id = None
        args = context.args or []
        if target is None and args and args[0].isascii() and args[0].isdigit():
            seat = int(args[0]) - 1  # seats are numbered from 1 on the table
        elif target is None and args:
            # "/kick Bea" or "/kick @Bea": the seated player of that name, if only one has it
            # (an @username names no user id the bot can look up).
            named = await self._seat_named(chat, " ".join(args).lstrip("@"))
            if named is not None:
                table_id, seat = named
        result = await self._service.kick(
            chat,
            user_ref(user),
            target=target,
            seat=seat,
            table_id=table_id,
            is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, user.id),
        )
        # The list of players goes to the group: its buttons work there, for the one who asked
        # (the service checks who presses).
        locale = await self._service.chat_locale(chat)
        here = Audience("chat", PLATFORM, chat.chat_id)
        events = [
            replace(e, audience=here, locale=locale)
            if isinstance(e, Announcement) and e.kind == "kick_list"
            else e
            for e in result.events
        ]
        await self._reply(message, Result(events, result.table, result.refusal))
        await self._close_left_hands(result)

    async def on_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rules: the options of the open table."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        result = await self._service.rules(self._chat(message), user_ref(user))
        await self._reply(message, result)

    async def on_abandon(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/abandon: close the open table (its creator or a group admin)."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        admin = await self._is_admin(message.chat, user, context)
        result = await self._service.abandon(self._chat(message), user_ref(user), is_admin=admin)
        await self._reply(message, result)

    async def on_lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/lang it|en: the group's language (in a group) or the user's (in private)."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        code = context.args[0] if context.args else ""
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._chat(message)
        result = await self._service.set_language(code, user=user_ref(user), chat=chat)
        if result.refusal is not None:
            await self._reply(message, result)
            return
        text = self._renderer.translations(code).gettext(phrases.LANGUAGE_SET)
        await self._delivery.say(where_of_message(message), text)

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/help: what the bot does."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        locale = await self._reply_locale(message, user)
        text = self._renderer.translations(locale).gettext(phrases.HELP)
        if self._inline is not None and self._inline.enabled():
            text += "\n" + self._inline.help(locale)
        await self._delivery.say(where_of_message(message), text)

    async def on_style(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/style [name]: the deck style of the pictures (the group's, or the user's in private)."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        where = where_of_message(message)
        t_locale = await self._reply_locale(message, user)
        pictures = self._delivery.pictures
        if pictures is None or not pictures.enabled:
            await self._delivery.say(where, self._renderer.notice("style_off", t_locale))
            return
        wanted = context.args[0].lower() if context.args else None
        if wanted in pictures.style_choices():
            await self._set_style(message, wanted)
            label = pictures.style_label(wanted, t_locale)
            text = self._renderer.notice("style_set", t_locale).format(style=label)
            await self._delivery.say(where, text)
            return
        current = await pictures.preferred(PLATFORM, self._style_owner(message))
        keyboard = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        pictures.style_label(choice, t_locale),
                        callback_data=STYLE_PREFIX + choice,
                    )
                ]
                for choice in pictures.style_choices()
            ]
        )
        text = self._renderer.notice("style_choose", t_locale).format(
            style=pictures.style_label(current, t_locale)
        )
        await self._delivery.say(where, text, keyboard)

    @staticmethod
    def _locale_of(user: User) -> str:
        """The language for the adapter's own short texts: the user's when the catalogs have
        it, else "" (the catalogs' default)."""
        code = (user.language_code or "").split("-")[0].lower()
        return code if code in LOCALES else ""

    @staticmethod
    def _style_owner(message: Message) -> str:
        """Whose style: the group's (its topic's) or, in private, the user's own."""
        return chat_key(where_of_message(message))

    async def _set_style(self, message: Message, style: str) -> None:
        pictures = self._delivery.pictures
        assert pictures is not None
        await pictures.set_style(style, platform=PLATFORM, owner=self._style_owner(message))

    async def on_settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/settings: the chat's settings menu (a group's admins; anyone in private)."""
        message, user = self._seen(update)
        if message is None or user is None:
            return
        await self._settings_menu.command(
            message,
            user_ref(user),
            chat=self._chat(message),
            where=where_of_message(message),
            bot=context.bot,
        )

    async def _after_press(
        self, result: Result, message: Message | None, data: str, user_id: int
    ) -> None:
        """Once a press is answered: the pressed message noted, and a leaver's hands closed (a
        hand's own "leave" confirmation keeps no buttons)."""
        if message is not None:
            await self._delivery.learn(message, data, user_id=user_id)
        await self._close_left_hands(result)
        if (
            message is not None
            and data.endswith(":@leave")
            and message.chat.type == ChatType.PRIVATE
        ):
            with contextlib.suppress(TelegramError):
                await self._delivery.messenger.edit_markup(
                    where_of_message(message), message.message_id, None
                )

    async def _close_left_hands(self, result: Result) -> None:
        """A player left the game (or was kicked): their private hand keeps no move buttons."""
        for event in result.events:
            if not isinstance(event, Announcement) or event.kind != "left":
                continue
            seat = event.data.get("seat")
            info = event.table.seats[seat] if isinstance(seat, int) else None
            if info is None or info.platform != PLATFORM or not info.user_id.isdigit():
                continue
            shown = await self._delivery.book.private(event.table.id, int(info.user_id))
            if shown is None:
                continue
            with contextlib.suppress(TelegramError):
                await self._delivery.messenger.edit_markup(shown.where, shown.message_id, None)

    async def _seat_named(self, chat: ChatRef, name: str) -> tuple[int, int] | None:
        """(table, seat) of the one player of the chat's open tables named ``name`` (case
        aside), if exactly one is."""
        wanted = name.strip().casefold()
        found = [
            (table.id, s.seat)
            for table in await self._service.open_tables(chat)
            for s in table.seats
            if s is not None and not s.computer and s.name.casefold() == wanted
        ]
        return found[0] if len(found) == 1 else None

    async def _reply_locale(self, message: Message, user: User) -> str:
        """The language of the adapter's own reply: in a group the chat's (/settings) first,
        in private the user's."""
        private = message.chat.type == ChatType.PRIVATE
        return await self._service.locale_for(
            self._chat(message), user_ref(user), public=not private
        )

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup (a new chat id): its open table moves with it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id is not None:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id is not None:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        await self._delivery.migrated(self._service, old, new)

    async def on_chatter(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Any group message: only its id is noted (how far the table message has scrolled)."""
        self._seen(update)

    # --- buttons -----------------------------------------------------------------------------

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Any inline button: one service call, answered at once; its messages follow."""
        query = update.callback_query
        if query is None:
            return
        press = Press()
        alert: str | None = None
        try:
            alert = await self._press(query, press)
        finally:
            try:
                await query.answer(text=alert, show_alert=alert is not None)
            except TelegramError as error:
                # Too late (over 15 s) or answered twice: nothing the user can still see.
                logger.info("answerCallbackQuery failed: %s", error)
            finally:
                await press.release()

    async def _press(self, query: CallbackQuery, press: Press) -> str | None:
        """Handle a press; returns the alert to show, if any. A table's messages are queued
        behind ``press.gate`` (opened once the press is answered)."""
        message = query.message if isinstance(query.message, Message) else None
        data = query.data or ""
        user = user_ref(query.from_user)
        if message is not None:
            self._delivery.book.saw(message.chat.id, message.message_id)
        if data.startswith(PICKER_PREFIX) and message is not None:
            game = data.removeprefix(PICKER_PREFIX)
            if message.chat.type == ChatType.PRIVATE:
                await self._open(message, query.from_user, game, [])
                return None
            result = await self._service.create_table(
                self._chat(message),
                user,
                game,
                is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, query.from_user.id),
            )
            await self._delivery.deliver(result, origin=where_of_message(message))
            return self._alert(result)
        if data.startswith(STYLE_PREFIX) and message is not None:
            return await self._press_style(message, query.from_user, data)
        if data.startswith(SETTINGS_PREFIX) and message is not None:
            return await self._settings_menu.press(
                message,
                query.from_user,
                data,
                chat=self._chat(message),
                where=where_of_message(message),
            )
        chat = await self._chat_of_press(message, user, data)
        bot = query.get_bot()
        result = await self._service.press(
            chat,
            user,
            data,
            # Asked only for a press that needs it (@kick): of the table's own chat.
            is_admin=lambda: is_chat_admin(bot, _telegram_chat(chat), query.from_user.id),
        )
        origin = None if message is None else where_of_message(message)
        if result.ok:
            press.learn = functools.partial(
                self._after_press, result, message, data, query.from_user.id
            )
            self._delivery.submit(result, origin=origin, gate=press.gate)
        elif result.refusal is not None and result.refusal.code in HEALED:
            press.heal = functools.partial(self._heal, chat, user, data)
        return self._alert(result)

    async def _heal(self, chat: ChatRef, user: UserRef, data: str) -> None:
        """A stale or refused press: the presser's hand (and the table, if its message is
        behind) is sent again, so nobody is left with buttons of a past turn."""
        try:
            table_id = decode_button(data).table_id
        except ValueError:
            return
        shown = await self._service.show(chat, user, table_id, public=True)
        if shown.ok:
            await self._delivery.heal(shown, user_id=int(user.user_id))

    async def _press_style(self, message: Message, user: User, data: str) -> str | None:
        """A deck-style button: set it, and say so in the button's message."""
        pictures = self._delivery.pictures
        style = data.removeprefix(STYLE_PREFIX)
        t_locale = await self._reply_locale(message, user)
        if pictures is None or style not in pictures.style_choices():
            return self._renderer.notice("style_off", t_locale) if pictures is None else None
        await self._set_style(message, style)
        text = self._renderer.notice("style_set", t_locale).format(
            style=pictures.style_label(style, t_locale)
        )
        await self._delivery.messenger.edit(where_of_message(message), message.message_id, text)
        return None

    async def _chat_of_press(self, message: Message | None, user: UserRef, data: str) -> ChatRef:
        """The table's chat: where the button is, or, for a hand in private, the table's own."""
        if message is None:
            return ChatRef(PLATFORM, user.user_id)
        here = self._chat(message)
        if message.chat.type != ChatType.PRIVATE:
            return here
        try:
            table_id = decode_button(data).table_id
        except ValueError:
            return here
        for table in await self._service.tables_of(user):
            if table.id == table_id:
                return ChatRef(PLATFORM, table.chat_id)
        return here

    # --- helpers -----------------------------------------------------------------------------

    def _seen(self, update: Update) -> tuple[Message | None, User | None]:
        """The message and its sender; notes the message id (the repost distance needs it)."""
        message, user = update.effective_message, update.effective_user
        if message is not None:
            self._delivery.book.saw(message.chat.id, message.message_id)
        if user is not None and user.is_bot:
            return None, None
        return message, user

    @staticmethod
    def _chat(message: Message) -> ChatRef:
        return ChatRef(PLATFORM, chat_key(where_of_message(message)))

    async def _open(self, message: Message, user: User, game: str, args: list[str]) -> None:
        """A lobby in a group; in private, a table against the computer dealt at once.

        ``args``: an optional number of players, then rule options as ``name=value`` (checked by
        the engine through the service, which names the allowed values).
        """
        players, options = parse_table_args(args)
        chat, who = self._chat(message), user_ref(user)
        origin = where_of_message(message)
        if message.chat.type != ChatType.PRIVATE:
            result = await self._service.create_table(
                chat,
                who,
                game,
                players=players,
                options=options,
                is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, user.id),
            )
            await self._reply(message, result)
            return
        # One quick game at a time in a private chat: a new one replaces the old.
        for table in await self._service.open_tables(chat):
            await self._service.abandon(chat, who, table.id, is_admin=True)
            await self._delivery.book.forget_table(table.id)
        created = await self._service.create_table(
            chat, who, game, players=players, options=options, is_admin=True
        )
        if created.refusal is not None or created.table is None:
            await self._reply(message, created)
            return
        result = await self._service.start(chat, who, created.table.id, fill_with=QUICK_LEVEL)
        await self._delivery.deliver(result, origin=origin)
        if result.refusal is not None:
            await self._reply(message, result)

    async def _deliver_hand(self, message: Message, user: User, table_id: int) -> None:
        """The player's hand of ``table_id`` in this private chat (after the deep link)."""
        who = user_ref(user)
        for table in await self._service.tables_of(who):
            if table.id == table_id:
                result = await self._service.show(ChatRef(PLATFORM, table.chat_id), who, table_id)
                hands: list[Event] = [e for e in result.events if isinstance(e, HandView)]
                await self._delivery.deliver(Result(hands, result.table), origin=None)
                if hands:
                    return
        # A private answer: in the user's own language (/lang), else their client's.
        t = self._renderer.translations(await self._service.user_locale(who))
        await self._delivery.say(where_of_message(message), t.gettext(phrases.NO_HAND))

    async def _reply(self, message: Message, result: Result) -> None:
        """Deliver the events; a refusal is said in the chat where the command came."""
        origin = where_of_message(message)
        await self._delivery.deliver(result, origin=origin)
        if result.refusal is not None:
            text = self._renderer.refusal(result.refusal, limit=MAX_TEXT)
            await self._delivery.say(origin, text)

    def _alert(self, result: Result) -> str | None:
        return None if result.refusal is None else self._renderer.refusal(result.refusal)

    @staticmethod
    async def _is_admin(chat: Chat, user: User, context: ContextTypes.DEFAULT_TYPE) -> bool:
        if chat.type == ChatType.PRIVATE:
            return True
        try:
            member = await context.bot.get_chat_member(chat.id, user.id)
        except TelegramError as error:
            logger.info("getChatMember failed: %s", error)
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


def _telegram_chat(chat: ChatRef) -> Chat:
    """The Telegram chat of a table's chat id, enough to ask who administers it (a user's id
    is positive: a private chat; a group's is negative)."""
    where = where_of(chat.chat_id)
    kind = ChatType.PRIVATE if where.chat_id > 0 else ChatType.SUPERGROUP
    return Chat(where.chat_id, kind)


def _named_user(message: Message) -> UserRef | None:
    """The player a command names: the author of the message it replies to, else the first
    user mentioned by name (a text mention carries the user; an @username does not)."""
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and not replied.from_user.is_bot:
        return user_ref(replied.from_user)
    for entity in message.entities or ():
        if entity.type == MessageEntityType.TEXT_MENTION and entity.user is not None:
            return user_ref(entity.user)
    return None


def leaderboard_family(args: list[str], families: tuple[str, ...]) -> str:
    """The family a /leaderboard names (a game of it names it too: scopone -> scopa); Scopa
    when none."""
    wanted = args[0].lower() if args else ""
    if wanted in families:
        return wanted
    aliases = {"scopone": "scopa", "scientifico": "scopa", "briscola4": "briscola"}
    return aliases.get(wanted, "scopa")


def parse_table_args(args: list[str]) -> tuple[int | None, dict[str, object]]:
    """``["4", "target=21", "napola=on"]`` -> ``(4, {"target": 21, "napola": True})``.

    Only the syntax is read here; names and values are the engine's to judge.
    """
    players: int | None = None
    options: dict[str, object] = {}
    for index, arg in enumerate(args[:12]):
        if index == 0 and arg.isascii() and arg.isdigit() and len(arg) < 3:
            players = int(arg)
            continue
        name, sep, value = arg.partition("=")
        if not sep or not name:
            # Not an option: let the engine's error name the allowed options.
            options[arg] = True
            continue
        options[name.strip().lower()] = _option_value(value.strip())
    return players, options


def _option_value(value: str) -> object:
    lowered = value.lower()
    if lowered in ("on", "true", "yes", "si", "sì"):
        return True
    if lowered in ("off", "false", "no"):
        return False
    if value.isascii() and value.isdigit() and len(value) < 6:
        return int(value)
    return value
