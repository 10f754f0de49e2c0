"""The Briscola table picture: the trick in the middle, the stock with the face-up briscola lying
crosswise under it, and the seats with the tricks each side has won.

Glossary: **briscola** = the trump suit of a deal, shown by the face-up card under the stock;
**presa** = a trick taken; **chiamata** = the 5-player game, where the auction's winner (the
**chiamante**) calls a card instead and there is no stock.

:class:`BriscolaScene` is a :class:`TableScene` (so ``ImageRenderer.table`` draws it, and its
digest differs from any other scene's): ``table`` holds the trick's cards in play order,
``trick_names`` who played each, ``stock`` the cards left to draw (``None``: no stock, as in
chiamata), ``briscola`` the face-up card (``None`` once drawn, or before a chiamata call) and
``briscola_suit`` the trump suit (a mark when no card shows it), ``called`` the card a chiamata
caller named. Each seat's ``captured`` is the tricks its side has won (never card points: they
are not shown during a deal).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.cards import SUITS, Card

from .drawing import (
    MUTED,
    TEXT,
    TURN,
    TableMetrics,
    draw_badge,
    draw_footer,
    draw_seats,
    fit_text,
    paste_sprite,
    seats_height,
    titled_canvas,
)
from .lru import Lru
from .scene import TableScene, checked_card, checked_text
from .shapes import draw_suit
from .sprites import Fonts, SpriteCache
from .styles import DeckStyle

__all__ = ["BriscolaScene", "compose_briscola"]

_MAX_TRICK = 5


@dataclass(frozen=True, slots=True)
class BriscolaScene(TableScene):
    """A Briscola table (see the module docstring); the labels are already translated."""

    trick_names: tuple[str, ...] = ()
    briscola: Card | None = None
    briscola_suit: str | None = None
    called: Card | None = None
    briscola_label: str = ""
    called_label: str = ""

    def __post_init__(self) -> None:
        TableScene.__post_init__(self)
        if len(self.table) > _MAX_TRICK:
            raise ValueError(f"a trick holds at most {_MAX_TRICK} cards, not {len(self.table)}")
        names = tuple(checked_text(n, "trick name") for n in self.trick_names)
        if names and len(names) != len(self.table):
            raise ValueError("trick_names: one name per card of the trick")
        object.__setattr__(self, "trick_names", names)
        if self.briscola is not None:
            object.__setattr__(self, "briscola", checked_card(self.briscola))
        if self.called is not None:
            object.__setattr__(self, "called", checked_card(self.called))
        suit = self.briscola_suit
        if suit is None and self.briscola is not None:
            suit = self.briscola.suit
        if suit is not None and suit not in SUITS:
            raise ValueError(f"briscola_suit must be one of {', '.join(SUITS)}, not {suit!r}")
        object.__setattr__(self, "briscola_suit", suit)
        object.__setattr__(
            self, "briscola_label", checked_text(self.briscola_label, "briscola label")
        )
        object.__setattr__(self, "called_label", checked_text(self.called_label, "called label"))

    def cards(self) -> tuple[Card, ...]:
        extra = tuple(c for c in (self.briscola, self.called) if c is not None)
        return self.table + extra


def compose_briscola(
    scene: BriscolaScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    *,
    card_width: int,
    panels: Lru[Image.Image] | None = None,
) -> Image.Image:
    """The picture of a Briscola table."""
    for card in scene.cards():
        style.check(card)
    m = TableMetrics(card_width)
    width = m.cw * 8 + m.gap * 9
    title_h = m.px(42)
    seats_h, seat_rows = seats_height(scene.seats, m)
    label_h = m.px(24)
    # The side column: the stock with the briscola across its foot (a card lying sideways is
    # as wide as a card is tall), or the called card and the trump mark.
    side_w = m.ch + 2 * m.gap
    area_w = width - side_w - 2 * m.gap
    trick_h = m.gap + m.ch + label_h + m.gap
    side_h = m.gap + label_h + m.ch + round(m.cw * 0.55) + m.gap
    area_h = max(trick_h, side_h)
    footer_h = m.px(30) if scene.footer else 0
    height = title_h + seats_h + area_h + footer_h + m.gap

    canvas, draw = titled_canvas(scene.title, fonts, m, width=width, height=height, title_h=title_h)
    draw_seats(
        canvas,
        draw,
        scene.seats,
        seat_rows,
        style,
        sprites,
        fonts,
        m,
        top=title_h + m.gap,
        width=width,
        panels=panels,
    )
    top = title_h + seats_h
    _draw_trick(canvas, draw, scene, style, sprites, fonts, m, top=top, area_w=area_w)
    _draw_stock(canvas, draw, scene, style, sprites, fonts, m, x=width - side_w, top=top)
    if scene.footer:
        draw_footer(draw, scene.footer, fonts, m, width=width, height=height, footer_h=footer_h)
    return canvas


def _draw_trick(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: BriscolaScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    top: int,
    area_w: int,
) -> None:
    """The cards of the trick in play order, each with its player's name under it."""
    count = len(scene.table)
    y = top + m.gap
    if count == 0:
        x0 = m.gap + (area_w - m.cw) / 2
        draw.rounded_rectangle((x0, y, x0 + m.cw, y + m.ch), m.px(6), outline=MUTED, width=m.px(2))
        return
    step: float = m.cw + m.gap
    row_w: float = count * m.cw + (count - 1) * m.gap
    if row_w > area_w:
        step = (area_w - m.cw) / max(count - 1, 1)
        row_w = area_w
    x0 = m.gap + (area_w - row_w) / 2
    font = fonts.get(m.px(18), "bold")
    for i, card in enumerate(scene.table):
        x = x0 + i * step
        paste_sprite(canvas, sprites.sprite(style, card, m.cw), x, y)
        if i < len(scene.trick_names):
            name = fit_text(fonts.printable(scene.trick_names[i]), font, min(step, m.cw + m.gap))
            draw.text((x + m.cw / 2, y + m.ch + m.px(13)), name, font=font, fill=TEXT, anchor="mm")


def _draw_stock(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: BriscolaScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    x: int,
    top: int,
) -> None:
    """The stock, the face-up briscola crosswise under it (or the trump mark), the called card."""
    font = fonts.get(m.px(18), "bold")
    label_h = m.px(24)
    y = top + m.gap
    label = scene.briscola_label or scene.called_label
    if label:
        text = fit_text(fonts.printable(label), font, m.ch + m.gap)
        draw.text((x + m.ch / 2, y + label_h / 2), text, font=font, fill=TURN, anchor="mm")
    y += label_h
    stock_x = x + (m.ch - m.cw) / 2
    if scene.briscola is not None:
        # Lying sideways, its lower part out from under the stock.
        crosswise = sprites.sprite(style, scene.briscola, m.cw).rotate(90, expand=True)
        paste_sprite(canvas, crosswise, x, y + m.ch * 0.45)
    elif scene.called is not None:
        paste_sprite(canvas, sprites.sprite(style, scene.called, m.cw), stock_x, y)
    if scene.stock is not None and scene.stock > 0:
        back = sprites.back(style, m.cw)
        for i in (2, 1, 0):
            paste_sprite(canvas, back, stock_x + i * m.px(2), y - i * m.px(2))
        draw_badge(draw, fonts, m, str(scene.stock), stock_x + m.cw / 2, y + m.ch / 2)
    suit = scene.briscola_suit
    if suit is not None and scene.briscola is None:
        # No card shows the trump any more (drawn, or a chiamata call): its suit as a mark.
        size = m.px(34)
        cx = x + m.ch / 2
        drawn_above = scene.called is not None or (scene.stock or 0) > 0
        cy = y + (m.ch + round(m.cw * 0.3) if drawn_above else size)
        draw.ellipse(
            (
                cx - size / 2 - m.px(4),
                cy - size / 2 - m.px(4),
                cx + size / 2 + m.px(4),
                cy + size / 2 + m.px(4),
            ),
            fill=(250, 250, 245),
            outline=TURN,
            width=m.px(2),
        )
        draw_suit(
            draw,
            suit,
            style.symbols,
            (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2),
            style.ink[suit],
        )
