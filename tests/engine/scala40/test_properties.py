"""Seeded random matches with a random-legal player (docs/rules.md "What every game guarantees"):
the 108 cards are always all somewhere, every match ends, every state survives a JSON round trip, a
view never shows another player's hand, every listed move is legal."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scala40 import Game, Phase, Rules, new_game, parse_move

MAX_MOVES = 20_000  # a bound on the loop; real matches here take a few thousand moves

# Every option of docs/rules.md takes a non-default value in at least one variant.
VARIANTS = [
    Rules(players=2, reentry=True, close_in_hand="off", first_pile_card_free=True),
    Rules(
        players=3, jokers_per_meld=2, opening_points=0, close_in_hand="bonus", unopened_pays="100"
    ),
    Rules(
        players=4,
        dealer_fourteen=True,
        discard_attachable="forbidden",
        reentry=True,
        max_restocks=3,
    ),
]


def _full_deck_counts(game: Game) -> Counter[tuple[str, str]]:
    return Counter((card.rank, card.suit) for card in game.all_cards())


EXPECTED = Counter(
    {(rank, suit): 2 for rank in "A23456789TJQK" for suit in "DCSB"} | {("*", ""): 4}
)


def _scrambled(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card ``seat`` cannot see (other hands, the tallone)
    reshuffled among those places."""
    data = game.to_dict()
    hidden_places = [i for i in range(game.players) if i != seat]
    pool = data["stock"].split()
    for i in hidden_places:
        pool += data["hands"][i].split()
    rng.shuffle(pool)
    for i in hidden_places:
        size = len(data["hands"][i].split())
        data["hands"][i] = " ".join(pool[:size])
        pool = pool[size:]
    data["stock"] = " ".join(pool)
    return Game.from_dict(data)


def _play_match(rules: Rules, seed: int, *, deep: bool) -> Game:
    rng = random.Random(seed)
    game = new_game(rules, seed=seed)
    for step in range(MAX_MOVES):
        assert _full_deck_counts(game) == EXPECTED
        data = game.to_dict()
        restored = Game.from_dict(json.loads(json.dumps(data)))
        assert restored.to_dict() == data
        if game.is_over:
            return game
        legal = game.legal_moves()
        assert legal, f"no legal move at step {step}: {game!r}"
        seat = game.current_player
        assert seat is not None
        for move in legal:
            text = str(move)
            assert len(text.encode()) < 64 and parse_move(text) == move
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        assert list(view.legal_moves) == [str(m) for m in legal]
        public = game.view(None)
        assert public.hand == () and public.legal_moves == () and public.drawn is None
        assert view.drawn == game.drawn
        assert public.hand_counts == tuple(len(game.hand(i)) for i in range(game.players))
        if deep and step % 10 == 0:
            for watcher in range(game.players):
                if watcher != seat:
                    assert game.view(watcher).drawn is None
                twin = _scrambled(game, watcher, rng)
                assert twin.view(watcher).to_dict() == game.view(watcher).to_dict()
            for other in rng.sample(legal, min(3, len(legal))):
                game.play(other)  # every listed move is accepted
        game = game.play(rng.choice(legal))
        assert game.last_move is not None and game.last_move[0] == seat
    raise AssertionError(f"the match did not end in {MAX_MOVES} moves")


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: f"{rules.players}p")
@settings(max_examples=1, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32))
def test_random_matches_keep_every_invariant(rules: Rules, seed: int) -> None:
    game = _play_match(rules, seed, deep=True)
    outcome = game.outcome()
    assert outcome is not None and game.winner is not None
    assert outcome.ranks[game.winner] == 0 and sorted(outcome.ranks)[1] >= 1
    assert game.phase is Phase.OVER
    assert sum(not game.is_eliminated(seat) for seat in range(game.players)) == 1


@pytest.mark.parametrize("players", [6])
@settings(max_examples=1, deadline=None, derandomize=True)
@given(seed=st.integers(1, 2**32))
def test_many_players(players: int, seed: int) -> None:
    game = _play_match(Rules(players=players), seed, deep=False)
    assert game.is_over
