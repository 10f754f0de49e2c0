"""The web table in Telegram: the buttons that open it, and what the chat spares the players who
have it open (``bot.web``).

* A group's table message gets a URL button opening the Mini App through its direct link,
  ``https://t.me/<bot>/<WEB_APP_SHORT_NAME>?startapp=<table>`` (a ``web_app`` button is allowed
  in private chats only); a private chat's table and hand messages get a ``web_app`` button on
  ``PUBLIC_URL/app/?table=<table>``.
* A player with the table open in a page is *looking*: their turn needs no notice (no mention in
  the group, no private notice) and their private hand message is not edited at every move.
* While a table is open in some page and the player to move is looking (or a computer), its
  group message is edited at most once every ``coalesce`` seconds (the newest version then), so
  play from pages costs the group a fraction of a request a move; the end of a game, and the
  turn of a player who follows the group, go at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.render import N_, Renderer

__all__ = ["OPEN_TABLE", "WebLinks"]

OPEN_TABLE = N_("🎴 Open the table")


@dataclass
class WebLinks:
    """``looking(user_id, table_id)``, ``watched(table_id)``: the web table's presence."""

    renderer: Renderer
    public_url: str | None
    short_name: str | None
    looking: Callable[[int, int], bool]
    watched: Callable[[int], bool]
    coalesce: float = 20.0

    def button(
        self, table_id: int, locale: str, *, private: bool, bot_username: str | None
    ) -> InlineKeyboardButton | None:
        label = self.renderer.translations(locale).gettext(OPEN_TABLE)
        if private:
            if not self.public_url or not self.public_url.startswith("https://"):
                return None  # Telegram opens web apps over HTTPS only
            return InlineKeyboardButton(
                label, web_app=WebAppInfo(f"{self.public_url}/app/?table={table_id}")
            )
        if not self.short_name or not bot_username:
            return None
        return InlineKeyboardButton(
            label, url=f"https://t.me/{bot_username}/{self.short_name}?startapp={table_id}"
        )

    def with_button(
        self,
        markup: InlineKeyboardMarkup | None,
        table_id: int,
        locale: str,
        *,
        private: bool,
        bot_username: str | None,
    ) -> InlineKeyboardMarkup | None:
        """``markup`` with the button opening the table as a last row of its own."""
        button = self.button(table_id, locale, private=private, bot_username=bot_username)
        if button is None:
            return markup
        rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
        rows.append([button])
        return InlineKeyboardMarkup(rows)
