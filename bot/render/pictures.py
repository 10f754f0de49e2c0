"""Service events -> card pictures: the one mapping both adapters use.

``Pictures`` turns a :class:`TableView` (the public table) or a :class:`HandView` (one player's
hand) into a scene of ``bot.render.images`` and draws it off the event loop. The text of the
same event (``Renderer.render``) stays the accessible form: adapters send it as the caption or
the message text, and send the text alone when pictures are off (``IMAGES=off``) or a picture
cannot be drawn.

Deck styles: a chat (or a user, for a private hand) may prefer one
(``images.style_names()``); ``choose_style`` falls back to the deck's default when the preferred
style cannot draw the game's deck (napoletane for the Italian games, francesi for Scala 40).

Only public facts reach a table picture: it is built from the public view (no hand at all),
so a picture can never show a card that its caption could not.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import gettext
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from bot.domain.events import HandView, Stats, TableInfo, TableView
from bot.render.images import (
    HandScene,
    ImageRenderer,
    MeldInfo,
    RatingChart,
    RatingPoint,
    RenderedImage,
    SeatInfo,
    TableScene,
    choose_style,
    style_names,
)
from bot.render.renderer import Renderer
from bot.render.scala40 import scala40_move_text
from bot.render.texts import (
    BRISCOLA_FAMILIES,
    DEFAULT_STYLE,
    GAME_NAMES,
    STYLE_LABELS,
    move_text,
)
from bot.service.ports import AdapterState
from engine.cards import Card
from engine.scala40.view import Scala40View
from engine.scopa.view import ScopaView

__all__ = [
    "DEFAULT_STYLE",
    "STYLE",
    "STYLE_LABELS",
    "Pictures",
    "deck_of",
    "hand_scene",
    "table_scene",
]

logger = logging.getLogger(__name__)

# A player's conservative rating after each game of a family, oldest first (the store's
# ``rating_history(platform=, user_id=, family=) -> [(unix time, rating), ...]``).
RatingHistory = Callable[..., Awaitable[list[tuple[float, float]]]]
# Whether a chat wants pictures: ``(platform, chat_id) -> bool`` (TableService.pictures_on).
ChatPictures = Callable[[str, str], Awaitable[bool]]

# The adapter-state kind under which a chat's or user's deck style is kept.
STYLE = "style"


def deck_of(table: TableInfo) -> Literal["italian", "french"]:
    """Which deck the table plays with: Scala 40 uses French cards, the rest Italian ones."""
    return "french" if table.family == "scala40" else "italian"


def table_scene(renderer: Renderer, event: TableView) -> TableScene | None:
    """The public table of ``event`` as a scene; ``None`` for a game without a picture."""
    t = renderer.translations(event.locale)
    table, view = event.table, event.view
    if table.family in BRISCOLA_FAMILIES:
        from bot.render import briscola

        return briscola.table_scene(renderer.kit, event)
    if table.family == "scala40" and isinstance(view, Scala40View):
        return _scala40_table(renderer, table, view, t)
    if table.family == "scopa" and isinstance(view, ScopaView):
        return _scopa_table(renderer, table, view, t)
    return None


def _scopa_table(
    renderer: Renderer, table: TableInfo, view: ScopaView, t: gettext.NullTranslations
) -> TableScene:
    _ = t.gettext
    side_of = {seat: side for side, seats in enumerate(view.sides) for seat in seats}
    seats = tuple(
        SeatInfo(
            renderer.seat_name(table, seat, t),
            cards=view.hand_counts[seat],
            captured=view.captured_counts[side_of[seat]],
            scope=view.scope[side_of[seat]],
            score=view.points[side_of[seat]],
            to_move=view.current_player == seat,
            note=_("dealer") if view.dealer == seat else "",
        )
        for seat in range(view.players)
    )
    footer = ""
    if view.last_move is not None:
        seat, move = view.last_move
        footer = f"{renderer.seat_name(table, seat, t)}: {move_text(move)}"
    title = _("{game} · table {id}").format(game=renderer.game_name(table, t), id=table.id)
    return TableScene(
        title=title + " · " + _("hand {n}").format(n=view.smazzata),
        seats=seats,
        table=view.table,
        stock=view.deck_count,
        footer=footer,
    )


def _scala40_table(
    renderer: Renderer, table: TableInfo, view: Scala40View, t: gettext.NullTranslations
) -> TableScene:
    _ = t.gettext
    names = [renderer.seat_name(table, seat, t) for seat in range(view.players)]
    seats = []
    for seat in range(view.players):
        state = []
        if view.opened[seat]:
            state.append(_("opened"))
        if view.eliminated[seat]:
            state.append(_("out"))
        seats.append(
            SeatInfo(
                names[seat],
                cards=view.hand_counts[seat],
                score=view.scores[seat],
                to_move=view.current_player == seat,
                note=", ".join(state),
            )
        )
    melds = tuple(
        MeldInfo(meld.cards, names[meld.owner] if 0 <= meld.owner < len(names) else "")
        for meld in view.melds
    )
    footer = ""
    if view.last_move is not None:
        seat, move = view.last_move
        footer = f"{renderer.seat_name(table, seat, t)}: {scala40_move_text(move, t)}"
    title = _("{game} · table {id}").format(game=renderer.game_name(table, t), id=table.id)
    return TableScene(
        title=title + " · " + _("hand {n}").format(n=view.hand_number),
        seats=tuple(seats),
        melds=melds,
        pile_top=view.pile_top,
        stock=view.stock_count,
        footer=footer,
    )


def hand_scene(
    renderer: Renderer, event: HandView, *, selected: frozenset[int] = frozenset()
) -> HandScene | None:
    """One player's hand in the engine's order (the order of the card buttons); ``None`` for a
    view without a hand of cards."""
    if not hasattr(event.view, "hand"):
        return None
    # An empty hand (between deals) is drawn too, so the hand message stays a picture.
    held = tuple(event.view.hand or ())
    hand = tuple(card for card in held if isinstance(card, Card))
    if len(hand) != len(held):
        return None
    t = renderer.translations(event.locale)
    title = t.gettext("{game} · table {id}").format(
        game=renderer.game_name(event.table, t), id=event.table.id
    )
    selected = frozenset(i for i in selected if 0 <= i < len(hand))
    return HandScene(hand, selected=selected, title=title)


class Pictures:
    """Draws the pictures of table and hand events; one per process, built by the composition
    root (``bot.cli.compose.build_pictures``) and handed to every adapter.

    ``enabled`` is the ``IMAGES`` setting. ``state`` keeps the deck style a chat or user
    chose (the store in production, so it survives restarts and is shared by processes; none:
    every deck in its default style).
    """

    def __init__(
        self,
        renderer: Renderer,
        images: ImageRenderer,
        *,
        enabled: bool = True,
        state: AdapterState | None = None,
        history: RatingHistory | None = None,
        chat_pictures: ChatPictures | None = None,
    ) -> None:
        self.renderer = renderer
        self._chat_pictures = chat_pictures
        self.images = images
        self.enabled = enabled and images.enabled
        self.state = state
        self._history = history

    async def preferred(self, platform: str, owner: str) -> str | None:
        """The style a chat or user picked (``None``: none, or it is unknown now)."""
        if self.state is None:
            return None
        try:
            found = await self.state.state_get(platform=platform, kind=STYLE, scope=owner)
        except Exception as error:  # a lost preference must not cost the picture
            logger.warning("could not read the deck style of %s: %s", owner, error)
            return None
        return found if found in style_names() else None

    def style_label(self, style: str | None, locale: str | None) -> str:
        """A style's name for people, in ``locale`` (``None``: the defaults)."""
        t = self.renderer.translations(locale)
        return t.gettext(STYLE_LABELS.get(style or DEFAULT_STYLE, style or DEFAULT_STYLE))

    @staticmethod
    def style_choices() -> tuple[str, ...]:
        """Every choice a chat or user has: each style, then "default"."""
        return (*style_names(), DEFAULT_STYLE)

    async def set_style(self, style: str | None, *, platform: str, owner: str) -> None:
        """A chat's or user's deck style (``None`` or "default": back to the defaults);
        ``ValueError`` for a name that is not a style (the message lists them)."""
        if self.state is None:
            raise ValueError("deck styles cannot be chosen here")
        if style is None or style == DEFAULT_STYLE:
            await self.state.state_delete(platform=platform, kind=STYLE, scope=owner)
            return
        if style not in style_names():
            raise ValueError(f"unknown style {style!r}: {', '.join(style_names())}")
        await self.state.state_put(style, platform=platform, kind=STYLE, scope=owner)

    async def style_for(self, table: TableInfo, *owners: str) -> str:
        """The style to draw ``table``'s deck: the first owner's preference that can draw it."""
        deck = deck_of(table)
        for owner in owners:
            preferred = await self.preferred(table.platform, owner)
            if preferred is not None and preferred in style_names(deck):
                return preferred
        return choose_style(None, deck)

    async def wanted(self, table: TableInfo) -> bool:
        """Whether the table's chat wants pictures (``/settings``; on unless switched off)."""
        if self._chat_pictures is None:
            return True
        try:
            return await self._chat_pictures(table.platform, table.chat_id)
        except Exception as error:  # a lost setting must not cost the message
            logger.warning("could not read the pictures setting of %s: %s", table.chat_id, error)
            return True

    async def table(self, event: TableView) -> RenderedImage | None:
        """The picture of a public table; ``None`` when pictures are off or it cannot be drawn."""
        if not self.enabled or not await self.wanted(event.table):
            return None
        try:
            scene = table_scene(self.renderer, event)
            if scene is None:
                return None
            style = await self.style_for(event.table, event.table.chat_id)
            return await asyncio.to_thread(self.images.table, scene, style=style)
        except ValueError as error:
            logger.warning("no picture for table %s: %s", event.table.id, error)
            return None

    async def stats(self, event: Stats) -> RenderedImage | None:
        """The /stats picture: the player's global rating over time in the first game family
        of the statistics (``None`` with fewer than two games, or pictures off)."""
        if not self.enabled or self._history is None or not event.rows:
            return None
        family, _, row = next((r for r in event.rows if r[1] == "global"), event.rows[0])
        try:
            history = await self._history(platform=row.platform, user_id=row.user_id, family=family)
            if len(history) < 2:
                return None
            t = self.renderer.translations(event.locale)
            chart = RatingChart(
                title=t.gettext("Rating of {name}").format(name=event.name),
                subtitle=t.gettext(GAME_NAMES.get(family, family)),
                points=tuple(
                    RatingPoint(dt.datetime.fromtimestamp(when, dt.UTC), rating)
                    for when, rating in history
                ),
            )
            return await asyncio.to_thread(self.images.rating_chart, chart)
        except ValueError as error:
            logger.warning("no rating chart for %s: %s", event.name, error)
            return None

    async def hand(
        self, event: HandView, *, selected: frozenset[int] = frozenset()
    ) -> RenderedImage | None:
        """The picture of a player's hand (``selected``: positions drawn raised)."""
        if not self.enabled or not await self.wanted(event.table):
            return None
        try:
            scene = hand_scene(self.renderer, event, selected=selected)
            if scene is None:
                return None
            # A private hand follows its player's style, else the table's chat's.
            style = await self.style_for(event.table, event.audience.id, event.table.chat_id)
            return await asyncio.to_thread(self.images.hand, scene, style=style)
        except ValueError as error:
            logger.warning("no picture for a hand of table %s: %s", event.table.id, error)
            return None
