"""Which Telegram message shows what: the lobby/table message of a table in its chat, and each
player's private hand message, so they are edited in place instead of re-sent.

The message ids live in the adapter state (``bot.service.ports``; the database in
production, migration 0004), so a restarted process, or a second one on the same database, edits
the same messages. So do a player's latest turn notice (deleted when the next one is posted), the
mark of a user whose private chat Telegram refuses, the deep link offered for it, and what was
delivered of each of a table's messages (``Delivered``: a restart compares every message with the
table's version, see ``bot.telegram.healing``). Only the
newest message id seen per chat (how far a table message has scrolled up) is kept in memory:
after a restart it starts low, which only delays a re-post.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextvars import ContextVar
from dataclasses import dataclass, field

from bot.domain.records import JSON, JSONObject
from bot.service.ports import AdapterState, MemoryState
from bot.telegram.ids import PLATFORM, chat_key, where_of
from bot.telegram.messenger import Where

PUBLIC = "public"
HAND = "hand"
NOTICE = "notice"  # a player's latest turn notice at a table: its message id
BLOCKED = "blocked"  # a user whose private chat is refused (no table): a Blocked mark
LINK = "link"  # the deep link offered at a table to a blocked user: the mark's token
DELIVERED = "delivered"  # per message of a table, the version it is known current at (Delivered)

# Deleted message ids remembered per chat (see MessageBook.gone).
_GONE_KEPT = 512
# (kind, scope, table_id) -> the entry written last in a batch (see MessageBook.batch).
_Held = dict[tuple[str, str, int], JSON]


def json_int(value: JSON) -> int:
    """A stored number (or numeral) as ``int()`` reads it; ``TypeError`` for anything else."""
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"not a number: {value!r}")


def json_float(value: JSON) -> float:
    """A stored number (or numeral) as ``float()`` reads it; ``TypeError`` for anything else."""
    if isinstance(value, int | float | str):
        return float(value)
    raise TypeError(f"not a number: {value!r}")


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

    def to_json(self) -> JSONObject:
        return {
            "where": chat_key(self.where),
            "message_id": self.message_id,
            "version": self.version,
            "photo": self.photo,
            "digest": self.digest,
            "companion": self.companion,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Shown | None:
        """``None`` for an entry this version cannot read (it is then treated as absent)."""
        if not isinstance(data, dict):
            return None
        try:
            companion = data.get("companion")
            return cls(
                where=where_of(str(data["where"])),
                message_id=json_int(data["message_id"]),
                version=json_int(data.get("version", 0)),
                photo=bool(data.get("photo", False)),
                digest=str(data.get("digest", "")),
                companion=None if companion is None else json_int(companion),
            )
        except (KeyError, TypeError, ValueError):
            return None


@dataclass(frozen=True)
class Delivered:
    """What went out of a table's messages: every message (the table message in a chat, a
    player's hand, a player's turn notice; named by ``message_key``) is known current at
    ``version``, save those in ``behind``, left at the older version given (a call given up).

    Written when the table's lanes fall idle; a restart delivers anew each message that is
    behind the table's version, and only those."""

    version: int
    behind: dict[str, int] = field(default_factory=dict)

    def of(self, key: str) -> int:
        """The version the message ``key`` is known current at."""
        return min(self.behind.get(key, self.version), self.version)

    @property
    def whole(self) -> int:
        """The version every message of the table is known current at."""
        return min([self.version, *self.behind.values()])

    def to_json(self) -> JSONObject:
        return {"version": self.version, "behind": dict(self.behind)}

    @classmethod
    def from_json(cls, data: JSON) -> Delivered | None:
        """Also reads the older entry, a bare version of the whole table."""
        if isinstance(data, bool):
            return None
        if isinstance(data, int):
            return cls(data)
        if not isinstance(data, dict):
            return None
        try:
            found = data.get("behind") or {}
            if not isinstance(found, dict):
                return None
            behind = {str(k): json_int(v) for k, v in found.items()}
            return cls(json_int(data["version"]), behind)
        except (KeyError, TypeError, ValueError):
            return None


def message_key(kind: str, audience_id: str) -> str:
    """The name of one of a table's messages in ``Delivered``: ``kind`` is "table" (the
    lobby/table message in a chat), "hand" or "notice" (a player's)."""
    return f"{kind}:{audience_id}"


@dataclass(frozen=True)
class Blocked:
    """Telegram refused a private message to the user (the chat was never opened, or the bot
    was blocked). ``token`` names this spell (a deep link is offered once per table and spell);
    ``at``: when it was last seen refused (Unix time)."""

    token: str
    at: float

    @classmethod
    def from_json(cls, data: JSON) -> Blocked | None:
        if not isinstance(data, dict):
            return None
        try:
            return cls(token=str(data["token"]), at=json_float(data["at"]))
        except (KeyError, TypeError, ValueError):
            return None

    def to_json(self) -> JSONObject:
        return {"token": self.token, "at": self.at}


class MessageBook:
    """Message ids by table (in the adapter state), plus the newest message id seen per chat."""

    def __init__(self, *, repost_after: int, state: AdapterState | None = None) -> None:
        if repost_after < 1:
            raise ValueError("repost_after must be at least 1")
        self._repost_after = repost_after
        self.state: AdapterState = state if state is not None else MemoryState()
        self._newest: dict[int, int] = {}
        # Message ids deleted since (inline play's posted moves, old turn mentions), per chat:
        # they no longer push a table message up.
        self._gone: dict[int, OrderedDict[int, None]] = {}
        # The entries held by the batch of the running delivery (each task its own).
        self._held: ContextVar[_Held | None] = ContextVar(f"held-{id(self)}", default=None)

    @contextlib.asynccontextmanager
    async def batch(self) -> AsyncIterator[None]:
        """Entries kept inside are read back from memory and written together at the end.

        A move's delivery keeps the table message and two hands: written as they come, each
        was a commit of its own (on SQLite a hand-over to the driver's thread, the dearest
        step of a move under load); together they share one. Exiting waits for the write,
        so whoever delivers next (under the table's lock) reads them from the store.
        """
        if self._held.get() is not None:
            yield
            return
        held: _Held = {}
        token = self._held.set(held)
        try:
            yield
        finally:
            self._held.reset(token)
            await asyncio.gather(
                *(
                    self.state.state_put(
                        value, platform=PLATFORM, kind=kind, scope=scope, table_id=table_id
                    )
                    for (kind, scope, table_id), value in held.items()
                )
            )

    async def _get(self, kind: str, scope: str, table_id: int) -> JSON:
        held = self._held.get()
        if held is not None and (kind, scope, table_id) in held:
            return held[(kind, scope, table_id)]
        found: JSON = await self.state.state_get(
            platform=PLATFORM, kind=kind, scope=scope, table_id=table_id
        )
        return found

    async def _put(self, value: JSON, kind: str, scope: str, table_id: int) -> None:
        held = self._held.get()
        if held is not None:
            held[(kind, scope, table_id)] = value
            return
        await self.state.state_put(
            value, platform=PLATFORM, kind=kind, scope=scope, table_id=table_id
        )

    def saw(self, chat_id: int, message_id: int) -> None:
        """A message with this id exists in the chat (ids grow by one per message in a chat)."""
        if message_id > self._newest.get(chat_id, 0):
            self._newest[chat_id] = message_id

    async def public(self, table_id: int, where: Where) -> Shown | None:
        found = await self._get(PUBLIC, chat_key(where), table_id)
        shown = None if found is None else Shown.from_json(found)
        if shown is not None:
            self.saw(where.chat_id, shown.message_id)
        return shown

    async def keep_public(self, table_id: int, shown: Shown) -> None:
        await self._put(shown.to_json(), PUBLIC, chat_key(shown.where), table_id)
        self.saw(shown.where.chat_id, shown.message_id)

    async def set_public(
        self, table_id: int, where: Where, message_id: int, version: int = 0
    ) -> None:
        await self.keep_public(table_id, Shown(where, message_id, version))

    def gone(self, chat_id: int, message_id: int) -> None:
        """The bot deleted this message: it no longer counts in the repost distance."""
        gone = self._gone.setdefault(chat_id, OrderedDict())
        gone[message_id] = None
        while len(gone) > _GONE_KEPT:
            gone.popitem(last=False)

    def scrolled_away(self, shown: Shown) -> bool:
        """True when more than ``repost_after`` messages came after it: time for a new one.

        Telegram numbers the messages of a chat one after the other, so the distance between
        ids counts the messages in between, even those the bot (in privacy mode) never sees,
        less those the bot deleted.
        """
        newest = self._newest.get(shown.where.chat_id, shown.message_id)
        gone: dict[int, None] = self._gone.get(shown.where.chat_id) or {}
        deleted = sum(1 for message_id in gone if shown.message_id < message_id <= newest)
        return newest - shown.message_id - deleted > self._repost_after

    def newer_than(self, shown: Shown) -> bool:
        """Whether a message came after ``shown`` in its chat (as far as this process saw)."""
        return self._newest.get(shown.where.chat_id, shown.message_id) > shown.message_id

    async def private(self, table_id: int, user_id: int) -> Shown | None:
        found = await self._get(HAND, str(user_id), table_id)
        return None if found is None else Shown.from_json(found)

    async def keep_private(self, table_id: int, user_id: int, shown: Shown) -> None:
        await self._put(shown.to_json(), HAND, str(user_id), table_id)
        self.saw(user_id, shown.message_id)

    async def set_private(
        self, table_id: int, user_id: int, message_id: int, version: int = 0
    ) -> None:
        await self.keep_private(table_id, user_id, Shown(Where(user_id), message_id, version))

    async def private_of(self, table_id: int) -> list[Shown]:
        """The private messages (hands) shown for a table."""
        entries = dict(
            await self.state.state_of_table(platform=PLATFORM, kind=HAND, table_id=table_id)
        )
        for (kind, scope, held_table), value in (self._held.get() or {}).items():
            if kind == HAND and held_table == table_id:
                entries[scope] = value
        return [
            shown
            for _, value in sorted(entries.items())
            if (shown := Shown.from_json(value)) is not None
        ]

    async def notice(self, table_id: int, user_id: int) -> int | None:
        """The message id of the user's latest turn notice at the table."""
        found = await self._get(NOTICE, str(user_id), table_id)
        if isinstance(found, dict):
            found = found.get("message_id")
        return found if isinstance(found, int) and not isinstance(found, bool) else None

    async def notice_version(self, table_id: int, user_id: int) -> int:
        """The table version of the user's latest turn notice at the table (0: unknown)."""
        found = await self._get(NOTICE, str(user_id), table_id)
        version = found.get("version") if isinstance(found, dict) else None
        return version if isinstance(version, int) and not isinstance(version, bool) else 0

    async def keep_notice(
        self, table_id: int, user_id: int, message_id: int, version: int = 0
    ) -> None:
        value: JSONObject = {"message_id": message_id, "version": version}
        await self._put(value, NOTICE, str(user_id), table_id)

    async def blocked(self, user_id: int) -> Blocked | None:
        found = await self._get(BLOCKED, str(user_id), 0)
        return None if found is None else Blocked.from_json(found)

    async def keep_blocked(self, user_id: int, mark: Blocked) -> None:
        await self._put(mark.to_json(), BLOCKED, str(user_id), 0)

    async def unblock(self, user_id: int) -> None:
        held = self._held.get()
        if held is not None:
            held.pop((BLOCKED, str(user_id), 0), None)
        await self.state.state_delete(platform=PLATFORM, kind=BLOCKED, scope=str(user_id))

    async def linked(self, table_id: int, user_id: int) -> str | None:
        """The token of the blocked spell a deep link was offered for at this table."""
        found = await self._get(LINK, str(user_id), table_id)
        return found if isinstance(found, str) else None

    async def keep_linked(self, table_id: int, user_id: int, token: str) -> None:
        await self._put(token, LINK, str(user_id), table_id)

    async def delivered(self, table_id: int) -> int | None:
        """The newest version of the table known to be delivered in full (every message), if
        any."""
        found = await self.delivery(table_id)
        return None if found is None else found.whole

    async def delivery(self, table_id: int) -> Delivered | None:
        """What is known delivered of each of the table's messages, if anything."""
        found = await self._get(DELIVERED, "", table_id)
        return None if found is None else Delivered.from_json(found)

    async def keep_delivered(self, table_id: int, delivered: Delivered | int) -> None:
        if isinstance(delivered, int):
            delivered = Delivered(delivered)
        await self._put(delivered.to_json(), DELIVERED, "", table_id)

    async def forget_table(self, table_id: int) -> None:
        """The table is over: its messages need no more edits."""
        held = self._held.get()
        if held is not None:
            for key in [k for k in held if k[2] == table_id]:
                del held[key]
        await self.state.state_forget_table(platform=PLATFORM, table_id=table_id)
