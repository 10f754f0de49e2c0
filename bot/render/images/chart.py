"""The rating chart: a player's rating over time, as a line over a grid (``PIL.Image`` in, no
I/O)."""

from __future__ import annotations

import datetime as dt
import math

from PIL import Image, ImageDraw

from .drawing import fit_text
from .scene import RatingChart, point_time
from .sprites import Fonts
from .styles import Rgb

__all__ = ["compose_chart"]

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
        fit_text(fonts.printable(chart.title), title_font, w - left),
        font=title_font,
        fill=CHART_TEXT,
    )
    if chart.subtitle:
        draw.text(
            (left, 40 * ss * scale),
            fit_text(fonts.printable(chart.subtitle), small, w - left),
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
