"""Which Telegram message shows what: the lobby/table message of a table in its chat, and each
player's private hand message, so they are edited in place instead of re-sent.

Only message ids live here, in memory. After a restart the book is empty: the next public update
posts a fresh table message, and a press on an old button teaches the book that message again (a
callback query carries its message), so a hand keeps being edited in place.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.telegram.messenger import Where


@dataclass
class Shown:
    """A message the bot keeps up to date."""

    where: Where
    message_id: int
    # The table version it shows: a slower delivery of an older version must not overwrite it.
    version: int = 0
    # A photo message (picture + caption + keyboard); else a text message.
    photo: bool = False
    # The digest of the picture it shows ("" for none): an unchanged picture is not re-sent.
    digest: str = ""
    # A picture posted just above a text too long for a caption (its message id).
    companion: int | None = None


class MessageBook:
    """Message ids by table, plus the newest message id seen in each chat."""

    def __init__(self, *, repost_after: int) -> None:
        if repost_after < 1:
            raise ValueError("repost_after must be at least 1")
        self._repost_after = repost_after
        self._public: dict[tuple[int, Where], Shown] = {}
        self._private: dict[tuple[int, int], Shown] = {}
        self._newest: dict[int, int] = {}

    def saw(self, chat_id: int, message_id: int) -> None:
        """A message with this id exists in the chat (ids grow by one per message in a chat)."""
        if message_id > self._newest.get(chat_id, 0):
            self._newest[chat_id] = message_id

    def public(self, table_id: int, where: Where) -> Shown | None:
        return self._public.get((table_id, where))

    def set_public(self, table_id: int, where: Where, message_id: int, version: int = 0) -> None:
        self._public[(table_id, where)] = Shown(where, message_id, version)
        self.saw(where.chat_id, message_id)

    def keep_public(self, table_id: int, shown: Shown) -> None:
        self._public[(table_id, shown.where)] = shown
        self.saw(shown.where.chat_id, shown.message_id)

    def scrolled_away(self, shown: Shown) -> bool:
        """True when more than ``repost_after`` messages came after it: time for a new one.

        Telegram numbers the messages of a chat one after the other, so the distance between
        ids counts the messages in between, even those the bot (in privacy mode) never sees.
        """
        newest = self._newest.get(shown.where.chat_id, shown.message_id)
        return newest - shown.message_id > self._repost_after

    def private(self, table_id: int, user_id: int) -> Shown | None:
        return self._private.get((table_id, user_id))

    def set_private(self, table_id: int, user_id: int, message_id: int, version: int = 0) -> None:
        self._private[(table_id, user_id)] = Shown(Where(user_id), message_id, version)
        self.saw(user_id, message_id)

    def keep_private(self, table_id: int, user_id: int, shown: Shown) -> None:
        self._private[(table_id, user_id)] = shown
        self.saw(user_id, shown.message_id)

    def private_of(self, table_id: int) -> list[Shown]:
        """The private messages (hands) shown for a table."""
        return [shown for (tid, _), shown in self._private.items() if tid == table_id]

    def forget_table(self, table_id: int) -> None:
        """The table is over: its messages need no more edits."""
        for key in [k for k in self._public if k[0] == table_id]:
            del self._public[key]
        for pkey in [k for k in self._private if k[0] == table_id]:
            del self._private[pkey]
