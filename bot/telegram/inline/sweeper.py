"""Inline play's deletions (the moves posted "via @bot", old table copies, old turn mentions),
queued per chat and sent in as few ``deleteMessages`` calls as the group's budget asks for.

A group allows the bot about 20 requests a minute, deletions included, and what the players wait
for is the table showing their move. So a chat's deletions go at once only while its window
(``bot.telegram.limiter.PacedRateLimiter.group_room``) has ``RESERVE`` calls free, no call waits
for it and the chat's last deletion call is ``GAP`` seconds old; else they wait, gathering more,
and go in one call (at most ``MAX_IDS`` ids, the Bot API's limit) as soon as that holds, or
after ``HOLD`` seconds when ``HOLD_ROOM`` calls are free and nothing waits, or after ``FORCE``
seconds in any case (a group at the limit for a while still gets its chat cleared). A busy
group thus pays little more than one request per move (the table) and keeps room for the next
table: its posted moves stay a little longer instead (``benchmarks/inline_latency.py`` measures
both). With another limiter (or none) they go at once.

Waiting deletions are kept in the adapter state (kind ``trash``, one entry per chat), so a
restart sends them (``resume``); only the ones in flight when the process dies can be lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from telegram import Bot
from telegram.error import TelegramError

from bot.service.ports import AdapterState
from bot.telegram.ids import PLATFORM
from bot.telegram.limiter import PRIORITY, GroupRoom, PacedRateLimiter, Priority

if TYPE_CHECKING:
    from bot.telegram.book import MessageBook

logger = logging.getLogger(__name__)

# The Bot API's deleteMessages takes 1 to 100 message ids.
MAX_IDS = 100
# Deletions go at once while this many calls of the group's window are free and the chat's last
# deletion call is ``GAP`` seconds old: a group playing briskly (a move every 4 s is 15 table
# posts a minute) keeps about 5 of its 20 calls a minute for deletions, so they gather.
RESERVE = 8
GAP = 10.0
# Held this long, they go while ``HOLD_ROOM`` calls are free and none waits; held ``FORCE``, in any
# case.
HOLD = 15.0
HOLD_ROOM = 3
FORCE = 30.0
# How often held deletions look at the window again (seconds, at most), and once held ``HOLD``.
LOOK_AGAIN = 1.0
RECHECK = 0.25
# The adapter-state kind of a chat's waiting deletions ({"ids": [[message_id, own], ...]}).
TRASH = "trash"
# After Telegram refused to delete a user's message in a chat (the bot is no admin there), the
# bot tries again after this many seconds.
RETRY_DELETE_AFTER = 600.0


class Sweeper:
    """The deletions waiting per chat, and one task per chat that sends them."""

    def __init__(
        self,
        *,
        bot: Callable[[], Bot],
        state: AdapterState,
        book: MessageBook,
        clock: Callable[[], float],
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bot = bot
        self._state = state
        self._book = book
        self._clock = clock
        self._monotonic = monotonic
        # chat -> {message id: the bot's own (else a user's)}, and since when it waits.
        self._queues: dict[int, dict[int, bool]] = {}
        self._since: dict[int, float] = {}
        # chat -> when its last deletion call went (``_sent_now`` keeps them few)
        self._last_sent: dict[int, float] = {}
        self._kept: set[int] = set()  # chats whose queue is in the adapter state
        self._tasks: dict[int, asyncio.Task[None]] = {}
        # deleteMessages works (until a batch fails where single deletions succeed).
        self.batch_deletes = True
        # Chats where the bot may not delete users' messages: until when not to try again.
        self.cannot_delete: dict[int, float] = {}
        self._closing = False

    def may_delete(self, chat_id: int, *, own: bool) -> bool:
        """Whether a deletion is worth asking for (a user's message needs admin rights)."""
        return own or self.cannot_delete.get(chat_id, 0.0) <= self._clock()

    async def add(self, trash: list[tuple[int, int, bool]]) -> None:
        """Queue deletions; each chat's go at once when its budget has room, else later."""
        chats: dict[int, dict[int, bool]] = {}
        for chat_id, message_id, own in trash:
            chats.setdefault(chat_id, {})[message_id] = own
        for chat_id, messages in chats.items():
            queue = self._queues.setdefault(chat_id, {})
            queue.update(messages)
            self._since.setdefault(chat_id, self._monotonic())
            if chat_id in self._tasks:
                await self._keep(chat_id)  # held: kept across a restart
                continue
            if not self._closing:
                self._tasks[chat_id] = asyncio.get_running_loop().create_task(
                    self._run(chat_id), name=f"tavolo-sweep-{chat_id}"
                )
            if self._wait(chat_id) != 0.0:
                await self._keep(chat_id)

    def hurry(self, chat_id: int) -> None:
        """The chat's waiting deletions go as soon as its window lets one call through (a
        closed table's old copies and posted moves must not linger with their buttons)."""
        if chat_id in self._queues:
            self._since[chat_id] = self._monotonic() - FORCE

    async def resume(self) -> None:
        """At start: the deletions a previous process left waiting."""
        try:
            found = await self._state.state_of_table(platform=PLATFORM, kind=TRASH, table_id=0)
        except Exception as error:
            logger.warning("could not read the deletions left waiting: %s", error)
            return
        trash: list[tuple[int, int, bool]] = []
        for scope, value in found:
            ids = value.get("ids") if isinstance(value, dict) else None
            if not scope.lstrip("-").isdigit() or not isinstance(ids, list):
                continue
            self._kept.add(int(scope))
            for entry in ids:
                if isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int):
                    trash.append((int(scope), entry[0], bool(entry[1])))
        if trash:
            await self.add(trash)

    async def close(self) -> None:
        """On shutdown: what still waits is kept for the next start."""
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for chat_id in list(self._queues):
            await self._keep(chat_id)

    def _room(self, chat_id: int) -> GroupRoom | None:
        try:
            limiter = getattr(self._bot(), "rate_limiter", None)
        except RuntimeError:  # not initialized
            return None
        if not isinstance(limiter, PacedRateLimiter):
            return None
        return limiter.group_room(chat_id)

    def _wait(self, chat_id: int) -> float:
        """Seconds before the chat's deletions should go (0: now)."""
        room = self._room(chat_id)
        if room is None:
            return 0.0
        now = self._monotonic()
        held = now - self._since.get(chat_id, now)
        last = self._last_sent.get(chat_id)
        rested = last is None or now - last >= GAP
        if held >= FORCE or (room.free >= RESERVE and rested and not room.waiting):
            return 0.0
        if held >= HOLD and room.free >= HOLD_ROOM and not room.waiting:
            return 0.0
        if room.free == 0:
            return max(min(room.next_in, LOOK_AGAIN), 0.01)
        return LOOK_AGAIN if held < HOLD else RECHECK

    async def _run(self, chat_id: int) -> None:
        """Send the chat's deletions when it is time, until none is left."""
        try:
            for _ in range(1_000_000):  # bounded: each round sends or waits
                queue = self._queues.get(chat_id)
                if not queue:
                    break
                delay = self._wait(chat_id)
                if delay > 0:
                    await asyncio.sleep(delay)
                    continue
                ids = sorted(queue)[:MAX_IDS]
                batch = {message_id: queue.pop(message_id) for message_id in ids}
                if queue:
                    self._since[chat_id] = self._monotonic()
                else:
                    self._queues.pop(chat_id, None)
                    self._since.pop(chat_id, None)
                self._sent_now(chat_id)
                await self._send(chat_id, batch)
                await self._keep(chat_id)
        finally:
            if self._tasks.get(chat_id) is asyncio.current_task():
                del self._tasks[chat_id]

    def _sent_now(self, chat_id: int) -> None:
        """Note the chat's deletion call (for ``GAP``). The notes are kept oldest first (a
        renewed note moves to the end), so the ones past their gap go from the front: they stay
        as few as the chats deleting lately, for a few steps a call however many those are."""
        now = self._monotonic()
        notes = self._last_sent
        notes.pop(chat_id, None)
        for _ in range(len(notes)):  # bounded: each step drops a note or stops
            oldest = next(iter(notes))
            if now - notes[oldest] < GAP:
                break
            del notes[oldest]
        notes[chat_id] = now

    async def _keep(self, chat_id: int) -> None:
        """Put the chat's waiting deletions in the adapter state (or clear them there)."""
        queue = self._queues.get(chat_id)
        try:
            if queue:
                value = {"ids": [[message_id, own] for message_id, own in sorted(queue.items())]}
                await self._state.state_put(
                    value, platform=PLATFORM, kind=TRASH, scope=str(chat_id)
                )
                self._kept.add(chat_id)
            elif chat_id in self._kept:
                await self._state.state_delete(platform=PLATFORM, kind=TRASH, scope=str(chat_id))
                self._kept.discard(chat_id)
        except Exception as error:
            logger.warning("could not keep the deletions of chat %s: %s", chat_id, error)

    async def _send(self, chat_id: int, messages: dict[int, bool]) -> None:
        """One ``deleteMessages`` (one by one where the batch is refused)."""
        ids = sorted(messages)
        bot = self._bot()
        token = PRIORITY.set(Priority.CLEANUP)
        try:
            if len(ids) > 1 and self.batch_deletes:
                try:
                    await bot.delete_messages(chat_id=chat_id, message_ids=ids)
                except TelegramError as error:
                    logger.info("deleteMessages %s in chat %s failed: %s", ids, chat_id, error)
                else:
                    for message_id in ids:
                        self._book.gone(chat_id, message_id)
                    return
            # One by one: a single message, or a batch refused (the bot may not delete users'
            # messages there, or the API has no deleteMessages).
            failed = False
            for message_id in ids:
                if not messages[message_id] and not self.may_delete(chat_id, own=False):
                    continue
                try:
                    await bot.delete_message(chat_id=chat_id, message_id=message_id)
                except TelegramError as error:
                    logger.info("could not delete %s in chat %s: %s", message_id, chat_id, error)
                    if not messages[message_id]:
                        failed = True
                        # Users' messages need admin rights: leave them alone for a while.
                        self.cannot_delete[chat_id] = self._clock() + RETRY_DELETE_AFTER
                    continue
                self._book.gone(chat_id, message_id)
            if not failed and len(ids) > 1:
                self.batch_deletes = False  # one by one works where the batch did not
        finally:
            PRIORITY.reset(token)
