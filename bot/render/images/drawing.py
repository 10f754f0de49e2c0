"""What every table picture draws alike (Scopa, Scala 40 and Briscola: ``compose`` and
``briscola``): the colours, the sizes that follow from the card width, the title bar, the seat
panels, the footer, a count badge; ``PIL.Image`` in, no I/O."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw, ImageFont

from .lru import Lru
from .scene import SeatInfo
from .sprites import Fonts, SpriteCache, card_height
from .styles import DeckStyle, Rgb

__all__ = [
    "BADGE",
    "BADGE_TEXT",
    "FELT",
    "MUTED",
    "PANEL",
    "PANEL_TURN",
    "SCOPA_MARK",
    "TEXT",
    "TITLE_BAR",
    "TURN",
    "Font",
    "TableMetrics",
    "draw_badge",
    "draw_footer",
    "draw_seats",
    "fit_text",
    "paste_sprite",
    "seats_height",
    "titled_canvas",
]

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FELT: Rgb = (22, 92, 54)
PANEL: Rgb = (14, 66, 38)
PANEL_TURN: Rgb = (44, 112, 66)
TURN: Rgb = (255, 204, 0)
TEXT: Rgb = (248, 248, 240)
MUTED: Rgb = (184, 214, 192)
TITLE_BAR: Rgb = (10, 48, 28)
BADGE: Rgb = (250, 250, 245)
BADGE_TEXT: Rgb = (20, 20, 20)
SCOPA_MARK: Rgb = (255, 196, 40)


def fit_text(text: str, font: Font, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…" if text else ""


def paste_sprite(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """``sprite`` pasted on ``canvas`` at (x, y), rounded, through its own transparency."""
    canvas.paste(sprite, (round(x), round(y)), sprite)


class TableMetrics:
    """Every size of a picture follows from the card width, so one knob scales it all."""

    def __init__(self, card_width: int) -> None:
        self.cw = card_width
        self.ch = card_height(card_width)
        self.s = card_width / 84
        self.gap = max(6, round(card_width / 8))

    def px(self, value: float) -> int:
        return max(1, round(value * self.s))


# The frame of a table picture, and its seats.


def titled_canvas(
    title: str, fonts: Fonts, m: TableMetrics, *, width: int, height: int, title_h: int
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A felt canvas with the title bar across its top (every table picture starts so)."""
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, width, title_h), fill=TITLE_BAR)
    title_font = fonts.get(m.px(25), "bold")
    fitted = fit_text(fonts.printable(title), title_font, width - 2 * m.gap)
    draw.text((m.gap, title_h / 2), fitted, font=title_font, fill=TEXT, anchor="lm")
    return canvas, draw


def draw_footer(
    draw: ImageDraw.ImageDraw,
    footer: str,
    fonts: Fonts,
    m: TableMetrics,
    *,
    width: int,
    height: int,
    footer_h: int,
) -> None:
    """The footer line at the bottom of a table picture."""
    font = fonts.get(m.px(19), "regular")
    fitted = fit_text(fonts.printable(footer), font, width - 2 * m.gap)
    draw.text((m.gap, height - m.gap - footer_h / 2), fitted, font=font, fill=MUTED, anchor="lm")


def _seat_columns(count: int) -> int:
    return count if count <= 3 else (2 if count == 4 else 3)


def seats_height(seats: tuple[SeatInfo, ...], m: TableMetrics) -> tuple[int, list[int]]:
    """The height of the seat panels' area and of each of its rows."""
    cols = _seat_columns(len(seats))
    rows = math.ceil(len(seats) / cols)
    heights = []
    for row in range(rows):
        chunk = seats[row * cols : (row + 1) * cols]
        heights.append(m.px(64) + (m.px(22) if any(s.note for s in chunk) else 0))
    return sum(heights) + m.gap * rows + m.gap, heights


def draw_seats(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seats: tuple[SeatInfo, ...],
    row_heights: list[int],
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    top: int,
    width: int,
    panels: Lru[Image.Image] | None,
) -> None:
    """The seat panels in rows from ``top`` (the rows of ``seats_height``), each drawn once
    and kept in ``panels``."""
    cols = _seat_columns(len(seats))
    panel_w = (width - m.gap * (cols + 1)) / cols
    y = top
    for row, row_h in enumerate(row_heights):
        for col, seat in enumerate(seats[row * cols : (row + 1) * cols]):
            x = m.gap + col * (panel_w + m.gap)
            size = (round(panel_w), row_h)
            key = (seat, style.name, m.cw, size)
            panel = panels.get(key) if panels is not None else None
            if panel is None:
                # Drawn on its own and kept: seats change less often than the table.
                panel = Image.new("RGB", size, FELT)
                _draw_seat(
                    panel,
                    ImageDraw.Draw(panel),
                    seat,
                    style,
                    sprites,
                    fonts,
                    m,
                    box=(0, 0, size[0] - 1, size[1] - 1),
                )
                if panels is not None:
                    panels.put(key, panel)
            canvas.paste(panel, (round(x), y))
        y += row_h + m.gap


def _draw_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: SeatInfo,
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: TableMetrics,
    *,
    box: tuple[float, float, float, float],
) -> None:
    x0, y0, x1, _ = box
    pad = m.px(9)
    draw.rounded_rectangle(
        box,
        m.px(10),
        fill=PANEL_TURN if seat.to_move else PANEL,
        outline=TURN if seat.to_move else None,
        width=m.px(3) if seat.to_move else 0,
    )
    name_font = fonts.get(m.px(22), "bold")
    line1 = y0 + pad + m.px(11)
    x = x0 + pad
    if seat.to_move:
        size = m.px(9)
        draw.polygon([(x, line1 - size), (x + size * 1.5, line1), (x, line1 + size)], fill=TURN)
        x += size * 1.5 + m.px(6)
    score_w = 0.0
    if seat.score is not None:
        score_font = fonts.get(m.px(26), "black")
        score = str(seat.score)
        score_w = score_font.getlength(score) + m.px(8)
        draw.text(
            (x1 - pad, line1),
            score,
            font=score_font,
            fill=TURN if seat.to_move else TEXT,
            anchor="rm",
        )
    name = fit_text(fonts.printable(seat.name) or "?", name_font, x1 - pad - score_w - x)
    draw.text((x, line1), name, font=name_font, fill=TEXT, anchor="lm")

    # Second line: icons and numbers, so the picture needs no language.
    line2 = y0 + pad + m.px(40)
    stat_font = fonts.get(m.px(20), "bold")
    x = x0 + pad
    icon_h = m.px(22)
    icon_w = round(icon_h / 1.56)
    back = sprites.back(style, m.cw).resize((icon_w, icon_h), Image.Resampling.LANCZOS)
    # The hand: two fanned backs.
    paste_sprite(canvas, back, x, line2 - icon_h / 2)
    paste_sprite(canvas, back, x + m.px(5), line2 - icon_h / 2 + m.px(1))
    x += icon_w + m.px(9)
    text = str(seat.cards)
    draw.text((x, line2), text, font=stat_font, fill=TEXT, anchor="lm")
    x += stat_font.getlength(text) + m.px(14)
    if seat.captured is not None:
        # The captured cards: a face-down stack seen from the side.
        for i in range(3):
            top = line2 + icon_h * 0.15 - i * m.px(4)
            draw.rectangle(
                (x, top - m.px(5), x + icon_h, top), fill=style.back[0], outline=BADGE, width=1
            )
        x += icon_h + m.px(7)
        text = str(seat.captured)
        draw.text((x, line2), text, font=stat_font, fill=TEXT, anchor="lm")
        x += stat_font.getlength(text) + m.px(14)
    if seat.scope:
        # Scope: one gold mark each (a card laid across, as players mark them), a count past 5.
        marks = seat.scope if seat.scope <= 5 else 1
        for _ in range(marks):
            w, h = m.px(13), m.px(19)
            draw.rounded_rectangle(
                (x, line2 - h / 2, x + w, line2 + h / 2),
                m.px(2),
                fill=SCOPA_MARK,
                outline=BADGE_TEXT,
                width=1,
            )
            x += w + m.px(3)
        if seat.scope > 5:
            draw.text(
                (x + m.px(2), line2), f"×{seat.scope}", font=stat_font, fill=SCOPA_MARK, anchor="lm"
            )
    if seat.note:
        font = fonts.get(m.px(18), "regular")
        note = fit_text(fonts.printable(seat.note), font, x1 - x0 - 2 * pad)
        draw.text((x0 + pad, y0 + pad + m.px(64)), note, font=font, fill=MUTED, anchor="lm")


def draw_badge(
    draw: ImageDraw.ImageDraw, fonts: Fonts, m: TableMetrics, text: str, cx: float, cy: float
) -> None:
    """A count badge (a rounded white label) centred on (cx, cy)."""
    font = fonts.get(m.px(24), "black")
    half_w = max(font.getlength(text) / 2 + m.px(7), m.px(16))
    half_h = m.px(15)
    draw.rounded_rectangle(
        (cx - half_w, cy - half_h, cx + half_w, cy + half_h),
        m.px(8),
        fill=BADGE,
        outline=BADGE_TEXT,
        width=m.px(2),
    )
    draw.text((cx, cy), text, font=font, fill=BADGE_TEXT, anchor="mm")
