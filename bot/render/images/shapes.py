"""Vector shapes: suit symbols and court figures, drawn with ``ImageDraw`` primitives.

Every function draws into a pixel box ``(x0, y0, x1, y1)`` given in the coordinates of the
(supersampled) canvas; shapes are described in unit coordinates of that box so that one drawing
serves every size.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

__all__ = ["Box", "draw_figure", "draw_joker", "draw_suit", "suit_aspect"]

Box = tuple[float, float, float, float]
Rgb = tuple[int, int, int]

_DARK = (40, 30, 25)
_GOLD = (232, 176, 40)
_GOLD_DARK = (150, 100, 10)
_RED = (200, 40, 40)
_BLUE = (40, 80, 170)
_GREEN = (60, 130, 60)
_SKIN = (246, 212, 178)
_WHITE = (255, 255, 255)
_STEEL = (170, 200, 230)


class _Pen:
    """Maps unit coordinates of a box to canvas pixels."""

    def __init__(self, draw: ImageDraw.ImageDraw, box: Box) -> None:
        self.draw = draw
        self.x0, self.y0, x1, y1 = box
        self.w = x1 - self.x0
        self.h = y1 - self.y0
        self.line = max(1, round(min(self.w, self.h) * 0.045))

    def pt(self, u: float, v: float) -> tuple[float, float]:
        return self.x0 + u * self.w, self.y0 + v * self.h

    def rect(self, u0: float, v0: float, u1: float, v1: float) -> tuple[float, float, float, float]:
        return (*self.pt(u0, v0), *self.pt(u1, v1))

    def poly(self, points: Sequence[tuple[float, float]], fill: Rgb, outline: Rgb | None) -> None:
        self.draw.polygon(
            [self.pt(u, v) for u, v in points],
            fill=fill,
            outline=outline,
            width=self.line if outline else 0,
        )

    def ellipse(
        self, u0: float, v0: float, u1: float, v1: float, fill: Rgb | None, outline: Rgb | None
    ) -> None:
        self.draw.ellipse(
            self.rect(u0, v0, u1, v1), fill=fill, outline=outline, width=self.line if outline else 0
        )

    def circle(self, u: float, v: float, r: float, fill: Rgb | None, outline: Rgb | None) -> None:
        """A round circle of radius ``r`` (a fraction of the box's smaller side)."""
        cx, cy = self.pt(u, v)
        radius = r * min(self.w, self.h)
        self.draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=fill,
            outline=outline,
            width=self.line if outline else 0,
        )


def suit_aspect(suit: str, symbols: str) -> float:
    """Width / height of a suit symbol's box (swords and clubs are tall and thin)."""
    if symbols == "french":
        return 0.9
    return {"D": 1.0, "C": 0.8, "S": 0.42, "B": 0.42}[suit]


def fit_box(box: Box, aspect: float) -> Box:
    """The largest box of ``aspect`` (w/h) centred inside ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w / h > aspect:
        nw = h * aspect
        return (x0 + (w - nw) / 2, y0, x0 + (w + nw) / 2, y1)
    nh = w / aspect
    return (x0, y0 + (h - nh) / 2, x1, y0 + (h + nh) / 2)


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, symbols: str, box: Box, ink: Rgb) -> None:
    """Draw the symbol of ``suit`` centred in ``box`` (kept at the symbol's own aspect)."""
    pen = _Pen(draw, fit_box(box, suit_aspect(suit, symbols)))
    if symbols == "french":
        {"D": _diamond, "C": _heart, "S": _spade, "B": _club}[suit](pen, ink)
        return
    piacentine = symbols == "piacentine"
    if suit == "D":
        _coin(pen, piacentine)
    elif suit == "C":
        _cup(pen, piacentine)
    elif suit == "S":
        _sword(pen, piacentine)
    else:
        _cudgel(pen, piacentine)


# French suits: flat shapes in the suit's ink.


def _diamond(pen: _Pen, ink: Rgb) -> None:
    pen.poly([(0.5, 0.0), (0.9, 0.5), (0.5, 1.0), (0.1, 0.5)], ink, None)


def _heart(pen: _Pen, ink: Rgb) -> None:
    pen.ellipse(0.0, 0.06, 0.54, 0.6, ink, None)
    pen.ellipse(0.46, 0.06, 1.0, 0.6, ink, None)
    pen.poly([(0.035, 0.44), (0.5, 0.98), (0.965, 0.44), (0.5, 0.3)], ink, None)


def _spade(pen: _Pen, ink: Rgb) -> None:
    pen.ellipse(0.0, 0.36, 0.54, 0.82, ink, None)
    pen.ellipse(0.46, 0.36, 1.0, 0.82, ink, None)
    pen.poly([(0.03, 0.56), (0.5, 0.0), (0.97, 0.56), (0.5, 0.7)], ink, None)
    pen.poly([(0.5, 0.6), (0.3, 1.0), (0.7, 1.0)], ink, None)


def _club(pen: _Pen, ink: Rgb) -> None:
    pen.circle(0.5, 0.25, 0.24, ink, None)
    pen.circle(0.24, 0.57, 0.24, ink, None)
    pen.circle(0.76, 0.57, 0.24, ink, None)
    pen.poly([(0.5, 0.35), (0.3, 1.0), (0.7, 1.0)], ink, None)
    pen.poly([(0.38, 0.45), (0.62, 0.45), (0.5, 0.7)], ink, None)


# Italian suits: coloured objects with dark outlines.


def _coin(pen: _Pen, piacentine: bool) -> None:
    ring = _GREEN if piacentine else _RED
    pen.circle(0.5, 0.5, 0.48, _GOLD, _GOLD_DARK)
    pen.circle(0.5, 0.5, 0.36, None, ring)
    if piacentine:
        star = []
        for i in range(16):
            angle = math.pi * i / 8
            r = 0.3 if i % 2 == 0 else 0.13
            star.append((0.5 + r * math.cos(angle), 0.5 + r * math.sin(angle)))
        pen.poly(star, _RED, None)
        pen.circle(0.5, 0.5, 0.08, _GOLD, None)
    else:
        for i in range(8):
            angle = math.pi * i / 4
            pen.circle(0.5 + 0.2 * math.cos(angle), 0.5 + 0.2 * math.sin(angle), 0.075, ring, None)
        pen.circle(0.5, 0.5, 0.1, _BLUE, None)


def _cup(pen: _Pen, piacentine: bool) -> None:
    body = _RED if piacentine else _GOLD
    trim = _GOLD if piacentine else _RED
    pen.draw.chord(
        pen.rect(0.06, -0.3, 0.94, 0.6), 0, 180, fill=body, outline=_DARK, width=pen.line
    )
    pen.ellipse(0.06, 0.08, 0.94, 0.24, trim, _DARK)
    pen.ellipse(0.16, 0.11, 0.84, 0.21, (90, 40, 20), None)
    pen.poly([(0.42, 0.58), (0.58, 0.58), (0.56, 0.8), (0.44, 0.8)], body, _DARK)
    pen.ellipse(0.32, 0.62, 0.68, 0.72, trim, _DARK)
    pen.poly([(0.44, 0.79), (0.56, 0.79), (0.82, 0.95), (0.18, 0.95)], body, _DARK)
    pen.ellipse(0.16, 0.9, 0.84, 1.0, body, _DARK)
    pen.circle(0.5, 0.37, 0.09, _BLUE if piacentine else _GREEN, None)


def _sword(pen: _Pen, piacentine: bool) -> None:
    if piacentine:
        # A curved blade (scimitar-like), sampled along its length.
        left, right = [], []
        for i in range(13):
            v = 0.02 + 0.66 * i / 12
            bend = 0.22 * math.sin(math.pi * (v - 0.02) / 0.66 * 0.5 + math.pi * 0.5) - 0.22
            half = 0.16 * min(1.0, (v - 0.02) / 0.12 + 0.05)
            left.append((0.5 + bend - half, v))
            right.append((0.5 + bend + half, v))
        pen.poly(left + right[::-1], _STEEL, _DARK)
    else:
        pen.poly(
            [(0.5, 0.0), (0.66, 0.09), (0.64, 0.68), (0.36, 0.68), (0.34, 0.09)], _STEEL, _DARK
        )
        pen.draw.line([pen.pt(0.5, 0.08), pen.pt(0.5, 0.64)], fill=(90, 120, 160), width=pen.line)
    pen.poly([(0.08, 0.66), (0.92, 0.66), (0.92, 0.73), (0.08, 0.73)], _GOLD, _DARK)
    pen.poly(
        [(0.38, 0.73), (0.62, 0.73), (0.62, 0.9), (0.38, 0.9)], _RED if piacentine else _BLUE, _DARK
    )
    pen.circle(0.5, 0.94, 0.14, _GOLD, _DARK)


def _cudgel(pen: _Pen, piacentine: bool) -> None:
    wood = (140, 90, 45) if piacentine else (110, 160, 70)
    knot = (90, 55, 25) if piacentine else (60, 100, 40)
    band = _RED if piacentine else _GOLD
    pen.poly([(0.12, 0.08), (0.88, 0.08), (0.66, 0.97), (0.34, 0.97)], wood, _DARK)
    pen.ellipse(0.12, 0.0, 0.88, 0.14, wood, _DARK)
    for i, v in enumerate((0.24, 0.42, 0.6, 0.78)):
        side = 0.16 + 0.04 * i if i % 2 == 0 else 0.84 - 0.04 * i
        pen.ellipse(side - 0.16, v - 0.035, side + 0.16, v + 0.035, knot, _DARK)
    for v in (0.33, 0.69):
        inset = 0.14 + 0.22 * v
        pen.poly(
            [(inset, v), (1 - inset, v), (1 - inset - 0.01, v + 0.04), (inset + 0.01, v + 0.04)],
            band,
            None,
        )


# Court figures: simple silhouettes, different enough to tell apart at a glance.


def draw_figure(
    draw: ImageDraw.ImageDraw, rank: str, box: Box, *, robe: Rgb, trim: Rgb, horse: bool
) -> None:
    """Draw the figure of ``rank`` (J, Q, K) filling ``box``.

    ``horse`` draws the Italian Cavallo for Q; otherwise Q is a queen.
    """
    pen = _Pen(draw, box)
    if rank == "J":
        _fante(pen, robe, trim)
    elif rank == "Q" and horse:
        _cavallo(pen, robe, trim)
    elif rank == "Q":
        _regina(pen, robe, trim)
    else:
        _re(pen, robe, trim)


def _head(pen: _Pen, u: float, v: float, r: float) -> None:
    pen.ellipse(u - r, v - r * 1.15, u + r, v + r * 1.15, _SKIN, _DARK)
    eye = r * 0.18
    for du in (-0.35, 0.35):
        pen.ellipse(u + du * r - eye, v - eye, u + du * r + eye, v + eye, _DARK, None)


def _fante(pen: _Pen, robe: Rgb, trim: Rgb) -> None:
    # Legs, tunic, arms, head and a feathered cap: a slim standing youth.
    pen.poly([(0.4, 0.7), (0.47, 0.7), (0.46, 0.97), (0.38, 0.97)], trim, _DARK)
    pen.poly([(0.53, 0.7), (0.6, 0.7), (0.62, 0.97), (0.54, 0.97)], trim, _DARK)
    pen.poly([(0.36, 0.3), (0.64, 0.3), (0.72, 0.74), (0.28, 0.74)], robe, _DARK)
    pen.poly([(0.36, 0.48), (0.64, 0.48), (0.65, 0.53), (0.35, 0.53)], trim, None)
    _head(pen, 0.5, 0.2, 0.09)
    pen.poly([(0.38, 0.14), (0.62, 0.14), (0.6, 0.06), (0.4, 0.06)], trim, _DARK)
    pen.poly([(0.58, 0.08), (0.8, -0.0), (0.66, 0.1)], _RED, _DARK)


def _cavallo(pen: _Pen, robe: Rgb, trim: Rgb) -> None:
    horse = (235, 228, 215)
    # Legs first, body over them, then the neck and head, then the rider.
    for u0 in (0.2, 0.32, 0.62, 0.74):
        pen.poly([(u0, 0.68), (u0 + 0.06, 0.68), (u0 + 0.06, 0.97), (u0, 0.97)], horse, _DARK)
    pen.ellipse(0.12, 0.5, 0.86, 0.76, horse, _DARK)
    pen.poly([(0.07, 0.56), (0.0, 0.8), (0.05, 0.81), (0.16, 0.6)], _DARK, None)
    pen.poly([(0.7, 0.58), (0.82, 0.3), (0.92, 0.3), (0.86, 0.6)], horse, _DARK)
    pen.poly([(0.8, 0.26), (0.98, 0.36), (0.98, 0.42), (0.84, 0.4), (0.78, 0.32)], horse, _DARK)
    pen.poly([(0.8, 0.27), (0.84, 0.18), (0.86, 0.27)], horse, _DARK)
    pen.poly([(0.74, 0.36), (0.8, 0.28), (0.84, 0.34), (0.76, 0.5)], _DARK, None)
    pen.poly([(0.24, 0.52), (0.8, 0.52), (0.78, 0.62), (0.26, 0.62)], robe, _DARK)
    # Rider.
    pen.poly([(0.4, 0.28), (0.6, 0.28), (0.62, 0.56), (0.38, 0.56)], robe, _DARK)
    pen.poly([(0.44, 0.5), (0.52, 0.5), (0.5, 0.74), (0.43, 0.74)], trim, _DARK)
    _head(pen, 0.5, 0.2, 0.075)
    pen.poly([(0.4, 0.14), (0.6, 0.14), (0.56, 0.05), (0.44, 0.05)], trim, _DARK)


def _crown(pen: _Pen, u0: float, u1: float, v_base: float, v_top: float) -> None:
    mid = (u0 + u1) / 2
    points = [
        (u0, v_base),
        (u0, v_top),
        ((u0 + mid) / 2, v_base - (v_base - v_top) * 0.45),
        (mid, v_top - 0.02),
        ((mid + u1) / 2, v_base - (v_base - v_top) * 0.45),
        (u1, v_top),
        (u1, v_base),
    ]
    pen.poly(points, _GOLD, _DARK)


def _re(pen: _Pen, robe: Rgb, trim: Rgb) -> None:
    # A wide, long robe with an ermine hem, a beard and a crown: the heaviest silhouette.
    pen.poly([(0.36, 0.3), (0.64, 0.3), (0.86, 0.97), (0.14, 0.97)], robe, _DARK)
    pen.poly([(0.14, 0.9), (0.86, 0.9), (0.88, 0.97), (0.12, 0.97)], _WHITE, _DARK)
    pen.poly([(0.47, 0.3), (0.53, 0.3), (0.56, 0.9), (0.44, 0.9)], trim, None)
    pen.ellipse(0.3, 0.26, 0.7, 0.36, _WHITE, _DARK)
    _head(pen, 0.5, 0.19, 0.1)
    pen.draw.chord(
        pen.rect(0.4, 0.1, 0.6, 0.32), 0, 180, fill=(120, 80, 50), outline=_DARK, width=pen.line
    )
    _crown(pen, 0.39, 0.61, 0.1, 0.0)


def _regina(pen: _Pen, robe: Rgb, trim: Rgb) -> None:
    # A bell-shaped gown, long hair and a small tiara.
    pen.draw.chord(
        pen.rect(0.12, 0.4, 0.88, 1.5), 180, 360, fill=robe, outline=_DARK, width=pen.line
    )
    pen.poly([(0.4, 0.3), (0.6, 0.3), (0.64, 0.55), (0.36, 0.55)], robe, _DARK)
    pen.poly([(0.36, 0.52), (0.64, 0.52), (0.66, 0.57), (0.34, 0.57)], trim, None)
    pen.ellipse(0.36, 0.08, 0.64, 0.42, (150, 90, 40), _DARK)
    _head(pen, 0.5, 0.2, 0.085)
    _crown(pen, 0.42, 0.58, 0.1, 0.03)
    pen.circle(0.5, 0.44, 0.04, _RED, _DARK)


def draw_joker(draw: ImageDraw.ImageDraw, box: Box, ink: Rgb) -> None:
    """A jester's face with a three-pointed cap with bells, in ``ink``."""
    pen = _Pen(draw, box)
    pen.poly(
        [(0.2, 0.45), (0.04, 0.1), (0.38, 0.3), (0.5, 0.0), (0.62, 0.3), (0.96, 0.1), (0.8, 0.45)],
        ink,
        _DARK,
    )
    for u, v in ((0.04, 0.1), (0.5, 0.0), (0.96, 0.1)):
        pen.circle(u, v + 0.02, 0.06, _GOLD, _DARK)
    pen.poly([(0.2, 0.42), (0.8, 0.42), (0.8, 0.5), (0.2, 0.5)], _GOLD, _DARK)
    pen.ellipse(0.28, 0.48, 0.72, 0.9, _SKIN, _DARK)
    pen.circle(0.4, 0.62, 0.035, _DARK, None)
    pen.circle(0.6, 0.62, 0.035, _DARK, None)
    pen.draw.arc(pen.rect(0.38, 0.62, 0.62, 0.8), 20, 160, fill=_DARK, width=pen.line)
    pen.poly([(0.24, 0.86), (0.76, 0.86), (0.5, 1.0)], ink, _DARK)
