"""Discord adapter (discord.py): slash commands, buttons and select menus <-> the Tavolo service.

The adapter only translates: interactions become service calls with platform-neutral ids, and the
service's events become channel messages, ephemeral replies and DMs. No game rule and no game text
lives here (text comes from ``bot.render``).

Modules:
* ``limits``     Discord's message and component limits, and layouts that respect them.
* ``components`` persistent buttons and select menus (``DynamicItem``: state in the custom id).
* ``commands``   the slash commands' cogs in order, their choices and Italian localizations;
                 the cogs (discord.py ``commands.Cog``, each given the handler's core):
                 ``game_commands`` (opening tables), ``table_commands`` (the channel's table),
                 ``chat_commands`` (players, the channel); with ``slash`` (what every command
                 does around its part), ``command_base`` (option values, words),
                 ``command_texts`` (Italian names, descriptions, the translator),
                 ``option_choices`` (rule option values from the engines' ``Rules.options()``).
* ``sync``       syncing the command tree only when it changed (Discord caps creates per day).
* ``delivery``   replying within 3 s, DMs with the ephemeral fallback, editing table messages.
* ``hands``      each player's one hand message, edited through interaction webhooks or in DMs.
* ``bot``        ``TavoloBot``: the ``commands.Bot`` subclass all of it hangs on, deps injected.
* ``handler``    ``ServiceHandler``: interactions -> ``TableService``, events -> messages;
                 composed of parts, each given what it uses: ``handler_core`` (dependencies,
                 identities, adapter state), ``hand_delivery`` (hands, DMs), ``routing`` (a result
                 to its places), ``presses`` (buttons, menus), and the commands' cogs.
* ``interaction`` the one ``Interaction`` type the adapter's functions take.
* ``message_views`` the components of rendered messages, a hand's card picker.
* ``replies``    a slash command's deferred reply.
* ``idmap``      the JSON id maps of earlier versions (read once into the store).
* ``app``        ``serve(app)`` for the composition root; ``sync_commands_cli``.
* ``__main__``   ``python -m bot.discord sync [--force]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.app import App


async def serve(app: App) -> None:
    """Serve Discord for ``bot.cli`` until ``app.stop`` is set (imports discord.py lazily)."""
    from bot.discord.app import serve as _serve

    await _serve(app)
