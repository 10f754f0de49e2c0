"""Private chats that refuse the bot's messages, remembered so they are not knocked on again.

When Telegram refuses a private message (403: the user never opened the bot) the refusal is
remembered, in the adapter state with a copy in memory, so the next hands and notices do not
knock again; ``/start`` clears it, and after ``retry_blocked_after`` seconds the next message
tries anyway (the user may have opened the chat some other way).

``PrivateChats`` is a part given to ``bot.telegram.delivery.Delivery``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable

from bot.telegram.book import Blocked, MessageBook

# A refused private chat is tried again after this many seconds.
RETRY_BLOCKED_AFTER = 600.0
# A refusal remembered in memory is checked against the adapter state (another process may have
# seen the user's /start) at most this often.
RECHECK_BLOCKED_AFTER = 30.0


class PrivateChats:
    """The refusals this process has seen; the adapter state has every process's."""

    def __init__(
        self,
        *,
        book: MessageBook,
        clock: Callable[[], float],
        retry_blocked_after: float = RETRY_BLOCKED_AFTER,
    ) -> None:
        self.book = book
        self._clock = clock
        self._retry_blocked_after = retry_blocked_after
        # Refused private chats seen by this process: user id -> (mark, when last checked
        # against the adapter state). Users not in it are assumed reachable.
        self._blocked: dict[int, tuple[Blocked, float]] = {}

    def known(self, user_id: int) -> Blocked | None:
        """The refusal this process remembers for the user, if any (due a retry or not)."""
        found = self._blocked.get(user_id)
        return None if found is None else found[0]

    async def unblocked(self, user_id: int) -> None:
        """The user opened the private chat: hands go there again (in every process)."""
        self._blocked.pop(user_id, None)
        await self.book.unblock(user_id)

    async def refuses_private(self, user_id: int) -> bool:
        """Whether the user's private chat is known to refuse messages."""
        return await self.is_blocked(user_id)

    async def is_blocked(self, user_id: int) -> bool:
        """Whether the user's private chat is known to refuse messages (and not due a retry)."""
        known = self._blocked.get(user_id)
        if known is None:
            return False
        mark, checked = known
        now = self._clock()
        if now - checked > RECHECK_BLOCKED_AFTER:
            stored = await self.book.blocked(user_id)
            if stored is None:  # cleared by a /start another process served
                del self._blocked[user_id]
                return False
            mark = stored
            self._blocked[user_id] = (mark, now)
        return now - mark.at < self._retry_blocked_after

    async def refused(self, user_id: int) -> Blocked:
        """Telegram refused a private message: remember it, in the same spell as before if any."""
        now = self._clock()
        known = self._blocked.get(user_id)
        previous = known[0] if known is not None else await self.book.blocked(user_id)
        token = previous.token if previous is not None else uuid.uuid4().hex
        mark = Blocked(token, now)
        self._blocked[user_id] = (mark, now)
        await self.book.keep_blocked(user_id, mark)
        return mark
