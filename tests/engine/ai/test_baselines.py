"""The independent benchmark opponents (``benchmarks/baselines``) play legally, never use
``engine.ai``, and the benchmark script prints its figures."""

from __future__ import annotations

import ast
import json
import math
import random
from pathlib import Path

import pytest

from benchmarks import paired, play_model, reading, vs_baselines
from benchmarks.baselines import BASELINES
from benchmarks.baselines.scopa_sim import captures, score
from benchmarks.oracle import Oracle
from engine import scala40, scopa
from engine.scopa.ai.evidence import FEATURES
from engine.scopa.tables import INDEX, mask_of

BASELINE_DIR = Path(vs_baselines.__file__).resolve().parent / "baselines"


def test_the_baselines_import_nothing_of_engine_ai() -> None:
    for path in BASELINE_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("engine.ai"), path.name
                assert not (node.module or "").startswith("engine.scopa."), path.name
            elif isinstance(node, ast.Import):
                assert all(not a.name.startswith("engine.ai") for a in node.names), path.name


@pytest.mark.parametrize("name", ["flatmc", "expert", "greedy", "simgreedy"])
@pytest.mark.parametrize(
    "rules",
    [scopa.Rules(variant="scopone"), scopa.Rules(), scopa.Rules(players=3)],
    ids=["scopone", "scopa2", "scopa3"],
)
def test_scopa_baselines_play_a_smazzata_legally(name: str, rules: scopa.Rules) -> None:
    game = scopa.new_game(rules, seed=3)
    players = [BASELINES[name]() for _ in range(rules.players)]
    rng = random.Random(1)
    while not game.smazzate:
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        move = players[seat].choose(view, rng)
        assert move in view.legal_moves
        game = game.play(move)


def test_the_rummy_baseline_plays_a_scala40_match() -> None:
    game = scala40.new_game(scala40.Rules(players=2), seed=5)
    players = [BASELINES["rummy"](), BASELINES["rummy"]()]
    rng = random.Random(0)
    for _ in range(20_000):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        game = game.play(players[seat].choose(game.view(seat), rng))
    assert game.is_over


def test_the_own_arithmetic_agrees_with_the_engine() -> None:
    """Captures and scores of ``scopa_sim`` equal the engine's on random tables and piles."""
    rng = random.Random(4)
    memo: dict[tuple[int, int], list[int]] = {}
    for _ in range(300):
        cards = list(range(40))
        rng.shuffle(cards)
        table = sum(1 << c for c in cards[:5])
        card = cards[5]
        ours = sorted(captures(table, card % 10 + 1, memo))
        engine_table = [k for k, i in INDEX.items() if table >> i & 1]
        played = next(k for k, i in INDEX.items() if i == card)
        theirs = sorted(mask_of(o) for o in scopa.capture_options(engine_table, played))
        assert ours == theirs
        split = rng.randrange(41)
        piles = [sum(1 << c for c in cards[:split]), sum(1 << c for c in cards[split:])]
        scope = [rng.randrange(3), rng.randrange(3)]
        engine_piles = [[k for k, i in INDEX.items() if p >> i & 1] for p in piles]
        expected = [s["total"] for s in scopa.score_smazzata(engine_piles, scope)]
        assert score(piles, scope) == expected


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "scopone", "--level", "medium", "--baseline", "expert", "--count", "4"]
    assert vs_baselines.main(argv) == 0
    out = capsys.readouterr().out
    assert "medium vs expert" in out and "95% CI" in out and "non-dealer side" in out
    argv = ["--game", "scopa", "--level", "hard", "--baseline", "greedy", "--count", "2"]
    assert vs_baselines.main([*argv, "--deals", "--iterations", "10"]) == 0
    assert "hard vs greedy" in capsys.readouterr().out


@pytest.mark.parametrize(("game", "seats"), [("scopone", 4), ("scopa", 2)])
def test_the_oracle_plays_the_true_cards(game: str, seats: int) -> None:
    """``--level oracle`` (benchmarks/oracle.py) deals every search the hands (and deck) the game
    really holds: its dealer checks they are the cards the seat has not seen, at every move."""
    job = vs_baselines.Job(game, seats, 7, 0, "oracle", (("iterations", 8),), "greedy", True)
    result = vs_baselines.play(job)
    assert len(result.move_cpu) > 0


@pytest.mark.parametrize(
    ("game", "seats", "knows", "values"),
    [
        ("scopone", 4, "partner", ""),
        ("scopone", 4, "opponents", ""),
        ("scopa", 2, "hands", ""),
        ("scopone", 4, "partner", "7"),
    ],
)
def test_the_oracle_told_some_cards_deals_the_rest_at_random(
    game: str, seats: int, knows: str, values: str
) -> None:
    """Told the partner's hand, the opponents', or every hand but not the deck's order (Scopa 2
    players: the opponent's hand only), or only where the 7s lie in the partner's hand: the
    other cards dealt at random, still checked to be the cards the seat has not seen."""
    options = (("iterations", 8), ("knows", knows), ("values", values))
    job = vs_baselines.Job(game, seats, 7, 1, "oracle", options, "greedy", True)
    assert len(vs_baselines.play(job).move_cpu) > 0


@pytest.mark.parametrize("values", ["0", "7,11", "seven"])
def test_the_oracle_refuses_values_that_are_not_card_values(values: str) -> None:
    with pytest.raises(ValueError, match="values must be card values 1-10"):
        Oracle(knows="partner", values=values)


def test_paired_runs_count_the_deals_only_one_side_won(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def write(name: str, rows: list[tuple[int, int, bool, bool]]) -> Path:
        path = tmp_path / name
        lines = [
            json.dumps({"seed": s, "rotation": r, "won": w, "tie": False, "dealer": d})
            for s, r, w, d in rows
        ]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    a = write("a.jsonl", [(1, 0, True, True), (1, 1, False, False), (2, 0, True, True)])
    b = write("b.jsonl", [(1, 0, True, True), (1, 1, True, False), (2, 0, False, True)])
    extra = write("c.jsonl", [(3, 0, True, False)])  # played by B only: not counted
    assert paired.main([str(a), "--vs", str(b), str(extra)]) == 0
    out = capsys.readouterr().out
    assert "A: won 2/3" in out and "B: won 2/3" in out
    assert "all deals: 3 deals" in out and "only A won 1, only B won 1; z = +0.00, p = 1.000" in out
    assert "non-dealer side: 1 deals" in out

    assert paired.mcnemar(1, 9) == pytest.approx((8 / math.sqrt(10), 2 * 11 / 1024))
    assert paired.mcnemar(0, 0) == (0.0, 1.0)

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seed": 1}\n', encoding="utf-8")
    assert paired.main([str(a), str(bad)]) == 2
    assert "bad.jsonl:1: not a vs_baselines result" in capsys.readouterr().err
    twice = write("twice.jsonl", [(1, 0, True, True), (1, 0, False, True)])
    with pytest.raises(ValueError, match="seed 1 rotation 0 differs"):
        paired.load([twice])


def test_the_reading_benchmark_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert reading.main(["--count", "1", "--work", "4000", "--deals", "8", "--from", "30"]) == 0
    out = capsys.readouterr().out
    for name in ("uniform", "inference", "likelihood 0.3", "fitted x1.5", "partner 1.0"):
        assert name in out


def test_the_play_model_fit_recovers_known_coefficients() -> None:
    rng = random.Random(3)
    truth = [rng.uniform(-1.5, 1.5) for _ in FEATURES]
    data = []
    for _ in range(3000):  # hands of 2 to 9 cards, the card drawn by the true softmax
        cards = [tuple(rng.random() for _ in FEATURES) for _ in range(rng.randint(2, 9))]
        utils = [math.exp(sum(t * x for t, x in zip(truth, f, strict=True))) for f in cards]
        chosen = rng.choices(range(len(cards)), weights=utils)[0]
        data.append((cards, chosen))
    fitted = play_model.fit(data, ridge=0.01)
    assert all(abs(f - t) < 0.5 for f, t in zip(fitted, truth, strict=True))


def test_the_play_model_collects_plays_and_prints_its_fit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plays.jsonl"
    args = ["collect", "--count", "2", "--seed", "8", "--work", "3000", "--out", str(out)]
    assert play_model.main([*args, "--baseline", "greedy"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 72 and {r["kind"] for r in rows} == {"hard", "greedy"}
    assert all(r["card"] in r["hand"] for r in rows)
    assert (
        play_model.main(
            ["collect", "--count", "2", "--seed", "9", "--work", "3000", "--out", str(out)]
        )
        == 0
    )
    capsys.readouterr()
    assert play_model.main(["fit", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "FITTED = (" in printed and "greedy loglik" in printed
