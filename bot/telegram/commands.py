"""Telegram commands -> service calls: /scopa and the other games, /new, /play, /start,
/leaderboard, /stats, /leave, /kick, /rules, /abandon, /lang, /help, /style, /settings; and the
group's service messages (a migration to a supergroup, the chatter that scrolls the table
message up).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatType, MessageEntityType
from telegram.ext import ContextTypes

from bot.render import GAME_NAMES
from bot.service import Announcement, Audience, ChatRef, Registry, Result, UserRef
from bot.telegram import phrases
from bot.telegram.handling import (
    PICKER_PREFIX,
    QUICK_GAME,
    STYLE_PREFIX,
    Handling,
    user_ref,
    where_of_message,
)
from bot.telegram.ids import PLATFORM, parse_hand_payload
from bot.telegram.settings_menu import is_chat_admin

logger = logging.getLogger(__name__)

# Game names /leaderboard still understands that are no game kind any more.
_OLD_NAMES = {"briscola4": "briscola"}


class Commands:
    """The command handlers."""

    def __init__(self, ground: Handling) -> None:
        self._ground = ground

    async def on_game(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/scopa, /scopone, /scientifico, /scala40, /briscola, /chiamata [players] [options]: a
        lobby (quick game in private)."""
        message, user = self._ground.seen(update)
        if message is None or user is None or message.text is None:
            return
        game = message.text.split()[0].lstrip("/").split("@")[0].lower()
        await self._ground.open_table(message, user, game, context.args or [])

    async def on_new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/new [game]: open that game, or show a game picker."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        args = context.args or []
        games = self._ground.service.registry.names
        if args and args[0].lower() in games:
            await self._ground.open_table(message, user, args[0].lower(), args[1:])
            return
        t = self._ground.renderer.translations(await self._ground.reply_locale(message, user))
        keyboard = InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(t.gettext(GAME_NAMES[g]), callback_data=PICKER_PREFIX + g)]
                for g in games
            ]
        )
        await self._ground.delivery.say(
            where_of_message(message), t.gettext(phrases.CHOOSE_GAME), keyboard
        )

    async def on_play(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/play [game]: a quick game against the computer in the private chat."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        args = context.args or []
        game = args[0].lower() if args else QUICK_GAME
        await self._ground.open_table(message, user, game, args[1:])

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/start [hand-<table>]: deliver a hand (from the deep link), else the help."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        table_id = parse_hand_payload(context.args[0]) if context.args else None
        if message.chat.type == ChatType.PRIVATE:
            # The private chat is open now.
            await self._ground.delivery.private_chats.unblocked(user.id)
        if table_id is None or message.chat.type != ChatType.PRIVATE:
            await self.on_help(update, context)
            if message.chat.type == ChatType.PRIVATE:
                await self._resend_hands(user)
            return
        if self._ground.inline is not None:
            await self._ground.inline.prefer_private(user.id)  # hands now follow in this chat
        await self._ground.deliver_hand(message, user, table_id)

    async def _resend_hands(self, user: User) -> None:
        """A plain /start in private: the hands of the user's games, anew under it (the user
        may have blocked the bot and come back, or lost the messages)."""
        who = user_ref(user)
        for table in await self._ground.service.tables_of(who):
            if table.status == "playing":
                result = await self._ground.service.show(
                    ChatRef(PLATFORM, table.chat_id), who, table.id
                )
                if result.ok:
                    self._ground.delivery.submit(result, origin=None)

    async def on_leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/leaderboard [scopa|scala40|briscola|chiamata] [season|all]: this chat's, or the
        global one in private; this season's (with the last season's podium) or of all time."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        words = [a.lower() for a in context.args or []]
        periods = {"season", "stagione", "all", "tutto"}
        family = leaderboard_family(
            [w for w in words if w not in periods], self._ground.service.registry
        )
        period = "season" if {"season", "stagione"} & set(words) else "all"
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._ground.chat(message)
        result = await self._ground.service.leaderboard(
            family, user=user_ref(user), chat=chat, period=period
        )
        await self._ground.delivery.deliver(result, origin=where_of_message(message))

    async def on_stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/stats: the user's ratings (and in this chat); in reply to a message, or naming a
        user (a text mention), that player's, answered to the asker."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._ground.chat(message)
        asker = user_ref(user)
        subject = _named_user(message) or asker
        result = await self._ground.service.stats(subject, chat=chat)
        if subject.user_id != asker.user_id:
            # About another player, for the asker to read, in the asker's language.
            locale = await self._ground.service.user_locale(asker, chat=chat)
            audience = Audience("user", PLATFORM, asker.user_id)
            result = Result(
                [replace(e, audience=audience, locale=locale) for e in result.events],
                result.table,
                result.refusal,
            )
        await self._ground.delivery.deliver(result, origin=where_of_message(message))

    async def on_leave(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/leave: leave the lobby, or the game (the computer plays the seat to the end)."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        result = await self._ground.service.leave(self._ground.chat(message), user_ref(user))
        await self._ground.reply(message, result)
        await self._ground.close_left_hands(result)

    async def on_kick(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/kick (in reply to a player's message, naming them, or a seat number; else a list
        of buttons): the table's creator or a group admin removes a player."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        chat = self._ground.chat(message)
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
        result = await self._ground.service.kick(
            chat,
            user_ref(user),
            target=target,
            seat=seat,
            table_id=table_id,
            is_admin=lambda: is_chat_admin(message.get_bot(), message.chat, user.id),
        )
        # The list of players goes to the group: its buttons work there, for the one who asked
        # (the service checks who presses).
        locale = await self._ground.service.chat_locale(chat)
        here = Audience("chat", PLATFORM, chat.chat_id)
        events = [
            replace(e, audience=here, locale=locale)
            if isinstance(e, Announcement) and e.kind == "kick_list"
            else e
            for e in result.events
        ]
        await self._ground.reply(message, Result(events, result.table, result.refusal))
        await self._ground.close_left_hands(result)

    async def _seat_named(self, chat: ChatRef, name: str) -> tuple[int, int] | None:
        """(table, seat) of the one player of the chat's open tables named ``name`` (case
        aside), if exactly one is."""
        wanted = name.strip().casefold()
        found = [
            (table.id, s.seat)
            for table in await self._ground.service.open_tables(chat)
            for s in table.seats
            if s is not None and not s.computer and s.name.casefold() == wanted
        ]
        return found[0] if len(found) == 1 else None

    async def on_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/rules: the options of the open table."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        result = await self._ground.service.rules(self._ground.chat(message), user_ref(user))
        await self._ground.reply(message, result)

    async def on_abandon(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/abandon: close the open table (its creator or a group admin)."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        admin = await is_chat_admin(context.bot, message.chat, user.id)
        result = await self._ground.service.abandon(
            self._ground.chat(message), user_ref(user), is_admin=admin
        )
        await self._ground.reply(message, result)

    async def on_lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/lang it|en: the group's language (in a group) or the user's (in private)."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        code = context.args[0] if context.args else ""
        private = message.chat.type == ChatType.PRIVATE
        chat = None if private else self._ground.chat(message)
        result = await self._ground.service.set_language(code, user=user_ref(user), chat=chat)
        if result.refusal is not None:
            await self._ground.reply(message, result)
            return
        text = self._ground.renderer.translations(code).gettext(phrases.LANGUAGE_SET)
        await self._ground.delivery.say(where_of_message(message), text)

    async def on_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/help: what the bot does."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        locale = await self._ground.reply_locale(message, user)
        text = self._ground.renderer.translations(locale).gettext(phrases.HELP)
        if self._ground.inline is not None and self._ground.inline.enabled():
            text += "\n" + self._ground.inline.help(locale)
        await self._ground.delivery.say(where_of_message(message), text)

    async def on_style(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/style [name]: the deck style of the pictures (the group's, or the user's in private)."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        where = where_of_message(message)
        t_locale = await self._ground.reply_locale(message, user)
        pictures = self._ground.delivery.pictures
        if pictures is None or not pictures.enabled:
            await self._ground.delivery.say(
                where, self._ground.renderer.notice("style_off", t_locale)
            )
            return
        wanted = context.args[0].lower() if context.args else None
        if wanted in pictures.style_choices():
            await self._ground.set_style(message, wanted)
            label = pictures.style_label(wanted, t_locale)
            text = self._ground.renderer.notice("style_set", t_locale).format(style=label)
            await self._ground.delivery.say(where, text)
            return
        current = await pictures.preferred(PLATFORM, self._ground.style_owner(message))
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
        text = self._ground.renderer.notice("style_choose", t_locale).format(
            style=pictures.style_label(current, t_locale)
        )
        await self._ground.delivery.say(where, text, keyboard)

    async def on_settings(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/settings: the chat's settings menu (a group's admins; anyone in private)."""
        message, user = self._ground.seen(update)
        if message is None or user is None:
            return
        await self._ground.settings_menu.command(
            message,
            user_ref(user),
            chat=self._ground.chat(message),
            where=where_of_message(message),
            bot=context.bot,
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
        await self._ground.delivery.migrated(self._ground.service, old, new)

    async def on_chatter(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A group message: only its id is noted (how far the table message has scrolled)."""
        self._ground.seen(update)


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


def leaderboard_family(args: list[str], registry: Registry) -> str:
    """The family a /leaderboard names (a game of it names it too: scopone -> scopa); Scopa
    when none."""
    wanted = args[0].lower() if args else ""
    if wanted in registry.families:
        return wanted
    kind = registry.get(_OLD_NAMES.get(wanted, wanted)) if wanted else None
    return kind.family if kind is not None else "scopa"
