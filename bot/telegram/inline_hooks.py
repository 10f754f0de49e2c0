"""What the delivery asks of inline play, as a Protocol: the delivery never imports it.

``bot.telegram.inline.InlinePlay`` implements ``InlineHooks``; without inline play the delivery
is given ``NoInline``, which keeps everything as before inline play (hands in private, turn
notices in private, the table message edited in place).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from telegram import InlineKeyboardMarkup

from bot.render.images import RenderedImage
from bot.service import Event, HandView, TableEvent, TableInfo, TableView, TurnNotice
from bot.telegram.messenger import Where


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
