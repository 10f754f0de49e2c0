"""The words of the slash commands: Italian names of commands and options, and the descriptions and
choice names every command uses, translated for Italian clients by :class:`ItalianTranslator`, so
Italian clients see ``/classifica``, ``giocatori``, ``facile``.

Names and descriptions are written in English (Discord's default). Choice names of rule options
are in ``bot.discord.option_choices``; game and level names are the renderer's.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.render import N_
from bot.render.i18n import Catalogs

__all__ = ["ITALIAN_NAMES", "TEXTS", "ItalianTranslator"]

# Italian names of commands and options: lowercase, at most 32 of [-_ letters digits].
ITALIAN_NAMES: Mapping[str, str] = {
    "scopa": "scopa",
    "scopone": "scopone",
    "scala40": "scala40",
    "briscola": "briscola",
    "chiamata": "chiamata",
    "deal_scoring": "conteggio",
    "swap": "scambio",
    "deals": "mani",
    "point_bids": "chiamata_a_punti",
    "cappotto": "cappotto",
    "leaderboard": "classifica",
    "stats": "statistiche",
    "rules": "regole",
    "help": "aiuto",
    "lang": "lingua",
    "abandon": "abbandona",
    "leave": "lascia",
    "kick": "espelli",
    "period": "periodo",
    "rejoin": "rientro",
    "hand": "mano",
    "dm": "privato",
    "players": "giocatori",
    "target": "punti",
    "computers": "computer",
    "level": "livello",
    "variant": "variante",
    "napola": "napola",
    "re_bello": "re_bello",
    "asso_piglia_tutto": "asso_piglia_tutto",
    "scopa_a_15": "scopa_a_15",
    "obbligo_di_presa": "obbligo_di_presa",
    "win_by_two": "vantaggio_di_due",
    "primiera": "primiera",
    "elimination": "eliminazione",
    "opening_points": "punti_apertura",
    "close_in_hand": "chiusura_in_mano",
    "unopened_pays": "chi_non_apre_paga",
    "jokers_per_meld": "jolly_per_combinazione",
    "game": "gioco",
    "scope": "ambito",
    "player": "giocatore",
    "language": "lingua",
    "style": "stile",
    "deck": "mazzo",
    "notify": "notifiche",
    "state": "stato",
    "settings": "impostazioni",
}

# Descriptions and choice names, in English (Discord's default); their Italian is in the
# renderer's catalogs (``bot/render/locale``), like every other text of the bot.
TEXTS: tuple[str, ...] = (
    N_("Open a Scopa table in this channel"),
    N_("Open a Scopone table (4 players, in pairs)"),
    N_("Open a Scala 40 table in this channel"),
    N_("Show the leaderboard"),
    N_("Show a player's statistics"),
    N_("How to play with Tavolo"),
    N_("Choose your language"),
    N_("Leave the table you are playing at"),
    N_("Show your hand here, or by direct message"),
    N_("Send it, and your turn notices, by direct message"),
    N_("Show the rules of this channel's table"),
    N_("Number of players"),
    N_("Points to win"),
    N_("Computer players to seat at once"),
    N_("How strong the computer plays"),
    N_("Which Scopone"),
    N_("Napola: A-2-3 of coins score"),
    N_("Re bello: the king of coins scores a point"),
    N_("An ace captures the whole table"),
    N_("Also capture sets adding up to 15"),
    N_("A card that can capture must be played"),
    N_("Win only with a lead of two points"),
    N_("Primiera when a side lacks a suit"),
    N_("Score that eliminates a player"),
    N_("Points needed to open"),
    N_("Closing in hand without having opened"),
    N_("What a player who never opened pays"),
    N_("Jokers allowed in one meld"),
    N_("Which game"),
    N_("Whose leaderboard"),
    N_("The player (default: you)"),
    N_("Language"),
    N_("everyone"),
    N_("this channel"),
    N_("Italiano"),
    N_("English"),
    N_("Deck style of the card pictures"),
    N_("The deck style"),
    N_("For this channel, or just for you"),
    N_("Neapolitan cards"),
    N_("Piacentine cards"),
    N_("French cards"),
    N_("French cards, four colours"),
    N_("Default (Neapolitan; French for Scala 40)"),
    N_("just me"),
    N_("Close this channel's table for everyone (its creator or an admin)"),
    N_("Your own language, or this channel's (admins)"),
    N_("Turn mentions: on or off"),
    N_("Mention me in the channel when it is my turn"),
    N_("on"),
    N_("off"),
    N_("Settings of this chat"),
    N_("Leave your game: the computer plays your seat to the end"),
    N_("Remove a player from the table (its creator or an admin)"),
    N_("The player to remove (none: choose from a list)"),
    N_("This season, or all time"),
    N_("Players who leave may take their seat back"),
    N_("this season"),
    N_("all time"),
    N_("Open a Briscola table (2, 3 or 4 players)"),
    N_("Open a Briscola chiamata table (5 players)"),
    N_("Deals (or points) to win"),
    N_("How a deal counts"),
    N_("Swap the 2 or the 7 of briscola for the face-up card"),
    N_("Number of deals"),
    N_("After the 2, bid points (61 or more)"),
    N_("Taking all 120 points doubles the scores"),
)


_NAME_LOCATIONS = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


class ItalianTranslator(app_commands.Translator):
    """Italian names and descriptions for the command tree (other locales get the English).

    Names come from ``ITALIAN_NAMES`` (identifiers Discord restricts); descriptions and choice
    names from the Italian catalog.
    """

    def __init__(self, italian: gettext.NullTranslations | None = None) -> None:
        self._italian = italian if italian is not None else Catalogs().get("it")

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.italian:
            return None
        if context.location in _NAME_LOCATIONS:
            return ITALIAN_NAMES.get(string.message)
        translated = self._italian.gettext(string.message)
        return translated if translated != string.message else None
