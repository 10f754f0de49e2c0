"""Every card of every style renders, at the right size, visibly, and unlike every other card."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from bot.render.images import STYLES, SpriteCache, get_style, style_names
from bot.render.images.sprites import card_height
from engine.cards import Card, french_deck, italian_deck

WIDTH = 64


@pytest.fixture(scope="module")
def sprites() -> SpriteCache:
    return SpriteCache()


def _ink_fraction(image: Image.Image) -> float:
    """Share of the card's pixels that differ from its background colour."""
    rgb = Image.new("RGB", image.size, (255, 255, 255))
    rgb.paste(image, (0, 0), image)
    face = rgb.getpixel((image.width // 2, 2))
    diff = ImageChops.difference(rgb, Image.new("RGB", image.size, face)).convert("L")
    inked = diff.point(lambda value: 255 if value > 40 else 0).histogram()[255]
    return inked / (image.width * image.height)


@pytest.mark.parametrize("name", sorted(STYLES))
def test_every_card_renders_distinct_and_not_blank(sprites: SpriteCache, name: str) -> None:
    style = get_style(name)
    deck = italian_deck() if style.deck == "italian" else french_deck(0) + french_deck(1)
    seen: dict[bytes, str] = {}
    for card in deck:
        image = sprites.sprite(style, card, WIDTH)
        assert image.size == (WIDTH, card_height(WIDTH)), card
        assert image.mode == "RGBA"
        assert image.getpixel((0, 0))[3] == 0, "rounded corners are transparent"
        assert image.getpixel((WIDTH // 2, image.height // 2))[3] == 255
        assert _ink_fraction(image) > 0.03, f"{card} looks blank"
        key = image.tobytes()
        if (card.is_joker or card.deck == 0) and str(card) not in seen.values():
            # One deck holds two equal jokers; the second deck's jokers are black.
            assert key not in seen, f"{card} looks like {seen.get(key)}"
            seen[key] = str(card)
    expected = 40 if style.deck == "italian" else 54
    assert len(seen) == expected


def test_second_deck_is_drawn_alike_except_jokers(sprites: SpriteCache) -> None:
    style = get_style("francesi")
    assert sprites.sprite(style, Card("7", "D", 0), WIDTH) is sprites.sprite(
        style, Card("7", "D", 1), WIDTH
    )
    red = sprites.sprite(style, Card("*", "", 0), WIDTH)
    black = sprites.sprite(style, Card("*", "", 1), WIDTH)
    assert red.tobytes() != black.tobytes()


def test_styles_differ_for_the_same_card(sprites: SpriteCache) -> None:
    card = Card("3", "D")  # the four-colour French style differs in diamonds
    images = {name: sprites.sprite(get_style(name), card, WIDTH).tobytes() for name in STYLES}
    assert len(set(images.values())) == len(STYLES)


def test_backs_render(sprites: SpriteCache) -> None:
    backs = {name: sprites.back(get_style(name), WIDTH) for name in STYLES}
    for image in backs.values():
        assert image.size == (WIDTH, card_height(WIDTH))
        assert _ink_fraction(image) > 0.3


@pytest.mark.parametrize(
    ("style", "card", "message"),
    [
        # The Italian deck has no 8, 9, 10 nor jokers (docs/rules.md: ranks A 2..7 J Q K).
        ("napoletane", Card("8", "D"), "no card '8D'"),
        ("piacentine", Card("T", "C"), "no card 'TC'"),
        ("napoletane", Card("*", ""), "no joker"),
        ("francesi", Card("X", "D"), "no card 'XD'"),
    ],
)
def test_a_card_the_style_cannot_draw_is_a_clear_error(
    sprites: SpriteCache, style: str, card: Card, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        sprites.sprite(get_style(style), card, WIDTH)


def test_unknown_style_and_bad_width() -> None:
    with pytest.raises(ValueError, match="unknown card style 'bergamasche'; styles: napoletane"):
        get_style("bergamasche")
    with pytest.raises(ValueError, match="card width"):
        SpriteCache().deck(get_style("francesi"), 5000)


def test_style_names_by_deck() -> None:
    # Scopa's 40 cards can be drawn in every style; Scala 40's 54 only in the French ones.
    assert set(style_names("italian")) == set(STYLES)
    assert set(style_names("french")) == {"francesi", "francesi4"}
    assert {"napoletane", "piacentine", "francesi"} <= set(style_names())


def test_sprites_are_built_once_per_style_and_width() -> None:
    cache = SpriteCache(max_sets=2)
    style = get_style("napoletane")
    first = cache.sprite(style, Card("7", "D"), 40)
    assert cache.sprite(style, Card("7", "D"), 40) is first
    cache.sprite(style, Card("K", "B"), 40)
    assert cache.builds == 1
    cache.sprite(style, Card("7", "D"), 41)
    cache.sprite(get_style("piacentine"), Card("7", "D"), 40)
    assert cache.builds == 3
    # Only two decks are kept: the least recently used one is built again.
    cache.sprite(style, Card("7", "D"), 40)
    assert cache.builds == 4
