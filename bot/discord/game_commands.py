"""The slash commands that open a table: /scopa, /scopone, /scala40, /briscola, /chiamata.

``GameCommands`` is a discord.py cog: each command gathers its options and opens a table of its
game with the service. The values its rule options offer come from the engines
(``bot.discord.option_choices``, read once when this module is imported: a value an engine adds
appears without an edit here); the options themselves and their descriptions are chosen here (a
few of each game's, as a slash command shows them all at once).
"""

from __future__ import annotations

import asyncio

from discord import app_commands
from discord.ext import commands

from bot.discord.command_base import t as _t
from bot.discord.handler_core import CommandRun, HandlerCore, SlashCall
from bot.discord.interaction import Interaction
from bot.discord.option_choices import OptionChoices
from bot.discord.replies import defer_command
from bot.discord.routing import EventRouting
from bot.discord.settings_menu import is_channel_admin
from bot.discord.slash import Slash
from bot.service import Result

__all__ = ["DEFER_AFTER", "SEATING_OPTIONS", "GameCommands"]

# Options of the table commands that are not rule options.
SEATING_OPTIONS = ("players", "computers", "level")
# A table command answers with the table itself; only a slower service gets "thinking…" first.
DEFER_AFTER = 1.5

# The games' option values, from the engines and the service's default game kinds: the command
# definitions below are the class's, copied for each cog by discord.py.
_CHOICES = OptionChoices()
_LEVELS = _CHOICES.levels()


class GameCommands(commands.Cog):
    """/scopa, /scopone, /scala40, /briscola, /chiamata: open a table in the channel."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.slash = Slash(core, routing)

    def _opener(self, game: str) -> CommandRun:
        async def run(call: SlashCall) -> Result:
            return await self.open_game(call, game)

        return run

    async def open_game(self, call: SlashCall, game: str) -> Result:
        """Open a table of ``game``. No public "thinking…" unless the service is slow: a refusal
        (a table is already open here) then stays private, and a new table is the command's own
        reply."""
        admin = is_channel_admin(call.interaction)
        opening = asyncio.ensure_future(self._open_table(call, game, is_admin=admin))
        done, _ = await asyncio.wait({opening}, timeout=DEFER_AFTER)
        if not done:
            await defer_command(call.interaction, private=False)
        return await opening

    async def _open_table(self, call: SlashCall, game: str, *, is_admin: bool = False) -> Result:
        # The rule options: numbers, words and flags (the engine's Rules check them).
        rules = {
            k: v
            for k, v in call.options.items()
            if k not in SEATING_OPTIONS and isinstance(v, int | float | str)
        }
        return await self.core.service.create_table(
            call.chat,
            call.user,
            game,
            players=call.number("players"),
            options=rules,
            is_admin=is_admin,
            computers=call.number("computers") or 0,
            level=call.text("level") or "easy",
        )

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
        players=_CHOICES.players("scopa"),
        target=_CHOICES.numbers("scopa", "target"),
        computers=_CHOICES.computers("scopa"),
    )
    @app_commands.choices(level=_LEVELS, primiera=_CHOICES.words("scopa", "primiera_missing_suit"))
    @app_commands.guild_only()
    async def scopa_command(
        self,
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
        await self.slash(
            interaction,
            self._opener("scopa"),
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
    @app_commands.choices(variant=_CHOICES.variants("scopone", besides="scopa"), level=_LEVELS)
    @app_commands.choices(
        target=_CHOICES.numbers("scopone", "target"), computers=_CHOICES.computers("scopone")
    )
    @app_commands.guild_only()
    async def scopone_command(
        self,
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
        await self.slash(
            interaction,
            self._opener(variant or "scopone"),
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
        players=_CHOICES.players("scala40"),
        computers=_CHOICES.computers("scala40"),
        elimination=_CHOICES.numbers("scala40", "elimination"),
        opening_points=_CHOICES.numbers("scala40", "opening_points"),
        jokers_per_meld=_CHOICES.numbers("scala40", "jokers_per_meld"),
    )
    @app_commands.choices(
        level=_LEVELS,
        close_in_hand=_CHOICES.words("scala40", "close_in_hand"),
        unopened_pays=_CHOICES.words("scala40", "unopened_pays"),
    )
    @app_commands.guild_only()
    async def scala40_command(
        self,
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
        await self.slash(
            interaction,
            self._opener("scala40"),
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
        players=_CHOICES.players("briscola"),
        computers=_CHOICES.computers("briscola"),
        target=_CHOICES.numbers("briscola", "target"),
    )
    @app_commands.choices(
        level=_LEVELS,
        deal_scoring=_CHOICES.words("briscola", "deal_scoring"),
        swap=_CHOICES.words("briscola", "swap"),
    )
    @app_commands.guild_only()
    async def briscola_command(
        self,
        interaction: Interaction,
        players: int | None = None,
        computers: int | None = None,
        level: str | None = None,
        target: int | None = None,
        deal_scoring: str | None = None,
        swap: str | None = None,
    ) -> None:
        """Open a Briscola table."""
        await self.slash(
            interaction,
            self._opener("briscola"),
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
        computers=_CHOICES.computers("chiamata"), deals=_CHOICES.numbers("chiamata", "deals")
    )
    @app_commands.choices(level=_LEVELS)
    @app_commands.guild_only()
    async def chiamata_command(
        self,
        interaction: Interaction,
        computers: int | None = None,
        level: str | None = None,
        deals: int | None = None,
        point_bids: bool | None = None,
        cappotto: bool | None = None,
    ) -> None:
        """Open a Briscola chiamata table."""
        await self.slash(
            interaction,
            self._opener("chiamata"),
            computers=computers,
            level=level,
            deals=deals,
            point_bids=point_bids,
            cappotto=cappotto,
        )


del _CHOICES, _LEVELS  # read for the definitions above only: nothing kept at module level
