"""The slash commands, their option choices, and their Italian localizations.

The commands are grouped the discord.py way, in cogs (``commands.Cog`` subclasses holding their
``@app_commands.command`` methods), each given the handler's core: ``game_commands.GameCommands``
(the commands opening tables), ``table_commands.TableCommands`` (the channel's table) and
``chat_commands.ChatCommands`` (players and the channel). A command gathers its options and does
its part with the service (``slash.Slash``: the steps every command shares). Names and
descriptions are written in English (Discord's default) and localized for Italian by
:class:`ItalianTranslator`, so Italian clients see ``/classifica``, ``giocatori``, ``facile``.

Modules: ``command_base`` (option values, words), ``command_texts`` (Italian names, the
descriptions, the translator), ``option_choices`` (rule option values from the engines), the three
cogs; here the cogs in order, and the order of the commands in the tree (and so in ``/help``).

Glossary: *briscola* (the trump suit, and the game), *chiamata* (Briscola for five: the auction
winner, the *chiamante*, calls a card whose holder is their secret partner, the *socio*),
*scambio* (swapping the 2 or 7 of briscola for the face-up card), *cappotto* (all 120 points),
*scopone scientifico* (Scopone dealt 10 cards each, none on the table), *napola* (A-2-3
of coins), *re bello* (the king of coins), *primiera* (the best card per suit), *vantaggio di due*
(win by two).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.chat_commands import ChatCommands
from bot.discord.command_texts import ITALIAN_NAMES, TEXTS, ItalianTranslator
from bot.discord.game_commands import GameCommands
from bot.discord.table_commands import TableCommands

__all__ = [
    "COMMAND_COGS",
    "COMMAND_ORDER",
    "ITALIAN_NAMES",
    "TEXTS",
    "ItalianTranslator",
    "add_cogs",
    "declare_commands",
]

# The cogs that hold the slash commands (``ServiceHandler`` builds one of each).
COMMAND_COGS: tuple[type[commands.Cog], ...] = (GameCommands, TableCommands, ChatCommands)
# The order of the commands in the tree: what Discord receives (its fingerprint, so a deployed bot
# does not sync again) and what ``/help`` lists. A command not named here comes last.
COMMAND_ORDER = (
    "notify",
    "scopa",
    "scopone",
    "scala40",
    "briscola",
    "chiamata",
    "leaderboard",
    "stats",
    "rules",
    "hand",
    "help",
    "lang",
    "style",
    "abandon",
    "leave",
    "kick",
    "settings",
)


async def add_cogs(bot: commands.Bot, cogs: Sequence[commands.Cog]) -> None:
    """Add the cogs' commands to ``bot``'s tree (global commands), in ``COMMAND_ORDER``."""
    for cog in cogs:
        await bot.add_cog(cog, override=True)
    _order(bot.tree)


def declare_commands(tree: app_commands.CommandTree[discord.Client]) -> None:
    """The cogs' commands as declared by their classes, on a tree that only syncs them (the CLI's
    REST-only sync: no command runs there, so no cog and no service is built)."""
    for cog in COMMAND_COGS:
        for command in vars(cog).values():
            if isinstance(command, app_commands.Command):
                tree.add_command(command, override=True)
    _order(tree)


def _order(tree: app_commands.CommandTree[discord.Client]) -> None:
    def rank(name: str) -> int:
        return COMMAND_ORDER.index(name) if name in COMMAND_ORDER else len(COMMAND_ORDER)

    for command in sorted(tree.get_commands(), key=lambda c: rank(c.name)):  # a stable sort
        tree.remove_command(command.name)
        tree.add_command(command)
