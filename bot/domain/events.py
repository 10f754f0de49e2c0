"""What the service says back: platform-neutral ids, table snapshots, events, refusals, buttons.

Every event names its :class:`Audience` (a chat, or one user privately) and the locale it should
be rendered in (already resolved: a chat's events in the chat's language, else the default; a
user's in the user's setting > the platform's locale > the chat's setting > default).
Adapters render events with :func:`bot.render.render` and send the text and buttons to the
audience; they never build game text themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias, TypedDict

# The action strings' codec (bot.domain.actions), offered with the events for the front ends.
from bot.domain.actions import MAX_BUTTON_BYTES as MAX_BUTTON_BYTES
from bot.domain.actions import ButtonData, decode_button, encode_button
from bot.domain.records import JSONObject
from engine.contract import GameState, GameView

__all__ = [
    "Announcement",
    "Audience",
    "BoardRow",
    "ButtonData",
    "ChatRef",
    "Event",
    "EventHead",
    "GameOver",
    "HandView",
    "Leaderboard",
    "LobbyView",
    "RatingDelta",
    "Refusal",
    "RefusalParam",
    "Result",
    "SeatInfo",
    "SmazzataSummary",
    "Stats",
    "TableChange",
    "TableEvent",
    "TableInfo",
    "TableView",
    "TurnNotice",
    "UserRef",
    "decode_button",
    "encode_button",
]


@dataclass(frozen=True, slots=True)
class ChatRef:
    """A chat (Telegram group/private chat, Discord channel or thread, the terminal)."""

    platform: str
    chat_id: str


@dataclass(frozen=True, slots=True)
class UserRef:
    """A person on a platform. ``name`` is the display name; ``locale`` the platform's hint
    (e.g. Telegram's ``language_code``), used when the user and the chat chose no language."""

    platform: str
    user_id: str
    name: str = ""
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class Audience:
    """Where an event goes: ``kind == "chat"`` -> the chat ``id``; ``"user"`` -> privately to
    the user ``id`` (a DM, an ephemeral reply, or the terminal)."""

    kind: Literal["chat", "user"]
    platform: str
    id: str


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    platform: str  # "ai" for a computer player
    user_id: str  # the level ("easy", ...) for a computer player
    computer: bool
    level: str | None  # the computer level playing this seat (a computer, or a taken-over human)
    away: bool  # a human whose seat a computer has taken over
    left: bool = False  # a human who left the game (or was kicked): a computer plays the seat

    @property
    def plays_as_computer(self) -> bool:
        return self.computer or self.away


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A snapshot of a table's metadata at ``version``."""

    id: int
    platform: str
    chat_id: str
    game: str  # "scopa", "scopone", "scientifico", "scala40", "briscola", "chiamata"
    family: str  # "scopa", "scala40", "briscola" or "chiamata": leaderboards are per family
    status: str  # "lobby", "playing", "finished", "abandoned"
    version: int
    players: int
    options: JSONObject
    seats: tuple[SeatInfo | None, ...]
    creator: str
    current_seat: int | None = None
    teams: bool = False  # seats are chosen by players (4-player pairs: 0+2 vs 1+3)

    def seat_of(self, platform: str, user_id: str) -> int | None:
        for s in self.seats:
            if s is not None and not s.computer and (s.platform, s.user_id) == (platform, user_id):
                return s.seat
        return None

    @property
    def free_seats(self) -> int:
        return sum(1 for s in self.seats if s is None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    audience: Audience
    locale: str


class EventHead(TypedDict):
    """What every event of a table's chat carries (``TableEvent(**head, ...)``): the chat as
    audience, its language, the table's snapshot."""

    audience: Audience
    locale: str
    table: TableInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent(Event):
    """An event about one table (its snapshot at the version the buttons must carry)."""

    table: TableInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyView(TableEvent):
    """The lobby of a table not started yet (for the chat): seats, options, who may start.
    ``reason`` says why a closed lobby closed: "expired" (nobody started it in time),
    "replaced" (a new table took the place of an expired one), "" (abandoned)."""

    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView(TableEvent):
    """The public view of a playing or finished table (for the chat). ``view`` is the engine's
    public view (``game.view(None)``)."""

    view: GameView


@dataclass(frozen=True, slots=True, kw_only=True)
class HandView(TableEvent):
    """One player's private view (their hand; legal moves when it is their turn).

    ``focus`` is set when the player pressed a card that has several captures: the buttons then
    offer that card's choices only (the second step)."""

    seat: int
    view: GameView
    focus: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnNotice(TableEvent):
    """It is ``seat``'s turn (to the player privately); ``reminder`` on the timer's reminder."""

    seat: int
    reminder: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Announcement(TableEvent):
    """A short public announcement. ``kind``: "scopa" (data: seat, side), "fuori" (seat, move),
    "timeout" (seat: the computer played for an idle player), "taken_over" (seat),
    "taken_back" (seat), "abandoned" (by; a lobby closed by itself: reason "expired" or
    "replaced", and minutes), "started", "left" (seat, name; by: who kicked them, "" for a
    player who left; back: whether they may take the seat back); Briscola: "called" (seat, card,
    suit, threshold), "socio" (seat, alone), "redeal", "swap" (seat, card, took)."""

    kind: str
    data: JSONObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class SmazzataSummary(TableEvent):
    """A smazzata (Scopa) or hand (Scala 40) ended: ``scores`` per side is the engine's point
    breakdown (Scopa: carte, denari, settebello, primiera, scope, ..., total; Scala 40:
    penalty); ``points`` the totals (Scala 40: penalty scores, lower is better). ``data``:
    Scala 40's ``closer``, ``in_hand``, ``eliminated`` (seats); Scopa's ``rest`` (``side``,
    ``cards``: the cards left on the table, taken by the side that took last)."""

    number: int
    scores: tuple[dict[str, int], ...]
    points: tuple[int, ...]
    data: JSONObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class RatingDelta:
    name: str
    platform: str
    user_id: str
    before: float  # conservative rating (mu - 3 sigma), global scope
    after: float


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(TableEvent):
    """The game ended: ranks per side (0 = first), points per side, the FIGS multiplier, and
    the global rating changes of the human players."""

    ranks: tuple[int, ...]
    points: tuple[int, ...]
    winner: int | None
    multiplier: int
    ratings: tuple[RatingDelta, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardRow:
    rank: int
    name: str
    platform: str
    user_id: str
    rating: float  # conservative rating (mu - 3 sigma)
    games: int
    wins: int
    win_points: int  # wins weighted by the FIGS multiplier


@dataclass(frozen=True, slots=True, kw_only=True)
class Leaderboard(Event):
    """A leaderboard: ``scope`` is "global" or "chat"; rows best first. ``season`` names the
    season of a season's board ("" for all time); then ``previous`` is the podium (up to 3
    rows) of ``previous_season``."""

    family: str
    scope: str
    rows: tuple[BoardRow, ...]
    season: str = ""
    previous: tuple[BoardRow, ...] = ()
    previous_season: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Stats(Event):
    """One player's ratings: rows per family (global scope, and this chat's when asked there)."""

    name: str
    rows: tuple[tuple[str, str, BoardRow], ...]  # (family, scope "global"/"chat", row)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableChange:
    """A table reached a new version (told to the service's table listeners, synchronously,
    right after the commit): ``table`` its snapshot, ``game`` the immutable game at that version
    (None in a lobby), ``events`` the chat's events of that version alone (a move's
    announcements, summary, game over), ``rematch_of`` the table this one is a rematch of.
    Platform-neutral: a live page, a presence tracker or a cross-process announcer listens."""

    table: TableInfo
    game: GameState | None
    events: tuple[Event, ...] = ()
    rematch_of: int | None = None


# A refusal's parameter, for the renderer to fill in: a name, a number, the allowed player counts,
# or an engine error's ``RuleText`` params (strings by name).
RefusalParam: TypeAlias = str | int | list[int] | dict[str, str]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request changed nothing. ``code`` is one of :data:`REFUSALS`; ``detail`` is extra
    text (e.g. the engine's message listing the allowed options), in English. When the engine's
    error carries one, ``params["template"]`` is its English template and ``params["params"]``
    the values to fill in (``engine.errors.RuleText``), so the renderer can translate it."""

    code: str
    locale: str
    detail: str = ""
    params: dict[str, RefusalParam] = field(default_factory=dict)


REFUSALS = (
    "no_table",  # no open table in this chat (or no such table)
    "too_many_tables",  # the chat already has its open tables
    "unknown_game",
    "bad_option",  # detail: the engine's message listing what is allowed; params: template, params
    "bad_players",  # params: allowed
    "not_in_lobby",  # joining/leaving/starting a table that already started
    "table_full",
    "already_seated",
    "not_seated",
    "not_creator",  # only the creator (or a chat admin) may do this
    "seat_taken",
    "not_full",  # starting with free seats
    "not_playing",
    "stale",  # a button from an older version
    "not_your_turn",
    "illegal_move",  # detail: the engine's reason; params: move, template, params
    "bad_level",
    "bad_button",
    "bad_locale",
    "not_away",
    "conflict",  # another process changed the table at the same moment: try again
    "not_admin",  # /settings in a group: only its admins
    "bad_setting",  # an unknown setting or value; params: key (template, params)
    "admins_only",  # the chat lets only its admins open tables (/settings)
    "no_player",  # /kick: that user is not playing at the table; params: name
    "no_return",  # a player who left may not take the seat back at this table
)


@dataclass(slots=True)
class Result:
    """What a use case returns: the events to deliver (in order), the table touched, and a
    refusal when nothing changed."""

    events: list[Event] = field(default_factory=list)
    table: TableInfo | None = None
    refusal: Refusal | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None
