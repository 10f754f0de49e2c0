"""Playing from the group with Telegram's inline mode, and the turn mentions in the group.

How a player plays without leaving the group:

* the table message carries "🂠 My cards", a ``switch_inline_query_current_chat`` button whose
  query names the table (``"12"``); typing ``@<bot>`` alone lists every table the player sits at;
* the bot answers the inline query personally (``is_personal``, ``cache_time=0``) with the
  player's legal moves (Scopa: one result per card and capture, "7♦ ➜ 3♣ 4♠"; Scala 40: every
  move of the private hand's menu, with a link to the private hand for picking cards one by
  one), or, when it is not their turn, their hand read-only under a "waiting for X" header;
* choosing a result posts a message "via @bot" showing only the move (public once made) and
  makes the move. Each result id is ``<table>:<version>:<move>`` (the button data format, at
  most 64 bytes; a longer move travels as its index ``~<n>`` in the legal moves of that
  version), so a stale or forged result (or one never offered to that user) is refused like a
  stale button: nothing changes, and the posted message is turned into a short notice;
* once the table message shows the move, the bot deletes the posted message (when it may: an
  admin with the right to delete messages; one ``deleteMessages`` with the table's old copy
  below), so the group keeps no more messages than before.

Which update makes the move: ``chosen_inline_result`` (it carries the result id: exact) when
inline feedback is on (``/setinlinefeedback``), else the message posted "via @bot", matched to
the result of that user's latest answers with the same text. Both may come, in either order and
at once (updates are handled concurrently): a lock per user and the results already handled
make the move happen once. The posted message alone suffices, so a bot whose feedback is off
still plays; feedback only makes the match exact.

Private hands: in a group, with inline mode on (``getMe`` says ``supports_inline_queries``), a
player's hand is sent privately only to those who asked for it (the table's "💬 In private"
button or the deep link, remembered per user) or who already keep a hand message at that table;
everyone else plays inline. With inline mode off everything works as before.

Turn mentions: when a player who plays inline (or whose private chat is closed) gets the turn
at a group table with at least two humans, they are mentioned (a ``text_mention``; ``/notify
off`` turns them off, per user). A mention notifies only in a new message, so the table message
of the same result is posted anew opening with it and its old copy deleted (``plan``,
``table_with_mention``): the group gets one message, and the bot spends two of the group's ~20
requests a minute per move (a post and a deletion) instead of three. When that cannot be (a
picture whose text is too long for a caption), a separate mention message with the "My cards"
button replaces the table's previous one and goes when the turn has moved on or the table
closes. A timer's reminder adds nothing (one notification a turn); the player who just moved
never gets one (the service sends no notice to the mover).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultsButton,
    InputFile,
    InputTextMessageContent,
    Message,
    MessageEntity,
    Update,
    User,
)
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.render import (
    BRISCOLA_FAMILIES,
    N_,
    Renderer,
    card_text,
    cards_text,
    move_text,
    scala40_move_text,
)
from bot.render.briscola import briscola_move_text
from bot.render.images import RenderedImage
from bot.service import (
    ChatRef,
    Event,
    GameOver,
    HandView,
    Refusal,
    TableEvent,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
    UserRef,
    decode_button,
    encode_button,
)
from bot.telegram.book import Shown
from bot.telegram.ids import PLATFORM, hand_payload, where_of
from bot.telegram.messenger import Where
from engine.cards import parse_card

if TYPE_CHECKING:
    from bot.telegram.delivery import Delivery

logger = logging.getLogger(__name__)

# Telegram's limits on an answer: results per answer, bytes per result id and per offset.
MAX_RESULTS = 50
MAX_RESULT_ID = 64
# Adapter-state kinds: a user's wish for turn mentions ({"on": bool}, on when absent; the same
# key as Discord's), a user's way of getting hands ("private" | "inline"), a table's turn
# mention in its group ({"chat", "message_id", "seat"}).
NOTIFY = "notify"
HANDS = "hands"
MENTION = "mention"
# A result that makes no move (a card of a hand shown read-only, a waiting header).
LOOK = "~w"
# A move too long for a result id travels as its index among the legal moves: "~<n>".
INDEX = "~"
# After Telegram refused to delete a user's message in a chat (the bot is no admin there), the
# bot tries again after this many seconds.
RETRY_DELETE_AFTER = 600.0
# How long a posted message waits for its chosen_inline_result once feedback was seen.
PARK_WAIT = 3.0
# How long a turn notice waits for its table message to say whether it carried the mention.
PLAN_WAIT = 10.0
# Telegram's limits on a message's text and a picture's caption.
MAX_MESSAGE = 4096
CAPTION_LIMIT = 1024
# Results and outcomes remembered per user (a few answers' worth).
_REMEMBERED = 256
_USERS = 4096


TEXTS = {
    "my_cards": N_("🂠 My cards"),
    "in_private": N_("💬 In private"),
    "waiting": N_("⏳ Waiting for {name}"),
    "your_hand": N_("Your hand: {cards}"),
    "table": N_("Table: {cards}"),
    "pile": N_("Pile: {card}"),
    "looking": N_("🂠 (only looking at my cards)"),
    "not_playing": N_("You are not playing at a table here"),
    "pick_private": N_("Pick cards one by one in private"),
    "your_turn": N_("your turn"),
    "notify_on": N_("Turn notices: on. I will mention you in the group when it is your turn."),
    "notify_off": N_("Turn notices: off. I will not mention you when it is your turn."),
    "notify_usage": N_("Use /notify on or /notify off."),
    "help": N_(
        'In a group, tap "🂠 My cards" under the table: your cards and moves open above '
        'the keyboard, only for you, and a tap plays. "💬 In private" sends them to our '
        "private chat instead. /notify off: no mention when it is your turn."
    ),
}


class CardPhotos(Protocol):
    """Card pictures already on Telegram: a card's file id, for the table's deck style."""

    async def file_id(self, card: object, table: TableInfo) -> str | None: ...

    async def close(self) -> None: ...


# Where a turn notice goes (see InlinePlay._decision).
NoticeWay = Literal["private", "group", "none"]


@dataclass
class _Planned:
    """A turn notice that may ride in its table message (``folded`` once it did)."""

    notice: TurnNotice
    done: asyncio.Event
    folded: bool = False
    decision: NoticeWay | None = None


@dataclass(frozen=True)
class Choice:
    """What became of a chosen result: ``move`` (made), ``look`` (no move), or ``refused``."""

    kind: Literal["move", "look", "refused"]
    notice: str = ""


@dataclass
class Handled:
    """A result handled for a user. ``notices``: its posted messages already turned into the
    refusal notice (by feedback's inline message id) whose message update is still to come."""

    choice: Choice
    notices: int = 0


def utf16_length(text: str) -> int:
    """Telegram counts entity offsets and lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def parse_query(query: str) -> tuple[int | None, str]:
    """``"12 7♦"`` -> ``(12, "7♦")``: an optional table id (``#`` allowed), then a filter."""
    words = query.strip().split(maxsplit=1)
    if words and words[0].lstrip("#").isdigit() and len(words[0]) < 19:
        return int(words[0].lstrip("#")), (words[1] if len(words) > 1 else "").strip()
    return None, query.strip()


class InlinePlay:
    """Inline queries and chosen results -> service calls; the delivery hooks for inline play."""

    def __init__(
        self,
        *,
        service: TableService,
        renderer: Renderer,
        delivery: Delivery,
        bot: Callable[[], Bot],
        photos: CardPhotos | None = None,
    ) -> None:
        # A getter, not a Bot: the Application (and its bot) is built after the adapter.
        self._bot = bot
        self._service = service
        self._renderer = renderer
        self._delivery = delivery
        self._photos = photos
        # Per user: result texts of the latest answers -> result id (to match a message
        # posted "via @bot" when feedback is off), and the result ids already handled.
        self._offered: OrderedDict[int, OrderedDict[str, str]] = OrderedDict()
        self._texts: OrderedDict[int, OrderedDict[str, str]] = OrderedDict()
        # Per user: the result ids offered lately. A chosen result the bot never offered that
        # user (forged, or offered before a restart) makes no move.
        self._offered_ids: OrderedDict[int, OrderedDict[str, None]] = OrderedDict()
        self._handled: OrderedDict[int, OrderedDict[str, Handled]] = OrderedDict()
        # Inline feedback seen (chosen_inline_result updates come): moves wait for it, and
        # posted messages that came first wait here, per user, for their result.
        self._feedback = False
        self._parked: OrderedDict[int, OrderedDict[tuple[int, int], str]] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Turn notices that may ride in their table message, by (table, version): see plan.
        self._planned: dict[tuple[int, int], _Planned] = {}
        # Tables with a separate turn mention message (the table message could not carry it).
        self._mentioned: set[int] = set()
        # Tables whose game ended in the result being delivered, the final table posted anew.
        self._closing: set[int] = set()
        # A table's turn mention is posted and removed by different chains of one delivery.
        self._mention_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._wishes: dict[int, str] = {}
        # deleteMessages works (until a batch fails where single deletions succeed).
        self._batch_deletes = True
        # Chats where the bot may not delete users' messages: until when not to try again.
        self._cannot_delete: dict[int, float] = {}
        # The deletions of the update being handled (see _deleting_together).
        self._trash: ContextVar[list[tuple[int, int, bool]] | None] = ContextVar(
            f"trash-{id(self)}", default=None
        )

    # --- whether inline play is on -----------------------------------------------------------

    def enabled(self) -> bool:
        """Inline mode is on for the bot (``getMe``); an API that does not say counts as on."""
        try:
            supports = self._bot().supports_inline_queries
        except RuntimeError:  # not initialized yet
            return False
        return supports is not False

    @staticmethod
    def _group_table(table: TableInfo) -> bool:
        try:
            return where_of(table.chat_id).chat_id < 0
        except ValueError:
            return False

    def _t(self, locale: str | None, key: str) -> str:
        return self._renderer.translations(locale).gettext(TEXTS[key])

    def help(self, locale: str | None) -> str:
        """How to play inline, for /help."""
        return self._t(locale, "help")

    # --- delivery hooks ----------------------------------------------------------------------

    def table_markup(
        self, event: TableView, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        """The group table message of a game in play gets "🂠 My cards" (inline) first, and its
        "My hand" button says that it opens the private chat."""
        if not self.enabled() or event.table.status != "playing":
            return markup
        if not self._group_table(event.table):
            return markup
        mine = self.cards_button(event.table.id, event.locale)
        rows: list[list[InlineKeyboardButton]] = []
        for row in markup.inline_keyboard if markup is not None else ():
            out = []
            for button in row:
                data = button.callback_data
                if isinstance(data, str) and data.endswith(":@hand"):
                    button = InlineKeyboardButton(
                        self._t(event.locale, "in_private"), callback_data=data
                    )
                out.append(button)
            rows.append(out)
        if rows:
            rows[0].insert(0, mine)
        else:
            rows.append([mine])
        return InlineKeyboardMarkup(rows)

    def cards_button(self, table_id: int, locale: str | None) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            self._t(locale, "my_cards"), switch_inline_query_current_chat=str(table_id)
        )

    async def private_hand(self, event: HandView, user_id: int, *, asked: bool) -> bool:
        """Whether this hand goes to the player's private chat (else they play inline)."""
        if not self.enabled() or not self._group_table(event.table):
            return True
        if asked:
            await self._set_wish(user_id, "private")
            return True
        if await self._delivery.book.private(event.table.id, user_id) is not None:
            return True
        return await self._wish(user_id) == "private"

    async def turn_notice(self, event: TurnNotice, user_id: int) -> bool:
        """Handle a turn notice in the group (a mention) when the player plays inline or cannot
        be written to privately; ``False``: the private notice goes as before."""
        table = event.table
        if not self._group_table(table):
            return False
        key = (table.id, table.version)
        planned = self._planned.get(key)
        decision: NoticeWay | None = None
        if planned is not None and planned.notice is event:
            # The table message of the same result may carry the mention (see plan).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(planned.done.wait(), timeout=PLAN_WAIT)
            self._planned.pop(key, None)
            if planned.folded:
                return True
            decision = planned.decision
        if decision is None:
            decision = await self._decision(event, user_id)
        if decision == "private":
            return False
        if decision == "none":
            return True
        async with self._table_lock(table.id):
            await self._mention(event, user_id)
        return True

    async def _decision(self, event: TurnNotice, user_id: int) -> NoticeWay:
        """Where a turn notice goes: privately (as before inline play), a mention in the group,
        or nowhere (a reminder, one human at the table, mentions turned off)."""
        table = event.table
        inline = self.enabled() and await self._wish(user_id) != "private"
        if inline and await self._delivery.book.private(table.id, user_id) is not None:
            inline = False  # they follow this table in the private chat
        if not inline and not await self._delivery.refuses_private(user_id):
            return "private"
        if event.reminder:
            return "none"  # the turn's mention is in the group already: one notification a turn
        humans = sum(1 for s in table.seats if s is not None and not s.computer)
        if humans < 2 or not await self.notify_on(user_id):
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
            if isinstance(e, TableView) and e.audience.kind == "chat" and self._group_table(e.table)
        }
        ended = {e.table.id for e in events if isinstance(e, GameOver)}
        self._closing.update(table_id for table_id, _ in shown if table_id in ended)
        while len(self._closing) > _REMEMBERED:
            self._closing.pop()
        for event in events:
            if not isinstance(event, TurnNotice) or event.reminder:
                continue
            key = (event.table.id, event.table.version)
            if key in shown:
                self._planned[key] = _Planned(event, asyncio.Event())
                while len(self._planned) > _REMEMBERED:
                    self._planned.pop(next(iter(self._planned)))

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
        planned = self._planned.get((event.table.id, event.table.version))
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
        table, book = event.table, self._delivery.book
        shown = await book.public(table.id, where)
        if shown is not None and table.version < shown.version:
            return False  # a newer view is showing: the notice goes on its own
        user_id = int(notice.audience.id)
        seat = table.seats[notice.seat] if 0 <= notice.seat < len(table.seats) else None
        name = (seat.name if seat is not None else "") or str(user_id)
        full = f"{name}, {self._t(notice.locale, 'your_turn')}\n{text}"
        entities = [
            MessageEntity(
                MessageEntity.TEXT_MENTION, 0, utf16_length(name), user=User(user_id, name, False)
            )
        ]
        bot = self._bot()
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

            message = await self._delivery.with_photo(image, send)
            if message.photo:
                await self._delivery.learn_file(image, message.photo[-1].file_id)
            now = Shown(where, message.message_id, table.version, photo=True, digest=image.digest)
        else:
            return False  # a picture with a long text below it: the notice goes on its own
        await book.keep_public(table.id, now)
        if shown is not None:
            await self._delete(where.chat_id, shown.message_id)
            if shown.companion is not None:
                await self._delete(where.chat_id, shown.companion)
        return True

    async def table_shown(self, event: TableView) -> None:
        """A table message was updated: a turn mention whose turn is over goes."""
        if not self._group_table(event.table) or event.table.id not in self._mentioned:
            return  # (a separate mention is rare: the table message carries it)
        async with self._table_lock(event.table.id):
            found = await self._delivery.book.state.state_get(
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
        async with self._table_lock(table_id):
            found = await self._delivery.book.state.state_get(
                platform=PLATFORM, kind=MENTION, scope="", table_id=table_id
            )
            if isinstance(found, dict):
                await self._drop_mention(table_id, found)
        if table_id in self._closing and self._group_table(table):
            self._closing.discard(table_id)
            where = where_of(table.chat_id)
            shown = await self._delivery.book.public(table_id, where)
            if shown is not None:
                await self._delete(where.chat_id, shown.message_id)
                if shown.companion is not None:
                    await self._delete(where.chat_id, shown.companion)

    async def _mention(self, event: TurnNotice, user_id: int) -> None:
        table = event.table
        seat = table.seats[event.seat] if 0 <= event.seat < len(table.seats) else None
        name = (seat.name if seat is not None else "") or str(user_id)
        game = self._renderer.game_name(table, self._renderer.translations(event.locale))
        text = f"{name}, {self._t(event.locale, 'your_turn')} · {game} #{table.id}"
        entity = MessageEntity(
            MessageEntity.TEXT_MENTION,
            0,
            utf16_length(name),
            user=User(user_id, name, is_bot=False),
        )
        where = where_of(table.chat_id)
        markup = InlineKeyboardMarkup([[self.cards_button(table.id, event.locale)]])
        try:
            sent = await self._bot().send_message(
                chat_id=where.chat_id,
                text=text,
                entities=[entity],
                reply_markup=markup,
                message_thread_id=where.thread_id,
            )
        except TelegramError as error:
            logger.info("could not post the turn mention of table %s: %s", table.id, error)
            return
        self._delivery.book.saw(where.chat_id, sent.message_id)
        self._mentioned.add(table.id)
        while len(self._mentioned) > _REMEMBERED:
            self._mentioned.pop()
        old = await self._delivery.book.state.state_get(
            platform=PLATFORM, kind=MENTION, scope="", table_id=table.id
        )
        await self._delivery.book.state.state_put(
            {"chat": where.chat_id, "message_id": sent.message_id, "seat": event.seat},
            platform=PLATFORM,
            kind=MENTION,
            scope="",
            table_id=table.id,
        )
        if isinstance(old, dict) and old.get("message_id") != sent.message_id:
            await self._delete(old.get("chat"), old.get("message_id"))

    async def _drop_mention(self, table_id: int, found: dict[str, Any]) -> None:
        self._mentioned.discard(table_id)
        await self._delivery.book.state.state_delete(
            platform=PLATFORM, kind=MENTION, scope="", table_id=table_id
        )
        await self._delete(found.get("chat"), found.get("message_id"))

    @contextlib.asynccontextmanager
    async def _deleting_together(self) -> AsyncIterator[None]:
        """Messages deleted inside go in one ``deleteMessages`` per chat at the end: a move's
        posted message and the old turn mention cost one request, not two (a group allows
        the bot about 20 a minute, edits and deletions included)."""
        if self._trash.get() is not None:
            yield
            return
        trash: list[tuple[int, int, bool]] = []
        token = self._trash.set(trash)
        try:
            yield
        finally:
            self._trash.reset(token)
            await self._delete_now(trash)

    async def _delete(self, chat_id: object, message_id: object, *, own: bool = True) -> None:
        """Delete a message (``own``: the bot's; else a user's, which needs admin rights)."""
        if not isinstance(chat_id, int) or not isinstance(message_id, int):
            return
        if not own and self._cannot_delete.get(chat_id, 0.0) > self._delivery.clock():
            return  # not an admin there (as of a few minutes ago): the message stays
        trash = self._trash.get()
        if trash is not None:
            trash.append((chat_id, message_id, own))
            return
        await self._delete_now([(chat_id, message_id, own)])

    async def _delete_now(self, trash: list[tuple[int, int, bool]]) -> None:
        chats: dict[int, dict[int, bool]] = {}
        for chat_id, message_id, own in trash:
            chats.setdefault(chat_id, {})[message_id] = own
        bot = self._bot()
        for chat_id, messages in chats.items():
            ids = sorted(messages)
            if len(ids) > 1 and self._batch_deletes:
                try:
                    await bot.delete_messages(chat_id=chat_id, message_ids=ids)
                except TelegramError as error:
                    logger.info("deleteMessages %s in chat %s failed: %s", ids, chat_id, error)
                else:
                    for message_id in ids:
                        self._delivery.book.gone(chat_id, message_id)
                    continue
            # One by one: a single message, or a batch refused (the bot may not delete users'
            # messages there, or the API has no deleteMessages).
            failed = False
            for message_id in ids:
                try:
                    await bot.delete_message(chat_id=chat_id, message_id=message_id)
                except TelegramError as error:
                    logger.info("could not delete %s in chat %s: %s", message_id, chat_id, error)
                    if not messages[message_id]:
                        failed = True
                    continue
                self._delivery.book.gone(chat_id, message_id)
            if failed:
                # Users' messages need admin rights: leave them alone for a while.
                self._cannot_delete[chat_id] = self._delivery.clock() + RETRY_DELETE_AFTER
            elif len(ids) > 1:
                self._batch_deletes = False  # one by one works where the batch did not

    # --- per-user settings -------------------------------------------------------------------

    async def notify_on(self, user_id: int) -> bool:
        """Whether the user wants turn mentions (``/notify``; on unless they said off)."""
        found = await self._delivery.book.state.state_get(
            platform=PLATFORM, kind=NOTIFY, scope=str(user_id)
        )
        return not (isinstance(found, dict) and found.get("on") is False)

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._delivery.book.state.state_put(
            {"on": on}, platform=PLATFORM, kind=NOTIFY, scope=str(user_id)
        )

    async def _wish(self, user_id: int) -> str | None:
        if user_id in self._wishes:
            return self._wishes[user_id]
        found = await self._delivery.book.state.state_get(
            platform=PLATFORM, kind=HANDS, scope=str(user_id)
        )
        wish = found if isinstance(found, str) else None
        if len(self._wishes) >= _USERS:
            self._wishes.clear()
        self._wishes[user_id] = wish or ""
        return wish

    async def _set_wish(self, user_id: int, wish: str) -> None:
        if self._wishes.get(user_id) == wish:
            return
        self._wishes[user_id] = wish
        await self._delivery.book.state.state_put(
            wish, platform=PLATFORM, kind=HANDS, scope=str(user_id)
        )

    async def prefer_private(self, user_id: int) -> None:
        """The user asked for their hand in the private chat (the deep link)."""
        await self._set_wish(user_id, "private")

    # --- handlers ----------------------------------------------------------------------------

    async def on_notify(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """/notify on|off: the user's turn mentions in groups."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None or user.is_bot:
            return
        self._delivery.book.saw(message.chat.id, message.message_id)
        wanted = (context.args[0].lower() if context.args else "").strip()
        locale = await self._service.user_locale(
            UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)
        )
        if wanted not in ("on", "off"):
            key = "notify_on" if await self.notify_on(user.id) else "notify_off"
            text = self._t(locale, key) + "\n" + self._t(locale, "notify_usage")
        else:
            await self.set_notify(user.id, wanted == "on")
            text = self._t(locale, "notify_on" if wanted == "on" else "notify_off")
        chat = message.chat
        thread = message.message_thread_id if chat.is_forum and message.is_topic_message else None
        await self._delivery.say(Where(chat.id, thread), text)

    async def on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An inline query: the asker's own moves (or hand) at their tables, nobody else's."""
        query = update.inline_query
        if query is None:
            return
        user = query.from_user
        who = UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)
        table_id, wanted = parse_query(query.query)
        # From a group, the group tables (Telegram does not say which group); from the
        # private chat with the bot, a quick game too.
        in_group = query.chat_type in ("group", "supergroup")
        tables = [
            t
            for t in await self._service.tables_of(who)
            if t.status == "playing"
            and (table_id is None or t.id == table_id)
            and (self._group_table(t) or not in_group)
        ]
        # Where it is the player's turn first, then the newest.
        tables.sort(key=lambda t: (t.current_seat != t.seat_of(PLATFORM, who.user_id), -t.id))
        results: list[Any] = []
        texts: dict[str, str] = {}
        used: set[str] = set()
        button: InlineQueryResultsButton | None = None
        locale = await self._service.user_locale(who)
        for table in tables:
            hand = await self._hand(who, table)
            if hand is None:
                continue
            built, header = await self._results(
                hand, several=len(tables) > 1, wanted=wanted, used=used
            )
            results.extend(built)
            if button is None and header is not None:
                button = header
            locale = hand.locale
        if not tables:
            button = InlineQueryResultsButton(
                text=self._t(locale, "not_playing"), start_parameter="help"
            )
        offset = int(query.offset) if query.offset.isdigit() else 0
        page = results[offset : offset + MAX_RESULTS]
        offered = self._per_user(self._offered_ids, user.id)
        for result in page:
            self._remember(offered, result.id, None)
            content = result.input_message_content
            if isinstance(content, InputTextMessageContent):
                text = content.message_text
                # Two results with one text cannot be told apart from their message.
                texts[text] = "" if text in texts and texts[text] != result.id else result.id
        self._remember_offered(user.id, texts)
        more = offset + MAX_RESULTS < len(results)
        try:
            await query.answer(
                page,
                cache_time=0,
                is_personal=True,
                next_offset=str(offset + MAX_RESULTS) if more else "",
                button=button,
            )
        except TelegramError as error:
            logger.info("answerInlineQuery failed: %s", error)

    async def on_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A chosen inline result (inline feedback on): make its move, once."""
        chosen = update.chosen_inline_result
        if chosen is None:
            return
        user = chosen.from_user
        self._feedback = True
        async with self._lock(user.id), self._deleting_together():
            handled = await self._handle(user, chosen.result_id)
            edited = False
            if handled.choice.kind == "refused" and chosen.inline_message_id is not None:
                # The posted message becomes the notice (it showed a move that was not made).
                try:
                    await self._bot().edit_message_text(
                        handled.choice.notice, inline_message_id=chosen.inline_message_id
                    )
                except TelegramError as error:
                    logger.info("could not turn a refused result into its notice: %s", error)
                else:
                    edited = True
            text = self._per_user(self._texts, user.id).get(chosen.result_id)
            parked: OrderedDict[tuple[int, int], str] = self._per_user(self._parked, user.id)
            waiting = [where for where, said in parked.items() if said == text]
            for chat_id, message_id in waiting[:1]:
                del parked[(chat_id, message_id)]
                if not edited:
                    await self._settle(handled, chat_id, message_id)
                return
            if edited:
                handled.notices += 1  # its message, when it comes, shows the notice already
            # Otherwise the posted message, when it comes, is cleared (on_via_message).

    async def on_via_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message a result posted "via @bot": make its move if no feedback does, then
        clear it from the chat."""
        message = update.effective_message
        if message is None or message.via_bot is None or message.via_bot.id != context.bot.id:
            return
        user = message.from_user
        if user is None:
            return
        async with self._lock(user.id), self._deleting_together():
            text = message.text or ""
            result_id = self._per_user(self._offered, user.id).get(text)
            if not result_id:
                # Not a result we can match (a restart forgot the answer, or two results had
                # this text): it makes no move here; inline feedback, if on, makes it.
                await self._delete(message.chat.id, message.message_id, own=False)
                return
            handled = self._per_user(self._handled, user.id).get(result_id)
            if handled is None and self._feedback:
                # Feedback names the result exactly (an old panel's result may have this
                # text too): the move waits for it, a little (feedback may be off after all,
                # or sampled: then the message decides).
                parked = self._per_user(self._parked, user.id)
                where = (message.chat.id, message.message_id)
                self._remember(parked, where, text)
                task = asyncio.get_running_loop().create_task(self._unpark(user, where, result_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                return
            if handled is None:
                handled = await self._handle(user, result_id)
            await self._settle(handled, message.chat.id, message.message_id)

    async def _unpark(self, user: User, where: tuple[int, int], result_id: str) -> None:
        """A posted message whose feedback did not come in time: the message makes the move."""
        # The task started inside its update's deletions (a copy of that context): its own.
        self._trash.set(None)
        await asyncio.sleep(PARK_WAIT)
        async with self._lock(user.id), self._deleting_together():
            parked: OrderedDict[tuple[int, int], str] = self._per_user(self._parked, user.id)
            if parked.pop(where, None) is None:
                return  # its feedback came
            handled = await self._handle(user, result_id)
            await self._settle(handled, *where)

    async def close(self) -> None:
        """On shutdown: stop waiting for feedback, finish the pictures' uploads."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._photos is not None:
            await self._photos.close()

    async def _settle(
        self,
        handled: Handled,
        chat_id: int,
        message_id: int,
    ) -> None:
        """A posted message after its result was handled: it goes (the table message shows
        the move now; a look made no move), or, for a refused move, says why."""
        if handled.choice.kind == "refused":
            if handled.notices:
                handled.notices -= 1  # this one shows the notice already
                return
            with contextlib.suppress(TelegramError):
                await self._bot().send_message(
                    chat_id=chat_id,
                    text=handled.choice.notice,
                    reply_to_message_id=message_id,
                )
        await self._delete(chat_id, message_id, own=False)

    async def _handle(self, user: User, result_id: str) -> Handled:
        """The outcome of a result, made once per user and result whichever update comes."""
        memory: OrderedDict[str, Handled] = self._per_user(self._handled, user.id)
        handled = memory.get(result_id)
        if handled is None:
            handled = Handled(await self._choose(user, result_id))
            self._remember(memory, result_id, handled)
        return handled

    # --- answers -----------------------------------------------------------------------------

    async def _hand(self, who: UserRef, table: TableInfo) -> HandView | None:
        result = await self._service.show(ChatRef(PLATFORM, table.chat_id), who, table.id)
        hands = [e for e in result.events if isinstance(e, HandView)]
        return hands[0] if hands else None

    async def _results(
        self, hand: HandView, *, several: bool, wanted: str, used: set[str]
    ) -> tuple[list[Any], InlineQueryResultsButton | None]:
        """The results of one table, and the header button above them (``used``: the texts
        the answer's results post so far)."""
        table, view = hand.table, hand.view
        t = self._renderer.translations(hand.locale)
        prefix = f"{self._renderer.game_name(table, t)} #{table.id} · " if several else ""
        moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
        hand_cards = cards_text(view.hand)
        markup = InlineKeyboardMarkup([[self.cards_button(table.id, hand.locale)]])
        scala40 = table.family == "scala40"
        briscola = table.family in BRISCOLA_FAMILIES
        if scala40:
            top = card_text(view.pile_top) if view.pile_top is not None else "—"
            context = self._t(hand.locale, "pile").format(card=top)
        elif briscola:
            # The cards of the trick in play (the table of Briscola).
            trick = [card for _seat, card in getattr(view, "trick", ())]
            context = self._t(hand.locale, "table").format(cards=cards_text(trick))
        else:
            context = self._t(hand.locale, "table").format(cards=cards_text(view.table))
        results: list[Any] = []
        if not moves:
            current = getattr(view, "current_player", None)
            name = self._renderer.seat_name(table, current, t) if current is not None else "—"
            waiting = self._t(hand.locale, "waiting").format(name=name)
            looking = self._t(hand.locale, "looking")
            results.append(
                self._article(
                    encode_button(table.id, table.version, LOOK),
                    prefix + waiting,
                    self._t(hand.locale, "your_hand").format(cards=hand_cards),
                    looking,
                    markup,
                )
            )
            for index, card in enumerate(view.hand):
                result_id = encode_button(table.id, table.version, f"{LOOK}{index}")
                results.append(
                    await self._card_result(
                        result_id, card, prefix + card_text(card), waiting, looking, markup, hand
                    )
                )
            waiting_button = InlineQueryResultsButton(
                text=waiting, start_parameter=hand_payload(table.id)
            )
            return results, waiting_button
        # A card's picture says it all when the card has one move; with capture choices the
        # text ("7♦ ➜ 3♣ 4♠") tells them apart.
        per_card: dict[str, int] = {}
        for move in moves:
            card = move.rstrip("!").split(":", 1)[0]
            per_card[card] = per_card.get(card, 0) + 1
        for index, move in enumerate(moves):
            if scala40:
                title = scala40_move_text(move, t)
            elif briscola:
                title = briscola_move_text(move, t)
            else:
                title = move_text(move)
            if wanted and wanted.lower() not in (title + " " + move).lower():
                continue
            result_id = self._result_id(table, move, index)
            description = (
                context + " · " + self._t(hand.locale, "your_hand").format(cards=hand_cards)
            )
            # The posted text names the move; two moves that read alike (Scala 40's two decks
            # hold twin cards) get a number, so the message alone tells which was chosen.
            said = title
            for number in range(2, len(moves) + 2):
                if said not in used:
                    break
                said = f"{title} ({number})"
            used.add(said)
            played = None if scala40 else move.rstrip("!").split(":", 1)[0]
            if briscola and not _is_card(played):
                played = None  # Briscola's swap, bids and call are words, not cards
            if played is not None and per_card.get(played) == 1:
                results.append(
                    await self._card_result(
                        result_id, played, prefix + title, description, said, markup, hand
                    )
                )
            else:
                results.append(self._article(result_id, prefix + said, description, said, markup))
        header: InlineQueryResultsButton | None = None
        if scala40:
            header = InlineQueryResultsButton(
                text=self._t(hand.locale, "pick_private"),
                start_parameter=hand_payload(table.id),
            )
        return results, header

    @staticmethod
    def _result_id(table: TableInfo, move: str, index: int) -> str:
        try:
            return encode_button(table.id, table.version, move)
        except ValueError:
            return encode_button(table.id, table.version, f"{INDEX}{index}")

    @staticmethod
    def _article(
        result_id: str,
        title: str,
        description: str,
        text: str,
        markup: InlineKeyboardMarkup,
    ) -> InlineQueryResultArticle:
        return InlineQueryResultArticle(
            id=result_id,
            title=title,
            description=description,
            input_message_content=InputTextMessageContent(text),
            reply_markup=markup,
        )

    async def _card_result(
        self,
        result_id: str,
        card: object,
        title: str,
        description: str,
        text: str,
        markup: InlineKeyboardMarkup,
        hand: HandView,
    ) -> Any:
        """A card's picture (a cached photo: the result shows it, the posted message carries
        only ``text``) when pictures are on for the table, else a plain article."""
        file_id = None
        if self._photos is not None:
            file_id = await self._photos.file_id(card, hand.table)
        if file_id is None:
            return self._article(result_id, title, description, text, markup)
        return InlineQueryResultCachedPhoto(
            id=result_id,
            photo_file_id=file_id,
            title=title,
            description=description,
            input_message_content=InputTextMessageContent(text),
            reply_markup=markup,
        )

    # --- choices -----------------------------------------------------------------------------

    async def _choose(self, user: User, result_id: str) -> Choice:
        """Make the move a result id names, or say why not (nothing changes then)."""
        who = UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)
        try:
            data = decode_button(result_id)
        except ValueError:
            return await self._refused(who, "bad_button")
        action = data.action
        if action.startswith(LOOK):
            return Choice("look")
        if action.startswith(("@", "?")):
            # Inline results only ever carry moves: anything else is forged.
            return await self._refused(who, "bad_button")
        if result_id not in self._per_user(self._offered_ids, user.id):
            return await self._refused(who, "stale")
        table = next((t for t in await self._service.tables_of(who) if t.id == data.table_id), None)
        if table is None:
            return await self._refused(who, "not_seated")
        chat = ChatRef(PLATFORM, table.chat_id)
        move: str | None = action
        if action.startswith(INDEX):
            move = await self._indexed_move(who, table, data.version, action[len(INDEX) :])
        result = await self._service.play(
            chat, who, table.id, version=data.version, move=move or action
        )
        if result.refusal is not None:
            return Choice("refused", self._notice(result.refusal))
        # A move made inline: the player's next tables are played inline too.
        await self._set_wish(user.id, "inline")
        await self._delivery.deliver(result, origin=None)
        return Choice("move")

    async def _indexed_move(
        self, who: UserRef, table: TableInfo, version: int, index: str
    ) -> str | None:
        if version != table.version or not index.isdigit():
            return None
        hand = await self._hand(who, table)
        moves = tuple(getattr(hand.view, "legal_moves", ()) or ()) if hand else ()
        position = int(index)
        return moves[position] if position < len(moves) else None

    async def _refused(self, who: UserRef, code: str) -> Choice:
        locale = await self._service.user_locale(who)
        return Choice("refused", self._notice(Refusal(code, locale)))

    def _notice(self, refusal: Refusal) -> str:
        return "⚠️ " + self._renderer.refusal(refusal)

    # --- memory ------------------------------------------------------------------------------

    def _lock(self, user_id: int) -> asyncio.Lock:
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        return lock

    def _table_lock(self, table_id: int) -> asyncio.Lock:
        lock = self._mention_locks.get(table_id)
        if lock is None:
            lock = self._mention_locks[table_id] = asyncio.Lock()
        return lock

    def _remember_offered(self, user_id: int, texts: dict[str, str]) -> None:
        known = self._per_user(self._offered, user_id)
        back = self._per_user(self._texts, user_id)
        for text, result_id in texts.items():
            self._remember(known, text, result_id)
            if result_id:
                self._remember(back, result_id, text)

    @staticmethod
    def _per_user(memory: OrderedDict[int, Any], user_id: int) -> Any:
        found = memory.get(user_id)
        if found is None:
            found = memory[user_id] = OrderedDict()
            while len(memory) > _USERS:
                memory.popitem(last=False)
        memory.move_to_end(user_id)
        return found

    @staticmethod
    def _remember(memory: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        memory[key] = value
        memory.move_to_end(key)
        while len(memory) > _REMEMBERED:
            memory.popitem(last=False)


def _is_card(text: str | None) -> bool:
    """Whether a move string is one card (``AS``), as Briscola's card moves are."""
    if text is None:
        return False
    try:
        parse_card(text)
    except ValueError:
        return False
    return True
