"""Play in a terminal against computer players, through the same service and store as the bots.

The game is saved after every move: quitting (``q``, Ctrl-C or Ctrl-D) and running again resumes
it. Input: the number of a listed move, the move typed as the menu shows it (``7♦ ➜ 3♥ 4♠``,
``Discard: 7♦``), or the card(s) alone (``7♦``, ``7♦ 3♥ 4♠``; in Scala 40 ``7♦`` discards and
``7♦8♦9♦`` lays a meld when that is the one way), with the suit symbols or the suit letters of the
player's language (``bot.render.typed``: English H D C S, Italian D C S B). ``h`` shows the game's
help, ``v`` the table, ``q`` quits. After every turn the screen lists each move made since the
player's last one, just above the menu of moves, so it stays on screen.

Games are told apart by family only where they differ: Scala 40's moves are words and melds; every
other family's moves are cards (a card, or a card and what it takes), read the Scopa way.

Inside: ``play`` (the session and the game loop), ``choose`` (a typed line to a move),
``present`` (the screen after moves), ``console`` (what every part writes), ``layout`` (columns
and wrapping to the terminal's width), ``streams`` (input and threads that never hold Ctrl-C),
``texts`` (the help, prompts and command words). Every name below stays importable from here.
"""

from __future__ import annotations

from .choose import MoveChooser
from .console import PLATFORM, Console
from .layout import columns, terminal_width, wrap
from .play import DEFAULT_GAME, MAX_CATCH_UPS, MAX_PROMPTS, NameBook, TerminalPlay
from .present import Presenter
from .streams import DaemonThreads, LineReader
from .texts import (
    HELP,
    HELP_BRISCOLA,
    HELP_SCALA40,
    HELP_SCOPA,
    HELPS,
    PROMPT_SCALA40,
    PROMPT_SCOPA,
    PROMPTS,
    QUIT,
    TABLE,
    YES,
)

__all__ = [
    "DEFAULT_GAME",
    "HELP",
    "HELPS",
    "HELP_BRISCOLA",
    "HELP_SCALA40",
    "HELP_SCOPA",
    "MAX_CATCH_UPS",
    "MAX_PROMPTS",
    "PLATFORM",
    "PROMPTS",
    "PROMPT_SCALA40",
    "PROMPT_SCOPA",
    "QUIT",
    "TABLE",
    "YES",
    "Console",
    "DaemonThreads",
    "LineReader",
    "MoveChooser",
    "NameBook",
    "Presenter",
    "TerminalPlay",
    "columns",
    "terminal_width",
    "wrap",
]
