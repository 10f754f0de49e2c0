"""What the terminal writes, shared by the game loop, the move reader and the screen after
moves: the player's language, lines wrapped to the terminal, a move's label per family and the
family's help."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from bot.render import Renderer
from bot.render.typed import suit_help

from .layout import wrap
from .texts import HELP_SCOPA, HELPS

__all__ = ["PLATFORM", "Console"]

PLATFORM = "terminal"


class Console:
    """The writing half of terminal play (a mixin of ``TerminalPlay``, which sets these)."""

    renderer: Renderer
    out: TextIO
    _locale: str
    _width: Callable[[], int]

    def _(self, text: str, locale: str | None = None) -> str:
        return self.renderer.translations(locale or self._locale).gettext(text)

    def say(self, text: str) -> None:
        """Write ``text``, each line wrapped at word boundaries to the terminal's width."""
        width = max(self._width() - 1, 20)
        for line in text.split("\n"):
            for part in wrap(line, width):
                self.out.write(part + "\n")
        self.out.flush()

    def _label(self, family: str, move: str) -> str:
        return self.renderer.move_label(family, move, self._locale)

    def _help(self, family: str) -> str:
        text = HELPS.get(family, HELP_SCOPA)
        return self._(text).format(letters=suit_help(self._locale))
