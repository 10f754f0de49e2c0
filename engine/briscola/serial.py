"""A Briscola match as a JSON-safe document (for storage: hidden cards too) and back, checked:
every field's type, the seats and sides, and that every card is there once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.briscola.moves import Phase
from engine.briscola.records import (
    DealResult,
    Event,
    Trick,
    as_int,
    cards_text,
    opt_card,
    opt_int,
    parse_cards,
)
from engine.briscola.rules import Rules
from engine.briscola.state import State, sides_of
from engine.cards import italian_deck, parse_card

__all__ = ["SCHEMA", "state_from_dict", "state_to_dict"]

SCHEMA = 1


def state_to_dict(rules: Rules, s: State) -> dict[str, Any]:
    """The document of :meth:`engine.briscola.game.Game.to_dict`."""
    return {
        "schema": SCHEMA,
        "game": "briscola",
        "rules": rules.to_dict(),
        "seed": s.seed,
        "shuffles": s.shuffles,
        "dealer": s.dealer,
        "phase": s.phase.value,
        "hands": [cards_text(h) for h in s.hands],
        "stock": cards_text(s.stock),
        "face_up": None if s.face_up is None else str(s.face_up),
        "turned_up": None if s.turned_up is None else str(s.turned_up),
        "swapped": None if s.swapped is None else [s.swapped[0], str(s.swapped[1])],
        "trump": s.trump,
        "leader": s.leader,
        "trick": cards_text(s.trick),
        "tricks": [t.to_dict() for t in s.tricks],
        "won": [cards_text(w) for w in s.won],
        "last_trick": None if s.last_trick is None else s.last_trick.to_dict(),
        "current": s.current,
        "auction": [[k, b] for k, b in s.auction],
        "passed": list(s.passed),
        "high_bidder": s.high_bidder,
        "bid_rank": s.bid_rank,
        "bid_points": s.bid_points,
        "caller": s.caller,
        "called": None if s.called is None else str(s.called),
        "socio": s.socio,
        "revealed": s.revealed,
        "scores": list(s.scores),
        "results": [r.to_dict() for r in s.results],
        "winner": s.winner,
        "last_move": None if s.last_move is None else list(s.last_move),
        "events": [e.to_dict() for e in s.events],
    }


def state_from_dict(data: Mapping[str, Any]) -> tuple[Rules, State]:
    """The rules and state a document of ``state_to_dict`` holds; ValueError on a bad or
    foreign document."""
    if not isinstance(data, Mapping) or data.get("game") != "briscola":
        raise ValueError("not a saved Briscola game")
    if data.get("schema") != SCHEMA:
        raise ValueError(f"unsupported saved-game schema {data.get('schema')!r}")
    rules = Rules.from_dict(data["rules"])
    try:
        last = data["last_trick"]
        last_move = data["last_move"]
        swapped = data["swapped"]
        state = State(
            seed=as_int(data["seed"]),
            shuffles=as_int(data["shuffles"]),
            dealer=as_int(data["dealer"]),
            phase=Phase(data["phase"]),
            hands=[list(parse_cards(h)) for h in data["hands"]],
            stock=list(parse_cards(data["stock"])),
            face_up=opt_card(data["face_up"]),
            turned_up=opt_card(data["turned_up"]),
            swapped=None if swapped is None else (as_int(swapped[0]), parse_card(swapped[1])),
            trump=None if data["trump"] is None else str(data["trump"]),
            leader=as_int(data["leader"]),
            trick=list(parse_cards(data["trick"])),
            tricks=[Trick.from_dict(t) for t in data["tricks"]],
            won=[list(parse_cards(w)) for w in data["won"]],
            last_trick=None if last is None else Trick.from_dict(last),
            current=opt_int(data["current"]),
            auction=[(as_int(k), str(b)) for k, b in data["auction"]],
            passed=[bool(p) for p in data["passed"]],
            high_bidder=opt_int(data["high_bidder"]),
            bid_rank=None if data["bid_rank"] is None else str(data["bid_rank"]),
            bid_points=opt_int(data["bid_points"]),
            caller=opt_int(data["caller"]),
            called=opt_card(data["called"]),
            socio=opt_int(data["socio"]),
            revealed=bool(data["revealed"]),
            scores=[as_int(x) for x in data["scores"]],
            results=[DealResult.from_dict(r) for r in data["results"]],
            winner=opt_int(data["winner"]),
            last_move=None if last_move is None else (as_int(last_move[0]), str(last_move[1])),
            events=[Event.from_dict(e) for e in data["events"]],
        )
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise ValueError(f"corrupt saved Briscola game: {exc!r}") from None
    n = rules.players
    lists = (state.hands, state.won, state.passed)
    if any(len(x) != n for x in lists) or len(state.scores) != len(sides_of(rules)):
        raise ValueError("corrupt saved Briscola game: wrong number of seats or sides")
    expected = [c for c in italian_deck() if n != 3 or str(c) != rules.removed_two]
    cards = state.cards()
    if sorted(map(str, cards)) != sorted(map(str, expected)):
        raise ValueError("corrupt saved Briscola game: the cards are not all there once")
    return rules, state
