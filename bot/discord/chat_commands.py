"""The slash commands about players and the channel: leaderboards and statistics, languages, deck
styles, turn mentions, the help and the settings menu.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.command_base import named
from bot.discord.command_base import t as _t
from bot.discord.delivery import answer
from bot.discord.handler_core import LANGUAGE_NAMES, PLATFORM, HandlerCore, SlashCall
from bot.discord.interaction import Interaction
from bot.discord.option_choices import OptionChoices
from bot.discord.routing import EventRouting
from bot.discord.settings_menu import is_channel_admin
from bot.discord.slash import Slash
from bot.render.pictures import DEFAULT_STYLE
from bot.service import Audience, Event, Leaderboard, Result, Stats, UserRef

__all__ = ["ChatCommands", "retarget"]


class ChatCommands(commands.Cog):
    """/notify, /leaderboard, /stats, /help, /lang, /style, /settings."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.routing = routing
        self.slash = Slash(core, routing)

    @app_commands.command(name=_t("notify"), description=_t("Turn mentions: on or off"))
    @app_commands.rename(state=_t("state"))
    @app_commands.describe(state=_t("Mention me in the channel when it is my turn"))
    @app_commands.choices(state=named(("on", "on"), ("off", "off")))
    async def notify_command(self, interaction: Interaction, state: str) -> None:
        """Turn the user's turn mentions on or off."""
        await self.slash(interaction, self._notify, state=state)

    @app_commands.command(name=_t("leaderboard"), description=_t("Show the leaderboard"))
    @app_commands.rename(game=_t("game"), scope=_t("scope"), period=_t("period"))
    @app_commands.describe(
        game=_t("Which game"), scope=_t("Whose leaderboard"), period=_t("This season, or all time")
    )
    @app_commands.choices(
        game=OptionChoices().families(),
        scope=named(("everyone", "global"), ("this channel", "chat")),
        period=named(("this season", "season"), ("all time", "all")),
    )
    async def leaderboard_command(
        self,
        interaction: Interaction,
        game: str | None = None,
        scope: str | None = None,
        period: str | None = None,
    ) -> None:
        """Show a leaderboard."""
        await self.slash(interaction, self._leaderboard, family=game, scope=scope, period=period)

    @app_commands.command(name=_t("stats"), description=_t("Show a player's statistics"))
    @app_commands.rename(player=_t("player"))
    @app_commands.describe(player=_t("The player (default: you)"))
    async def stats_command(
        self, interaction: Interaction, player: discord.User | None = None
    ) -> None:
        """Show a player's statistics."""
        await self.slash(interaction, self._stats, player=player)

    @app_commands.command(name=_t("help"), description=_t("How to play with Tavolo"))
    async def help_command(self, interaction: Interaction) -> None:
        """Show how to play."""
        await self.slash(interaction, self._help_reply)

    @app_commands.command(name=_t("lang"), description=_t("Choose your language"))
    @app_commands.rename(language=_t("language"), scope=_t("scope"))
    @app_commands.describe(
        language=_t("Language"), scope=_t("Your own language, or this channel's (admins)")
    )
    @app_commands.choices(
        language=named(("Italiano", "it"), ("English", "en")),
        scope=named(("just me", "me"), ("this channel", "chat")),
    )
    async def lang_command(
        self, interaction: Interaction, language: str, scope: str = "me"
    ) -> None:
        """Set the user's language, or the channel's."""
        await self.slash(interaction, self._lang, language=language, scope=scope)

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
    async def style_command(self, interaction: Interaction, deck: str, scope: str = "chat") -> None:
        """Choose the deck style of the pictures (the channel's, or one's own)."""
        await self.slash(interaction, self._style_reply, deck=deck, scope=scope)

    @app_commands.command(name=_t("settings"), description=_t("Settings of this chat"))
    async def settings_command(self, interaction: Interaction) -> None:
        """The channel's settings (its admins; anyone in a DM with the bot)."""
        await self.slash(interaction, self._settings)

    async def _leaderboard(self, call: SlashCall) -> Result:
        """/leaderboard: a game's board, everyone's or this channel's, this season or all time."""
        scoped = call.options.get("scope") == "chat"
        result = await self.core.service.leaderboard(
            call.text("family") or "scopa",
            user=call.user,
            chat=call.chat if scoped else None,
            period="season" if call.options.get("period") == "season" else "all",
        )
        if not scoped and call.interaction.guild_id is not None:
            # The global board too is a public answer in the channel, like the chat's.
            where = Audience("chat", PLATFORM, call.chat.chat_id)
            locale = await self.core.service.chat_locale(call.chat)
            result = retarget(result, where, locale)
        return result

    async def _stats(self, call: SlashCall) -> Result:
        """/stats: a player's statistics (default: the asker's), for the asker to read."""
        player = call.member("player")
        who = call.user
        if player is not None:
            who = UserRef(PLATFORM, str(player.id), player.display_name, call.user.locale)
        result = await self.core.service.stats(who, chat=call.chat)
        if who.user_id != call.user.user_id:
            # About another player, but for the asker to read, in the asker's language.
            asker = Audience("user", PLATFORM, call.user.user_id)
            locale = await self.core.service.user_locale(call.user, chat=call.chat)
            result = retarget(result, asker, locale)
        return result

    async def _notify(self, call: SlashCall) -> None:
        """/notify: turn the user's turn mentions on or off."""
        on = call.options.get("state") != "off"
        await self.core.set_notify(call.interaction.user.id, on)
        text = self.core.text(
            "notify_on" if on else "notify_off",
            await self.core.service.user_locale(call.user, chat=call.chat),
        )
        await answer(call.interaction, text, ephemeral=True)

    async def _help_reply(self, call: SlashCall) -> None:
        """/help: the slash commands, privately."""
        await answer(
            call.interaction,
            await self._help(call.interaction, await self._locale(call.interaction)),
            ephemeral=True,
        )

    async def _style_reply(self, call: SlashCall) -> None:
        """/style: the deck style of the pictures, privately confirmed."""
        await answer(call.interaction, await self._style(call), ephemeral=True)

    async def _settings(self, call: SlashCall) -> None:
        """/settings: the channel's settings menu."""
        await self.core.settings_menu.command(call.interaction, call.chat, call.user)

    async def _locale(self, interaction: Interaction) -> str:
        """The interacting user's language: their /lang, else their Discord client's."""
        return await self.core.service.user_locale(
            self.core.user_of(interaction), chat=self.core.chat_of(interaction)
        )

    async def _lang(self, call: SlashCall) -> None:
        """/lang: the user's own language, or (``scope:chat``, admins) the channel's."""
        code = str(call.options.get("language"))
        for_chat = call.options.get("scope") == "chat" and call.interaction.guild_id is not None
        if for_chat and not is_channel_admin(call.interaction):
            await answer(
                call.interaction,
                self.core.text("lang_admin", await self._locale(call.interaction)),
                ephemeral=True,
            )
            return
        result = await self.core.service.set_language(
            code, user=call.user, chat=call.chat if for_chat else None
        )
        if result.refusal is not None:
            await self.routing.deliver(result, call.interaction)
            return
        name = LANGUAGE_NAMES.get(code, code)
        key = "lang_chat" if for_chat else "lang_user"
        await answer(
            call.interaction,
            self.core.text(key, code).format(language=name),
            ephemeral=not for_chat,
        )

    async def _style(self, call: SlashCall) -> str:
        """Set the deck style of the pictures (this channel's, or the user's own); the reply."""
        interaction = call.interaction
        locale = await self._locale(interaction)
        if self.core.pictures is None or not self.core.pictures.enabled:
            return self.core.renderer.notice("style_off", locale)
        deck = call.text("deck") or DEFAULT_STYLE
        if deck not in self.core.pictures.style_choices():
            deck = DEFAULT_STYLE
        mine = call.options.get("scope") == "me" or interaction.guild_id is None
        owner = str(interaction.user.id) if mine else str(interaction.channel_id)
        await self.core.pictures.set_style(deck, platform=PLATFORM, owner=owner)
        label = self.core.pictures.style_label(deck, locale)
        return self.core.renderer.notice("style_set", locale).format(style=label)

    async def _help(self, interaction: Interaction, locale: str) -> str:
        """The slash commands with their descriptions, in the user's language (the command
        catalog's own text: what to type, not how to play). Each command is a mention
        (``</name:id>``, the ids of the synced commands), which the client shows under the
        name it knows in its own language and lets the user click; ``/name`` when the ids are
        not known."""
        translations = self.core.renderer.translations(locale)
        client = interaction.client
        tree = getattr(client, "tree", None)
        ids: Mapping[str, int] = {}
        known = getattr(client, "command_ids", None)
        if known is not None:
            ids = await known()
        lines = []
        for command in tree.get_commands() if tree is not None else ():
            if not isinstance(command, discord.app_commands.Command):
                continue
            name, description = command.name, translations.gettext(command.description)
            shown = f"</{name}:{ids[name]}>" if name in ids else f"/{name}"
            lines.append(f"{shown} — {description}")
        return "\n".join(lines)


def retarget(result: Result, audience: Audience, locale: str) -> Result:
    """The result with its leaderboard and stats events sent to ``audience`` in ``locale``."""
    events: list[Event] = [
        dataclasses.replace(e, audience=audience, locale=locale)
        if isinstance(e, Leaderboard | Stats)
        else e
        for e in result.events
    ]
    return Result(events, result.table, result.refusal)
