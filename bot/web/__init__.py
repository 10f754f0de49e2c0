"""The web table: the game as a page (Telegram's Mini App, or ``tavolo web`` on 127.0.0.1), live
over a WebSocket, on the same service as the chat (docs/web-protocol.md is the contract).

* :mod:`bot.web.server`: the aiohttp application (page, files, card pictures, sign-in, WebSocket);
* :mod:`bot.web.hub`: every new version of a table pushed to the pages watching it;
* :mod:`bot.web.state`: one seat's JSON view of a version (never another seat's cards);
* :mod:`bot.web.auth`: Telegram's init data checked, the WebSocket's short-lived tokens;
* who has a table open: the process's :class:`bot.service.presence.Presence` (their turn
  needs no mention in the chat);
* :mod:`bot.web.texts`: the page's words and the cards' accessible names, from the catalogs;
* :mod:`bot.web.local`: ``tavolo web``.
"""

from __future__ import annotations

from bot.web.server import WebConfig, WebTable, build_web_app

__all__ = ["WebConfig", "WebTable", "build_web_app"]
