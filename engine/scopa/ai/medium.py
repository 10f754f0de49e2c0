"""The "medium" Scopa-family player: the classical advice (Chitarrella, Saracino) as a one-ply
look-ahead with card counting.

Glossary: **scopa** = a capture that sweeps the table; **settebello** = the 7 of denari;
**primiera** = the best card of each suit (7s and 6s count most); **denari** = the coin suit;
**carte doppie** = holding two cards of one value (throw one: what the others take, you retake).

Every legal move is scored in points of the smazzata:
* what it takes now: the cards (settebello, denari while the denari point is open, primiera cards,
  cards while the carte point is open) and a scopa;
* minus what the next player (always an opponent) is expected to take from the table it leaves:
  for each capture value, the chance that player holds one - from the cards not yet seen, so every
  played card is remembered, and lowered by what that player's missed sweeps say - times the best
  it could take with it (a scopa, the settebello, primiera cards ...); this is "never leave a
  scopa", "do not throw the settebello" and "protect your 7s" in one figure;
* plus (partner or self) or minus (another opponent) a share of what the player after that could
  take: "play to your partner", and set up your own next capture;
* a small bonus for throwing one of a pair (carte doppie).
Ties go to the first move in the engine's order, so the player is deterministic.
"""

from __future__ import annotations

import random
from math import comb

from engine.ai.base import legal_moves_of
from engine.scopa import ScopaView
from engine.scopa.ai.determinize import InfoSet, info_set, parse_move, with_fuori
from engine.scopa.capture import capture_masks
from engine.scopa.tables import DENARI_MASK, RE_BELLO, SETTEBELLO, VALUE, VALUE_MASK, indices_of

__all__ = ["Judge", "MediumPlayer"]

SCOPA = 1.0
# What one card is worth in smazzata points, before the state of the smazzata adjusts it.
CARD = 0.05
DENARO = 0.12
PRIMIERA_BONUS = {7: 0.25, 6: 0.12, 1: 0.06}
SETTEBELLO_WORTH = 1.0
# How much of the second player's chances counts (the table will have changed by then).
SECOND_SHARE = 0.35
PAIR_BONUS = 0.04


class MediumPlayer:
    """The classical advice as a scored one-ply look-ahead with card counting (Scopa family)."""

    name = "medium"

    def choose(self, view: object, rng: random.Random) -> str:
        moves = legal_moves_of(view)
        if not isinstance(view, ScopaView):
            raise TypeError("the medium player plays the Scopa family; use another for this game")
        plain = [m for m in moves if not m.endswith("!")]
        if len(plain) == 1:
            return with_fuori(view, plain[0])
        info = info_set(view)
        judge = Judge(info, view)
        best = max(plain, key=judge.score)  # max keeps the first of equal scores
        return with_fuori(view, best)


class Judge:
    """Scores the moves of one position (see the module docstring), in smazzata points."""

    def __init__(self, info: InfoSet, view: ScopaView) -> None:
        self.info = info
        fast = info.fast
        self.fast = fast
        n = fast.players
        self.seat = info.seat
        self.side = fast.side_of[info.seat]
        self.next_seat = (info.seat + 1) % n
        self.second_seat = (info.seat + 2) % n
        self.last_play = info.left == 1
        hidden = info.unseen.bit_count()
        self.hidden = hidden
        self.hand = info.hand
        self.re_bello = view.rules.re_bello
        # The denari and carte points are settled once one side holds more than half.
        sides = fast.sides
        denari = [(c & DENARI_MASK).bit_count() for c in info.captured]
        cards = [c.bit_count() for c in info.captured]
        self.denari_open = max(denari) * 2 <= 10 or sides > 2
        self.carte_open = max(cards) * 2 <= 40 or sides > 2
        self.worth = [self._card_worth(i) for i in range(40)]

    def _card_worth(self, card: int) -> float:
        worth = CARD if self.carte_open else 0.01
        if card < 10 and self.denari_open:
            worth += DENARO
        worth += PRIMIERA_BONUS.get(VALUE[card], 0.0)
        if card == SETTEBELLO:
            worth += SETTEBELLO_WORTH
        if card == RE_BELLO and self.re_bello:
            worth += SETTEBELLO_WORTH
        return worth

    def _take(self, capture: int) -> float:
        worth = self.worth
        return sum(worth[i] for i in indices_of(capture))

    def _hand_size(self, seat: int, *, after: int) -> int:
        """Cards ``seat`` holds when its turn comes, ``after`` plays from now."""
        count = self.info.hand_counts[seat]
        if seat == self.seat:
            count -= 1
        if count == 0 and self.info.left - after > 0 and self.info.deck_count:
            return 3
        return max(count, 0)

    def _chance(self, seat: int, value: int, size: int) -> float:
        """Chance that ``seat`` (hand of ``size`` unknown cards) holds a card of ``value``."""
        pool = self.info.unseen
        mask = VALUE_MASK[value] & pool
        k = mask.bit_count()
        if not k or not size or not self.hidden:
            return 0.0
        size = min(size, self.hidden)
        p = 1.0 - comb(self.hidden - k, size) / comb(self.hidden, size)
        if mask & ~self.info.unlikely[seat] == 0:
            p *= 0.2  # its missed sweeps say it probably holds none
        return p

    def _best_reply(self, table: int, value: int, *, left: int) -> float:
        """The most a card of ``value`` takes from ``table``, scopa included."""
        fast = self.fast
        best = 0.0
        for capture in capture_masks(
            table,
            value - 1,
            asso_piglia_tutto=fast.asso_piglia_tutto,
            scopa_a_15=fast.scopa_a_15,
        ):
            gain = self._take(capture) + CARD
            if capture == table and left > 1 and not (fast.asso_piglia_tutto and value == 1):
                gain += SCOPA
            best = max(best, gain)
        return best

    def _expected_take(self, seat: int, table: int, *, after: int) -> float:
        """What ``seat`` is expected to take from ``table`` with its best card (unknown hand)."""
        if not table or self.info.left - after <= 0:
            return 0.0
        size = self._hand_size(seat, after=after)
        gains = []
        for value in range(1, 11):
            gain = self._best_reply(table, value, left=self.info.left - after)
            if gain > 0:
                gains.append((gain, self._chance(seat, value, size)))
        gains.sort(reverse=True)
        expected, none_better = 0.0, 1.0
        for gain, p in gains:
            expected += gain * p * none_better
            none_better *= 1.0 - p
        return expected

    def _own_take(self, table: int, hand: int) -> float:
        """The most this seat's kept cards could take from ``table`` next turn."""
        best = 0.0
        for card in indices_of(hand):
            best = max(best, self._best_reply(table, VALUE[card], left=self.info.left - 2))
        return best

    def score(self, move: str) -> float:
        card, capture = parse_move(move)
        table = self.info.table
        fast = self.fast
        score = 0.0
        if capture:
            after = table & ~capture
            score += self._take(capture) + self.worth[card]
            ace = fast.asso_piglia_tutto and VALUE[card] == 1
            if not after and not self.last_play and not ace:
                score += SCOPA
        else:
            after = table | 1 << card
            if (self.hand & ~(1 << card)) & VALUE_MASK[VALUE[card]]:
                score += PAIR_BONUS
        if self.last_play:
            return score
        score -= self._expected_take(self.next_seat, after, after=1)
        if self.second_seat == self.seat:
            score += SECOND_SHARE * self._own_take(after, self.hand & ~(1 << card))
        elif fast.side_of[self.second_seat] == self.side:
            score += SECOND_SHARE * self._expected_take(self.second_seat, after, after=2)
        else:
            score -= SECOND_SHARE * self._expected_take(self.second_seat, after, after=2)
        return score
