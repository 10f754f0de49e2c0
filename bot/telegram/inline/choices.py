"""A chosen inline result (``chosen_inline_result``, or the message it posted "via @bot") ->
its move, made once; a stale, forged or never-offered result is refused like a stale button.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict

from telegram import Update, User
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.service import ChatRef, Refusal, TableInfo, UserRef, decode_button
from bot.telegram.ids import PLATFORM
from bot.telegram.inline.base import (
    INDEX,
    LOOK,
    PARK_WAIT,
    SHOWN_WAIT,
    Choice,
    Handled,
    InlineBase,
)
from bot.telegram.outbox import Ticket

logger = logging.getLogger(__name__)


class InlineChoices:
    """Chosen results -> moves, once per user and result."""

    def __init__(self, ground: InlineBase) -> None:
        self._ground = ground

    async def on_chosen(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A chosen inline result (inline feedback on): make its move, once."""
        chosen = update.chosen_inline_result
        if chosen is None:
            return
        user = chosen.from_user
        self._ground.feedback = True
        async with self._ground.lock(user.id), self._ground.deleting_together():
            await self._ground.recall_offered(user.id)
            handled = await self._handle(user, chosen.result_id)
            edited = False
            if handled.choice.kind == "refused" and chosen.inline_message_id is not None:
                # The posted message becomes the notice (it showed a move that was not made).
                try:
                    await self._ground.bot().edit_message_text(
                        handled.choice.notice, inline_message_id=chosen.inline_message_id
                    )
                except TelegramError as error:
                    logger.info("could not turn a refused result into its notice: %s", error)
                else:
                    edited = True
            text = self._ground.per_user(self._ground.texts, user.id).get(chosen.result_id)
            parked: OrderedDict[tuple[int, int], str] = self._ground.per_user(
                self._ground.parked, user.id
            )
            waiting = [where for where, said in parked.items() if said == text]
            for chat_id, message_id in waiting[:1]:
                del parked[(chat_id, message_id)]
                if not edited:
                    await self._settle(handled, chat_id, message_id)
                return
            if edited:
                handled.notices += 1  # its message, when it comes, shows the notice already

    async def on_via_message(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A message a result posted "via @bot": make its move if no feedback does, then
        clear it from the chat."""
        message = update.effective_message
        if message is None or message.via_bot is None or message.via_bot.id != context.bot.id:
            return
        user = message.from_user
        if user is None:
            return
        async with self._ground.lock(user.id), self._ground.deleting_together():
            await self._ground.recall_offered(user.id)
            text = message.text or ""
            result_id = self._ground.per_user(self._ground.offered, user.id).get(text)
            if not result_id:
                # Not a result we can match (an answer older than an hour, or two results had
                # this text): it makes no move here; inline feedback, if on, makes it.
                await self._ground.delete(message.chat.id, message.message_id, own=False)
                return
            handled = self._ground.per_user(self._ground.handled, user.id).get(result_id)
            if handled is None and self._ground.feedback:
                # Feedback names the result exactly (an old panel's result may have this
                # text too): the move waits for it, a little (feedback may be off after all,
                # or sampled: then the message decides).
                parked = self._ground.per_user(self._ground.parked, user.id)
                where = (message.chat.id, message.message_id)
                self._ground.remember(parked, where, text)
                task = asyncio.get_running_loop().create_task(self._unpark(user, where, result_id))
                self._ground.tasks.add(task)
                task.add_done_callback(self._ground.tasks.discard)
                return
            if handled is None:
                handled = await self._handle(user, result_id)
            await self._settle(handled, message.chat.id, message.message_id)

    async def _unpark(self, user: User, where: tuple[int, int], result_id: str) -> None:
        """A posted message whose feedback did not come in time: the message makes the move."""
        # The task started inside its update's deletions (a copy of that context): its own.
        self._ground.trash.set(None)
        await asyncio.sleep(PARK_WAIT)
        async with self._ground.lock(user.id), self._ground.deleting_together():
            parked: OrderedDict[tuple[int, int], str] = self._ground.per_user(
                self._ground.parked, user.id
            )
            if parked.pop(where, None) is None:
                return  # its feedback came
            handled = await self._handle(user, result_id)
            await self._settle(handled, *where)

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
            # In the background: the notice may wait for the group's budget, and the user's
            # next choice (under the same lock) must not wait behind it.
            task = asyncio.get_running_loop().create_task(
                self._notice_refused(handled.choice.notice, chat_id, message_id)
            )
            self._ground.tasks.add(task)
            task.add_done_callback(self._ground.tasks.discard)
            return
        shown, made = handled.shown, handled.made
        if handled.choice.kind == "move" and shown is not None and made is not None:
            table_id, version = made
            if not shown.done and self._ground.showing.get(table_id, -1) < version:
                # The table message does not show the move yet (the group's budget is short):
                # the posted message stays until it does, and goes with the old table copy.
                entry = (version, chat_id, message_id)
                self._ground.posted.setdefault(table_id, []).append(entry)
                task = asyncio.get_running_loop().create_task(
                    self._delete_when_shown(shown, table_id, entry)
                )
                self._ground.tasks.add(task)
                task.add_done_callback(self._ground.tasks.discard)
                return
        await self._ground.delete(chat_id, message_id, own=False)

    async def _notice_refused(self, notice: str, chat_id: int, message_id: int) -> None:
        """A posted move that was not made: the notice says why, in reply, then it goes."""
        self._ground.trash.set(None)  # (started inside its update's deletions: its own)
        try:
            with contextlib.suppress(TelegramError):
                await self._ground.bot().send_message(
                    chat_id=chat_id, text=notice, reply_to_message_id=message_id
                )
        finally:
            await self._ground.delete(chat_id, message_id, own=False)

    async def _delete_when_shown(
        self, shown: Ticket, table_id: int, entry: tuple[int, int, int]
    ) -> None:
        """A posted move whose table message was not shown (it failed, or the bot stops):
        it goes once its move's messages are out anyway (bounded; stopping, the deletion
        waits in the sweeper's queue for the next start)."""
        # The task started inside its update's deletions (a copy of that context): its own.
        self._ground.trash.set(None)
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(shown.wait(), SHOWN_WAIT)
        finally:
            waiting = self._ground.posted.get(table_id) or []
            if entry in waiting:
                waiting.remove(entry)
                if not waiting:
                    self._ground.posted.pop(table_id, None)
                await self._ground.delete(entry[1], entry[2], own=False)

    async def _handle(self, user: User, result_id: str) -> Handled:
        """The outcome of a result, made once per user and result whichever update comes."""
        memory: OrderedDict[str, Handled] = self._ground.per_user(self._ground.handled, user.id)
        handled = memory.get(result_id)
        if handled is None:
            handled = Handled(Choice("refused"))
            handled.choice = await self._choose(user, result_id, handled)
            self._ground.remember(memory, result_id, handled)
            if handled.choice.kind == "move":
                await self._ground.keep_offered(user.id)  # known as made after a restart too
        return handled

    async def _choose(self, user: User, result_id: str, handled: Handled) -> Choice:
        """Make the move a result id names, or say why not (nothing changes then). The move is
        made at once; its messages are queued (``handled.shown``), not waited for: they may
        wait for the group's budget, and the player's next choice must not wait behind them."""
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
        if result_id not in self._ground.per_user(self._ground.offered_ids, user.id):
            return await self._refused(who, "stale")
        table = next(
            (t for t in await self._ground.service.tables_of(who) if t.id == data.table_id), None
        )
        if table is None:
            return await self._refused(who, "not_seated")
        chat = ChatRef(PLATFORM, table.chat_id)
        move: str | None = action
        if action.startswith(INDEX):
            move = await self._indexed_move(who, table, data.version, action[len(INDEX) :])
        result = await self._ground.service.play(
            chat, who, table.id, version=data.version, move=move or action
        )
        if result.refusal is not None:
            return Choice("refused", self._notice(result.refusal))
        # A move made inline: the player's next tables are played inline too.
        await self._ground.set_wish(user.id, "inline")
        # Queued outside this update's deletions: the delivery's own go when it makes them.
        token = self._ground.trash.set(None)
        try:
            handled.shown = self._ground.delivery.submit(result, origin=None)
            if result.table is not None:
                handled.made = (result.table.id, result.table.version)
        finally:
            self._ground.trash.reset(token)
        return Choice("move")

    async def _indexed_move(
        self, who: UserRef, table: TableInfo, version: int, index: str
    ) -> str | None:
        if version != table.version or not index.isdigit():
            return None
        hand = await self._ground.hand(who, table)
        moves = tuple(getattr(hand.view, "legal_moves", ()) or ()) if hand else ()
        position = int(index)
        return moves[position] if position < len(moves) else None

    async def _refused(self, who: UserRef, code: str) -> Choice:
        locale = await self._ground.service.user_locale(who)
        return Choice("refused", self._notice(Refusal(code, locale)))

    def _notice(self, refusal: Refusal) -> str:
        return "⚠️ " + self._ground.renderer.refusal(refusal)
