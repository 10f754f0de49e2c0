"""Hostile input at every entry point: fuzzed button data / custom ids, move strings, command
arguments, option values, languages, seats, levels (hypothesis, a few hundred inputs each; the
100,000-input run is ``benchmarks/fuzz.py``), the adapters' own parsers, and forged buttons."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.components import AdapterAction, custom_id_of, parse_custom_id
from bot.discord.limits import MAX_CUSTOM_ID
from bot.service import decode_button, encode_button
from bot.telegram.adapter import parse_table_args
from tests.reliability import fuzzing
from tests.reliability.workload import open_service

EXAMPLES = 150


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[fuzzing.Arena]:
    loop = asyncio.new_event_loop()
    service = loop.run_until_complete(
        open_service(f"sqlite+aiosqlite:///{tmp_path / 'fuzz.sqlite3'}")
    )
    try:
        yield fuzzing.Arena(service, loop)
    finally:
        loop.run_until_complete(service.store.close())
        loop.close()


@pytest.mark.parametrize("fuzzer", fuzzing.FUZZERS, ids=lambda f: f.__name__)
def test_fuzzed_service_entry_points(arena: fuzzing.Arena, fuzzer: object) -> None:
    fuzzer(arena, EXAMPLES)  # type: ignore[operator]
    tally = arena.tally
    assert tally.inputs >= EXAMPLES
    assert sum(tally.refusals.values()) > 0, "nothing was refused: the fuzzer tests nothing"


def test_forged_buttons_for_another_seat_are_refused(arena: fuzzing.Arena) -> None:
    """Every legal move of the player to move, pressed by the other player and by a stranger
    (a forged callback/custom id), in the table's chat and elsewhere: all refused."""

    async def go() -> None:
        await arena.ensure_table()
        version, mover, legal = await arena.current()
        other = next(p for p in fuzzing.PLAYERS if p != mover)
        for move in legal:
            data = encode_button(arena.table_id, version, move)
            for user in (other, fuzzing.STRANGER):
                for chat in (fuzzing.CHAT, fuzzing.ELSEWHERE):
                    result = await arena.attempt(
                        functools.partial(arena.service.press, chat, user, data),
                        may_change=False,
                    )
                    assert result.refusal is not None
                    assert result.refusal.code in ("not_your_turn", "not_seated", "no_table")

    arena.run(go())
    assert arena.tally.accepted == 0


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(args=st.lists(st.text(max_size=30), max_size=15))
def test_telegram_command_arguments_parse_or_pass_through(args: list[str]) -> None:
    players, options = parse_table_args(args)
    assert players is None or 0 <= players < 100
    assert len(options) <= 12
    assert all(isinstance(name, str) for name in options)


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(
    custom_id=st.one_of(st.text(max_size=120), st.from_regex(r"s?[0-9]{1,25}:[0-9]{1,12}:.{0,90}"))
)
def test_discord_custom_ids_parse_or_raise_value_error(custom_id: str) -> None:
    try:
        action = parse_custom_id(custom_id)
    except ValueError:
        return
    assert len(custom_id) <= MAX_CUSTOM_ID
    assert parse_custom_id(custom_id_of(action)) == action  # leading zeros aside, the same
    assert not isinstance(action, AdapterAction) or action.page is None or action.page >= 0


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(data=st.one_of(st.text(max_size=80), st.from_regex(r"[0-9٣²]{0,4}:[0-9²]{0,4}:.{0,70}")))
def test_button_data_decodes_or_raises_value_error(data: str) -> None:
    try:
        button = decode_button(data)
    except ValueError:
        return
    assert button.table_id >= 0 and button.version >= 0 and button.action


async def test_an_abandoned_lobby_is_refused_not_crashed(tmp_path: Path) -> None:
    """Found by the fuzzer: a lobby abandoned before its start has no game; showing it or
    pressing any button on it raised AttributeError."""
    from bot.service import ChatRef, UserRef

    service = await open_service(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    chat, eve = ChatRef("telegram", "-501"), UserRef("telegram", "99", "Eve", "en")
    try:
        created = await service.create_table(chat, eve, "scopa", players=2, options={})
        assert created.table is not None
        table_id = created.table.id
        assert (await service.abandon(chat, eve, table_id)).ok
        results = [
            await service.show(chat, eve, table_id, public=public) for public in (False, True)
        ]
        for action in ("@hand", "@table", "@hint", "@rematch", "@back", "7D", "?x"):
            results.append(await service.press(chat, eve, f"{table_id}:0:{action}"))
        assert all(r.refusal is not None for r in results)
        assert {r.refusal.code for r in results if r.refusal} <= {"not_playing", "bad_button"}
        assert (await service.show(chat, eve, table_id)).refusal.code == "not_playing"  # type: ignore[union-attr]
    finally:
        await service.store.close()
