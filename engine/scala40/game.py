"""The Scala 40 match as players and the service see it: :class:`Game` (immutable; ``play`` returns
the next one), ``new_game``, views and saving.

The package along its seams: ``state`` (the data: phases, table melds, hand results, the state a
move works on), ``position`` (read-only questions: what may be played now), ``turns`` (every
change: the deal, the turn's flow, each move, the end of a hand and of the match), ``view`` (what
one seat sees), ``melds`` / ``opening`` / ``moves`` / ``rules``. This module imports them all;
none imports it back.

Glossary: **mano** = one hand (deal to closing); **cartaio/mazziere** = dealer; **pozzo** = the
discard pile; **tallone** = the stock; **apertura** = opening; **chiusura** = closing (emptying
the hand); **chiusura in mano** = closing in the same turn as opening; **sballare** = reaching the
elimination score; **rientro** = re-entering after elimination.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from engine.cards import Card, french_deck, parse_card

from .events import Scala40Event
from .melds import sort_cards
from .moves import IllegalMove, Move, parse_move
from .rules import Rules, RulesError
from .state import HandResult, Outcome, Phase, State, TableMeld
from .turns import CLOSE_IN_HAND_BONUS, FLAT_UNOPENED, HAND_SIZE, Turns, rng_for
from .view import Scala40View

__all__ = [
    "CLOSE_IN_HAND_BONUS",
    "DECK_SIZE",
    "FLAT_UNOPENED",
    "HAND_SIZE",
    "SCHEMA",
    "Game",
    "HandResult",
    "Outcome",
    "Phase",
    "TableMeld",
    "new_game",
]

SCHEMA = 1
DECK_SIZE = 108
# Every card of the two decks by its saved form ("7D", "7D'", "*"): loading a game is frequent.
_TOKENS: Mapping[str, Card] = MappingProxyType(
    {str(card): card for card in (*french_deck(0), *french_deck(1))}
)


def new_game(
    rules: Rules | None = None, seed: int | None = None, *, rng: random.Random | None = None
) -> Game:
    """A new match: random first dealer, first hand dealt. Pass ``seed`` (an int) or ``rng``
    (a ``random.Random`` that supplies the seed); the same seed and moves give the same game."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise RulesError("rules must be scala40.Rules, not {kind}", kind=type(rules).__name__)
    if seed is None:
        if rng is None:
            raise ValueError("new_game needs a seed (int) or an rng (random.Random)")
        seed = rng.getrandbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, not {seed!r}")
    n = rules.players
    dealer = rng_for(seed, "dealer").randrange(n)
    state = State(
        seed=seed,
        hand_no=1,
        dealer=dealer,
        current=dealer,
        phase=Phase.DRAW,
        hands=[[] for _ in range(n)],
        melds=[],
        stock=[],
        pile=[],
        opened=[False] * n,
        dealt=[True] * n,
        active=[True] * n,
        reentered=[False] * n,
        out_at=[0] * n,
        scores=[0] * n,
    )
    turns = Turns(rules, state)
    turns.deal()
    return Game(rules, state, tuple(turns.events))


class Game:
    """One Scala 40 match. Immutable from the outside: ``play()`` returns a new Game."""

    __slots__ = ("_events", "_legal", "_rules", "_s")

    def __init__(self, rules: Rules, state: State, events: tuple[Scala40Event, ...] = ()) -> None:
        self._rules = rules
        self._s = state
        self._legal: list[Move] | None = None
        self._events = events

    # -- the generic surface -------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Each player is a side of their own."""
        return tuple((seat,) for seat in range(self.players))

    @property
    def current_player(self) -> int | None:
        return None if self._s.phase is Phase.OVER else self._s.current

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    @property
    def winner(self) -> int | None:
        """The last player left in, once the match is over."""
        return self._s.winner

    def points(self, seat: int) -> int:
        """The seat's match score: penalty points added up over the hands (lower is better)."""
        return self._s.scores[self._seat(seat)]

    def outcome(self) -> Outcome | None:
        """None until the match is over."""
        s = self._s
        if s.phase is not Phase.OVER or s.winner is None:
            return None
        # The winner has out_at 0 (never out, or re-entered); later eliminations rank higher.
        keys = [(-(s.out_at[seat] or 10**9), s.scores[seat]) for seat in range(self.players)]
        ranks = tuple(sum(other < key for other in keys) for key in keys)
        return Outcome(winner=s.winner, ranks=ranks, points=tuple(s.scores))

    # -- Scala 40 state --------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards in the sorted-hand order (``scala40.sort_key``)."""
        return sort_cards(self._s.hands[self._seat(seat)])

    @property
    def melds(self) -> tuple[TableMeld, ...]:
        """Table melds in the order laid; move strings number them from 1."""
        return tuple(self._s.melds)

    @property
    def pile_top(self) -> Card | None:
        return self._s.pile[-1] if self._s.pile else None

    @property
    def pile_count(self) -> int:
        return len(self._s.pile)

    @property
    def stock_count(self) -> int:
        return len(self._s.stock)

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (from 1)."""
        return self._s.hand_no

    @property
    def seed(self) -> int:
        return self._s.seed

    @property
    def turn(self) -> int:
        """Turns begun in this hand before the current one (0 in the first player's first turn)."""
        return self._s.turn

    @property
    def closing_allowed(self) -> bool:
        """False in the first round of a hand, when nobody may close yet."""
        return Turns(self._rules, self._s).closing_allowed()

    def hand_count(self, seat: int) -> int:
        return len(self._s.hands[self._seat(seat)])

    def has_opened(self, seat: int) -> bool:
        return self._s.opened[self._seat(seat)]

    def is_eliminated(self, seat: int) -> bool:
        return not self._s.active[self._seat(seat)]

    def has_reentered(self, seat: int) -> bool:
        return self._s.reentered[self._seat(seat)]

    @property
    def pile_card_taken(self) -> Card | None:
        """The card the current player took from the pozzo this turn, while still held."""
        return self._s.pile_card

    @property
    def drawn(self) -> Card | None:
        """The card the current player drew from the tallone this turn (None after a draw from
        the pozzo, and once the turn passes). Hidden information: only that player's own view
        carries it."""
        return self._s.drawn

    @property
    def must_open(self) -> bool:
        """The current player took the pozzo's card without having opened: the next move must be
        an opening that uses it."""
        return self._s.must_open

    @property
    def must_use(self) -> bool:
        """The current player took the pozzo's card and must lay it before anything else."""
        return self._s.must_use

    @property
    def last_move(self) -> tuple[int, str] | None:
        return self._s.last_move

    @property
    def last_hand(self) -> HandResult | None:
        return self._s.last_hand

    @property
    def events(self) -> tuple[Scala40Event, ...]:
        """What the move that made this game did, in order (``engine.scala40.events``); a new
        game: its first deal; a game loaded by ``from_dict``: none (events are not saved)."""
        return self._events

    def all_cards(self) -> list[Card]:
        """Every card somewhere in the game: hands, melds, pozzo, tallone (always 108)."""
        s = self._s
        cards = [card for hand in s.hands for card in hand]
        cards += [card for meld in s.melds for card in meld.cards]
        return cards + s.pile + s.stock

    # -- moves -----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """The moves the current player may make, each legal (see the package docstring for
        what is listed: an opening is offered as the best one by points)."""
        if self._legal is None:
            self._legal = Turns(self._rules, self._s).offers()
        return list(self._legal)

    def play(self, move: Move | str) -> Game:
        """The game after the current player's ``move``; IllegalMove / MoveParseError if bad."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise IllegalMove("a move is a Move or a string, not {kind}", kind=type(move).__name__)
        state = self._s.copy()
        seat = state.current
        turns = Turns(self._rules, state)
        turns.apply(move)
        state.last_move = (seat, str(move))
        return Game(self._rules, state, tuple(turns.events))

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat!r}")
        return seat

    # -- views and persistence ---------------------------------------------------------------

    def view(self, seat: int | None) -> Scala40View:
        """What ``seat`` may see (its own hand and everything public); None = the public view."""
        if seat is not None:
            self._seat(seat)
        seats = range(self.players)
        to_move = seat is not None and seat == self.current_player
        return Scala40View(
            seat=seat,
            rules=self.rules,
            players=self.players,
            sides=self.sides,
            hand=() if seat is None else self.hand(seat),
            hand_counts=tuple(self.hand_count(other) for other in seats),
            melds=self.melds,
            pile_top=self.pile_top,
            pile_count=self.pile_count,
            stock_count=self.stock_count,
            dealer=self.dealer,
            current_player=self.current_player,
            phase=self.phase,
            hand_number=self.hand_number,
            closing_allowed=self.closing_allowed,
            opened=tuple(self.has_opened(other) for other in seats),
            scores=tuple(self.points(other) for other in seats),
            eliminated=tuple(self.is_eliminated(other) for other in seats),
            reentered=tuple(self.has_reentered(other) for other in seats),
            elimination=self.rules.elimination,
            opening_points=self.rules.opening_points,
            pile_card_taken=self.pile_card_taken,
            must_open=self.must_open,
            must_use=self.must_use,
            legal_moves=tuple(str(move) for move in self.legal_moves()) if to_move else (),
            last_move=self.last_move,
            last_hand=self.last_hand,
            is_over=self.is_over,
            winner=self.winner,
            pile=tuple(self._s.pile),
            drawn=self.drawn if to_move else None,
        )

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data with ``"schema"``; ``Game.from_dict`` restores it."""
        s = self._s
        return {
            "schema": SCHEMA,
            "game": "scala40",
            "rules": self._rules.to_dict(),
            "seed": s.seed,
            "hand_no": s.hand_no,
            "dealer": s.dealer,
            "current": s.current,
            "phase": s.phase.value,
            "hands": [_cards_text(hand) for hand in s.hands],
            "melds": [meld.to_dict() for meld in s.melds],
            "stock": _cards_text(s.stock),
            "pile": _cards_text(s.pile),
            "opened": list(s.opened),
            "dealt": list(s.dealt),
            "active": list(s.active),
            "reentered": list(s.reentered),
            "out_at": list(s.out_at),
            "scores": list(s.scores),
            "turn": s.turn,
            "opened_at_start": s.opened_at_start,
            "pile_card": None if s.pile_card is None else str(s.pile_card),
            "drawn": None if s.drawn is None else str(s.drawn),
            "must_open": s.must_open,
            "must_use": s.must_use,
            "no_attach": None if s.no_attach is None else str(s.no_attach),
            "top_attachable": s.top_attachable,
            "pile_free": s.pile_free,
            "restocks": s.restocks,
            "pending": list(s.pending),
            "last_move": None if s.last_move is None else list(s.last_move),
            "last_hand": None if s.last_hand is None else s.last_hand.to_dict(),
            "winner": s.winner,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        """Restore ``to_dict()`` output; bad or inconsistent data raises ValueError."""
        if not isinstance(data, dict):
            raise ValueError(f"a saved Scala 40 game is a dict, not {type(data).__name__}")
        if data.get("schema") != SCHEMA or data.get("game") != "scala40":
            raise ValueError(
                f"not a Scala 40 game of schema {SCHEMA} "
                f"(game={data.get('game')!r}, schema={data.get('schema')!r})"
            )
        rules = Rules.from_dict(data["rules"])

        def parse_cards(text: str) -> tuple[Card, ...]:
            if not isinstance(text, str):
                raise TypeError(f"expected cards as a string, got {text!r}")
            return tuple(_TOKENS.get(token) or parse_card(token) for token in text.split())

        try:
            state = State(
                seed=_int(data["seed"]),
                hand_no=_int(data["hand_no"]),
                dealer=_int(data["dealer"]),
                current=_int(data["current"]),
                phase=Phase(data["phase"]),
                hands=[list(parse_cards(text)) for text in data["hands"]],
                melds=[TableMeld(_int(m["owner"]), parse_cards(m["cards"])) for m in data["melds"]],
                stock=list(parse_cards(data["stock"])),
                pile=list(parse_cards(data["pile"])),
                opened=_bools(data["opened"]),
                dealt=_bools(data["dealt"]),
                active=_bools(data["active"]),
                reentered=_bools(data["reentered"]),
                out_at=[_int(v) for v in data["out_at"]],
                scores=[_int(v) for v in data["scores"]],
                turn=_int(data["turn"]),
                opened_at_start=bool(data["opened_at_start"]),
                pile_card=None if data["pile_card"] is None else parse_card(data["pile_card"]),
                # Saved before the drawn card was remembered: nothing to tell.
                drawn=None if data.get("drawn") is None else parse_card(data["drawn"]),
                must_open=bool(data["must_open"]),
                must_use=bool(data["must_use"]),
                no_attach=None if data["no_attach"] is None else parse_card(data["no_attach"]),
                top_attachable=bool(data["top_attachable"]),
                pile_free=bool(data["pile_free"]),
                restocks=_int(data["restocks"]),
                pending=[_int(v) for v in data["pending"]],
                last_move=None
                if data["last_move"] is None
                else (_int(data["last_move"][0]), str(data["last_move"][1])),
                last_hand=None
                if data["last_hand"] is None
                else HandResult.from_dict(data["last_hand"]),
                winner=None if data["winner"] is None else _int(data["winner"]),
            )
        except (KeyError, TypeError, IndexError, ValueError) as error:
            raise ValueError(f"bad saved Scala 40 game: {error!r}") from error
        n = rules.players
        lists = (state.hands, state.opened, state.dealt, state.active, state.reentered,
                 state.out_at, state.scores)  # fmt: skip
        if any(len(values) != n for values in lists):
            raise ValueError(f"bad saved Scala 40 game: per-seat lists must have {n} entries")
        game = cls(rules, state)
        counts = Counter((card.rank, card.suit) for card in game.all_cards())
        if sum(counts.values()) != DECK_SIZE or any(
            count != (4 if rank == "*" else 2) for (rank, _), count in counts.items()
        ):
            raise ValueError("bad saved Scala 40 game: the cards are not the 108 of two decks")
        return game

    def __repr__(self) -> str:
        return (
            f"<scala40.Game hand={self._s.hand_no} phase={self._s.phase} "
            f"current={self.current_player} scores={self._s.scores}>"
        )


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(map(str, cards))


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _bools(values: Any) -> list[bool]:
    if not isinstance(values, list) or not all(isinstance(v, bool) for v in values):
        raise TypeError(f"expected a list of booleans, got {values!r}")
    return list(values)
