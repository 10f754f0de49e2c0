"""Seeded Scopa and Scala 40 playouts drawn picture by picture: engine views map onto scenes."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.images import (
    HandScene,
    ImageRenderer,
    MeldInfo,
    SeatInfo,
    SpriteCache,
    TableScene,
)
from engine import scala40, scopa


def table_scene(view: scopa.ScopaView) -> TableScene:
    """The mapping a service would do (the side's captures and scope shown on each of its seats)."""
    side_of = {seat: side for side, seats in enumerate(view.sides) for seat in seats}
    return TableScene(
        title=f"{view.variant} · {view.smazzata} · {view.target}",
        seats=tuple(
            SeatInfo(
                f"P{seat}",
                cards=view.hand_counts[seat],
                captured=view.captured_counts[side_of[seat]],
                scope=view.scope[side_of[seat]],
                score=view.points[side_of[seat]],
                to_move=view.current_player == seat,
            )
            for seat in range(view.players)
        ),
        table=view.table,
        stock=view.deck_count,
        footer=view.last_move[1] if view.last_move else "",
    )


@pytest.fixture(scope="module")
def renderer() -> ImageRenderer:
    return ImageRenderer(table_card_width=40, hand_card_width=40, sprites=SpriteCache())


@pytest.mark.parametrize(("variant", "players", "seed"), [("scopa", 2, 1), ("scopone", 4, 2)])
def test_playout_pictures(renderer: ImageRenderer, variant: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game = scopa.new_game(scopa.Rules(variant=variant, players=players), seed=seed)
    digests: set[str] = set()
    for _ in range(24):  # bounded: a few dozen moves are enough to see every kind of position
        if game.is_over or game.current_player is None:
            break
        seat = game.current_player
        view = game.view(seat)
        table = renderer.table(table_scene(game.view(None)), style="napoletane")
        hand = renderer.hand(HandScene(view.hand), style="napoletane")
        for image in (table, hand):
            decoded = Image.open(io.BytesIO(image.data))
            assert decoded.size == (image.width, image.height)
        # Every move changes the public table, so every picture is new.
        assert table.digest not in digests
        digests.add(table.digest)
        game = game.play(rng.choice(game.legal_moves()))
    assert len(digests) >= 10


def scala40_scene(view: scala40.Scala40View) -> TableScene:
    """The Scala 40 mapping a service would do: melds with owners, pile top, stock."""
    names = [f"P{seat}" for seat in range(view.players)]
    return TableScene(
        title=f"Scala 40 · {view.hand_number}",
        seats=tuple(
            SeatInfo(
                names[seat],
                cards=view.hand_counts[seat],
                score=view.scores[seat],
                to_move=view.current_player == seat,
                note="aperto" if view.opened[seat] else "",
            )
            for seat in range(view.players)
        ),
        melds=tuple(MeldInfo(meld.cards, names[meld.owner]) for meld in view.melds),
        pile_top=view.pile_top,
        stock=view.stock_count,
    )


def test_scala40_playout_pictures(renderer: ImageRenderer) -> None:
    rng = random.Random(3)
    game = scala40.new_game(scala40.Rules(players=3), seed=3)
    melds_seen = 0
    pictures = 0
    for step in range(400):  # bounded; pictures every few moves keep the test quick
        if game.is_over or game.current_player is None:
            break
        if step % 8 == 0:
            view = game.view(None)
            image = renderer.table(scala40_scene(view), style="francesi")
            assert Image.open(io.BytesIO(image.data)).size == (image.width, image.height)
            hand = game.view(game.current_player).hand
            renderer.hand(HandScene(hand, numbered=True), style="francesi4")
            melds_seen = max(melds_seen, len(view.melds))
            pictures += 1
        game = game.play(rng.choice(game.legal_moves()))
    assert pictures >= 10
    assert melds_seen > 0, "the playout laid melds, jokers and all, and they were drawn"
