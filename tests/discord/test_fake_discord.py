"""The fake Discord server against the real discord.py: the library builds its own objects from
what the fake sends, and the fake sees exactly what the library sends back."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord.conftest import running
from tests.fakes.discord_api import (
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    EPHEMERAL,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeDiscordError,
)


class EchoBot(commands.Bot):
    """A plain discord.py bot using the features the adapter uses, with no Tavolo code."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.seen: list[str] = []
        self.gate = asyncio.Event()

    async def setup_hook(self) -> None:
        @app_commands.command(name="echo", description="Echo a word")
        @app_commands.choices(
            mode=[
                app_commands.Choice(name="public", value="public"),
                app_commands.Choice(name="secret", value="secret"),
                app_commands.Choice(name="slow", value="slow"),
            ]
        )
        async def echo(interaction: discord.Interaction[Any], word: str, mode: str) -> None:
            self.seen.append(f"{interaction.user.name}:{word}:{mode}")
            if mode == "slow":
                await interaction.response.defer(thinking=True)
                await self.gate.wait()
                await interaction.followup.send(f"late {word}", wait=True)
                return
            view = discord.ui.View(timeout=None)
            view.add_item(discord.ui.Button(label="Press", custom_id=f"press:{word}"))
            await interaction.response.send_message(word, view=view, ephemeral=mode == "secret")

        self.tree.add_command(echo)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id", "")
        if interaction.type is discord.InteractionType.component and custom_id.startswith("press:"):
            assert interaction.message is not None
            self.seen.append(f"press by {interaction.user.name} on {interaction.message.id}")
            await interaction.response.edit_message(content=f"pressed {custom_id}", view=None)


async def test_connects_and_builds_guild_from_ready_and_guild_create(fake: FakeDiscord) -> None:
    bot = EchoBot()
    async with running(bot, fake):
        assert bot.user is not None and bot.user.id == fake.bot_user.id
        assert bot.application_id == fake.application_id
        guild = bot.get_guild(fake.guild_id)
        assert guild is not None and guild.name == fake.guild_name
        channel = guild.get_channel(fake.channel_id)
        assert isinstance(channel, discord.TextChannel)
        assert fake.identifies == 1
    assert ("GET", "/api/v10/users/@me") in fake.requests
    # The client asks for a compressed stream; the fake answers in plain JSON text frames,
    # which discord.py accepts (it only decompresses binary frames).
    (query,) = fake.gateway_queries
    assert query["v"] == "10" and query["encoding"] == "json"
    assert query.get("compress") in (None, "zlib-stream", "zstd-stream")


async def test_sync_then_slash_command_and_button(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    bot = EchoBot()
    async with running(bot, fake):
        synced = await bot.tree.sync()
        assert [c.name for c in synced] == ["echo"] and fake.command_overwrites == 1
        fetched = await bot.tree.fetch_commands()
        assert [c.id for c in fetched] == [c.id for c in synced]

        record = await fake.slash(alice, "echo", word="ciao", mode="public")
        (message,) = await record.wait_messages(1)
        assert record.callback_type == CHANNEL_MESSAGE and not message.ephemeral
        assert message.content == "ciao" and message.custom_ids() == ["press:ciao"]
        assert bot.seen == ["alice:ciao:public"]

        click = await fake.click(alice, message, "press:ciao")
        await click.wait_answer()
        assert click.callback_type == UPDATE_MESSAGE
        assert fake.messages[message.id].content == "pressed press:ciao"
        assert fake.messages[message.id].components == []
        assert bot.seen[-1] == f"press by alice on {message.id}"


async def test_ephemeral_and_deferred_follow_up(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    bot = EchoBot()
    async with running(bot, fake):
        await bot.tree.sync()
        secret = await fake.slash(alice, "echo", word="psst", mode="secret")
        (message,) = await secret.wait_messages(1)
        assert message.flags & EPHEMERAL and message.content == "psst"
        assert fake.public_texts() == []

        slow = await fake.slash(alice, "echo", word="tardi", mode="slow")
        await slow.wait_answer()
        assert slow.callback_type == DEFERRED_CHANNEL_MESSAGE
        bot.gate.set()
        await slow.wait_for(lambda r: any(m.content == "late tardi" for m in r.followups))
        assert not slow.late


async def test_fake_refuses_what_discord_refuses(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    bot = EchoBot()
    async with running(bot, fake):
        with pytest.raises(FakeDiscordError):
            await fake.slash(alice, "echo", word="x", mode="public")  # not synced yet
        await bot.tree.sync()
        with pytest.raises(FakeDiscordError):
            await fake.slash(alice, "echo", word="x", mode="loud")  # not a choice
        channel = bot.get_partial_messageable(fake.channel_id)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("x" * 2001)
        assert refused.value.code == 50035
        message = await channel.send("hello")
        with pytest.raises(FakeDiscordError):
            await fake.click(alice, message.id, "no-such-button")
    assert fake.violations == ["content of 2001 characters > 2000"]
    fake.violations.clear()


async def test_channel_messages_edit_fetch_and_a_429(fake: FakeDiscord) -> None:
    bot = EchoBot()
    async with running(bot, fake):
        channel = bot.get_partial_messageable(fake.channel_id)
        message = await channel.send("uno")
        fake.rate_limit("PATCH", r"/channels/\d+/messages/\d+", times=2, retry_after=0.01)
        edited = await message.edit(content="due")
        assert edited.content == "due"
        assert len(fake.rate_limited) == 2
        fetched = await channel.fetch_message(message.id)
        assert fetched.content == "due"
        assert fake.messages[message.id].history == ["uno", "due"]


async def test_dm_and_closed_dms(fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.closed_dms.add(bob.id)
    bot = EchoBot()
    async with running(bot, fake):
        to_alice = await (await bot.fetch_user(alice.id)).create_dm()
        await to_alice.send("your hand")
        assert [m.content for m in fake.dm_messages(alice)] == ["your hand"]
        to_bob = await (await bot.fetch_user(bob.id)).create_dm()
        with pytest.raises(discord.Forbidden) as closed:
            await to_bob.send("your hand")
        assert closed.value.code == 50007


async def test_late_answers_are_refused_like_discord(fake: FakeDiscord) -> None:
    fake.interaction_deadline = 0.0
    alice = fake.add_user("alice")
    bot = EchoBot()
    async with running(bot, fake):
        await bot.tree.sync()
        record = await fake.slash(alice, "echo", word="tardi", mode="public")
        await record.wait_for(lambda r: r.late)
        assert not record.acknowledged


async def test_rest_needs_the_bot_token_and_replies_exact_json(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(fake.api_base + "/users/@me") as response:
            assert response.status == 401
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(fake.api_base + "/gateway/bot", headers=headers) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["url"] == fake.gateway_url


async def test_resume_after_a_dropped_connection(fake: FakeDiscord) -> None:
    bot = EchoBot()
    await bot.login(fake.token)
    task = asyncio.create_task(bot.connect(reconnect=True))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        resumed = asyncio.Event()

        async def on_resumed() -> None:
            resumed.set()

        bot.add_listener(on_resumed)
        await fake.drop_connections()
        await asyncio.wait_for(resumed.wait(), 10)
        assert fake.resumes == 1 and fake.identifies == 1
    finally:
        await bot.close()
        await asyncio.wait_for(task, 10)


async def test_an_interaction_token_edits_its_messages_until_it_expires(
    fake: FakeDiscord,
) -> None:
    """Follow-ups and @original are edited through the token (discord.py's own Webhook), for
    ``token_lifetime`` seconds; then Discord answers 401 / 50027."""
    bot = EchoBot()
    user = fake.add_user("ada")
    async with running(bot, fake):
        await bot.tree.sync()
        record = await fake.slash(user, "echo", word="hi", mode="secret")
        (reply,) = await record.wait_messages(1)
        assert bot.application_id is not None
        hook = discord.Webhook.partial(bot.application_id, record.token, client=bot)
        await hook.edit_message(reply.id, content="edited by id")
        assert fake.messages[reply.id].content == "edited by id" and reply.ephemeral
        await hook.edit_message("@original", content="edited as @original")  # type: ignore[arg-type]
        assert fake.messages[reply.id].content == "edited as @original"
        fake.advance(fake.token_lifetime + 1)
        with pytest.raises(discord.HTTPException) as refused:
            await hook.edit_message(reply.id, content="too late")
        assert refused.value.status == 401 and refused.value.code == 50027
        assert fake.messages[reply.id].content == "edited as @original"
        assert fake.expired_calls == 1
