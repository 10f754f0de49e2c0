"""The renderer: scenes in, encoded pictures out, with a content-hash cache in front."""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from PIL import Image

from .briscola import BriscolaScene, compose_briscola
from .chart import compose_chart
from .compose import calibration_image, compose_hand, compose_table
from .lru import Lru
from .scene import HandScene, RatingChart, TableScene, scene_digest
from .sprites import MAX_CARD_WIDTH, MIN_CARD_WIDTH, Fonts, SpriteCache
from .styles import (
    DEFAULT_FRENCH_STYLE,
    DEFAULT_ITALIAN_STYLE,
    DeckKind,
    DeckStyle,
    get_style,
    style_names,
)

__all__ = ["ImageCache", "ImageFormat", "ImageRenderer", "RenderedImage", "choose_style"]

logger = logging.getLogger(__name__)

ImageFormat = Literal["png", "webp"]
_MIME = {"png": "image/png", "webp": "image/webp"}


@dataclass(frozen=True, slots=True)
class RenderedImage:
    """An encoded picture and the digest of what it shows.

    ``digest`` depends only on the input (scene, style, format, sizes), never on the bytes, so an
    adapter can remember "digest -> uploaded file id" and skip re-uploading an unchanged picture.
    """

    data: bytes
    format: ImageFormat
    digest: str
    width: int
    height: int

    @property
    def mime_type(self) -> str:
        return _MIME[self.format]

    @property
    def filename(self) -> str:
        return f"tavolo-{self.digest[:16]}.{self.format}"


class ImageCache:
    """A small thread-safe LRU of rendered pictures keyed by digest; counts hits and misses."""

    def __init__(self, *, max_entries: int = 256, max_bytes: int = 48 * 1024 * 1024) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("an image cache holds at least one entry and one byte")
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._items: OrderedDict[str, RenderedImage] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._items)

    def get(self, digest: str) -> RenderedImage | None:
        with self._lock:
            image = self._items.get(digest)
            if image is None:
                self.misses += 1
                return None
            self._items.move_to_end(digest)
            self.hits += 1
            return image

    def peek(self, digest: str) -> RenderedImage | None:
        """Like ``get`` but neither counted nor marked as used."""
        with self._lock:
            return self._items.get(digest)

    def put(self, image: RenderedImage) -> None:
        with self._lock:
            old = self._items.pop(image.digest, None)
            if old is not None:
                self._bytes -= len(old.data)
            self._items[image.digest] = image
            self._bytes += len(image.data)
            while len(self._items) > 1 and (
                len(self._items) > self._max_entries or self._bytes > self._max_bytes
            ):
                _, dropped = self._items.popitem(last=False)
                self._bytes -= len(dropped.data)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0


def choose_style(preferred: str | None, deck: DeckKind) -> str:
    """The style to draw ``deck`` with: ``preferred`` when it can, else that deck's default.

    A chat that picked "napoletane" still gets French cards for Scala 40. An unknown name is a
    ``ValueError`` (validate a user's choice with ``get_style`` when they make it).
    """
    if deck not in ("italian", "french"):
        raise ValueError(f"deck must be 'italian' or 'french', not {deck!r}")
    if preferred is not None:
        get_style(preferred)
        if preferred in style_names(deck):
            return preferred
    return DEFAULT_ITALIAN_STYLE if deck == "italian" else DEFAULT_FRENCH_STYLE


class ImageRenderer:
    """Draws tables, hands and rating charts; one per process, made by the composition root.

    ``enabled`` is the switch for pictures: the caller checks it and sends its text view instead
    when it is off (the text view stays the accessible form either way). Rendering works
    whatever its value, so tests and previews need no special case.

    Sprites and finished pictures live in the injected ``sprites`` and ``cache`` objects (new
    ones when not given): nothing is shared through module globals.
    """

    def __init__(
        self,
        *,
        enabled: bool = True,
        image_format: ImageFormat = "png",
        table_card_width: int = 84,
        hand_card_width: int = 112,
        hand_max_width: int = 860,
        sprites: SpriteCache | None = None,
        cache: ImageCache | None = None,
    ) -> None:
        if image_format not in _MIME:
            raise ValueError(f"image format {image_format!r}: one of {', '.join(_MIME)}")
        for name, value in (
            ("table_card_width", table_card_width),
            ("hand_card_width", hand_card_width),
        ):
            if not isinstance(value, int) or not MIN_CARD_WIDTH <= value <= MAX_CARD_WIDTH:
                raise ValueError(f"{name} must be in {MIN_CARD_WIDTH}..{MAX_CARD_WIDTH}")
        if not isinstance(hand_max_width, int) or hand_max_width < hand_card_width:
            raise ValueError("hand_max_width must be an int of at least hand_card_width")
        self.enabled = enabled
        self.image_format: ImageFormat = image_format
        self.table_card_width = table_card_width
        self.hand_card_width = hand_card_width
        self.hand_max_width = hand_max_width
        self.sprites = sprites if sprites is not None else SpriteCache(fonts=Fonts())
        self.fonts = self.sprites.fonts
        self.cache = cache if cache is not None else ImageCache()
        self._panels: Lru[Image.Image] = Lru(256)
        self._render_lock = threading.Lock()

    def warm(self, style: str) -> None:
        """Build ``style``'s sprites and palette now (about a second), not on the first picture.

        Blocking: a caller on an event loop runs it in a thread (``asyncio.to_thread``).
        """
        deck_style = get_style(style)
        self.sprites.deck(deck_style, self.table_card_width)
        self.sprites.deck(deck_style, self.hand_card_width)
        self._palette(deck_style)

    # Digests: what an adapter compares before uploading.

    def table_digest(self, scene: TableScene, *, style: str) -> str:
        return scene_digest(
            scene,
            kind="table",
            style=style,
            fmt=self.image_format,
            card_width=self.table_card_width,
        )

    def hand_digest(self, scene: HandScene, *, style: str) -> str:
        return scene_digest(
            scene,
            kind="hand",
            style=style,
            fmt=self.image_format,
            card_width=self.hand_card_width,
            max_width=self.hand_max_width,
        )

    def chart_digest(self, chart: RatingChart, *, width: int = 640, height: int = 360) -> str:
        return scene_digest(chart, kind="chart", fmt=self.image_format, width=width, height=height)

    # Pictures.

    def table(self, scene: TableScene, *, style: str) -> RenderedImage:
        """The public table; ``ValueError`` for an unknown style or a card it cannot draw."""
        if not isinstance(scene, TableScene):
            raise ValueError(f"not a TableScene: {scene!r}")
        deck_style = get_style(style)

        def draw() -> tuple[Image.Image, Image.Image | None]:
            # A Briscola table has its own layout (the trick, the stock and the briscola).
            compose = compose_briscola if isinstance(scene, BriscolaScene) else compose_table
            image = compose(
                scene,  # type: ignore[arg-type]
                deck_style,
                self.sprites,
                self.fonts,
                card_width=self.table_card_width,
                panels=self._panels,
            )
            return image, self._palette(deck_style)

        return self._render(self.table_digest(scene, style=style), draw)

    def hand(self, scene: HandScene, *, style: str) -> RenderedImage:
        """One hand, cards left to right in the given order."""
        if not isinstance(scene, HandScene):
            raise ValueError(f"not a HandScene: {scene!r}")
        deck_style = get_style(style)

        def draw() -> tuple[Image.Image, Image.Image | None]:
            image = compose_hand(
                scene,
                deck_style,
                self.sprites,
                self.fonts,
                card_width=self.hand_card_width,
                max_width=self.hand_max_width,
            )
            return image, self._palette(deck_style)

        return self._render(self.hand_digest(scene, style=style), draw)

    def rating_chart(
        self, chart: RatingChart, *, width: int = 640, height: int = 360
    ) -> RenderedImage:
        """A player's rating over time (the /stats picture)."""
        if not isinstance(chart, RatingChart):
            raise ValueError(f"not a RatingChart: {chart!r}")
        if not (200 <= width <= 2000 and 120 <= height <= 2000):
            raise ValueError("chart size must be 200..2000 x 120..2000 pixels")

        def draw() -> tuple[Image.Image, Image.Image | None]:
            return compose_chart(chart, self.fonts, width=width, height=height), None

        return self._render(self.chart_digest(chart, width=width, height=height), draw)

    def _render(
        self, digest: str, draw: Callable[[], tuple[Image.Image, Image.Image | None]]
    ) -> RenderedImage:
        cached = self.cache.get(digest)
        if cached is not None:
            return cached
        # One picture at a time: Pillow's font objects are shared, and on two cores parallel
        # drawing would gain little. A thread waiting here may find its picture done meanwhile.
        with self._render_lock:
            cached = self.cache.peek(digest)
            if cached is not None:
                return cached
            image, palette = draw()
            rendered = RenderedImage(
                data=encode(image, self.image_format, palette),
                format=self.image_format,
                digest=digest,
                width=image.width,
                height=image.height,
            )
            self.cache.put(rendered)
            return rendered

    def _palette(self, style: DeckStyle) -> Image.Image:
        """A 256-colour palette made once per style from a sample of everything it draws.

        Mapping a picture onto a known palette costs a fraction of quantizing it afresh, and the
        sample (every card face, a seat of each kind, badges, numbers) holds every colour and
        anti-aliased edge that tables and hands of this style use. Kept with the sprites.
        """

        def build() -> Image.Image:
            sample = calibration_image(
                style,
                self.sprites,
                self.fonts,
                table_card_width=self.table_card_width,
                hand_card_width=self.hand_card_width,
            )
            return sample.quantize(
                colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )

        key = ("palette", style.name, self.table_card_width, self.hand_card_width)
        return self.sprites.derived(key, build)


def encode(
    image: Image.Image, image_format: ImageFormat, palette: Image.Image | None = None
) -> bytes:
    """PNG with 256 colours (flat colours: small and quick), or WebP (lossy, quality 88).

    ``palette`` (a "P" image) maps the picture onto known colours; without it the picture is
    quantized on its own.
    """
    buffer = io.BytesIO()
    if image_format == "png":
        if palette is not None:
            indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
        else:
            indexed = image.quantize(
                colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
        indexed.save(buffer, "PNG", compress_level=3)
    else:
        image.save(buffer, "WEBP", quality=88, method=2)
    return buffer.getvalue()
