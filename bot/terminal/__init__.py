"""Play in a terminal against computer players, through the same service and store as the bots.

The game is saved after every move: quitting (``q``, Ctrl-C or Ctrl-D) and running again resumes
it. Input: the number of a listed move, the move typed as the menu shows it (``7♦ ➜ 3♥ 4♠``,
``Discard: 7♦``), or the card(s) alone (``7♦``, ``7♦ 3♥ 4♠``; in Scala 40 ``7♦`` discards and
``7♦8♦9♦`` lays a meld when that is the one way), with the suit symbols or the suit letters of the
player's language (``bot.render.typed``: English H D C S, Italian D C S B). ``h`` shows the game's
help, ``v`` the table, ``q`` quits. After every turn the screen lists each move made since the
player's last one, just above the menu of moves, so it stays on screen.

Games are told apart by family only where they differ: Scala 40's moves are words and melds; every
other family's moves are cards (a card, or a card and what it takes), read the Scopa way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import re
import shutil
import sys
import threading
import unicodedata
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from bot.render import (
    BRISCOLA_FAMILIES,
    N_,
    REFUSAL_TEXTS,
    SCALA40_KINDS,
    Renderer,
    move_text,
    scala40_move_text,
)
from bot.render.briscola import briscola_move_text
from bot.render.typed import TypedMove, read_typed, suit_help
from bot.service import (
    Announcement,
    ChatRef,
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

logger = logging.getLogger(__name__)

__all__ = ["DaemonThreads", "LineReader", "NameBook", "TerminalPlay", "columns", "wrap"]

PLATFORM = "terminal"
DEFAULT_GAME = "scopa"
HELP_SCOPA = N_(
    "Your move: the number of a move in the list, or the card as it is shown.\n"
    "  7♦         plays the 7♦ (when it can take different cards, the list shows each way)\n"
    "  7♦ 3♥ 4♠   plays the 7♦ taking the 3♥ and the 4♠\n"
    "Suits can be typed as letters: {letters}.\n"
    "Commands: v shows the table, h this help, q quits (the game is saved; Ctrl-C and "
    "Ctrl-D too)."
)
HELP_SCALA40 = N_(
    "Your move: the number of a move in the list, or the move as the list shows it "
    "(Discard: 7♦), or in short:\n"
    "  t                draws from the stock\n"
    "  p                takes the discard\n"
    "  d 7♦  (or 7♦)    discards the 7♦\n"
    "  o 7♦8♦9♦ K♥K♠K♦  opens with those melds\n"
    "  m 4♠5♠6♠         lays a meld once open\n"
    "  a3 10♦           attaches the 10♦ to meld 3\n"
    "  s3 7♦            puts the 7♦ in place of meld 3's joker and takes the joker\n"
    "Suits can be typed as letters: {letters}; the joker as *.\n"
    "Commands: v shows the table, h this help, q quits (the game is saved; Ctrl-C and "
    "Ctrl-D too)."
)
HELP_BRISCOLA = N_(
    "Type the number of a move, or the card as it is shown: A♠ plays the Asso of spade. Any "
    "card may be played (no duty to follow suit); the trick goes to the highest briscola, else "
    "to the highest card of the suit led. In the chiamata auction type the number of a call, "
    "or pass; the winner then names the card (its suit is the briscola). Suits can be typed as "
    "letters: {letters}. Commands: v shows the table, h this help, q quits (the game is saved; "
    "Ctrl-C and Ctrl-D too)."
)
PROMPT_SCOPA = N_("Your move (number or card; h help, q quit): ")
PROMPT_SCALA40 = N_("Your move (number or move; h help, q quit): ")
# Per family; a family not listed is a card game read the Scopa way (a card, what it takes).
HELPS = {
    "scopa": HELP_SCOPA,
    "scala40": HELP_SCALA40,
    "briscola": HELP_BRISCOLA,
    "chiamata": HELP_BRISCOLA,
}
PROMPTS = {"scopa": PROMPT_SCOPA, "scala40": PROMPT_SCALA40}
# Words that are never a move in any game (Scala 40's "t" draws: the table is "v").
QUIT = ("q", "quit", "exit", "esci")
HELP = ("h", "help", "?", "aiuto")
TABLE = ("v", "table", "tavolo")
YES = ("y", "yes", "s", "si", "sì")
# A bound on prompts in one session, so a runaway input stream always ends.
MAX_PROMPTS = 100_000
# A bound on rounds of left-over computer turns in a row (each round plays all of them).
MAX_CATCH_UPS = 3
# Scala 40 move heads (engine notation) and, per kind, the move it makes with cards alone.
_SCALA40_HEADS = ("t", "p", "o", "m", "a", "s", "d", "in", "out")
_ARROWS = re.compile(r"➜|→|->|=>")
_OUTLINE = str.maketrans({"♢": "♦", "♡": "♥", "♤": "♠", "♧": "♣", "\ufe0f": None})


class NameBook(Protocol):
    """Where the terminal keeps the player's name between runs."""

    async def get(self) -> str | None: ...

    async def put(self, name: str) -> None: ...


class LineReader:
    """Lines of a text stream, each read in a daemon thread: Ctrl-C never waits for Enter, and
    a pending read never keeps the process alive."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    async def readline(self) -> str | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None) -> None:
            if not future.done():
                future.set_result(line)

        def work() -> None:
            try:
                line = self.stream.readline()
            except (OSError, ValueError):
                line = ""
            with contextlib.suppress(RuntimeError):  # the loop is closed: the player left
                loop.call_soon_threadsafe(deliver, line or None)

        threading.Thread(target=work, name="tavolo-stdin", daemon=True).start()
        return await future


class DaemonThreads(concurrent.futures.ThreadPoolExecutor):
    """An executor whose every call runs in a daemon thread of its own, for the event loop of
    terminal play: a computer still thinking when the player presses Ctrl-C is abandoned (its
    move was never committed) instead of holding the process until it has chosen. (asyncio
    takes only a ThreadPoolExecutor as the default; its pool of non-daemon threads is unused.)"""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the awaiting coroutine
                future.set_exception(exc)

        threading.Thread(target=work, name="tavolo-worker", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: the threads are daemons."""


@dataclass(slots=True)
class _Seen:
    """How far the move log has been shown (the number of moves)."""

    moves: int = 0


class TerminalPlay:
    """One human at the keyboard, computers in the other seats."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        *,
        user: UserRef,
        chat_id: str = "local",
        read: Callable[[], Awaitable[str | None]],
        out: TextIO,
        resume_command: str = "tavolo",
        names: NameBook | None = None,
        ask_name: bool = False,
        width: Callable[[], int] | None = None,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.user = user
        self.chat = ChatRef(PLATFORM, chat_id)
        self._read = read
        self.out = out
        self.resume_command = resume_command
        self.names = names
        self.ask_name = ask_name
        self._width = width or _terminal_width
        self._seen = _Seen()
        self._locale = user.locale or "it"
        self._saved_game = False  # a game of this player's is saved: leaving says how to resume
        self._started = False  # this run got as far as a table (else: nothing played yet)
        self._ahead: asyncio.Future[str | None] | None = None  # a line read while computers played

    def _(self, text: str, locale: str | None = None) -> str:
        return self.renderer.translations(locale or self._locale).gettext(text)

    def say(self, text: str) -> None:
        """Write ``text``, each line wrapped at word boundaries to the terminal's width."""
        width = max(self._width() - 1, 20)
        for line in text.split("\n"):
            for part in wrap(line, width):
                self.out.write(part + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = await self._next_line()
        return None if line is None else line.strip()

    async def _next_line(self) -> str | None:
        """The next input line: one read ahead while the computers played, else a new read."""
        ahead, self._ahead = self._ahead, None
        return await (ahead if ahead is not None else self._read())

    async def _reading_meanwhile(self, work: Awaitable[Result]) -> Result | None:
        """``work`` (computers about to think) while the input is read ahead: when it ends
        (Ctrl-D) first, the work is cancelled (the moves made so far are saved) and None says
        the player left. A line typed ahead waits for the next prompt."""
        task = asyncio.ensure_future(work)
        if self._ahead is None:
            self._ahead = asyncio.ensure_future(self._read())
        try:
            waiting: set[asyncio.Future[Any]] = {task, self._ahead}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if not task.done() and self._ahead.done() and self._ahead.result() is None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
                return None
            return await task
        except BaseException:  # Ctrl-C: nothing may go on using the store being closed
            task.cancel()
            raise

    async def run(
        self, game: str | None, *, players: int | None, level: str, new: bool = False
    ) -> int:
        """Resume the open table (``game`` None: whichever it is), or open a new one (of
        ``game``, Scopa by default); play until it ends or the user quits.

        Ctrl-C (the task cancelled) and Ctrl-D (end of input) leave at once, saying the game is
        saved and how to resume it."""
        try:
            self._saved_game = bool(await self._my_tables())
            if not await self._who():
                self.out.write("\n")
                self._leaving()
                return 0
            # The terminal is this player's own chat: its public views speak their language.
            await self.service.set_language(self._locale, user=self.user, chat=self.chat)
            table, shown = await self._table(game, players=players, level=level, new=new)
            if table is None:
                return 2
            return await self._loop(table.id, shown)
        except asyncio.CancelledError:
            self.out.write("\n")
            self._leaving()
            raise

    def _left(self) -> int:
        """The input ended while the computers played (Ctrl-D): leave as at the prompt."""
        self.out.write("\n")
        self._leaving()
        return 0

    def _leaving(self) -> None:
        """What leaving now means for the game: saved (and how to resume it), or none yet."""
        if self._saved_game:
            self.say(
                self._("Game saved. To resume it, run: {command}").format(
                    command=self.resume_command
                )
            )
        elif not self._started:
            self.say(
                self._(
                    "No game was dealt yet, so there is nothing to save. To play, run: {command}"
                ).format(command=self.resume_command)
            )

    async def _my_tables(self) -> list[TableInfo]:
        tables = await self.service.open_tables(self.chat)
        return [t for t in tables if t.seat_of(PLATFORM, self.user.user_id) is not None]

    async def _who(self) -> bool:
        """The player's name: asked on the first run (the login name is the default). False
        when the player left instead of answering (Ctrl-D)."""
        if self.names is None:
            return True
        known = await self.names.get()
        if known:
            self.user = UserRef(self.user.platform, self.user.user_id, known, self.user.locale)
            return True
        if self.ask_name:
            answer = await self.ask(
                self._("Your name at the table [{name}]: ").format(name=self.user.name)
            )
            if answer is None:
                return False
            name = " ".join(answer.split())[:32]
            if name:
                self.user = UserRef(self.user.platform, self.user.user_id, name, self.user.locale)
        await self.names.put(self.user.name)
        return True

    async def _table(
        self, game: str | None, *, players: int | None, level: str, new: bool
    ) -> tuple[TableInfo | None, Result | None]:
        """The table to play (resumed or new) and, when just dealt, what was shown."""
        tables = await self.service.open_tables(self.chat)
        mine = [t for t in tables if t.seat_of(PLATFORM, self.user.user_id) is not None]
        if mine and not new:
            table = mine[-1]
            self._started = True
            if table.status == "lobby":
                result = await self.service.start(self.chat, self.user, table.id, fill_with=level)
                if result.refusal is not None:
                    self._show(result.events, refusal=result)
                    return None, None
                self._saved_game = True
                return result.table, result
            self.say(self._("Resuming the saved game (table {id}).").format(id=table.id))
            wanted = (game or "").strip().lower()
            if wanted and table.game != wanted:
                hint = self._("To leave it and start {game} instead, run: {command}")
                self.say(
                    hint.format(
                        game=self.renderer.game_label(wanted, self._locale),
                        command=f"{self.resume_command} play {wanted} --new",
                    )
                )
            await self._resume_log(table)
            return table, None
        game = game or DEFAULT_GAME
        kind = self.service.registry.get(game)
        if kind is None or (players is not None and players not in kind.players):
            # Refused before the saved game is given up: create_table says why.
            result = await self.service.create_table(self.chat, self.user, game, players=players)
            if result.refusal is not None and result.refusal.code != "too_many_tables":
                self._show(result.events, refusal=result)
                return None, None
        for t in tables:
            await self.service.abandon(self.chat, self.user, t.id, is_admin=True)
        self._saved_game = False
        result = await self.service.create_table(self.chat, self.user, game, players=players)
        if result.refusal is not None:
            self._show(result.events, refusal=result)
            return None, None
        assert result.table is not None
        self._started = True
        started = await self.service.start(self.chat, self.user, result.table.id, fill_with=level)
        self._seen = _Seen()
        if started.refusal is not None:
            self._show(started.events, refusal=started)
            return None, None
        self._saved_game = True
        return started.table, started

    async def _resume_log(self, table: TableInfo) -> None:
        """On resuming, the moves since the player's own last one are shown again."""
        moves = await self._moves(table.id)
        seat = table.seat_of(PLATFORM, self.user.user_id)
        mine = [i for i, m in enumerate(moves) if m["seat"] == seat]
        self._seen.moves = mine[-1] if mine else 0

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

    def _label(self, family: str, move: str) -> str:
        if family == "scala40":
            return scala40_move_text(move, self.renderer.translations(self._locale))
        if family in BRISCOLA_FAMILIES:
            return briscola_move_text(move, self.renderer.translations(self._locale))
        return move_text(move)

    def _help(self, family: str) -> str:
        text = HELPS.get(family, HELP_SCOPA)
        return self._(text).format(letters=suit_help(self._locale))

    async def _catch_up(self, table_id: int) -> list[Event] | None:
        """Play the computers' turns left over (the process stopped while they thought); None
        when the player left meanwhile."""
        result = await self._reading_meanwhile(
            self.service.catch_up(self.chat, self.user, table_id)
        )
        if result is None:
            return None
        return [] if result.refusal is not None else list(result.events)

    async def _loop(self, table_id: int, dealt: Result | None = None) -> int:
        self._saved_game = True
        happened: list[Event] = list(dealt.events) if dealt is not None else []
        if dealt is None:
            caught = await self._catch_up(table_id)  # resumed: the computers finish first
            if caught is None:
                return self._left()
            happened = caught
        shown = await self.service.show(self.chat, self.user, table_id)
        await self._present(happened, shown)
        waits = 0
        for _ in range(MAX_PROMPTS):
            table = shown.table
            if table is None:
                self._show([], refusal=shown)
                return 1
            if table.status != "playing":
                return await self._finished(table)
            hand = next((e for e in shown.events if isinstance(e, HandView)), None)
            moves: list[str] = list(getattr(hand.view, "legal_moves", ()) or ()) if hand else []
            if not moves:
                # Not the player's turn: computers' turns are left over.
                waits += 1
                caught = await self._catch_up(table_id)
                if caught is None:
                    return self._left()
                happened = caught
                if not happened or waits > MAX_CATCH_UPS:
                    self.say(self._("The game cannot go on: nobody is to move."))
                    return 1
                shown = await self.service.show(self.chat, self.user, table_id)
                await self._present(happened, shown)
                continue
            waits = 0
            labels = [self._label(table.family, m) for m in moves]
            menu = [f"{i}) {label}" for i, label in enumerate(labels, 1)]
            for row in columns(menu, self._width() - 1):
                self.say(row)
            prompt = PROMPTS.get(table.family, PROMPT_SCOPA)
            line = await self.ask(self._(prompt))
            if line is None or line.lower() in QUIT:
                if line is None:
                    self.out.write("\n")
                self._leaving()
                return 0
            if not line:
                continue
            if line.lower() in HELP:
                self.say(self._help(table.family))
                continue
            if line.lower() in TABLE:
                shown = await self.service.show(self.chat, self.user, table_id)
                self._show(shown.events, refusal=shown)
                continue
            move = self._choose(line, moves, labels, table.family, hand)
            if move is None:
                continue
            played = await self._reading_meanwhile(
                self.service.play(self.chat, self.user, table_id, version=table.version, move=move)
            )
            if played is None:
                return self._left()
            result = played
            if result.refusal is not None:
                self._show([], refusal=result)
                continue
            shown = await self.service.show(self.chat, self.user, table_id)
            await self._present(result.events, shown)
        return 1

    def _choose(
        self,
        line: str,
        moves: list[str],
        labels: list[str],
        family: str,
        hand: HandView | None = None,
    ) -> str | None:
        """The move string a typed line names, or None after saying why it names none."""
        count = len(moves)
        number = line.rstrip(").")
        if number.isdigit():
            if 1 <= int(number) <= count:
                return moves[int(number) - 1]
            self.say(self._("Choose a number from 1 to {count}.").format(count=count))
            return None
        key = _key(line)
        same = [m for m, label in zip(moves, labels, strict=True) if _key(label) == key]
        if len(same) == 1:
            return same[0]  # typed as the menu shows it
        if family in BRISCOLA_FAMILIES:
            # A move by its word or label (pass, swap, call 3D, "Passo"), else a card as below.
            by_name = {m.lower(): m for m in moves} | {
                lb.lower(): m for m, lb in zip(moves, labels, strict=True)
            }
            if line.strip().lower() in by_name:
                return by_name[line.strip().lower()]
        typed = read_typed(line, self._locale)
        if family == "scala40":
            return self._scala40_move(line, typed, moves, hand)
        return self._card_move(line, typed, moves)

    def _card_move(self, line: str, typed: TypedMove, moves: list[str]) -> str | None:
        """A move of the card games (Scopa): the card played, then what it takes if given."""
        if typed.cards is None:
            self._unknown(line, len(moves))
            return None
        found = _card_moves(typed, moves)
        if not found and typed.other is not None and _card_moves(typed.other, moves):
            self._ambiguous(line, _card_moves(typed.other, moves), moves, "scopa")
            return None
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            self._several(move_text(typed.cards[0]), found, moves, "scopa")
            return None
        # Not a legal move: the service says why (not in your hand, must take...).
        return (
            ":".join([typed.cards[0], "+".join(typed.cards[1:])])
            if typed.cards[1:]
            else typed.cards[0]
        )

    def _scala40_move(
        self, line: str, typed: TypedMove, moves: list[str], hand: HandView | None
    ) -> str | None:
        """A Scala 40 move: its short form (``d 7♦``), a kind's word (``discard 7♦``,
        ``scarta 7♦``), or cards alone, which name the one listed move made of them."""
        words = typed.text.split(" ")
        head = self._scala40_head(words[0])
        if typed.cards is not None:
            found = _scala40_moves_of(typed, moves)
            other = _scala40_moves_of(typed.other, moves) if typed.other is not None else []
            if not found and other:
                self._ambiguous(line, other, moves, "scala40")
                return None
            if len(found) == 1:
                return found[0]
            shown = " ".join(words)
            if len(found) > 1:
                self._several(line.strip()[:40], found, moves, "scala40")
                return None
            # Not a listed move: the engine says why (draw first, not 40 points...).
            if len(typed.cards) == 1 and len(words) == 1:
                return f"d {shown}"
            opened = getattr(hand.view, "opened", None) if hand is not None else None
            seat = hand.seat if hand is not None else None
            has_opened = bool(opened and seat is not None and opened[seat])
            return f"{'m' if has_opened else 'o'} {shown}"
        rest = " ".join(words[1:])
        if head is None or (rest and read_typed(rest, self._locale).cards is None):
            self._unknown(line, len(moves))  # a word that is no move, or no card after it
            return None
        move = " ".join([head, *words[1:]])
        listed = {m.lower(): m for m in moves}
        if move.lower() in listed:
            return listed[move.lower()]
        if typed.other is not None:
            other_words = typed.other.text.split(" ")
            other_move = " ".join([head, *other_words[1:]]).lower()
            if other_move in listed:
                self._ambiguous(line, [listed[other_move]], moves, "scala40")
                return None
        return move  # the engine says what is wrong with it, if anything

    def _scala40_head(self, word: str) -> str | None:
        """The engine's head of a Scala 40 move from the typed first word: the short form
        (``d``, ``a3``), or the first word of a kind's name in the player's language or English
        (``discard``, ``scarta``, ``draw``, ``pesca``)."""
        low = word.lower()
        for h in _SCALA40_HEADS:
            if low == h or (h in "as" and low[:1] == h and low[1:].isdigit()):
                return low
        for kind, name in SCALA40_KINDS.items():
            if kind in ("a", "s"):
                continue  # they need a meld's number: the short form, or the menu's text
            for text in (name, self._(name)):
                first = text.split(" ", 1)[0].lower()
                if low == first:
                    return kind
        return None

    def _numbered(self, choices: Sequence[str], moves: Sequence[str], family: str) -> str:
        return "  ".join(
            f"{moves.index(c) + 1}) {self._label(family, c)}"
            if c in moves
            else self._label(family, c)
            for c in choices
        )

    def _several(self, what: str, found: list[str], moves: list[str], family: str) -> None:
        self.say(
            self._(
                "{card} can be played in different ways: type the number of your choice."
            ).format(card=what)
        )
        items = [f"{moves.index(c) + 1}) {self._label(family, c)}" for c in found if c in moves]
        for row in columns(items, self._width() - 1):
            self.say(row)

    def _unknown(self, line: str, count: int) -> None:
        self.say(
            self._(
                "“{text}” is not a move. Type a number from 1 to {count}, or a card as it is "
                "shown (7♦, or with letters: {letters}); h for help."
            ).format(text=line[:40], count=count, letters=suit_help(self._locale))
        )

    def _ambiguous(self, line: str, choices: list[str], moves: list[str], family: str) -> None:
        self.say(
            self._(
                "In this language C means {suit}, and “{text}” is not a move that way. Did you "
                "mean: {choices}? Type it with the symbol, as shown."
            ).format(
                suit="♣" if not self._locale.startswith("it") else "♥",
                text=line[:40],
                choices=self._numbered(choices, moves, family),
            )
        )

    async def _finished(self, table: TableInfo) -> int:
        self._saved_game = False
        line = await self.ask(self._("Play again? [y/N] "))
        if line is not None and line.lower() in YES:
            result = await self.service.rematch(self.chat, self.user, table.id)
            self._seen = _Seen()
            if result.refusal is not None or result.table is None:
                self._show(result.events, refusal=result)
                return 1
            return await self._loop(result.table.id, result)
        if line is None:
            self.out.write("\n")
        return 0


def _key(text: str) -> str:
    """A menu label or a typed line, for comparing: no case, spacing, arrows or punctuation."""
    text = _ARROWS.sub(" ", text.translate(_OUTLINE)).casefold()
    return re.sub(r"[\s:,;+]+", "", text)


def _card_moves(typed: TypedMove, moves: Sequence[str]) -> list[str]:
    """The legal moves a typed line of cards names: the card played, and what it takes when
    given (in any order)."""
    if not typed.cards:
        return []
    played, taken = typed.cards[0], sorted(typed.cards[1:])
    found = []
    for move in moves:
        core = move.rstrip("!")
        card, _, took = core.partition(":")
        if card.rstrip("'") != played:
            continue
        if taken and sorted(c.rstrip("'") for c in took.split("+") if c) != taken:
            continue
        found.append(move)
    return found


def _scala40_moves_of(typed: TypedMove | None, moves: Sequence[str]) -> list[str]:
    """The listed Scala 40 moves made of exactly the typed cards (as laid: melds, attach,
    swap, discard), whatever their kind."""
    if typed is None or typed.cards is None:
        return []
    body = typed.text.upper()
    return [m for m in moves if " " in m and m.split(" ", 1)[1].upper() == body]


def _terminal_width() -> int:
    """The terminal's width now (it may have been resized): the terminal's own word first, as
    an exported COLUMNS may be stale; COLUMNS or 80 when the output is no terminal."""
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns or 80
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size((80, 24)).columns


def columns(items: Sequence[str], width: int) -> list[str]:
    """Lay menu items out in columns fitted to ``width``, down then across, each column as wide
    as its widest item (as ``ls`` does); never breaking an item."""
    if not items:
        return []
    widths = [_width(i) for i in items]
    for per_line in range(len(items), 0, -1):
        rows = -(-len(items) // per_line)
        cols = [list(range(c * rows, min((c + 1) * rows, len(items)))) for c in range(per_line)]
        cols = [c for c in cols if c]
        cells = [max(widths[i] for i in c) + 2 for c in cols]
        if sum(cells) - 2 <= width or len(cols) == 1:
            break
    lines = []
    for r in range(rows):
        row = [(items[c[r]], cells[k]) for k, c in enumerate(cols) if r < len(c)]
        text = "".join(item + " " * (cell - _width(item)) for item, cell in row[:-1])
        lines.append(text + row[-1][0])
    return lines


def wrap(line: str, width: int) -> list[str]:
    """``line`` cut at spaces into lines of at most ``width`` columns (the spacing within a
    line kept); an indented line's continuations are indented two more, a help row's (``  t
    draws...``) under its description. A word wider than a line is cut."""
    if _width(line) <= width:
        return [line]
    indent = line[: len(line) - len(line.lstrip(" "))]
    follow = indent + "  " if indent else ""
    column = re.match(r" +\S.*?\S {2,}(?=\S)", line)  # "  7♦ 3♥ 4♠   plays...": a help row
    if column is not None and _width(column.group()) <= width // 2:
        follow = " " * _width(column.group())  # its continuations under its description
    lines: list[str] = []
    prefix, current = indent, ""
    for piece in re.findall(r"\s*\S+", line.strip(" ")):
        word = piece.lstrip()
        if current and _width(prefix + current + piece) <= width:
            current += piece
            continue
        if current:
            lines.append(prefix + current)
            prefix, current = follow, ""
        while _width(prefix + word) > width:
            cut = _fit(word, max(width - _width(prefix), 1))
            lines.append(prefix + word[:cut])
            prefix, word = follow, word[cut:]
        current = word
    if current:
        lines.append(prefix + current)
    return lines


def _fit(text: str, width: int) -> int:
    """How many characters of ``text`` fit in ``width`` columns (at least one)."""
    used = 0
    for i, ch in enumerate(text):
        used += _width(ch)
        if used > width:
            return max(i, 1)
    return len(text)


def _width(text: str) -> int:
    """Columns a text takes in a terminal (wide emoji such as the joker take two)."""
    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text if ch != "\ufe0f"
    )
