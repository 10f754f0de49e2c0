"""The rules of Briscola in motion: deal, what may be played, the swap, tricks and the draw,
the end of a deal and of the match. The chiamata auction is in :mod:`engine.briscola.auction`."""

from __future__ import annotations

import random

from engine.briscola import auction
from engine.briscola.moves import IllegalMove, Move, Phase, sort_hand
from engine.briscola.records import DealResult, Event, Trick, cards_text
from engine.briscola.rules import Rules
from engine.briscola.state import State, sides_of, stream
from engine.briscola.tricks import POINTS, beats
from engine.cards import Card, italian_deck, parse_card

__all__ = ["Deal"]


class Deal:
    """The rules in motion: mutates a copied ``State``."""

    __slots__ = ("n", "rules", "s")

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules = rules
        self.s = state
        self.n = rules.players

    # -- dealing ----------------------------------------------------------------------------
    def deal(self) -> None:
        """Shuffle and deal by ``s.dealer``; the seat after the dealer speaks or leads first."""
        s, n = self.s, self.n
        s.shuffles += 1
        deck = list(italian_deck())
        if n == 3:
            deck.remove(parse_card(self.rules.removed_two))
        random.Random(stream(s.seed, s.shuffles)).shuffle(deck)
        first = (s.dealer + 1) % n
        s.hands = [[] for _ in range(n)]
        for _ in range(self.rules.hand_size):
            for k in range(n):
                s.hands[(first + k) % n].append(deck.pop())
        s.won = [[] for _ in range(n)]
        s.tricks = []
        s.trick = []
        s.leader = first
        s.current = first
        s.auction = []
        s.passed = [False] * n
        s.high_bidder = s.bid_rank = s.bid_points = None
        s.caller = s.called = s.socio = None
        s.revealed = False
        s.swapped = None
        if self.rules.chiamata:
            s.stock, s.face_up, s.trump = [], None, None
            s.phase = Phase.AUCTION
        else:
            face_up = deck.pop()
            # The face-up card lies crosswise under the stock: it is the last card drawn.
            s.stock = [face_up, *deck]
            s.face_up, s.trump = face_up, face_up.suit
            s.phase = Phase.PLAY
        s.turned_up = s.face_up
        s.events.append(
            Event(
                "dealt",
                s.dealer,
                {
                    "number": len(s.results) + 1,
                    "dealer": s.dealer,
                    "briscola": None if s.face_up is None else str(s.face_up),
                },
            )
        )

    # -- legality ---------------------------------------------------------------------------
    def legal(self) -> list[Move]:
        s = self.s
        seat = s.current
        if seat is None:
            return []
        if s.phase is Phase.AUCTION:
            return auction.auction_moves(self.rules, s)
        if s.phase is Phase.CALL:
            return auction.call_moves(s)
        moves = [Move("card", card=c) for c in sort_hand(s.hands[seat])]
        if self.swap_card(seat) is not None:
            moves.insert(0, Move("swap"))
        return moves

    def swap_card(self, seat: int) -> Card | None:
        """The card ``seat`` may exchange for the face-up one now, if any."""
        s, rules = self.s, self.rules
        if rules.swap == "off" or s.phase is not Phase.PLAY or s.face_up is None:
            return None
        if len(s.stock) < 2 or s.trump is None:
            return None
        card = Card("2" if rules.swap == "two" else "7", s.trump)
        return card if card in s.hands[seat] else None

    def why_illegal(self, seat: int, move: Move) -> IllegalMove:
        s = self.s
        if s.phase is Phase.AUCTION or s.phase is Phase.CALL:
            return auction.auction_refusal(self.rules, s, move)
        if move.kind in ("pass", "rank", "points", "call"):
            return IllegalMove("the auction is over: play a card")
        if move.kind == "swap":
            if self.rules.swap == "off":
                return IllegalMove("the swap is not played at this table")
            if s.face_up is None or len(s.stock) < 2:
                return IllegalMove("the swap is allowed only while the stock has 2 cards or more")
            rank = "2" if self.rules.swap == "two" else "7"
            return IllegalMove(
                "you do not hold {card} to swap for the face-up card",
                card=f"{rank}{s.trump}",
            )
        return IllegalMove("{card} is not in your hand", card=str(move.card))

    # -- moves ------------------------------------------------------------------------------
    def apply(self, seat: int, move: Move) -> None:
        s = self.s
        s.events = []
        s.last_move = (seat, str(move))
        if move.kind == "card":
            assert move.card is not None
            self.play_card(seat, move.card)
        elif move.kind == "swap":
            self.swap(seat)
        elif move.kind == "call":
            assert move.card is not None
            self.call(seat, move.card)
        else:
            self.bid(seat, move)

    def bid(self, seat: int, move: Move) -> None:
        if auction.bid(self.s, seat, move, self.n):
            # All five passed: the next dealer deals again (not one of the match's deals).
            self.deal()

    def call(self, seat: int, card: Card) -> None:
        auction.call(self.s, seat, card, self.n)

    def swap(self, seat: int) -> None:
        s = self.s
        card = self.swap_card(seat)
        assert card is not None and s.face_up is not None
        hand = s.hands[seat]
        hand[hand.index(card)] = s.face_up
        s.events.append(Event("swap", seat, {"card": str(card), "took": str(s.face_up)}))
        s.swapped = (seat, s.face_up)
        s.stock[0] = card
        s.face_up = s.turned_up = card

    def play_card(self, seat: int, card: Card) -> None:
        s, n = self.s, self.n
        s.hands[seat].remove(card)
        if not s.trick:
            s.last_trick = None
            s.leader = seat
        s.trick.append(card)
        s.events.append(Event("card", seat, {"card": str(card)}))
        if s.called is not None and card == s.called:
            s.revealed = True
            s.events.append(
                Event("socio", s.socio, {"card": str(card), "alone": s.socio == s.caller})
            )
        if len(s.trick) < n:
            s.current = (seat + 1) % n
            return
        assert s.trump is not None
        best = 0
        for i in range(1, n):
            if beats(s.trick[i], s.trick[best], s.trump):
                best = i
        winner = (s.leader + best) % n
        trick = Trick(s.leader, tuple(s.trick), winner)
        s.won[winner].extend(s.trick)
        s.tricks.append(trick)
        s.last_trick = trick
        s.trick = []
        s.events.append(
            Event("trick", winner, {"cards": cards_text(trick.cards), "leader": trick.leader})
        )
        if s.stock:
            # The winner draws first, then the others in turn order.
            for k in range(n):
                s.hands[(winner + k) % n].append(s.stock.pop())
            if not s.stock:
                s.face_up = None
        if any(s.hands):
            s.current = s.leader = winner
            return
        self.end_deal()

    # -- scoring ----------------------------------------------------------------------------
    def end_deal(self) -> None:
        s, rules, n = self.s, self.rules, self.n
        seat_points = [sum(POINTS[c.rank] for c in pile) for pile in s.won]
        if rules.chiamata:
            result = auction.score_chiamata(rules, s, seat_points)
        else:
            sides = sides_of(rules)
            points = tuple(sum(seat_points[k] for k in side) for side in sides)
            best = max(points)
            leaders = [i for i, p in enumerate(points) if p == best]
            # At 3 players the most points win the deal; a shared first place is a draw.
            winner = leaders[0] if len(leaders) == 1 else None
            if rules.deal_scoring == "win":
                scores = tuple(1 if i == winner else 0 for i in range(len(sides)))
            else:
                scores = points
            result = DealResult(len(s.results) + 1, s.dealer, points, scores, winner)
        for i, delta in enumerate(result.scores):
            s.scores[i] += delta
        s.results.append(result)
        s.events.append(Event("deal", None, {"result": result.to_dict()}))
        if self.match_over():
            s.phase = Phase.OVER
            s.current = None
            s.events.append(Event("over", s.winner, {"winner": s.winner}))
            return
        s.dealer = (s.dealer + 1) % n
        self.deal()

    def match_over(self) -> bool:
        s, rules = self.s, self.rules
        best = max(s.scores)
        leaders = [i for i, p in enumerate(s.scores) if p == best]
        if rules.chiamata:
            if len(s.results) < rules.deals:
                return False
            s.winner = leaders[0] if len(leaders) == 1 else None  # a tie is shared
            return True
        # On a tie the match goes on with another deal.
        if best >= rules.target and len(leaders) == 1:
            s.winner = leaders[0]
            return True
        return False
