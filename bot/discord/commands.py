"""The slash commands, their option choices, and their Italian localizations.

Every command only gathers its options and hands them to the bot's handler
(``handler.command(interaction, name, options)``): what the options mean is the service's business.
Names and descriptions are written in English (Discord's default) and localized for Italian by
:class:`ItalianTranslator`, so Italian clients see ``/classifica``, ``giocatori``, ``facile``.

Modules: ``command_base`` (forwarding to the handler), ``command_texts`` (Italian names, the
descriptions, the translator), ``option_choices`` (rule option values from the engines),
``game_commands`` (the commands that open tables); here the other commands and the whole tree.

Glossary: *briscola* (the trump suit, and the game), *chiamata* (Briscola for five: the auction
winner, the *chiamante*, calls a card whose holder is their secret partner, the *socio*),
*scambio* (swapping the 2 or 7 of briscola for the face-up card), *cappotto* (all 120 points),
*scopone scientifico* (Scopone dealt 10 cards each, none on the table), *napola* (A-2-3
of coins), *re bello* (the king of coins), *primiera* (the best card per suit), *vantaggio di due*
(win by two).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.command_base import CommandHandler, SlashCommand, named
from bot.discord.command_base import forward as _forward
from bot.discord.command_base import t as _t
from bot.discord.command_texts import ITALIAN_NAMES, TEXTS, ItalianTranslator
from bot.discord.game_commands import build_game_commands
from bot.discord.interaction import Interaction
from bot.discord.option_choices import OptionChoices
from bot.service import Registry

__all__ = [
    "ITALIAN_NAMES",
    "TEXTS",
    "CommandHandler",
    "ItalianTranslator",
    "build_commands",
    "register_commands",
]


def build_commands(*, registry: Registry | None = None) -> list[SlashCommand]:
    """Fresh command objects (one set per bot: a command belongs to one tree), for the games of
    ``registry`` (the service's; by default its default games)."""
    choices = OptionChoices(registry)

    @app_commands.command(name=_t("leaderboard"), description=_t("Show the leaderboard"))
    @app_commands.rename(game=_t("game"), scope=_t("scope"), period=_t("period"))
    @app_commands.describe(
        game=_t("Which game"), scope=_t("Whose leaderboard"), period=_t("This season, or all time")
    )
    @app_commands.choices(
        game=choices.families(),
        scope=named(("everyone", "global"), ("this channel", "chat")),
        period=named(("this season", "season"), ("all time", "all")),
    )
    async def leaderboard_command(
        interaction: Interaction,
        game: str | None = None,
        scope: str | None = None,
        period: str | None = None,
    ) -> None:
        """Show a leaderboard."""
        await _forward(interaction, "leaderboard", family=game, scope=scope, period=period)

    @app_commands.command(name=_t("stats"), description=_t("Show a player's statistics"))
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player (default: you)"))
    async def stats_command(interaction: Interaction, player: discord.User | None = None) -> None:
        """Show a player's statistics."""
        await _forward(interaction, "stats", player=player)

    @app_commands.command(
        name=_t("rules"), description=_t("Show the rules of this channel's table")
    )
    async def rules_command(interaction: Interaction) -> None:
        """Show the rule options of the channel's table."""
        await _forward(interaction, "rules")

    @app_commands.command(
        name=_t("hand"), description=_t("Show your hand here, or by direct message")
    )
    @app_commands.rename(dm=_t("dm"))
    @app_commands.describe(dm=_t("Send it, and your turn notices, by direct message"))
    @app_commands.guild_only()
    async def hand_command(interaction: Interaction, dm: bool = False) -> None:
        """Show the user's hand (privately, or by DM)."""
        await _forward(interaction, "hand", dm=dm)

    @app_commands.command(name=_t("help"), description=_t("How to play with Tavolo"))
    async def help_command(interaction: Interaction) -> None:
        """Show how to play."""
        await _forward(interaction, "help")

    @app_commands.command(name=_t("lang"), description=_t("Choose your language"))
    @app_commands.rename(language=_t("language"), scope=_t("scope"))
    @app_commands.describe(
        language=_t("Language"), scope=_t("Your own language, or this channel's (admins)")
    )
    @app_commands.choices(
        language=named(("Italiano", "it"), ("English", "en")),
        scope=named(("just me", "me"), ("this channel", "chat")),
    )
    async def lang_command(interaction: Interaction, language: str, scope: str = "me") -> None:
        """Set the user's language, or the channel's."""
        await _forward(interaction, "lang", language=language, scope=scope)

    @app_commands.command(name=_t("style"), description=_t("Deck style of the card pictures"))
    @app_commands.rename(deck=_t("deck"), scope=_t("scope"))
    @app_commands.describe(deck=_t("The deck style"), scope=_t("For this channel, or just for you"))
    @app_commands.choices(
        deck=named(
            ("Neapolitan cards", "napoletane"),
            ("Piacentine cards", "piacentine"),
            ("French cards", "francesi"),
            ("French cards, four colours", "francesi4"),
            ("Default (Neapolitan; French for Scala 40)", "default"),
        ),
        scope=named(("this channel", "chat"), ("just me", "me")),
    )
    async def style_command(interaction: Interaction, deck: str, scope: str = "chat") -> None:
        """Choose the deck style of the pictures (the channel's, or one's own)."""
        await _forward(interaction, "style", deck=deck, scope=scope)

    @app_commands.command(
        name=_t("abandon"),
        description=_t("Close this channel's table for everyone (its creator or an admin)"),
    )
    @app_commands.guild_only()
    async def abandon_command(interaction: Interaction) -> None:
        """Close the channel's table, without a result (its creator or an admin)."""
        await _forward(interaction, "abandon")

    @app_commands.command(
        name=_t("leave"),
        description=_t("Leave your game: the computer plays your seat to the end"),
    )
    @app_commands.guild_only()
    async def leave_command(interaction: Interaction) -> None:
        """Leave the lobby, or the game (a computer plays the seat; it counts as a loss)."""
        await _forward(interaction, "leave")

    @app_commands.command(
        name=_t("kick"),
        description=_t("Remove a player from the table (its creator or an admin)"),
    )
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player to remove (none: choose from a list)"))
    @app_commands.guild_only()
    async def kick_command(interaction: Interaction, player: discord.User | None = None) -> None:
        """Remove a seated player (the table's creator or an admin)."""
        await _forward(interaction, "kick", player=player)

    @app_commands.command(name=_t("notify"), description=_t("Turn mentions: on or off"))
    @app_commands.rename(state=_t("state"))
    @app_commands.describe(state=_t("Mention me in the channel when it is my turn"))
    @app_commands.choices(state=named(("on", "on"), ("off", "off")))
    async def notify_command(interaction: Interaction, state: str) -> None:
        """Turn the user's turn mentions on or off."""
        await _forward(interaction, "notify", state=state)

    @app_commands.command(name=_t("settings"), description=_t("Settings of this chat"))
    async def settings_command(interaction: Interaction) -> None:
        """The channel's settings (its admins; anyone in a DM with the bot)."""
        await _forward(interaction, "settings")

    return [
        notify_command,
        *build_game_commands(choices),
        leaderboard_command,
        stats_command,
        rules_command,
        hand_command,
        help_command,
        lang_command,
        style_command,
        abandon_command,
        leave_command,
        kick_command,
        settings_command,
    ]


def register_commands(
    tree: app_commands.CommandTree[discord.Client], *, registry: Registry | None = None
) -> None:
    """Add every Tavolo slash command to ``tree`` (global commands), for the games of
    ``registry`` (the service's; by default its default games)."""
    for command in build_commands(registry=registry):
        tree.add_command(command, override=True)
