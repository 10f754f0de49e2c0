"""Card sprites: one RGBA image per card face (and one back) per style and width, built once.

Cards are drawn at ``SUPERSAMPLE`` times their size and scaled down, which anti-aliases every
shape without any per-shape work.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import ClassVar

from PIL import Image, ImageDraw, ImageFont

from engine.cards import JOKER, Card

from .shapes import Box, draw_figure, draw_joker, draw_suit
from .styles import DeckStyle, Rgb

__all__ = ["CARD_RATIO", "MAX_CARD_WIDTH", "MIN_CARD_WIDTH", "Fonts", "SpriteCache", "card_height"]

logger = logging.getLogger(__name__)

SUPERSAMPLE = 3
CARD_RATIO = 1.56
MIN_CARD_WIDTH = 32
MAX_CARD_WIDTH = 400

_ROUND_LAYOUTS: dict[int, tuple[tuple[float, float], tuple[tuple[float, float], ...]]] = {
    1: ((0.95, 0.5), ((0.5, 0.5),)),
    2: ((0.6, 0.34), ((0.5, 0.18), (0.5, 0.82))),
    3: ((0.5, 0.28), ((0.5, 0.15), (0.5, 0.5), (0.5, 0.85))),
    4: ((0.46, 0.3), ((0.25, 0.2), (0.75, 0.2), (0.25, 0.8), (0.75, 0.8))),
    5: ((0.46, 0.28), ((0.25, 0.16), (0.75, 0.16), (0.5, 0.5), (0.25, 0.84), (0.75, 0.84))),
    6: ((0.46, 0.28), tuple((u, v) for v in (0.15, 0.5, 0.85) for u in (0.25, 0.75))),
    7: (
        (0.42, 0.19),
        (*((u, v) for v in (0.1, 0.5, 0.9) for u in (0.22, 0.78)), (0.5, 0.3)),
    ),
    8: (
        (0.42, 0.19),
        (*((u, v) for v in (0.1, 0.5, 0.9) for u in (0.22, 0.78)), (0.5, 0.3), (0.5, 0.7)),
    ),
    9: (
        (0.3, 0.24),
        (*((u, v) for v in (0.12, 0.373, 0.627, 0.88) for u in (0.18, 0.82)), (0.5, 0.5)),
    ),
    10: (
        (0.3, 0.24),
        (
            *((u, v) for v in (0.12, 0.373, 0.627, 0.88) for u in (0.18, 0.82)),
            (0.5, 0.245),
            (0.5, 0.755),
        ),
    ),
}

# Swords and cudgels are tall: they stand side by side rather than in the French grid.
_TALL_LAYOUTS: dict[int, tuple[tuple[float, float], tuple[tuple[float, float], ...]]] = {
    1: ((0.62, 0.95), ((0.5, 0.5),)),
    2: ((0.42, 0.8), ((0.27, 0.5), (0.73, 0.5))),
    3: ((0.32, 0.8), ((0.16, 0.5), (0.5, 0.5), (0.84, 0.5))),
    4: ((0.42, 0.47), ((0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75))),
    5: ((0.32, 0.47), ((0.16, 0.25), (0.5, 0.25), (0.84, 0.25), (0.3, 0.75), (0.7, 0.75))),
    6: ((0.32, 0.47), tuple((u, v) for v in (0.25, 0.75) for u in (0.16, 0.5, 0.84))),
    7: (
        (0.32, 0.32),
        ((0.3, 0.17), (0.7, 0.17), (0.18, 0.5), (0.5, 0.5), (0.82, 0.5), (0.3, 0.83), (0.7, 0.83)),
    ),
}

_PIPS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}


def card_height(width: int) -> int:
    return round(width * CARD_RATIO)


class Fonts:
    """The fonts of every image, loaded once per (weight, size).

    Source Sans Pro (SIL Open Font License 1.1) from the ``font-source-sans-pro`` PyPI package:
    it covers Latin with accents, Greek and Cyrillic. Without that package, Pillow's own font
    (Aileron, public domain; ASCII only) keeps images working, and a warning says so.
    """

    WEIGHTS: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"regular": "Regular", "bold": "Bold", "black": "Black"}
    )

    def __init__(self) -> None:
        self._fonts: dict[tuple[str, int], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}
        self._supported: dict[str, bool] = {}
        self._printable: dict[str, str] = {}
        self._lock = threading.Lock()
        self._files = _font_files()

    @property
    def family(self) -> str:
        return "Source Sans Pro" if self._files else "Pillow default (Aileron)"

    def get(
        self, size: float, weight: str = "bold"
    ) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
        if weight not in self.WEIGHTS:
            raise ValueError(f"font weight {weight!r}: one of {', '.join(self.WEIGHTS)}")
        key = (weight, max(6, round(size)))
        with self._lock:
            font = self._fonts.get(key)
            if font is None:
                path = self._files.get(weight)
                font = (
                    ImageFont.truetype(path, key[1])
                    if path is not None
                    else ImageFont.load_default(size=key[1])
                )
                self._fonts[key] = font
            return font

    def printable(self, text: str) -> str:
        """``text`` without the characters the font cannot draw (emoji, CJK...): no tofu boxes."""
        with self._lock:
            done = self._printable.get(text)
        if done is not None:
            return done
        done = self._strip(text)
        with self._lock:
            if len(self._printable) >= 4096:
                self._printable.clear()
            self._printable[text] = done
        return done

    def _strip(self, text: str) -> str:
        font = self.get(24, "bold")
        missing = font.getmask("\ue000")
        notdef = (missing.size, bytes(missing))
        kept = []
        for char in text:
            if char.isspace():
                kept.append(" ")
                continue
            with self._lock:
                ok = self._supported.get(char)
            if ok is None:
                mask = font.getmask(char)
                ok = char.isprintable() and (mask.size, bytes(mask)) != notdef
                with self._lock:
                    self._supported[char] = ok
            if ok:
                kept.append(char)
        return " ".join("".join(kept).split())


def _font_files() -> dict[str, str]:
    try:
        from importlib.resources import files

        folder = files("font_source_sans_pro") / "files"
    except ModuleNotFoundError:
        logger.warning("font-source-sans-pro is not installed: images use Pillow's ASCII font")
        return {}
    found = {}
    for weight, name in Fonts.WEIGHTS.items():
        path = folder / f"SourceSansPro-{name}.ttf"
        if path.is_file():
            found[weight] = str(path)
    return found


def _sprite_key(card: Card) -> str:
    # Jokers differ by deck (red / black); other cards are drawn alike from either deck.
    return f"*{card.deck}" if card.is_joker else f"{card.rank}{card.suit}"


class SpriteCache:
    """Card sprites per (style, width): the whole deck is built on first use, then reused.

    Owned and injected by the caller (the renderer); holds at most ``max_sets`` decks and drops
    the least recently used beyond that. Safe to share between threads.
    """

    def __init__(self, *, fonts: Fonts | None = None, max_sets: int = 12) -> None:
        self.fonts = fonts if fonts is not None else Fonts()
        self._max_sets = max_sets
        self._sets: OrderedDict[tuple[str, int], dict[str, Image.Image]] = OrderedDict()
        self._derived: dict[tuple[object, ...], Image.Image] = {}
        self._lock = threading.Lock()
        self.builds = 0
        self.build_seconds = 0.0

    def deck(self, style: DeckStyle, width: int) -> dict[str, Image.Image]:
        """Every sprite of ``style`` at ``width`` pixels (keys: ``"7D"``, ``"*0"``, ``"back"``)."""
        if not isinstance(width, int) or not MIN_CARD_WIDTH <= width <= MAX_CARD_WIDTH:
            raise ValueError(
                f"card width must be an int in {MIN_CARD_WIDTH}..{MAX_CARD_WIDTH}, not {width!r}"
            )
        key = (style.name, width)
        with self._lock:
            sprites = self._sets.get(key)
            if sprites is not None:
                self._sets.move_to_end(key)
                return sprites
            started = time.perf_counter()
            sprites = {
                _sprite_key(card): draw_card(style, card, width, self.fonts)
                for card in style.cards()
            }
            sprites["back"] = draw_back(style, width)
            elapsed = time.perf_counter() - started
            self.builds += 1
            self.build_seconds += elapsed
            logger.debug(
                "built %s sprites of %s at %spx in %.3fs", len(sprites), style.name, width, elapsed
            )
            self._sets[key] = sprites
            while len(self._sets) > self._max_sets:
                self._sets.popitem(last=False)
            return sprites

    def derived(self, key: tuple[object, ...], build: Callable[[], Image.Image]) -> Image.Image:
        """An image made from sprites (e.g. a style's palette), built once under ``key``."""
        with self._lock:
            image = self._derived.get(key)
            if image is not None:
                return image
        # Built outside the lock: ``build`` asks this cache for sprites itself.
        image = build()
        with self._lock:
            image = self._derived.setdefault(key, image)
            while len(self._derived) > 4 * self._max_sets:
                self._derived.pop(next(iter(self._derived)))
            return image

    def sprite(self, style: DeckStyle, card: Card, width: int) -> Image.Image:
        """The sprite of ``card``; ``ValueError`` when ``style`` cannot draw it."""
        style.check(card)
        return self.deck(style, width)[_sprite_key(card)]

    def back(self, style: DeckStyle, width: int) -> Image.Image:
        return self.deck(style, width)["back"]


def _blank(style: DeckStyle, width: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    w, h = width * SUPERSAMPLE, card_height(width) * SUPERSAMPLE
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = round(w * 0.07)
    line = max(SUPERSAMPLE, round(w * 0.012))
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1), radius, fill=style.face, outline=style.border, width=line
    )
    if style.frame is not None:
        inset = round(w * 0.035)
        draw.rounded_rectangle(
            (inset, inset, w - 1 - inset, h - 1 - inset),
            radius - inset // 2,
            outline=style.frame,
            width=max(1, line // 2),
        )
    return image, draw, w, h


def _finish(image: Image.Image, width: int) -> Image.Image:
    return image.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def _fit_font(
    fonts: Fonts, text: str, size: float, max_width: float
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    font = fonts.get(size, "black")
    width = font.getlength(text)
    if width > max_width:
        font = fonts.get(size * max_width / width, "black")
    return font


def _corner(
    style: DeckStyle, card: Card, draw: ImageDraw.ImageDraw, w: int, h: int, fonts: Fonts, ink: Rgb
) -> float:
    """Draw the top-left index (rank, suit below it); return its bottom edge."""
    centre = w * 0.15
    top = h * 0.025
    if card.is_joker:
        font = fonts.get(w * 0.15, "black")
        y = top + w * 0.01
        for letter in "JOKER":
            draw.text((centre, y), letter, font=font, fill=ink, anchor="mt")
            y += w * 0.115
        return y
    label = style.label(card)
    font = _fit_font(fonts, label, w * 0.34, w * 0.27)
    draw.text((centre, top), label, font=font, fill=ink, anchor="mt")
    bottom = float(draw.textbbox((centre, top), label, font=font, anchor="mt")[3])
    size = w * 0.19
    box: Box = (
        centre - size / 2,
        bottom + w * 0.04,
        centre + size / 2,
        bottom + w * 0.04 + size * 1.2,
    )
    draw_suit(draw, card.suit, style.symbols, box, ink)
    return box[3]


def _mirror_corner(image: Image.Image, w: int, h: int, depth: float) -> None:
    """Copy the top-left index, turned upside down, into the bottom-right corner."""
    patch = image.crop((0, 0, round(w * 0.3), round(h * depth))).rotate(180)
    image.alpha_composite(patch, (w - patch.width, h - patch.height))


def draw_card(style: DeckStyle, card: Card, width: int, fonts: Fonts) -> Image.Image:
    """One face at ``width`` pixels (RGBA, transparent rounded corners)."""
    style.check(card)
    image, draw, w, h = _blank(style, width)
    ink: Rgb = (200, 30, 30) if card.deck == 0 else (25, 25, 25)
    if not card.is_joker:
        ink = style.ink[card.suit]
    _corner(style, card, draw, w, h, fonts, ink)
    _mirror_corner(image, w, h, 0.42 if card.is_joker else 0.36)
    if card.rank == JOKER:
        draw_joker(draw, (w * 0.27, h * 0.22, w * 0.8, h * 0.72), ink)
    elif card.rank in ("J", "Q", "K"):
        _figure(style, card, draw, w, h, ink)
    else:
        _pips(style, card, draw, w, h, ink)
    return _finish(image, width)


def _pips(
    style: DeckStyle, card: Card, draw: ImageDraw.ImageDraw, w: int, h: int, ink: Rgb
) -> None:
    tall = style.symbols != "french" and card.suit in ("S", "B")
    (pw, ph), points = (_TALL_LAYOUTS if tall else _ROUND_LAYOUTS)[_PIPS[card.rank]]
    x0, y0, x1, y1 = w * 0.3, h * 0.07, w * 0.7, h * 0.93
    if tall:
        x0, x1 = w * 0.27, w * 0.73
    if card.rank == "A":
        x0, x1 = w * 0.2, w * 0.8
    cw, ch = x1 - x0, y1 - y0
    for u, v in points:
        cx, cy = x0 + u * cw, y0 + v * ch
        box: Box = (cx - pw * cw / 2, cy - ph * ch / 2, cx + pw * cw / 2, cy + ph * ch / 2)
        draw_suit(draw, card.suit, style.symbols, box, ink)


def _figure(
    style: DeckStyle, card: Card, draw: ImageDraw.ImageDraw, w: int, h: int, ink: Rgb
) -> None:
    italian = style.symbols != "french"
    trim = (232, 176, 40) if card.suit in ("D", "B") else (240, 240, 240)
    # Black robes would swallow the dark outlines: a slate grey still reads as black.
    robe = (70, 78, 100) if max(ink) < 60 else ink
    figure_box: Box = (w * 0.24, h * 0.05, w * 0.88, h * 0.74)
    draw_figure(draw, card.rank, figure_box, robe=robe, trim=trim, horse=italian)
    size = w * 0.3
    box: Box = (w * 0.5 - size / 2, h * 0.76, w * 0.5 + size / 2, h * 0.95)
    draw_suit(draw, card.suit, style.symbols, box, ink)


def draw_back(style: DeckStyle, width: int) -> Image.Image:
    """The back of a card: a lattice in the style's two colours."""
    w, h = width * SUPERSAMPLE, card_height(width) * SUPERSAMPLE
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ground, pattern = style.back
    radius = round(w * 0.07)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius,
        fill=pattern,
        outline=style.border,
        width=max(SUPERSAMPLE, round(w * 0.012)),
    )
    inset = round(w * 0.06)
    draw.rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset), radius // 2, fill=ground)
    step = w / 6
    line = max(1, round(w * 0.015))
    for i in range(-12, 13):
        x = i * step
        draw.line([(x, inset), (x + h, inset + h)], fill=pattern, width=line)
        draw.line([(x + h, inset), (x, inset + h)], fill=pattern, width=line)
    # Lines drawn past the inner panel are covered again by the outer margin.
    margin = Image.new("L", (w, h), 0)
    ImageDraw.Draw(margin).rounded_rectangle(
        (inset, inset, w - 1 - inset, h - 1 - inset), radius // 2, fill=255
    )
    outer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(outer).rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius,
        fill=pattern,
        outline=style.border,
        width=max(SUPERSAMPLE, round(w * 0.012)),
    )
    outer.paste(image, (0, 0), margin)
    draw = ImageDraw.Draw(outer)
    draw.ellipse(
        (w * 0.3, h * 0.38, w * 0.7, h * 0.62), fill=ground, outline=pattern, width=line * 2
    )
    return _finish(outer, width)
