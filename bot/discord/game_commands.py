"""The slash commands that open a table: /scopa, /scopone, /scala40, /briscola, /chiamata.

Each gathers its options and hands them to the handler; the values its rule options offer come
from the engines (``bot.discord.option_choices``), the options themselves and their descriptions
are chosen here (a few of each game's, as a slash command shows them all at once).
"""

from __future__ import annotations

from discord import app_commands

from bot.discord.command_base import SlashCommand
from bot.discord.command_base import forward as _forward
from bot.discord.command_base import t as _t
from bot.discord.interaction import Interaction
from bot.discord.option_choices import OptionChoices

__all__ = ["build_game_commands"]


def build_game_commands(choices: OptionChoices) -> list[SlashCommand]:
    """Fresh commands that open tables, their choices from ``choices``."""
    levels = choices.levels()

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
        players=choices.players("scopa"),
        target=choices.numbers("scopa", "target"),
        computers=choices.computers("scopa"),
    )
    @app_commands.choices(level=levels, primiera=choices.words("scopa", "primiera_missing_suit"))
    @app_commands.guild_only()
    async def scopa_command(
        interaction: Interaction,
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
    @app_commands.choices(variant=choices.variants("scopone", besides="scopa"), level=levels)
    @app_commands.choices(
        target=choices.numbers("scopone", "target"), computers=choices.computers("scopone")
    )
    @app_commands.guild_only()
    async def scopone_command(
        interaction: Interaction,
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
        players=choices.players("scala40"),
        computers=choices.computers("scala40"),
        elimination=choices.numbers("scala40", "elimination"),
        opening_points=choices.numbers("scala40", "opening_points"),
        jokers_per_meld=choices.numbers("scala40", "jokers_per_meld"),
    )
    @app_commands.choices(
        level=levels,
        close_in_hand=choices.words("scala40", "close_in_hand"),
        unopened_pays=choices.words("scala40", "unopened_pays"),
    )
    @app_commands.guild_only()
    async def scala40_command(
        interaction: Interaction,
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
        players=choices.players("briscola"),
        computers=choices.computers("briscola"),
        target=choices.numbers("briscola", "target"),
    )
    @app_commands.choices(
        level=levels,
        deal_scoring=choices.words("briscola", "deal_scoring"),
        swap=choices.words("briscola", "swap"),
    )
    @app_commands.guild_only()
    async def briscola_command(
        interaction: Interaction,
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
    @app_commands.choices(
        computers=choices.computers("chiamata"), deals=choices.numbers("chiamata", "deals")
    )
    @app_commands.choices(level=levels)
    @app_commands.guild_only()
    async def chiamata_command(
        interaction: Interaction,
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

    return [scopa_command, scopone_command, scala40_command, briscola_command, chiamata_command]
