"""Play in a terminal against computer players, through the same service and store as the bots.

The game is saved after every move: quitting and running again resumes it. Input: the number of
a listed move, or a move string (``7D``, ``7D:3C+4S``); ``t`` shows the table, ``h`` help,
``q`` quits (the game stays saved).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TextIO

from bot.render import N_, Message, Renderer, move_text, scala40_move_text
from bot.service import (
    Announcement,
    ChatRef,
    GameOver,
    HandView,
    LobbyView,
    Result,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
    UserRef,
)

logger = logging.getLogger(__name__)

__all__ = ["TerminalPlay"]

PLATFORM = "terminal"
HELP = N_(
    "Type the number of a move, or the move itself: 7D plays the 7 of denari; "
    "7D:3C+4S captures 3C and 4S with it. t shows the table, q quits."
)
# A bound on prompts in one session, so a runaway input stream always ends.
MAX_PROMPTS = 100_000


class TerminalPlay:
    """One human at the keyboard, computers in the other seats."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        *,
        user: UserRef,
        chat_id: str = "local",
        read: Callable[[], str | None],
        out: TextIO,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.user = user
        self.chat = ChatRef(PLATFORM, chat_id)
        self._read = read
        self.out = out

    def _(self, text: str, locale: str) -> str:
        return self.renderer.translations(locale).gettext(text)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        # input() blocks: keep it off the event loop.
        line = await asyncio.to_thread(self._read)
        return None if line is None else line.strip()

    async def run(self, game: str, *, players: int | None, level: str, new: bool = False) -> int:
        """Resume the open table, or open a new one; play until it ends or the user quits."""
        table, shown = await self._table(game, players=players, level=level, new=new)
        if table is None:
            return 2
        return await self._loop(table.id, shown)

    async def _table(
        self, game: str, *, players: int | None, level: str, new: bool
    ) -> tuple[TableInfo | None, Result | None]:
        """The table to play (resumed or new) and, when just dealt, what was shown."""
        tables = await self.service.open_tables(self.chat)
        mine = [t for t in tables if t.seat_of(PLATFORM, self.user.user_id) is not None]
        if mine and not new:
            table = mine[-1]
            if table.status == "lobby":
                result = await self.service.start(self.chat, self.user, table.id, fill_with=level)
                if not self._show(result):
                    return None, None
                return result.table, result
            locale = self.user.locale or "it"
            text = self._("Resuming the saved game (table {id}).", locale)
            self.say(text.format(id=table.id))
            if table.game != game.strip().lower():
                hint = self._("To leave it and start {game} instead: add --new.", locale)
                self.say(hint.format(game=self.renderer.game_label(game, locale)))
            return table, None
        kind = self.service.registry.get(game)
        if kind is None or (players is not None and players not in kind.players):
            # Refused before the saved game is given up: create_table says why.
            result = await self.service.create_table(self.chat, self.user, game, players=players)
            if result.refusal is not None and result.refusal.code != "too_many_tables":
                self._show(result)
                return None, None
        for t in tables:
            await self.service.abandon(self.chat, self.user, t.id, is_admin=True)
        result = await self.service.create_table(self.chat, self.user, game, players=players)
        if not self._show(result):
            return None, None
        assert result.table is not None
        started = await self.service.start(self.chat, self.user, result.table.id, fill_with=level)
        if not self._show(started):
            return None, None
        return started.table, started

    def _show(self, result: Result) -> bool:
        if result.refusal is not None:
            self.say("! " + self.renderer.refusal(result.refusal, limit=None))
            return False
        for event in result.events:
            if isinstance(event, LobbyView | TurnNotice):
                continue  # the terminal player sees the hand prompt instead
            message = self.renderer.render(event)
            if isinstance(event, TableView | HandView):
                self.say("")
            self.say(_text(message))
        return True

    async def _loop(self, table_id: int, shown: Result | None = None) -> int:
        if shown is None:
            shown = await self.service.show(self.chat, self.user, table_id)
            self._show(shown)
        for _ in range(MAX_PROMPTS):
            table = shown.table
            if table is None:
                return 1
            locale = _locale(shown)
            if table.status != "playing":
                return await self._finished(table, locale)
            hand = next((e for e in shown.events if isinstance(e, HandView)), None)
            if hand is None:
                shown = await self.service.show(self.chat, self.user, table_id)
                continue
            moves = list(getattr(hand.view, "legal_moves", ()) or ())
            if not moves:
                shown = await self.service.show(self.chat, self.user, table_id)
                continue
            if table.family == "scala40":
                tr = self.renderer.translations(locale)
                labels = [scala40_move_text(m, tr) for m in moves]
            else:
                labels = [move_text(m) for m in moves]
            self.say("  ".join(f"{i}) {label}" for i, label in enumerate(labels, start=1)))
            line = await self.ask(
                self._("Your move (number or card, h = help, q = quit): ", locale)
            )
            if line is None or line.lower() in ("q", "quit", "exit"):
                self.say(self._("Game saved: run again to resume.", locale))
                return 0
            if line.lower() in ("h", "help", "?"):
                self.say(self._(HELP, locale))
                continue
            if line.lower() in ("t", "table"):
                shown = await self.service.show(self.chat, self.user, table_id)
                self._show(shown)
                continue
            if not line:
                continue
            move = moves[int(line) - 1] if line.isdigit() and 1 <= int(line) <= len(moves) else line
            result = await self.service.play(
                self.chat, self.user, table_id, version=table.version, move=move
            )
            if result.refusal is not None:
                self._show(result)
                continue
            self._show(result)
            shown = await self.service.show(self.chat, self.user, table_id)
            shown.events = [e for e in shown.events if isinstance(e, HandView)] or shown.events
        return 1

    async def _finished(self, table: TableInfo, locale: str) -> int:
        line = await self.ask(self._("Play again? [y/N] ", locale))
        if line is not None and line.lower() in ("y", "yes", "s", "si", "sì"):
            result = await self.service.rematch(self.chat, self.user, table.id)
            if not self._show(result) or result.table is None:
                return 1
            return await self._loop(result.table.id)
        return 0


def _text(message: Message) -> str:
    return message.text


def _locale(result: Result) -> str:
    for event in result.events:
        if isinstance(event, HandView | TableView | Announcement | GameOver):
            return event.locale
    return "it"
