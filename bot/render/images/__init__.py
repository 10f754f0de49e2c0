"""Card pictures: the table, a hand and the /stats chart, drawn with Pillow.

Every card is drawn by this package from vector shapes, in several deck styles
(``style_names()``); text uses Source Sans Pro (SIL OFL 1.1, from the ``font-source-sans-pro``
PyPI package). The caller builds a scene (``TableScene``, ``HandScene``, ``RatingChart``), asks an
``ImageRenderer`` for a ``RenderedImage`` (PNG or WebP bytes plus a content digest), and sends its
text view instead when ``renderer.enabled`` is false.
"""

from __future__ import annotations

from .renderer import ImageCache, ImageFormat, ImageRenderer, RenderedImage, choose_style
from .scene import (
    RENDER_VERSION,
    HandScene,
    MeldInfo,
    RatingChart,
    RatingPoint,
    SeatInfo,
    TableScene,
    scene_digest,
)
from .sprites import Fonts, SpriteCache
from .styles import (
    DEFAULT_FRENCH_STYLE,
    DEFAULT_ITALIAN_STYLE,
    STYLES,
    DeckStyle,
    get_style,
    style_names,
)

__all__ = [
    "DEFAULT_FRENCH_STYLE",
    "DEFAULT_ITALIAN_STYLE",
    "RENDER_VERSION",
    "STYLES",
    "DeckStyle",
    "Fonts",
    "HandScene",
    "ImageCache",
    "ImageFormat",
    "ImageRenderer",
    "MeldInfo",
    "RatingChart",
    "RatingPoint",
    "RenderedImage",
    "SeatInfo",
    "SpriteCache",
    "TableScene",
    "choose_style",
    "get_style",
    "scene_digest",
    "style_names",
]
