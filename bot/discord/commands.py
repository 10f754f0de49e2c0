"""The slash commands, their option choices, and their Italian localizations.

Every command only gathers its options and hands them to the bot's handler
(``handler.command(interaction, name, options)``): what the options mean is the service's business.
Names and descriptions are written in English (Discord's default) and localized for Italian by
:class:`ItalianTranslator`, so Italian clients see ``/classifica``, ``giocatori``, ``facile``.

Glossary: *briscola* (the trump suit, and the game), *chiamata* (Briscola for five: the auction
winner, the *chiamante*, calls a card whose holder is their secret partner, the *socio*),
*scambio* (swapping the 2 or 7 of briscola for the face-up card), *cappotto* (all 120 points),
*scopone scientifico* (Scopone dealt 10 cards each, none on the table), *napola* (A-2-3
of coins), *re bello* (the king of coins), *primiera* (the best card per suit), *vantaggio di due*
(win by two).
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.render.i18n import Catalogs

logger = logging.getLogger(__name__)


def N_(message: str) -> str:
    """Marks a string for extraction, translated later."""
    return message


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
    N_("easy"),
    N_("medium"),
    N_("hard"),
    N_("Scopone (FIGS)"),
    N_("Scopone scientifico"),
    N_("everyone"),
    N_("this channel"),
    N_("strict (no suit, no primiera)"),
    N_("lenient"),
    N_("pay double"),
    N_("bonus to the closer"),
    N_("no effect"),
    N_("the sum of the hand"),
    N_("a flat 100"),
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
    N_("one game to the deal's winner"),
    N_("card points add up"),
    N_("Swap the 2 or the 7 of briscola for the face-up card"),
    N_("no swap"),
    N_("the 2"),
    N_("the 7"),
    N_("Number of deals"),
    N_("After the 2, bid points (61 or more)"),
    N_("Taking all 120 points doubles the scores"),
    N_("Briscola"),
    N_("Briscola chiamata"),
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


@runtime_checkable
class CommandHandler(Protocol):
    async def command(
        self, interaction: discord.Interaction[Any], name: str, options: Mapping[str, Any]
    ) -> None:
        """Run the slash command ``name`` with the options the user gave (unset ones left out)."""


def _handler(interaction: discord.Interaction[Any]) -> CommandHandler:
    handler = getattr(interaction.client, "handler", None)
    if not isinstance(handler, CommandHandler):
        raise TypeError("the client has no command handler: use bot.discord.bot.TavoloBot")
    return handler


async def _forward(interaction: discord.Interaction[Any], name: str, **options: Any) -> None:
    given = {key: value for key, value in options.items() if value is not None}
    await _handler(interaction).command(interaction, name, given)


def _t(text: str) -> locale_str:
    return locale_str(text)


def _numbers(*values: int) -> list[Choice[int]]:
    return [Choice(name=str(v), value=v) for v in values]


def _named(*pairs: tuple[str, str]) -> list[Choice[str]]:
    return [Choice(name=_t(label), value=value) for label, value in pairs]


def build_commands() -> list[app_commands.Command[Any, ..., Any]]:
    """Fresh command objects (one set per bot: a command belongs to one tree)."""
    LEVELS = _named(("easy", "easy"), ("medium", "medium"), ("hard", "hard"))

    @app_commands.command(name=_t("scopa"), description=_t("Open a Scopa table in this channel"))
    @app_commands.rename(
        **{k: _t(k) for k in ("players", "target", "computers", "level", "napola", "re_bello")},
        **{k: _t(k) for k in ("asso_piglia_tutto", "scopa_a_15", "obbligo_di_presa")},
        **{k: _t(k) for k in ("win_by_two", "primiera", "rejoin")},
    )
    @app_commands.describe(
        players=_t("Number of players"),
        target=_t("Points to win"),
        computers=_t("Computer players to seat at once"),
        level=_t("How strong the computer plays"),
        napola=_t("Napola: A-2-3 of coins score"),
        re_bello=_t("Re bello: the king of coins scores a point"),
        asso_piglia_tutto=_t("An ace captures the whole table"),
        scopa_a_15=_t("Also capture sets adding up to 15"),
        obbligo_di_presa=_t("A card that can capture must be played"),
        win_by_two=_t("Win only with a lead of two points"),
        primiera=_t("Primiera when a side lacks a suit"),
        rejoin=_t("Players who leave may take their seat back"),
    )
    @app_commands.choices(
        players=_numbers(2, 3, 4),
        target=_numbers(11, 16, 21, 31),
        computers=_numbers(0, 1, 2, 3),
    )
    @app_commands.choices(
        level=LEVELS,
        primiera=_named(("strict (no suit, no primiera)", "void"), ("lenient", "lenient")),
    )
    @app_commands.guild_only()
    async def scopa_command(
        interaction: discord.Interaction[Any],
        players: int | None = None,
        target: int | None = None,
        computers: int | None = None,
        level: str | None = None,
        napola: bool | None = None,
        re_bello: bool | None = None,
        asso_piglia_tutto: bool | None = None,
        scopa_a_15: bool | None = None,
        obbligo_di_presa: bool | None = None,
        win_by_two: bool | None = None,
        primiera: str | None = None,
        rejoin: bool | None = None,
    ) -> None:
        """Open a Scopa table."""
        await _forward(
            interaction,
            "scopa",
            players=players,
            target=target,
            computers=computers,
            level=level,
            napola=napola,
            re_bello=re_bello,
            asso_piglia_tutto=asso_piglia_tutto,
            scopa_a_15=scopa_a_15,
            obbligo_di_presa=obbligo_di_presa,
            win_by_two=win_by_two,
            primiera_missing_suit=primiera,
            rejoin=rejoin,
        )

    @app_commands.command(
        name=_t("scopone"), description=_t("Open a Scopone table (4 players, in pairs)")
    )
    @app_commands.rename(
        **{k: _t(k) for k in ("variant", "target", "computers", "level", "napola", "re_bello")},
        rejoin=_t("rejoin"),
    )
    @app_commands.describe(
        variant=_t("Which Scopone"),
        target=_t("Points to win"),
        computers=_t("Computer players to seat at once"),
        level=_t("How strong the computer plays"),
        napola=_t("Napola: A-2-3 of coins score"),
        re_bello=_t("Re bello: the king of coins scores a point"),
        rejoin=_t("Players who leave may take their seat back"),
    )
    @app_commands.choices(
        variant=_named(("Scopone (FIGS)", "scopone"), ("Scopone scientifico", "scientifico")),
        level=LEVELS,
    )
    @app_commands.choices(target=_numbers(8, 11, 16, 21), computers=_numbers(0, 1, 2, 3))
    @app_commands.guild_only()
    async def scopone_command(
        interaction: discord.Interaction[Any],
        variant: str | None = None,
        target: int | None = None,
        computers: int | None = None,
        level: str | None = None,
        napola: bool | None = None,
        re_bello: bool | None = None,
        rejoin: bool | None = None,
    ) -> None:
        """Open a Scopone table."""
        await _forward(
            interaction,
            variant or "scopone",
            target=target,
            computers=computers,
            level=level,
            napola=napola,
            re_bello=re_bello,
            rejoin=rejoin,
        )

    @app_commands.command(
        name=_t("scala40"), description=_t("Open a Scala 40 table in this channel")
    )
    @app_commands.rename(
        **{k: _t(k) for k in ("players", "computers", "level", "elimination", "opening_points")},
        **{k: _t(k) for k in ("close_in_hand", "unopened_pays", "jokers_per_meld", "rejoin")},
    )
    @app_commands.describe(
        players=_t("Number of players"),
        computers=_t("Computer players to seat at once"),
        level=_t("How strong the computer plays"),
        elimination=_t("Score that eliminates a player"),
        opening_points=_t("Points needed to open"),
        close_in_hand=_t("Closing in hand without having opened"),
        unopened_pays=_t("What a player who never opened pays"),
        jokers_per_meld=_t("Jokers allowed in one meld"),
        rejoin=_t("Players who leave may take their seat back"),
    )
    @app_commands.choices(
        players=_numbers(2, 3, 4, 5, 6),
        computers=_numbers(0, 1, 2, 3, 4, 5),
        elimination=_numbers(101, 151, 201, 501),
        opening_points=_numbers(40, 0),
        jokers_per_meld=_numbers(1, 2),
    )
    @app_commands.choices(
        level=LEVELS,
        close_in_hand=_named(
            ("pay double", "double"), ("bonus to the closer", "bonus"), ("no effect", "off")
        ),
        unopened_pays=_named(("the sum of the hand", "sum"), ("a flat 100", "100")),
    )
    @app_commands.guild_only()
    async def scala40_command(
        interaction: discord.Interaction[Any],
        players: int | None = None,
        computers: int | None = None,
        level: str | None = None,
        elimination: int | None = None,
        opening_points: int | None = None,
        close_in_hand: str | None = None,
        unopened_pays: str | None = None,
        jokers_per_meld: int | None = None,
        rejoin: bool | None = None,
    ) -> None:
        """Open a Scala 40 table."""
        await _forward(
            interaction,
            "scala40",
            players=players,
            computers=computers,
            level=level,
            elimination=elimination,
            opening_points=opening_points,
            close_in_hand=close_in_hand,
            unopened_pays=unopened_pays,
            jokers_per_meld=jokers_per_meld,
            rejoin=rejoin,
        )

    @app_commands.command(
        name=_t("briscola"), description=_t("Open a Briscola table (2, 3 or 4 players)")
    )
    @app_commands.rename(
        **{k: _t(k) for k in ("players", "computers", "level", "target", "deal_scoring", "swap")}
    )
    @app_commands.describe(
        players=_t("Number of players"),
        computers=_t("Computer players to seat at once"),
        level=_t("How strong the computer plays"),
        target=_t("Deals (or points) to win"),
        deal_scoring=_t("How a deal counts"),
        swap=_t("Swap the 2 or the 7 of briscola for the face-up card"),
    )
    @app_commands.choices(
        players=_numbers(2, 3, 4),
        computers=_numbers(0, 1, 2, 3),
        target=_numbers(1, 2, 3, 5, 121, 241),
    )
    @app_commands.choices(
        level=LEVELS,
        deal_scoring=_named(
            ("one game to the deal's winner", "win"), ("card points add up", "points")
        ),
        swap=_named(("no swap", "off"), ("the 2", "two"), ("the 7", "seven")),
    )
    @app_commands.guild_only()
    async def briscola_command(
        interaction: discord.Interaction[Any],
        players: int | None = None,
        computers: int | None = None,
        level: str | None = None,
        target: int | None = None,
        deal_scoring: str | None = None,
        swap: str | None = None,
    ) -> None:
        """Open a Briscola table."""
        await _forward(
            interaction,
            "briscola",
            players=players,
            computers=computers,
            level=level,
            target=target,
            deal_scoring=deal_scoring,
            swap=swap,
        )

    @app_commands.command(
        name=_t("chiamata"), description=_t("Open a Briscola chiamata table (5 players)")
    )
    @app_commands.rename(
        **{k: _t(k) for k in ("computers", "level", "deals", "point_bids", "cappotto")}
    )
    @app_commands.describe(
        computers=_t("Computer players to seat at once"),
        level=_t("How strong the computer plays"),
        deals=_t("Number of deals"),
        point_bids=_t("After the 2, bid points (61 or more)"),
        cappotto=_t("Taking all 120 points doubles the scores"),
    )
    @app_commands.choices(computers=_numbers(0, 1, 2, 3, 4), deals=_numbers(1, 5, 10))
    @app_commands.choices(level=LEVELS)
    @app_commands.guild_only()
    async def chiamata_command(
        interaction: discord.Interaction[Any],
        computers: int | None = None,
        level: str | None = None,
        deals: int | None = None,
        point_bids: bool | None = None,
        cappotto: bool | None = None,
    ) -> None:
        """Open a Briscola chiamata table."""
        await _forward(
            interaction,
            "chiamata",
            computers=computers,
            level=level,
            deals=deals,
            point_bids=point_bids,
            cappotto=cappotto,
        )

    FAMILIES = _named(
        ("Scopa", "scopa"),
        ("Scala 40", "scala40"),
        ("Briscola", "briscola"),
        ("Briscola chiamata", "chiamata"),
    )

    @app_commands.command(name=_t("leaderboard"), description=_t("Show the leaderboard"))
    @app_commands.rename(game=_t("game"), scope=_t("scope"), period=_t("period"))
    @app_commands.describe(
        game=_t("Which game"), scope=_t("Whose leaderboard"), period=_t("This season, or all time")
    )
    @app_commands.choices(
        game=FAMILIES,
        scope=_named(("everyone", "global"), ("this channel", "chat")),
        period=_named(("this season", "season"), ("all time", "all")),
    )
    async def leaderboard_command(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        scope: str | None = None,
        period: str | None = None,
    ) -> None:
        """Show a leaderboard."""
        await _forward(interaction, "leaderboard", family=game, scope=scope, period=period)

    @app_commands.command(name=_t("stats"), description=_t("Show a player's statistics"))
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player (default: you)"))
    async def stats_command(
        interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Show a player's statistics."""
        await _forward(interaction, "stats", player=player)

    @app_commands.command(
        name=_t("rules"), description=_t("Show the rules of this channel's table")
    )
    async def rules_command(interaction: discord.Interaction[Any]) -> None:
        """Show the rule options of the channel's table."""
        await _forward(interaction, "rules")

    @app_commands.command(
        name=_t("hand"), description=_t("Show your hand here, or by direct message")
    )
    @app_commands.rename(dm=_t("dm"))
    @app_commands.describe(dm=_t("Send it, and your turn notices, by direct message"))
    @app_commands.guild_only()
    async def hand_command(interaction: discord.Interaction[Any], dm: bool = False) -> None:
        """Show the user's hand (privately, or by DM)."""
        await _forward(interaction, "hand", dm=dm)

    @app_commands.command(name=_t("help"), description=_t("How to play with Tavolo"))
    async def help_command(interaction: discord.Interaction[Any]) -> None:
        """Show how to play."""
        await _forward(interaction, "help")

    @app_commands.command(name=_t("lang"), description=_t("Choose your language"))
    @app_commands.rename(language=_t("language"), scope=_t("scope"))
    @app_commands.describe(
        language=_t("Language"), scope=_t("Your own language, or this channel's (admins)")
    )
    @app_commands.choices(
        language=_named(("Italiano", "it"), ("English", "en")),
        scope=_named(("just me", "me"), ("this channel", "chat")),
    )
    async def lang_command(
        interaction: discord.Interaction[Any], language: str, scope: str = "me"
    ) -> None:
        """Set the user's language, or the channel's."""
        await _forward(interaction, "lang", language=language, scope=scope)

    @app_commands.command(name=_t("style"), description=_t("Deck style of the card pictures"))
    @app_commands.rename(deck=_t("deck"), scope=_t("scope"))
    @app_commands.describe(deck=_t("The deck style"), scope=_t("For this channel, or just for you"))
    @app_commands.choices(
        deck=_named(
            ("Neapolitan cards", "napoletane"),
            ("Piacentine cards", "piacentine"),
            ("French cards", "francesi"),
            ("French cards, four colours", "francesi4"),
            ("Default (Neapolitan; French for Scala 40)", "default"),
        ),
        scope=_named(("this channel", "chat"), ("just me", "me")),
    )
    async def style_command(
        interaction: discord.Interaction[Any], deck: str, scope: str = "chat"
    ) -> None:
        """Choose the deck style of the pictures (the channel's, or one's own)."""
        await _forward(interaction, "style", deck=deck, scope=scope)

    @app_commands.command(
        name=_t("abandon"),
        description=_t("Close this channel's table for everyone (its creator or an admin)"),
    )
    @app_commands.guild_only()
    async def abandon_command(interaction: discord.Interaction[Any]) -> None:
        """Close the channel's table, without a result (its creator or an admin)."""
        await _forward(interaction, "abandon")

    @app_commands.command(
        name=_t("leave"),
        description=_t("Leave your game: the computer plays your seat to the end"),
    )
    @app_commands.guild_only()
    async def leave_command(interaction: discord.Interaction[Any]) -> None:
        """Leave the lobby, or the game (a computer plays the seat; it counts as a loss)."""
        await _forward(interaction, "leave")

    @app_commands.command(
        name=_t("kick"),
        description=_t("Remove a player from the table (its creator or an admin)"),
    )
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player to remove (none: choose from a list)"))
    @app_commands.guild_only()
    async def kick_command(
        interaction: discord.Interaction[Any], player: discord.User | None = None
    ) -> None:
        """Remove a seated player (the table's creator or an admin)."""
        await _forward(interaction, "kick", player=player)

    @app_commands.command(name=_t("notify"), description=_t("Turn mentions: on or off"))
    @app_commands.rename(state=_t("state"))
    @app_commands.describe(state=_t("Mention me in the channel when it is my turn"))
    @app_commands.choices(state=_named(("on", "on"), ("off", "off")))
    async def notify_command(interaction: discord.Interaction[Any], state: str) -> None:
        """Turn the user's turn mentions on or off."""
        await _forward(interaction, "notify", state=state)

    @app_commands.command(name=_t("settings"), description=_t("Settings of this chat"))
    async def settings_command(interaction: discord.Interaction[Any]) -> None:
        """The channel's settings (its admins; anyone in a DM with the bot)."""
        await _forward(interaction, "settings")

    return [
        notify_command,
        scopa_command,
        scopone_command,
        scala40_command,
        briscola_command,
        chiamata_command,
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


def register_commands(tree: app_commands.CommandTree[Any]) -> None:
    """Add every Tavolo slash command to ``tree`` (global commands)."""
    for command in build_commands():
        tree.add_command(command, override=True)
