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
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.error import TelegramError

from bot.domain import Action, Verb
from bot.render import SELECT, Renderer, selection_of
from bot.render import Message as Rendered
from bot.render.images import RenderedImage
from bot.render.pictures import Pictures
from bot.service import (
    Announcement,
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
)
from bot.telegram import phrases
from bot.telegram.book import Blocked, MessageBook, Shown
from bot.telegram.copies import TableCopies
from bot.telegram.healing import Healing
from bot.telegram.ids import PLATFORM, chat_key, deep_link, hand_payload, where_of
from bot.telegram.inline_hooks import InlineHooks, NoInline
from bot.telegram.lanes import RESYNC_AFTER, RETRY_DELAYS, Lanes, RetryPolicy
from bot.telegram.limiter import PRIORITY, Priority
from bot.telegram.messenger import BlockedError, Messenger, Where
from bot.telegram.outbox import Ticket, asked_hands, foldable
from bot.telegram.photo_files import PhotoFiles
from bot.telegram.private_chats import RETRY_BLOCKED_AFTER, PrivateChats
from bot.telegram.web_edits import HeldEdits
from bot.telegram.web_links import WebLinks
from bot.telegram.writer import Writer

__all__ = ["Delivery", "Ticket", "keyboard"]

logger = logging.getLogger(__name__)

# The verbs of the buttons drawn on a table's public message (not on a private hand).
_PUBLIC_VERBS = frozenset(
    {Verb.JOIN, Verb.LEAVE, Verb.START, Verb.FILL, Verb.AI, Verb.SEAT, Verb.HAND, Verb.REMATCH}
)


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
    (``bot.telegram.private_chats``: refused private chats), ``self.photo_files``
    (``bot.telegram.photo_files``: pictures sent again by file id), ``self.writer``
    (``bot.telegram.writer``: one message, with or without its picture, posted or edited),
    ``self.copies`` (``bot.telegram.copies``: the old copies of a table message) and
    ``self.held_edits`` (``bot.telegram.web_edits``: the group's table message held back while
    web pages show it). This class puts one event in its place: the table's message, the
    player's hand, a new message.
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
        self.writer = Writer(bot=bot, photo_files=self.photo_files)
        # Every view of a table as it stands (the service's ``views``): to heal after a failure;
        # after a restart, with the turn notice of the player to move.
        every_view = views if views is not None or service is None else service.views
        restart_views = views
        if views is None and service is not None:
            restart_views = functools.partial(service.views, notice=True)
        # To move a group's tables when Telegram says it became a supergroup.
        self._service = service
        self.lanes = Lanes(
            placer=self,
            book=book,
            renderer=renderer,
            views=every_view,
            retry=RetryPolicy(delays=retry_delays, resync_after=resync_after),
        )
        self.healing = Healing(lanes=self.lanes, book=book, restart_views=restart_views)
        self.copies = TableCopies(
            book=book,
            writer=self.writer,
            renderer=renderer,
            views=every_view,
            service=service,
            hurry=lambda chat_id: self.inline.hurry(chat_id),  # (inline play is set later)
        )
        # Inline play (bot.telegram.inline), set once built: its hooks decide the group's
        # "My cards" button, which hands go privately and the turn mentions.
        self.inline: InlineHooks = NoInline()
        # The web table (bot.telegram.web_links), when served: its buttons, who is looking,
        # and the group table edits held back while pages show the table.
        self.web: WebLinks | None = None
        self.held_edits = HeldEdits(lanes=self.lanes, clock=lambda: self.clock())

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
        return self.writer.messenger

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
            # A retry got through: the chat is open now.
            await self.private_chats.unblocked(where.chat_id)
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
            await self.copies.close(table)

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

    async def learn(self, message: Message, button: Action, *, user_id: int) -> None:
        """A press on ``message`` tells which message shows a table (re-learned after a restart)."""
        public = button.verb in _PUBLIC_VERBS
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
        """Whether the web table holds the group's table message back for now."""
        return self.web is not None and self.held_edits.hold(self.web, event)

    def _edited(self, event: TableEvent) -> None:
        if self.web is not None:
            self.held_edits.edited(event)

    async def close(self, *, grace: float = 2.0) -> None:
        """Stop: the views held back for the group go out first (within the grace)."""
        for event in self.held_edits.release_all():
            self.submit(Result([event], event.table), origin=None)
        await self.lanes.close(grace=grace)

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
            shown = await self.writer.post(where, 0, text, markup, image)
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
            shown_now = await self.writer.post(where, version, text, markup, image)
        else:
            shown_now = await self.writer.put(where, shown, version, text, markup, image)
        if shown is not None and shown_now.message_id != shown.message_id and markup is not None:
            # The old copy's buttons would only confuse: the new message has them.
            await self.messenger.edit_markup(where, shown.message_id, None)
        if shown is not None and shown_now.message_id != shown.message_id:
            await self.copies.keep(event.table.id, shown)
        await self.book.keep_public(event.table.id, shown_now)
        self._edited(event)

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
                shown_now = await self.writer.post(
                    Where(user_id), event.table.version, text, markup, image
                )
            else:
                shown_now = await self.writer.put(
                    Where(user_id), shown, event.table.version, text, markup, image
                )
        except BlockedError:
            await self._offer_link(event, user_id, await self.private_chats.refused(user_id))
            return
        if self.private_chats.known(user_id) is not None:
            # A retry got through: the chat is open now.
            await self.private_chats.unblocked(user_id)
        if shown is not None and shown_now.message_id != shown.message_id:
            # Posted anew (asked for, or a picture replaced by a text): the old copy's buttons
            # would only confuse.
            with contextlib.suppress(TelegramError):
                await self.messenger.edit_markup(Where(user_id), shown.message_id, None)
        await self.book.keep_private(table_id, user_id, shown_now)

    # --- one message, with or without its picture --------------------------------------------

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
