"""The service's own behaviour (lobby, moves, versions, timers, restart) on a toy game that
follows the engine contract; the real games are tested in test_games.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.service import (
    Announcement,
    ChatRef,
    GameOver,
    HandView,
    LobbyView,
    TableService,
    TableView,
    TurnNotice,
    UserRef,
    decode_button,
    encode_button,
)
from tests.service.conftest import Clock

CHAT = ChatRef("telegram", "-100")
ANNA = UserRef("telegram", "1", "Anna", "it")
BRUNO = UserRef("telegram", "2", "Bruno", "en")
CARLA = UserRef("telegram", "3", "Carla")


async def two_player_table(service: TableService) -> int:
    created = await service.create_table(CHAT, ANNA, "toy", players=2, options={"hand": 3})
    assert created.ok, created.refusal
    assert created.table is not None
    joined = await service.join(CHAT, BRUNO)
    assert joined.ok, joined.refusal
    started = await service.start(CHAT, ANNA)
    assert started.ok, started.refusal
    return created.table.id


def hand_of(result: Any, user: UserRef) -> HandView | None:
    for e in result.events:
        if isinstance(e, HandView) and e.audience.id == user.user_id:
            return e
    return None


async def test_lobby_flow_and_refusals(service: TableService) -> None:
    created = await service.create_table(CHAT, ANNA, "toy", players=2)
    assert created.ok and created.table is not None
    assert [type(e) for e in created.events] == [LobbyView]
    assert created.events[0].audience.kind == "chat"
    # At most one open table per chat.
    again = await service.create_table(CHAT, BRUNO, "toy")
    assert again.refusal is not None and again.refusal.code == "too_many_tables"
    assert (await service.start(CHAT, ANNA)).refusal.code == "not_full"  # type: ignore[union-attr]
    assert (await service.join(CHAT, ANNA)).refusal.code == "already_seated"  # type: ignore[union-attr]
    assert (await service.start(CHAT, BRUNO)).refusal.code == "not_creator"  # type: ignore[union-attr]
    assert (await service.join(CHAT, BRUNO)).ok
    assert (await service.join(CHAT, CARLA)).refusal.code == "table_full"  # type: ignore[union-attr]
    assert (await service.leave(CHAT, BRUNO)).ok
    assert (await service.add_computer(CHAT, ANNA, "medium")).ok
    started = await service.start(CHAT, ANNA)
    assert started.ok
    kinds = {type(e) for e in started.events}
    assert TableView in kinds and HandView in kinds


async def test_bad_game_players_and_options(service: TableService) -> None:
    r = await service.create_table(CHAT, ANNA, "poker")
    assert r.refusal is not None and r.refusal.code == "unknown_game" and "toy" in r.refusal.detail
    r = await service.create_table(CHAT, ANNA, "toy", players=7)
    assert r.refusal is not None and r.refusal.code == "bad_players"
    assert r.refusal.params["allowed"] == [2, 3, 4]
    r = await service.create_table(CHAT, ANNA, "toy", options={"hand": 99})
    assert r.refusal is not None and r.refusal.code == "bad_option"
    assert "hand must be 1..9" in r.refusal.detail
    r = await service.create_table(CHAT, ANNA, "toy", options={"colour": "red"})
    assert r.refusal is not None and r.refusal.code == "bad_option"
    assert "unknown option colour" in r.refusal.detail  # named by the engine's Rules.from_dict
    assert await service.open_tables(CHAT) == []


async def test_refused_moves_change_nothing(service: TableService) -> None:
    table_id = await two_player_table(service)
    info = (await service.show(CHAT, ANNA, table_id)).table
    assert info is not None and info.current_seat is not None
    mover = ANNA if info.current_seat == 0 else BRUNO
    other = BRUNO if mover is ANNA else ANNA
    version = info.version
    cases = [
        (CARLA, version, "1", "not_seated"),
        (other, version, "1", "not_your_turn"),
        (mover, version - 1, "1", "stale"),
        (mover, version, "9", "illegal_move"),
        (mover, version, "garbage!!", "illegal_move"),
    ]
    for user, v, move, code in cases:
        result = await service.play(CHAT, user, table_id, version=v, move=move)
        assert result.refusal is not None and result.refusal.code == code, (user, move)
        assert result.events == []
    after = (await service.show(CHAT, ANNA, table_id)).table
    assert after is not None and after.version == version
    assert await service.store.moves(table_id) == []
    # A refusal in another chat does not even reveal the table.
    other_chat = await service.play(
        ChatRef("telegram", "-999"), mover, table_id, version=version, move="1"
    )
    assert other_chat.refusal is not None and other_chat.refusal.code == "no_table"


async def test_full_game_results_and_ratings(service: TableService) -> None:
    table_id = await two_player_table(service)
    for _ in range(20):
        info = (await service.show(CHAT, ANNA, table_id)).table
        assert info is not None
        if info.status != "playing":
            break
        mover = ANNA if info.current_seat == 0 else BRUNO
        shown = await service.show(CHAT, mover, table_id)
        hand = hand_of(shown, mover)
        assert hand is not None and hand.view.legal_moves
        move = (
            hand.view.legal_moves[-1]
            if not hand.view.legal_moves[-1].endswith("!")
            else hand.view.legal_moves[0]
        )
        result = await service.play(CHAT, mover, table_id, version=info.version, move=move)
        assert result.ok, result.refusal
        # Every event of a call carries the version now current (buttons use it).
        assert {e.table.version for e in result.events} == {result.table.version}  # type: ignore[union-attr]
    over = [e for e in result.events if isinstance(e, GameOver)]
    assert len(over) == 1
    assert {d.name for d in over[0].ratings} == {"Anna", "Bruno"}
    stored = await service.store.result(table_id)
    assert stored is not None and stored["multiplier"] == 1
    assert len(await service.store.moves(table_id)) == 6
    board = await service.leaderboard("toy", user=ANNA, chat=CHAT)
    rows = board.events[0].rows  # type: ignore[attr-defined]
    assert [r.games for r in rows] == [1, 1]
    assert sum(r.wins for r in rows) >= 1
    glob = await service.leaderboard("toy", user=ANNA)
    assert len(glob.events[0].rows) == 2  # type: ignore[attr-defined]
    stats = await service.stats(ANNA, chat=CHAT)
    assert {(f, s) for f, s, _ in stats.events[0].rows} == {("toy", "global"), ("toy", "chat")}  # type: ignore[attr-defined]
    # The game replays from its log in the engine.
    export = await service.export_game(table_id)
    from tests.service import toygame

    game = toygame.new_game(toygame.Rules(players=2, hand=3), export["seed"])
    for m in export["moves"]:
        assert game.current_player == m["seat"]
        game = game.play(m["move"])
    assert game.is_over
    # Rematch: same seats, dealt at once; both players pressing it at once get one table.
    both = await asyncio.gather(
        service.rematch(CHAT, BRUNO, table_id), service.rematch(CHAT, ANNA, table_id)
    )
    assert all(r.ok and r.table is not None for r in both), [r.refusal for r in both]
    assert both[0].table is not None and both[1].table is not None
    assert both[0].table.id == both[1].table.id
    again = both[0]
    assert again.table is not None and again.table.status == "playing"
    assert [s.user_id for s in again.table.seats if s] == ["1", "2"]
    assert len(await service.open_tables(CHAT)) == 1


async def test_computer_turns_are_stored_like_moves(service: TableService) -> None:
    created = await service.create_table(CHAT, ANNA, "toy", players=3)
    assert created.table is not None
    started = await service.start(CHAT, ANNA, fill_with="easy")
    assert started.ok
    table_id = created.table.id
    info = started.table
    assert info is not None and info.current_seat == 0  # computers played up to Anna's turn
    # Anna dealt and the turn came back to her within her own call: she is looking at the
    # answer (her hand), so no turn notice pings her.
    assert not any(isinstance(e, TurnNotice) for e in started.events)
    moves = await service.store.moves(table_id)
    assert all(m.actor == "computer" and m.seat != 0 for m in moves)
    assert info.version == 2 + len(moves)


async def test_stale_button_and_press(service: TableService) -> None:
    table_id = await two_player_table(service)
    info = (await service.show(CHAT, ANNA, table_id)).table
    assert info is not None
    mover = ANNA if info.current_seat == 0 else BRUNO
    data = encode_button(table_id, info.version, "2")
    assert decode_button(data).action == "2"
    first = await service.press(CHAT, mover, data)
    assert first.ok
    again = await service.press(CHAT, mover, data)
    assert again.refusal is not None and again.refusal.code == "stale"
    for garbage in ("", "x:y:z", "1:2", "9" * 70, "1:1:@nope"):
        r = await service.press(CHAT, mover, garbage)
        assert r.refusal is not None and r.refusal.code in ("bad_button", "no_table"), garbage


async def test_concurrent_moves_on_one_version(make_service: Callable[..., Any]) -> None:
    """Two processes (two services, two connections) play on one version: exactly one wins."""
    one = await make_service()
    two = await make_service()
    try:
        table_id = await two_player_table(one)
        info = (await two.show(CHAT, ANNA, table_id)).table
        assert info is not None
        mover = ANNA if info.current_seat == 0 else BRUNO
        results = await asyncio.gather(
            one.play(CHAT, mover, table_id, version=info.version, move="1"),
            two.play(CHAT, mover, table_id, version=info.version, move="2"),
        )
        assert sorted(r.ok for r in results) == [False, True]
        loser = next(r for r in results if not r.ok)
        assert loser.refusal is not None and loser.refusal.code in ("stale", "conflict")
        moves = await one.store.moves(table_id)
        assert len(moves) == 1 and moves[0].version == info.version
    finally:
        for s in make_service.stores:  # type: ignore[attr-defined]
            await s.close()


async def test_restart_resumes(make_service: Callable[..., Any]) -> None:
    first = await make_service()
    table_id = await two_player_table(first)
    info = (await first.show(CHAT, ANNA, table_id)).table
    assert info is not None
    mover = ANNA if info.current_seat == 0 else BRUNO
    assert (await first.play(CHAT, mover, table_id, version=info.version, move="1")).ok
    await first.store.close()
    second = await make_service()  # a new process over the same database
    try:
        shown = await second.show(CHAT, ANNA, table_id)
        assert shown.table is not None and shown.table.version == info.version + 1
        nxt = BRUNO if mover is ANNA else ANNA
        hand = hand_of(await second.show(CHAT, nxt, table_id), nxt)
        assert hand is not None and hand.view.legal_moves
        assert (await second.play(CHAT, nxt, table_id, version=shown.table.version, move="1")).ok
    finally:
        await second.store.close()


async def test_timers_fire_after_restart(make_service: Callable[..., Any], clock: Clock) -> None:
    first = await make_service()
    table_id = await two_player_table(first)
    info = (await first.show(CHAT, ANNA, table_id)).table
    assert info is not None
    idle_seat = info.current_seat
    assert idle_seat is not None
    await first.store.close()
    service = await make_service()
    try:
        assert await service.fire_due_timers() == []  # not due yet
        clock.now += 61
        reminded = await service.fire_due_timers()
        assert len(reminded) == 1
        assert [type(e) for e in reminded[0].events] == [TurnNotice]
        assert reminded[0].events[0].reminder  # type: ignore[attr-defined]
        # The reminder does not invalidate the player's buttons.
        assert reminded[0].table is not None and reminded[0].table.version == info.version
        assert await service.fire_due_timers() == []
        clock.now += 60
        played = await service.fire_due_timers()
        assert len(played) == 1
        kinds = [e.kind for e in played[0].events if isinstance(e, Announcement)]
        assert "timeout" in kinds and "taken_over" not in kinds
        moves = await service.store.moves(table_id)
        assert moves[-1].actor == "timeout" and moves[-1].seat == idle_seat
    finally:
        for s in make_service.stores:  # type: ignore[attr-defined]
            await s.close()


async def test_takeover_and_take_back(service: TableService, clock: Clock) -> None:
    created = await service.create_table(CHAT, ANNA, "toy", players=2, options={"hand": 6})
    assert created.table is not None
    table_id = created.table.id
    await service.start(CHAT, ANNA, fill_with="easy")
    taken = False
    for _ in range(4):
        clock.now += 61
        await service.fire_due_timers()
        clock.now += 61
        for r in await service.fire_due_timers():
            if any(isinstance(e, Announcement) and e.kind == "taken_over" for e in r.events):
                taken = True
        if taken:
            break
    assert taken
    info = (await service.show(CHAT, ANNA, table_id)).table
    assert info is not None
    if info.status == "playing":
        assert info.seats[0] is not None and info.seats[0].away
        # The absent player's game counts for them: played at medium by default, not easy.
        assert info.seats[0].level == "medium"
        back = await service.take_back(CHAT, ANNA, table_id)
        assert back.ok
        assert any(isinstance(e, Announcement) and e.kind == "taken_back" for e in back.events)
        assert (await service.take_back(CHAT, ANNA, table_id)).refusal.code == "not_away"  # type: ignore[union-attr]


async def test_abandon_and_language(service: TableService) -> None:
    table_id = await two_player_table(service)
    r = await service.abandon(CHAT, BRUNO, table_id)
    assert r.refusal is not None and r.refusal.code == "not_creator"
    assert (await service.abandon(CHAT, BRUNO, table_id, is_admin=True)).ok
    assert await service.open_tables(CHAT) == []
    # Languages: user's choice > chat's > platform hint > default.
    assert (await service.set_language("en", user=ANNA, chat=CHAT)).ok
    assert (await service.set_language("de", user=ANNA)).refusal.code == "bad_locale"  # type: ignore[union-attr]
    created = await service.create_table(CHAT, ANNA, "toy")
    assert created.events[0].locale == "en"
    assert (await service.set_language("it", user=BRUNO)).ok
    await service.join(CHAT, BRUNO)
    started = await service.start(CHAT, ANNA)
    hands = {e.audience.id: e.locale for e in started.events if isinstance(e, HandView)}
    assert hands == {"1": "it", "2": "it"}  # Anna's hint is "it"; Bruno chose "it"


async def test_computer_turns_run_off_the_event_loop(make_service: Callable[..., Any]) -> None:
    """A slow computer player (it blocks its thread) leaves the event loop free."""
    import time

    from tests.service import toygame
    from tests.service.conftest import toy_computers

    class Slow(toygame.FirstMove):
        def choose(self, view: Any, rng: Any) -> str:
            time.sleep(0.05)
            return super().choose(view, rng)

    computers = toy_computers()
    computers._players[("toy", "easy")] = ("slow", Slow())
    service = await make_service(computers=computers)
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            await asyncio.sleep(0.005)

    task = asyncio.create_task(ticker())
    created = await service.create_table(CHAT, ANNA, "toy", players=4)
    assert created.ok
    ticks_before = ticks
    started = await service.start(CHAT, ANNA, fill_with="easy")
    done.set()
    await task
    assert started.ok
    computer_moves = [m for m in await service.store.moves(created.table.id)]  # type: ignore[union-attr]
    assert computer_moves, "some computer played before Anna's turn"
    assert ticks > ticks_before  # the loop kept running while the computers thought
    for s in make_service.stores:  # type: ignore[attr-defined]
        await s.close()


async def test_spectators_and_several_tables_per_chat(service: TableService) -> None:
    table_id = await two_player_table(service)
    seen = await service.show(CHAT, CARLA, table_id)
    assert [type(e) for e in seen.events] == [TableView]  # no hand for a spectator
    assert seen.events[0].audience.kind == "user"
    public = await service.show(CHAT, CARLA, table_id, public=True)
    assert public.events[0].audience.kind == "chat"
    assert (await service.create_table(CHAT, CARLA, "toy")).refusal.code == "too_many_tables"  # type: ignore[union-attr]
    await service.set_max_open_tables(CHAT, 2)
    second = await service.create_table(CHAT, CARLA, "toy")
    assert second.ok
    assert len(await service.open_tables(CHAT)) == 2
    assert [t.id for t in await service.tables_of(CARLA)] == [second.table.id]  # type: ignore[union-attr]
    # Without a table id, Carla's lobby is the one she sits at.
    assert (await service.add_computer(CHAT, CARLA, "hard")).table.id == second.table.id  # type: ignore[union-attr]


async def test_creator_leaves_lobby_others_may_start(service: TableService) -> None:
    created = await service.create_table(CHAT, ANNA, "toy", players=3)
    assert created.ok
    assert (await service.join(CHAT, BRUNO)).ok
    assert (await service.start(CHAT, BRUNO, fill_with="easy")).refusal.code == "not_creator"  # type: ignore[union-attr]
    assert (await service.leave(CHAT, ANNA)).ok
    assert (await service.start(CHAT, CARLA, fill_with="easy")).refusal.code == "not_creator"  # type: ignore[union-attr]
    started = await service.start(CHAT, BRUNO, fill_with="easy")
    assert started.ok and started.table is not None and started.table.status == "playing"


async def test_many_presses_of_one_button_apply_once(service: TableService) -> None:
    """A double-click storm in one process: the table lock and the version let one through."""
    table_id = await two_player_table(service)
    info = (await service.show(CHAT, ANNA, table_id)).table
    assert info is not None
    mover = ANNA if info.current_seat == 0 else BRUNO
    data = encode_button(table_id, info.version, "1")
    results = await asyncio.gather(*(service.press(CHAT, mover, data) for _ in range(10)))
    assert sum(r.ok for r in results) == 1
    assert {r.refusal.code for r in results if r.refusal} == {"stale"}
    assert len(await service.store.moves(table_id)) == 1


async def test_fuori_announced_and_last_human_leaving_closes_lobby(service: TableService) -> None:
    table_id = await two_player_table(service)
    for _ in range(3):
        info = (await service.show(CHAT, ANNA, table_id)).table
        assert info is not None
        mover = ANNA if info.current_seat == 0 else BRUNO
        hand = hand_of(await service.show(CHAT, mover, table_id), mover)
        assert hand is not None
        fuori = [m for m in hand.view.legal_moves if m.endswith("!")]
        move = fuori[0] if fuori else hand.view.legal_moves[0]
        result = await service.play(CHAT, mover, table_id, version=info.version, move=move)
        assert result.ok
        if fuori:
            kinds = [e.kind for e in result.events if isinstance(e, Announcement)]
            assert "fuori" in kinds
            assert any(isinstance(e, GameOver) for e in result.events)
            break
    else:
        raise AssertionError("the toy game offers fuori from the third move")
    lobby = await service.create_table(CHAT, CARLA, "toy")
    assert lobby.ok and lobby.table is not None
    left = await service.leave(CHAT, CARLA)
    assert left.ok and left.table is not None and left.table.status == "abandoned"
    assert await service.open_tables(CHAT) == []


async def test_a_chat_hint_sets_public_language_until_the_chat_chooses(
    service: TableService,
) -> None:
    chat = ChatRef("discord", "555")
    anna = UserRef("discord", "1", "Anna", "it")
    assert await service.chat_locale(chat) == "it"  # the default
    service.chat_hint(chat, "en-US")  # the server's preferred locale
    service.chat_hint(chat, "xx")  # not a language we speak: ignored
    assert await service.chat_locale(chat) == "en"
    created = await service.create_table(chat, anna, "toy")
    assert created.events[0].locale == "en"  # the lobby is public
    assert await service.user_locale(anna, chat=chat) == "it"  # her own hint wins for her
    assert (await service.set_language("it", user=anna, chat=chat)).ok
    assert await service.chat_locale(chat) == "it"  # the chat's own choice wins over the hint
    assert (await service.set_language("en", user=anna)).ok
    assert await service.user_locale(anna) == "en"


async def test_a_table_opened_with_computers(service: TableService) -> None:
    """create_table seats computers of a level next to the creator (at most every other seat);
    an unknown level is refused before any table is made."""
    bad = await service.create_table(CHAT, ANNA, "toy", players=3, computers=1, level="god")
    assert bad.refusal is not None and bad.refusal.code == "bad_level"
    assert await service.open_tables(CHAT) == []
    made = await service.create_table(CHAT, ANNA, "toy", players=3, computers=5, level="medium")
    assert made.ok and made.table is not None
    seats = made.table.seats
    assert seats[0] is not None and not seats[0].computer
    assert all(s is not None and s.computer and s.level == "medium" for s in seats[1:])
    assert (await service.start(CHAT, ANNA)).ok
