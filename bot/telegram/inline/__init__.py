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
  stale button: nothing changes, and the posted message is turned into a short notice. The
  results offered to a user are kept in the adapter state too (kind ``offered``, for an hour),
  so a result chosen across a restart still plays;
* once the table message shows the move, the bot deletes the posted message (when it may: an
  admin with the right to delete messages), with the table's old copy, in one
  ``deleteMessages``; while the group's budget is short those deletions wait and gather, so a
  busy group spends about one request per move (``sweeper``), and the group keeps no more
  messages than before.

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
``table_with_mention``): the group gets one message, and the bot spends one or two of the
group's ~20 requests a minute per move (a post, and a deletion when the budget has room for it)
instead of three. When the next to move is the player who just moved or a computer, no mention
is due and the table message is edited in place. When that cannot be (a
picture whose text is too long for a caption), a separate mention message with the "My cards"
button replaces the table's previous one and goes when the turn has moved on or the table
closes. A timer's reminder adds nothing (one notification a turn); the player who just moved
never gets one (the service sends no notice to the mover).

The parts, one module each: ``answers`` (inline queries -> results), ``moves`` (how each game's
moves read), ``choices`` (chosen results -> moves), ``mentions`` (the delivery hooks and the
turn mentions), ``base`` (limits, texts, memory and deletions), ``sweeper`` (the deletions sent
when the group's budget has room).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from bot.render import Renderer
from bot.render.images import RenderedImage
from bot.service import (
    Event,
    HandView,
    TableEvent,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
)
from bot.service.presence import Presence
from bot.telegram.inline.answers import InlineAnswers, result_id
from bot.telegram.inline.base import (
    CAPTION_LIMIT,
    HANDS,
    INDEX,
    LOOK,
    MAX_MESSAGE,
    MAX_RESULT_ID,
    MAX_RESULTS,
    MENTION,
    NOTIFY,
    PARK_WAIT,
    PLAN_WAIT,
    TEXTS,
    CardPhotos,
    Choice,
    Handled,
    InlineBase,
    NoticeWay,
    parse_query,
    utf16_length,
)
from bot.telegram.inline.choices import InlineChoices
from bot.telegram.inline.mentions import TurnMentions
from bot.telegram.inline.sweeper import RETRY_DELETE_AFTER, Sweeper
from bot.telegram.inline_hooks import InlineDelivery
from bot.telegram.messenger import Where

__all__ = [
    "CAPTION_LIMIT",
    "HANDS",
    "INDEX",
    "LOOK",
    "MAX_MESSAGE",
    "MAX_RESULTS",
    "MAX_RESULT_ID",
    "MENTION",
    "NOTIFY",
    "PARK_WAIT",
    "PLAN_WAIT",
    "RETRY_DELETE_AFTER",
    "TEXTS",
    "CardPhotos",
    "Choice",
    "Handled",
    "InlinePlay",
    "NoticeWay",
    "Sweeper",
    "parse_query",
    "utf16_length",
]


class InlinePlay:
    """Inline queries and chosen results -> service calls; the delivery hooks for inline play.

    Composed: the common ground (``InlineBase``: state, memory, deletions) is given to each
    part (``TurnMentions``, ``InlineAnswers``, ``InlineChoices``); this object only delegates.
    """

    def __init__(
        self,
        *,
        service: TableService,
        renderer: Renderer,
        delivery: InlineDelivery,
        bot: Callable[[], Bot],
        photos: CardPhotos | None = None,
        presence: Presence | None = None,
    ) -> None:
        self._ground = InlineBase(
            service=service,
            renderer=renderer,
            delivery=delivery,
            bot=bot,
            photos=photos,
            presence=presence,
        )
        self._mentions = TurnMentions(self._ground)
        self._answers = InlineAnswers(self._ground)
        self._choices = InlineChoices(self._ground)

    # The common ground.
    @property
    def sweeper(self) -> Sweeper:
        return self._ground.sweeper

    def enabled(self) -> bool:
        return self._ground.enabled()

    def help(self, locale: str | None) -> str:
        return self._ground.help(locale)

    def cards_button(self, table_id: int, locale: str | None) -> InlineKeyboardButton:
        return self._ground.cards_button(table_id, locale)

    async def notify_on(self, user_id: int) -> bool:
        return await self._ground.notify_on(user_id)

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self._ground.set_notify(user_id, on)

    async def prefer_private(self, user_id: int) -> None:
        await self._ground.prefer_private(user_id)

    async def resume(self) -> None:
        await self._ground.resume()

    async def close(self) -> None:
        await self._ground.close()

    def showing_table(self, table: TableInfo) -> AbstractAsyncContextManager[None]:
        return self._ground.showing_table(table)

    def hurry(self, chat_id: int) -> None:
        self._ground.sweeper.hurry(chat_id)

    # The delivery hooks (``bot.telegram.inline_hooks.InlineHooks``) and the turn mentions.
    def table_markup(
        self, event: TableView, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        return self._mentions.table_markup(event, markup)

    async def private_hand(self, event: HandView, user_id: int, *, asked: bool) -> bool:
        return await self._mentions.private_hand(event, user_id, asked=asked)

    async def turn_notice(self, event: TurnNotice, user_id: int) -> bool:
        return await self._mentions.turn_notice(event, user_id)

    def plan(self, events: Sequence[Event]) -> None:
        self._mentions.plan(events)

    async def table_with_mention(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> bool:
        return await self._mentions.table_with_mention(event, where, text, markup, image)

    async def table_shown(self, event: TableView) -> None:
        await self._mentions.table_shown(event)

    async def table_closed(self, table: TableInfo) -> None:
        await self._mentions.table_closed(table)

    # The handlers.
    async def on_notify(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._mentions.on_notify(update, context)

    async def on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._answers.on_inline_query(update, context)

    async def on_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._choices.on_chosen(update, context)

    async def on_via_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._choices.on_via_message(update, context)

    _result_id = staticmethod(result_id)
