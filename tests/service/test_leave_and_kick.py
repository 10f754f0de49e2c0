"""Leaving and kicking mid-game, on the real stores and the real Scopa engine: the computer takes
the seat, the game finishes, the leaver's result counts as a loss; nothing of the deal reaches
the leaver or the chat; /kick by the creator or an admin only; taking the seat back only where
the table allows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.service import (
    Announcement,
    ChatRef,
    ComputerPlayers,
    HandView,
    Result,
    TableService,
    TimerSettings,
    TurnNotice,
    UserRef,
    default_registry,
)

CHAT = ChatRef("telegram", "-500")
ADA = UserRef("telegram", "1", "Ada")
BEA = UserRef("telegram", "2", "Bea")
CID = UserRef("telegram", "3", "Cid")
MAX_MOVES = 3000


async def scopa_service(make_service: Callable[..., Any]) -> TableService:
    service: TableService = await make_service(
        registry=default_registry(),
        computers=ComputerPlayers(),
        timers=TimerSettings(reminder=60, autoplay=120, takeover_level="easy"),
    )
    return service


async def two_humans(service: TableService, *options: tuple[str, Any]) -> int:
    created = await service.create_table(CHAT, ADA, "scopa", players=2, options=dict(options))
    assert created.ok and created.table is not None, created.refusal
    assert (await service.join(CHAT, BEA)).ok
    assert (await service.start(CHAT, ADA, created.table.id)).ok
    return created.table.id


async def play_out(service: TableService, table_id: int, people: dict[str, UserRef]) -> None:
    """The humans still seated play their first legal move until the game ends."""
    for _ in range(MAX_MOVES):
        live = await service.live(table_id)
        if live.row.status != "playing":
            return
        seat = live.game.current_player
        doc = live.row.seats[seat]
        assert doc is not None and not doc.computer and not doc.away, doc
        move = str(live.game.legal_moves()[0])
        played = await service.play(
            CHAT, people[doc.user_id], table_id, version=live.row.version, move=move
        )
        assert played.ok, played.refusal
    raise AssertionError("the game did not end")


def private_to(result: Result, user: UserRef) -> list[Any]:
    return [
        e
        for e in result.events
        if isinstance(e, HandView | TurnNotice) and e.audience.id == user.user_id
    ]


async def test_a_leaver_is_replaced_and_rated_as_a_loss(
    make_service: Callable[..., Any],
) -> None:
    service = await scopa_service(make_service)
    table = await two_humans(service)
    left = await service.leave(CHAT, ADA)
    assert left.ok, left.refusal
    said = [e for e in left.events if isinstance(e, Announcement) and e.kind == "left"]
    assert said and said[0].data["name"] == "Ada" and said[0].data["by"] == ""
    assert said[0].data["level"] == "easy" and said[0].data["back"] is False
    # Nothing of the deal goes to the leaver any more, nor names a card in the chat.
    assert private_to(left, ADA) == []
    assert set(said[0].data) == {"seat", "name", "by", "level", "back"}
    assert left.table is not None
    seat = left.table.seat_of("telegram", "1")
    assert seat is not None and left.table.seats[seat] is not None
    assert left.table.seats[seat].left and left.table.seats[seat].away  # type: ignore[union-attr]
    shown = await service.show(CHAT, ADA)
    assert shown.ok and not [e for e in shown.events if isinstance(e, HandView)]
    # Ada cannot play any more, and may not come back at this table (the default).
    back = await service.take_back(CHAT, ADA)
    assert back.refusal is not None and back.refusal.code == "no_return"

    await play_out(service, table, {"2": BEA})
    result = await service.store.result(table)
    assert result is not None
    assert any(s.get("left") for s in result["data"]["seats"])
    ratings = {
        (r.user_id, r.scope): r
        for u in ("1", "2")
        for r in await service.store.player_ratings(platform="telegram", user_id=u)
    }
    ada, bea = ratings[("1", "global")], ratings[("2", "global")]
    assert (ada.games, ada.wins, ada.win_points) == (1, 0, 0)
    assert ada.mu < service.ratings.initial[0]  # a loss, whatever the computer made of it
    assert bea.games == 1
    bea_won = result["winner_side"] is not None and result["data"]["ranks"][1 - seat] == 0
    assert bea.wins == int(bea_won)
    assert ratings[("1", f"{CHAT.platform}:{CHAT.chat_id}")].wins == 0


async def test_kick_by_the_creator_or_an_admin_only(make_service: Callable[..., Any]) -> None:
    service = await scopa_service(make_service)
    table = await two_humans(service)
    refused = await service.kick(CHAT, BEA, target=ADA, is_admin=False)
    assert refused.refusal is not None and refused.refusal.code == "not_creator"

    async def no() -> bool:
        return False

    refused = await service.kick(CHAT, CID, target=BEA, is_admin=no)
    assert refused.refusal is not None and refused.refusal.code == "not_creator"
    missing = await service.kick(CHAT, ADA, target=CID)
    assert missing.refusal is not None and missing.refusal.code == "no_player"

    # No target: the players to choose from, privately, as buttons the renderer makes.
    listed = await service.kick(CHAT, ADA)
    assert listed.ok
    (event,) = listed.events
    assert isinstance(event, Announcement) and event.kind == "kick_list"
    assert event.audience.id == "1" and event.data["seats"] == [0, 1]

    # An admin (not the creator) kicks Bea by pressing the list's button.
    live = await service.live(table)
    bea_seat = live.row.seats.index(next(s for s in live.row.seats if s and s.user_id == "2"))

    asked: list[ChatRef] = []

    async def yes(chat: ChatRef) -> bool:
        asked.append(chat)
        return True

    kicked = await service.press(
        CHAT, CID, f"{table}:{live.row.version}:@kick.{bea_seat}", is_admin=yes
    )
    assert asked == [CHAT]  # the admin check is asked of the table's chat
    assert kicked.ok, kicked.refusal
    said = [e for e in kicked.events if isinstance(e, Announcement) and e.kind == "left"]
    assert said and said[0].data["by"] == "Cid" and said[0].data["name"] == "Bea"
    again = await service.kick(CHAT, ADA, target=BEA)
    assert again.refusal is not None and again.refusal.code == "no_player"
    await play_out(service, table, {"1": ADA})
    bea = {r.scope: r for r in await service.store.player_ratings(platform="telegram", user_id="2")}
    assert (bea["global"].games, bea["global"].wins) == (1, 0)


async def test_the_table_may_let_a_leaver_back(make_service: Callable[..., Any]) -> None:
    service = await scopa_service(make_service)
    table = await two_humans(service, ("rejoin", True))
    left = await service.leave(CHAT, BEA)
    said = [e for e in left.events if isinstance(e, Announcement) and e.kind == "left"]
    assert said and said[0].data["back"] is True
    rules = await service.rules(CHAT, ADA)
    (event,) = rules.events
    assert isinstance(event, Announcement)
    assert event.data["table"] == {"rejoin": True}
    assert event.data["sources"]["rejoin"] == "command"
    back = await service.take_back(CHAT, BEA)
    assert back.ok, back.refusal
    assert [e for e in back.events if isinstance(e, HandView) and e.audience.id == "2"]
    await play_out(service, table, {"1": ADA, "2": BEA})
    bea = {r.scope: r for r in await service.store.player_ratings(platform="telegram", user_id="2")}
    assert bea["global"].games == 1  # back at the table: an ordinary result


async def test_a_chat_setting_lets_leavers_back_and_a_bad_value_is_refused(
    make_service: Callable[..., Any],
) -> None:
    service = await scopa_service(make_service)
    changed = await service.change_setting(CHAT, ADA, "rejoin", "1", is_admin=True)
    assert changed.ok, changed.refusal
    created = await service.create_table(CHAT, ADA, "scopa", players=2)
    assert created.ok and created.table is not None
    rules = await service.rules(CHAT, ADA)
    assert rules.events[0].data["table"] == {"rejoin": True}  # type: ignore[attr-defined]
    assert rules.events[0].data["sources"]["rejoin"] == "chat"  # type: ignore[attr-defined]
    assert (await service.abandon(CHAT, ADA)).ok
    bad = await service.create_table(CHAT, ADA, "scopa", options={"rejoin": "maybe"})
    assert bad.refusal is not None and bad.refusal.code == "bad_option"


async def test_leaving_a_lobby_still_just_frees_the_seat(make_service: Callable[..., Any]) -> None:
    service = await scopa_service(make_service)
    created = await service.create_table(CHAT, ADA, "scopa", players=2)
    assert created.ok
    assert (await service.join(CHAT, BEA)).ok
    left = await service.leave(CHAT, BEA)
    assert left.ok and left.table is not None and left.table.status == "lobby"
    kicked = await service.join(CHAT, BEA)
    assert kicked.ok
    out = await service.kick(CHAT, ADA, target=BEA)
    assert out.ok and out.table is not None and out.table.free_seats == 1


async def test_the_player_to_move_leaves_and_the_computer_plays_at_once(
    make_service: Callable[..., Any],
) -> None:
    service = await scopa_service(make_service)
    table = await two_humans(service)
    live = await service.live(table)
    mover = live.game.current_player
    doc = live.row.seats[mover]
    assert doc is not None
    user = {"1": ADA, "2": BEA}[doc.user_id]
    other = BEA if user is ADA else ADA
    left = await service.leave(CHAT, user)
    assert left.ok, left.refusal
    moves = await service.store.moves(table)
    assert moves and moves[-1].seat == mover and moves[-1].actor == "computer"
    live = await service.live(table)
    assert live.game.current_player != mover
    # The other player is to move now, with buttons at the current version.
    hands = [e for e in left.events if isinstance(e, HandView) and e.audience.id == other.user_id]
    assert hands and hands[-1].table.version == live.row.version
    row = await service.store.load_table(table)
    assert row is not None and row.deadline_kind == "remind"  # the human's turn is timed


async def test_a_press_in_a_private_chat_plays_at_the_tables_chat(
    make_service: Callable[..., Any],
) -> None:
    """A hand sent to a player's private chat: its buttons play at the table's own chat (the
    service finds it, ``private=True``), for a player seated there only; an admin check is
    asked of the table's chat, never of the private one."""
    service = await scopa_service(make_service)
    table = await two_humans(service)
    live = await service.live(table)
    seat = live.game.current_player
    mover = ADA if live.row.seats[seat].user_id == "1" else BEA
    own = ChatRef("telegram", mover.user_id)
    move = f"{table}:{live.row.version}:{live.game.legal_moves()[0]}"
    # Not marked private: judged in the private chat, where the table is not.
    refused = await service.press(own, mover, move)
    assert refused.refusal is not None and refused.refusal.code == "no_table"
    played = await service.press(own, mover, move, private=True)
    assert played.ok and played.table is not None and played.table.chat_id == CHAT.chat_id
    # Someone not seated there gets nothing from a forged private press.
    live = await service.live(table)
    stranger = await service.press(
        ChatRef("telegram", "3"), CID, f"{table}:{live.row.version}:@hand", private=True
    )
    assert stranger.refusal is not None and stranger.refusal.code == "no_table"
    # A kick pressed in private by an admin who is seated: asked of the table's chat.
    asked: list[ChatRef] = []

    async def admin(chat: ChatRef) -> bool:
        asked.append(chat)
        return True

    # Bea is not the creator: her press of @kick in private asks the admin check.
    target = next(i for i, s in enumerate(live.row.seats) if s and s.user_id == ADA.user_id)
    kicked = await service.press(
        ChatRef("telegram", BEA.user_id),
        BEA,
        f"{table}:{live.row.version}:@kick.{target}",
        is_admin=admin,
        private=True,
    )
    assert kicked.ok, kicked.refusal
    assert asked == [CHAT]
