"""``views`` (every view of a table, to deliver anew), ``table_versions`` and ``move_chat`` (a
group that got a new id keeps its open table and its settings)."""

from __future__ import annotations

from bot.service import ChatRef, HandView, LobbyView, TableService, TableView, TurnNotice
from tests.service.test_toy_service import ANNA, BRUNO, CHAT, two_player_table

NEW = ChatRef("telegram", "-1009")


async def test_views_has_the_table_and_every_hand(service: TableService) -> None:
    table_id = await two_player_table(service)
    result = await service.views(table_id)
    assert result.table is not None and result.table.id == table_id
    kinds = [(type(e), e.audience.kind, e.audience.id) for e in result.events]
    assert (TableView, "chat", CHAT.chat_id) in kinds
    hands = {e.audience.id for e in result.events if isinstance(e, HandView)}
    assert hands == {ANNA.user_id, BRUNO.user_id}
    assert await service.table_versions("telegram") == {table_id: result.table.version}
    assert await service.table_versions("discord") == {}
    missing = await service.views(987654)
    assert missing.refusal is not None and missing.refusal.code == "no_table"


async def test_views_with_the_turn_notice_of_the_player_to_move(service: TableService) -> None:
    """What an adapter compares after a crash: the turn notice of the player to move, only
    when asked for."""
    table_id = await two_player_table(service)
    plain = await service.views(table_id)
    assert not any(isinstance(e, TurnNotice) for e in plain.events)
    result = await service.views(table_id, notice=True)
    assert result.table is not None and result.table.current_seat is not None
    (notice,) = [e for e in result.events if isinstance(e, TurnNotice)]
    seat = result.table.seats[result.table.current_seat]
    assert seat is not None and notice.audience.id == seat.user_id
    assert notice.seat == result.table.current_seat and not notice.reminder
    assert notice.table.version == result.table.version


async def test_views_of_a_lobby(service: TableService) -> None:
    created = await service.create_table(CHAT, ANNA, "toy", players=2)
    assert created.table is not None
    result = await service.views(created.table.id)
    assert [type(e) for e in result.events] == [LobbyView]


async def test_move_chat_takes_the_open_table_and_the_settings(service: TableService) -> None:
    assert (await service.set_language("en", user=ANNA, chat=CHAT)).ok
    table_id = await two_player_table(service)
    moved = await service.move_chat(CHAT, NEW.chat_id)
    assert moved.table is not None and moved.table.chat_id == NEW.chat_id
    assert [type(e) for e in moved.events] == [TableView]
    assert moved.events[0].audience.id == NEW.chat_id
    assert moved.events[0].locale == "en"  # the chat's language came along
    assert [t.id for t in await service.open_tables(NEW)] == [table_id]
    assert await service.open_tables(CHAT) == []
    # The game goes on in the new chat; the old one knows no table.
    shown = await service.show(NEW, BRUNO)
    assert shown.ok and any(isinstance(e, HandView) for e in shown.events)
    assert (await service.show(CHAT, BRUNO)).refusal.code == "no_table"  # type: ignore[union-attr]
    # Told twice (Telegram says it in both chats): nothing more to move.
    again = await service.move_chat(CHAT, NEW.chat_id)
    assert again.events == [] and again.table is None
