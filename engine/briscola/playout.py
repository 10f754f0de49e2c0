"""The fast path of one Briscola deal, for the computer players: cards as small ints, a deal
state that plays a card in a few microseconds, the greedy policy, and dealing the cards a seat
cannot see (determinization) consistently with everything its view shows.

Card ``i`` is suit ``i // 10`` (D C S B) and rank ``RANK_ORDER[i % 10]``: within a suit a
lower ``i % 10`` is the stronger card (0 = Asso ... 9 = the 2).

Glossary: **carico** = the Asso or the 3 (11 and 10 points); **liscio** = a card worth nothing;
**socio** = the chiamata caller's secret partner.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from engine.briscola.tricks import POINTS, RANK_ORDER
from engine.cards import SUITS, Card

__all__ = [
    "CARD",
    "INDEX",
    "PTS",
    "Deal",
    "beats",
    "determinize",
    "greedy_card",
    "points_taken",
]

CARD: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANK_ORDER)
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARD)}
PTS: tuple[int, ...] = tuple(POINTS[c.rank] for c in CARD)
TEXT: tuple[str, ...] = tuple(str(c) for c in CARD)
WIN_WEIGHT = 0.8  # reward = WIN_WEIGHT * (deal won) + the rest * (share of the 120 points)


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` played after ``best`` (taking the trick so far) takes it."""
    if card // 10 == best // 10:
        return card < best
    return card // 10 == trump


def winning_index(trick: Sequence[int], trump: int) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def _smart_lead(hand: Sequence[int], trump: int) -> int:
    """``Deal.smart``'s lead: lisci of other suits first (the weakest), then small figures, then
    briscole."""
    best_card = -1
    best_key: tuple[int, int, int] = (99, 99, 99)
    for c in hand:
        is_trump = c // 10 == trump
        rank = 2 if is_trump else (0 if PTS[c] == 0 else 1 if PTS[c] < 10 else 3)
        key = (rank, PTS[c], -(c % 10))
        if key < best_key:
            best_key, best_card = key, c
    return best_card


def _cheap_key(card: int, trump: int) -> tuple[int, bool, int]:
    # The least valuable card: fewest points, not a briscola, the weakest.
    return (PTS[card], card // 10 == trump, -(card % 10))


def greedy_card(
    hand: Sequence[int], trick: Sequence[int], trump: int, *, partner_winning: bool = False
) -> int:
    """The greedy choice: when the trick holds points (and the partner is not taking it), the
    least valuable card that wins it; otherwise the least valuable card."""
    if trick and not partner_winning:
        best = trick[winning_index(trick, trump)]
        if any(PTS[c] for c in trick):
            winners = [c for c in hand if beats(c, best, trump)]
            if winners:
                return min(winners, key=lambda c: _cheap_key(c, trump))
    return min(hand, key=lambda c: _cheap_key(c, trump))


class Deal:
    """One deal in progress on the fast path (classic or chiamata, the tricks only).

    ``team[seat]`` is the seat's side for the rewards: classic 4 players: seat % 2; chiamata:
    1 for the caller and the socio, 0 for the others; else the seat itself.
    """

    __slots__ = (
        "cur",
        "hands",
        "leader",
        "mode",
        "n",
        "pts",
        "stock",
        "team",
        "threshold",
        "trick",
        "trump",
    )

    def __init__(
        self,
        *,
        hands: list[list[int]],
        stock: list[int],
        trump: int,
        trick: list[int],
        leader: int,
        pts: list[int],
        team: Sequence[int],
        mode: str,
        threshold: int = 61,
    ) -> None:
        self.n = len(hands)
        self.hands = hands
        self.stock = stock
        self.trump = trump
        self.trick = trick
        self.leader = leader
        self.cur = (leader + len(trick)) % self.n
        self.pts = pts
        self.team = tuple(team)
        self.mode = mode  # "pairs" (4 players), "alone" (each for themselves), "chiamata"
        self.threshold = threshold

    def copy(self) -> Deal:
        other = Deal.__new__(Deal)
        other.n = self.n
        other.hands = [h.copy() for h in self.hands]
        other.stock = self.stock.copy()
        other.trump = self.trump
        other.trick = self.trick.copy()
        other.leader = self.leader
        other.cur = self.cur
        other.pts = self.pts.copy()
        other.team = self.team
        other.mode = self.mode
        other.threshold = self.threshold
        return other

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)

    def play(self, card: int) -> None:
        n = self.n
        self.hands[self.cur].remove(card)
        trick = self.trick
        trick.append(card)
        if len(trick) < n:
            self.cur = (self.cur + 1) % n
            return
        winner = (self.leader + winning_index(trick, self.trump)) % n
        self.pts[winner] += sum(PTS[c] for c in trick)
        self.trick = []
        stock = self.stock
        if stock:
            hands = self.hands
            for k in range(n):
                hands[(winner + k) % n].append(stock.pop())
        self.leader = self.cur = winner

    def partner_winning(self) -> bool:
        """Whether a teammate of the seat to play is taking the trick so far."""
        trick = self.trick
        if not trick or self.mode == "alone":
            return False
        seat = (self.leader + winning_index(trick, self.trump)) % self.n
        return seat != self.cur and self.team[seat] == self.team[self.cur]

    def greedy(self) -> int:
        return greedy_card(
            self.hands[self.cur], self.trick, self.trump, partner_winning=self.partner_winning()
        )

    def smart(self) -> int:
        """The classical advice, cheaply: lead a liscio; take with the suit led when possible;
        spend a briscola on a carico (or on 4+ points as the last to play); load points on a
        trick a teammate is sure to take; otherwise throw the least valuable card."""
        hand = self.hands[self.cur]
        trick = self.trick
        trump = self.trump
        if not trick:
            return _smart_lead(hand, trump)
        n = self.n
        best_i = winning_index(trick, trump)
        best = trick[best_i]
        last = len(trick) == n - 1
        if self.mode != "alone":
            seat = (self.leader + best_i) % n
            if self.team[seat] == self.team[self.cur]:
                if last or (best // 10 == trump and best % 10 <= 2):
                    loads = [c for c in hand if c // 10 != trump and PTS[c]]
                    if loads:
                        return max(loads, key=lambda c: PTS[c])
                return min(hand, key=lambda c: _cheap_key(c, trump))
        on_table = 0
        for c in trick:
            on_table += PTS[c]
        same = -1
        cheapest_trump = -1
        for c in hand:
            if not beats(c, best, trump):
                continue
            if c // 10 != trump:
                if same < 0 or PTS[c] > PTS[same]:
                    same = c
            elif cheapest_trump < 0 or _cheap_key(c, trump) < _cheap_key(cheapest_trump, trump):
                cheapest_trump = c
        if same >= 0:
            return same
        if cheapest_trump >= 0 and (on_table >= 10 or (on_table >= 4 and last)):
            return cheapest_trump
        return min(hand, key=lambda c: _cheap_key(c, trump))

    def play_out(self, rng: random.Random, epsilon: float, *, smart: bool = True) -> None:
        """Play to the end of the deal: ``smart`` (else greedy) moves, a random one with
        probability epsilon."""
        while self.hands[self.cur]:
            if rng.random() < epsilon:
                hand = self.hands[self.cur]
                self.play(hand[rng.randrange(len(hand))])
            elif smart:
                self.play(self.smart())
            else:
                self.play(self.greedy())

    def side_points(self) -> list[int]:
        """Points per team value (index = team id)."""
        out = [0] * (max(self.team) + 1)
        for seat, p in enumerate(self.pts):
            out[self.team[seat]] += p
        return out

    def rewards(self) -> list[float]:
        """Each seat's reward for the finished deal, in [0, 1]."""
        sides = self.side_points()
        total = sum(sides) or 1
        if self.mode == "chiamata":
            won = sides[1] >= self.threshold
            wins = [float(not won), float(won)]
        else:
            best = max(sides)
            leaders = [i for i, p in enumerate(sides) if p == best]
            wins = [0.0] * len(sides)
            for i in leaders:
                wins[i] = 1.0 / len(leaders)
        return [
            WIN_WEIGHT * wins[self.team[s]] + (1 - WIN_WEIGHT) * sides[self.team[s]] / total
            for s in range(self.n)
        ]


def points_taken(view: Any) -> list[int]:
    """Card points each seat took so far this deal, counted from the tricks the seat watched."""
    out = [0] * int(view.players)
    for trick in view.tricks:
        out[trick.winner] += sum(POINTS[c.rank] for c in trick.cards)
    return out


def teams_of(view: Any, socio: int | None) -> tuple[str, list[int]]:
    n = int(view.players)
    if view.variant == "chiamata":
        team = [0] * n
        for seat in (view.caller, socio):
            if seat is not None:
                team[seat] = 1
        return "chiamata", team
    if n == 4:
        return "pairs", [k % 2 for k in range(n)]
    return "alone", list(range(n))


def _ids(cards: Iterable[Card]) -> list[int]:
    return [INDEX[c] for c in cards]


def known_holdings(view: Any) -> dict[int, set[int]]:
    """Cards in other seats' hands that the seat knows of: the face-up card went to the last
    player to draw; a swap put the face-up card in the swapper's hand."""
    seat, n = view.seat, int(view.players)
    played = {INDEX[c] for t in view.tricks for c in t.cards} | {INDEX[c] for _, c in view.trick}
    known: dict[int, set[int]] = {}
    if view.swapped is not None:
        who, card = view.swapped
        if INDEX[card] not in played and who != seat:
            known.setdefault(who, set()).add(INDEX[card])
    if view.turned_up is not None and view.briscola is None and view.variant != "chiamata":
        deck = 39 if n == 3 else 40
        rounds = (deck - 3 * n) // n
        if len(view.tricks) >= rounds:
            drawer = (view.tricks[rounds - 1].winner + n - 1) % n
            card = INDEX[view.turned_up]
            if card not in played and drawer != seat:
                known.setdefault(drawer, set()).add(card)
    return known


def determinize(
    view: Any, rng: random.Random, *, caller_alone: float = 0.05
) -> tuple[Deal, int | None]:
    """A deal consistent with ``view`` (the view of the seat to play), the unseen cards dealt at
    random, and the socio of that deal (chiamata; None otherwise).

    Consistent with: the seat's hand, every card played, the face-up card (under the stock, or
    in the hand of whoever drew it), a swap, the hand and stock sizes; in chiamata the called
    card (held by this seat, played, or else in another hand: the caller's own only with
    probability ``caller_alone``, since calling a card of one's own hand is rare).
    """
    seat, n = int(view.seat), int(view.players)
    hand = _ids(view.hand)
    played = [INDEX[c] for t in view.tricks for c in t.cards] + [INDEX[c] for _, c in view.trick]
    known = known_holdings(view)
    seen = set(hand) | set(played)
    for cards in known.values():
        seen |= cards
    face_up = (
        INDEX[view.briscola] if view.briscola is not None and view.variant != "chiamata" else None
    )
    if face_up is not None:
        seen.add(face_up)
    removed = INDEX[Card("2", view.rules.removed_two[1])] if n == 3 else None
    unknown = [i for i in range(40) if i not in seen and i != removed]
    rng.shuffle(unknown)
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[seat] = hand.copy()
    for other, cards in known.items():
        hands[other].extend(cards)
    socio: int | None = None
    if view.variant == "chiamata" and view.called is not None:
        called = INDEX[view.called]
        if view.socio is not None:
            socio = int(view.socio)
        elif called in hand:
            socio = seat
        else:
            candidates = [k for k in range(n) if k != seat and len(hands[k]) < view.hand_counts[k]]
            weights = [
                caller_alone if k == view.caller and len(candidates) > 1 else 1.0
                for k in candidates
            ]
            socio = rng.choices(candidates, weights)[0]
            hands[socio].append(called)
            unknown.remove(called)
    for other in range(n):
        if other == seat:
            continue
        need = view.hand_counts[other] - len(hands[other])
        hands[other].extend(unknown[:need])
        del unknown[:need]
    stock = ([face_up] if face_up is not None else []) + unknown
    if len(stock) != view.stock_count:
        raise ValueError("the view's cards do not add up")  # pragma: no cover - engine bug
    mode, team = teams_of(view, socio)
    trump = SUITS.index(view.briscola_suit)
    leader = view.trick[0][0] if view.trick else int(view.current_player)
    deal = Deal(
        hands=hands,
        stock=stock,
        trump=trump,
        trick=[INDEX[c] for _, c in view.trick],
        leader=leader,
        pts=points_taken(view),
        team=team,
        mode=mode,
        threshold=int(view.threshold or 61),
    )
    return deal, socio
