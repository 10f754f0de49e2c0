"""What the terminal writes, shared by the game loop, the move reader and the screen after
moves: the player's language, lines wrapped to the terminal, a move's label per family and the
family's help. One ``Console`` per session, given to each part that writes."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from bot.render import Renderer
from bot.render.typed import suit_help

from .layout import terminal_width, wrap
from .texts import HELP_SCOPA, HELPS

__all__ = ["PLATFORM", "Console"]

PLATFORM = "terminal"


class Console:
    """The writing half of terminal play: where it writes, in which language (``locale``
    follows the events shown) and how wide."""

    def __init__(
        self,
        renderer: Renderer,
        out: TextIO,
        *,
        locale: str = "it",
        width: Callable[[], int] | None = None,
    ) -> None:
        self.renderer = renderer
        self.out = out
        self.locale = locale
        self.width = width or terminal_width

    def translate(self, text: str, locale: str | None = None) -> str:
        return self.renderer.translations(locale or self.locale).gettext(text)

    def say(self, text: str) -> None:
        """Write ``text``, each line wrapped at word boundaries to the terminal's width."""
        width = max(self.width() - 1, 20)
        for line in text.split("\n"):
            for part in wrap(line, width):
                self.out.write(part + "\n")
        self.out.flush()

    def label(self, family: str, move: str) -> str:
        return self.renderer.move_label(family, move, self.locale)

    def help(self, family: str) -> str:
        text = HELPS.get(family, HELP_SCOPA)
        return self.translate(text).format(letters=suit_help(self.locale))
