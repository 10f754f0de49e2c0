"""Discord adapter (discord.py): slash commands, buttons and select menus <-> the Tavolo service.

The adapter only translates: interactions become service calls with platform-neutral ids, and the
service's events become channel messages, ephemeral replies and DMs. No game rule and no game text
lives here (text comes from ``bot.render``).

Modules:
* ``limits``     Discord's message and component limits, and layouts that respect them.
* ``components`` persistent buttons and select menus (``DynamicItem``: state in the custom id).
* ``commands``   the slash commands, their option choices and Italian localizations.
* ``sync``       syncing the command tree only when it changed (Discord caps creates per day).
* ``delivery``   replying within 3 s, DMs with the ephemeral fallback, editing table messages.
* ``bot``        ``TavoloBot``: the ``commands.Bot`` subclass all of it hangs on, deps injected.
"""
