"""Pictures from sprites: the Scopa and Scala 40 table (cards on the table or the melds, the
stock and the pile), a hand, and the calibration sample of a deck style (``PIL.Image`` in, no
I/O). The Briscola table is ``briscola``, the rating chart ``chart``; what every table picture
draws alike is ``drawing``."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .chart import compose_chart
from .drawing import (
    BADGE,
    BADGE_TEXT,
    FELT,
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
from .scene import HandScene, MeldInfo, SeatInfo, TableScene
from .sprites import Fonts, SpriteCache
from .styles import DeckStyle

__all__ = ["calibration_image", "compose_chart", "compose_hand", "compose_table"]


# The Scopa and Scala 40 table.


def compose_table(
    scene: TableScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    *,
    card_width: int,
    panels: Lru[Image.Image] | None = None,
) -> Image.Image:
    """The table picture; ``panels`` keeps drawn seat panels for the next pictures."""
    for card in scene.cards():
        style.check(card)
    m = TableMetrics(card_width)
    width = m.cw * 8 + m.gap * 9
    title_h = m.px(42)
    seats_h, seat_rows = seats_height(scene.seats, m)
    side = scene.stock is not None or scene.pile_top is not None
    side_w = m.cw + 2 * m.gap if side else 0
    area_w = width - side_w - 2 * m.gap
    if scene.melds:
        placements, area_h = _meld_layout(scene.melds, m, area_w)
    else:
        placements, area_h = _table_layout(len(scene.table), m, area_w)
    side_h = _side_height(scene, m)
    area_h = max(area_h, side_h, m.ch + 2 * m.gap)
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
    if scene.melds:
        _draw_melds(
            canvas, draw, scene.melds, placements, style, sprites, fonts, m, top=top, area_w=area_w
        )
    elif scene.table:
        for card, (x, y) in zip(scene.table, placements, strict=True):
            paste_sprite(canvas, sprites.sprite(style, card, m.cw), m.gap + x, top + y)
    else:
        # An empty table (after a scopa) still shows where the cards go.
        x0 = m.gap + (area_w - m.cw) / 2
        draw.rounded_rectangle(
            (x0, top + m.gap, x0 + m.cw, top + m.gap + m.ch), m.px(6), outline=MUTED, width=m.px(2)
        )
    if side:
        _draw_side(canvas, draw, scene, style, sprites, fonts, m, x=width - side_w, top=top)
    if scene.footer:
        draw_footer(draw, scene.footer, fonts, m, width=width, height=height, footer_h=footer_h)
    return canvas


def _table_layout(
    count: int, m: TableMetrics, area_w: int
) -> tuple[list[tuple[float, float]], int]:
    if count == 0:
        return [], m.ch + 2 * m.gap
    per_row = max(1, (area_w + m.gap) // (m.cw + m.gap))
    rows = math.ceil(count / per_row)
    placements: list[tuple[float, float]] = []
    for i in range(count):
        row, col = divmod(i, per_row)
        in_row = min(per_row, count - row * per_row)
        row_w = in_row * m.cw + (in_row - 1) * m.gap
        x = (area_w - row_w) / 2 + col * (m.cw + m.gap)
        placements.append((x, m.gap + row * (m.ch + m.gap)))
    return placements, rows * (m.ch + m.gap) + m.gap


def _meld_step(m: TableMetrics, count: int, area_w: int) -> float:
    # Enough of each card to show its corner index (rank and suit); a meld longer than the
    # table is wide (never in a real game) is squeezed rather than cut off.
    step = m.cw * 0.34
    if count > 1 and m.cw + step * (count - 1) > area_w:
        step = max(1.0, (area_w - m.cw) / (count - 1))
    return step


def _meld_layout(
    melds: tuple[MeldInfo, ...], m: TableMetrics, area_w: int
) -> tuple[list[tuple[float, float]], int]:
    label_h = m.px(22)
    row_h = label_h + m.ch + m.gap
    placements: list[tuple[float, float]] = []
    x, y = 0.0, float(m.gap)
    for meld in melds:
        meld_w = m.cw + _meld_step(m, len(meld.cards), area_w) * (len(meld.cards) - 1)
        if x > 0 and x + meld_w > area_w:
            x, y = 0.0, y + row_h
        placements.append((x, y))
        x += meld_w + m.gap * 1.5
    return placements, round(y + row_h)


def _draw_melds(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    melds: tuple[MeldInfo, ...],
    placements: list[tuple[float, float]],
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    top: int,
    area_w: int,
) -> None:
    font = fonts.get(m.px(18), "bold")
    label_h = m.px(22)
    for meld, (x, y) in zip(melds, placements, strict=True):
        step = _meld_step(m, len(meld.cards), area_w)
        meld_w = m.cw + step * (len(meld.cards) - 1)
        if meld.owner:
            owner = fit_text(fonts.printable(meld.owner), font, max(meld_w, m.cw))
            draw.text((m.gap + x, top + y + label_h / 2), owner, font=font, fill=MUTED, anchor="lm")
        for i, card in enumerate(meld.cards):
            paste_sprite(
                canvas, sprites.sprite(style, card, m.cw), m.gap + x + i * step, top + y + label_h
            )


def _side_height(scene: TableScene, m: TableMetrics) -> int:
    height = m.gap
    if scene.stock is not None:
        height += m.ch + m.gap
    if scene.pile_top is not None:
        height += m.ch + m.gap
    return height


def _draw_side(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    scene: TableScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    x: int,
    top: int,
) -> None:
    y = top + m.gap
    if scene.stock is not None:
        if scene.stock > 0:
            back = sprites.back(style, m.cw)
            # A few offset backs make it read as a pile at a glance.
            for i in (2, 1, 0):
                paste_sprite(canvas, back, x + i * m.px(2), y - i * m.px(2))
        else:
            draw.rounded_rectangle(
                (x, y, x + m.cw, y + m.ch), m.px(6), outline=MUTED, width=m.px(2)
            )
        draw_badge(draw, fonts, m, str(scene.stock), x + m.cw / 2, y + m.ch / 2)
        y += m.ch + m.gap
    if scene.pile_top is not None:
        paste_sprite(canvas, sprites.sprite(style, scene.pile_top, m.cw), x, y)


# A hand.


def compose_hand(
    scene: HandScene,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    *,
    card_width: int,
    max_width: int,
) -> Image.Image:
    for card in scene.cards:
        style.check(card)
    m = TableMetrics(card_width)
    n = len(scene.cards)
    usable = max(max_width - 2 * m.gap, m.cw)
    step = m.cw + m.gap
    if n > 1 and m.cw + (n - 1) * step > usable:
        # Overlap, but never hide a card's corner index; past that, wrap into more rows.
        step = max(round(m.cw * 0.36), (usable - m.cw) // (n - 1))
    per_row = max(1, n if n <= 1 else min(n, (usable - m.cw) // step + 1))
    rows = max(1, math.ceil(n / per_row))
    lift = round(m.ch * 0.14) if scene.numbered or scene.selected else 0
    label_h = m.px(30) if scene.numbered else 0
    title_h = m.px(36) if scene.title else 0
    row_w = m.cw + (min(n, per_row) - 1) * step if n else m.cw
    width = max(row_w + 2 * m.gap, m.px(240) if scene.title else 0)
    row_h = label_h + lift + m.ch + m.gap
    height = title_h + m.gap + rows * row_h

    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    if scene.title:
        font = fonts.get(m.px(23), "bold")
        title = fit_text(fonts.printable(scene.title), font, width - 2 * m.gap)
        draw.text((m.gap, m.gap + title_h / 2), title, font=font, fill=TEXT, anchor="lm")
    number_font = fonts.get(m.px(20), "black")
    visible = min(step, m.cw)
    for i, card in enumerate(scene.cards):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        x0 = (width - (m.cw + (in_row - 1) * step)) / 2
        x = x0 + col * step
        y = title_h + m.gap + row * row_h + label_h
        chosen = i in scene.selected
        card_y = y if chosen else y + lift
        paste_sprite(canvas, sprites.sprite(style, card, m.cw), x, card_y)
        if chosen:
            draw.rounded_rectangle(
                (x - 2, card_y - 2, x + m.cw + 1, card_y + m.ch + 1),
                m.px(7),
                outline=TURN,
                width=m.px(4),
            )
        if scene.numbered:
            cx, cy = x + visible / 2, y - label_h / 2
            r = m.px(13)
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r),
                fill=TURN if chosen else BADGE,
                outline=BADGE_TEXT,
                width=1,
            )
            draw.text((cx, cy), str(i + 1), font=number_font, fill=BADGE_TEXT, anchor="mm")
    if n == 0:
        draw.rounded_rectangle(
            (
                m.gap,
                title_h + m.gap + lift + label_h,
                m.gap + m.cw,
                title_h + m.gap + lift + label_h + m.ch,
            ),
            m.px(6),
            outline=MUTED,
            width=m.px(2),
        )
    return canvas


def calibration_image(
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    *,
    table_card_width: int,
    hand_card_width: int,
) -> Image.Image:
    """A sample of every colour a table or hand of ``style`` uses (to build its palette)."""
    cards = style.cards()
    seats = (
        SeatInfo("Aa Bb 0123", cards=3, captured=12, scope=7, score=10, to_move=True, note="Aa"),
        SeatInfo("Aa Bb 4567", cards=2, captured=5, scope=2, score=89, note="Bb"),
        SeatInfo("Aa Bb 89", cards=1, captured=0, score=7),
    )
    table = compose_table(
        TableScene(
            title="Aa Bb Cc 0123456789",
            seats=seats,
            melds=(MeldInfo(cards[:8], "Aa Bb"), MeldInfo(cards[8:], "Cc Dd")),
            pile_top=cards[0],
            stock=40,
            footer="Aa Bb Cc 0123456789",
        ),
        style,
        sprites,
        fonts,
        card_width=table_card_width,
    )
    empty = compose_table(
        TableScene(title="Aa", seats=seats[:1], stock=0),
        style,
        sprites,
        fonts,
        card_width=table_card_width,
    )
    hand = compose_hand(
        HandScene(cards, numbered=True, selected=frozenset({0, 3}), title="Aa Bb"),
        style,
        sprites,
        fonts,
        card_width=hand_card_width,
        max_width=hand_card_width * 12,
    )
    sample = Image.new(
        "RGB",
        (max(table.width, hand.width, empty.width), table.height + hand.height + empty.height),
        FELT,
    )
    sample.paste(table, (0, 0))
    sample.paste(empty, (0, table.height))
    sample.paste(hand, (0, table.height + empty.height))
    return sample
