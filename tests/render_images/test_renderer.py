"""Table, hand and chart pictures: stable output, size budget, content-hash cache, bad input."""

from __future__ import annotations

import datetime as dt
import io
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from bot.render.images import (
    DEFAULT_FRENCH_STYLE,
    HandScene,
    ImageCache,
    ImageRenderer,
    MeldInfo,
    RatingChart,
    RatingPoint,
    RenderedImage,
    SeatInfo,
    TableScene,
    choose_style,
    scene_digest,
)
from bot.render.images.sprites import Fonts, SpriteCache
from engine.cards import Card, CardParseError

GOLDEN = Path(__file__).parent / "golden"
# Against a golden picture, both pictures are blurred by one pixel (so anti-aliasing and
# sub-pixel glyph placement of another Pillow/FreeType barely count) and we count the pixels
# whose grey level still differs by more than STRONG: one changed digit in a title gives ~10,
# one changed table card ~150. MEAN bounds the overall drift (a changed colour scheme).
STRONG = 40
MAX_STRONG_PIXELS = 8
MEAN = 1.0


def scopa_scene(**changes: object) -> TableScene:
    fields: dict[str, object] = {
        "title": "Scopa · smazzata 2 · a 11",
        "seats": (
            SeatInfo("Anna", cards=3, captured=12, scope=2, score=7, to_move=True, note="mazziere"),
            SeatInfo("Bruno", cards=2, captured=9, score=4),
        ),
        "table": ("7D", "3C", "KS", "AB", "5D"),
        "stock": 24,
        "footer": "Bruno: 4S:4D",
    }
    fields.update(changes)
    return TableScene(**fields)  # type: ignore[arg-type]


def scala_scene(seats: int = 4, melds: int = 5) -> TableScene:
    pool = [
        MeldInfo("7D 8D 9D TD JD", "Anna"),
        MeldInfo("QS QC QD", "Anna"),
        MeldInfo(("AC", "2C", "3C", "*"), "Carla"),
        MeldInfo("5S 5D' 5B 5C", "Carla"),
        MeldInfo("9S TS JS QS KS", "Dario"),
        MeldInfo("AB 2B 3B 4B 5B 6B 7B 8B 9B TB JB QB KB", "Elena"),
    ]
    return TableScene(
        title="Scala 40 · turno di Carla",
        seats=tuple(
            SeatInfo(name, cards=9 + i, score=10 * i, to_move=i == 2, note="ha aperto" * (i % 2))
            for i, name in enumerate(["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"][:seats])
        ),
        melds=tuple(pool[i % len(pool)] for i in range(melds)),
        pile_top="KD",
        stock=41,
    )


@pytest.fixture(scope="module")
def sprites() -> SpriteCache:
    """Sprites and palettes shared by this module's renderers: built once, not per test."""
    return SpriteCache()


@pytest.fixture(scope="module")
def renderer(sprites: SpriteCache) -> ImageRenderer:
    return ImageRenderer(
        table_card_width=48, hand_card_width=56, hand_max_width=480, sprites=sprites
    )


def _decode(image: RenderedImage) -> Image.Image:
    decoded = Image.open(io.BytesIO(image.data))
    assert decoded.format == image.format.upper()
    assert decoded.size == (image.width, image.height)
    return decoded.convert("RGB")


def _difference(name: str, image: RenderedImage) -> tuple[float, int]:
    """(mean absolute difference of the worst channel, strongly different pixels) to a golden."""
    path = GOLDEN / f"{name}.png"
    assert path.exists(), f"missing golden {path}: run with TAVOLO_UPDATE_GOLDEN=1 and look at it"
    expected = Image.open(path).convert("RGB")
    actual = _decode(image)
    assert actual.size == expected.size, f"{name}: size {actual.size} != {expected.size}"
    mean = max(ImageStat.Stat(ImageChops.difference(actual, expected)).mean)
    blurred = ImageChops.difference(
        actual.filter(ImageFilter.BoxBlur(1)), expected.filter(ImageFilter.BoxBlur(1))
    ).convert("L")
    strong = blurred.point(lambda value: 255 if value > STRONG else 0).histogram()[255]
    return mean, strong


def _check_golden(name: str, image: RenderedImage) -> None:
    if os.environ.get("TAVOLO_UPDATE_GOLDEN") == "1":
        (GOLDEN / f"{name}.png").write_bytes(image.data)
    mean, strong = _difference(name, image)
    assert mean < MEAN, f"{name}: mean difference {mean:.2f}"
    assert strong <= MAX_STRONG_PIXELS, f"{name}: {strong} pixels differ strongly"


def test_known_scopa_table_matches_golden(renderer: ImageRenderer) -> None:
    _check_golden("scopa_napoletane", renderer.table(scopa_scene(), style="napoletane"))


def test_known_scala_table_matches_golden(renderer: ImageRenderer) -> None:
    _check_golden("scala40_francesi", renderer.table(scala_scene(), style="francesi"))


def test_known_hand_matches_golden(renderer: ImageRenderer) -> None:
    hand = HandScene(
        "AC 2C 3C 5S 5D 7D 9S TS JS QS QC KD * 4C", numbered=True, selected=frozenset({2, 5, 6})
    )
    _check_golden("hand_scala40", renderer.hand(hand, style="francesi"))


def test_golden_check_notices_a_change(renderer: ImageRenderer) -> None:
    # The tolerance must not hide a real change: one different table card is caught.
    changed = renderer.table(scopa_scene(table=("7D", "3C", "KS", "AB", "6D")), style="napoletane")
    assert _difference("scopa_napoletane", changed)[1] > MAX_STRONG_PIXELS
    score = renderer.table(
        scopa_scene(
            seats=(scopa_scene().seats[0], SeatInfo("Bruno", cards=2, captured=9, score=5))
        ),
        style="napoletane",
    )
    assert _difference("scopa_napoletane", score)[1] > MAX_STRONG_PIXELS
    recoloured = renderer.table(scopa_scene(), style="piacentine")
    assert _difference("scopa_napoletane", recoloured)[0] > MEAN


def test_unchanged_table_is_served_from_the_cache(sprites: SpriteCache) -> None:
    renderer = ImageRenderer(table_card_width=48, hand_card_width=56, sprites=sprites)
    first = renderer.table(scopa_scene(), style="napoletane")
    builds = renderer.sprites.builds
    # Equal content built anew (strings instead of Card objects) is the same picture.
    again = renderer.table(
        scopa_scene(table=(Card("7", "D"), "3C", "KS", "AB", "5D")), style="napoletane"
    )
    assert again is first
    assert renderer.cache.hits == 1
    assert renderer.sprites.builds == builds
    assert renderer.table_digest(scopa_scene(), style="napoletane") == first.digest
    moved = renderer.table(
        scopa_scene(seats=(SeatInfo("Anna", cards=2), SeatInfo("Bruno"))), style="napoletane"
    )
    assert moved.digest != first.digest
    other_style = renderer.table(scopa_scene(), style="piacentine")
    assert other_style.digest != first.digest
    assert renderer.cache.misses == 3


def test_digest_depends_on_order_selection_and_deck_marks() -> None:
    renderer = ImageRenderer()
    digest = renderer.hand_digest
    base = digest(HandScene("7D 3C KS"), style="napoletane")
    assert digest(HandScene(("7D", "3C", "KS")), style="napoletane") == base
    assert digest(HandScene("KS 3C 7D"), style="napoletane") != base
    assert digest(HandScene("7D 3C KS", selected=frozenset({1})), style="napoletane") != base
    assert digest(HandScene("7D 3C KS", numbered=True), style="napoletane") != base
    # The two decks' jokers are drawn in different colours: their digests differ too.
    assert digest(HandScene("*"), style="francesi") != digest(HandScene("*'"), style="francesi")
    webp = ImageRenderer(image_format="webp").hand_digest(HandScene("7D 3C KS"), style="napoletane")
    assert webp != base


def test_injected_caches_are_the_ones_used(sprites: SpriteCache) -> None:
    # An empty cache is falsy (it has a length): it must still be the one used.
    cache = ImageCache(max_entries=1000)
    renderer = ImageRenderer(cache=cache, sprites=sprites, table_card_width=48, hand_card_width=56)
    assert renderer.cache is cache and renderer.sprites is sprites
    for stock in range(3):
        renderer.table(scopa_scene(stock=stock), style="francesi")
    renderer.table(scopa_scene(stock=0), style="francesi")
    assert (cache.hits, cache.misses, len(cache)) == (1, 3, 3)


def test_threads_share_one_renderer(sprites: SpriteCache) -> None:
    # The service may draw from worker threads (asyncio.to_thread): the same picture asked for
    # at once is drawn once, and every thread gets it.
    renderer = ImageRenderer(table_card_width=48, hand_card_width=56, sprites=sprites)
    scenes = [scopa_scene(stock=i % 3) for i in range(12)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda s: renderer.table(s, style="napoletane"), scenes))
    by_stock = {
        stock: {id(r) for r, s in zip(results, scenes, strict=True) if s.stock == stock}
        for stock in range(3)
    }
    assert all(len(ids) == 1 for ids in by_stock.values())
    assert len(renderer.cache) == 3


def test_cache_evicts_the_least_recently_used() -> None:
    cache = ImageCache(max_entries=2)
    images = [RenderedImage(b"x" * 10, "png", f"d{i}", 1, 1) for i in range(3)]
    cache.put(images[0])
    cache.put(images[1])
    assert cache.get("d0") is images[0]
    cache.put(images[2])
    assert cache.get("d1") is None
    assert cache.get("d0") is images[0]
    assert len(cache) == 2
    small = ImageCache(max_bytes=15)
    small.put(images[0])
    small.put(images[1])
    assert len(small) == 1


@pytest.mark.parametrize("image_format", ["png", "webp"])
def test_the_largest_table_stays_under_150_kb(sprites: SpriteCache, image_format: str) -> None:
    renderer = ImageRenderer(image_format=image_format, sprites=sprites)  # type: ignore[arg-type]
    image = renderer.table(scala_scene(seats=6, melds=14), style="francesi4")
    _decode(image)
    assert image.mime_type == f"image/{image_format}"
    assert image.filename.endswith(f".{image_format}")
    assert len(image.data) < 150 * 1024
    hand = renderer.hand(
        HandScene("AC 2C 3C 5S 5D 7D 9S TS JS QS QC KD * 4C", numbered=True), style="francesi"
    )
    assert len(hand.data) < 150 * 1024


def test_hand_layouts(renderer: ImageRenderer) -> None:
    three = _decode(renderer.hand(HandScene("7D 3C KS"), style="piacentine"))
    # Three cards sit side by side without overlap: wider than three card widths.
    assert three.width > 3 * 56
    fourteen = renderer.hand(
        HandScene("AC 2C 3C 5S 5D 7D 9S TS JS QS QC KD * 4C"), style="francesi"
    )
    assert fourteen.width <= 480
    empty = _decode(renderer.hand(HandScene(()), style="napoletane"))
    assert empty.width > 0


def test_every_style_draws_a_scopa_table(renderer: ImageRenderer) -> None:
    digests = {
        renderer.table(scopa_scene(), style=name).digest
        for name in ("napoletane", "piacentine", "francesi", "francesi4")
    }
    assert len(digests) == 4


def test_empty_table_and_many_cards(renderer: ImageRenderer) -> None:
    empty = _decode(renderer.table(scopa_scene(table=(), stock=None), style="napoletane"))
    full = _decode(
        renderer.table(
            scopa_scene(table=tuple(f"{r}{s}" for s in "DC" for r in "A234567JQK")),
            style="napoletane",
        )
    )
    assert full.height > empty.height


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda r: r.table(scopa_scene(), style="bergamasche"), ValueError, "unknown card style"),
        (
            lambda r: r.table(scopa_scene(table=("8D",)), style="napoletane"),
            ValueError,
            "no card '8D'",
        ),
        (lambda r: r.table(scala_scene(), style="napoletane"), ValueError, "no joker|no card"),
        (lambda r: r.hand(HandScene("7D"), style=""), ValueError, "unknown card style"),
        (lambda r: r.table("7D", style="napoletane"), ValueError, "not a TableScene"),
        (lambda r: scopa_scene(table=("7X",)), CardParseError, "not a card: '7X'"),
        (lambda r: scopa_scene(table="7D 3C ZZ"), CardParseError, "not a card: 'ZZ'"),
        (lambda r: scopa_scene(table=(7,)), ValueError, "not a card: 7"),
        (lambda r: scopa_scene(seats=()), ValueError, "seats"),
        (lambda r: scopa_scene(stock=-1), ValueError, "stock"),
        (lambda r: SeatInfo("Anna", cards=-2), ValueError, "seat cards"),
        (lambda r: SeatInfo("Anna", score=1.5), ValueError, "seat score"),
        (lambda r: MeldInfo(()), ValueError, "at least one card"),
        (lambda r: HandScene("7D 3C", selected=frozenset({2})), ValueError, "selected"),
        (lambda r: RatingPoint("yesterday", 1500), ValueError, "date"),  # type: ignore[arg-type]
        (lambda r: RatingPoint(dt.date(2026, 1, 1), float("nan")), ValueError, "range"),
        (lambda r: ImageRenderer(image_format="gif"), ValueError, "png, webp"),  # type: ignore[arg-type]
        (lambda r: ImageRenderer(table_card_width=10), ValueError, "table_card_width"),
        (lambda r: r.rating_chart(RatingChart("x", ()), width=10), ValueError, "chart size"),
        (lambda r: choose_style("bergamasche", "italian"), ValueError, "unknown card style"),
    ],
)
def test_bad_input_is_a_clear_value_error(
    renderer: ImageRenderer, make: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make(renderer)  # type: ignore[operator]


def test_choose_style_keeps_the_chat_choice_when_it_can() -> None:
    assert choose_style("piacentine", "italian") == "piacentine"
    assert choose_style("francesi4", "italian") == "francesi4"
    # Scala 40 needs 8, 9, 10 and jokers: an Italian choice falls back to the French default.
    assert choose_style("piacentine", "french") == DEFAULT_FRENCH_STYLE
    assert choose_style("francesi4", "french") == "francesi4"
    assert choose_style(None, "italian") == "napoletane"


def test_enabled_is_the_callers_switch(sprites: SpriteCache) -> None:
    assert ImageRenderer().enabled is True
    off = ImageRenderer(enabled=False, sprites=sprites, table_card_width=48, hand_card_width=56)
    assert off.enabled is False
    # Switched off, the renderer still draws (previews, tests); the caller sends text instead.
    assert off.hand(HandScene("7D"), style="napoletane").data.startswith(b"\x89PNG")


def test_rating_chart() -> None:
    renderer = ImageRenderer()
    start = dt.datetime(2026, 10, 1, 20, 0, tzinfo=dt.UTC)
    points = tuple(
        RatingPoint(start + dt.timedelta(days=i), 1500 + (i % 4) * 12 - i) for i in range(20)
    )
    chart = renderer.rating_chart(RatingChart("Anna · Scopa", points[::-1], subtitle="Elo"))
    image = _decode(chart)
    assert image.size == (640, 360)
    # The line is drawn: many pixels in the line colour's green.
    red, green, blue = image.split()
    greener = ImageChops.multiply(
        ImageChops.subtract(green, red).point(lambda v: 255 if v > 40 else 0),
        ImageChops.subtract(green, blue).point(lambda v: 255 if v > 20 else 0),
    )
    assert greener.histogram()[255] > 500
    single = _decode(renderer.rating_chart(RatingChart("Bruno", points[:1])))
    empty = _decode(renderer.rating_chart(RatingChart("Carla", ())))
    assert single.tobytes() != empty.tobytes()
    assert renderer.rating_chart(RatingChart("Anna · Scopa", points, subtitle="Elo")) is chart


def test_names_drop_glyphs_the_font_lacks() -> None:
    fonts = Fonts()
    assert fonts.printable("Niccolò Ψ Жора") == "Niccolò Ψ Жора"
    assert fonts.printable("Anna 😀  中") == "Anna"


def test_without_the_font_package_pillows_font_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.render.images.sprites as sprites

    monkeypatch.setattr(sprites, "_font_files", dict)
    renderer = ImageRenderer(
        sprites=sprites.SpriteCache(fonts=sprites.Fonts()), table_card_width=40, hand_card_width=40
    )
    assert renderer.fonts.family.startswith("Pillow")
    assert _decode(renderer.table(scopa_scene(), style="francesi")).width > 0


def test_digest_is_the_same_in_another_process() -> None:
    # Adapters may persist "digest -> uploaded file id": the digest must not depend on the
    # process (no hash(), no set iteration order, whatever PYTHONHASHSEED is).
    code = (
        "from bot.render.images import HandScene, scene_digest;"
        "print(scene_digest(HandScene('7D 3C KS *', selected=frozenset({0, 1, 2, 3})), style='x'))"
    )
    here = scene_digest(HandScene("7D 3C KS *", selected=frozenset({0, 1, 2, 3})), style="x")
    root = Path(__file__).resolve().parents[2]
    for seed in ("1", "2"):
        other = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=60,
        ).stdout.strip()
        assert other == here


def test_an_overlong_meld_stays_inside_the_picture(renderer: ImageRenderer) -> None:
    cards = tuple(f"{r}{s}" for s in "DCSB" for r in "A23456789TJQK")
    image = _decode(
        renderer.table(
            TableScene(title="x", seats=(SeatInfo("A"),), melds=(MeldInfo(cards, "A"),)),
            style="francesi",
        )
    )
    # The last card (king of bastoni/clubs) is drawn whole: the right margin stays felt-green.
    right_edge = image.crop((image.width - 3, 0, image.width, image.height)).getcolors()
    assert right_edge is not None
    assert all(colour[1] > colour[0] for _, colour in right_edge)


def test_warm_builds_everything_a_first_picture_needs() -> None:
    renderer = ImageRenderer(table_card_width=44, hand_card_width=52, sprites=SpriteCache())
    renderer.warm("piacentine")
    builds = renderer.sprites.builds
    assert builds == 2
    renderer.table(scopa_scene(), style="piacentine")
    renderer.hand(HandScene("7D 3C"), style="piacentine")
    assert renderer.sprites.builds == builds
    with pytest.raises(ValueError, match="unknown card style"):
        renderer.warm("trevisane")
