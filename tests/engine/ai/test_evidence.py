"""What the others' plays say of their hands (``engine.scopa.ai.evidence``) and hard's
``likelihood`` option, which weighs each deal by it."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from engine import scopa
from engine.scopa.ai.determinize import Dealer, parse_move
from engine.scopa.ai.evidence import careful_value, evidence, log_likelihood, style_log_odds
from engine.scopa.ai.greedy import GreedyPlayer
from engine.scopa.ai.hard import HardPlayer
from engine.scopa.ai.pimc import PLAIN, resampled
from engine.scopa.playout import FastRules
from engine.scopa.tables import INDEX, VALUE, mask_of


def _passed_up_a_sweep() -> tuple[scopa.Game, int, int]:
    """A Scopone game just after a seat threw a card although a card of its hand swept the
    table; (the game, that seat, the sweeping card's index). Found by playing seeded games."""
    for seed in range(200):
        game = scopa.new_game(scopa.Rules(variant="scopone"), seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            table = sum(VALUE[INDEX[c]] for c in view.table)
            hand = [INDEX[c] for c in view.hand]
            sweepers = [c for c in hand if view.table and VALUE[c] == table and table <= 10]
            throws = [
                m for m in game.legal_moves() if not m.capture and INDEX[m.card] not in sweepers
            ]
            if sweepers and throws and len(view.table) >= 2:
                return game.play(throws[0]), seat, sweepers[0]
            game = game.play(rng.choice(game.legal_moves()))
    raise AssertionError("no position found")


def _hands_and_moved(game: scopa.Game, seat: int, sweeper: int) -> tuple[list[list[int]], ...]:
    """The true hands, and the same deal with the sweeping card in another hidden hand and a card
    of a value that sweeps nothing in the seat's hand instead."""
    observer = game.current_player
    hands = [[INDEX[c] for c in game.view(s).hand] for s in range(4)]
    other = next(s for s in range(4) if s not in (seat, observer))
    swap = next(c for c in hands[other] if VALUE[c] != VALUE[sweeper])
    moved = [h.copy() for h in hands]
    moved[seat][moved[seat].index(sweeper)] = swap
    moved[other][moved[other].index(swap)] = sweeper
    return hands, moved


def test_a_sweep_passed_up_makes_the_deals_where_that_seat_held_it_less_likely() -> None:
    game, seat, sweeper = _passed_up_a_sweep()
    observer = game.current_player
    assert observer is not None and observer != seat
    view = game.view(observer)
    found = evidence(view, FastRules.of(view.rules))
    assert any(r.seat == seat for r in found)
    hands, moved = _hands_and_moved(game, seat, sweeper)
    assert log_likelihood(found, hands) < log_likelihood(found, moved)


def test_no_evidence_under_other_capture_rules_or_without_sharpness() -> None:
    game = scopa.new_game(scopa.Rules(variant="scopone", asso_piglia_tutto=True), seed=3)
    for _ in range(6):
        game = game.play(game.legal_moves()[0])
    view = game.view(game.current_player)
    assert evidence(view, FastRules.of(view.rules)) == ()
    plain = scopa.new_game(scopa.Rules(variant="scopone"), seed=3)
    for _ in range(6):
        plain = plain.play(plain.legal_moves()[0])
    view = plain.view(plain.current_player)
    assert evidence(view, FastRules.of(view.rules), beta=0.0) == ()


def test_hard_with_likelihood_weighs_deals_and_plays_the_same_move_for_the_same_seed() -> None:
    game, _seat, _ = _passed_up_a_sweep()
    view = game.view(game.current_player)
    player = HardPlayer(likelihood=0.3, iterations=60)
    info = player.info(view)
    assert info.evidence and not any(info.unlikely)  # the plain inference is off: not twice
    first = player.choose(view, random.Random(4))
    assert HardPlayer(likelihood=0.3, iterations=60).choose(view, random.Random(4)) == first
    assert first in {str(m) for m in game.legal_moves()}


def test_likelihood_must_be_a_number() -> None:
    with pytest.raises(ValueError, match="likelihood"):
        HardPlayer(likelihood=-1)


def test_resampled_deals_follow_the_likelihood_as_the_weights_do() -> None:
    game, seat, sweeper = _passed_up_a_sweep()
    view = game.view(game.current_player)
    info = HardPlayer(likelihood=0.3).info(view)
    assert info.evidence
    rng = random.Random(8)
    deal = Dealer(info, rng).deal
    draw = resampled(deal, info.evidence, 4, rng)
    # The seat that passed up a sweep holds the sweeping card in fewer resampled deals than in
    # plain ones, about as often as the likelihood weights say.
    plain = sum(sweeper in deal().hands[seat] for _ in range(3000)) / 3000
    kept = sum(sweeper in draw().hands[seat] for _ in range(3000)) / 3000
    total = held = 0.0
    for _ in range(3000):
        hands = deal().hands
        weight = math.exp(log_likelihood(info.evidence, hands))
        total += weight
        held += weight * (sweeper in hands[seat])
    assert kept < plain
    assert kept == pytest.approx(held / total, abs=0.05)


def test_hard_with_resample_plays_the_same_move_for_the_same_seed() -> None:
    game, _seat, _ = _passed_up_a_sweep()
    view = game.view(game.current_player)
    first = HardPlayer(likelihood=0.3, resample=4, iterations=64).choose(view, random.Random(4))
    again = HardPlayer(likelihood=0.3, resample=4, iterations=64).choose(view, random.Random(4))
    assert first == again and first in {str(m) for m in game.legal_moves()}
    # Without a likelihood there is nothing to resample by: the plain search.
    plain = HardPlayer(likelihood=0, resample=4, iterations=64).choose(view, random.Random(5))
    assert plain == HardPlayer(likelihood=0, iterations=64).choose(view, random.Random(5))
    for bad in (0, 1.5, "4"):
        with pytest.raises(ValueError, match="resample"):
            HardPlayer(resample=bad)  # type: ignore[arg-type]


def test_play_features_of_a_sweep_a_throw_and_a_dead_card() -> None:
    from engine.scopa.ai.evidence import FEATURES, play_features

    def index(text: str) -> int:
        return INDEX[scopa.Card(text[:-1], text[-1])]

    named = dict.fromkeys(FEATURES, 0.0)
    unseen = (4,) * 11  # nothing seen yet
    table = 1 << index("3D") | 1 << index("4S")
    sweep = dict(zip(named, play_features(index("7C"), table, unseen), strict=True))
    assert sweep["captures"] == 1.0 and sweep["sweeps"] == 1.0 and sweep["cards taken"] == 0.5
    assert sweep["own worth thrown"] == 0.0 and sweep["cards left"] == 0.0
    assert sweep["sum left live"] == 0.0 and sweep["sum left"] == 0.0
    throw = dict(zip(named, play_features(index("2C"), table, unseen), strict=True))
    assert throw["captures"] == 0.0 and throw["own worth thrown"] > 0.0
    assert throw["sum left live"] == 1.0  # 3 + 4 + 2 = 9: any of the four 9s sweeps it
    assert throw["sum left"] == pytest.approx(9 / 30)
    assert throw["thrown card dead"] == 0.0 and throw["cards left"] == 0.75
    # The other three 2s seen: a 2 thrown cannot be taken by a 2 any more.
    seen_twos = (4, 4, 1, 4, 4, 4, 4, 4, 4, 4, 4)
    dead = dict(zip(named, play_features(index("2C"), table, seen_twos), strict=True))
    assert dead["thrown card dead"] == 1.0


def test_the_window_reads_every_play_of_the_deal_an_empty_table_too() -> None:
    from engine.scopa.ai.evidence import window

    game = scopa.new_game(scopa.Rules(variant="scientifico"), seed=5)
    rng = random.Random(5)
    while True:
        view = game.view(game.current_player)
        if len(view.history) == 39:
            break
        game = game.play(rng.choice(game.legal_moves()))
    fast = FastRules.of(view.rules)
    moves = [(seat, *parse_move(text)) for seat, text in view.history]
    table = sum(1 << INDEX[c] for c in view.table)
    plays = window(view, fast, moves, table)
    assert len(plays) == 39 and plays[0][3] == 0  # the first card met an empty table
    seen_first = plays[0][4]
    assert seen_first == 0 and plays[1][4] >> plays[0][1] & 1  # the first card seen after it


def test_hard_with_the_fitted_model_reads_a_passed_up_sweep_and_is_repeatable() -> None:
    game, seat, sweeper = _passed_up_a_sweep()
    observer = game.current_player
    assert observer is not None
    view = game.view(observer)
    found = evidence(view, FastRules.of(view.rules), fitted=True)
    assert any(r.seat == seat for r in found)
    hands, moved = _hands_and_moved(game, seat, sweeper)
    assert log_likelihood(found, hands) < log_likelihood(found, moved)
    player = HardPlayer(model="fitted", iterations=60)
    first = player.choose(view, random.Random(4))
    assert HardPlayer(model="fitted", iterations=60).choose(view, random.Random(4)) == first


def test_model_must_be_known() -> None:
    with pytest.raises(ValueError, match="model"):
        HardPlayer(model="psychic")


def test_a_mixture_with_next_to_no_beginner_reads_as_the_main_model() -> None:
    game, seat, sweeper = _passed_up_a_sweep()
    view = game.view(game.current_player)
    fast = FastRules.of(view.rules)
    hands, moved = _hands_and_moved(game, seat, sweeper)
    plain = evidence(view, fast)
    tiny = evidence(view, fast, beginner=1e-12)
    assert {r.model for r in tiny} == {1, 2} and {r.model for r in plain} == {0}
    gap = log_likelihood(plain, moved) - log_likelihood(plain, hands)
    assert log_likelihood(tiny, moved) - log_likelihood(tiny, hands) == pytest.approx(gap)
    # A beginner always sweeps: with a real prior on it, the deal where the seat held the
    # sweeping card and threw something else is no likelier than under the main model alone.
    mixed = evidence(view, fast, beginner=0.3)
    assert log_likelihood(mixed, moved) - log_likelihood(mixed, hands) >= gap - 1e-9
    with pytest.raises(ValueError, match="beginner"):
        HardPlayer(beginner=1.0)


def test_the_mixture_gives_each_seat_the_posterior_of_the_beginner() -> None:
    """A seat that passed up a sweep is no beginner (a beginner always sweeps): where the deal
    gives it the sweeping card, the beginner's posterior for it falls below its prior."""
    game, seat, sweeper = _passed_up_a_sweep()
    view = game.view(game.current_player)
    found = evidence(view, FastRules.of(view.rules), beginner=0.3)
    hands, moved = _hands_and_moved(game, seat, sweeper)
    held, lacked = [0.0] * 4, [0.0] * 4
    total = log_likelihood(found, hands, held)
    assert total == log_likelihood(found, hands)
    log_likelihood(found, moved, lacked)
    assert held[seat] < 0.3 and held[seat] < lacked[seat]
    assert all(0.0 <= p <= 1.0 for p in held + lacked)


def test_hard_exploiting_a_beginner_is_repeatable() -> None:
    game, _, _ = _passed_up_a_sweep()
    view = game.view(game.current_player)
    player = HardPlayer(beginner=0.2, exploit=True, iterations=60)
    first = player.choose(view, random.Random(4))
    again = HardPlayer(beginner=0.2, exploit=True, iterations=60)
    assert again.choose(view, random.Random(4)) == first


@pytest.mark.parametrize("resample", [1, 4])
def test_exploit_plays_beginners_in_the_playouts_with_the_deals_drawn_or_weighted(
    resample: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``exploit`` some deals' playouts play a seat as a beginner (``naive``), whether the
    deals are weighted by the likelihood or drawn by it (``resample``); without it none do."""
    import engine.scopa.ai.pimc as pimc

    game, _, _ = _passed_up_a_sweep()
    view = game.view(game.current_player)
    info = HardPlayer(beginner=0.2).info(view)
    keys = pimc.root_keys([parse_move(str(m)) for m in game.legal_moves()])
    real = pimc.play_out
    seen: list[int] = []

    def spy(*args: object, **kwargs: object) -> list[int]:
        seen.append(int(kwargs["naive"]))  # type: ignore[call-overload]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pimc, "play_out", spy)
    for exploit in (True, False):
        seen.clear()
        pimc.evaluate(info, keys, 200, 3, replace(PLAIN, exploit=exploit, resample=resample))
        assert any(seen) == exploit


class _Careful:
    """Plays the careful greedy's best card (``careful_value``), its most valuable capture."""

    def choose(self, view: scopa.ScopaView, rng: random.Random) -> str:
        table = mask_of(view.table)
        card = max((INDEX[c] for c in view.hand), key=lambda c: careful_value(c, table))
        moves = [m for m in view.legal_moves if parse_move(m)[0] == card]
        return max(moves, key=len)


def _style_after_two_rounds(other: object, seed: int) -> tuple[float, set[int], scopa.ScopaView]:
    """Seat 1 played by ``other`` (seat 0 greedy) for two rounds of Scopa 2: ``style_log_odds``
    as seat 0 reads it at the third round's first move, and that view."""
    game = scopa.new_game(scopa.Rules(), seed=seed)
    players = {0: GreedyPlayer(), 1: other}
    rng = random.Random(seed)
    while len(game.view(0).history) < 12 or game.current_player != 0:
        seat = game.current_player
        assert seat is not None
        game = game.play(players[seat].choose(game.view(seat), rng))  # type: ignore[attr-defined]
    view = game.view(0)
    fast = FastRules.of(view.rules)
    moves = [(s, *parse_move(t)) for s, t in view.history]
    odds, counted = style_log_odds(view, fast, moves, mask_of(view.table), 0.3, 0.2)
    return odds[1], counted, view


def test_memory_reads_a_beginner_over_the_finished_rounds() -> None:
    """After two rounds of Scopa, a seat that played the beginner's cards is read as likelier a
    beginner than the prior says, a careful seat as less likely; the finished rounds' seat
    alone is read (seat 0 is the reader)."""
    prior = math.log(0.2 / 0.8)
    greedy = [_style_after_two_rounds(GreedyPlayer(), seed) for seed in range(12)]
    careful = [_style_after_two_rounds(_Careful(), seed) for seed in range(12)]
    assert all(counted <= {1} for _, counted, _ in greedy + careful)
    assert sum(o for o, _, _ in greedy) / 12 > prior > sum(o for o, _, _ in careful) / 12
    # The remembered prior reaches the readings: a seat with no play in the window yet is read
    # by it alone (two readings that weigh every deal alike).
    _, counted, view = greedy[0]
    found = evidence(view, FastRules.of(view.rules), beginner=0.2, memory=True)
    plain = evidence(view, FastRules.of(view.rules), beginner=0.2)
    assert counted == {1}
    assert [r.seat for r in found if not any(r.weights)] == [1, 1]
    assert len(found) == len(plain) + 2


def test_memory_changes_nothing_in_scopone() -> None:
    """Scopone deals every card at once: no round is ever finished, memory reads nothing more."""
    game, _, _ = _passed_up_a_sweep()
    view = game.view(game.current_player)
    fast = FastRules.of(view.rules)
    assert evidence(view, fast, beginner=0.2, memory=True) == evidence(view, fast, beginner=0.2)
