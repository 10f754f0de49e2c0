"""/settings through the real discord.py and the fake Discord: a member who may manage the server
sets the turn timer of one channel (another keeps the bot's default), also after a restart; a
member who may not is refused; default options per game apply to new tables under the command's
own; /rules says where each value comes from; the channel's language for its public messages."""

from __future__ import annotations

from typing import Any

from bot.service import TimerSettings
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    Backend,
    backend,
    find_id,
    make_bot,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord, FakeUser, StoredMessage

__all__ = ["backend"]


def settings_id(message: StoredMessage, data: str) -> str:
    custom_id = "0:0:~" + data
    assert custom_id in message.custom_ids(), (data, message.custom_ids())
    return custom_id


async def slash(fake: FakeDiscord, handler: Any, user: FakeUser, name: str, **kw: Any) -> Any:
    record = await fake.slash(user, name, **kw)
    await record.wait_answer()
    await settle(handler, fake, record)
    return record


async def press(
    fake: FakeDiscord, handler: Any, user: FakeUser, message: StoredMessage, data: str
) -> StoredMessage:
    record = await fake.click(user, message, settings_id(message, data))
    await record.wait_answer()
    await settle(handler, fake, record)
    assert not record.late
    return fake.messages[message.id]


async def start(fake: FakeDiscord, handler: Any, user: FakeUser, lobby: StoredMessage) -> int:
    record = await fake.click(user, lobby, find_id(lobby, "@start"))
    await record.wait_answer()
    await settle(handler, fake, record)
    return table_id_of(lobby)


async def test_timer_of_one_channel_also_after_a_restart(
    fake: FakeDiscord, backend: Backend
) -> None:
    backend.timers = TimerSettings(reminder=60, autoplay=120)
    ada, bea = fake.add_user("ada"), fake.add_user("bea")
    fake.make_admin(ada)
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        other = await fake.add_text_channel("altro")
        refused = await slash(fake, handler, bea, "settings", locale="en-US")
        assert refused.original is not None and refused.original.ephemeral
        assert refused.original.content == "Only the chat's admins can change its settings."
        assert not refused.original.components

        record = await slash(fake, handler, ada, "settings")
        menu = record.original
        assert menu is not None and menu.ephemeral
        assert "Tempo del turno: 2 min (predefinito del bot)" in menu.content
        menu = await press(fake, handler, ada, menu, "cfg:@timer")
        menu = await press(fake, handler, ada, menu, "cfg:timer=30")
        assert "Tempo del turno: 30 s" in menu.content and "Salvato." in menu.content

        table_a = await start(fake, handler, ada, await open_table(fake, ada, "scopa", computers=1))
        record = await fake.slash(ada, "scopa", channel_id=other, computers=1)
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        assert record.original is not None
        table_b = await start(fake, handler, ada, record.original)
        row_a = await handler.service.store.load_table(table_a)
        row_b = await handler.service.store.load_table(table_b)
        assert (row_a.deadline, row_a.deadline_kind) == (backend.now + 15, "remind")
        assert (row_b.deadline, row_b.deadline_kind) == (backend.now + 60, "remind")

    # A restart: a new process on the same database.
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        fired = await handler.service.fire_due_timers(now=backend.now + 20)
        assert {r.table.id for r in fired if r.table} == {table_a}
        for result in fired:
            await handler.deliver(result)
        backend.now += 40
        fired = await handler.service.fire_due_timers()
        assert {r.table.id for r in fired if r.table} == {table_a}  # the computer played
        for result in fired:
            await handler.deliver(result)
        row_a = await handler.service.store.load_table(table_a)
        assert (row_a.deadline, row_a.deadline_kind) == (backend.now + 15, "remind")
        assert any("Tempo scaduto" in text for text in fake.public_texts())


async def test_defaults_rules_sources_and_language(fake: FakeDiscord, backend: Backend) -> None:
    ada = fake.add_user("ada")
    fake.make_admin(ada)
    bot, handler = await make_bot(backend)
    async with running(bot, fake):
        menu = (await slash(fake, handler, ada, "settings")).original
        assert menu is not None
        menu = await press(fake, handler, ada, menu, "cfg:@game.scopa")
        menu = await press(fake, handler, ada, menu, "cfg:@option.scopa.target")
        menu = await press(fake, handler, ada, menu, "cfg:scopa.target=16")
        assert "Punti per vincere: 16" in menu.content

        await open_table(fake, ada, "scopa")
        rules = await slash(fake, handler, ada, "rules")
        text = "\n".join(m.content for m in rules.messages())
        assert "Impostazione della chat: Punti per vincere 16" in text, text
        await slash(fake, handler, ada, "abandon")
        await open_table(fake, ada, "scopa", target=21)
        rules = await slash(fake, handler, ada, "rules")
        text = "\n".join(m.content for m in rules.messages())
        assert "Comando di questo tavolo: Punti per vincere 21" in text, text
        await slash(fake, handler, ada, "abandon")

        # The channel's language: English public messages, whatever the players' clients say.
        menu = await press(fake, handler, ada, menu, "cfg:@main")
        menu = await press(fake, handler, ada, menu, "cfg:@lang")
        menu = await press(fake, handler, ada, menu, "cfg:lang=en")
        assert "Lingua: English" in menu.content  # the menu is private: in Ada's language
        lobby = await open_table(fake, ada, "scopa")
        labels = [c.get("label") for row in lobby.components for c in row.get("components", [])]
        assert "Join" in labels, labels
