"""What the composition root hands to every front end: one typed :class:`App`.

``bot.cli`` builds it once per process (:func:`bot.cli.compose.build_app`) and passes it to each
adapter's ``serve(app)``. An adapter takes what it needs from it and never looks anything up or
creates a shared object of its own: the adapter state and the card pictures are the process's
one instance, so Telegram and Discord share the deck styles, the file ids and the picture cache.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Types only: terminal play imports this module too, and starts without the pictures' PIL.
    import asyncio

    from bot.config import Settings
    from bot.render import Renderer
    from bot.render.pictures import Pictures
    from bot.service import Result, TableService
    from bot.service.ports import AdapterState
    from bot.web import WebTable

__all__ = ["App", "Delivery"]

# How an adapter takes the results that no update of its own caused (the turn timers').
Delivery = Callable[["Result"], Awaitable[None]]


@dataclass
class App:
    """The settings, the service, the renderer, the stop event, the adapter state (the store in
    production) and the card pictures of one process; plus where timer results go."""

    settings: Settings
    service: TableService
    renderer: Renderer
    stop: asyncio.Event
    state: AdapterState
    pictures: Pictures
    deliveries: dict[str, Delivery] = field(default_factory=dict)
    # The web table (``bot.web.WebTable``) when WEB_PORT is set: the adapters ask it who has a
    # table open, and put its button on the table messages.
    web: WebTable | None = None

    def deliver_to(self, platform: str, fn: Delivery) -> None:
        """``fn(result)`` is awaited for every timer result whose table is on ``platform``."""
        self.deliveries[platform] = fn
