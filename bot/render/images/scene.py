"""What an image shows: small frozen, platform-neutral and engine-agnostic structures.

The service maps its views to these (it knows whose turn it is, the names and the language);
this package only draws them. Cards may be given as ``engine.cards.Card`` or as card strings
(``"7D"``, ``"TD'"``, ``"*"``); they are parsed on construction, so a bad card fails early with a
``ValueError`` naming it. Free texts (title, names, notes) are drawn as given: translate them
before building the structure.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.domain.records import JSON
from engine.cards import Card, parse_card, parse_cards

__all__ = [
    "RENDER_VERSION",
    "CardLike",
    "HandScene",
    "MeldInfo",
    "RatingChart",
    "RatingPoint",
    "SeatInfo",
    "TableScene",
    "checked_card",
    "checked_text",
    "scene_digest",
]

# Bumped whenever the drawing changes, so digests (and any upload cache keyed by them) change too.
RENDER_VERSION = 1

CardLike = Card | str

_MAX_TEXT = 200
_MAX_CARDS = 120
_MAX_SEATS = 8


def checked_card(value: object) -> Card:
    """``value`` as a card (a ``Card`` or its text); ValueError otherwise."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise ValueError(f"not a card: {value!r}")


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if isinstance(value, str):
        cards = parse_cards(value)
    elif isinstance(value, Iterable):
        cards = tuple(checked_card(item) for item in value)
    else:
        raise ValueError(f"{what}: not a sequence of cards: {value!r}")
    if len(cards) > _MAX_CARDS:
        raise ValueError(f"{what}: {len(cards)} cards, at most {_MAX_CARDS}")
    return cards


def checked_text(value: object, what: str) -> str:
    """``value`` if it is a string, cut to the longest text a scene keeps; ValueError naming
    ``what`` otherwise."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, not {value!r}")
    return value[:_MAX_TEXT]


def _count(value: object, what: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a non-negative int, not {value!r}")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the table image shows it.

    ``cards``: cards in the seat's hand; ``captured``: cards taken by the seat's side (Scopa;
    ``None`` hides it); ``scope``: scope (sweeps) of the side this hand, drawn as marks;
    ``score``: points in the match (``None`` hides it); ``to_move``: this seat plays now;
    ``note``: a short extra line, already translated (e.g. "mazziere", "ha aperto").
    """

    name: str
    cards: int = 0
    captured: int | None = None
    scope: int = 0
    score: int | None = None
    to_move: bool = False
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", checked_text(self.name, "seat name"))
        object.__setattr__(self, "note", checked_text(self.note, "seat note"))
        _count(self.cards, "seat cards")
        _count(self.captured, "seat captured", optional=True)
        _count(self.scope, "seat scope")
        if self.score is not None and (
            isinstance(self.score, bool) or not isinstance(self.score, int)
        ):
            raise ValueError(f"seat score must be an int or None, not {self.score!r}")
        if not isinstance(self.to_move, bool):
            raise ValueError(f"seat to_move must be a bool, not {self.to_move!r}")


@dataclass(frozen=True, slots=True)
class MeldInfo:
    """A meld on the table (Scala 40): its cards in display order and who laid it down."""

    cards: tuple[Card, ...]
    owner: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, "meld"))
        object.__setattr__(self, "owner", checked_text(self.owner, "meld owner"))
        if not self.cards:
            raise ValueError("a meld has at least one card")


@dataclass(frozen=True, slots=True)
class TableScene:
    """The public table: a title line, the seats, and the cards in the middle.

    Scopa fills ``table`` (face-up cards) and may give ``stock`` (cards left in the deck);
    Scala 40 fills ``melds``, ``pile_top`` (top of the discard pile) and ``stock``. ``footer`` is
    an optional short line under the table (e.g. the last move, translated).
    """

    title: str
    seats: tuple[SeatInfo, ...]
    table: tuple[Card, ...] = ()
    melds: tuple[MeldInfo, ...] = ()
    pile_top: Card | None = None
    stock: int | None = None
    footer: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", checked_text(self.title, "title"))
        object.__setattr__(self, "footer", checked_text(self.footer, "footer"))
        seats = tuple(self.seats)
        if not 1 <= len(seats) <= _MAX_SEATS or not all(isinstance(s, SeatInfo) for s in seats):
            raise ValueError(f"seats: 1..{_MAX_SEATS} SeatInfo, not {self.seats!r}")
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "table", _cards(self.table, "table"))
        melds = tuple(self.melds)
        if not all(isinstance(m, MeldInfo) for m in melds):
            raise ValueError(f"melds: MeldInfo only, not {self.melds!r}")
        object.__setattr__(self, "melds", melds)
        if self.pile_top is not None:
            object.__setattr__(self, "pile_top", checked_card(self.pile_top))
        _count(self.stock, "stock", optional=True)

    def cards(self) -> tuple[Card, ...]:
        """Every face-up card the image draws."""
        pile = (self.pile_top,) if self.pile_top is not None else ()
        return self.table + tuple(c for m in self.melds for c in m.cards) + pile


@dataclass(frozen=True, slots=True)
class HandScene:
    """One player's hand, left to right in the order of the caller's buttons.

    ``numbered`` draws 1, 2, 3... above the cards (to match numbered buttons); ``selected`` holds
    0-based positions drawn raised and outlined (Scala 40: cards picked for a meld or a discard).
    Positions, not cards, because two French decks hold two equal cards.
    """

    cards: tuple[Card, ...]
    numbered: bool = False
    selected: frozenset[int] = field(default_factory=frozenset)
    title: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, "hand"))
        object.__setattr__(self, "title", checked_text(self.title, "title"))
        selected = frozenset(self.selected)
        bad = [
            i
            for i in selected
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.cards)
        ]
        if bad:
            raise ValueError(f"selected positions out of range 0..{len(self.cards) - 1}: {bad!r}")
        object.__setattr__(self, "selected", selected)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating at a moment (for the /stats chart)."""

    when: dt.datetime | dt.date
    rating: float

    def __post_init__(self) -> None:
        if not isinstance(self.when, dt.date):
            raise ValueError(f"rating point time must be a date or datetime, not {self.when!r}")
        if isinstance(self.rating, bool) or not isinstance(self.rating, int | float):
            raise ValueError(f"rating must be a number, not {self.rating!r}")
        if self.rating != self.rating or abs(self.rating) > 1e9:
            raise ValueError(f"rating out of range: {self.rating!r}")


@dataclass(frozen=True, slots=True)
class RatingChart:
    """A rating-over-time chart: points in time order (sorted on construction), a title."""

    title: str
    points: tuple[RatingPoint, ...]
    subtitle: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "title", checked_text(self.title, "title"))
        object.__setattr__(self, "subtitle", checked_text(self.subtitle, "subtitle"))
        points = tuple(self.points)
        if not all(isinstance(p, RatingPoint) for p in points):
            raise ValueError("points: RatingPoint only")
        if len(points) > 10_000:
            raise ValueError(f"{len(points)} rating points, at most 10000")
        object.__setattr__(self, "points", tuple(sorted(points, key=point_time)))


def point_time(point: RatingPoint) -> dt.datetime:
    """A naive UTC time to order and space points (a date counts as its midnight)."""
    when = point.when
    if isinstance(when, dt.datetime):
        return (
            when.replace(tzinfo=None)
            if when.tzinfo is None
            else when.astimezone(dt.UTC).replace(tzinfo=None)
        )
    return dt.datetime(when.year, when.month, when.day)


def _canonical(value: object) -> JSON:
    """``value`` (a scene, its parts, a drawing option) as JSON that says everything drawn."""
    if isinstance(value, Card):
        return str(value)  # keeps the deck marks: a joker's colour depends on them
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return [type(value).__name__, fields]
    if isinstance(value, tuple | list):
        return [_canonical(item) for item in value]
    if isinstance(value, frozenset | set):
        return _sorted_members([_canonical(item) for item in value])
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Mapping) and all(isinstance(key, str) for key in value):
        return {key: _canonical(item) for key, item in value.items()}
    if value is None or isinstance(value, str | int | float):
        return value
    raise TypeError(f"a scene cannot hold a {type(value).__name__}: {value!r}")


def _sorted_members(members: list[JSON]) -> JSON:
    """A set's members in their order: numbers (seat or card indexes) or texts (cards)."""
    numbers = [m for m in members if isinstance(m, int | float)]
    texts = [m for m in members if isinstance(m, str)]
    if len(numbers) + len(texts) != len(members) or (numbers and texts):
        raise TypeError(f"a scene's set holds numbers or texts, not {members!r}")
    ordered: list[JSON] = [*sorted(numbers), *sorted(texts)]
    return ordered


def scene_digest(scene: object, **options: object) -> str:
    """A stable hex digest of ``scene`` and the drawing ``options`` (style, format, sizes).

    Equal inputs give equal digests in every process, so an adapter may key uploaded file ids on
    it and skip re-uploading an unchanged picture.
    """
    payload = json.dumps(
        [RENDER_VERSION, _canonical(scene), {k: _canonical(v) for k, v in options.items()}],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:32]
