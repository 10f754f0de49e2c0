"""Seeded Scopa playouts drawn picture by picture: engine views map onto the scenes as they are."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.images import HandScene, ImageRenderer, SeatInfo, SpriteCache, TableScene
from engine import scopa


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
