"""Terminal play's session: who is playing, the table to play (resumed or new), the game loop
(the menu of moves, a line read, the move played while the next line is read ahead), leaving
(the game saved) and playing again. ``TerminalPlay`` is given its parts: the ``Console`` it and
they write to, the move reader (``choose``) and the screen after moves (``present``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Protocol, TextIO

from bot.render import Renderer
from bot.service import (
    ChatRef,
    Event,
    HandView,
    Result,
    TableInfo,
    TableService,
    UserRef,
)

from .choose import MoveChooser
from .console import PLATFORM, Console
from .layout import columns
from .present import Presenter
from .texts import HELP, PROMPT_SCOPA, PROMPTS, QUIT, TABLE, YES

__all__ = ["DEFAULT_GAME", "MAX_CATCH_UPS", "MAX_PROMPTS", "NameBook", "TerminalPlay"]

DEFAULT_GAME = "scopa"
# A bound on prompts in one session, so a runaway input stream always ends.
MAX_PROMPTS = 100_000
# A bound on rounds of left-over computer turns in a row (each round plays all of them).
MAX_CATCH_UPS = 3
# Seconds a computer may think before "The computer is thinking…" is shown (a terminal only).
THINKING_AFTER = 0.3


class NameBook(Protocol):
    """Where the terminal keeps the player's name between runs."""

    async def get(self) -> str | None: ...

    async def put(self, name: str) -> None: ...


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
        last_table: NameBook | None = None,
        saved_in: str | None = None,
        typed_ahead: Callable[[], None] | None = None,
        earlier_save: str | None = None,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.user = user
        self.chat = ChatRef(PLATFORM, chat_id)
        self._read = read
        self.out = out
        self.console = Console(renderer, out, locale=user.locale or "it", width=width)
        self.chooser = MoveChooser(self.console)
        self.presenter = Presenter(self.console, service, user.user_id)
        self.resume_command = resume_command
        self.names = names
        self.ask_name = ask_name
        self._saved_game = False  # a game of this player's is saved: leaving says how to resume
        self._started = False  # this run got as far as a table (else: nothing played yet)
        self._ahead: asyncio.Future[str | None] | None = None  # a line read while computers played
        # The table played last (its id), so that the plain command resumes it.
        self.last_table = last_table
        self.saved_in = saved_in  # where the game is saved (a file), to say so on leaving
        # At a keyboard: drops the keys typed but not yet read. None when the input is no
        # terminal (a script's lines are all meant for the prompts, none typed blind).
        self.typed_ahead = typed_ahead
        # A folder where an earlier version kept terminal play's games (data/ here).
        self.earlier_save = earlier_save

    @property
    def _locale(self) -> str:
        """The player's language as last shown (the events shown may change it)."""
        return self.console.locale

    def _(self, text: str, locale: str | None = None) -> str:
        return self.console.translate(text, locale)

    def say(self, text: str) -> None:
        self.console.say(text)

    def _label(self, family: str, move: str) -> str:
        return self.console.label(family, move)

    def _help(self, family: str) -> str:
        return self.console.help(family)

    def _choose(
        self,
        line: str,
        moves: list[str],
        labels: list[str],
        family: str,
        hand: HandView | None = None,
    ) -> str | None:
        return self.chooser.choose(line, moves, labels, family, hand)

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
        thinking = False
        try:
            waiting: set[asyncio.Future[Result] | asyncio.Future[str | None]] = {task, self._ahead}
            thinking = await self._say_thinking(waiting)
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
        finally:
            self._erase_thinking(thinking)

    async def _thinking(self, work: Awaitable[Result]) -> Result:
        """``work`` (computers about to think, the input not read meanwhile: a deal), saying
        so on a terminal when it takes a moment."""
        task = asyncio.ensure_future(work)
        thinking = False
        try:
            thinking = await self._say_thinking({task})
            return await task
        except BaseException:  # Ctrl-C: nothing may go on using the store being closed
            task.cancel()
            raise
        finally:
            self._erase_thinking(thinking)

    async def _say_thinking(
        self, waiting: set[asyncio.Future[Result] | asyncio.Future[str | None]]
    ) -> bool:
        """On a terminal, when none of ``waiting`` is done within a moment: the line saying the
        computer is thinking (a quick computer is not worth a flicker). Whether it was said."""
        if not self._live():
            return False
        await asyncio.wait(waiting, timeout=THINKING_AFTER, return_when=asyncio.FIRST_COMPLETED)
        if any(f.done() for f in waiting):
            return False
        self.out.write(self._("The computer is thinking…"))
        self.out.flush()
        return True

    def _erase_thinking(self, said: bool) -> None:
        """The thinking line erased (the moves made follow in its place)."""
        if said:
            self.out.write("\r\x1b[2K")
            self.out.flush()

    def _live(self) -> bool:
        """Whether the output is a terminal (where a line can be erased)."""
        isatty = getattr(self.out, "isatty", None)
        try:
            return bool(isatty and isatty())
        except (OSError, ValueError):
            return False

    def _drop_typed_ahead(self) -> None:
        """Before a menu or question is shown: forget the keys typed before it (while the
        computer thought), so that they never answer a menu the player has not seen. Only at a
        keyboard: the lines of a script (a pipe) are all meant for the prompts."""
        if self.typed_ahead is None:
            return
        ahead = self._ahead
        if ahead is not None and ahead.done() and ahead.result() is not None:
            self._ahead = None  # a whole line typed blind (the end of input is kept: it leaves)
        self.typed_ahead()

    async def run(
        self, game: str | None, *, players: int | None, level: str, new: bool = False
    ) -> int:
        """Resume the open table (``game`` None: whichever it is), or open a new one (of
        ``game``, Scopa by default); play until it ends or the user quits.

        Ctrl-C (the task cancelled) and Ctrl-D (end of input) leave at once, saying the game is
        saved and how to resume it."""
        try:
            if self.earlier_save:
                told = self._(
                    "Games saved by an earlier version stay in {folder}; to play them, "
                    "run: DATA_DIR={folder} {command}"
                )
                # Never cut (a path to copy): a long line is wrapped by the terminal itself.
                self.out.write(
                    told.format(folder=self.earlier_save, command=self.resume_command) + "\n"
                )
            self._saved_game = bool(await self._my_tables())
            if not await self._who():
                self.out.write("\n")
                self._leaving()
                return 0
            # The terminal is this player's own chat: its public views and their hand speak
            # the language of this run (LANG may have changed since the game was saved).
            await self.service.set_language(self._locale, user=self.user, chat=self.chat)
            await self.service.set_language(self._locale, user=self.user)
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
        """What leaving now means for the game: saved (where, and how to resume it), or none
        yet."""
        if self._saved_game:
            self.say(
                self._("Game saved. To resume it, run: {command}").format(
                    command=self.resume_command
                )
            )
            if self.saved_in:
                # Never cut (a path to copy): a long one is wrapped by the terminal itself.
                where = self._("Saved games are kept in {place}").format(place=self.saved_in)
                self.out.write(where + "\n")
                self.out.flush()
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
        """The table to play (resumed or new) and, when just dealt, what was shown. One game is
        kept per game: ``game`` resumes that game's saved table, else deals one (``new``:
        abandoning that game's saved table, and only that one); no ``game`` resumes the table
        played last."""
        mine = await self._my_tables()
        wanted = (game or "").strip().lower()
        if not wanted and mine and not new:
            return await self._resume(await self._played_last(mine), mine, level)
        wanted = wanted or DEFAULT_GAME
        same = [t for t in mine if t.game == wanted]
        if same and not new:
            return await self._resume(same[-1], mine, level)
        kind = self.service.registry.get(wanted)
        if kind is None or (players is not None and players not in kind.players):
            # Refused before any saved game is given up: create_table says why.
            result = await self.service.create_table(self.chat, self.user, wanted, players=players)
            if result.refusal is not None and result.refusal.code != "too_many_tables":
                self.presenter.show(result.events, refusal=result)
                return None, None
        # Room for one table of each game in the terminal's chat.
        await self.service.set_max_open_tables(self.chat, len(self.service.registry.names))
        for t in same:
            await self.service.abandon(self.chat, self.user, t.id, is_admin=True)
            self.say(
                self._("The saved {game} game (table {id}) is abandoned.").format(
                    game=self._game(t.game), id=t.id
                )
            )
        self._saved_game = False
        result = await self.service.create_table(self.chat, self.user, wanted, players=players)
        if result.refusal is not None:
            self.presenter.show(result.events, refusal=result)
            return None, None
        assert result.table is not None
        self._started = True
        self._also_saved([t for t in mine if t not in same])
        await self._remember(result.table)
        # The computers who lead play now: the screen says they are thinking.
        started = await self._thinking(
            self.service.start(self.chat, self.user, result.table.id, fill_with=level)
        )
        self.presenter.restart()
        if started.refusal is not None:
            self.presenter.show(started.events, refusal=started)
            return None, None
        self._saved_game = True
        return started.table, started

    async def _resume(
        self, table: TableInfo, mine: list[TableInfo], level: str
    ) -> tuple[TableInfo | None, Result | None]:
        """Resume ``table`` (a lobby is dealt now), naming the player's other saved games."""
        self._started = True
        await self._remember(table)
        if table.status == "lobby":
            result = await self._thinking(
                self.service.start(self.chat, self.user, table.id, fill_with=level)
            )
            if result.refusal is not None:
                self.presenter.show(result.events, refusal=result)
                return None, None
            self._saved_game = True
            self._also_saved([t for t in mine if t.id != table.id])
            return result.table, result
        self.say(
            self._("Resuming the saved {game} game (table {id}).").format(
                game=self._game(table.game), id=table.id
            )
        )
        self._also_saved([t for t in mine if t.id != table.id])
        await self._resume_log(table)
        return table, None

    def _also_saved(self, others: list[TableInfo]) -> None:
        """The player's other saved games, kept, and how to play each."""
        for t in others:
            self.say(
                self._("Your saved {game} game is kept; to play it, run: {command}").format(
                    game=self._game(t.game), command=f"{self.resume_command} play {t.game}"
                )
            )

    def _game(self, game: str) -> str:
        return self.renderer.game_label(game, self._locale)

    async def _played_last(self, mine: list[TableInfo]) -> TableInfo:
        """The saved table played last (the newest when it is not known)."""
        last = await self.last_table.get() if self.last_table is not None else None
        return next((t for t in mine if str(t.id) == last), mine[-1])

    async def _remember(self, table: TableInfo) -> None:
        if self.last_table is not None:
            await self.last_table.put(str(table.id))

    async def _resume_log(self, table: TableInfo) -> None:
        """On resuming, the moves since the player's own last one are shown again."""
        moves = await self.presenter.moves(table.id)
        seat = table.seat_of(PLATFORM, self.user.user_id)
        mine = [i for i, m in enumerate(moves) if m["seat"] == seat]
        self.presenter.restart(mine[-1] if mine else 0)

    async def _catch_up(self, table_id: int) -> list[Event] | None:
        """Play the computers' turns left over (the process stopped while they thought); None
        when the player left meanwhile."""
        result = await self._reading_meanwhile(
            self.service.catch_up(self.chat, self.user, table_id)
        )
        if result is None:
            return None
        return [] if result.refusal is not None else list(result.events)

    async def _loop(self, table_id: int, dealt: Result | None = None) -> int:  # noqa: C901 - the terminal game loop: input, computers, results in one place
        self._saved_game = True
        happened: list[Event] = list(dealt.events) if dealt is not None else []
        if dealt is None:
            caught = await self._catch_up(table_id)  # resumed: the computers finish first
            if caught is None:
                return self._left()
            happened = caught
        shown = await self.service.show(self.chat, self.user, table_id)
        await self.presenter.present(happened, shown)
        waits = 0
        for _ in range(MAX_PROMPTS):
            table = shown.table
            if table is None:
                self.presenter.show([], refusal=shown)
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
                await self.presenter.present(happened, shown)
                continue
            waits = 0
            self._drop_typed_ahead()
            labels = [self._label(table.family, m) for m in moves]
            menu = [f"{i}) {label}" for i, label in enumerate(labels, 1)]
            for row in columns(menu, self.console.width() - 1):
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
                self.presenter.show(shown.events, refusal=shown)
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
                self.presenter.show([], refusal=result)
                continue
            shown = await self.service.show(self.chat, self.user, table_id)
            await self.presenter.present(result.events, shown)
        return 1

    async def _finished(self, table: TableInfo) -> int:
        self._saved_game = False
        self._drop_typed_ahead()
        line = await self.ask(self._("Play again? [y/N] "))
        if line is not None and line.lower() in YES:
            result = await self._thinking(self.service.rematch(self.chat, self.user, table.id))
            self.presenter.restart()
            if result.refusal is not None or result.table is None:
                self.presenter.show(result.events, refusal=result)
                return 1
            await self._remember(result.table)
            return await self._loop(result.table.id, result)
        if line is None:
            self.out.write("\n")
        return 0
