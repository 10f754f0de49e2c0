"""Service events -> Telegram messages, each in its place.

* Lobby and table views (to a chat) edit the table's message in place; a new one is posted when
  the old one has scrolled too far up. Short button-less announcements of a table ("Scopa!",
  "the cards are dealt") are folded into that message instead of being posted on their own.
* Hands (to a user) edit the player's private message in place. When Telegram refuses a private
  message (403: the user never opened the bot), the table's chat gets, once, a deep-link button
  that opens the private chat; ``/start`` from it delivers the hand. The refusal is remembered
  (in the adapter state, with a copy in memory) so the next hands and notices do not knock again;
  ``/start`` clears it, and after ``retry_blocked_after`` seconds the next hand tries anyway (the
  user may have opened the chat some other way).
* Everything else is posted as a new message.

With pictures on (``IMAGES``), a table, a hand and the /stats reply are photo messages whose
caption is the text view (past 1024 characters: the picture alone, the text under it). A changed
picture is swapped in place with ``editMessageMedia``; an unchanged one only gets its caption and
keyboard edited, and a picture uploaded once is sent again by Telegram's file id. Message ids and
file ids live in the adapter state (the store), so restarts and other processes share them.

Why this file is over 600 lines: ``Delivery`` holds the showing of every event kind (the
table message and its copies, the hands, notices, the web table's buttons and coalesced edits),
which share the message book and each message's state. Its lanes, healing, private chats and
photo files are parts it holds, one module each.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import TelegramError

from bot.render import SELECT, Renderer, selection_of
from bot.render import Message as Rendered
from bot.render.images import RenderedImage
from bot.render.pictures import Pictures
from bot.service import (
    Announcement,
    Audience,
    ChatRef,
    Event,
    GameOver,
    HandView,
    LobbyView,
    Result,
    Stats,
    TableEvent,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
    decode_button,
)
from bot.telegram import phrases
from bot.telegram.book import Blocked, MessageBook, Shown
from bot.telegram.healing import HEAL_EVERY, Healing
from bot.telegram.ids import PLATFORM, chat_key, deep_link, hand_payload, where_of
from bot.telegram.inline_hooks import InlineHooks, NoInline
from bot.telegram.lanes import (
    CLOSE_WAIT,
    GATE_TIMEOUT,
    LATE_CALLS,
    RESYNC_AFTER,
    RETRY_DELAYS,
    Lanes,
    RetryPolicy,
)
from bot.telegram.limiter import PRIORITY, Priority
from bot.telegram.messenger import BlockedError, Messenger, Where
from bot.telegram.outbox import Ticket, asked_hands, foldable
from bot.telegram.photo_files import FILE, PhotoFiles
from bot.telegram.private_chats import RECHECK_BLOCKED_AFTER, RETRY_BLOCKED_AFTER, PrivateChats

if TYPE_CHECKING:
    from bot.telegram.web_links import WebLinks

__all__ = [
    "CAPTION_LIMIT",
    "CLOSE_WAIT",
    "FILE",
    "GATE_TIMEOUT",
    "HEAL_EVERY",
    "LATE_CALLS",
    "RECHECK_BLOCKED_AFTER",
    "RESYNC_AFTER",
    "RETRY_BLOCKED_AFTER",
    "RETRY_DELAYS",
    "Delivery",
    "Ticket",
    "keyboard",
]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

# Button actions drawn on a table's public message / on a player's private hand message.
_PUBLIC_ACTIONS = ("@join", "@leave", "@start", "@fill", "@ai", "@seat", "@hand", "@rematch")
# Telegram's caption limit: a longer text goes as a text message under its picture.
CAPTION_LIMIT = 1024
# Adapter-state kind: the old copies of a table message left in its chat (posted anew below
# them), ``[Shown.to_json(), ...]`` per chat; the latest MAX_COPIES are closed with the table.
COPIES = "copies"
MAX_COPIES = 20


def keyboard(rendered: Rendered) -> InlineKeyboardMarkup | None:
    """The renderer's button rows as an inline keyboard (``None`` when there are none)."""
    rows = [
        [InlineKeyboardButton(button.label, callback_data=button.data) for button in row]
        for row in rendered.buttons
        if row
    ]
    return InlineKeyboardMarkup(rows) if rows else None


class Delivery:
    """Puts rendered events on Telegram; remembers which message shows what.

    Its parts, one module each: ``self.lanes`` (``bot.telegram.lanes.Lanes``: a table's results
    queued per chat, one call at a time, only the newest state of a message sent, a failed call
    retried with backoff and the table delivered anew after giving up; the delivery is their
    ``Placer``), ``self.healing`` (``bot.telegram.healing.Healing``: each message behind its
    table's version after a restart, a stale press, a moved chat), ``self.private_chats``
    (``bot.telegram.private_chats``: refused private chats) and ``self.photo_files``
    (``bot.telegram.photo_files``: pictures sent again by file id). This class puts one event
    in its place: the table's message, the player's hand, a new message.
    """

    def __init__(
        self,
        *,
        bot: Callable[[], Bot],
        renderer: Renderer,
        book: MessageBook,
        pictures: Pictures | None = None,
        retry_blocked_after: float = RETRY_BLOCKED_AFTER,
        clock: Callable[[], float] = time.time,
        views: Callable[[int], Awaitable[Result]] | None = None,
        service: TableService | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        resync_after: float = RESYNC_AFTER,
    ) -> None:
        # A getter, not a Bot: the Application (and its bot) is built after the adapter.
        self._bot = bot
        self._renderer = renderer
        self.book = book
        self.pictures = pictures
        self.clock = clock
        # (Through ``self.clock``: tests and restarts may set it later.)
        self.private_chats = PrivateChats(
            book=book, clock=lambda: self.clock(), retry_blocked_after=retry_blocked_after
        )
        self.photo_files = PhotoFiles(book)
        # Every view of a table as it stands (the service's ``views``): to heal after a failure;
        # after a restart, with the turn notice of the player to move.
        self._views = views if views is not None or service is None else service.views
        restart_views = views
        if views is None and service is not None:
            restart_views = functools.partial(service.views, notice=True)
        # To move a group's tables when Telegram says it became a supergroup.
        self._service = service
        self.lanes = Lanes(
            placer=self,
            book=book,
            renderer=renderer,
            views=self._views,
            retry=RetryPolicy(delays=retry_delays, resync_after=resync_after),
        )
        self.healing = Healing(lanes=self.lanes, book=book, restart_views=restart_views)
        # Inline play (bot.telegram.inline), set once built: its hooks decide the group's
        # "My cards" button, which hands go privately and the turn mentions.
        self.inline: InlineHooks = NoInline()
        # The web table (bot.telegram.web_links), when served: its buttons, who is looking,
        # and the group table edits held back while pages show the table.
        self.web: WebLinks | None = None
        self._held: dict[int, TableView] = {}
        self._held_tasks: dict[int, asyncio.Task[None]] = {}
        self._edited_at: dict[int, float] = {}

    # The parts given to the delivery, as the adapter and inline play call them.
    async def unblocked(self, user_id: int) -> None:
        """The user opened the private chat: hands go there again (in every process)."""
        await self.private_chats.unblocked(user_id)

    async def refuses_private(self, user_id: int) -> bool:
        """Whether the user's private chat is known to refuse messages."""
        return await self.private_chats.refuses_private(user_id)

    async def with_photo(
        self, image: RenderedImage, call: Callable[[bytes | str], Awaitable[_T]]
    ) -> _T:
        """``call`` with the picture's known file id, or its bytes."""
        return await self.photo_files.with_photo(image, call)

    async def learn_file(self, image: RenderedImage, file_id: str | None) -> None:
        """Remember the file id Telegram gave a picture."""
        await self.photo_files.learn_file(image, file_id)

    # The lanes and the healing, as the adapter and inline play call them.
    def submit(
        self, result: Result, *, origin: Where | None, gate: asyncio.Event | None = None
    ) -> Ticket:
        """Queue a result's messages in its table's lanes and return at once (``gate``: they
        wait until it is set)."""
        return self.lanes.submit(result, origin=origin, gate=gate)

    def delivering(self, table_id: int) -> bool:
        """Whether messages of the table are queued or on their way."""
        return self.lanes.delivering(table_id)

    async def settled(self, *, rounds: int = 100) -> None:
        """Wait until nothing is being delivered (tests; bounded)."""
        await self.lanes.settled(rounds=rounds)

    async def heal(self, shown: Result, *, user_id: int) -> None:
        """After a stale or refused press: the presser's hand again (see ``Healing.heal``)."""
        await self.healing.heal(shown, user_id=user_id)

    async def migrated(self, service: TableService, old: int, new: int) -> None:
        """Chat ``old`` became ``new``: its open tables follow."""
        await self.healing.migrated(service, old, new)

    def start_redelivery(self, versions: Awaitable[dict[int, int]]) -> None:
        """After a restart: each message behind its table's version delivered anew."""
        self.healing.start_redelivery(versions)

    @property
    def messenger(self) -> Messenger:
        return Messenger(self._bot())

    async def say(
        self, where: Where, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None:
        """Post a text; ``None`` if Telegram refused (a private chat never opened), or refuses
        that private chat as far as we know."""
        private = where.chat_id > 0  # Telegram: users' (private chats') ids are positive
        if private and await self.private_chats.is_blocked(where.chat_id):
            return None
        try:
            message_id = await self.messenger.send(where, text, markup)
        except BlockedError:
            if private:
                await self.private_chats.refused(where.chat_id)
            return None
        if private and self.private_chats.known(where.chat_id) is not None:
            await self.unblocked(where.chat_id)  # a retry got through: the chat is open now
        self.book.saw(where.chat_id, message_id)
        return message_id

    async def deliver(self, result: Result, *, origin: Where | None) -> None:
        """Deliver the events of a result in order and wait until they are out.
        ``origin``: where the request came from."""
        if result.table is None:
            async with self.book.batch():
                events, asked = asked_hands(list(result.events))
                self.inline.plan(events)
                await self._deliver_chain(events, origin=origin, asked=asked)
            return
        await self.submit(result, origin=origin).wait()

    # --- the lanes' ``Placer`` ---------------------------------------------------------------

    def plan(self, events: Sequence[Event]) -> None:
        """A table's result is about to be queued: inline play plans its turn mentions."""
        self.inline.plan(events)

    async def close_table(self, table_id: int, table: TableInfo | None) -> None:
        """The table is over: its hands lose their buttons, inline play clears its mention,
        the copies of an abandoned table's message are closed."""
        await self._close_hands(table_id)
        if table is not None:
            await self.inline.table_closed(table)
            await self._close_copies(table)

    async def chat_migrated(self, old: int, new: int) -> None:
        """A call said chat ``old`` is now ``new``: its tables follow it."""
        if self._service is not None:
            await self.healing.migrated(self._service, old, new)

    async def _deliver_chain(
        self, events: list[Event], *, origin: Where | None, asked: frozenset[int] = frozenset()
    ) -> None:
        folded: dict[int, list[str]] = {}
        for index, event in enumerate(events):
            try:
                if isinstance(event, Announcement) and foldable(event, events[index + 1 :]):
                    folded.setdefault(event.table.id, []).append(self._renderer.render(event).text)
                    continue
                extra = folded.pop(event.table.id, []) if isinstance(event, TableView) else []
                await self.place(event, origin=origin, extra=extra, asked=asked)
            except BlockedError as error:
                logger.info("chat %s cannot be written to", error.chat_id)
            except TelegramError as error:
                # One message Telegram refuses must not keep the others (the hands) from going.
                logger.warning("could not deliver %s: %s", type(event).__name__, error)
            if isinstance(event, GameOver) or (
                isinstance(event, Announcement) and event.kind == "abandoned"
            ):
                await self.close_table(event.table.id, event.table)
                await self.book.forget_table(event.table.id)

    async def _close_hands(self, table_id: int) -> None:
        """The table is over: its hands lose their buttons, so nobody presses into the void."""
        for shown in await self.book.private_of(table_id):
            try:
                await self.messenger.edit_markup(shown.where, shown.message_id, None)
            except TelegramError as error:
                logger.info("could not clear the buttons of a hand: %s", error)

    async def learn(self, message: Message, data: str, *, user_id: int) -> None:
        """A press on ``message`` tells which message shows a table (re-learned after a restart)."""
        try:
            button = decode_button(data)
        except ValueError:
            return
        public = button.action.startswith(_PUBLIC_ACTIONS)
        if message.chat.type == "private":
            # "@hand" is ambiguous in private (a hand's "Back", or a quick game's "My hand").
            hand = not public and message.chat.id == user_id
            if hand and await self.book.private(button.table_id, user_id) is None:
                # A photo message stays one: its picture is replaced in place later.
                shown = Shown(Where(user_id), message.message_id, photo=bool(message.photo))
                await self.book.keep_private(button.table_id, user_id, shown)
        elif public:
            thread = message.message_thread_id if message.is_topic_message else None
            where = Where(message.chat.id, thread if message.chat.is_forum else None)
            if await self.book.public(button.table_id, where) is None:
                shown = Shown(where, message.message_id, photo=bool(message.photo))
                await self.book.keep_public(button.table_id, shown)

    # --- one event ---------------------------------------------------------------------------

    async def place(
        self,
        event: Event,
        *,
        origin: Where | None,
        extra: list[str],
        asked: frozenset[int] = frozenset(),
    ) -> None:
        """Put one event in its place (``extra``: announcements folded into a table view;
        ``asked``: the users who asked for their hand, surfaced at the bottom of the chat)."""
        if (
            isinstance(event, HandView)
            and self._renderer.picks_cards(event.table.family)
            and (event.focus is None or event.focus.startswith(SELECT))
        ):
            # On a phone Scala 40 is played by tapping cards: the hand starts with an empty
            # selection, and each tap comes back (as a "?#<mask>" press) with the new one.
            event = replace(event, focus=event.focus or SELECT + "0")
        rendered = self._renderer.render(event)
        text = "\n".join([rendered.text, *extra]) if extra else rendered.text
        markup = keyboard(rendered)
        if isinstance(event, TableView):
            markup = self.inline.table_markup(event, markup)
        if self.web is not None:
            if isinstance(event, HandView | TurnNotice) and self.web.looking(
                int(event.audience.id), event.table.id
            ):
                return  # they follow the table in its page
            markup = self._web_button(event, markup)
        if event.audience.kind == "chat":
            await self._deliver_public(event, text, markup)
            return
        user_id = int(event.audience.id)
        if isinstance(event, HandView):
            if not await self.inline.private_hand(
                event,
                user_id,
                asked=user_id in asked or (origin is not None and origin.chat_id == user_id),
            ):
                return  # the player plays inline, from the group
            image = None
            if self.pictures is not None:
                selected = selection_of(event.focus, len(getattr(event.view, "hand", ())))
                image = await self.pictures.hand(event, selected=selected)
            # Surfaced only when asked from elsewhere (the group): a press in the private chat
            # itself ("« Back" on the hand) edits the hand where it is.
            surface = user_id in asked and (origin is None or origin.chat_id != user_id)
            await self._show_hand(event, user_id, text, markup, image, asked=surface)
        elif isinstance(event, TurnNotice):
            if not await self.inline.turn_notice(event, user_id):
                await self._notice(event, user_id, text)
        elif (
            await self._say_event(event, Where(user_id), text, markup) is None
            and origin is not None
            and not self._shown_in(event, origin)
        ):
            await self._say_where_asked(event, origin, text, markup)

    async def _deliver_public(
        self, event: Event, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        """A chat's event: the table message shown (edited or posted), or a message said."""
        where = where_of(event.audience.id)
        if not isinstance(event, LobbyView | TableView):
            await self._say_event(event, where, text, markup)
            return
        image = None
        if isinstance(event, TableView) and self.pictures is not None:
            image = await self.pictures.table(event)
        if isinstance(event, TableView):
            # The old copy and the posted moves it now shows go in one deletion.
            async with self.inline.showing_table(event.table):
                await self._show_table(event, where, text, markup, image)
                await self.inline.table_shown(event)
        else:
            await self._show_table(event, where, text, markup, image)

    async def _say_where_asked(
        self, event: Event, origin: Where, text: str, markup: InlineKeyboardMarkup | None
    ) -> None:
        """Not secret (rules, stats) and the private chat closed: say it where it was asked,
        in a group in the group's language (public messages follow the chat's)."""
        if origin.chat_id < 0 and self._service is not None:
            locale = await self._service.chat_locale(ChatRef(PLATFORM, chat_key(origin)))
            if locale != event.locale:
                public = replace(event, locale=locale)
                rendered = self._renderer.render(public)
                text, markup = rendered.text, keyboard(rendered)
                event = public
        await self._say_event(event, origin, text, markup)

    def _web_button(
        self, event: Event, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        """The button that opens the table's web page: on a table's chat message (a group's
        opens the Mini App's link) and on a private hand."""
        assert self.web is not None
        if not isinstance(event, LobbyView | TableView | HandView):
            return markup
        if event.table.status not in ("lobby", "playing"):
            return markup
        private = event.audience.kind == "user" or where_of(event.table.chat_id).chat_id > 0
        try:
            username = self._bot().username
        except RuntimeError:
            username = None
        return self.web.with_button(
            markup, event.table.id, event.locale, private=private, bot_username=username
        )

    def _hold(self, event: TableEvent) -> bool:
        """While pages show the table and the player to move is one of them (or a computer),
        its group message is edited at most once every ``web.coalesce`` seconds: the newest
        view waits for its turn (True: held). A player to move who follows the group (inline,
        buttons) gets the group's message at once."""
        web = self.web
        if web is None or not isinstance(event, TableView) or event.table.status != "playing":
            return False
        if self.lanes.closing:
            return False
        table_id = event.table.id
        if not web.watched(table_id):
            return False
        current = event.table.current_seat
        seat = event.table.seats[current] if current is not None else None
        if (
            seat is not None
            and not seat.plays_as_computer
            and not (seat.user_id.isdigit() and web.looking(int(seat.user_id), table_id))
        ):
            return False  # the player to move follows the group's message: it goes now
        wait = self._edited_at.get(table_id, -1e18) + web.coalesce - self.clock()
        if wait <= 0:
            return False
        held = self._held.get(table_id)
        if held is None or held.table.version < event.table.version:
            self._held[table_id] = event
        if table_id not in self._held_tasks:
            task = asyncio.create_task(self._release(table_id, wait))
            self._held_tasks[table_id] = task
        return True

    async def _release(self, table_id: int, wait: float) -> None:
        try:
            await asyncio.sleep(wait)
        finally:
            self._held_tasks.pop(table_id, None)
        event = self._held.pop(table_id, None)
        if event is not None and not self.lanes.closing:
            self.submit(Result([event], event.table), origin=None)

    async def close(self, *, grace: float = 2.0) -> None:
        """The views held back for the group go out first (within the grace)."""
        held = list(self._held.values())
        for task in list(self._held_tasks.values()):
            task.cancel()
        self._held.clear()
        self._held_tasks.clear()
        self._edited_at.clear()  # nothing is held any more
        for event in held:
            self.submit(Result([event], event.table), origin=None)
        await self.lanes.close(grace=grace)

    def _unhold(self, table_id: int) -> None:
        """A newer view goes out now: the held one is dropped."""
        self._held.pop(table_id, None)
        task = self._held_tasks.pop(table_id, None)
        if task is not None:
            task.cancel()

    @staticmethod
    def _shown_in(event: Event, where: Where) -> bool:
        """A table or lobby view asked for from its own chat: the table message there shows it
        already (a "My hand" press by a user whose private chat is refused would otherwise post
        a copy of the table in the group at every press)."""
        return (
            isinstance(event, TableView | LobbyView)
            and where_of(event.table.chat_id).chat_id == where.chat_id
        )

    async def _say_event(
        self, event: Event, where: Where, text: str, markup: InlineKeyboardMarkup | None
    ) -> int | None:
        """A new message; the /stats one with its rating chart when pictures are on."""
        image = None
        if isinstance(event, Stats) and self.pictures is not None:
            image = await self.pictures.stats(event)
        if image is None:
            return await self.say(where, text, markup)
        try:
            shown = await self._post(where, 0, text, markup, image)
        except BlockedError:
            return None
        self.book.saw(where.chat_id, shown.message_id)
        return shown.message_id

    async def _show_table(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None = None,
    ) -> None:
        if await self.inline.table_with_mention(event, where, text, markup, image):
            self._edited(event)
            return  # posted anew with the turn's mention
        if self._hold(event):
            return
        shown = await self.book.public(event.table.id, where)
        version = event.table.version
        if shown is not None and version < shown.version:
            return  # a newer view is already showing
        if shown is not None and self.book.scrolled_away(shown):
            shown_now = await self._post(where, version, text, markup, image)
        else:
            shown_now = await self._put(where, shown, version, text, markup, image)
        if shown is not None and shown_now.message_id != shown.message_id and markup is not None:
            # The old copy's buttons would only confuse: the new message has them.
            await self.messenger.edit_markup(where, shown.message_id, None)
        if shown is not None and shown_now.message_id != shown.message_id:
            await self._keep_copy(event.table.id, shown)
        await self.book.keep_public(event.table.id, shown_now)
        self._edited(event)

    def _edited(self, event: TableEvent) -> None:
        if self.web is None:
            return
        held = self._held.get(event.table.id)
        if held is not None and held.table.version <= event.table.version:
            self._unhold(event.table.id)
        self._edited_at[event.table.id] = self.clock()
        while len(self._edited_at) > 10_000:
            self._edited_at.pop(next(iter(self._edited_at)))

    async def _keep_copy(self, table_id: int, shown: Shown) -> None:
        """An old copy of a table message stays in its chat (the table was posted anew below
        it): noted, so closing the table closes it too."""
        scope = chat_key(shown.where)
        try:
            found = await self.book.state.state_get(
                platform=PLATFORM, kind=COPIES, scope=scope, table_id=table_id
            )
            copies = [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []
            copies = [*copies, shown.to_json()][-MAX_COPIES:]
            await self.book.state.state_put(
                copies, platform=PLATFORM, kind=COPIES, scope=scope, table_id=table_id
            )
        except Exception as error:
            logger.warning("could not note an old copy of table %s: %s", table_id, error)

    async def _close_copies(self, table: TableInfo) -> None:
        """A table closed without an end (``/abandon``): every copy of its message in its
        chat that still shows it open is edited to the closed table, without buttons, and the
        chat's deletions waiting for the budget (old copies, turn mentions, posted moves, all
        with buttons) go now. Before the table's adapter state is forgotten."""
        if table.status != "abandoned":
            return
        try:
            await self._close_each_copy(table)
        except Exception as error:
            # (the table's adapter state is forgotten after this in any case)
            logger.warning("could not close the copies of table %s: %s", table.id, error)

    async def _close_each_copy(self, table: TableInfo) -> None:
        try:
            where = where_of(table.chat_id)
        except ValueError:
            return
        scope = chat_key(where)
        found = await self.book.state.state_get(
            platform=PLATFORM, kind=COPIES, scope=scope, table_id=table.id
        )
        copies = [
            copy
            for entry in (found if isinstance(found, list) else [])
            if (copy := Shown.from_json(entry)) is not None
        ]
        current = await self.book.public(table.id, where)
        # The current message first, then the copies from the newest (the most in sight).
        ordered = [current, *reversed(copies)]
        live = [c for c in ordered if c is not None and c.version < table.version]
        if live:
            text = await self._closed_text(table)
            short = (
                text if len(text) <= CAPTION_LIMIT else await self._closed_text(table, full=False)
            )
            for copy in live:
                try:
                    if copy.photo:
                        await self.messenger.edit_caption(where, copy.message_id, short, None)
                    else:
                        await self.messenger.edit(where, copy.message_id, text, None)
                except TelegramError as error:
                    logger.info("could not close a copy of table %s: %s", table.id, error)
        self.inline.hurry(where.chat_id)

    async def _closed_text(self, table: TableInfo, *, full: bool = True) -> str:
        """The table message of a closed table: its last state saying it was closed (a lobby,
        or not ``full``: only that it was closed)."""
        if full and self._views is not None and table.status == "abandoned":
            try:
                views = await self._views(table.id)
            except Exception as error:
                logger.info("could not read the closed table %s: %s", table.id, error)
            else:
                for event in views.events:
                    if isinstance(event, TableView) and event.audience.kind == "chat":
                        return self._renderer.render(event).text
        locale = None
        if self._service is not None:
            locale = await self._service.chat_locale(ChatRef(PLATFORM, table.chat_id))
        audience = Audience("chat", PLATFORM, table.chat_id)
        lobby = LobbyView(audience=audience, locale=locale or "it", table=table)
        return self._renderer.render(lobby).text

    async def _show_hand(
        self,
        event: HandView,
        user_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None = None,
        *,
        asked: bool = False,
    ) -> None:
        """Edit the player's hand message in place; when the player asked for it ("My hand")
        and other messages came after it in the private chat, post it anew at the bottom (the
        old one loses its buttons)."""
        table_id = event.table.id
        if await self.private_chats.is_blocked(user_id):
            mark = self.private_chats.known(user_id)  # (as is_blocked refreshed it)
            assert mark is not None
            await self._offer_link(event, user_id, mark)
            return
        shown = await self.book.private(table_id, user_id)
        if shown is not None and event.table.version < shown.version:
            return
        try:
            if asked and shown is not None and self.book.newer_than(shown):
                shown_now = await self._post(
                    Where(user_id), event.table.version, text, markup, image
                )
            else:
                shown_now = await self._put(
                    Where(user_id), shown, event.table.version, text, markup, image
                )
        except BlockedError:
            await self._offer_link(event, user_id, await self.private_chats.refused(user_id))
            return
        if self.private_chats.known(user_id) is not None:
            await self.unblocked(user_id)  # a retry got through: the chat is open now
        if shown is not None and shown_now.message_id != shown.message_id:
            # Posted anew (asked for, or a picture replaced by a text): the old copy's buttons
            # would only confuse.
            with contextlib.suppress(TelegramError):
                await self.messenger.edit_markup(Where(user_id), shown.message_id, None)
        await self.book.keep_private(table_id, user_id, shown_now)

    # --- one message, with or without its picture --------------------------------------------

    async def _put(
        self,
        where: Where,
        shown: Shown | None,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        """Edit ``shown`` in place when it can show this, else post anew; what shows it now."""
        if shown is not None:
            edited = await self._edit(shown, version, text, markup, image)
            if edited is not None:
                return edited
        return await self._post(where, version, text, markup, image)

    async def _edit(
        self,
        shown: Shown,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown | None:
        """``None`` when ``shown`` cannot become this message (a text cannot turn into a photo
        message, nor back): the caller posts a new one."""
        messenger, where = self.messenger, shown.where
        if image is None:
            if shown.photo or shown.companion is not None:
                return None
            if not await messenger.edit(where, shown.message_id, text, markup):
                return None
            return replace(shown, version=version)
        if len(text) <= CAPTION_LIMIT:
            if not shown.photo:
                return None
            if shown.digest == image.digest:
                # The same picture: only the caption and buttons change, nothing is uploaded.
                ok = await messenger.edit_caption(where, shown.message_id, text, markup)
            else:
                ok, file_id = await self.photo_files.with_photo(
                    image,
                    lambda photo: messenger.edit_photo(
                        where,
                        shown.message_id,
                        photo,
                        filename=image.filename,
                        caption=text,
                        markup=markup,
                    ),
                )
                await self.photo_files.learn_file(image, file_id)
            return replace(shown, version=version, digest=image.digest) if ok else None
        if shown.photo or shown.companion is None:
            return None
        if shown.digest != image.digest:
            companion = shown.companion
            ok, file_id = await self.photo_files.with_photo(
                image,
                lambda photo: messenger.edit_photo(
                    where, companion, photo, filename=image.filename
                ),
            )
            await self.photo_files.learn_file(image, file_id)
            if not ok:
                return None
        if not await messenger.edit(where, shown.message_id, text, markup):
            return None
        return replace(shown, version=version, digest=image.digest)

    async def _post(
        self,
        where: Where,
        version: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> Shown:
        messenger = self.messenger
        if image is None:
            message_id = await messenger.send(where, text, markup)
            return Shown(where, message_id, version)
        if len(text) <= CAPTION_LIMIT:
            message_id, file_id = await self.photo_files.with_photo(
                image,
                lambda photo: messenger.send_photo(
                    where, photo, filename=image.filename, caption=text, markup=markup
                ),
            )
            await self.photo_files.learn_file(image, file_id)
            return Shown(where, message_id, version, photo=True, digest=image.digest)
        # Too long for a caption: the picture, then the text with the buttons under it.
        companion, file_id = await self.photo_files.with_photo(
            image, lambda photo: messenger.send_photo(where, photo, filename=image.filename)
        )
        await self.photo_files.learn_file(image, file_id)
        message_id = await messenger.send(where, text, markup)
        return Shown(where, message_id, version, digest=image.digest, companion=companion)

    async def _offer_link(self, event: HandView, user_id: int, mark: Blocked) -> None:
        """Once per table, player and spell of refusal: a button in the table's chat that opens
        the private chat."""
        if await self.book.linked(event.table.id, user_id) == mark.token:
            return
        bot = self._bot()
        # Said in the table's chat: in its language (a public message), not the player's.
        locale = event.locale
        if self._service is not None:
            locale = await self._service.chat_locale(ChatRef(PLATFORM, event.table.chat_id))
        t = self._renderer.translations(locale)
        seat = event.table.seats[event.seat]
        name = seat.name if seat is not None else ""
        url = deep_link(bot.username, hand_payload(event.table.id))
        button = InlineKeyboardButton(t.gettext(phrases.OPEN_PRIVATE_BUTTON), url=url)
        text = t.gettext(phrases.OPEN_PRIVATE_CHAT).format(name=name)
        where = where_of(event.table.chat_id)
        if await self.say(where, text, InlineKeyboardMarkup([[button]])) is not None:
            await self.book.keep_linked(event.table.id, user_id, mark.token)

    async def _notice(self, event: TurnNotice, user_id: int, text: str) -> None:
        """A fresh message notifies (an edit does not); the previous notice is removed. A
        notice whose turn has passed by now (a newer state of the table was submitted
        meanwhile) is not sent."""
        if await self.private_chats.is_blocked(user_id):
            return
        table_id = event.table.id
        old = await self.book.notice(table_id, user_id)
        if self.lanes.turn_passed(event):
            return
        message_id = await self.say(Where(user_id), text)
        if message_id is None:
            return
        await self.book.keep_notice(table_id, user_id, message_id, event.table.version)
        if old is not None and old != message_id:
            token = PRIORITY.set(Priority.CLEANUP)  # after everybody's hands
            try:
                await self._bot().delete_message(chat_id=user_id, message_id=old)
            except Exception as error:
                logger.debug("could not delete notice %s: %s", old, error)
            finally:
                PRIORITY.reset(token)
