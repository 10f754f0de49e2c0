"""Pictures from sprites: the table, a hand, and the rating chart (``PIL.Image`` in, no I/O)."""

from __future__ import annotations

import datetime as dt
import math

from PIL import Image, ImageDraw, ImageFont

from .lru import Lru
from .scene import HandScene, MeldInfo, RatingChart, SeatInfo, TableScene, point_time
from .sprites import Fonts, SpriteCache, card_height
from .styles import DeckStyle, Rgb

__all__ = ["calibration_image", "compose_chart", "compose_hand", "compose_table"]

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


def _fit(text: str, font: Font, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…" if text else ""


def _paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    canvas.paste(sprite, (round(x), round(y)), sprite)


class _Metrics:
    """Every size of a picture follows from the card width, so one knob scales it all."""

    def __init__(self, card_width: int) -> None:
        self.cw = card_width
        self.ch = card_height(card_width)
        self.s = card_width / 84
        self.gap = max(6, round(card_width / 8))

    def px(self, value: float) -> int:
        return max(1, round(value * self.s))


# The table.


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
    m = _Metrics(card_width)
    width = m.cw * 8 + m.gap * 9
    title_h = m.px(42)
    seats_h, seat_rows = _seats_height(scene.seats, m)
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

    canvas, draw = _titled_canvas(
        scene.title, fonts, m, width=width, height=height, title_h=title_h
    )

    _draw_seats(
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
            _paste(canvas, sprites.sprite(style, card, m.cw), m.gap + x, top + y)
    else:
        # An empty table (after a scopa) still shows where the cards go.
        x0 = m.gap + (area_w - m.cw) / 2
        draw.rounded_rectangle(
            (x0, top + m.gap, x0 + m.cw, top + m.gap + m.ch), m.px(6), outline=MUTED, width=m.px(2)
        )
    if side:
        _draw_side(canvas, draw, scene, style, sprites, fonts, m, x=width - side_w, top=top)
    if scene.footer:
        _draw_footer(draw, scene.footer, fonts, m, width=width, height=height, footer_h=footer_h)
    return canvas


def _titled_canvas(
    title: str, fonts: Fonts, m: _Metrics, *, width: int, height: int, title_h: int
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A felt canvas with the title bar across its top (every table picture starts so)."""
    canvas = Image.new("RGB", (width, height), FELT)
    draw = ImageDraw.Draw(canvas)
    draw.rectangle((0, 0, width, title_h), fill=TITLE_BAR)
    title_font = fonts.get(m.px(25), "bold")
    fitted = _fit(fonts.printable(title), title_font, width - 2 * m.gap)
    draw.text((m.gap, title_h / 2), fitted, font=title_font, fill=TEXT, anchor="lm")
    return canvas, draw


def _draw_footer(
    draw: ImageDraw.ImageDraw,
    footer: str,
    fonts: Fonts,
    m: _Metrics,
    *,
    width: int,
    height: int,
    footer_h: int,
) -> None:
    """The footer line at the bottom of a table picture."""
    font = fonts.get(m.px(19), "regular")
    fitted = _fit(fonts.printable(footer), font, width - 2 * m.gap)
    draw.text((m.gap, height - m.gap - footer_h / 2), fitted, font=font, fill=MUTED, anchor="lm")


def _seat_columns(count: int) -> int:
    return count if count <= 3 else (2 if count == 4 else 3)


def _seats_height(seats: tuple[SeatInfo, ...], m: _Metrics) -> tuple[int, list[int]]:
    cols = _seat_columns(len(seats))
    rows = math.ceil(len(seats) / cols)
    heights = []
    for row in range(rows):
        chunk = seats[row * cols : (row + 1) * cols]
        heights.append(m.px(64) + (m.px(22) if any(s.note for s in chunk) else 0))
    return sum(heights) + m.gap * rows + m.gap, heights


def _draw_seats(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    seats: tuple[SeatInfo, ...],
    row_heights: list[int],
    style: DeckStyle,
    sprites: SpriteCache,
    fonts: Fonts,
    m: _Metrics,
    *,
    top: int,
    width: int,
    panels: Lru[Image.Image] | None,
) -> None:
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
    m: _Metrics,
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
    name = _fit(fonts.printable(seat.name) or "?", name_font, x1 - pad - score_w - x)
    draw.text((x, line1), name, font=name_font, fill=TEXT, anchor="lm")

    # Second line: icons and numbers, so the picture needs no language.
    line2 = y0 + pad + m.px(40)
    stat_font = fonts.get(m.px(20), "bold")
    x = x0 + pad
    icon_h = m.px(22)
    icon_w = round(icon_h / 1.56)
    back = sprites.back(style, m.cw).resize((icon_w, icon_h), Image.Resampling.LANCZOS)
    # The hand: two fanned backs.
    _paste(canvas, back, x, line2 - icon_h / 2)
    _paste(canvas, back, x + m.px(5), line2 - icon_h / 2 + m.px(1))
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
        note = _fit(fonts.printable(seat.note), font, x1 - x0 - 2 * pad)
        draw.text((x0 + pad, y0 + pad + m.px(64)), note, font=font, fill=MUTED, anchor="lm")


def _table_layout(count: int, m: _Metrics, area_w: int) -> tuple[list[tuple[float, float]], int]:
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


def _meld_step(m: _Metrics, count: int, area_w: int) -> float:
    # Enough of each card to show its corner index (rank and suit); a meld longer than the
    # table is wide (never in a real game) is squeezed rather than cut off.
    step = m.cw * 0.34
    if count > 1 and m.cw + step * (count - 1) > area_w:
        step = max(1.0, (area_w - m.cw) / (count - 1))
    return step


def _meld_layout(
    melds: tuple[MeldInfo, ...], m: _Metrics, area_w: int
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
    m: _Metrics,
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
            owner = _fit(fonts.printable(meld.owner), font, max(meld_w, m.cw))
            draw.text((m.gap + x, top + y + label_h / 2), owner, font=font, fill=MUTED, anchor="lm")
        for i, card in enumerate(meld.cards):
            _paste(
                canvas, sprites.sprite(style, card, m.cw), m.gap + x + i * step, top + y + label_h
            )


def _side_height(scene: TableScene, m: _Metrics) -> int:
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
    m: _Metrics,
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
                _paste(canvas, back, x + i * m.px(2), y - i * m.px(2))
        else:
            draw.rounded_rectangle(
                (x, y, x + m.cw, y + m.ch), m.px(6), outline=MUTED, width=m.px(2)
            )
        _badge(draw, fonts, m, str(scene.stock), x + m.cw / 2, y + m.ch / 2)
        y += m.ch + m.gap
    if scene.pile_top is not None:
        _paste(canvas, sprites.sprite(style, scene.pile_top, m.cw), x, y)


def _badge(
    draw: ImageDraw.ImageDraw, fonts: Fonts, m: _Metrics, text: str, cx: float, cy: float
) -> None:
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
    m = _Metrics(card_width)
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
        title = _fit(fonts.printable(scene.title), font, width - 2 * m.gap)
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
        _paste(canvas, sprites.sprite(style, card, m.cw), x, card_y)
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


# The rating chart.

CHART_BG: Rgb = (250, 250, 246)
CHART_GRID: Rgb = (222, 224, 218)
CHART_AXIS: Rgb = (90, 90, 90)
CHART_LINE: Rgb = (24, 110, 70)
CHART_TEXT: Rgb = (40, 40, 40)


def _nice_step(span: float, ticks: int) -> float:
    raw = max(span, 1e-9) / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _date_label(when: dt.date) -> str:
    return when.date().isoformat() if isinstance(when, dt.datetime) else when.isoformat()


def _number(value: float) -> str:
    return (
        str(round(value))
        if abs(value - round(value)) < 1e-6 or abs(value) >= 100
        else (f"{value:.1f}")
    )


def compose_chart(chart: RatingChart, fonts: Fonts, *, width: int, height: int) -> Image.Image:
    ss = 2  # Drawn at twice the size and scaled down: smooth lines for free.
    w, h = width * ss, height * ss
    canvas = Image.new("RGB", (w, h), CHART_BG)
    draw = ImageDraw.Draw(canvas)
    scale = width / 640
    title_font = fonts.get(26 * ss * scale, "bold")
    small = fonts.get(17 * ss * scale, "regular")
    left, right = 70 * ss * scale, 24 * ss * scale
    top, bottom = (62 if chart.subtitle else 48) * ss * scale, 40 * ss * scale
    draw.text(
        (left, 12 * ss * scale),
        _fit(fonts.printable(chart.title), title_font, w - left),
        font=title_font,
        fill=CHART_TEXT,
    )
    if chart.subtitle:
        draw.text(
            (left, 40 * ss * scale),
            _fit(fonts.printable(chart.subtitle), small, w - left),
            font=small,
            fill=CHART_AXIS,
        )
    x0, y0, x1, y1 = left, top, w - right, h - bottom
    draw.rectangle((x0, y0, x1, y1), outline=CHART_GRID, width=ss)
    points = chart.points
    if not points:
        draw.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), "—", font=title_font, fill=CHART_AXIS, anchor="mm"
        )
        return canvas.reduce(ss)
    ratings = [p.rating for p in points]
    lo, hi = min(ratings), max(ratings)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    step = _nice_step(hi - lo, 4)
    lo_tick = math.floor(lo / step) * step
    hi_tick = math.ceil(hi / step) * step
    value = lo_tick
    for _ in range(12):
        if value > hi_tick + step / 2:
            break
        y = y1 - (value - lo_tick) / (hi_tick - lo_tick) * (y1 - y0)
        draw.line([(x0, y), (x1, y)], fill=CHART_GRID, width=ss)
        draw.text(
            (x0 - 8 * ss * scale, y), _number(value), font=small, fill=CHART_AXIS, anchor="rm"
        )
        value += step
    times = [point_time(p).timestamp() for p in points]
    t0, t1 = times[0], times[-1]
    if t1 - t0 < 1e-6:
        positions = (
            [0.5] if len(points) == 1 else [i / (len(points) - 1) for i in range(len(points))]
        )
    else:
        positions = [(t - t0) / (t1 - t0) for t in times]
    coords = [
        (x0 + pos * (x1 - x0), y1 - (r - lo_tick) / (hi_tick - lo_tick) * (y1 - y0))
        for pos, r in zip(positions, ratings, strict=True)
    ]
    if len(coords) > 1:
        draw.line(coords, fill=CHART_LINE, width=round(4 * ss * scale), joint="curve")
    if len(coords) <= 60:
        r = 4.5 * ss * scale
        for cx, cy in coords:
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), fill=CHART_LINE, outline=CHART_BG, width=ss
            )
    last_x, last_y = coords[-1]
    label = _number(ratings[-1])
    draw.text(
        (min(last_x, x1 - 4 * ss), last_y - 10 * ss * scale),
        label,
        font=title_font,
        fill=CHART_LINE,
        anchor="rb",
    )
    draw.text(
        (x0, y1 + 8 * ss * scale),
        _date_label(points[0].when),
        font=small,
        fill=CHART_AXIS,
        anchor="lt",
    )
    if len(points) > 1:
        draw.text(
            (x1, y1 + 8 * ss * scale),
            _date_label(points[-1].when),
            font=small,
            fill=CHART_AXIS,
            anchor="rt",
        )
    return canvas.reduce(ss)
