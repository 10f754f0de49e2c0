"""Card images: sprite build time, ms per table / hand / chart picture, bytes per picture.

Run from the repository root: ``python benchmarks/images.py [--renders N]``. Prints its figures;
asserts nothing. Scenes are random but seeded, so two runs draw the same pictures.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import PIL

from bot.render.images import (
    STYLES,
    HandScene,
    ImageCache,
    ImageRenderer,
    MeldInfo,
    RatingChart,
    RatingPoint,
    SeatInfo,
    SpriteCache,
    TableScene,
    get_style,
)
from engine.cards import Card, french_deck, italian_deck

NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")


def scopa_scene(rng: random.Random, serial: int) -> TableScene:
    deck = list(italian_deck())
    rng.shuffle(deck)
    players = rng.choice((2, 3, 4))
    seats = tuple(
        SeatInfo(
            NAMES[i],
            cards=rng.randint(0, 3),
            captured=rng.randint(0, 20),
            scope=rng.randint(0, 3),
            score=rng.randint(0, 10),
            to_move=i == serial % players,
        )
        for i in range(players)
    )
    return TableScene(
        title=f"Scopa · smazzata {serial % 5 + 1} · a 11",
        seats=seats,
        table=tuple(deck[: rng.randint(0, 8)]),
        stock=rng.randint(0, 30),
        footer=f"#{serial}",
    )


def scala_scene(rng: random.Random, serial: int) -> TableScene:
    ranks = "A23456789TJQK"
    melds = []
    for _ in range(rng.randint(0, 12)):
        suit = rng.choice("DCSB")
        length = rng.randint(3, 7)
        start = rng.randint(0, len(ranks) - length)
        cards = [Card(rank, suit) for rank in ranks[start : start + length]]
        if rng.random() < 0.3:
            cards[rng.randrange(length)] = Card("*", "")
        melds.append(MeldInfo(tuple(cards), rng.choice(NAMES)))
    players = rng.randint(2, 6)
    seats = tuple(
        SeatInfo(
            NAMES[i],
            cards=rng.randint(1, 14),
            score=rng.randint(0, 100),
            to_move=i == serial % players,
            note="ha aperto" if rng.random() < 0.5 else "",
        )
        for i in range(players)
    )
    pile = rng.choice(french_deck())
    return TableScene(
        title=f"Scala 40 · mano {serial}",
        seats=seats,
        melds=tuple(melds),
        pile_top=pile,
        stock=rng.randint(0, 60),
    )


def scopa_game_scenes(count: int, seed: int) -> list[TableScene]:
    """Public tables of seeded Scopa games played with random moves, one per move."""
    from engine import scopa

    rng = random.Random(seed)
    scenes: list[TableScene] = []
    game = scopa.new_game(scopa.Rules(variant="scopa", players=2), seed=seed)
    for _ in range(count * 2):  # bounded; new games start when one ends
        if len(scenes) >= count:
            break
        if game.is_over:
            game = scopa.new_game(
                scopa.Rules(variant="scopa", players=2), seed=rng.randrange(1 << 30)
            )
        view = game.view(None)
        scenes.append(
            TableScene(
                title=f"Scopa · smazzata {view.smazzata} · a {view.target}",
                seats=tuple(
                    SeatInfo(
                        NAMES[seat],
                        cards=view.hand_counts[seat],
                        captured=view.captured_counts[seat],
                        scope=view.scope[seat],
                        score=view.points[seat],
                        to_move=view.current_player == seat,
                    )
                    for seat in range(view.players)
                ),
                table=view.table,
                stock=view.deck_count,
                footer=view.last_move[1] if view.last_move else "",
            )
        )
        game = game.play(rng.choice(game.legal_moves()))
    return scenes


def briscola_game_scenes(count: int, seed: int, variant: str) -> list[TableScene]:
    """Public Briscola tables (4 players) or chiamata tables of seeded games played with random
    moves, one per move, made by the bot's own mapping (``bot.render.briscola.table_scene``)."""
    from bot.render import Renderer
    from bot.render.briscola import table_scene
    from bot.service import Audience, TableInfo, TableView
    from bot.service import SeatInfo as Seat
    from engine import briscola

    rules = briscola.Rules(players=4) if variant == "classic" else briscola.Rules(variant=variant)
    game_name = "briscola" if variant == "classic" else "chiamata"
    table = TableInfo(
        id=1,
        platform="telegram",
        chat_id="-1",
        game=game_name,
        family=game_name,
        status="playing",
        version=1,
        players=rules.players,
        options={},
        seats=tuple(
            Seat(i, NAMES[i % len(NAMES)], "telegram", str(i), False, None, False)
            for i in range(rules.players)
        ),
        creator="0",
    )
    renderer = Renderer()
    rng = random.Random(seed)
    scenes: list[TableScene] = []
    game = briscola.new_game(rules, seed=seed)
    for _ in range(count * 2):  # bounded; new games start when one ends
        if len(scenes) >= count:
            break
        if game.is_over:
            game = briscola.new_game(rules, seed=rng.randrange(1 << 30))
        event = TableView(
            audience=Audience("chat", "telegram", "-1"),
            locale="it",
            table=table,
            view=game.view(None),
        )
        scenes.append(table_scene(renderer.kit, event))
        game = game.play(rng.choice(game.legal_moves()))
    return scenes


def scala_game_scenes(count: int, seed: int) -> list[TableScene]:
    """A Scala 40 table evolving turn by turn: one seat moves, its count, melds, pile change."""
    rng = random.Random(seed)
    players = 4
    counts = [13] * players
    scores = [0] * players
    melds: list[MeldInfo] = []
    deck = list(french_deck(0) + french_deck(1))
    scenes = []
    for turn in range(count):
        seat = turn % players
        counts[seat] = max(1, min(14, counts[seat] + rng.choice((-3, -1, 0))))
        if rng.random() < 0.25 and len(melds) < 12:
            suit = rng.choice("DCSB")
            start = rng.randint(0, 9)
            melds.append(
                MeldInfo(
                    tuple(Card(r, suit) for r in "A23456789TJQK"[start : start + 3]), NAMES[seat]
                )
            )
        scenes.append(
            TableScene(
                title=f"Scala 40 · turno di {NAMES[seat]}",
                seats=tuple(
                    SeatInfo(NAMES[i], cards=counts[i], score=scores[i], to_move=i == seat)
                    for i in range(players)
                ),
                melds=tuple(melds),
                pile_top=rng.choice(deck),
                stock=max(0, 60 - turn),
            )
        )
        if counts[seat] == 1:
            counts[seat], melds = 13, []
            scores[seat] += 10
    return scenes


def percentiles(samples: list[tuple[float, float]]) -> str:
    """p50/p99 of wall-clock time and of this thread's CPU time, in ms.

    The CPU figure is what the work costs; on a machine shared with other jobs the wall-clock
    figure also counts the time spent waiting for a core.
    """

    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000

    wall = [w for w, _ in samples]
    cpu = [c for _, c in samples]
    return (
        f"wall p50 {p(wall, 0.5):6.2f} p99 {p(wall, 0.99):6.2f} ms | "
        f"cpu p50 {p(cpu, 0.5):6.2f} p99 {p(cpu, 0.99):6.2f} ms  (n={len(samples)})"
    )


def clock() -> tuple[float, float]:
    return time.perf_counter(), time.thread_time()


def since(started: tuple[float, float]) -> tuple[float, float]:
    return time.perf_counter() - started[0], time.thread_time() - started[1]


def timed(call: Callable[[], object]) -> str:
    started = clock()
    call()
    wall, cpu = since(started)
    return f"wall {wall * 1000:7.1f} ms, cpu {cpu * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=300, help="pictures per measurement")
    args = parser.parse_args()
    renders = max(10, min(args.renders, 5000))

    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, "
        f"{os.cpu_count()} cores, {platform.machine()}"
    )

    print("\nSprite build (a whole deck, faces and back, cold):")
    for name in STYLES:
        for width in (84, 112):
            cache = SpriteCache()
            figures = timed(lambda c=cache, n=name, w=width: c.deck(get_style(n), w))
            count = len(cache.deck(get_style(name), width))
            print(f"  {name:<11} {width:>3} px: {figures} ({count} sprites)")

    print("\nFirst picture of a style in a fresh renderer (sprites at two widths + palette):")
    for name in ("napoletane", "francesi"):
        fresh = ImageRenderer()
        print(f"  {name:<11} {timed(lambda n=name, r=fresh: r.warm(n))}")

    for image_format in ("png", "webp"):
        measure_format(image_format, renders)
    print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def measure_format(image_format: str, renders: int) -> None:
    renderer = ImageRenderer(
        image_format=image_format,  # type: ignore[arg-type]
        cache=ImageCache(max_entries=4 * renders, max_bytes=1 << 30),
    )
    rng = random.Random(7)
    for kind, scenes, style in (
        ("Scopa table, seeded games move by move", scopa_game_scenes(renders, 7), "napoletane"),
        ("Scala 40 table, a game turn by turn", scala_game_scenes(renders, 7), "francesi"),
        (
            "Briscola table (4 players), seeded games move by move",
            briscola_game_scenes(renders, 7, "classic"),
            "napoletane",
        ),
        (
            "Briscola chiamata table, seeded games move by move",
            briscola_game_scenes(renders, 7, "chiamata"),
            "piacentine",
        ),
        (
            "Scopa table, unrelated random tables",
            [scopa_scene(rng, i) for i in range(renders)],
            "napoletane",
        ),
        (
            "Scala 40 table, unrelated random tables (worst case)",
            [scala_scene(rng, i) for i in range(renders)],
            "francesi",
        ),
    ):
        renderer.warm(style)
        sizes: list[int] = []
        cold: list[tuple[float, float]] = []
        for scene in scenes:
            started = clock()
            image = renderer.table(scene, style=style)
            cold.append(since(started))
            sizes.append(len(image.data))
        cached: list[tuple[float, float]] = []
        for scene in scenes:
            started = clock()
            renderer.table(scene, style=style)
            cached.append(since(started))
        print(
            f"\n{kind}, {image_format.upper()}, {style}, card width {renderer.table_card_width} px:"
        )
        print(f"  rendered: {percentiles(cold)}")
        print(f"  cached:   {percentiles(cached)}  (hits {renderer.cache.hits})")
        print(
            f"  bytes:    median {statistics.median(sizes) / 1024:.1f} KB, "
            f"max {max(sizes) / 1024:.1f} KB"
        )

    rng = random.Random(11)
    hands = []
    for i in range(renders):
        deck = list(french_deck())
        rng.shuffle(deck)
        cards = tuple(deck[: rng.randint(1, 14)])
        hands.append(HandScene(cards, numbered=True, selected=frozenset({i % len(cards)})))
    times: list[tuple[float, float]] = []
    sizes = []
    for hand in hands:
        started = clock()
        image = renderer.hand(hand, style="francesi")
        times.append(since(started))
        sizes.append(len(image.data))
    print(
        f"\nHand (1-14 cards, numbered), {image_format.upper()}, card width "
        f"{renderer.hand_card_width} px:"
    )
    print(f"  rendered: {percentiles(times)}")
    print(
        f"  bytes:    median {statistics.median(sizes) / 1024:.1f} KB, "
        f"max {max(sizes) / 1024:.1f} KB"
    )

    start = dt.date(2026, 1, 1)
    times = []
    sizes = []
    for i in range(min(renders, 100)):
        days = rng.randint(2, 100)
        chart = RatingChart(
            f"Player {i}",
            tuple(
                RatingPoint(start + dt.timedelta(days=d), 1500 + rng.gauss(0, 60))
                for d in range(days)
            ),
        )
        started = clock()
        image = renderer.rating_chart(chart)
        times.append(since(started))
        sizes.append(len(image.data))
    print(f"\nRating chart 640x360, {image_format.upper()}:")
    print(f"  rendered: {percentiles(times)}")
    print(
        f"  bytes:    median {statistics.median(sizes) / 1024:.1f} KB, "
        f"max {max(sizes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
