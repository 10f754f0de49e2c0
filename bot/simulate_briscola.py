"""``tavolo simulate --game briscola`` and ``--game chiamata``: the Briscola part of
``bot.simulate`` (same jobs, seats swapped, same report).

    python -m bot.simulate --game briscola --players hard,easy --deals --games 1000
    python -m bot.simulate --game briscola --seats 4 --players hard,easy --games 200
    python -m bot.simulate --game chiamata --players hard,easy,easy,easy,easy --deals --games 1000

``--players`` names one player per side (``easy``, ``medium``, ``hard`` are the Briscola players
``briscola-easy``...; ``random`` any legal move): two at 2 players, three at 3, two at 4 (the
pairs), five in chiamata (each plays for themselves over the match). ``--deals`` plays single
deals: points are then the deal's card points (chiamata: the players' scores for the deal), and
in chiamata every player's record is also split by role, "as caller" (wins = calls made good),
"as caller at 61" (rank calls only: the unit the chiamata target is stated in), "as socio" and
"as other". A drawn deal (60-60) is a tie.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import TYPE_CHECKING

from engine.ai import get_player

if TYPE_CHECKING:
    from bot.simulate import Job, PlayerOptions, Result

__all__ = ["GAMES", "engine_name", "play", "setup"]

GAMES = ("briscola", "chiamata")
MAX_MOVES = 100_000
MIN_THRESHOLD = 61  # a 5-deal chiamata match takes about 230 moves


def engine_name(name: str) -> str:
    """The Briscola player a level names (``hard`` -> ``briscola-hard``; ``greedy`` is the easy
    one); any other name (``random``, ``briscola-medium``) as it is."""
    level = {"greedy": "easy"}.get(name, name)
    return f"briscola-{level}" if level in ("easy", "medium", "hard") else name


def _options(options: PlayerOptions) -> dict[str, int | float]:
    """The Scopa hard player's options that the Briscola one takes too: ``--iterations`` only
    (``--epsilon``'s default is Scopa's; ``--workers`` and ``--seconds`` are Scopa's alone)."""
    return {key: value for key, value in options if key == "iterations"}


def setup(args: argparse.Namespace, names: list[str]) -> tuple[dict[str, object], int]:
    """The rules of the jobs and how many sides take a player."""
    from engine import briscola

    options: dict[str, object] = {}
    if args.game == "chiamata":
        options["variant"] = "chiamata"
        if args.seats not in (None, 5):
            raise ValueError("chiamata is played by 5")
        if args.deals:
            options["deals"] = 1
    else:
        options["players"] = args.seats if args.seats is not None else 2
        if args.target is not None:
            options["target"] = args.target
    rules = briscola.Rules.from_dict(options)
    return rules.to_dict(), rules.sides


def play(job: Job) -> Result:
    """One Briscola match (or its first deal with ``--deals``) between the job's players."""
    from bot.simulate import Result
    from engine import briscola

    start = time.perf_counter()
    rules = briscola.Rules.from_dict(job.rules)
    game = briscola.new_game(rules, seed=job.seed)
    players = [get_player(engine_name(name), **_options(options)) for name, options in job.specs]
    rng = random.Random(job.seed * 7919 + job.rotation)
    dealer_side = game.side_of(game.dealer)
    for _ in range(MAX_MOVES):
        if game.is_over or (job.deals and game.deal_results):
            break
        seat = game.current_player
        assert seat is not None
        game = game.play(players[game.side_of(seat)].choose(game.view(seat), rng))
    else:
        raise RuntimeError(f"a Briscola match (seed {job.seed}) did not end in {MAX_MOVES}")
    for player in players:
        close = getattr(player, "close", None)
        if close is not None:
            close()
    results = game.deal_results
    if job.deals:
        deal = results[0]
        if rules.chiamata:
            points = tuple(deal.scores)
            best = max(points)
            winner = points.index(best) if points.count(best) == 1 else None
        else:
            points, winner = tuple(deal.points), deal.winner
    else:
        outcome = game.outcome()
        assert outcome is not None
        points, winner = tuple(outcome.points), outcome.winner
    roles: list[tuple[int, str, bool]] = []
    for deal in results[:1] if job.deals else results:
        if deal.caller is None or deal.won is None:
            continue
        for seat in range(rules.players):
            if seat == deal.caller:
                roles.append((seat, "caller", deal.won))
                if deal.threshold == MIN_THRESHOLD:  # a rank call: the chiamata target's unit
                    roles.append((seat, "caller at 61", deal.won))
            elif seat == deal.socio:
                roles.append((seat, "socio", deal.won))
            else:
                roles.append((seat, "other", not deal.won))
    elapsed = time.perf_counter() - start
    return Result(
        job, points, winner, dealer_side, elapsed, max(len(results), 1), roles=tuple(roles)
    )
