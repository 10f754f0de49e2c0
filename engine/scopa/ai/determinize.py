"""What a Scopa-family seat knows, read from its view alone, and deals consistent with it.

Glossary: **smazzata** = one deal played out; **scopa** = a capture that sweeps the table;
**settebello** = the 7 of denari. A *determinization* is one guess at the hidden cards (the other
hands and the deck) that agrees with everything the seat has seen.

Every card is public once played, and the table is face up, so a seat knows: its own hand, the
table, every card named in the public ``history`` of this smazzata. The rest (the *unseen* cards)
are in the other hands (``hand_counts``) and the deck (``deck_count``), in an order nobody knows.

Inference: a player who left a possible scopa, or let the settebello lie when a 7 would take it,
probably held no card of that value (``unlikely``). Such cards are dealt to that seat with a small
weight rather than never, because people (and the ``random`` player) do miss sweeps. Weaker
evidence (``doubtful``): a player who threw a card on a table it could have taken from with some
other value probably held none of those values either (good players do keep a capture back now
and then, so the weight is milder).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.scopa import ScopaView
from engine.scopa.capture import capture_masks
from engine.scopa.playout import FastRules
from engine.scopa.scoring import certain_points
from engine.scopa.tables import CARD_TEXT, FULL_MASK, INDEX, SETTEBELLO, indices_of

__all__ = [
    "Dealer",
    "Evidence",
    "InfoSet",
    "Reading",
    "State",
    "determinize",
    "info_set",
    "parse_move",
    "recent_plays",
    "round_plays",
    "shuffler",
    "with_fuori",
]

_TEXT_INDEX: dict[str, int] = {text: i for i, text in enumerate(CARD_TEXT)}
# The weight of a card the seat probably lacks, against 1 for any other card.
UNLIKELY_WEIGHT = 0.1
# The weight of a card the seat's play says it lacks on weaker evidence (a capture not made).
DOUBTFUL_WEIGHT = 0.4


def parse_move(text: str) -> tuple[int, int]:
    """(card index, capture mask) of a canonical Scopa move string (``"7D:3C+4S!"``)."""
    body = text.rstrip("!")
    card_text, _, capture_text = body.partition(":")
    try:
        card = _TEXT_INDEX[card_text]
        capture = 0
        if capture_text:
            for part in capture_text.split("+"):
                capture |= 1 << _TEXT_INDEX[part]
    except KeyError:
        raise ValueError(f"not a Scopa move string: {text!r}") from None
    return card, capture


class Reading(NamedTuple):
    """One play of another seat as ``engine.scopa.ai.evidence`` reads it: the seat, the weight of
    the cards it is known to have held then, each card's weight, and for a seat read by a mixture of
    two models: the model (1 or 2; 0 for a seat read by one), the log of its prior and of the
    weight of the card played."""

    seat: int
    fixed: float
    weights: tuple[float, ...]
    model: int = 0
    log_prior: float = 0.0
    log_played: float = 0.0


# What the others' plays say of their hands (``engine.scopa.ai.evidence``), a ``Reading`` a play.
Evidence = tuple[Reading, ...]


@dataclass(frozen=True, slots=True)
class InfoSet:
    """Everything a seat knows about the current smazzata, on masks.

    ``unlikely[seat]`` holds the cards that seat probably does not hold (see the module doc).
    """

    seat: int
    fast: FastRules
    hand: int
    table: int
    unseen: int
    hand_counts: tuple[int, ...]
    deck_count: int
    captured: tuple[int, ...]
    scope: tuple[int, ...]
    last_taker: int
    played: int
    unlikely: tuple[int, ...]
    missing: tuple[int, ...] = ()
    doubtful: tuple[int, ...] = ()
    # The game's points of each side before this smazzata, and the points that win the game.
    points: tuple[int, ...] = ()
    target: int = 0
    # What the others' plays say of their hands, as likelihoods (``Evidence``).
    evidence: Evidence = ()

    @property
    def left(self) -> int:
        """Cards still to be played in this smazzata."""
        return sum(self.hand_counts) + self.deck_count


@dataclass(slots=True)
class State:
    """A full position on masks (a determinization, or a position of a search): mutable."""

    hands: list[list[int]]
    table: int
    deck: list[int]
    captured: list[int]
    scope: list[int]
    last_taker: int
    seat: int
    left: int

    def copy(self) -> State:
        return State(
            [h.copy() for h in self.hands],
            self.table,
            self.deck.copy(),
            self.captured.copy(),
            self.scope.copy(),
            self.last_taker,
            self.seat,
            self.left,
        )


def info_set(view: ScopaView, *, inference: bool = True) -> InfoSet:
    """What ``view.seat`` knows; ValueError when the view is not a seat's view of a game on."""
    if view.seat is None or view.current_player is None:
        raise ValueError("a determinization needs a seat's view of a game in progress")
    fast = FastRules.of(view.rules)
    n = view.players
    hand = 0
    for card in view.hand:
        hand |= 1 << INDEX[card]
    table = 0
    for card in view.table:
        table |= 1 << INDEX[card]
    moves = [(seat, *parse_move(text)) for seat, text in view.history]
    captured = [0] * fast.sides
    played = 0
    last_taker = -1
    for mover, index, capture in moves:
        played |= 1 << index
        if capture:
            side = fast.side_of[mover]
            captured[side] |= capture | 1 << index
            last_taker = side
    seen = hand | table | played
    for c in captured:
        seen |= c
    unseen = FULL_MASK & ~seen
    # Captured cards the history does not name (a position restored without its history): they
    # are among the unseen cards, and each deal draws them anew.
    missing = [
        count - c.bit_count() for count, c in zip(view.captured_counts, captured, strict=True)
    ]
    hidden = sum(view.hand_counts) - len(view.hand) + view.deck_count
    if (
        any(m < 0 for m in missing)
        or unseen.bit_count() != hidden + sum(missing)
        or hand.bit_count() != view.hand_counts[view.seat]
    ):
        raise ValueError(
            f"the view is inconsistent: {unseen.bit_count()} unseen cards"
            f" for {hidden} hidden places and {sum(missing)} captured cards not in the history"
        )
    unlikely = _unlikely(view, fast, moves, table) if inference else [0] * n
    unlikely[view.seat] = 0
    doubtful = _doubtful(view, fast, moves, table) if inference else [0] * n
    doubtful[view.seat] = 0
    return InfoSet(
        seat=view.seat,
        fast=fast,
        hand=hand,
        table=table,
        unseen=unseen,
        hand_counts=tuple(view.hand_counts),
        deck_count=view.deck_count,
        captured=tuple(captured),
        scope=tuple(view.scope),
        last_taker=last_taker,
        played=played,
        unlikely=tuple(m & unseen for m in unlikely),
        missing=tuple(missing) if any(missing) else (),
        doubtful=tuple(m & unseen & ~u for m, u in zip(doubtful, unlikely, strict=True))
        if any(doubtful)
        else (),
        points=tuple(view.points),
        target=view.target,
    )


def round_plays(
    view: ScopaView, fast: FastRules, moves: Sequence[tuple[int, int, int]], table: int
) -> list[tuple[int, bool]]:
    """Per move of ``moves`` (the history parsed): the table it met, and whether it is in the
    window the readings of the others' hands use: the current round (in Scopa hands are refilled
    every 3 cards each, so a gap in an older hand says nothing now), the deal's very last play
    aside."""
    # The table before each move, walking the history backwards from the table now.
    before: list[int] = []
    t = table
    for _, card, capture in reversed(moves):
        t = t | capture if capture else t & ~(1 << card)
        before.append(t)
    before.reverse()
    per_round = 3 * fast.players if fast.variant == "scopa" else len(moves) + 1
    current_round = len(moves) // per_round
    total = len(moves) + sum(view.hand_counts) + view.deck_count
    return [(b, k // per_round == current_round and k != total - 1) for k, b in enumerate(before)]


def recent_plays(
    view: ScopaView, fast: FastRules, moves: Sequence[tuple[int, int, int]], table: int
) -> Iterator[tuple[int, int, int, int]]:
    """``(seat, card, capture, table before)`` for each play in the window (``round_plays``)
    that met a table with cards on it: what the inferences below read."""
    for (seat, card, capture), (before, read) in zip(
        moves, round_plays(view, fast, moves, table), strict=True
    ):
        if read and before:
            yield seat, card, capture, before


def _unlikely(
    view: ScopaView, fast: FastRules, moves: Sequence[tuple[int, int, int]], table: int
) -> list[int]:
    """Per seat, the unseen cards it probably lacks: values that would have swept the table (or
    taken the settebello) when it played something else."""
    unlikely = [0] * fast.players
    for seat, card, capture, t in recent_plays(view, fast, moves, table):
        swept = capture == t
        lacking = 0
        for value in range(1, 11):
            probe = value - 1  # the denari card of that value: capture sets do not depend on suit
            options = capture_masks(
                t, probe, asso_piglia_tutto=fast.asso_piglia_tutto, scopa_a_15=fast.scopa_a_15
            )
            sweeps = t in options and not (fast.asso_piglia_tutto and value == 1)
            takes_bello = value == 7 and t >> SETTEBELLO & 1
            if (sweeps and not swept) or (takes_bello and not capture >> SETTEBELLO & 1):
                lacking |= _value_mask(value)
        unlikely[seat] |= lacking & ~(1 << card)
    return unlikely


def _doubtful(
    view: ScopaView, fast: FastRules, moves: Sequence[tuple[int, int, int]], table: int
) -> list[int]:
    """Per seat, the unseen cards its throws say it probably lacks: every value that would have
    captured something from the table when that seat threw a card instead (current round only,
    as for ``_unlikely``)."""
    doubtful = [0] * fast.players
    for seat, card, capture, t in recent_plays(view, fast, moves, table):
        if capture:
            continue
        lacking = 0
        for value in range(1, 11):
            if capture_masks(
                t, value - 1, asso_piglia_tutto=fast.asso_piglia_tutto, scopa_a_15=fast.scopa_a_15
            ):
                lacking |= _value_mask(value)
        doubtful[seat] |= lacking & ~(1 << card)
    return doubtful


def _value_mask(value: int) -> int:
    return sum(1 << (10 * s + value - 1) for s in range(4))


# (n + 1).bit_length() for each last index n of a shuffle over at most 40 cards.
_BITS: tuple[int, ...] = tuple((n + 1).bit_length() for n in range(41))
# The exponent of a probably-lacked card's sampling key.
_UNLIKELY_EXPONENT = 1.0 / UNLIKELY_WEIGHT
_DOUBTFUL_EXPONENT = 1.0 / DOUBTFUL_WEIGHT


def shuffler(rng: random.Random) -> Callable[[list[int]], None]:
    """``rng.shuffle`` for lists of card indices, drawing exactly what it draws.

    ``random.Random.shuffle`` spends most of its time calling ``_randbelow`` per card; inlined
    here on ``getrandbits`` with the same rejection sampling, the permutation and the state left
    in ``rng`` are the same. Subclasses of ``Random`` may draw differently: they get theirs.
    """
    if type(rng) is not random.Random:
        return rng.shuffle
    getrandbits = rng.getrandbits
    bits = _BITS

    def shuffle(x: list[int]) -> None:
        for i in range(len(x) - 1, 0, -1):
            k = bits[i]
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]

    return shuffle


class Dealer:
    """Deals determinizations of one information set, one after another, from one ``rng``.

    What does not change between deals (the unseen cards as a list, who needs how many) is worked
    out once: a search deals thousands of times.
    """

    __slots__ = ("_captured", "_info", "_left", "_others", "_own", "_pool", "_rnd", "_shuffle")

    def __init__(self, info: InfoSet, rng: random.Random) -> None:
        self._info = info
        self._pool = indices_of(info.unseen)
        self._own = indices_of(info.hand)
        self._captured = list(info.captured)
        self._left = info.left
        n = info.fast.players
        others = []
        for offset in range(1, n):
            seat = (info.seat + offset) % n
            if info.hand_counts[seat]:
                doubtful = info.doubtful[seat] if info.doubtful else 0
                others.append((seat, info.hand_counts[seat], info.unlikely[seat], doubtful))
        self._others = tuple(others)
        self._rnd = rng.random
        self._shuffle = shuffler(rng)

    def deal(self) -> State:
        """One deal of the unseen cards to the other hands and the deck, consistent with the
        information set; hands in a uniformly random order."""
        info = self._info
        shuffle = self._shuffle
        pool = self._pool.copy()
        hands: list[list[int]] = [[] for _ in range(info.fast.players)]
        own = self._own.copy()
        shuffle(own)
        hands[info.seat] = own
        captured = self._captured.copy()
        if info.missing:
            shuffle(pool)
            for side, count in enumerate(info.missing):
                for _ in range(count):
                    captured[side] |= 1 << pool.pop()
        for seat, need, avoid, doubt in self._others:
            if avoid or doubt:
                # Weighted sampling without replacement (Efraimidis-Spirakis): key = u ** (1 / w).
                rnd = self._rnd
                exponent = _UNLIKELY_EXPONENT
                if doubt:
                    weak = _DOUBTFUL_EXPONENT
                    keyed = sorted(
                        [
                            (
                                rnd() ** exponent
                                if avoid >> c & 1
                                else rnd() ** weak
                                if doubt >> c & 1
                                else rnd(),
                                c,
                            )
                            for c in pool
                        ]
                    )
                else:
                    keyed = sorted(
                        [((rnd() ** exponent if avoid >> c & 1 else rnd()), c) for c in pool]
                    )
                chosen = [c for _, c in keyed[-need:]]
                taken = set(chosen)
                pool = [c for c in pool if c not in taken]
                shuffle(chosen)
                hands[seat] = chosen
            else:
                shuffle(pool)
                hands[seat] = pool[-need:]
                del pool[-need:]
        shuffle(pool)
        return State(
            hands,
            info.table,
            pool,
            captured,
            list(info.scope),
            info.last_taker,
            info.seat,
            self._left,
        )


def determinize(info: InfoSet, rng: random.Random) -> State:
    """One deal of the unseen cards to the other hands and the deck, consistent with ``info``.

    Hands come back in a uniformly random order (``play_out`` plays random moves from their end).
    Many deals of one ``info``: ``Dealer``.
    """
    return Dealer(info, rng).deal()


def with_fuori(view: ScopaView, text: str) -> str:
    """``text``, declaring fuori when that is legal and wins (FIGS art. 16): the side's points
    plus the points certain after this move reach the target."""
    if view.seat is None or text + "!" not in view.legal_moves:
        return text
    info = info_set(view, inference=False)
    card, capture = parse_move(text)
    side = info.fast.side_of[view.seat]
    piles = list(info.captured)
    scope = list(info.scope)
    if capture:
        piles[side] |= capture | 1 << card
        if capture == info.table:
            scope[side] += 1
    certain = certain_points(piles, scope, view.rules)
    if view.points[side] + certain[side]["total"] >= view.target:
        return text + "!"
    return text
