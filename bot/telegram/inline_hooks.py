"""What the delivery and inline play ask of each other, as Protocols: neither imports the other.

``bot.telegram.inline.InlinePlay`` implements ``InlineHooks``; without inline play the delivery
is given ``NoInline``, which keeps everything as before inline play (hands in private, turn
notices in private, the table message edited in place). ``bot.telegram.delivery.Delivery``
implements ``InlineDelivery``, what inline play is given of it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from telegram import InlineKeyboardMarkup

from bot.render.images import RenderedImage
from bot.service import Event, HandView, Result, TableEvent, TableInfo, TableView, TurnNotice
from bot.telegram.book import MessageBook
from bot.telegram.messenger import Where
from bot.telegram.outbox import Ticket
from bot.telegram.photo_files import PhotoFiles
from bot.telegram.private_chats import PrivateChats
from bot.telegram.web_links import WebLinks


class InlineHooks(Protocol):
    """The delivery's hooks for inline play (see ``bot.telegram.inline``)."""

    def plan(self, events: Sequence[Event]) -> None:
        """A result is about to be delivered: which turn notices ride in their table message."""

    def table_markup(
        self, event: TableView, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        """The table message's keyboard (with the "My cards" button when it applies)."""

    async def private_hand(self, event: HandView, user_id: int, *, asked: bool) -> bool:
        """Whether the hand goes to the private chat (``False``: the player plays inline)."""

    async def turn_notice(self, event: TurnNotice, user_id: int) -> bool:
        """Whether inline play took the turn notice (``False``: it goes privately)."""

    def showing_table(self, table: TableInfo) -> AbstractAsyncContextManager[None]:
        """Around a table message being shown."""

    async def table_shown(self, event: TableView) -> None:
        """A table message was updated."""

    async def table_with_mention(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> bool:
        """Whether the table message was posted anew with a turn mention."""

    async def table_closed(self, table: TableInfo) -> None:
        """A table closed: its turn mention and posted moves go."""

    def hurry(self, chat_id: int) -> None:
        """The chat's budget has room: the waiting deletions may go now."""

    async def resume(self) -> None:
        """At start."""

    async def close(self) -> None:
        """On shutdown."""


class NoInline:
    """``InlineHooks`` when inline play is off: everything as before it."""

    def plan(self, events: Sequence[Event]) -> None:
        return None

    def table_markup(
        self, event: TableView, markup: InlineKeyboardMarkup | None
    ) -> InlineKeyboardMarkup | None:
        return markup

    async def private_hand(self, event: HandView, user_id: int, *, asked: bool) -> bool:
        return True

    async def turn_notice(self, event: TurnNotice, user_id: int) -> bool:
        return False

    def showing_table(self, table: TableInfo) -> AbstractAsyncContextManager[None]:
        return contextlib.nullcontext()

    async def table_shown(self, event: TableView) -> None:
        return None

    async def table_with_mention(
        self,
        event: TableEvent,
        where: Where,
        text: str,
        markup: InlineKeyboardMarkup | None,
        image: RenderedImage | None,
    ) -> bool:
        return False

    async def table_closed(self, table: TableInfo) -> None:
        return None

    def hurry(self, chat_id: int) -> None:
        return None

    async def resume(self) -> None:
        return None

    async def close(self) -> None:
        return None


class InlineDelivery(Protocol):
    """What inline play is given of the delivery: its message book and parts, its clock, and
    a result queued or a text said like any other."""

    clock: Callable[[], float]

    @property
    def book(self) -> MessageBook: ...

    @property
    def private_chats(self) -> PrivateChats: ...

    @property
    def photo_files(self) -> PhotoFiles: ...

    @property
    def web(self) -> WebLinks | None: ...

    def submit(
        self, result: Result, *, origin: Where | None, gate: asyncio.Event | None = None
    ) -> Ticket: ...

    async def say(
        self, where: Where, text: str, markup: InlineKeyboardMarkup | None = None
    ) -> int | None: ...
