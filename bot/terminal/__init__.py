"""Play in a terminal against computer players, through the same service and store as the bots.

The game is saved after every move: quitting (``q``, Ctrl-C or Ctrl-D) and running again resumes
it. Input: the number of a listed move, or the move typed as the screen shows it (``7♦``,
``7♦ 3♥ 4♠``), or with the suit letters of the player's language (``bot.render.typed``: English
H D C S, Italian D C S B). ``h`` shows the game's help, ``v`` the table, ``q`` quits. After every
turn the screen lists each move made since the player's last one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import threading
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from bot.render import BRISCOLA_FAMILIES, N_, Message, Renderer, move_text, scala40_move_text
from bot.render.briscola import briscola_move_text
from bot.render.typed import TypedMove, read_typed, suit_help
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

__all__ = ["LineReader", "NameBook", "TerminalPlay", "columns"]

PLATFORM = "terminal"
HELP_SCOPA = N_(
    "Type the number of a move, or the card as it is shown: 7♦ plays the 7 of diamonds "
    "(denari); when it can take different cards, add them: 7♦ 3♥ 4♠. Suits can be typed as "
    "letters: {letters}. Commands: v shows the table, h this help, q quits (the game is saved; "
    "Ctrl-C and Ctrl-D too)."
)
HELP_SCALA40 = N_(
    "Type the number of a move, or the move itself, cards as they are shown: t draws from the "
    "stock, p takes the discard, d 7♦ discards the 7♦, o 7♦8♦9♦ K♥K♠K♦ opens with those melds, "
    "m 4♠5♠6♠ lays a meld once open, a3 10♦ attaches the 10♦ to meld 3, s3 7♦ puts the 7♦ "
    "in place of meld 3's joker and takes the joker. Suits can be typed as letters: {letters}; "
    "the joker as * . Commands: v shows the table, h this help, q quits (the game is saved; "
    "Ctrl-C and Ctrl-D too)."
)
HELP_BRISCOLA = N_(
    "Type the number of a move, or the card as it is shown: A♠ plays the Asso of spade. Any "
    "card may be played (no duty to follow suit); the trick goes to the highest briscola, else "
    "to the highest card of the suit led. In the chiamata auction type the number of a call, "
    "or pass; the winner then names the card (its suit is the briscola). Suits can be typed as "
    "letters: {letters}. Commands: v shows the table, h this help, q quits (the game is saved; "
    "Ctrl-C and Ctrl-D too)."
)
# Words that are never a move in any game (Scala 40's "t" draws: the table is "v").
QUIT = ("q", "quit", "exit", "esci")
HELP = ("h", "help", "?", "aiuto")
TABLE = ("v", "table", "tavolo")
# A bound on prompts in one session, so a runaway input stream always ends.
MAX_PROMPTS = 100_000
_SCALA40_HEADS = ("t", "p", "o", "m", "a", "s", "d", "in", "out")


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
        self._width = width or (lambda: shutil.get_terminal_size((80, 24)).columns)
        self._seen = _Seen()
        self._locale = user.locale or "it"
        self._playing = False  # a table is on screen: leaving says how to resume it

    def _(self, text: str, locale: str | None = None) -> str:
        return self.renderer.translations(locale or self._locale).gettext(text)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = await self._read()
        return None if line is None else line.strip()

    async def run(self, game: str, *, players: int | None, level: str, new: bool = False) -> int:
        """Resume the open table, or open a new one; play until it ends or the user quits.

        Ctrl-C (the task cancelled) and Ctrl-D (end of input) leave at once, saying the game is
        saved and how to resume it."""
        try:
            await self._who()
            # The terminal is this player's own chat: its public views speak their language.
            await self.service.set_language(self._locale, user=self.user, chat=self.chat)
            table, shown = await self._table(game, players=players, level=level, new=new)
            if table is None:
                return 2
            return await self._loop(table.id, shown)
        except asyncio.CancelledError:
            self.out.write("\n")
            self._saved()
            raise

    def _saved(self) -> None:
        if self._playing:
            self.say(
                self._("Game saved. To resume it, run: {command}").format(
                    command=self.resume_command
                )
            )

    async def _who(self) -> None:
        """The player's name: asked on the first run (the login name is the default)."""
        if self.names is None:
            return
        known = await self.names.get()
        if known:
            self.user = UserRef(self.user.platform, self.user.user_id, known, self.user.locale)
            return
        if self.ask_name:
            answer = await self.ask(
                self._("Your name at the table [{name}]: ").format(name=self.user.name)
            )
            name = " ".join((answer or "").split())[:32]
            if name:
                self.user = UserRef(self.user.platform, self.user.user_id, name, self.user.locale)
        await self.names.put(self.user.name)

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
                if result.refusal is not None:
                    self._show(result)
                    return None, None
                return result.table, result
            self.say(self._("Resuming the saved game (table {id}).").format(id=table.id))
            if table.game != game.strip().lower():
                hint = self._("To leave it and start {game} instead, run: {command}")
                self.say(
                    hint.format(
                        game=self.renderer.game_label(game, self._locale),
                        command=f"{self.resume_command} play {game.strip().lower()} --new",
                    )
                )
            await self._resume_log(table)
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
        self._seen = _Seen()
        if started.refusal is not None:
            self._show(started)
            return None, None
        return started.table, started

    async def _resume_log(self, table: TableInfo) -> None:
        """On resuming, the moves since the player's own last one are shown again."""
        moves = await self._moves(table.id)
        seat = table.seat_of(PLATFORM, self.user.user_id)
        mine = [i for i, m in enumerate(moves) if m["seat"] == seat]
        self._seen.moves = mine[-1] if mine else 0

    def _show(self, result: Result) -> bool:
        if result.refusal is not None:
            self.say("! " + self.renderer.refusal(result.refusal, limit=None))
            return False
        for event in result.events:
            if isinstance(event, LobbyView | TurnNotice):
                continue  # the terminal player sees the hand prompt instead
            if isinstance(event, Announcement) and event.kind == "scopa":
                continue  # marked on the move that made it (the move log)
            self._locale = getattr(event, "locale", self._locale) or self._locale
            message = self.renderer.render(event)
            if isinstance(event, TableView | HandView):
                self.say("")
            self.say(_text(message))
            if isinstance(event, GameOver) and event.ratings:
                self.say(
                    self._(
                        "(The rating measures your play across games: it starts at 0, a win "
                        "raises it and a loss lowers it, more so against stronger players.)"
                    )
                )
        return True

    async def _moves(self, table_id: int) -> list[dict[str, Any]]:
        try:
            document = await self.service.export_game(table_id)
        except Exception:  # the log is a courtesy: never stop the game for it
            logger.exception("table %s: move log unavailable", table_id)
            return []
        return list(document.get("moves") or [])

    async def _show_moves(self, table: TableInfo, result: Result | None) -> None:
        """Every move since the last one shown: who, what, what it took, scopa."""
        moves = await self._moves(table.id)
        fresh = moves[self._seen.moves :]
        self._seen.moves = len(moves)
        if not fresh:
            return
        scope: list[int] = []
        if result is not None:
            scope = [
                int(e.data.get("seat", -1))
                for e in result.events
                if isinstance(e, Announcement) and e.kind == "scopa"
            ]
        tr = self.renderer.translations(self._locale)
        me = table.seat_of(PLATFORM, self.user.user_id)
        lines = []
        for m in fresh:
            seat, move = int(m["seat"]), str(m["move"])
            if table.family == "scala40":
                what = scala40_move_text(move, tr)
            elif table.family in BRISCOLA_FAMILIES:
                what = briscola_move_text(move, tr)
            else:
                what = move_text(move)
                if ":" in move and seat in scope:
                    scope.remove(seat)
                    what += " · " + self._("Scopa!")
            who = self._("You") if seat == me else self.renderer.seat_name(table, seat, tr)
            lines.append(f"  {who}: {what}")
        self.say("")
        self.say(self._("Moves:"))
        for line in lines:
            self.say(line)

    def _help(self, family: str) -> str:
        text = HELP_SCALA40 if family == "scala40" else HELP_SCOPA
        if family in BRISCOLA_FAMILIES:
            text = HELP_BRISCOLA
        return self._(text).format(letters=suit_help(self._locale))

    async def _loop(self, table_id: int, shown: Result | None = None) -> int:
        self._playing = True
        if shown is None:
            shown = await self.service.show(self.chat, self.user, table_id)
            if shown.table is not None:
                await self._show_moves(shown.table, None)
            self._show(shown)
        else:
            # Just dealt: computers may have played before the player's first turn.
            if shown.table is not None:
                await self._show_moves(shown.table, shown)
            self._show(shown)
        for _ in range(MAX_PROMPTS):
            table = shown.table
            if table is None:
                return 1
            if table.status != "playing":
                return await self._finished(table)
            hand = next((e for e in shown.events if isinstance(e, HandView)), None)
            moves: list[str] = list(getattr(hand.view, "legal_moves", ()) or ()) if hand else []
            if not moves:
                shown = await self.service.show(self.chat, self.user, table_id)
                continue
            if table.family == "scala40":
                tr = self.renderer.translations(self._locale)
                labels = [scala40_move_text(m, tr) for m in moves]
            elif table.family in BRISCOLA_FAMILIES:
                tr = self.renderer.translations(self._locale)
                labels = [briscola_move_text(m, tr) for m in moves]
            else:
                labels = [move_text(m) for m in moves]
            menu = [f"{i}) {label}" for i, label in enumerate(labels, 1)]
            for row in columns(menu, self._width()):
                self.say(row)
            line = await self.ask(self._("Your move (number or card, h = help, q = quit): "))
            if line is None or line.lower() in QUIT:
                self._saved()
                return 0
            if not line:
                continue
            if line.lower() in HELP:
                self.say(self._help(table.family))
                continue
            if line.lower() in TABLE:
                shown = await self.service.show(self.chat, self.user, table_id)
                self._show(shown)
                continue
            move = self._choose(line, moves, labels, table.family)
            if move is None:
                continue
            result = await self.service.play(
                self.chat, self.user, table_id, version=table.version, move=move
            )
            if result.refusal is not None:
                self._show(result)
                continue
            if result.table is not None:
                await self._show_moves(result.table, result)
            self._show(result)
            shown = await self.service.show(self.chat, self.user, table_id)
            shown.events = [e for e in shown.events if isinstance(e, HandView)] or shown.events
        return 1

    def _choose(self, line: str, moves: list[str], labels: list[str], family: str) -> str | None:
        """The move string a typed line names, or None after saying why it names none."""
        count = len(moves)
        if line.isdigit():
            if 1 <= int(line) <= count:
                return moves[int(line) - 1]
            self.say(self._("Choose a number from 1 to {count}.").format(count=count))
            return None
        if family in BRISCOLA_FAMILIES:
            # A move by its word or label (pass, swap, call 3D, "Passo"), else a card as below.
            by_name = {m.lower(): m for m in moves} | {
                lb.lower(): m for m, lb in zip(moves, labels, strict=True)
            }
            if line.strip().lower() in by_name:
                return by_name[line.strip().lower()]
        typed = read_typed(line, self._locale)
        if family == "scala40":
            head = typed.text.split(" ", 1)[0].lower()
            if not any(
                head == h or (h in "as" and head[:1] == h and head[1:].isdigit())
                for h in _SCALA40_HEADS
            ):
                self._unknown(line, count)
                return None
            if typed.other is not None and typed.text not in moves and typed.other.text in moves:
                self._ambiguous(line, [typed.other.text], family)
                return None
            return typed.text  # the engine says what is wrong with it, if anything
        if typed.cards is None:
            self._unknown(line, count)
            return None
        found = _scopa_moves(typed, moves)
        if not found and typed.other is not None and _scopa_moves(typed.other, moves):
            self._ambiguous(line, _scopa_moves(typed.other, moves), family)
            return None
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            numbers = [f"{moves.index(m) + 1}) {move_text(m)}" for m in found]
            self.say(
                self._("{card} can take different cards: type the number of your choice.").format(
                    card=move_text(typed.cards[0])
                )
            )
            self.say("  ".join(numbers))
            return None
        # Not a legal move: the service says why (not in your hand, must take...).
        return (
            ":".join([typed.cards[0], "+".join(typed.cards[1:])])
            if typed.cards[1:]
            else typed.cards[0]
        )

    def _unknown(self, line: str, count: int) -> None:
        self.say(
            self._(
                "“{text}” is not a move. Type a number from 1 to {count}, or a card as it is "
                "shown (7♦, or with letters: {letters}); h for help."
            ).format(text=line[:40], count=count, letters=suit_help(self._locale))
        )

    def _ambiguous(self, line: str, choices: list[str], family: str) -> None:
        tr = self.renderer.translations(self._locale)
        shown = [scala40_move_text(c, tr) if family == "scala40" else move_text(c) for c in choices]
        self.say(
            self._(
                "In this language C means {suit}, and “{text}” is not a move that way. Did you "
                "mean: {choices}? Type it with the symbol, as shown."
            ).format(
                suit="♣" if not self._locale.startswith("it") else "♥",
                text=line[:40],
                choices=", ".join(shown),
            )
        )

    async def _finished(self, table: TableInfo) -> int:
        self._playing = False
        line = await self.ask(self._("Play again? [y/N] "))
        if line is not None and line.lower() in ("y", "yes", "s", "si", "sì"):
            result = await self.service.rematch(self.chat, self.user, table.id)
            self._seen = _Seen()
            if result.refusal is not None or result.table is None:
                self._show(result)
                return 1
            return await self._loop(result.table.id, result)
        return 0


def _scopa_moves(typed: TypedMove, moves: Sequence[str]) -> list[str]:
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


def columns(items: Sequence[str], width: int) -> list[str]:
    """Lay menu items out in columns fitted to ``width`` (never breaking an item)."""
    if not items:
        return []
    cell = max(_width(i) for i in items) + 2
    per_line = max(1, min(len(items), (max(width, 20) + 2) // cell))
    rows = -(-len(items) // per_line)
    lines = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(per_line) if c * rows + r < len(items)]
        lines.append("".join(item + " " * (cell - _width(item)) for item in row[:-1]) + row[-1])
    return lines


def _width(text: str) -> int:
    """Columns a text takes in a terminal (wide emoji such as the joker take two)."""
    return sum(
        2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text if ch != "\ufe0f"
    )


def _text(message: Message) -> str:
    return message.text
