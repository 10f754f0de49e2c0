"""How much of ``hard``'s choice is luck: each search's regret against a far bigger search.

``hard`` (its default, or the options of ``--player``) plays a side against a baseline pair on
fixed Scopone deals (or Scopa 2), seats swapped. At each of its moves with a choice, a
**reference** search of the same player (``--ref`` times its deals, common random numbers, every
move on every deal: no halving) rates every legal move; then each
**configuration** searches the position ``--k`` times with other seeds, and its **regret** is
the reference's rating of the best move less its rating of the move chosen (0 when it picks the
reference's best; the reward's units: 1 a smazzata won, 0.1 a point). The mean over the
positions says how much a configuration loses to the noise of its sampling, and the paired
differences (each position searched by every configuration) say which loses less. It does not
say whether the search's model of the game is right: the reference shares it.

Configurations: ``NAME=OPTIONS``, options of ``HardPlayer`` as ``key:value`` pairs (JSON values)
joined by ``,``, ``scale`` multiplying the deals a move; e.g. ``--config 'x1.5=scale:1.5'``.
The figures of docs/ai-notebook.md (the eighth pass of issue #21; the player of before, at its
budget):

    python benchmarks/regret.py --count 6 --seed 7000 \\
        --player crn:false,halving:false,work:171000 \\
        --config default=crn:false,halving:false,work:171000 \\
        --config crn=crn:true,halving:false,work:171000 \\
        --config 'crn+halving=crn:true,halving:true,work:171000' \\
        --config 'crn+halving x0.8=crn:true,halving:true,work:171000,scale:0.8'
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.baselines import BASELINES
from engine import scopa
from engine.ai.search import most_visited
from engine.scopa import ScopaView
from engine.scopa.ai.hard import HardPlayer, legal_keys
from engine.scopa.ai.pimc import evaluate

__all__ = ["main", "parse_config", "parse_options", "stats_of"]


def parse_options(rest: str) -> tuple[dict[str, Any], float]:
    """``key:value,...`` -> (HardPlayer options, deals scale)."""
    options: dict[str, Any] = {}
    scale = 1.0
    for part in filter(None, rest.split(",")):
        key, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"options are key:value pairs: {part!r}")
        parsed = json.loads(value)
        if key == "scale":
            scale = float(parsed)
        else:
            options[key] = parsed
    return options, scale


def parse_config(text: str) -> tuple[str, dict[str, Any], float]:
    """``NAME=key:value,...`` -> (name, HardPlayer options, deals scale)."""
    name, _, rest = text.partition("=")
    if not name:
        raise ValueError(f"a configuration needs a name: {text!r}")
    return (name, *parse_options(rest))


def stats_of(
    player: HardPlayer, view: ScopaView, seed: int, *, scale: float = 1.0, deals: int | None = None
) -> dict[int, tuple[int, float]]:
    """The root statistics of one search of ``player`` at ``scale`` times its deals (or
    ``deals``), without its CPU cap."""
    info = player.info(view)
    planned = player.deals(info)
    assert planned is not None
    count = deals if deals is not None else max(1, int(planned * scale))
    uncapped = replace(player.config, cpu_cap=None)
    return evaluate(info, legal_keys(info), count, seed, uncapped)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/regret.py",
        description="hard's searches: regret against a far bigger search, position by position.",
    )
    parser.add_argument("--game", choices=("scopone", "scopa"), default="scopone")
    parser.add_argument("--count", type=int, default=6, help="deals (seats swapped: even)")
    parser.add_argument("--seed", type=int, default=7000, help="the first deck seed")
    parser.add_argument("--baseline", default="flatmc", choices=sorted(BASELINES))
    parser.add_argument("--ref", type=int, default=8, help="the reference's deals, x the default")
    parser.add_argument("--k", type=int, default=4, help="searches per configuration and move")
    parser.add_argument("--config", action="append", default=[], help="NAME=key:value,...")
    parser.add_argument("--player", default="", help="the options of the hard that plays")
    args = parser.parse_args(argv)
    if args.count < 1 or args.ref < 1 or args.k < 1:
        parser.error("--count, --ref and --k must be at least 1")
    try:
        configs = [parse_config(c) for c in args.config or ["default="]]
        playing, _ = parse_options(args.player)
        players = {name: HardPlayer(**options) for name, options, _ in configs}
        reference = HardPlayer(**{**playing, "crn": True, "halving": False})
    except (ValueError, TypeError, json.JSONDecodeError) as exc:
        parser.error(str(exc))
    seats = 4 if args.game == "scopone" else 2
    rows: list[dict[str, float]] = []
    for number in range((args.count + 1) // 2 * 2):
        seed, rotation = args.seed + number // 2, number % 2
        rules = scopa.Rules(variant="scopone") if seats == 4 else scopa.Rules()
        game = scopa.new_game(rules, seed=seed)
        hard = HardPlayer(**playing)
        table = [hard if s % 2 == rotation else BASELINES[args.baseline]() for s in range(seats)]
        moves = random.Random(seed * 7919 + rotation)
        for _ in range(60):  # a smazzata has at most 40 moves
            if game.is_over or game.smazzate:
                break
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            if table[seat] is hard and len(set(view.legal_moves)) > 1:
                info = reference.info(view)
                base = reference.deals(info)
                assert base is not None
                played = len(view.history)
                seed_ref = 99991 + number * 1000 + played
                raw = stats_of(reference, view, seed_ref, deals=base * args.ref)
                rating = {key: total / done for key, (done, total) in raw.items()}
                best = max(rating.values())
                row = {"left": float(info.left), "moves": float(len(rating))}
                for name, _, scale in configs:
                    regrets = []
                    for k in range(args.k):
                        seed_k = 1000003 * k + 31 * played + number
                        stats = stats_of(players[name], view, seed_k, scale=scale)
                        regrets.append(best - rating[most_visited(stats)])
                    row[name] = statistics.fmean(regrets)
                rows.append(row)
                print(json.dumps(row), flush=True)
            game = game.play(table[seat].choose(view, moves))
    first = configs[0][0]
    print(f"{len(rows)} positions; regret a move, and the gain on {first!r} (paired, +- 1 s.e.)")
    for name, _, _ in configs:
        mean = statistics.fmean(r[name] for r in rows)
        diffs = [r[first] - r[name] for r in rows]
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        print(f"{name:16s} {mean:.4f}  {statistics.fmean(diffs):+.4f} +- {se:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
