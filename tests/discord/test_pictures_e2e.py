"""Card pictures on Discord, through the real discord.py and the fake Discord.

With pictures on, the table message carries its picture as an attachment shown by an embed (the
message text stays the text view), replaced when the table changes and not uploaded again when
it does not; a player's ephemeral hand carries the hand's picture. With pictures off, no file
is ever uploaded.
"""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.discord.bot import TavoloBot
from bot.discord.handler import ServiceHandler
from bot.discord.sync import MemorySyncState
from bot.render import Renderer
from bot.render.images import ImageRenderer
from bot.render.pictures import Pictures
from tests.discord.conftest import running
from tests.discord.test_games_e2e import (
    Backend,
    TrackedHandler,
    Watch,
    action_of,
    assert_all_answered,
    assert_no_hand_in_channel,
    backend,
    find_id,
    move_ids,
    my_hand,
    open_table,
    settle,
    table_id_of,
)
from tests.fakes.discord_api import FakeDiscord, StoredMessage

__all__ = ["backend"]  # the fixture, imported for this module's tests

MOVES = 8


async def make_bot(backend: Backend, *, images: bool) -> tuple[TavoloBot, ServiceHandler]:
    renderer = Renderer()
    service = await backend.service()
    pictures = Pictures(
        renderer,
        ImageRenderer(table_card_width=40, hand_card_width=40, hand_max_width=400),
        enabled=images,
        state=service.store,
    )
    handler = TrackedHandler(service, renderer, pictures=pictures, state=service.store)
    bot = TavoloBot(handler=handler, sync_state=MemorySyncState(), guild_ready_timeout=0.05)
    handler.bind(bot)
    return bot, handler


def picture_of(message: StoredMessage) -> tuple[str, bytes]:
    """The file name and bytes of the one picture a message shows through its embed."""
    assert len(message.attachments) == 1, message.attachments
    attachment = message.attachments[0]
    assert [e.get("image", {}).get("url") for e in message.embeds] == [
        f"attachment://{attachment['filename']}"
    ]
    # the embed holds the picture only: the words stay in the message text
    assert all(set(e) <= {"image", "type", "flags"} for e in message.embeds), message.embeds
    # alt text: the text view of the same thing (its first line is the title in both)
    alt = attachment.get("description") or ""
    assert alt.split("\n")[0] == message.content.split("\n")[0], (alt, message.content)
    data = message.files[attachment["id"]]
    Image.open(io.BytesIO(data)).verify()
    return attachment["filename"], data


async def test_table_and_hand_pictures_follow_the_game(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend, images=True)
    watch = Watch(fake)
    rng = random.Random(3)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        table_id = table_id_of(lobby)
        assert not lobby.attachments  # a lobby has no picture
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        table = fake.messages[lobby.id]
        names = [picture_of(table)[0]]
        assert "Alice" in table.content or "alice" in table.content  # the text view stays
        hand = await my_hand(fake, handler, alice, table)
        hand_name, _ = picture_of(hand)
        hand_names = {hand_name}
        for _ in range(MOVES):
            shown = move_ids(fake.messages[hand.id])
            choices = [c for c in shown if not action_of(c).startswith("?")]
            if not choices:
                hand = await my_hand(fake, handler, alice, fake.messages[table.id])
                continue
            record = await fake.click(alice, fake.messages[hand.id], rng.choice(choices))
            await record.wait_answer()
            await settle(handler, fake, record)
            await watch.check(handler.service, table_id)
            names.append(picture_of(fake.messages[table.id])[0])
            hand_names.add(picture_of(fake.messages[hand.id])[0])
        # the table's picture changed with the table (names carry the content digest)
        assert len(set(names)) >= MOVES // 2, names
        assert len(hand_names) >= MOVES // 2, hand_names
        # one table message all along
        assert [m.id for m in fake.channel_messages() if m.attachments] == [table.id]
    assert_all_answered(fake)
    assert_no_hand_in_channel(fake, handler.renderer)


async def test_pictures_off_uploads_nothing(fake: FakeDiscord, backend: Backend) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend, images=False)
    async with running(bot, fake):
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        table = fake.messages[lobby.id]
        hand = await my_hand(fake, handler, alice, table)
        record = await fake.click(alice, hand, move_ids(hand)[0])
        await record.wait_answer()
        await settle(handler, fake, record)
        assert "@hand" in [action_of(c) for c in fake.messages[table.id].custom_ids()]
    assert not any(m.attachments or m.embeds for m in fake.messages.values())
    assert_all_answered(fake)


async def test_style_command_sets_the_channels_or_ones_own_deck(
    fake: FakeDiscord, backend: Backend
) -> None:
    alice = fake.add_user("alice")
    bot, handler = await make_bot(backend, images=True)
    assert handler.pictures is not None
    async with running(bot, fake):
        record = await fake.slash(alice, "style", deck="piacentine")
        (reply,) = await record.wait_messages(1)
        assert reply.ephemeral and "piacentine" in reply.content.lower()
        channel = str(fake.channel_id)
        assert await handler.pictures.preferred("discord", channel) == "piacentine"
        record = await fake.slash(alice, "style", deck="francesi4", scope="me")
        await record.wait_messages(1)
        assert await handler.pictures.preferred("discord", str(alice.id)) == "francesi4"
        assert await handler.pictures.preferred("discord", channel) == "piacentine"
        # the table of this channel is drawn with the channel's deck
        lobby = await open_table(fake, alice, "scopa", computers=1, level="easy")
        start = await fake.click(alice, lobby, find_id(lobby, "@start"))
        await start.wait_answer()
        await settle(handler, fake, start)
        _, piacentine = picture_of(fake.messages[lobby.id])
        await handler.pictures.set_style(None, platform="discord", owner=channel)
        table_id = table_id_of(lobby)
        export = await handler.service.export_game(table_id)
        assert export["status"] == "playing"
    assert piacentine.startswith(b"\x89PNG")
    assert_all_answered(fake)


async def test_italian_command_texts_come_from_the_catalogs() -> None:
    import discord
    from discord import app_commands

    from bot.discord.commands import ItalianTranslator

    translator = ItalianTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, None
    )
    it = await translator.translate(
        app_commands.locale_str("Show the leaderboard"), discord.Locale.italian, context
    )
    assert it == "Mostra la classifica"
    style = await translator.translate(
        app_commands.locale_str("Deck style of the card pictures"), discord.Locale.italian, context
    )
    assert style == "Tipo di mazzo delle immagini delle carte"
    english = await translator.translate(
        app_commands.locale_str("Show the leaderboard"), discord.Locale.british_english, context
    )
    assert english is None
