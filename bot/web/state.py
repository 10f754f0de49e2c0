"""One seat's JSON view of a table version (docs/web-protocol.md, "state"): what a page is sent.

Built from a :class:`~bot.service.TableChange` for one viewer: a seated player gets the
engine's view of their own seat (their hand, their legal moves), anyone else the public view
(``game.view(None)``: no hand at all). The stock's order and the other hands never leave the
engine: only ``view(seat)`` of the viewer's own seat is serialised. Labels and texts come from
the renderer and the chat's catalogs, in the viewer's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TypedDict

from bot.render import Message, Renderer, card_text, family_renderer
from bot.render.scala40 import move_cards
from bot.service import (
    Announcement,
    Audience,
    Event,
    GameOver,
    HandView,
    LobbyView,
    SmazzataSummary,
    TableChange,
    TableInfo,
    TableView,
    decode_button,
)

__all__ = ["SharedKey", "TableState", "Viewer", "build_state", "event_texts", "seat_of"]

# A public message rendered once per version and language: (kind, table, version, locale).
SharedKey = tuple[str, int, int, str]


class SeatState(TypedDict):
    seat: int
    name: str
    free: bool
    computer: bool
    you: bool
    connected: bool
    team: int | None


class MoveState(TypedDict):
    move: str
    label: str
    card: str | None
    cards: list[str]


class TextState(TypedDict):
    table: str
    hand: str


class TableState(TypedDict):
    """The ``state`` of a frame (docs/web-protocol.md)."""

    game: str
    family: str
    status: str
    closed: str
    locale: str
    deck: str
    title: str
    game_name: str
    players: int
    seats: list[SeatState]
    you: int | None
    turn: int | None
    creator: bool
    actions: list[dict[str, str]]
    moves: list[MoveState]
    view: dict[str, object] | None
    text: TextState
    rematch_of: int | None
    away: bool


# Card tokens in a move string (Scopa "7D:3C+4S", Briscola "KB", Scala 40 "o 7D8D9D").
# Whole tokens only: "pass" names no ace of spades.
_CARD = re.compile(r"(?<![A-Z0-9])(?:10|[A2-9TJQK])[DCSB]'?(?![A-Z0-9])|\*'?")
# Buttons of the chat messages that mean nothing on the page (it shows the hand itself, and
# Scala 40's card selection is the page's own).
_CHAT_ONLY = ("@hand",)


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: their platform identity and language (``seat`` is found per version)."""

    platform: str
    user_id: str
    locale: str


def seat_of(table: TableInfo, viewer: Viewer) -> int | None:
    """The viewer's seat while they play it themselves (not after leaving the game)."""
    seat = table.seat_of(viewer.platform, viewer.user_id)
    if seat is None:
        return None
    info = table.seats[seat]
    if info is None or info.left:
        return None
    return seat


def _actions(*messages: Message) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for message in messages:
        for row in message.buttons:
            for button in row:
                try:
                    action = decode_button(button.data).action
                except ValueError:
                    continue
                if not action.startswith("@") or action in _CHAT_ONLY or action in seen:
                    continue
                seen.add(action)
                out.append({"action": action, "label": button.label})
    return out


def _move_cards_of(family: str, move: str) -> list[str]:
    if family == "scala40":
        return move_cards(move)
    return [m.group(0).rstrip("'") for m in _CARD.finditer(move.upper())]


def event_texts(renderer: Renderer, events: tuple[Event, ...], locale: str) -> list[str]:
    """What the chat heard of a version (announcements, a deal's summary, the game's end), in
    ``locale``."""
    out = []
    for event in events:
        if isinstance(event, Announcement | SmazzataSummary | GameOver):
            text = renderer.render(replace(event, locale=locale)).text
            if text:
                out.append(text)
    return out


def build_state(
    renderer: Renderer,
    change: TableChange,
    viewer: Viewer,
    *,
    deck: str,
    connected: frozenset[int] = frozenset(),
    shared: dict[SharedKey, Message] | None = None,
) -> TableState:
    """The ``state`` of ``change``'s version as ``viewer`` may see it (see the module doc).
    ``shared``: the public messages already rendered for this version (by locale), filled in."""
    shared = {} if shared is None else shared
    table = change.table
    locale = viewer.locale
    t = renderer.translations(locale)
    seat = seat_of(table, viewer)
    chat = Audience("chat", table.platform, table.chat_id)
    status = {"lobby": "lobby", "playing": "playing"}.get(table.status, "over")
    seats: list[SeatState] = [
        {
            "seat": i,
            "name": renderer.seat_name(table, i, t),
            "free": info is None,
            "computer": info is not None and info.plays_as_computer,
            "you": i == seat,
            "connected": i in connected,
            "team": _team(table, i),
        }
        for i, info in enumerate(table.seats)
    ]
    state: TableState = {
        "game": table.game,
        "family": table.family,
        "status": status,
        "closed": table.status,  # lobby | playing | finished | abandoned
        "locale": locale,
        "deck": deck,
        "title": t.gettext("{game} · table {id}").format(
            game=renderer.game_name(table, t), id=table.id
        ),
        "game_name": renderer.game_name(table, t),
        "players": table.players,
        "seats": seats,
        "you": seat,
        "turn": table.current_seat if status == "playing" else None,
        "creator": table.creator == viewer.user_id and table.platform == viewer.platform,
        "actions": [],
        "moves": [],
        "view": None,
        "text": {"table": "", "hand": ""},
        "rematch_of": change.rematch_of,
        "away": False,
    }
    if table.status == "lobby" or change.game is None:
        lobby = shared.get(("lobby", table.id, table.version, locale))
        if lobby is None:
            lobby = renderer.render(LobbyView(audience=chat, locale=locale, table=table))
            shared[("lobby", table.id, table.version, locale)] = lobby
        state["actions"] = _actions(lobby)
        state["text"]["table"] = lobby.text
        return state
    game = change.game
    public = shared.get(("table", table.id, table.version, locale))
    if public is None:
        public = renderer.render(
            TableView(audience=chat, locale=locale, table=table, view=game.view(None))
        )
        shared[("table", table.id, table.version, locale)] = public
    messages = [public]
    own = seat if seat is not None and status == "playing" else None
    info = table.seats[own] if own is not None else None
    away = info is not None and info.away
    view = game.view(own)
    if own is not None and not away:
        hand = HandView(
            audience=Audience("user", viewer.platform, viewer.user_id),
            locale=locale,
            table=table,
            seat=own,
            view=view,
        )
        rendered = renderer.render(hand)
        messages.append(rendered)
        state["text"]["hand"] = rendered.text
        family = family_renderer(table.family)
        state["moves"] = [
            {
                "move": move,
                "label": family.move_label(move, t),
                "card": family.played_card(move),
                "cards": _move_cards_of(table.family, move),
            }
            for move in view.legal_moves
        ]
    state["view"] = view.to_dict()
    state["text"]["table"] = public.text
    state["actions"] = _actions(*messages)
    if away:
        # The computer plays this player's seat (they were idle): the page offers the seat back.
        label = renderer.translations(locale).gettext("Take my seat back")
        state["actions"].insert(0, {"action": "@back", "label": label})
    state["away"] = away
    return state


def _team(table: TableInfo, seat: int) -> int | None:
    """Scopone's pairs (seats 0+2 and 1+3) and any 4-player team game: the side's number."""
    if not table.teams:
        return None
    return seat % 2


def card_name(card: str) -> str:
    """A card as the chat writes it (``7D`` -> ``7♦``)."""
    return card_text(card)
