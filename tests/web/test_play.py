"""Whole games through WebSocket pages: every seat sees its own hand only, in every frame;
moves go through the service; the versions arrive in order, one per move."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.render import card_text
from bot.service import TableChange
from tests.web.conftest import Page, Web, user

_CODE = re.compile(r"(?<![A-Za-z0-9*])(?:10|[A2-9TJQK])[DCSB](?![A-Za-z0-9])")
_SYMBOL = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([♦♥♠♣])")
_SUIT_OF = {"♦": "D", "♥": "C", "♠": "S", "♣": "B"}


def card_tokens(text: str) -> set[str]:
    """Every card a frame names, as engine codes (``7D``; ``TD`` for a ten)."""
    found = {m.group(0).replace("10", "T") for m in _CODE.finditer(text)}
    for m in _SYMBOL.finditer(text):
        found.add(("T" if m.group(1) == "10" else m.group(1)) + _SUIT_OF[m.group(2)])
    return found


def hidden_from(game: Any, seat: int | None) -> set[str]:
    """The cards ``seat`` must not learn at this version: every other seat's hand (a card of
    the second deck that the seat holds too is its own to name)."""
    own = {str(c).rstrip("'") for c in game.view(seat).hand} if seat is not None else set()
    others = set()
    for other in range(len(game.view(None).hand_counts)):
        if other != seat:
            others |= {str(c).rstrip("'") for c in game.view(other).hand}
    return others - own


class Recorder:
    """The engine's game at every version (the test's own table listener)."""

    def __init__(self) -> None:
        self.games: dict[tuple[int, int], Any] = {}

    def __call__(self, change: TableChange) -> None:
        self.games[(change.table.id, change.table.version)] = change.game


async def play_out(
    web: Web, table: int, pages: dict[int, Page], recorder: Recorder, *, max_moves: int = 400
) -> dict[str, Any]:
    """Every seat plays its first legal move whenever its page shows its turn; returns the
    final state. Checks each state frame against the engine's game of its version."""
    for page in pages.values():
        await page.send({"type": "watch", "table": table, "since": None})
    moves = 0
    final: dict[str, Any] | None = None
    latest: dict[int, dict[str, Any]] = {}
    while final is None:
        assert moves < max_moves, "the game did not end"
        progressed = False
        for seat, page in pages.items():
            try:
                frame = await page.state()
            except TimeoutError:
                last = [
                    [(f["type"], f.get("version"), f.get("reason")) for f in p.frames[-4:]]
                    for p in pages.values()
                ]
                raise AssertionError(f"seat {seat} waits; last frames: {last}") from None
            raw = page.raw[-1]
            latest[seat] = frame
            state = frame["state"]
            check_private(frame, raw, seat, recorder, table)
            if state["status"] == "over":
                final = state
                break
            if state["turn"] == seat and state["moves"]:
                await page.send(
                    {
                        "type": "act",
                        "table": table,
                        "version": frame["version"],
                        "action": state["moves"][0]["move"],
                    }
                )
                moves += 1
                progressed = True
        if not progressed and final is None:
            # Nobody's turn in the frames read: read on (the versions arrive one by one).
            continue
    return final


def check_private(
    frame: dict[str, Any], raw: str, seat: int | None, recorder: Recorder, table: int
) -> None:
    """The frame holds the seat's own hand and nothing of the others' (the cards made public
    a version before are fair: after a new deal, the last deal's last move still shows)."""
    version = frame["version"]
    game = recorder.games[(table, version)]
    before = recorder.games.get((table, version - 1))
    public = card_tokens(json.dumps(before.view(None).to_dict())) if before is not None else set()
    public |= card_tokens(json.dumps(game.view(None).to_dict().get("last_move")))
    state = frame["state"]
    assert state["you"] == seat
    expected = [str(c) for c in game.view(seat).hand] if seat is not None else []
    if state["status"] == "playing":
        assert state["view"]["hand"] == expected
    # The rules' option values (Briscola's "removed_two": "2B") name no card of the deal.
    view = {k: v for k, v in (state["view"] or {}).items() if k != "rules"}
    shown = json.dumps({**state, "view": view}, ensure_ascii=False)
    named = card_tokens(shown) | card_tokens(json.dumps(frame.get("events"), ensure_ascii=False))
    leaked = named & hidden_from(game, seat) - public
    assert not leaked, f"seat {seat} was sent {leaked} at version {frame['version']}"
    assert "deck" not in state["view"] or not isinstance(state["view"]["deck"], list)
    assert "stock" not in state["view"]


@pytest.mark.slow
async def test_a_scopone_played_through_four_pages(web: Web) -> None:
    recorder = Recorder()
    web.service.add_table_listener(recorder)
    players = [user(i) for i in range(4)]
    table = await web.table("scopone", players)
    pages = {i: await web.page(players[i]) for i in range(4)}
    final = await play_out(web, table, pages, recorder, max_moves=2000)
    assert final["closed"] == "finished"
    assert final["view"]["winner"] is not None


async def test_a_briscola_with_a_computer_and_a_spectator(web: Web) -> None:
    recorder = Recorder()
    web.service.add_table_listener(recorder)
    anna = user(1, "it")
    table = await web.table("briscola", [anna], computers=1)
    page = await web.page(anna)
    spectator = await web.page(user(9), start=str(table))
    await spectator.send({"type": "watch", "table": table, "since": None})
    final = await play_out(web, table, {0: page}, recorder)
    assert final["closed"] == "finished"
    # The spectator saw the public view of every version, never a hand.
    for _ in range(500):
        frame = await spectator.state()
        check_private(frame, spectator.raw[-1], None, recorder, table)
        assert frame["state"]["moves"] == [] and frame["state"]["you"] is None
        if frame["state"]["status"] == "over":
            break
    # A stranger without the link sees nothing.
    stranger = await web.page(user(8))
    ident = await stranger.send({"type": "watch", "table": table, "since": None})
    refused = await stranger.until(lambda f: f.get("type") == "refused")
    assert refused["code"] == "no_table" and ident


def test_card_tokens_reads_codes_and_symbols() -> None:
    assert card_tokens('{"a": "7D", "b": "10♦ ➜ K♠", "c": "TDX"}') == {"7D", "TD", "KS"}
    assert card_text("KS") == "K♠"
