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


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {p50 * 1000:6.2f} ms  p99 {p99 * 1000:6.2f} ms  (n={len(ordered)})"


def timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=300, help="pictures per measurement")
    args = parser.parse_args()
    renders = max(10, min(args.renders, 5000))

    print(
        f"Python {platform.python_version()}, Pillow {PIL.__version__}, "
        f"{os.cpu_count()} cores, {platform.machine()}"
    )

    print("\nSprite build (a whole deck, faces and back, cold):")
    for name in STYLES:
        for width in (84, 112):
            cache = SpriteCache()
            seconds = timed(lambda c=cache, n=name, w=width: c.deck(get_style(n), w))
            count = len(cache.deck(get_style(name), width))
            print(f"  {name:<11} {width:>3} px: {seconds * 1000:7.1f} ms ({count} sprites)")

    print("\nFirst picture of a style in a fresh renderer (sprites at two widths + palette):")
    for name in ("napoletane", "francesi"):
        fresh = ImageRenderer()
        print(f"  {name:<11} {timed(lambda n=name, r=fresh: r.warm(n)) * 1000:7.1f} ms")

    for image_format in ("png", "webp"):
        measure_format(image_format, renders)


def measure_format(image_format: str, renders: int) -> None:
    renderer = ImageRenderer(
        image_format=image_format,  # type: ignore[arg-type]
        cache=ImageCache(max_entries=4 * renders, max_bytes=1 << 30),
    )
    for kind, make, style in (
        ("Scopa table", scopa_scene, "napoletane"),
        ("Scala 40 table", scala_scene, "francesi"),
    ):
        rng = random.Random(7)
        renderer.warm(style)
        scenes = [make(rng, i) for i in range(renders)]
        sizes: list[int] = []
        cold: list[float] = []
        for scene in scenes:
            started = time.perf_counter()
            image = renderer.table(scene, style=style)
            cold.append(time.perf_counter() - started)
            sizes.append(len(image.data))
        cached: list[float] = []
        for scene in scenes:
            started = time.perf_counter()
            renderer.table(scene, style=style)
            cached.append(time.perf_counter() - started)
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
    times: list[float] = []
    sizes = []
    for hand in hands:
        started = time.perf_counter()
        image = renderer.hand(hand, style="francesi")
        times.append(time.perf_counter() - started)
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
        started = time.perf_counter()
        image = renderer.rating_chart(chart)
        times.append(time.perf_counter() - started)
        sizes.append(len(image.data))
    print(f"\nRating chart 640x360, {image_format.upper()}:")
    print(f"  rendered: {percentiles(times)}")
    print(
        f"  bytes:    median {statistics.median(sizes) / 1024:.1f} KB, "
        f"max {max(sizes) / 1024:.1f} KB"
    )


if __name__ == "__main__":
    main()
