"""The handler's pure parts: persistent id maps, coalescing table views, components of
rendered messages (limits), the hand's card picker, locale hints."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.discord.handler import (
    PICK_CARDS,
    FileIdMap,
    MemoryIdMap,
    _latest_table_views,
    hand_view,
    locale_hint,
    view_of,
)
from bot.render import Button, Message
from bot.service import Audience, HandView, LobbyView, SeatInfo, TableInfo, TableView, TurnNotice
from engine.cards import parse_cards


def test_file_id_map_survives_a_restart_and_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "map.json"
    first = FileIdMap(path)
    first.remember(1, 100)
    first.remember(2, 200)
    first.forget(1)
    again = FileIdMap(path)
    assert again.get(1) is None and again.get(2) == 200
    path.write_text("{not json", encoding="utf-8")
    assert FileIdMap(path).get(2) is None  # unreadable: starts empty, with a warning


def test_memory_id_map_keeps_the_most_recent() -> None:
    ids = MemoryIdMap(limit=3)
    for key in range(5):
        ids.remember(key, key * 10)
    ids.remember(2, 21)  # used again: now the most recent
    ids.remember(9, 90)
    assert [ids.get(k) for k in (0, 1, 2, 3, 4, 9)] == [None, None, 21, None, 40, 90]


def _table(family: str = "scopa", version: int = 3) -> TableInfo:
    seat = SeatInfo(0, "alice", "discord", "1", False, None, False)
    return TableInfo(
        7, "discord", "55", "scopa", family, "playing", version, 2, {}, (seat, None), "1"
    )


CHAT = Audience("chat", "discord", "55")
ALICE = Audience("user", "discord", "1")


def test_only_the_last_table_view_of_a_result_is_shown() -> None:
    table = _table()
    events = [
        LobbyView(audience=CHAT, locale="it", table=table),
        TurnNotice(audience=ALICE, locale="it", table=table, seat=0),
        TableView(audience=CHAT, locale="it", table=table, view=None),
        TableView(audience=ALICE, locale="it", table=table, view=None),
        TableView(audience=CHAT, locale="it", table=table, view=None),
    ]
    kept = _latest_table_views(events)
    assert kept == [events[1], events[3], events[4]]


def test_view_of_rendered_rows_keeps_the_limits() -> None:
    rows = tuple(tuple(Button(f"b{r}{c}", f"7:3:m{r}{c}") for c in range(7)) for r in range(6))
    view = view_of(Message("text", rows))
    assert view is not None
    components = view.to_components()
    assert len(components) <= 5 and all(len(r["components"]) <= 5 for r in components)
    assert view_of(Message("no buttons")) is None
    pair = view_of(Message("t", ((Button("7♦", "7:3:7D"), Button("Join", "7:3:@join")),)))
    assert pair is not None
    move, lobby = pair.children
    assert move.item.style is discord.ButtonStyle.primary  # type: ignore[attr-defined]
    assert lobby.item.style is discord.ButtonStyle.secondary  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Scala40ishView:
    hand: tuple[object, ...]
    legal_moves: tuple[str, ...]


def test_the_card_picker_narrows_moves_by_the_picked_cards() -> None:
    hand = tuple(parse_cards("AD AD' 9C 9S KB *"))
    moves = ("o ADAS* 9C9S*", "d AD", "d 9C", "d 9S", "d KB", "d *", "a1 KB")
    event = HandView(
        audience=ALICE,
        locale="it",
        table=_table("scala40"),
        seat=0,
        view=Scala40ishView(hand, moves),
    )
    # The renderer's Scala 40 hand asks for the picker (pick_cards); a hand that does not ask
    # gets the renderer's buttons only.
    plain = hand_view(event, Message("hand", ((Button("x", "7:3:d AD"),),)))
    assert plain is not None and [c.custom_id for c in plain.children] == ["7:3:d AD"]  # type: ignore[attr-defined]
    message = Message("hand", ((Button("x", "7:3:d AD"),),), pick_cards=True)
    view = hand_view(event, message)
    assert view is not None
    select, *buttons = view.children
    assert select.custom_id == f"s7:3:{PICK_CARDS}"  # type: ignore[attr-defined]
    offered = [o.value for o in select.item.options]  # type: ignore[attr-defined]
    assert offered == ["AD", "9C", "9S", "KB", "*"]  # one option per card, no deck marks
    assert [b.custom_id for b in buttons] == ["7:3:d AD"]  # type: ignore[attr-defined]
    narrowed = hand_view(event, message, picked=["KB"])
    assert narrowed is not None
    assert [b.custom_id for b in narrowed.children[1:]] == ["7:3:d KB", "7:3:a1 KB"]  # type: ignore[attr-defined]
    nothing = hand_view(event, message, picked=["9C", "KB"])
    assert nothing is not None and len(nothing.children) == 1


def test_scopa_hands_keep_the_renderers_buttons() -> None:
    event = HandView(
        audience=ALICE,
        locale="it",
        table=_table("scopa"),
        seat=0,
        view=Scala40ishView(tuple(parse_cards("7D 3C")), ("7D", "3C", "7D:3C+4S")),
    )
    message = Message("hand", ((Button("7♦", "7:3:?7D"), Button("3♥", "7:3:3C")),))
    view = hand_view(event, message)
    assert view is not None
    assert [c.custom_id for c in view.children] == ["7:3:?7D", "7:3:3C"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("locale", "hint"),
    [(discord.Locale.italian, "it"), (discord.Locale.american_english, "en"), (None, "en")],
)
def test_locale_hints(locale: discord.Locale | None, hint: str) -> None:
    assert locale_hint(locale) == hint
