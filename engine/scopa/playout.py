"""The fast path: play a smazzata out on masks and lists, with no Move or Card objects.

Why this file is over 600 lines: its hot loops are written out inline (greedy moves, the shuffle,
the deal) rather than split into small functions, since a playout runs thousands of times per move
and every call in its inner loop is paid each time. The speed-up that inlined them (with cached
capture sets and one pass per tree node) took ``hard`` from 0.716 to 0.408 median CPU seconds per
move (``docs/ai-notebook.md``, "Speed of ``hard``").

Computer players (Monte Carlo search) run thousands of these per move. The rules are the same as
``engine.scopa.game`` (tests play both side by side); only the representation differs: cards are
indices ``0..39``, sets are 40-bit masks, hands are lists.

A random player picks a uniformly random card of its hand each turn. Picking uniformly from a hand
whose order is already uniformly random is the same as playing that hand from the end, so hands are
shuffled once and then popped: no random number per card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.scopa.capture import Way, capture_masks
from engine.scopa.rules import Rules
from engine.scopa.scoring import napola_points, primiera_winner
from engine.scopa.tables import (
    DENARI_MASK,
    FULL_MASK,
    PRIMIERA,
    PRIMIERA_BEST,
    RE_BELLO,
    SETTEBELLO,
    SUM_WAYS_BY_PRESENCE,
    VALUE,
    VALUE_MASK,
    indices_of,
)

__all__ = [
    "CARD_WORTH",
    "FastRules",
    "ValueCounts",
    "deal_round",
    "greedy_move",
    "holds_one",
    "keeps_value_counts",
    "most_valuable_capture",
    "play_out",
    "random_smazzata",
    "table_sum",
    "totals",
    "undeal_round",
    "value_counts",
]

# How much a beginner values a card: settebello, denari, primiera cards (7, 6, ace), one per card.
CARD_WORTH: tuple[float, ...] = tuple(
    1.0
    + (2.0 if i < 10 else 0.0)
    + (10.0 if i == SETTEBELLO else 0.0)
    + {21: 3.0, 18: 2.0, 16: 1.0}.get(PRIMIERA[i], 0.0)
    for i in range(40)
)
SCOPA_WORTH = 12.0
# ``value_counts``: each value's copies (index 1..10) in the hands and the deck, and in each hand.
ValueCounts = tuple[list[int], list[list[int]]]


@dataclass(frozen=True, slots=True)
class FastRules:
    """The options the fast path needs, unpacked from ``Rules`` once."""

    variant: str
    players: int
    sides: int
    side_of: tuple[int, ...]
    asso_piglia_tutto: bool
    scopa_a_15: bool
    primiera_missing_suit: str
    re_bello: bool
    napola: bool
    obbligo_di_presa: bool

    @classmethod
    def of(cls, rules: Rules) -> FastRules:
        n = rules.players
        return cls(
            variant=rules.variant,
            players=n,
            sides=rules.sides,
            side_of=tuple(s % 2 if n == 4 else s for s in range(n)),
            asso_piglia_tutto=rules.asso_piglia_tutto,
            scopa_a_15=rules.scopa_a_15,
            primiera_missing_suit=rules.primiera_missing_suit,
            re_bello=rules.re_bello,
            napola=rules.napola,
            obbligo_di_presa=rules.obbligo_di_presa,
        )


def totals(piles: Sequence[int], scope: Sequence[int], fast: FastRules) -> list[int]:  # noqa: C901 - hot path: every playout scores here, one inline pass per rule
    """Each side's smazzata points (the ``total`` of ``score_smazzata``), computed lean."""
    sides = len(piles)
    out = list(scope)
    if sides == 2:
        # The common case, inline: a point for more cards, more denari; primiera when both sides
        # have every suit, else as the mode decides.
        a, b = piles
        ca, cb = a.bit_count(), b.bit_count()
        if ca != cb:
            out[0 if ca > cb else 1] += 1
        da, db = (a & DENARI_MASK).bit_count(), (b & DENARI_MASK).bit_count()
        if da != db:
            out[0 if da > db else 1] += 1
        prim = PRIMIERA_BEST
        a0, a1, a2, a3 = (
            prim[a & 0x3FF],
            prim[a >> 10 & 0x3FF],
            prim[a >> 20 & 0x3FF],
            prim[a >> 30],
        )
        b0, b1, b2, b3 = (
            prim[b & 0x3FF],
            prim[b >> 10 & 0x3FF],
            prim[b >> 20 & 0x3FF],
            prim[b >> 30],
        )
        if a0 and a1 and a2 and a3 and b0 and b1 and b2 and b3:
            sa, sb = a0 + a1 + a2 + a3, b0 + b1 + b2 + b3
            if sa != sb:
                out[0 if sa > sb else 1] += 1
        else:
            winner = primiera_winner(piles, fast.primiera_missing_suit)
            if winner is not None:
                out[winner] += 1
        out[0] += a >> SETTEBELLO & 1
        out[1] += b >> SETTEBELLO & 1
        if fast.re_bello:
            out[0] += a >> RE_BELLO & 1
            out[1] += b >> RE_BELLO & 1
        if fast.napola:
            out[0] += napola_points(a)
            out[1] += napola_points(b)
        return out
    else:
        counts = [p.bit_count() for p in piles]
        denari = [(p & DENARI_MASK).bit_count() for p in piles]
        for values in (counts, denari):
            best = max(values)
            if values.count(best) == 1:
                out[values.index(best)] += 1
        prim = PRIMIERA_BEST
        sums = []
        for p in piles:
            s0, s1, s2, s3 = (
                prim[p & 0x3FF],
                prim[p >> 10 & 0x3FF],
                prim[p >> 20 & 0x3FF],
                prim[p >> 30],
            )
            if not (s0 and s1 and s2 and s3):
                break
            sums.append(s0 + s1 + s2 + s3)
        if len(sums) == sides:
            # Every side has every suit (the common case, without ``primiera_winner``'s lists).
            best = max(sums)
            if sums.count(best) == 1:
                out[sums.index(best)] += 1
        else:
            winner = primiera_winner(piles, fast.primiera_missing_suit)
            if winner is not None:
                out[winner] += 1
    for side, pile in enumerate(piles):
        out[side] += pile >> SETTEBELLO & 1
        if fast.re_bello:
            out[side] += pile >> RE_BELLO & 1
        if fast.napola:
            out[side] += napola_points(pile)
    return out


# CARD_WORTH summed over each suit's 10-bit slice: a mask's worth is four lookups. The worths are
# whole numbers, so the sums are exact whatever their order.
_SLICE_WORTH: tuple[tuple[float, ...], ...] = tuple(
    tuple(
        sum(CARD_WORTH[10 * suit + r] for r in range(10) if slice_ >> r & 1)
        for slice_ in range(1024)
    )
    for suit in range(4)
)


def _worth(mask: int) -> float:
    w0, w1, w2, w3 = _SLICE_WORTH
    return w0[mask & 0x3FF] + w1[mask >> 10 & 0x3FF] + w2[mask >> 20 & 0x3FF] + w3[mask >> 30]


# The order in which a beginner throws a card when nothing captures: least valuable first, the
# highest capture value on ties (the hardest for the next player to take with a sum), then the
# lowest index. As a rank per card, so that choosing is one ``min`` over the hand.
THROW_RANK: tuple[int, ...] = tuple(
    sorted(range(40), key=lambda c: (CARD_WORTH[c], -VALUE[c], c)).index(c) for c in range(40)
)
# A value's best capture when it has none (any real capture is worth at least 1).
_NO_CAPTURE = (0, -1.0)
# Per capture value: the table cards its captures can depend on. Under the default rules, only
# cards of that value or lower (presa pari, or a sum of lower values); an ace that takes all, or a
# capture that makes 15, may take any card.
_AT_MOST: tuple[int, ...] = tuple(sum(VALUE_MASK[w] for w in range(1, v + 1)) for v in range(11))
_ANY: tuple[int, ...] = (FULL_MASK,) * 11
_ASSO: tuple[int, ...] = (FULL_MASK, FULL_MASK, *_AT_MOST[2:])


def most_valuable_capture(
    table: int, value: int, *, asso: bool, s15: bool, sweeps: bool
) -> tuple[int, float]:
    """The first most valuable capture of a card of ``value`` on ``table``, with its worth (the
    scopa bonus when taking all of ``table`` ``sweeps``; the card itself not): ``_NO_CAPTURE``
    when it captures nothing."""
    sweeps = sweeps and not (asso and value == 1)
    best_capture, best_worth = _NO_CAPTURE
    # Capture sets depend on the value alone: ask for the denari card of that value.
    for capture in capture_masks(table, value - 1, asso_piglia_tutto=asso, scopa_a_15=s15):
        worth = _worth(capture)
        if sweeps and capture == table:
            worth += SCOPA_WORTH
        if worth > best_worth:
            best_capture, best_worth = capture, worth
    return best_capture, best_worth


def greedy_move(
    hand: Sequence[int],
    table: int,
    fast: FastRules,
    *,
    last_play: bool = False,
    cache: dict[int, tuple[int, float]] | None = None,
) -> tuple[int, int]:
    """The beginner's move: the most valuable capture, else throw the least valuable card.

    Returns (card index, capture mask). Value = settebello, denari, primiera cards, scopa, cards.
    Ties go to the lowest card index, whatever the order of ``hand``. ``cache`` (one per
    ``FastRules``, owned by the caller) keeps each value's best capture by the part of the table
    that decides it: a search meets the same few cards over and over.
    """
    best_card, best_capture, best_worth = -1, 0, -1.0
    if table:
        asso = fast.asso_piglia_tutto
        s15 = fast.scopa_a_15
        relevant = _ANY if s15 else _ASSO if asso else _AT_MOST
        if cache is None:
            cache = {}
        for card in hand:
            value = VALUE[card]
            part = table & relevant[value]
            if not part:  # nothing it could take
                continue
            # Cards left out of ``part`` stay on the table whatever is taken: no scopa then.
            whole = part == table and not last_play
            key = part << 5 | whole << 4 | value
            found = cache.get(key)
            if found is None:
                found = cache[key] = most_valuable_capture(
                    part, value, asso=asso, s15=s15, sweeps=whole
                )
            capture, worth = found
            if worth < 0.0:
                continue
            # Whole numbers: the sums are exact, and a tie is a true tie.
            worth += CARD_WORTH[card]
            if worth > best_worth or (worth == best_worth and card < best_card):
                best_card, best_capture, best_worth = card, capture, worth
    if best_card >= 0:
        return best_card, best_capture
    return min(hand, key=THROW_RANK.__getitem__), 0


def play_out(  # noqa: C901 - the playouts' dispatch and plain loop, inline for speed
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    deck: list[int],
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    rng: random.Random,
    *,
    epsilon: float = 1.0,
    cache: dict[int, tuple[int, float]] | None = None,
    lookahead: bool = False,
    reply: bool = False,
    naive: int = 0,
    blind_seats: int = 0,
    odds: bool = False,
    counts: ValueCounts | None = None,
) -> list[int]:
    """Play the smazzata out from the given position and return each side's smazzata points.

    ``hands`` hold card indices in a uniformly random order (shuffle a known hand before calling);
    ``deck`` is dealt from its end; ``last_taker`` is a side or -1. The arguments are consumed
    (mutated). Each move is random with probability ``epsilon``, else greedy (``cache``: see
    ``greedy_move``; the same dict may serve every playout under the same ``fast``). With
    ``lookahead`` (default capture rules only) the greedy moves also look at the next player's
    hand: a move that leaves it a scopa counts the scopa against itself (see ``_lookahead_out``);
    with ``reply`` as well, every move counts against itself the best capture the next player's
    hand makes on the table it leaves (``_reply_out``); with ``blind_seats`` (a bit per seat;
    lookahead playouts without ``reply``), those seats' greedy moves fear a sweep by any card
    their player cannot see (every other hand and the deck), as a player who counts the cards
    does, rather than by the next player's actual hand; ``odds`` with it: a blind greedy fears
    each sum by the chance that the next hand, dealt at random from the cards its player cannot
    see, holds that value (``SCOPA_WORTH`` times that chance), not by any such card at all;
    ``naive`` (a bit per seat, lookahead playouts without ``reply``): those seats' greedy moves
    look at nothing ahead, as a beginner's (the most valuable capture, else the cheapest card).
    ``counts``: the position's ``value_counts`` when the caller has them (consumed), for ``odds``.
    """
    rnd = rng.random
    n = fast.players
    side_of = fast.side_of
    asso = fast.asso_piglia_tutto
    s15 = fast.scopa_a_15
    greedy = epsilon < 1.0
    obbligo = fast.obbligo_di_presa
    left = sum(len(h) for h in hands) + len(deck)
    # (``keeps_value_counts`` follows this dispatch: keep the two together.)
    if lookahead and greedy and not (asso or s15):
        if cache is None:
            cache = {}
        position = (fast, hands, table, deck, captured, scope, last_taker, seat, rnd, epsilon)
        if reply:
            return _reply_out(*position, cache, left)
        return _lookahead_out(*position, cache, left, naive, blind_seats, odds, counts)
    if not (greedy or asso or s15 or obbligo):
        return _random_plain(fast, hands, table, deck, captured, scope, last_taker, seat, rnd, left)
    if cache is None:
        cache = {}
    relevant = _ANY if s15 else _ASSO if asso else _AT_MOST
    value_of = VALUE
    worth_of = CARD_WORTH
    throw_rank = THROW_RANK.__getitem__
    while left:
        hand = hands[seat]
        if not hand:
            # Every hand is empty: deal three more each, the next to play first.
            deal_round(hands, deck, seat)
        side = side_of[seat]
        if greedy and rnd() >= epsilon:
            # greedy_move, inlined: the hottest few lines of a search.
            card, capture, best_worth = -1, 0, -1.0
            if table:
                last_play = left == 1
                for c in hand:
                    value = value_of[c]
                    part = table & relevant[value]
                    if not part:
                        continue
                    whole = part == table and not last_play
                    key = part << 5 | whole << 4 | value
                    found = cache.get(key)
                    if found is None:
                        found = cache[key] = most_valuable_capture(
                            part, value, asso=asso, s15=s15, sweeps=whole
                        )
                    taken, worth = found
                    if worth < 0.0:
                        continue
                    worth += worth_of[c]
                    if worth > best_worth or (worth == best_worth and c < card):
                        card, capture, best_worth = c, taken, worth
            if card < 0:
                card = min(hand, key=throw_rank)
            hand.remove(card)
        else:
            card = _obliged_card(hand, table, fast) if obbligo and table else hand.pop()
            value = VALUE[card]
            if asso and value == 1 and table:
                capture = table
            elif s15:
                options = capture_masks(table, card, asso_piglia_tutto=asso, scopa_a_15=True)
                capture = options[int(rnd() * len(options))] if options else 0
            else:
                same = table & VALUE_MASK[value]
                if same:
                    capture = same if not same & (same - 1) else _random_bit(same, rnd)
                elif table:
                    present = (table | table >> 10 | table >> 20 | table >> 30) & LOW[value]
                    ways = SUM_WAYS_BY_PRESENCE[value][present]
                    capture = _random_way(table, ways, rnd) if ways else 0
                else:
                    capture = 0
        left -= 1
        if capture:
            table ^= capture
            captured[side] |= capture | (1 << card)
            last_taker = side
            if not table and left and not (asso and VALUE[card] == 1):
                scope[side] += 1
        else:
            table |= 1 << card
        seat = seat + 1 if seat + 1 < n else 0
    if table:
        captured[last_taker if last_taker >= 0 else 0] |= table
    return totals(captured, scope, fast)


# Capture values summed over a suit's 10-bit slice: a table's sum is four lookups.
_SLICE_SUM: tuple[int, ...] = tuple(
    sum(r + 1 for r in range(10) if slice_ >> r & 1) for slice_ in range(1024)
)
_NO_THROW = -1e9


def table_sum(table: int) -> int:
    s = _SLICE_SUM
    return s[table & 0x3FF] + s[table >> 10 & 0x3FF] + s[table >> 20 & 0x3FF] + s[table >> 30]


def _lookahead_out(  # noqa: C901 - the search's inner loop (most of hard's CPU), kept inline for speed
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    deck: list[int],
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    rnd: Callable[[], float],
    epsilon: float,
    cache: dict[int, tuple[int, float]],
    left: int,
    naive: int = 0,
    blind_seats: int = 0,
    odds: bool = False,
    counts: ValueCounts | None = None,
) -> list[int]:
    """``play_out`` under the default capture rules with a greedy that looks one player ahead.

    A playout deals every hand, so the next player's cards are known there: a capture that leaves
    a table that player can sweep (its sum, 10 or less, is the value of one of its cards; the next
    player is always an opponent), or a throw that makes such a table, loses ``SCOPA_WORTH``. A
    move that leaves no sweep keeps the beginner's values; a throw costs the card's worth. This is
    the club player's first rule ("never leave a scopa") in the playouts, at the cost of a sum.
    ``blind_seats`` (a bit per seat): for those seats the
    danger is the values of every card the player cannot see (the other hands and the deck), not
    the next player's hand: the rule as a player at the table can keep it; with ``odds`` each
    value's danger is the chance that the next hand holds one (``_ODDS``), the cost of a scopa
    left weighed by it.
    ``naive``: the seats (a bit each) whose greedy looks at no danger, a beginner's.
    """
    n = fast.players
    side_of = fast.side_of
    obbligo = fast.obbligo_di_presa
    relevant = _AT_MOST
    value_of = VALUE
    worth_of = CARD_WORTH
    throw_rank = THROW_RANK
    odds_table = _ODDS
    # With odds: each value's copies in the hands and the deck, and in each hand, kept as the
    # cards go (a blind seat's hidden copies of a value are the first less its own).
    tally = odds and blind_seats != 0
    remaining: list[int] = []
    held_of: list[list[int]] = []
    if tally:
        remaining, held_of = value_counts(hands, deck) if counts is None else counts
    mine = remaining
    # The table's sum of values, kept as the cards go: under these rules a capture takes cards
    # adding up to the value of the card that takes them, a throw adds its value.
    total_of_table = table_sum(table)
    while left:
        hand = hands[seat]
        if not hand:
            deal_round(hands, deck, seat)
            if tally:
                # The dealt cards move from the deck into the (empty) hands.
                for held, dealt in zip(held_of, hands, strict=True):
                    for c in dealt:
                        held[value_of[c]] += 1
        side = side_of[seat]
        after = seat + 1 if seat + 1 < n else 0
        if rnd() >= epsilon:
            # Values in the next hand that would sweep (a scopa needs a card left to play after).
            danger = 0
            # With odds, where this move's chances start in ``_ODDS`` (else -1).
            at = -1
            if left >= 3 and not naive >> seat & 1:
                if tally and blind_seats >> seat & 1:
                    # Each value feared by the chance that the next hand holds one, the hidden
                    # cards (the other hands and the deck, ``left`` less this hand) dealt at
                    # random: ``_ODDS`` at the value's hidden copies (none: a chance of 0.0).
                    mine = held_of[seat]
                    at = ((left - len(hand)) * 11 + len(hands[after])) * 5
                    danger = 0x7FE
                elif blind_seats >> seat & 1:
                    # The cards this player cannot see: the other hands and the deck.
                    others = 0
                    for h in hands:
                        if h is not hand:
                            for c in h:
                                others |= 1 << c
                    for c in deck:
                        others |= 1 << c
                    danger = ((others | others >> 10 | others >> 20 | others >> 30) & 0x3FF) << 1
                else:
                    for c in hands[after]:
                        danger |= 1 << value_of[c]
            # One pass over the hand: the best capture, and apart the best throw (a card that can
            # take must take; a capture beats a throw of the same worth).
            card, capture, best = -1, 0, _NO_THROW
            thrown, best_throw = -1, _NO_THROW
            last_play = left == 1
            for c in hand:
                value = value_of[c]
                part = table & relevant[value]
                if part:
                    whole = part == table and not last_play
                    key = part << 5 | whole << 4 | value
                    found = cache.get(key)
                    if found is None:
                        found = cache[key] = most_valuable_capture(
                            part, value, asso=False, s15=False, sweeps=whole
                        )
                    taken, worth = found
                    if worth >= 0.0:
                        worth += worth_of[c]
                        if danger and taken != table:
                            total = total_of_table - value
                            if total <= 10 and danger >> total & 1:
                                worth -= (
                                    SCOPA_WORTH
                                    if at < 0
                                    else SCOPA_WORTH
                                    * odds_table[at + remaining[total] - mine[total]]
                                )
                        if worth > best or (worth == best and c < card):
                            card, capture, best = c, taken, worth
                        continue
                worth = -worth_of[c]
                if danger:
                    total = total_of_table + value
                    if total <= 10 and danger >> total & 1:
                        worth -= (
                            SCOPA_WORTH
                            if at < 0
                            else SCOPA_WORTH * odds_table[at + remaining[total] - mine[total]]
                        )
                if worth > best_throw or (
                    worth == best_throw and throw_rank[c] < throw_rank[thrown]
                ):
                    thrown, best_throw = c, worth
            if card < 0 or (best_throw > best and not obbligo):
                card, capture = thrown, 0
            hand.remove(card)
        else:
            card = _obliged_card(hand, table, fast) if obbligo and table else hand.pop()
            value = value_of[card]
            same = table & VALUE_MASK[value]
            if same:
                capture = same if not same & (same - 1) else _random_bit(same, rnd)
            elif table:
                present = (table | table >> 10 | table >> 20 | table >> 30) & LOW[value]
                ways = SUM_WAYS_BY_PRESENCE[value][present]
                capture = _random_way(table, ways, rnd) if ways else 0
            else:
                capture = 0
        left -= 1
        value = value_of[card]
        if tally:
            remaining[value] -= 1
            held_of[seat][value] -= 1
        if capture:
            table ^= capture
            total_of_table -= value
            captured[side] |= capture | (1 << card)
            last_taker = side
            if not table and left:
                scope[side] += 1
        else:
            table |= 1 << card
            total_of_table += value
        seat = after
    if table:
        captured[last_taker if last_taker >= 0 else 0] |= table
    return totals(captured, scope, fast)


def holds_one(unseen: int, held: int, copies: int) -> float:
    """The chance that ``held`` cards drawn from ``unseen`` include one of ``copies`` of them."""
    none = 1.0
    for i in range(held):
        none *= max(unseen - copies - i, 0) / (unseen - i)
    return 1.0 - none


# ``holds_one(unseen, held, copies)`` at ``(unseen * 11 + held) * 5 + copies`` (40 cards, hands
# of at most 10, 4 copies of a value).
_ODDS = tuple(
    holds_one(unseen, held, copies) if held <= unseen else 1.0
    for unseen in range(41)
    for held in range(11)
    for copies in range(5)
)


def _reply_out(  # noqa: C901 - an inner playout loop, kept inline for speed
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    deck: list[int],
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    rnd: Callable[[], float],
    epsilon: float,
    cache: dict[int, tuple[int, float]],
    left: int,
) -> list[int]:
    """``play_out`` under the default capture rules with a greedy that plays against the next
    player's best reply: every move is worth what it takes (a scopa counts ``SCOPA_WORTH``, a
    throw costs the card's worth) minus the most the next player's hand of the deal being played
    out then takes from the table left (its scopa included). "Never leave a scopa", "do not
    throw the settebello where a 7 takes it", "keep a 7 from being taken" in one figure.
    """
    n = fast.players
    side_of = fast.side_of
    obbligo = fast.obbligo_di_presa
    relevant = _AT_MOST
    value_of = VALUE
    worth_of = CARD_WORTH
    throw_rank = THROW_RANK

    def best_reply(rest: int, cards: list[int], sweeps_count: bool) -> float:
        # The most a card of ``cards`` takes from ``rest``.
        top = 0.0
        for c in cards:
            value = value_of[c]
            part = rest & relevant[value]
            if not part:
                continue
            whole = part == rest and sweeps_count
            key = part << 5 | whole << 4 | value
            found = cache.get(key)
            if found is None:
                found = cache[key] = most_valuable_capture(
                    part, value, asso=False, s15=False, sweeps=whole
                )
            worth = found[1]
            if worth >= 0.0:
                worth += worth_of[c]
                if worth > top:
                    top = worth
        return top

    while left:
        hand = hands[seat]
        if not hand:
            deal_round(hands, deck, seat)
        side = side_of[seat]
        after = seat + 1 if seat + 1 < n else 0
        if rnd() >= epsilon:
            # The next player's hand as it will be (empty: a new round is dealt, unknown here).
            nxt = hands[after] if left >= 2 else []
            sweeps_count = left >= 3  # a scopa needs a card left to play after it
            card, capture, best = -1, 0, _NO_THROW
            capturing = 0
            if table:
                last_play = left == 1
                for c in hand:
                    value = value_of[c]
                    part = table & relevant[value]
                    if not part:
                        continue
                    whole = part == table and not last_play
                    key = part << 5 | whole << 4 | value
                    found = cache.get(key)
                    if found is None:
                        found = cache[key] = most_valuable_capture(
                            part, value, asso=False, s15=False, sweeps=whole
                        )
                    taken, worth = found
                    if worth < 0.0:
                        continue
                    capturing |= 1 << c
                    worth += worth_of[c]
                    rest = table ^ taken
                    if rest and nxt:
                        worth -= best_reply(rest, nxt, sweeps_count)
                    if worth > best or (worth == best and c < card):
                        card, capture, best = c, taken, worth
            if not (obbligo and capturing):
                for c in hand:
                    if capturing >> c & 1:
                        continue  # a card that can take must take
                    worth = -worth_of[c]
                    if nxt:
                        worth -= best_reply(table | 1 << c, nxt, sweeps_count)
                    if worth > best or (
                        worth == best and capture == 0 and throw_rank[c] < throw_rank[card]
                    ):
                        card, capture, best = c, 0, worth
            hand.remove(card)
        else:
            card = _obliged_card(hand, table, fast) if obbligo and table else hand.pop()
            value = value_of[card]
            same = table & VALUE_MASK[value]
            if same:
                capture = same if not same & (same - 1) else _random_bit(same, rnd)
            elif table:
                present = (table | table >> 10 | table >> 20 | table >> 30) & LOW[value]
                ways = SUM_WAYS_BY_PRESENCE[value][present]
                capture = _random_way(table, ways, rnd) if ways else 0
            else:
                capture = 0
        left -= 1
        if capture:
            table ^= capture
            captured[side] |= capture | (1 << card)
            last_taker = side
            if not table and left:
                scope[side] += 1
        else:
            table |= 1 << card
        seat = after
    if table:
        captured[last_taker if last_taker >= 0 else 0] |= table
    return totals(captured, scope, fast)


def keeps_value_counts(
    fast: FastRules,
    *,
    epsilon: float,
    lookahead: bool,
    reply: bool,
    blind_seats: int,
    odds: bool,
) -> bool:
    """Whether ``play_out`` with these options keeps each value's copies as the cards go (the
    lookahead playouts with ``odds`` and a blind seat): only then does it use its ``counts``."""
    return (
        lookahead
        and epsilon < 1.0
        and not (fast.asso_piglia_tutto or fast.scopa_a_15)
        and not reply
        and odds
        and blind_seats != 0
    )


def value_counts(hands: Sequence[Sequence[int]], deck: Sequence[int]) -> ValueCounts:
    """Each value's copies in the hands and the deck together, and in each hand (by seat)."""
    value_of = VALUE
    held_of = []
    for hand in hands:
        held = [0] * 11
        for c in hand:
            held[value_of[c]] += 1
        held_of.append(held)
    remaining = list(map(sum, zip(*held_of, strict=True)))
    for c in deck:
        remaining[value_of[c]] += 1
    return remaining, held_of


def deal_round(hands: list[list[int]], deck: list[int], first: int) -> None:
    """Every hand is empty: three more cards each from the deck's end, ``first`` served first
    (``undeal_round`` puts them back)."""
    n = len(hands)
    for k in range(n):
        target = hands[(first + k) % n]
        target.append(deck.pop())
        target.append(deck.pop())
        target.append(deck.pop())


def undeal_round(hands: list[list[int]], deck: list[int], first: int) -> None:
    """Undo ``deal_round(hands, deck, first)``: every hand's cards back on the deck's end, in the
    order they came off it (the hands hold the cards dealt, in the order dealt)."""
    n = len(hands)
    for k in range(n - 1, -1, -1):
        hand = hands[(first + k) % n]
        deck += reversed(hand)
        hand.clear()


def _random_plain(
    fast: FastRules,
    hands: list[list[int]],
    table: int,
    deck: list[int],
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    rnd: Callable[[], float],
    left: int,
) -> list[int]:
    """``play_out`` for random moves under the default capture rules: the hot loop, kept bare.

    With random moves and hands played from their end, the order in which cards are played does
    not depend on the captures, so it is laid out first and the loop only resolves captures.
    """
    n = fast.players
    sequence = []
    turn = seat
    for _ in range(left):
        hand = hands[turn]
        if not hand:
            deal_round(hands, deck, turn)
        sequence.append(hand.pop())
        turn = turn + 1 if turn + 1 < n else 0
    return _run_sequence(fast, sequence, table, captured, scope, last_taker, seat, rnd)


def _run_sequence(
    fast: FastRules,
    sequence: list[int],
    table: int,
    captured: list[int],
    scope: list[int],
    last_taker: int,
    seat: int,
    rnd: Callable[[], float],
) -> list[int]:
    """Resolve the captures of cards played in ``sequence`` order, ``seat`` first, to the end."""
    n = fast.players
    side_of = fast.side_of
    same_mask = SAME_MASK
    low_mask = LOW_MASK
    ways_of = WAYS_OF
    left = len(sequence)
    for card in sequence:
        left -= 1
        same = table & same_mask[card]
        if same:
            capture = same if not same & (same - 1) else _random_bit(same, rnd)
        elif table & (table - 1):
            ways = ways_of[card][(table | table >> 10 | table >> 20 | table >> 30) & low_mask[card]]
            if not ways or not (capture := _random_way(table, ways, rnd)):
                table |= 1 << card
                seat = seat + 1 if seat + 1 < n else 0
                continue
        else:
            table |= 1 << card
            seat = seat + 1 if seat + 1 < n else 0
            continue
        table ^= capture
        side = side_of[seat]
        captured[side] |= capture | (1 << card)
        last_taker = side
        if not table and left:
            scope[side] += 1
        seat = seat + 1 if seat + 1 < n else 0
    if table:
        captured[last_taker if last_taker >= 0 else 0] |= table
    return totals(captured, scope, fast)


# Per card index: the mask of the cards of its value, the presence bits of smaller values, and the
# presa dispari ways of its value by presence.
SAME_MASK: tuple[int, ...] = tuple(VALUE_MASK[VALUE[c]] for c in range(40))
LOW_MASK: tuple[int, ...] = tuple((1 << (VALUE[c] - 1)) - 1 for c in range(40))
WAYS_OF: tuple[tuple[tuple[Way, ...], ...], ...] = tuple(
    SUM_WAYS_BY_PRESENCE[VALUE[c]] for c in range(40)
)
LOW: tuple[int, ...] = tuple((1 << (v - 1)) - 1 if v else 0 for v in range(11))


def _random_bit(mask: int, rnd: Callable[[], float]) -> int:
    bits = indices_of(mask)
    return 1 << bits[int(rnd() * len(bits))]


def _random_way(table: int, ways: tuple[Way, ...], rnd: Callable[[], float]) -> int:
    """One random presa dispari among ``ways`` (value multisets whose values are present), or 0
    when none has enough cards of each value."""
    n = len(ways)
    start = int(rnd() * n) if n > 1 else 0
    for k in range(n):
        way = ways[(start + k) % n]
        mask = 0
        for value, count in way:
            present = table & VALUE_MASK[value]
            if count == 1:
                mask |= present if not present & (present - 1) else _random_bit(present, rnd)
                continue
            bits = indices_of(present)
            if len(bits) < count:
                break
            for _ in range(count):
                mask |= 1 << bits.pop(int(rnd() * len(bits)))
        else:
            return mask
    return 0


def _obliged_card(hand: list[int], table: int, fast: FastRules) -> int:
    """Obbligo di presa: pop a capturing card if there is one, else the last card (the hand's
    order is random, so the last capturing card is a random one)."""
    capturing = [
        i
        for i, card in enumerate(hand)
        if capture_masks(
            table, card, asso_piglia_tutto=fast.asso_piglia_tutto, scopa_a_15=fast.scopa_a_15
        )
    ]
    if not capturing:
        return hand.pop()
    pick = capturing[-1]
    hand[pick], hand[-1] = hand[-1], hand[pick]
    return hand.pop()


def random_smazzata(
    rules: Rules | FastRules, rng: random.Random, *, epsilon: float = 1.0
) -> list[int]:
    """Deal a fresh smazzata (re-dealt as the rules say) and play it out with random
    (``epsilon`` = 1) or epsilon-greedy moves; returns each side's smazzata points.

    The benchmark's unit of work. Any fixed way of cutting a uniformly random permutation into the
    table and the hands is a uniformly random deal, and playing random hands from their end makes
    the play order a fixed cut as well: the table is the permutation's first cards, and the rest is
    the order of play, seat 0 first.
    """
    fast = rules if isinstance(rules, FastRules) else FastRules.of(rules)
    n = fast.players
    rnd = rng.random
    on_table = 0 if fast.variant == "scientifico" else 4
    while True:
        keys = [rnd() for _ in range(40)]
        deck = sorted(range(40), key=keys.__getitem__)
        values = [VALUE[c] for c in deck[:on_table]]
        kings = values.count(10)
        if kings < 3 and (fast.variant != "scopone" or sum(values) > 10):
            break
    table = 0
    for card in deck[:on_table]:
        table |= 1 << card
    sequence = deck[on_table:]
    sides = fast.sides
    captured, scope = [0] * sides, [0] * sides
    plain = not (fast.asso_piglia_tutto or fast.scopa_a_15 or fast.obbligo_di_presa)
    if plain and epsilon >= 1.0:
        return _run_sequence(fast, sequence, table, captured, scope, -1, 0, rnd)
    # Lay the permutation out as hands in play order (deck dealt from its end).
    per = 3 if fast.variant == "scopa" else len(sequence) // n
    hands = [sequence[s * per : (s + 1) * per] for s in range(n)]
    rest = sequence[n * per :]
    return play_out(fast, hands, table, rest, captured, scope, -1, 0, rng, epsilon=epsilon)
