"""Every seat's hand shows the table as it is now, after every move: 2-player Briscola to the end
(also after the stock is finished, when the other player wins a trick and leads) and a chiamata
with five humans (every hand shows the current auction line), through the real discord.py and the
fake Discord.

After each press is handled, each player's one ephemeral hand message must read exactly as their
hand rendered from the service now, not only the hands of the players whose cards or turn
changed.
"""

from __future__ import annotations

import random

import pytest

from bot.service import ChatRef, HandView, UserRef
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    MAX_PRESSES,
    Backend,
    backend,
    find_id,
    make_bot,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord, FakeUser, StoredMessage

pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")

__all__ = ["backend"]  # the fixture, imported for this module's tests


async def _expected_hand(handler: object, user: FakeUser, table_id: int, channel: int) -> str:
    """The user's hand as the service and the renderer say it should read now."""
    service = handler.service  # type: ignore[attr-defined]
    result = await service.show(
        ChatRef("discord", str(channel)), UserRef("discord", str(user.id), user.username), table_id
    )
    (hand,) = [e for e in result.events if isinstance(e, HandView)]
    return str(handler.renderer.render(hand).text)  # type: ignore[attr-defined]


async def _play_all_checked(
    fake: FakeDiscord,
    handler: object,
    users: list[FakeUser],
    table: StoredMessage,
    *,
    table_id: int,
    rng: random.Random,
) -> int:
    """Each user opens "My hand" once; then whoever has move buttons presses one, until the
    game is over; after every press every hand must be current. Returns the presses."""
    hands: dict[int, int] = {}
    for user in users:
        hands[user.id] = (await my_hand(fake, handler, user, fake.messages[table.id])).id  # type: ignore[arg-type]
    by_id = {u.id: u for u in users}
    for presses in range(MAX_PRESSES):
        export = await handler.service.export_game(table_id)  # type: ignore[attr-defined]
        if export["status"] != "playing":
            return presses
        for user in users:
            shown = fake.messages[hands[user.id]].content
            expected = await _expected_hand(handler, user, table_id, table.channel_id)
            assert shown == expected, (user.username, presses, shown, expected)
        to_move = [u for u, m in hands.items() if move_ids(fake.messages[m])]
        assert len(to_move) == 1, [fake.messages[m].content for m in hands.values()]
        user = by_id[to_move[0]]
        hand = fake.messages[hands[user.id]]
        record = await fake.click(user, hand, rng.choice(move_ids(hand)))
        await record.wait_answer()
        await settle(handler, fake, record)  # type: ignore[arg-type]
    raise AssertionError("the game did not end within the bound")


async def _seated(
    fake: FakeDiscord, handler: object, users: list[FakeUser], game: str, **options: object
) -> tuple[StoredMessage, int]:
    if game != "chiamata":  # chiamata is always five
        options = {"players": len(users), **options}
    lobby = await open_table(fake, users[0], game, **options)
    for user in users[1:]:
        join = await fake.click(user, fake.messages[lobby.id], find_id(lobby, "@join"))
        await join.wait_answer()
        await settle(handler, fake, join)  # type: ignore[arg-type]
    start = await fake.click(
        users[0], fake.messages[lobby.id], find_id(fake.messages[lobby.id], "@start")
    )
    await start.wait_answer()
    await settle(handler, fake, start)  # type: ignore[arg-type]
    return fake.messages[lobby.id], table_id_of(lobby)


@pytest.mark.slow
async def test_two_player_briscola_every_hand_current_after_every_move(
    fake: FakeDiscord, backend: Backend
) -> None:
    users = [fake.add_user("alice"), fake.add_user("bob")]
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _seated(fake, handler, users, "briscola")
        presses = await _play_all_checked(
            fake, handler, users, table, table_id=table_id, rng=random.Random(7)
        )
    assert presses >= 40  # every card of the deck played
    export = await handler.service.export_game(table_id)
    assert export["status"] == "finished"


@pytest.mark.slow
async def test_chiamata_five_humans_every_hand_current_after_every_bid_and_card(
    fake: FakeDiscord, backend: Backend
) -> None:
    users = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        table, table_id = await _seated(fake, handler, users, "chiamata", deals=1)
        presses = await _play_all_checked(
            fake, handler, users, table, table_id=table_id, rng=random.Random(3)
        )
    assert presses >= 40
