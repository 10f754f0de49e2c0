"""Inline play's common ground: its limits, texts and memory, and what every part uses.

``InlineBase`` holds the state of ``bot.telegram.inline.InlinePlay`` (what was offered to whom,
what was handled, the planned turn mentions), whether inline mode is on, the users' wishes
(turn mentions, hands in private or inline) and the deletions (gathered per update, then
sent by ``bot.telegram.inline.sweeper.Sweeper`` when the group's budget has room).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from telegram import Bot, InlineKeyboardButton

from bot.domain.records import JSON
from bot.render import N_, Renderer
from bot.service import ChatRef, HandView, TableInfo, TableService, TurnNotice, UserRef
from bot.service.presence import Presence
from bot.telegram.ids import PLATFORM, where_of
from bot.telegram.inline.sweeper import Sweeper
from bot.telegram.inline_hooks import InlineDelivery
from bot.telegram.outbox import Ticket

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
# A user's latest offered results ({"until", "ids", "texts"}), so a result chosen across a
# restart is still accepted (the service still refuses it if the table moved on): kept for
# OFFER_TTL seconds, the latest OFFER_KEPT of them.
OFFERED = "offered"
OFFER_TTL = 3600.0
OFFER_KEPT = 60
# A result that makes no move (a card of a hand shown read-only, a waiting header).
LOOK = "~w"
# A move too long for a result id travels as its index among the legal moves: "~<n>".
INDEX = "~"
# How long a posted message waits for its chosen_inline_result once feedback was seen.
PARK_WAIT = 3.0
# How long a turn notice waits for its table message to say whether it carried the mention.
PLAN_WAIT = 10.0
# How long a posted move waits for the table message to show it before it is deleted anyway
# (the move is made at once; only its messages wait for the group's budget).
SHOWN_WAIT = 120.0
# Telegram's limits on a message's text and a picture's caption.
MAX_MESSAGE = 4096
CAPTION_LIMIT = 1024
# Results and outcomes remembered per user (a few answers' worth).
REMEMBERED = 256
_USERS = 4096

_K = TypeVar("_K")
_V = TypeVar("_V")


TEXTS = {
    "my_cards": N_("🂠 My cards"),
    "in_private": N_("💬 In private"),
    "waiting": N_("⏳ Waiting for {name}"),
    "your_hand": N_("Your hand: {cards}"),
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


def listed(value: JSON) -> list[JSON]:
    """A stored list (anything else read as an empty one)."""
    return value if isinstance(value, list) else []


class CardPhotos(Protocol):
    """Card pictures already on Telegram: a card's file id, for the table's deck style."""

    async def file_id(self, card: object, table: TableInfo) -> str | None: ...

    async def close(self) -> None: ...


# Where a turn notice goes (see InlinePlay._decision).
NoticeWay = Literal["private", "group", "none"]


@dataclass
class Planned:
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
    refusal notice (by feedback's inline message id) whose message update is still to come;
    ``shown``: the delivery of the move's messages, ``made``: the table and its version after
    the move (its posted message goes once the table message shows that version)."""

    choice: Choice
    notices: int = 0
    shown: Ticket | None = None
    made: tuple[int, int] | None = None  # (table id, version) after the move


def utf16_length(text: str) -> int:
    """Telegram counts entity offsets and lengths in UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def parse_query(query: str) -> tuple[int | None, str]:
    """``"12 7♦"`` -> ``(12, "7♦")``: an optional table id (``#`` allowed), then a filter."""
    words = query.strip().split(maxsplit=1)
    if words and words[0].lstrip("#").isdigit() and len(words[0]) < 19:
        return int(words[0].lstrip("#")), (words[1] if len(words) > 1 else "").strip()
    return None, query.strip()


class InlineBase:
    """The state and the helpers shared by the parts of ``InlinePlay``: each part is given it."""

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
        # A getter, not a Bot: the Application (and its bot) is built after the adapter.
        self.bot = bot
        # Who is looking at their game (every update marks its user): no mention for them.
        self.presence = presence if presence is not None else Presence()
        self.service = service
        self.renderer = renderer
        self.delivery = delivery
        self.photos = photos
        # Per user: result texts of the latest answers -> result id (to match a message
        # posted "via @bot" when feedback is off), and the result ids already handled.
        self.offered: OrderedDict[int, OrderedDict[str, str]] = OrderedDict()
        self.texts: OrderedDict[int, OrderedDict[str, str]] = OrderedDict()
        # Per user: the result ids offered lately. A chosen result the bot never offered that
        # user (forged, or offered before a restart) makes no move.
        self.offered_ids: OrderedDict[int, OrderedDict[str, None]] = OrderedDict()
        # Per user: the results handled; those whose move was made are kept across a restart
        # with the offered ones (``_keep_offered``).
        self.handled: OrderedDict[int, OrderedDict[str, Handled]] = OrderedDict()
        # Inline feedback seen (chosen_inline_result updates come): moves wait for it, and
        # posted messages that came first wait here, per user, for their result.
        self.feedback = False
        self.parked: OrderedDict[int, OrderedDict[tuple[int, int], str]] = OrderedDict()
        self.tasks: set[asyncio.Task[None]] = set()
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # Turn notices that may ride in their table message, by (table, version): see plan.
        self.planned: dict[tuple[int, int], Planned] = {}
        # Tables with a separate turn mention message (the table message could not carry it).
        self.mentioned: set[int] = set()
        # Tables whose game ended in the result being delivered, the final table posted anew.
        self.closing: set[int] = set()
        # Posted moves waiting for their table message to show them, per table:
        # (version after the move, chat, message id); and the version each table shows.
        self.posted: dict[int, list[tuple[int, int, int]]] = {}
        self.showing: OrderedDict[int, int] = OrderedDict()
        # A table's turn mention is posted and removed by different chains of one delivery.
        self.mention_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self.wishes: dict[int, str] = {}
        # The deletions, per chat, sent when they delay nothing the players wait for.
        self.sweeper = Sweeper(
            bot=bot, state=delivery.book.state, book=delivery.book, clock=delivery.clock
        )
        # The deletions of the update being handled (see _deleting_together).
        self.trash: ContextVar[list[tuple[int, int, bool]] | None] = ContextVar(
            f"trash-{id(self)}", default=None
        )

    def enabled(self) -> bool:
        """Inline mode is on for the bot (``getMe``); an API that does not say counts as on."""
        try:
            supports = self.bot().supports_inline_queries
        except RuntimeError:  # not initialized yet
            return False
        return supports is not False

    @staticmethod
    def group_table(table: TableInfo) -> bool:
        try:
            return where_of(table.chat_id).chat_id < 0
        except ValueError:
            return False

    def t(self, locale: str | None, key: str) -> str:
        return self.renderer.translations(locale).gettext(TEXTS[key])

    def help(self, locale: str | None) -> str:
        """How to play inline, for /help."""
        return self.t(locale, "help")

    def cards_button(self, table_id: int, locale: str | None) -> InlineKeyboardButton:
        return InlineKeyboardButton(
            self.t(locale, "my_cards"), switch_inline_query_current_chat=str(table_id)
        )

    async def notify_on(self, user_id: int) -> bool:
        """Whether the user wants turn mentions (``/notify``; on unless they said off)."""
        found = await self.delivery.book.state.state_get(
            platform=PLATFORM, kind=NOTIFY, scope=str(user_id)
        )
        return not (isinstance(found, dict) and found.get("on") is False)

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self.delivery.book.state.state_put(
            {"on": on}, platform=PLATFORM, kind=NOTIFY, scope=str(user_id)
        )

    async def wish(self, user_id: int) -> str | None:
        if user_id in self.wishes:
            return self.wishes[user_id]
        found = await self.delivery.book.state.state_get(
            platform=PLATFORM, kind=HANDS, scope=str(user_id)
        )
        wish = found if isinstance(found, str) else None
        if len(self.wishes) >= _USERS:
            self.wishes.clear()
        self.wishes[user_id] = wish or ""
        return wish

    async def set_wish(self, user_id: int, wish: str) -> None:
        if self.wishes.get(user_id) == wish:
            return
        self.wishes[user_id] = wish
        await self.delivery.book.state.state_put(
            wish, platform=PLATFORM, kind=HANDS, scope=str(user_id)
        )

    async def prefer_private(self, user_id: int) -> None:
        """The user asked for their hand in the private chat (the deep link)."""
        await self.set_wish(user_id, "private")

    async def hand(self, who: UserRef, table: TableInfo) -> HandView | None:
        result = await self.service.show(ChatRef(PLATFORM, table.chat_id), who, table.id)
        hands = [e for e in result.events if isinstance(e, HandView)]
        return hands[0] if hands else None

    async def resume(self) -> None:
        """At start: send the deletions a previous process left waiting."""
        await self.sweeper.resume()

    async def close(self) -> None:
        """On shutdown: stop waiting for feedback, keep the waiting deletions for the next
        start, finish the pictures' uploads."""
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.sweeper.close()
        if self.photos is not None:
            await self.photos.close()

    @contextlib.asynccontextmanager
    async def deleting_together(self) -> AsyncIterator[None]:
        """Messages deleted inside go in one ``deleteMessages`` per chat at the end: a move's
        posted message and the old turn mention cost one request, not two (a group allows
        the bot about 20 a minute, edits and deletions included)."""
        if self.trash.get() is not None:
            yield
            return
        trash: list[tuple[int, int, bool]] = []
        token = self.trash.set(trash)
        try:
            yield
        finally:
            self.trash.reset(token)
            await self.delete_now(trash)

    @contextlib.asynccontextmanager
    async def showing_table(self, table: TableInfo) -> AsyncIterator[None]:
        """Around a table message being shown by the delivery: the deletions it makes (the
        old copy) and the posted moves it now shows go together, in one ``deleteMessages``.
        Posted moves go only once the table message was shown (no error inside)."""
        trash: list[tuple[int, int, bool]] = []
        token = self.trash.set(trash)
        try:
            yield
            await self.posted_shown(table)
        finally:
            self.trash.reset(token)
            await self.delete_now(trash)

    async def posted_shown(self, table: TableInfo) -> None:
        """The table message shows ``table.version``: the posted moves it shows go."""
        if self.showing.get(table.id, -1) < table.version:
            self.showing[table.id] = table.version
        self.showing.move_to_end(table.id)
        while len(self.showing) > _USERS:
            self.showing.popitem(last=False)
        waiting = self.posted.get(table.id)
        if not waiting:
            return
        due = [entry for entry in waiting if entry[0] <= table.version]
        left = [entry for entry in waiting if entry[0] > table.version]
        if left:
            self.posted[table.id] = left
        else:
            del self.posted[table.id]
        for _, chat_id, message_id in due:
            await self.delete(chat_id, message_id, own=False)

    async def delete(self, chat_id: object, message_id: object, *, own: bool = True) -> None:
        """Delete a message (``own``: the bot's; else a user's, which needs admin rights)."""
        if not isinstance(chat_id, int) or not isinstance(message_id, int):
            return
        if not self.sweeper.may_delete(chat_id, own=own):
            return  # not an admin there (as of a few minutes ago): the message stays
        trash = self.trash.get()
        if trash is not None:
            trash.append((chat_id, message_id, own))
            return
        await self.delete_now([(chat_id, message_id, own)])

    async def delete_now(self, trash: list[tuple[int, int, bool]]) -> None:
        """Hand deletions to the sweeper: at once while the group's budget has room, else
        gathered into fewer ``deleteMessages`` calls (``bot.telegram.inline.sweeper``)."""
        if trash:
            await self.sweeper.add(trash)

    async def keep_offered(self, user_id: int) -> None:
        """Put the user's latest offered results in the adapter state (for a restart)."""
        ids = list(self.offered_ids.get(user_id, {}))[-OFFER_KEPT:]
        texts = [[t, r] for t, r in self.offered.get(user_id, {}).items() if r][-OFFER_KEPT:]
        handled: Mapping[str, Handled] = self.handled.get(user_id, {})
        made = [r for r, h in handled.items() if h.choice.kind == "move"][-OFFER_KEPT:]
        value = {
            "until": self.delivery.clock() + OFFER_TTL,
            "ids": ids,
            "texts": texts,
            "made": made,
        }
        try:
            await self.delivery.book.state.state_put(
                value, platform=PLATFORM, kind=OFFERED, scope=str(user_id)
            )
        except Exception as error:
            logger.warning("could not keep the results offered to %s: %s", user_id, error)

    async def recall_offered(self, user_id: int) -> None:
        """The results offered to the user before a restart (once per user and process)."""
        if user_id in self.offered_ids:
            return
        offered: OrderedDict[str, None] = self.per_user(self.offered_ids, user_id)
        try:
            found = await self.delivery.book.state.state_get(
                platform=PLATFORM, kind=OFFERED, scope=str(user_id)
            )
        except Exception as error:
            logger.warning("could not read the results offered to %s: %s", user_id, error)
            return
        if not isinstance(found, dict):
            return
        until = found.get("until")
        if not isinstance(until, int | float) or until < self.delivery.clock():
            return
        for result_id in listed(found.get("ids")):
            if isinstance(result_id, str) and result_id not in offered:
                self.remember(offered, result_id, None)
        # A result whose move was made before the restart: its other update (the posted message
        # after its feedback, or the reverse) or a second tap on it changes nothing, as within
        # one process, and is not refused as stale.
        handled: OrderedDict[str, Handled] = self.per_user(self.handled, user_id)
        for result_id in listed(found.get("made")):
            if isinstance(result_id, str) and result_id not in handled:
                self.remember(handled, result_id, Handled(Choice("move")))
        texts: dict[str, str] = {}
        for pair in listed(found.get("texts")):
            if isinstance(pair, list) and len(pair) == 2:
                text, result_id = pair
                if isinstance(text, str) and isinstance(result_id, str):
                    texts[text] = result_id
        known = self.per_user(self.offered, user_id)
        self.remember_offered(user_id, {t: r for t, r in texts.items() if t not in known})

    def lock(self, user_id: int) -> asyncio.Lock:
        lock = self.locks.get(user_id)
        if lock is None:
            lock = self.locks[user_id] = asyncio.Lock()
        return lock

    def table_lock(self, table_id: int) -> asyncio.Lock:
        lock = self.mention_locks.get(table_id)
        if lock is None:
            lock = self.mention_locks[table_id] = asyncio.Lock()
        return lock

    def remember_offered(self, user_id: int, texts: dict[str, str]) -> None:
        known = self.per_user(self.offered, user_id)
        back = self.per_user(self.texts, user_id)
        for text, result_id in texts.items():
            self.remember(known, text, result_id)
            if result_id:
                self.remember(back, result_id, text)

    @staticmethod
    def per_user(
        memory: OrderedDict[int, OrderedDict[_K, _V]], user_id: int
    ) -> OrderedDict[_K, _V]:
        found = memory.get(user_id)
        if found is None:
            found = memory[user_id] = OrderedDict()
            while len(memory) > _USERS:
                memory.popitem(last=False)
        memory.move_to_end(user_id)
        return found

    @staticmethod
    def remember(memory: OrderedDict[_K, _V], key: _K, value: _V) -> None:
        memory[key] = value
        memory.move_to_end(key)
        while len(memory) > REMEMBERED:
            memory.popitem(last=False)
