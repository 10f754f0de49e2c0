"""Inline play's delivery hooks: the group table's buttons, where hands and turn notices go,
and the turn mentions in the group (see ``bot.telegram.inline``), with ``/notify``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Message,
    MessageEntity,
    Update,
    User,
)
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.render.images import RenderedImage
from bot.service import (
    ChatRef,
    Event,
    GameOver,
    HandView,
    TableEvent,
    TableInfo,
    TableView,
    TurnNotice,
    UserRef,
)
from bot.telegram.book import Shown
from bot.telegram.ids import PLATFORM, chat_key, where_of
from bot.telegram.inline.base import (
    CAPTION_LIMIT,
    MAX_MESSAGE,
    MENTION,
    PLAN_WAIT,
    REMEMBERED,
    InlineBase,
    NoticeWay,
    Planned,
    utf16_length,
)
from bot.telegram.messenger import Where

logger = logging.getLogger(__name__)


class TurnMentions:
    """Delivery's hooks for inline play, and the turn mentions."""

    def __init__(self, ground: InlineBase) -> None:
        self._ground = ground

    def table_markup(
        self, event: TableView, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        """The group table message of a game in play gets "🂠 My cards" (inline) first, and its
        "My hand" button says that it opens the private chat."""
        if not self._ground.enabled() or event.table.status != "playing":
            return markup
        if not self._ground.group_table(event.table):
            return markup
        mine = self._ground.cards_button(event.table.id, event.locale)
        rows: list[list[InlineKeyboardButton]] = []
        for row in markup.inline_keyboard if markup is not None else ():
            out = []
            for button in row:
                data = button.callback_data
                if isinstance(data, str) and data.endswith(":@hand"):
                    button = InlineKeyboardButton(
                        self._ground.t(event.locale, "in_private"), callback_data=data
                    )
                out.append(button)
            rows.append(out)
        if rows:
            rows[0].insert(0, mine)
        else:
            rows.append([mine])
        return InlineKeyboardMarkup(rows)

    async def private_hand(self, event: HandView, user_id: int, *, asked: bool) -> bool:
        """Whether this hand goes to the player's private chat (else they play inline)."""
        if not self._ground.enabled() or not self._ground.group_table(event.table):
            return True
        if asked:
            await self._ground.set_wish(user_id, "private")
            return True
        if await self._ground.delivery.book.private(event.table.id, user_id) is not None:
            return True
        return await self._ground.wish(user_id) == "private"

    async def turn_notice(self, event: TurnNotice, user_id: int) -> bool:
        """Handle a turn notice in the group (a mention) when the player plays inline or cannot
        be written to privately; ``False``: the private notice goes as before."""
        table = event.table
        if not self._ground.group_table(table):
            return False
        key = (table.id, table.version)
        planned = self._ground.planned.get(key)
        decision: NoticeWay | None = None
        if planned is not None and planned.notice is event:
            # The table message of the same result may carry the mention (see plan).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(planned.done.wait(), timeout=PLAN_WAIT)
            self._ground.planned.pop(key, None)
            if planned.folded:
                return True
            decision = planned.decision
        if decision is None:
            decision = await self._decision(event, user_id)
        if decision == "private":
            return False
        if decision == "none":
            return True
        async with self._ground.table_lock(table.id):
            await self._mention(event, user_id)
        return True

    async def _decision(self, event: TurnNotice, user_id: int) -> NoticeWay:
        """Where a turn notice goes: privately (as before inline play), a mention in the group,
        or nowhere (a reminder, one human at the table, mentions turned off, or a player who is
        looking: an update from them within PING_AFTER_IDLE_SECONDS, so the table is edited in
        place instead of posted anew with the mention, sparing the group's requests)."""
        table = event.table
        web = self._ground.delivery.web
        if web is not None and web.looking(user_id, table.id):
            return "none"  # they have the table open in its page: they see their turn there
        inline = self._ground.enabled() and await self._ground.wish(user_id) != "private"
        if inline and await self._ground.delivery.book.private(table.id, user_id) is not None:
            inline = False  # they follow this table in the private chat
        if not inline and not await self._ground.delivery.private_chats.refuses_private(user_id):
            return "private"
        if event.reminder:
            return "none"  # the turn's mention is in the group already: one notification a turn
        humans = sum(1 for s in table.seats if s is not None and not s.computer)
        if humans < 2 or not await self._ground.notify_on(user_id):
            return "none"
        if self._ground.presence.looking(PLATFORM, str(user_id)):
            return "none"
        return "group"

    def plan(self, events: Sequence[Event]) -> None:
        """Before a result is delivered: a turn notice whose group table message the same result
        updates rides in that message (posted anew with the mention, the old one deleted): one
        new message and one deletion instead of an edit, a message and a deletion, in a group
        that allows the bot about 20 requests a minute."""
        shown = {
            (e.table.id, e.table.version)
            for e in events
            if isinstance(e, TableView)
            and e.audience.kind == "chat"
            and self._ground.group_table(e.table)
        }
        ended = {e.table.id for e in events if isinstance(e, GameOver)}
        self._ground.closing.update(table_id for table_id, _ in shown if table_id in ended)
        while len(self._ground.closing) > REMEMBERED:
            self._ground.closing.pop()
        for event in events:
            if not isinstance(event, TurnNotice) or event.reminder:
                continue
            key = (event.table.id, event.table.version)
            if key in shown:
                self._ground.planned[key] = Planned(event, asyncio.Event())
                while len(self._ground.planned) > REMEMBERED:
                    self._ground.planned.pop(next(iter(self._ground.planned)))

    async def table_with_mention(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> bool:
        """Post the table message anew, opening with the mention of the player whose turn it
        now is, when the result plans it; ``False``: the delivery shows it as usual."""
        planned = self._ground.planned.get((event.table.id, event.table.version))
        if planned is None or not isinstance(event, TableView):
            return False
        try:
            notice = planned.notice
            user_id = int(notice.audience.id)
            planned.decision = await self._decision(notice, user_id)
            if planned.decision != "group":
                return False
            try:
                posted = await self._post_with_mention(event, notice, where, text, markup, image)
            except TelegramError as error:
                # The table is then edited as usual, and the mention goes on its own.
                logger.info("could not post table %s with its mention: %s", event.table.id, error)
                posted = False
            planned.folded = posted
            return posted
        finally:
            planned.done.set()

    async def _post_with_mention(
        self,
        event: TableView,
        notice: TurnNotice,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> bool:
        table, book = event.table, self._ground.delivery.book
        shown = await book.public(table.id, where)
        if shown is not None and table.version < shown.version:
            return False  # a newer view is showing: the notice goes on its own
        user_id = int(notice.audience.id)
        seat = table.seats[notice.seat] if 0 <= notice.seat < len(table.seats) else None
        name = (seat.name if seat is not None else "") or str(user_id)
        # A public message: the mention in the group's language, as the table under it.
        full = f"{name}, {self._ground.t(event.locale, 'your_turn')}\n{text}"
        entities = [
            MessageEntity(
                MessageEntity.TEXT_MENTION, 0, utf16_length(name), user=User(user_id, name, False)
            )
        ]
        bot = self._ground.bot()
        if image is None:
            if len(full) > MAX_MESSAGE:
                return False
            message = await bot.send_message(
                chat_id=where.chat_id,
                text=full,
                entities=entities,
                reply_markup=markup,
                message_thread_id=where.thread_id,
            )
            now = Shown(where, message.message_id, table.version)
        elif len(full) <= CAPTION_LIMIT:

            async def send(photo: bytes | str) -> Message:
                return await bot.send_photo(
                    chat_id=where.chat_id,
                    photo=InputFile(photo, filename=image.filename)
                    if isinstance(photo, bytes)
                    else photo,
                    caption=full,
                    caption_entities=entities,
                    reply_markup=markup,
                    message_thread_id=where.thread_id,
                )

            message = await self._ground.delivery.photo_files.with_photo(image, send)
            if message.photo:
                file_id = message.photo[-1].file_id
                await self._ground.delivery.photo_files.learn_file(image, file_id)
            now = Shown(where, message.message_id, table.version, photo=True, digest=image.digest)
        else:
            return False  # a picture with a long text below it: the notice goes on its own
        await book.keep_public(table.id, now)
        if shown is not None:
            await self._ground.delete(where.chat_id, shown.message_id)
            if shown.companion is not None:
                await self._ground.delete(where.chat_id, shown.companion)
        return True

    async def table_shown(self, event: TableView) -> None:
        """A table message was updated: a turn mention whose turn is over goes."""
        if (
            not self._ground.group_table(event.table)
            or event.table.id not in self._ground.mentioned
        ):
            return  # (a separate mention is rare: the table message carries it)
        async with self._ground.table_lock(event.table.id):
            found = await self._ground.delivery.book.state.state_get(
                platform=PLATFORM, kind=MENTION, scope="", table_id=event.table.id
            )
            if not isinstance(found, dict):
                return
            current = getattr(event.view, "current_player", None)
            if event.table.status == "playing" and found.get("seat") == current:
                return
            await self._drop_mention(event.table.id, found)

    async def table_closed(self, table: TableInfo) -> None:
        """The table is over (before its adapter state is forgotten): its turn mention goes,
        and so does its table message when the same result posts the final table anew (the
        old one would still say whose turn it was)."""
        table_id = table.id
        async with self._ground.table_lock(table_id):
            found = await self._ground.delivery.book.state.state_get(
                platform=PLATFORM, kind=MENTION, scope="", table_id=table_id
            )
            if isinstance(found, dict):
                await self._drop_mention(table_id, found)
        if table_id in self._ground.closing and self._ground.group_table(table):
            self._ground.closing.discard(table_id)
            where = where_of(table.chat_id)
            shown = await self._ground.delivery.book.public(table_id, where)
            if shown is not None:
                await self._ground.delete(where.chat_id, shown.message_id)
                if shown.companion is not None:
                    await self._ground.delete(where.chat_id, shown.companion)

    async def _mention(self, event: TurnNotice, user_id: int) -> None:
        table = event.table
        seat = table.seats[event.seat] if 0 <= event.seat < len(table.seats) else None
        name = (seat.name if seat is not None else "") or str(user_id)
        # A public message: in the group's language, not the player's.
        locale = await self._ground.service.chat_locale(ChatRef(PLATFORM, table.chat_id))
        game = self._ground.renderer.game_name(table, self._ground.renderer.translations(locale))
        text = f"{name}, {self._ground.t(locale, 'your_turn')} · {game} #{table.id}"
        entity = MessageEntity(
            MessageEntity.TEXT_MENTION,
            0,
            utf16_length(name),
            user=User(user_id, name, is_bot=False),
        )
        where = where_of(table.chat_id)
        markup = InlineKeyboardMarkup([[self._ground.cards_button(table.id, locale)]])
        try:
            sent = await self._ground.bot().send_message(
                chat_id=where.chat_id,
                text=text,
                entities=[entity],
                reply_markup=markup,
                message_thread_id=where.thread_id,
            )
        except TelegramError as error:
            logger.info("could not post the turn mention of table %s: %s", table.id, error)
            return
        self._ground.delivery.book.saw(where.chat_id, sent.message_id)
        self._ground.mentioned.add(table.id)
        while len(self._ground.mentioned) > REMEMBERED:
            self._ground.mentioned.pop()
        old = await self._ground.delivery.book.state.state_get(
            platform=PLATFORM, kind=MENTION, scope="", table_id=table.id
        )
        await self._ground.delivery.book.state.state_put(
            {"chat": where.chat_id, "message_id": sent.message_id, "seat": event.seat},
            platform=PLATFORM,
            kind=MENTION,
            scope="",
            table_id=table.id,
        )
        if isinstance(old, dict) and old.get("message_id") != sent.message_id:
            await self._ground.delete(old.get("chat"), old.get("message_id"))

    async def _drop_mention(self, table_id: int, found: Mapping[str, object]) -> None:
        self._ground.mentioned.discard(table_id)
        await self._ground.delivery.book.state.state_delete(
            platform=PLATFORM, kind=MENTION, scope="", table_id=table_id
        )
        await self._ground.delete(found.get("chat"), found.get("message_id"))

    async def on_notify(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/notify on|off: the user's turn mentions in groups."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or user.is_bot:
            return
        self._ground.delivery.book.saw(message.chat.id, message.message_id)
        wanted = (context.args[0].lower() if context.args else "").strip()
        who = UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)
        chat = message.chat
        thread = message.message_thread_id if chat.is_forum and message.is_topic_message else None
        where = Where(chat.id, thread)
        if chat.type in ("group", "supergroup"):
            # Said in the group: in the group's language, as every public message.
            locale = await self._ground.service.chat_locale(ChatRef(PLATFORM, chat_key(where)))
        else:
            locale = await self._ground.service.user_locale(who)
        if wanted not in ("on", "off"):
            key = "notify_on" if await self._ground.notify_on(user.id) else "notify_off"
            text = self._ground.t(locale, key) + "\n" + self._ground.t(locale, "notify_usage")
        else:
            await self._ground.set_notify(user.id, wanted == "on")
            text = self._ground.t(locale, "notify_on" if wanted == "on" else "notify_off")
        await self._ground.delivery.say(where, text)
