"""Card pictures: the table, a hand and the /stats chart, drawn with Pillow.

Every card is drawn by this package from vector shapes, in several deck styles
(``style_names()``: napoletane, piacentine, francesi, francesi4); text uses Source Sans Pro
(SIL OFL 1.1, from the ``font-source-sans-pro`` PyPI package; without it Pillow's own font).

Use, from the composition root and the service::

    renderer = ImageRenderer(enabled=config.images)        # one per process; caches inside
    await asyncio.to_thread(renderer.warm, "napoletane")   # optional: no slow first picture
    if renderer.enabled:
        style = choose_style(chat_style, "italian")         # "french" for Scala 40
        scene = TableScene(title=..., seats=(SeatInfo("Anna", cards=3, captured=12, scope=1,
                           score=7, to_move=True), ...), table=view.table, stock=view.deck_count)
        image = await asyncio.to_thread(renderer.table, scene, style=style)
        # image.data (bytes), image.mime_type, image.filename, image.digest
    else:
        ...  # send the text view

``renderer.table_digest(scene, style=...)`` gives the digest without drawing: an adapter that
remembers "digest -> uploaded file id" can skip both drawing and uploading an unchanged table.
Drawing is CPU-bound (about 5-20 ms of CPU per table, see ``benchmarks/README.md``), so callers on
an event loop run it in a thread. Bad input (unknown style, a card the style lacks, a malformed
scene) raises ``ValueError`` with a message naming it.
"""

from __future__ import annotations

from .briscola import BriscolaScene
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
    "BriscolaScene",
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
