"""Hostile input for every entry point of the service (what both adapters forward): button data
/ custom ids, move strings, command arguments and option values, languages, seats, levels.

Each ``fuzz_*`` runs ``examples`` hypothesis-generated inputs against a real service on a real
store and checks: no exception escapes; a refused call changes nothing (the table's version,
status and move log are as before); the refusal is a known code rendered as a short, non-empty
message in both languages; a move is only ever applied for the seated player whose turn it is.
Used by ``test_hostile_input.py`` (a few hundred inputs) and ``benchmarks/fuzz.py`` (100,000+).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from bot.render import Renderer
from bot.service import (
    REFUSALS,
    ChatRef,
    HandView,
    Refusal,
    Result,
    TableService,
    UserRef,
    default_registry,
    encode_button,
)
from tests.reliability.workload import start_table, users

CHAT = ChatRef("telegram", "-500")
ELSEWHERE = ChatRef("telegram", "-501")
PLAYERS = users("telegram", 1, 2)
STRANGER = UserRef("telegram", "99", "Eve", "en")
ACTIONS = [
    "@join", "@leave", "@start", "@fill.easy", "@fill.x", "@ai.hard", "@ai.", "@seat.0",
    "@seat.9", "@seat.-1", "@seat.", "@back", "@hand", "@rematch", "@abandon", "@", "@@",
    "?7D", "?", "?ZZ", "7D", "7D:3C+4S", "7D!", "1C:", "::", "10D", "7D:7D", "XX", "7d",
]  # fmt: skip

# Text that looks like what the adapters carry, and text that looks like nothing at all.
hostile_text = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=st.sampled_from("0123456789:@?!+.- DCSBHx٣²"), max_size=40),
    st.sampled_from(ACTIONS),
    st.binary(max_size=40).map(lambda b: b.decode("utf-8", "replace")),
)
numbers = st.one_of(
    st.integers(min_value=-3, max_value=12),
    st.integers(min_value=-(2**70), max_value=2**70),
)


@dataclass
class Tally:
    """What the fuzzers saw: inputs tried, refusals by code, accepted inputs."""

    inputs: int = 0
    accepted: int = 0
    refusals: dict[str, int] = field(default_factory=dict)

    def refused(self, code: str) -> None:
        self.refusals[code] = self.refusals.get(code, 0) + 1


class Arena:
    """A service with a playing table in CHAT (recreated whenever a fuzzed input ends it)."""

    def __init__(self, service: TableService, loop: asyncio.AbstractEventLoop) -> None:
        self.service = service
        self.loop = loop
        self.renderer = Renderer()
        self.tally = Tally()
        self.table_id = 0
        self.rng = random.Random(1)

    def run(self, coro: Awaitable[Any]) -> Any:
        return self.loop.run_until_complete(coro)

    async def ensure_table(self) -> None:
        if self.table_id:
            info = (await self.service.show(CHAT, PLAYERS[0], self.table_id)).table
            if info is not None and info.status == "playing":
                return
        for table in await self.service.open_tables(CHAT):
            await self.service.abandon(CHAT, PLAYERS[0], table.id, is_admin=True)
        self.table_id = await start_table(self.service, CHAT, PLAYERS, "scopa", {"target": 11})

    async def state(self) -> tuple[Any, ...]:
        export = await self.service.export_game(self.table_id)
        info = (await self.service.show(CHAT, PLAYERS[0], self.table_id)).table
        assert info is not None
        return (info.version, export["status"], len(export["moves"]), info.seats)

    async def current(self) -> tuple[int, UserRef, list[str]]:
        """The table's version, the player to move and their legal moves."""
        info = (await self.service.show(CHAT, PLAYERS[0], self.table_id)).table
        assert info is not None and info.current_seat is not None
        seat = info.seats[info.current_seat]
        assert seat is not None
        mover = next(p for p in PLAYERS if p.user_id == seat.user_id)
        hand = await self.service.show(CHAT, mover, self.table_id)
        view = next(e.view for e in hand.events if isinstance(e, HandView))
        return info.version, mover, list(view.legal_moves)

    async def played_legal(self, version: int, legal: list[str]) -> bool:
        """Whether the move the log holds for ``version`` is one of the ``legal`` moves: replayed
        with the engine, it leads where one of them leads (the log keeps the text as typed, and
        move text is read case-insensitively: ``7d`` is ``7D``)."""
        export = await self.service.export_game(self.table_id)
        kind = default_registry().get(export["game"])
        assert kind is not None
        options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
        game = kind.new_game(kind.rules(export["players"], options), export["seed"])
        for logged in export["moves"]:
            if logged["version"] == version:
                after = game.play(logged["move"]).to_dict()
                return any(game.play(move).to_dict() == after for move in legal)
            game = game.play(logged["move"])
        return False

    def check_refusal(self, refusal: Refusal) -> None:
        assert refusal.code in REFUSALS, refusal
        for locale in ("it", "en"):
            text = self.renderer.refusal(
                Refusal(refusal.code, locale, refusal.detail, refusal.params)
            )
            assert text.strip() and len(text) <= 200, (refusal, text)
        self.tally.refused(refusal.code)

    async def attempt(self, call: Callable[[], Awaitable[Result]], *, may_change: bool) -> Result:
        """Runs one hostile call; a refusal must leave the table exactly as it was."""
        await self.ensure_table()
        before = await self.state()
        result = await call()  # any exception fails the fuzzer: "no crash"
        self.tally.inputs += 1
        if result.refusal is not None:
            self.check_refusal(result.refusal)
            assert await self.state() == before, (result.refusal, before)
        else:
            self.tally.accepted += 1
            if not may_change:
                assert await self.state() == before
        return result


def _settings(examples: int, seed: int | None) -> Callable[[Any], Any]:
    """Hypothesis settings: derandomized (the tests), or seeded so that the benchmark's chunks
    each draw their own reproducible inputs (``seed``)."""
    chosen = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
    )
    if seed is None:
        return chosen

    def apply(test: Any) -> Any:
        return hypothesis_seed(seed)(chosen(test))

    return apply


def fuzz_presses(arena: Arena, examples: int, *, seed: int | None = None) -> None:
    """Button data / custom ids: random text, and real-looking data with hostile parts, from the
    player to move, the other player (a forged button for another seat) and a stranger."""

    @_settings(examples, seed)
    @given(
        data=st.one_of(
            hostile_text,
            st.tuples(numbers, numbers, hostile_text).map(lambda t: f"{t[0]}:{t[1]}:{t[2]}"),
        ),
        real=st.booleans(),
        who=st.sampled_from(["mover", "other", "stranger"]),
        where=st.sampled_from([CHAT, ELSEWHERE]),
    )
    def check(data: str, real: bool, who: str, where: ChatRef) -> None:
        async def go() -> None:
            await arena.ensure_table()
            version, mover, legal = await arena.current()
            text = data
            if real:
                # The real table and version: only the action is hostile (or a real move).
                action = data.split(":", 2)[-1] or "7D"
                if len(action.encode()) <= 40:
                    text = encode_button(arena.table_id, version, action)
            user = {"mover": mover, "stranger": STRANGER}.get(
                who, next(p for p in PLAYERS if p != mover)
            )
            result = await arena.attempt(
                lambda: arena.service.press(where, user, text),
                # A stranger's press may show them the table, never change it.
                may_change=user != STRANGER,
            )
            action = text.split(":", 2)[-1]
            if result.ok and action[:1] not in ("@", "?"):
                # A move was applied: only by the player to move, in the table's chat, legal.
                assert user == mover and where == CHAT, text
                assert await arena.played_legal(version, legal), text

        arena.run(go())

    check()


def fuzz_moves(arena: Arena, examples: int, *, seed: int | None = None) -> None:
    """Move strings (``/play``-style text and second-step choices) at the right version."""

    @_settings(examples, seed)
    @given(
        move=hostile_text, who=st.sampled_from(["mover", "other", "stranger"]), stale=st.booleans()
    )
    def check(move: str, who: str, stale: bool) -> None:
        async def go() -> None:
            await arena.ensure_table()
            version, mover, legal = await arena.current()
            user = {"mover": mover, "stranger": STRANGER}.get(
                who, next(p for p in PLAYERS if p != mover)
            )
            result = await arena.attempt(
                lambda: arena.service.play(
                    CHAT, user, arena.table_id, version=version - stale, move=move
                ),
                may_change=True,
            )
            if result.ok:
                assert user == mover and not stale, move
                assert await arena.played_legal(version, legal), move

        arena.run(go())

    check()


option_values = st.one_of(
    hostile_text, numbers, st.booleans(), st.floats(allow_nan=True), st.none()
)
option_names = st.one_of(
    st.sampled_from(
        [
            "target",
            "variant",
            "napola",
            "scopa_d_assi",
            "deck",
            "rounds",
            "jokers",
            "reshuffle",
            "players",
            "schema",
            "",
        ]
    ),
    st.text(max_size=20),
)


def fuzz_new_tables(arena: Arena, examples: int, *, seed: int | None = None) -> None:
    """Command arguments and option values of a new table (``/scopa 4 target=21``, Discord's
    slash options): a lobby or a clear refusal, never a crash."""

    @_settings(examples, seed)
    @given(
        game=st.one_of(
            st.sampled_from(["scopa", "scopone", "scientifico", "scala40"]), hostile_text
        ),
        players=st.one_of(st.none(), numbers),
        options=st.dictionaries(option_names, option_values, max_size=4),
    )
    def check(game: str, players: int | None, options: dict[str, Any]) -> None:
        async def go() -> None:
            result = await arena.service.create_table(
                ELSEWHERE, STRANGER, game, players=players, options=options
            )
            arena.tally.inputs += 1
            if result.refusal is not None:
                arena.check_refusal(result.refusal)
                assert result.table is None or result.table.status != "playing"
                return
            arena.tally.accepted += 1
            assert result.table is not None and result.table.status == "lobby"
            closed = await arena.service.abandon(ELSEWHERE, STRANGER, result.table.id)
            assert closed.ok, closed.refusal

        arena.run(go())

    check()


def fuzz_small_calls(arena: Arena, examples: int, *, seed: int | None = None) -> None:
    """Languages (``/lang``), seats (``@seat.n``), computer levels, leaderboard families."""

    @_settings(examples, seed)
    @given(text=hostile_text, number=numbers, which=st.integers(0, 3))
    def check(text: str, number: int, which: int) -> None:
        service = arena.service
        user = STRANGER
        calls: list[Callable[[], Awaitable[Result]]] = [
            lambda: service.set_language(text, user=user, chat=ELSEWHERE),
            lambda: service.choose_seat(CHAT, user, number, table_id=arena.table_id),
            lambda: service.add_computer(CHAT, user, text, arena.table_id),
            lambda: service.leaderboard(text, user=user, chat=CHAT),
        ]

        async def go() -> None:
            await arena.attempt(calls[which], may_change=False)

        arena.run(go())

    check()


FUZZERS = (fuzz_presses, fuzz_moves, fuzz_new_tables, fuzz_small_calls)
