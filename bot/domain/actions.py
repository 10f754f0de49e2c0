"""The one codec of a player's actions: a typed :class:`Action` <-> the short string a front end
carries (a Telegram button's callback data or inline result, a Discord component's custom id, a
terminal command, a web request): ``<table>:<version>:<action>``.

``<action>`` is one of:

* a move string of the game (the engine parses and checks it): :attr:`Verb.MOVE`;
* ``?<what>``: show the choices of that card (Scala 40: of that kind, or a selection):
  :attr:`Verb.FOCUS`;
* ``@<verb>`` or ``@<verb>.<arg>``: a lobby or table action, :attr:`Verb.JOIN` ... with an
  argument for ``@fill.<level>``, ``@ai.<level>``, ``@seat.<n>``, ``@kick.<seat>``.

Every action carries the table's version, so a press on an older version is refused politely.
The whole string is at most :data:`MAX_BUTTON_BYTES` bytes (Telegram's callback data; Discord's
custom id allows 100 characters). Decoding takes untrusted input: anything else is a
:class:`ValueError`, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "MAX_BUTTON_BYTES",
    "Action",
    "ButtonData",
    "Verb",
    "decode_button",
    "encode_button",
]

# Telegram's callback_data is at most 64 bytes; Discord's custom_id at most 100 characters.
MAX_BUTTON_BYTES = 64


class Verb(StrEnum):
    """What an :class:`Action` does (its value is its name after ``@`` on the wire)."""

    MOVE = "move"  # play a move of the game: the argument is the move string
    FOCUS = "focus"  # "?<what>": the player's hand again, offering that card's choices only
    QUIT = "quit"  # the hand asks "leave the game?" (yes: LEAVE, back: HAND)
    JOIN = "join"
    LEAVE = "leave"  # a lobby, or the game in progress: the computer takes the seat
    START = "start"
    FILL = "fill"  # start, the free seats taken by computers of the argument's level
    AI = "ai"  # seat a computer of the argument's level
    SEAT = "seat"  # choose seat number <arg>
    BACK = "back"  # take one's seat back from the computer
    HAND = "hand"  # show me my hand
    REMATCH = "rematch"
    ABANDON = "abandon"
    KICK = "kick"  # the creator or an admin: the player of seat <arg> out (a computer plays on)


# Verbs whose argument is a seat number, and verbs written with no argument.
_NUMBERED = frozenset({Verb.SEAT, Verb.KICK})
_BARE = frozenset(
    {
        Verb.QUIT,
        Verb.JOIN,
        Verb.LEAVE,
        Verb.START,
        Verb.BACK,
        Verb.HAND,
        Verb.REMATCH,
        Verb.ABANDON,
    }
)
_NAMED = {verb.value: verb for verb in Verb if verb not in (Verb.MOVE, Verb.FOCUS)}


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


@dataclass(frozen=True, slots=True)
class ButtonData:
    """The framing of an action string, its ``<action>`` not yet read (see :class:`Action`)."""

    table_id: int
    version: int
    action: str  # a move string, or a lobby/table action starting with "@" or "?"


def encode_button(table_id: int, version: int, action: str) -> str:
    """``<table>:<version>:<action>``; raises ValueError beyond 64 bytes (Telegram's limit,
    which also keeps Discord's 100 characters)."""
    data = f"{table_id}:{version}:{action}"
    if len(data.encode()) > MAX_BUTTON_BYTES:
        raise ValueError(f"button data longer than {MAX_BUTTON_BYTES} bytes: {data!r}")
    return data


def decode_button(data: str) -> ButtonData:
    """The inverse of :func:`encode_button`; ValueError for anything else (untrusted input)."""
    if len(data.encode("utf-8", "replace")) > MAX_BUTTON_BYTES:
        raise ValueError("button data too long")
    parts = data.split(":", 2)
    if len(parts) != 3 or not _is_number(parts[0]) or not _is_number(parts[1]) or not parts[2]:
        raise ValueError(f"not button data: {data!r}")
    return ButtonData(int(parts[0]), int(parts[1]), parts[2])


@dataclass(frozen=True, slots=True)
class Action:
    """A player's action on one version of one table: ``verb`` with its ``arg`` (the move
    string, the card, the level, the seat number as text; ``""`` for a verb with none)."""

    table_id: int
    version: int
    verb: Verb
    arg: str = ""

    def __post_init__(self) -> None:
        if self.verb is Verb.MOVE and (not self.arg or self.arg[0] in "@?"):
            raise ValueError(f"not a move string: {self.arg!r}")
        if self.verb in _NUMBERED and not _is_number(self.arg):
            raise ValueError(f"{self.verb} needs a number: {self.arg!r}")
        if self.verb in _BARE and self.arg:
            raise ValueError(f"{self.verb} takes no argument: {self.arg!r}")

    @property
    def number(self) -> int:
        """The seat number of a :attr:`Verb.SEAT` or :attr:`Verb.KICK` action."""
        if self.verb not in _NUMBERED:
            raise ValueError(f"{self.verb} has no number")
        return int(self.arg)

    @property
    def token(self) -> str:
        """The ``<action>`` part of the string."""
        if self.verb is Verb.MOVE:
            return self.arg
        if self.verb is Verb.FOCUS:
            return f"?{self.arg}"
        return f"@{self.verb.value}.{self.arg}" if self.arg else f"@{self.verb.value}"

    def encode(self) -> str:
        """``<table>:<version>:<action>`` (ValueError beyond :data:`MAX_BUTTON_BYTES`)."""
        return encode_button(self.table_id, self.version, self.token)

    @classmethod
    def parse(cls, token: str, *, table_id: int, version: int) -> Action:
        """The action of an ``<action>`` part (ValueError for anything else)."""
        if token.startswith("?"):
            return cls(table_id, version, Verb.FOCUS, token[1:])
        if not token.startswith("@"):
            return cls(table_id, version, Verb.MOVE, token)
        name, dot, arg = token[1:].partition(".")
        verb = _NAMED.get(name)
        if verb is None:
            raise ValueError(f"not an action: {token!r}")
        if dot and verb in _BARE:
            raise ValueError(f"{verb} takes no argument: {token!r}")
        return cls(table_id, version, verb, arg)

    @classmethod
    def decode(cls, data: str) -> Action:
        """The inverse of :meth:`encode`; ValueError for anything else (untrusted input)."""
        framed = decode_button(data)
        return cls.parse(framed.action, table_id=framed.table_id, version=framed.version)
