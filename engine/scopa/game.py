"""The state of a Scopa-family game: :class:`Game` (``play`` returns the next state), its turns,
captures, the end of each smazzata, fuori, the views and saving.

Why this file is over 600 lines: ``Game`` keeps its state as bit masks that every method reads
directly (the speed of ``legal_moves`` and ``play`` depends on it); its parts already live
elsewhere along their seams: the move notation in ``moves``, the deal in ``deal``, the views and
records in ``view``, the events in ``events``, scoring in ``scoring``, captures in ``capture``.

Glossary: **smazzata** = one deal played out; **mano** = one round in which every player plays a
card; **mazziere** / **cartaro** = the dealer; **primo di mano** = the seat after the dealer, who
plays first; **presa** = capture; **scopa** = a capture that sweeps the table; **fuori** = declaring
the game won during play (FIGS art. 16).

Move strings: ``"7D"`` plays the 7 of denari and leaves it on the table; ``"7D:3C+4S"`` plays it
capturing the 3 of coppe and the 4 of spade (capture cards in any order); a trailing ``"!"``
(``"7D!"``, ``"7D:3C+4S!"``) also declares fuori (``engine.scopa.moves``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, CardParseError, parse_cards
from engine.errors import Problem
from engine.scopa.capture import capture_masks
from engine.scopa.deal import deal, needs_redeal, stream
from engine.scopa.events import (
    Captured,
    Dealt,
    Fuori,
    GameOver,
    Played,
    Rest,
    Scopa,
    ScopaEvent,
    SmazzataScored,
)
from engine.scopa.moves import IllegalMove, Move, MoveParseError, card_order
from engine.scopa.rules import Rules
from engine.scopa.scoring import certain_points, score_masks
from engine.scopa.tables import (
    CARD_TEXT,
    CARDS,
    FULL_MASK,
    INDEX,
    VALUE,
    VALUE_MASK,
    cards_of,
    indices_of,
    mask_of,
)
from engine.scopa.view import Outcome, ScopaView, Smazzata

__all__ = [
    "SCHEMA",
    "Game",
    "IllegalMove",
    "Move",
    "MoveParseError",
    "Outcome",
    "ScopaView",
    "Smazzata",
    "needs_redeal",
    "new_game",
]

SCHEMA = 1


def new_game(rules: Rules | None = None, *, seed: int | random.Random) -> Game:
    """A new game: random first dealer and the first deal, both fixed by ``seed``."""
    rules = rules or Rules()
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**63)
    if type(seed) is not int:
        raise TypeError("seed must be an int or a random.Random")
    return Game._start(rules, seed)


# The moves that capture nothing, and those that capture one card, built once.
_PLAIN: tuple[Move, ...] = tuple(Move(card) for card in CARDS)
_SINGLE: tuple[tuple[tuple[Move, str], ...], ...] = tuple(
    tuple(
        (Move(CARDS[card], frozenset([CARDS[taken]])), f"{CARD_TEXT[card]}:{CARD_TEXT[taken]}")
        for taken in range(40)
    )
    for card in range(40)
)


def _multiplier(loser_points: int) -> int:
    """FIGS art. 16: single if the losers have 4+ points, double with 1-3, triple with 0."""
    if loser_points >= 4:
        return 1
    return 2 if loser_points >= 1 else 3


class Game:
    """A Scopa-family game. ``play`` returns the game after the move and leaves this one as it was.

    Seats are numbered in play order; the seat after the dealer plays first. Sides: with 2 or 3
    players side = seat; with 4 players side 0 = seats 0 and 2, side 1 = seats 1 and 3.
    """

    __slots__ = (
        "_captured",
        "_current",
        "_dealer",
        "_deals",
        "_deck",
        "_events",
        "_hands",
        "_history",
        "_last_move",
        "_last_taker",
        "_legal",
        "_move",
        "_multiplier",
        "_rules",
        "_scope",
        "_seed",
        "_smazzate",
        "_start_totals",
        "_table",
        "_totals",
        "_winner",
    )

    _rules: Rules
    _seed: int
    _deals: int
    _dealer: int
    _hands: list[int]
    _table: int
    _deck: list[int]
    _captured: list[int]
    _scope: list[int]
    _last_taker: int | None
    _current: int | None
    _history: list[tuple[int, str]]
    _last_move: tuple[int, str] | None
    _smazzate: list[Smazzata]
    _totals: list[int]
    _start_totals: list[int]
    _winner: int | None
    _multiplier: int
    _legal: tuple[list[Move], list[tuple[int, int, str]]] | None  # computed once per state
    # What the move that made this state did (not saved): the card played, kept raw as (seat,
    # card, capture, side, scopa) because play() is hot and events are read far less often; then
    # the rarer events (fuori, the end of a smazzata, a deal), as values. _copy() leaves both
    # unset (an unset slot reads as none, see events) to keep play() as fast as it was.
    _move: tuple[int, int, int, int, bool] | None
    _events: tuple[ScopaEvent, ...]

    # ----------------------------------------------------------------- construction
    @classmethod
    def _start(cls, rules: Rules, seed: int) -> Game:
        game = cls.__new__(cls)
        game._rules = rules
        game._seed = seed
        game._deals = 0
        game._dealer = random.Random(stream(seed, 0)).randrange(rules.players)
        sides = rules.sides
        game._totals = [0] * sides
        game._smazzate = []
        game._winner = None
        game._multiplier = 1
        game._last_move = None
        game._legal = None
        game._move = None
        game._events = ()
        game._deal()
        return game

    def _copy(self) -> Game:
        other = Game.__new__(Game)
        other._rules = self._rules
        other._seed = self._seed
        other._deals = self._deals
        other._dealer = self._dealer
        other._hands = self._hands.copy()
        other._table = self._table
        other._deck = self._deck.copy()
        other._captured = self._captured.copy()
        other._scope = self._scope.copy()
        other._last_taker = self._last_taker
        other._current = self._current
        other._history = self._history.copy()
        other._last_move = self._last_move
        other._smazzate = self._smazzate.copy()
        other._totals = self._totals.copy()
        other._start_totals = self._start_totals.copy()
        other._winner = self._winner
        other._multiplier = self._multiplier
        other._legal = None
        return other

    def _deal(self) -> None:
        """Deal a new smazzata by ``_dealer`` (``engine.scopa.deal``)."""
        rules = self._rules
        dealt = deal(rules, seed=self._seed, dealer=self._dealer, shuffles=self._deals)
        self._deals = dealt.shuffles
        self._hands = dealt.hands
        self._table = dealt.table
        self._deck = dealt.deck
        self._captured = [0] * rules.sides
        self._scope = [0] * rules.sides
        self._last_taker = None
        self._history = []
        self._start_totals = self._totals.copy()
        self._current = (self._dealer + 1) % rules.players
        self._note(Dealt(self._dealer, len(self._smazzate) + 1))

    # ----------------------------------------------------------------- reading
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def players(self) -> int:
        return self._rules.players

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self._rules.players == 4:
            return ((0, 2), (1, 3))
        return tuple((s,) for s in range(self._rules.players))

    def side_of(self, seat: int) -> int:
        return seat % 2 if self._rules.players == 4 else seat

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def current_player(self) -> int | None:
        return self._current

    @property
    def is_over(self) -> bool:
        return self._current is None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def table(self) -> tuple[Card, ...]:
        return cards_of(self._table)

    @property
    def deck_count(self) -> int:
        return len(self._deck)

    @property
    def smazzate(self) -> list[Smazzata]:
        return list(self._smazzate)

    @property
    def smazzata_number(self) -> int:
        """The smazzata being played (from 1); after the end, the last one played."""
        return len(self._smazzate) + (0 if self.is_over else 1)

    @property
    def history(self) -> tuple[tuple[int, str], ...]:
        """The moves of the current smazzata, as (seat, move string)."""
        return tuple(self._history)

    @property
    def last_move(self) -> tuple[int, str] | None:
        return self._last_move

    @property
    def events(self) -> tuple[ScopaEvent, ...]:
        """What the move that made this state did, in order (``engine.scopa.events``); a new
        game: its first deal; a game loaded by ``from_dict``: none (events are not saved)."""
        move: tuple[int, int, int, int, bool] | None = getattr(self, "_move", None)
        rest: tuple[ScopaEvent, ...] = getattr(self, "_events", ())
        if move is None:
            return rest
        seat, card, capture, side, swept = move
        if not capture:
            return (Played(seat, CARDS[card]), *rest)
        captured = Captured(seat, CARDS[card], cards_of(capture), side)
        if swept:
            return (captured, Scopa(seat, side), *rest)
        return (captured, *rest)

    def _note(self, *events: ScopaEvent) -> None:
        self._events = (*getattr(self, "_events", ()), *events)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._hands[self._seat(seat)])

    def captured(self, side: int) -> tuple[Card, ...]:
        return cards_of(self._captured[self._side(side)])

    def scope(self, side: int) -> int:
        return self._scope[self._side(side)]

    def points(self, side: int) -> int:
        return self._totals[self._side(side)]

    def _seat(self, seat: int) -> int:
        if type(seat) is not int or not 0 <= seat < self._rules.players:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {self._rules.players - 1}")
        return seat

    def _side(self, side: int) -> int:
        if type(side) is not int or not 0 <= side < self._rules.sides:
            raise ValueError(f"no side {side!r}: sides are 0 to {self._rules.sides - 1}")
        return side

    def outcome(self) -> Outcome | None:
        """None while the game goes on; then who won, each side's rank and points."""
        if self._winner is None:
            return None
        totals = self._totals
        others = [s for s in range(len(totals)) if s != self._winner]
        ranks = [0] * len(totals)
        for s in others:
            ranks[s] = 1 + sum(1 for o in others if totals[o] > totals[s])
        return Outcome(self._winner, tuple(ranks), tuple(totals), self._multiplier)

    # ----------------------------------------------------------------- moves
    def _options(self, card: int) -> list[int]:
        rules = self._rules
        return capture_masks(
            self._table,
            card,
            asso_piglia_tutto=rules.asso_piglia_tutto,
            scopa_a_15=rules.scopa_a_15,
        )

    def _is_last_play(self) -> bool:
        """True when the card about to be played is the last one of the smazzata."""
        return not self._deck and sum(h.bit_count() for h in self._hands) == 1

    def _fuori_allowed(self) -> bool:
        rules = self._rules
        if not rules.fuori or self._current is None:
            return False
        start = self._start_totals
        if start[0] == start[1] and start[0] >= rules.target:
            return False  # art. 16: not when the smazzata began tied at 8 or more
        return not self._is_last_play()  # the dealer's very last play may not declare

    def _legal_lists(self) -> tuple[list[Move], list[tuple[int, int, str]]]:
        """The legal moves, and for each (card index, capture mask, move string), in hand order."""
        if self._legal is not None:
            return self._legal
        moves: list[Move] = []
        entries: list[tuple[int, int, str]] = []
        seat = self._current
        if seat is not None:
            rules = self._rules
            table = self._table
            if rules.asso_piglia_tutto or rules.scopa_a_15:
                per_card = [
                    (card, capture_masks(table, card, rules.asso_piglia_tutto, rules.scopa_a_15))
                    for card in indices_of(self._hands[seat])
                ]
            else:  # the usual rules, with the presa pari test inlined
                per_card = []
                for card in indices_of(self._hands[seat]):
                    same = table & VALUE_MASK[VALUE[card]]
                    if same and not same & (same - 1):
                        per_card.append((card, [same]))
                    elif same or table & (table - 1):
                        per_card.append((card, capture_masks(table, card)))
                    else:
                        per_card.append((card, []))
            if rules.obbligo_di_presa and any(opts for _, opts in per_card):
                per_card = [(card, opts) for card, opts in per_card if opts]
            for card, options in per_card:
                if not options:
                    moves.append(_PLAIN[card])
                    entries.append((card, 0, CARD_TEXT[card]))
                    continue
                for capture in options:
                    if not capture & (capture - 1):  # one card: presa pari, built once
                        move, text = _SINGLE[card][capture.bit_length() - 1]
                    else:
                        taken = indices_of(capture)
                        move = Move(CARDS[card], frozenset([CARDS[i] for i in taken]))
                        text = CARD_TEXT[card] + ":" + "+".join([CARD_TEXT[i] for i in taken])
                    moves.append(move)
                    entries.append((card, capture, text))
            if self._fuori_allowed():
                moves += [Move(m.card, m.capture, True) for m in moves]
                entries += [(card, capture, text + "!") for card, capture, text in entries]
        self._legal = (moves, entries)
        return self._legal

    def legal_moves(self) -> list[Move]:
        """Every move the seat to move may make, card by card in hand order."""
        return list(self._legal_lists()[0])

    def play(self, move: Move | str) -> Game:
        """The game after ``move`` (a Move or its string); raises IllegalMove/MoveParseError."""
        seat = self._current
        moves, entries = self._legal_lists()
        entry = None
        if isinstance(move, str):
            for candidate in entries:  # the canonical string, as legal_moves() writes it
                if candidate[2] == move:
                    entry = candidate
                    break
            else:
                move = Move.parse(move)
        elif not isinstance(move, Move):
            raise MoveParseError("not a move: {move}", move=repr(move))
        if seat is None:
            raise IllegalMove("the game is over")
        if entry is None:
            for candidate_move, candidate in zip(moves, entries, strict=True):
                if candidate_move is move or candidate_move == move:
                    entry = candidate
                    break
            else:
                raise IllegalMove.of(self._why_illegal(seat, move))  # type: ignore[arg-type]
        card, capture, text = entry
        game = self._copy()
        game._apply(seat, card, capture, text)
        return game

    def _why_illegal(self, seat: int, move: Move) -> Problem:
        """The reason a player can read for a move that is not among the legal ones."""
        card = INDEX.get(move.card)
        if card is None or not self._hands[seat] >> card & 1:
            return Problem("{card} is not in your hand", card=move.card)
        for taken in move.capture:
            if taken not in INDEX:
                return Problem("{card} is not a card of the Italian 40-card deck", card=taken)
        capture = mask_of(move.capture)
        options = self._options(card)
        if options and capture not in options:
            choices = ", ".join("+".join(map(str, cards_of(o))) for o in options)
            if capture:
                return Problem(
                    "{card} cannot take {cards}: take {choices}",
                    card=move.card,
                    cards=_join(move.capture),
                    choices=choices,
                )
            return Problem("{card} must capture: take {choices}", card=move.card, choices=choices)
        if not options and capture:
            return Problem("{card} cannot capture anything on this table", card=move.card)
        if self._rules.obbligo_di_presa and not options:
            return Problem("you must play a card that captures (obbligo di presa)")
        if move.fuori:
            return self._why_no_fuori()
        # Every case is named above.
        return Problem("{move} is not allowed now", move=move)  # pragma: no cover

    def _why_no_fuori(self) -> Problem:
        if not self._rules.fuori:
            return Problem("fuori is not played at this table")
        if self._is_last_play():
            return Problem("the dealer may not declare fuori on the last play")
        return Problem(
            "fuori is not allowed: this smazzata began with both pairs tied at the target"
        )

    def _apply(self, seat: int, card: int, capture: int, text: str) -> None:
        rules = self._rules
        bit = 1 << card
        last_play = not self._deck and sum(map(int.bit_count, self._hands)) == 1
        self._hands[seat] &= ~bit
        side = seat % 2 if rules.players == 4 else seat
        fuori = text.endswith("!")
        if capture:
            self._table &= ~capture
            self._captured[side] |= capture | bit
            self._last_taker = side
            ace_takes_all = rules.asso_piglia_tutto and VALUE[card] == 1
            swept = not self._table and not last_play and not ace_takes_all
            if swept:
                self._scope[side] += 1
            self._move = (seat, card, capture, side, swept)
        else:
            self._table |= bit
            self._move = (seat, card, 0, side, False)
        self._history.append((seat, text))
        self._last_move = (seat, text)
        if fuori:
            self._declare_fuori(seat, side)
        elif last_play:
            self._end_smazzata()
        else:
            n = rules.players
            if not any(self._hands):
                for k in range(n):  # the dealer serves three more each, first to play first
                    target = (self._dealer + 1 + k) % n
                    for _ in range(3):
                        self._hands[target] |= 1 << self._deck.pop()
            self._current = (seat + 1) % n

    def _record(self, scores: list[dict[str, int]], fuori: int | None) -> None:
        self._smazzate.append(
            Smazzata(
                number=len(self._smazzate) + 1,
                dealer=self._dealer,
                piles=tuple(cards_of(p) for p in self._captured),
                scope=tuple(self._scope),
                scores=tuple(scores),
                fuori=fuori,
            )
        )
        for s, row in enumerate(scores):
            self._totals[s] += row["total"]

    def _scored(self) -> SmazzataScored:
        last = self._smazzate[-1]
        return SmazzataScored(last.number, last.scores, tuple(self._totals), last.fuori)

    def _end_smazzata(self) -> None:
        rules = self._rules
        # The last side that captured takes what is left, and that is not a scopa.
        taker = self._last_taker if self._last_taker is not None else self.side_of(self._dealer)
        if self._table:
            self._note(Rest(taker, cards_of(self._table)))
        self._captured[taker] |= self._table
        self._table = 0
        self._record(score_masks(self._captured, self._scope, rules), None)
        self._note(self._scored())
        totals = self._totals
        best = max(totals)
        leaders = [s for s, t in enumerate(totals) if t == best]
        if best >= rules.target and len(leaders) == 1:
            runner_up = max(t for s, t in enumerate(totals) if s != leaders[0])
            if not rules.win_by_two or best - runner_up >= 2:
                self._finish(leaders[0], multiplier_from=runner_up)
                return
        self._dealer = (self._dealer + 1) % rules.players
        self._deal()

    def _declare_fuori(self, seat: int, side: int) -> None:
        self._record(certain_points(self._captured, self._scope, self._rules), side)
        own = self._totals[side]
        other = self._totals[1 - side]
        self._note(Fuori(seat, side, own >= self._rules.target), self._scored())
        if own >= self._rules.target:
            self._finish(side, multiplier_from=other)
        else:
            # Art. 16: the pair loses as it would have won: by the others' points, or its own if
            # lower.
            self._finish(1 - side, multiplier_from=min(own, other))

    def _finish(self, winner: int, *, multiplier_from: int) -> None:
        self._winner = winner
        self._current = None
        if self._rules.figs_multiplier:
            self._multiplier = _multiplier(multiplier_from)
        self._note(GameOver(winner, self._multiplier))

    # ----------------------------------------------------------------- views
    def view(self, seat: int | None) -> ScopaView:
        """What ``seat`` may see; ``None`` gives the public view (no hand)."""
        if seat is not None:
            self._seat(seat)
        last = self._smazzate[-1].scores if self._smazzate else None
        to_move = seat is not None and seat == self._current
        return ScopaView(
            seat=seat,
            variant=self._rules.variant,
            players=self._rules.players,
            sides=self.sides,
            hand=cards_of(self._hands[seat]) if seat is not None else (),
            hand_counts=tuple(h.bit_count() for h in self._hands),
            table=cards_of(self._table),
            deck_count=len(self._deck),
            dealer=self._dealer,
            current_player=self._current,
            captured_counts=tuple(c.bit_count() for c in self._captured),
            scope=tuple(self._scope),
            points=tuple(self._totals),
            target=self._rules.target,
            smazzata=self.smazzata_number,
            legal_moves=tuple(str(m) for m in self.legal_moves()) if to_move else (),
            last_move=self._last_move,
            history=tuple(self._history),
            last_smazzata=last,
            is_over=self.is_over,
            winner=self._winner,
            rules=self._rules,
        )

    # ----------------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict with everything (hidden cards too: for storage, never for players)."""
        return {
            "schema": SCHEMA,
            "game": "scopa",
            "rules": self._rules.to_dict(),
            "seed": self._seed,
            "deals": self._deals,
            "dealer": self._dealer,
            "hands": [_text(h) for h in self._hands],
            "table": _text(self._table),
            "deck": " ".join(str(CARDS[i]) for i in self._deck),
            "captured": [_text(c) for c in self._captured],
            "scope": list(self._scope),
            "last_taker": self._last_taker,
            "current": self._current,
            "history": [[s, m] for s, m in self._history],
            "last_move": list(self._last_move) if self._last_move else None,
            "smazzate": [s.to_dict() for s in self._smazzate],
            "totals": list(self._totals),
            "start_totals": list(self._start_totals),
            "winner": self._winner,
            "multiplier": self._multiplier,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The game saved by ``to_dict``; raises ValueError on a bad or foreign document."""
        if not isinstance(data, Mapping) or data.get("game") != "scopa":
            raise ValueError("not a saved Scopa game")
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unsupported saved-game schema {data.get('schema')!r}")
        try:
            game = cls.__new__(cls)
            game._rules = Rules.from_dict(data["rules"])
            n, sides = game._rules.players, game._rules.sides
            game._seed = int(data["seed"])
            game._deals = int(data["deals"])
            game._dealer = int(data["dealer"])
            game._hands = [_mask(t) for t in data["hands"]]
            game._table = _mask(data["table"])
            game._deck = [INDEX[c] for c in parse_cards(data["deck"])]
            game._captured = [_mask(t) for t in data["captured"]]
            game._scope = [int(s) for s in data["scope"]]
            game._last_taker = _opt_int(data["last_taker"])
            game._current = _opt_int(data["current"])
            game._history = [(int(s), str(m)) for s, m in data["history"]]
            last = data["last_move"]
            game._last_move = (int(last[0]), str(last[1])) if last else None
            game._smazzate = [Smazzata.from_dict(s) for s in data["smazzate"]]
            game._totals = [int(t) for t in data["totals"]]
            game._start_totals = [int(t) for t in data["start_totals"]]
            game._winner = _opt_int(data["winner"])
            game._multiplier = int(data["multiplier"])
            game._legal = None
            game._move = None
            game._events = ()
        except (KeyError, TypeError, CardParseError) as exc:
            raise ValueError(f"corrupt saved Scopa game: {exc!r}") from None
        if len(game._hands) != n or len(game._captured) != sides or len(game._totals) != sides:
            raise ValueError("corrupt saved Scopa game: wrong number of seats or sides")
        everything = [*game._hands, game._table, *game._captured, *(1 << i for i in game._deck)]
        if sum(m.bit_count() for m in everything) != 40 or _union(everything) != FULL_MASK:
            raise ValueError("corrupt saved Scopa game: the 40 cards are not all there once")
        return game

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        state = "over" if self.is_over else f"seat {self._current} to play"
        return f"<scopa.Game {self._rules.variant} {self._rules.players}p, {state}>"


def _text(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


def _mask(text: str) -> int:
    return mask_of(parse_cards(text))


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _union(masks: Sequence[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _join(cards: frozenset[Card]) -> str:
    return "+".join(str(c) for c in sorted(cards, key=card_order))
