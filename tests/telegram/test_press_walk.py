"""The walk of one press, traced: a player presses a move button in their private hand (the real
PTB against the fake Bot API), and every call made into the project's packages until the
messages are sent is recorded (``sys.setprofile``). The calls between packages must run down the
layers and never back up (docs/architecture.md, "A move, from the button to the edits"), and the
packages are entered in the order the architecture page gives."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from tests.fakes.telegram_api import FakeBotApi
from tests.telegram.harness import Tavolo, hand_message, move_buttons
from tests.telegram.test_scenarios import ALICE, BOB, start_two_player_game

ROOT = Path(__file__).resolve().parents[2]
# The packages of a move, by layer: a call may go to the same or a lower layer, never up.
LAYERS = {
    "bot/telegram": 0,
    "bot/service": 1,
    "bot/render": 1,
    "bot/store": 2,
    "engine": 3,
    "bot/domain": 3,
}


def package(frame: FrameType | None) -> str | None:
    """The project package of the nearest project frame from ``frame`` outwards."""
    while frame is not None:
        name = _package_of(frame.f_code.co_filename)
        if name is not None:
            return name
        frame = frame.f_back
    return None


def _package_of(filename: str) -> str | None:
    try:
        relative = Path(filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None
    for name in LAYERS:
        if relative.startswith(name + "/"):
            return name
    return None


@contextmanager
def traced() -> Iterator[list[tuple[str | None, str, str]]]:
    """Every call into a project package: (calling package or None, package, function)."""
    calls: list[tuple[str | None, str, str]] = []
    # A coroutine resumed after an await is a "call" too: only a frame's first one counts
    # (the frames are kept while tracing, so no id is reused).
    started: dict[int, FrameType] = {}

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or id(frame) in started:
            return
        started[id(frame)] = frame
        callee = _package_of(frame.f_code.co_filename)
        if callee is not None:
            calls.append((package(frame.f_back), callee, frame.f_code.co_qualname))

    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(None)


async def test_a_press_walks_down_the_layers_in_order(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        table_id = await start_two_player_game(tavolo)
        assert tavolo.bot is not None
        await tavolo.bot.delivery.settled()
        player, message = next(
            (p, m) for p in (ALICE, BOB) if (m := hand_message(api, p["id"], table_id)) is not None
        )
        data = next(d for d in move_buttons(message) if ":?" not in d)
        with traced() as calls:
            answer = await tavolo.press(message, player, data)
        assert answer["text"] is None
    walk = all_crossings(calls)
    print("\n".join(f"{a} -> {b}: {f}" for a, b, f in walk))
    for caller, callee, function in walk:
        assert LAYERS[callee] >= LAYERS[caller], f"{caller} calls up into {callee}.{function}"
    # Down the layers in order: the service judges (the engine), commits (the store), then the
    # adapter renders.
    order = [(callee, function) for _, callee, function in walk]
    engine = order.index(("engine", "Game.play"))
    save = order.index(("bot/store", "Store.save"))
    render = order.index(("bot/render", "Renderer.render"))
    assert engine < save < render, order
    # The adapter enters the service once: the press (its use_case wrapper), after marking the
    # player as looking (the service's Presence, shared by every front end).
    asked = [f for a, b, f in walk if (a, b) == ("bot/telegram", "bot/service")]
    assert asked == ["Presence.seen", "use_case.<locals>.run"], asked


def all_crossings(calls: list[tuple[str | None, str, str]]) -> list[tuple[str, str, str]]:
    """The calls that cross from one package to another, in order (a run of one collapsed)."""
    out: list[tuple[str, str, str]] = []
    for caller, callee, function in calls:
        crossing = (caller, callee, function)
        if caller is not None and caller != callee and (not out or out[-1] != crossing):
            out.append((caller, callee, function))
    return out
