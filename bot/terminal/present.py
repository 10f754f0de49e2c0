"""The screen after moves: the deal, the table, the hand, every move since the player's last
one (who, what, a scopa), and what they ended, right above the menu so that they stay on screen;
and a refusal as a sentence."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render import REFUSAL_TEXTS
from bot.service import (
    Announcement,
    Event,
    GameOver,
    HandView,
    LobbyView,
    Refusal,
    Result,
    SmazzataSummary,
    TableInfo,
    TableService,
    TableView,
    TurnNotice,
    UserRef,
)

from .console import PLATFORM, Console

logger = logging.getLogger(__name__)

__all__ = ["Presenter"]


@dataclass(slots=True)
class _Seen:
    """How far the move log has been shown (the number of moves)."""

    moves: int = 0


class Presenter(Console):
    """Showing what happened (a mixin of ``TerminalPlay``, which sets these)."""

    service: TableService
    user: UserRef
    _seen: _Seen

    def _show(self, events: Iterable[Event], *, refusal: Result | None = None) -> None:
        """Render events as they come (a refusal instead, when given)."""
        if refusal is not None and refusal.refusal is not None:
            self.say("! " + self._refusal_text(refusal.refusal))
            return
        for event in events:
            if isinstance(event, LobbyView | TurnNotice):
                continue  # the terminal player sees the hand prompt instead
            if isinstance(event, Announcement) and event.kind == "scopa":
                continue  # marked on the move that made it (the move log)
            self._locale = getattr(event, "locale", self._locale) or self._locale
            if isinstance(event, TableView | HandView):
                self.say("")
            self.say(self.renderer.render(event).text)
            if isinstance(event, GameOver) and event.ratings:
                self.say(
                    self._(
                        "(The rating measures your play across games: it starts at 0, a win "
                        "raises it and a loss lowers it, more so against stronger players.)"
                    )
                )
            if isinstance(event, SmazzataSummary | GameOver):
                self.say("")

    def _refusal_text(self, refusal: Refusal) -> str:
        """Why the service refused: for a move, the rule's own reason alone, as a sentence
        ("You do not have A♣ in your hand."), not after "That move is not allowed."."""
        text = self.renderer.refusal(refusal, limit=None)
        template = REFUSAL_TEXTS["illegal_move"]
        general = self._(template, refusal.locale)
        if refusal.code == "illegal_move" and text.startswith(general + " "):
            reason = text[len(general) :].strip()
            if reason:
                text = reason[:1].upper() + reason[1:]
                text += "" if text.endswith((".", "!", "?", ")")) else "."
        return text

    async def _present(self, happened: Sequence[Event], now: Result) -> None:
        """After moves: the deal announcement, the table, the hand, then every move since the
        last shown and what they ended (a hand's score, the game), right above the menu so
        that they stay on screen however long the table."""
        started = [e for e in happened if isinstance(e, Announcement) and e.kind == "started"]
        views = [e for e in now.events if isinstance(e, TableView)]
        if not views:
            views = [e for e in happened if isinstance(e, TableView)][-1:]
        hands = [e for e in now.events if isinstance(e, HandView)]
        rest = [
            e
            for e in happened
            if not isinstance(e, TableView | HandView | LobbyView | TurnNotice)
            and not (isinstance(e, Announcement) and e.kind == "started")
        ]
        over = [e for e in rest if isinstance(e, GameOver)]
        self._show(started)
        self._show(views)
        self._show(hands)
        table = now.table or (views[0].table if views else None)
        if table is not None:
            scope = [
                int(e.data.get("seat", -1))
                for e in happened
                if isinstance(e, Announcement) and e.kind == "scopa"
            ]
            await self._show_moves(table, scope)
        self._show([e for e in rest if e not in over])
        self._show(over)

    async def _moves(self, table_id: int) -> list[dict[str, Any]]:
        try:
            document = await self.service.export_game(table_id)
        except Exception:  # the log is a courtesy: never stop the game for it
            logger.exception("table %s: move log unavailable", table_id)
            return []
        return list(document.get("moves") or [])

    async def _show_moves(self, table: TableInfo, scope: list[int]) -> None:
        """Every move since the last one shown: who, what, what it took, scopa (``scope``: the
        seats that made one, in order)."""
        moves = await self._moves(table.id)
        fresh = moves[self._seen.moves :]
        self._seen.moves = len(moves)
        if not fresh:
            return
        tr = self.renderer.translations(self._locale)
        me = table.seat_of(PLATFORM, self.user.user_id)
        # A scopa is the latest capture of its seat among these moves.
        marked: set[int] = set()
        for seat in reversed(scope):
            for i in range(len(fresh) - 1, -1, -1):
                entry = fresh[i]
                if i not in marked and int(entry["seat"]) == seat and ":" in str(entry["move"]):
                    marked.add(i)
                    break
        # One line per turn: a player's moves in a row (Scala 40: draw; melds; discard).
        turns: list[tuple[int, list[str]]] = []
        for i, m in enumerate(fresh):
            seat, move = int(m["seat"]), str(m["move"])
            what = self._label(table.family, move)
            if i in marked:
                what += " · " + self._("Scopa!")
            if turns and turns[-1][0] == seat:
                turns[-1][1].append(what)
            else:
                turns.append((seat, [what]))
        lines = []
        for seat, done in turns:
            who = self._("You") if seat == me else self.renderer.seat_name(table, seat, tr)
            lines.append(f"  {who}: {'; '.join(done)}")
        self.say("")
        self.say(self._("Moves since your last turn:"))
        for line in lines:
            self.say(line)
        self.say("")
