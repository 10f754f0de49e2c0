"""The screen after moves: the deal, the table, the hand, every move since the player's last
one (who, what, a scopa), and what they ended, right above the menu so that they stay on screen;
and a refusal as a sentence."""

from __future__ import annotations

import gettext
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypedDict

from bot.render import BRISCOLA_FAMILIES, REFUSAL_TEXTS, cards_text
from bot.render.renderer import family_renderer
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
)
from engine.contract import GameView
from engine.scala40.view import Scala40View

from .console import PLATFORM, Console

logger = logging.getLogger(__name__)

__all__ = ["LoggedMove", "Presenter"]


class LoggedMove(TypedDict, total=False):
    """One move of the game's move log (the export document's ``moves``), as the screen reads
    it: who moved, the move, and the table's version after it."""

    seat: int
    move: str
    version: int


@dataclass(slots=True)
class _Seen:
    """How far the move log has been shown (the number of moves)."""

    moves: int = 0


class Presenter:
    """Showing what happened, given the session's ``Console``, the service (the move log) and
    the player's id (their seat); it remembers how far the move log was shown and the hand
    last shown."""

    def __init__(self, console: Console, service: TableService, user_id: str) -> None:
        self.console = console
        self.service = service
        self.user_id = user_id
        self.renderer = console.renderer
        self._seen = _Seen()

    def _(self, text: str, locale: str | None = None) -> str:
        return self.console.translate(text, locale)

    def say(self, text: str) -> None:
        self.console.say(text)

    def _label(self, family: str, move: str) -> str:
        return self.console.label(family, move)

    def restart(self, seen: int = 0) -> None:
        """A new game (or a resumed one): the move log is shown from move ``seen``."""
        self._seen = _Seen(seen)

    def show(self, events: Iterable[Event], *, refusal: Result | None = None) -> None:
        self._show(events, refusal=refusal)

    async def present(self, happened: Sequence[Event], now: Result) -> None:
        await self._present(happened, now)

    async def moves(self, table_id: int) -> list[LoggedMove]:
        return await self._moves(table_id)

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
            locale = self.console.locale
            self.console.locale = getattr(event, "locale", locale) or locale
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
        last shown, each deal's summary right after the move that ended it (before the next
        deal's moves), and the game's end, right above the menu so that they stay on screen
        however long the table."""
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
        summaries = [e for e in rest if isinstance(e, SmazzataSummary)]
        self._show(started)
        self._show(views)
        self._show(hands)
        table = now.table or (views[0].table if views else None)
        if table is not None:
            scope = [
                seat if isinstance(seat := e.data.get("seat"), int) else -1
                for e in happened
                if isinstance(e, Announcement) and e.kind == "scopa"
            ]
            hand = hands[-1].view if hands else None
            told = await self._show_moves(table, scope, summaries, hand)
            rest = [e for e in rest if not any(e is t for t in told)]
        self._show([e for e in rest if e not in over])
        self._show(over)

    async def _moves(self, table_id: int) -> list[LoggedMove]:
        try:
            document = await self.service.export_game(table_id)
        except Exception:  # the log is a courtesy: never stop the game for it
            logger.exception("table %s: move log unavailable", table_id)
            return []
        logged = document.get("moves")
        return [_logged(entry) for entry in (logged if isinstance(logged, list) else [])]

    async def _show_moves(
        self,
        table: TableInfo,
        scope: list[int],
        summaries: Sequence[SmazzataSummary] = (),
        hand: GameView | None = None,
    ) -> list[SmazzataSummary]:
        """Every move since the last one shown: who, what, what it took, scopa (``scope``: the
        seats that made one, in order), the card the player drew (Scala 40: ``hand`` is their
        view now), who took each trick (Briscola); each of ``summaries`` (a deal's end) right
        after the move that ended it. Returns the summaries shown."""
        moves = await self._moves(table.id)
        fresh = moves[self._seen.moves :]
        self._seen.moves = len(moves)
        if not fresh:
            return []
        tr = self.renderer.translations(self.console.locale)
        me = table.seat_of(PLATFORM, self.user_id)
        marked = _scopa_moves(fresh, scope)
        ends = _summary_places(fresh, summaries)
        takers = self._trick_takers(table, moves, len(moves) - len(fresh))
        drawn = _drawn(fresh, me, hand)
        # One line per turn: a player's moves in a row (Scala 40: draw; melds; discard).
        turns: list[tuple[int, list[str]]] = []
        blocks: list[tuple[list[tuple[int, list[str]]], list[SmazzataSummary]]] = []
        for i, m in enumerate(fresh):
            seat, move = int(m["seat"]), str(m["move"])
            what = self._label(table.family, move)
            if i in marked:
                what += " · " + self._("Scopa!")
            if i == drawn[0]:
                what += f" ({drawn[1]})"
            if turns and turns[-1][0] == seat:
                turns[-1][1].append(what)
            else:
                turns.append((seat, [what]))
            taker = takers.get(i)
            if taker is not None:
                took = (
                    self._("the trick is yours")
                    if taker == me
                    else self._("the trick goes to {name}").format(
                        name=self.renderer.seat_name(table, taker, tr)
                    )
                )
                turns[-1][1][-1] += " · " + took
            if i in ends:
                blocks.append((turns, ends[i]))
                turns = []
        if turns:
            blocks.append((turns, []))
        return self._say_blocks(table, blocks, me, tr)

    def _say_blocks(
        self,
        table: TableInfo,
        blocks: list[tuple[list[tuple[int, list[str]]], list[SmazzataSummary]]],
        me: int | None,
        tr: gettext.NullTranslations,
    ) -> list[SmazzataSummary]:
        """The turns of each block, then the summaries that end it; returns those shown."""
        told: list[SmazzataSummary] = []
        for n, (done, ended) in enumerate(blocks):
            if done:
                if n == 0:  # (after a summary, the line it ends with)
                    self.say("")
                self.say(self._("Moves since your last turn:"))
                for seat, said in done:
                    who = self._("You") if seat == me else self.renderer.seat_name(table, seat, tr)
                    self.say(f"  {who}: {'; '.join(said)}")
            self.say("")
            if ended:
                self._show(ended)
                told.extend(ended)
        return told

    def _trick_takers(
        self, table: TableInfo, moves: list[LoggedMove], first: int
    ) -> dict[int, int]:
        """Briscola: the seat that took each trick completed among the moves from ``first``
        (by their index from ``first``): the one who leads the next trick, or, when it is not
        led yet, the one to move. A deal's last trick is told by the deal's summary."""
        if table.family not in BRISCOLA_FAMILIES or table.players < 2:
            return {}
        played = family_renderer(table.family).played_card
        plays = [i for i, m in enumerate(moves) if played(str(m["move"])) is not None]
        per_deal = (40 - 40 % table.players) // table.players  # the tricks of a deal
        out: dict[int, int] = {}
        for k in range(table.players - 1, len(plays), table.players):
            trick = k // table.players
            if trick % per_deal == per_deal - 1:
                continue  # a deal's last trick: the summary says how the deal ended
            end = plays[k]
            if k + 1 < len(plays):
                taker: int | None = int(moves[plays[k + 1]]["seat"])
            else:
                taker = table.current_seat
            if end >= first and taker is not None:
                out[end - first] = taker
        return out


def _drawn(fresh: list[LoggedMove], me: int | None, hand: GameView | None) -> tuple[int, str]:
    """Scala 40: the player's own draw among ``fresh`` (its index) and the card it drew, as
    their view now says (the tallone's, which their view alone holds, or the pozzo's), told to
    them alone. (-1, "") when there is none to tell."""
    if not isinstance(hand, Scala40View) or me is None:
        return -1, ""
    own = [i for i, m in enumerate(fresh) if int(m["seat"]) == me]
    if len(own) != 1:
        return -1, ""
    move = str(fresh[own[0]]["move"])
    card = hand.drawn if move == "t" else hand.pile_card_taken if move == "p" else None
    return (own[0], cards_text([card])) if card is not None else (-1, "")


def _logged(entry: object) -> LoggedMove:
    """A move of the export document's log, read (a field it lacks is left out)."""
    move = LoggedMove()
    if isinstance(entry, dict):
        if isinstance(seat := entry.get("seat"), int):
            move["seat"] = seat
        if isinstance(text := entry.get("move"), str):
            move["move"] = text
        if isinstance(version := entry.get("version"), int):
            move["version"] = version
    return move


def _scopa_moves(fresh: list[LoggedMove], scope: list[int]) -> set[int]:
    """The indices of the moves that made a scopa: the latest capture of each seat in
    ``scope`` (in order) among ``fresh``."""
    marked: set[int] = set()
    for seat in reversed(scope):
        for i in range(len(fresh) - 1, -1, -1):
            entry = fresh[i]
            if i not in marked and int(entry["seat"]) == seat and ":" in str(entry["move"]):
                marked.add(i)
                break
    return marked


def _summary_places(
    fresh: list[LoggedMove], summaries: Sequence[SmazzataSummary]
) -> dict[int, list[SmazzataSummary]]:
    """Each summary at the index of the move that ended its deal (the move log's version)."""
    ends: dict[int, list[SmazzataSummary]] = {}
    for summary in summaries:
        version = summary.data.get("version")
        at = next((i for i, m in enumerate(fresh) if m.get("version") == version), None)
        if at is not None:
            ends.setdefault(at, []).append(summary)
    return ends
