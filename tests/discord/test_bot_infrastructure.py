"""TavoloBot's infrastructure through the real discord.py and the fake Discord: command sync only
when changed, Italian localizations, options reaching the handler, persistent buttons across a
restart, who may press, deferring slow work, DMs with the ephemeral fallback, 429s on edits.

The handler here is a scripted stand-in for the service-backed one (it is our own interface,
not the library's), with one scripted command in a cog of its own: every Discord object is built
by discord.py from the fake's payloads. The real commands' payload is pinned in
``test_command_payload``; their options reaching the service are checked in ``test_games_e2e``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.bot import TavoloBot, sync_commands_once
from bot.discord.components import ButtonSpec, ComponentAction, SelectSpec, build_view
from bot.discord.delivery import (
    Delivered,
    acknowledge,
    answer,
    edit_source,
    post_or_edit,
    send_private,
)
from bot.discord.sync import FileSyncState, MemorySyncState
from bot.domain import Action, Verb
from tests.discord.conftest import running
from tests.fakes.discord_api import (
    DEFERRED_UPDATE,
    EPHEMERAL,
    UPDATE_MESSAGE,
    FakeDiscord,
    FakeUser,
)

TABLE = 42


class ScriptedHandler:
    def __init__(self, seated: set[int] | None = None) -> None:
        self.seated = seated or set()
        self.commands: list[tuple[str, dict[str, Any]]] = []
        self.actions: list[tuple[int, ComponentAction, list[str]]] = []
        self.refused: list[tuple[int, ComponentAction]] = []
        self.delivered: list[Delivered] = []
        self.gate = asyncio.Event()
        self.errors: list[Exception] = []

    def command_cogs(self) -> list[commands.Cog]:
        return [ScriptedCommands(self)]

    async def command(
        self, interaction: discord.Interaction[Any], name: str, options: Mapping[str, Any]
    ) -> None:
        self.commands.append((name, dict(options)))
        view = build_view(
            table_id=TABLE,
            version=1,
            buttons=[ButtonSpec("Join", "@join", "success"), ButtonSpec("7D", "7D")],
            selects=[SelectSpec("?pick", (("7D", "7D"), ("8S", "8S"), ("9C", "9C")), None, 1, 3)],
        )
        await answer(interaction, f"lobby of {name}", view=view)

    async def may_act(self, interaction: discord.Interaction[Any], action: ComponentAction) -> bool:
        if action.token.startswith("@") or interaction.user.id in self.seated:
            return True
        self.refused.append((interaction.user.id, action))
        await answer(interaction, "not your seat", ephemeral=True)
        return False

    async def act(
        self, interaction: discord.Interaction[Any], action: ComponentAction, values: Sequence[str]
    ) -> None:
        self.actions.append((interaction.user.id, action, list(values)))
        if action.token == "@join":
            view = build_view(table_id=TABLE, version=action.version + 1, buttons=[])
            await edit_source(interaction, f"joined: {interaction.user.name}", view=view)
        elif action.token == "7D":
            await acknowledge(interaction)
            await self.gate.wait()
            await edit_source(interaction, "played 7D")
        elif action.token == "?pick":
            await answer(interaction, f"picked {' '.join(values)}", ephemeral=True)
        elif action.token == "?hand":
            delivered = await send_private(
                interaction.client,
                interaction.user.id,
                "hand: 7D 8S",
                interaction=interaction,
                fallback_hint="(open your DMs)",
            )
            self.delivered.append(delivered)
            if delivered is Delivered.DM:
                await answer(interaction, "sent by DM", ephemeral=True)

    async def failed(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        self.errors.append(error)


class ScriptedCommands(commands.Cog):
    """One stand-in slash command: /scopa answers with a lobby of buttons."""

    def __init__(self, handler: ScriptedHandler) -> None:
        self.handler = handler

    @app_commands.command(name="scopa", description="Open a scripted lobby")
    async def scopa(
        self, interaction: discord.Interaction[Any], players: int | None = None
    ) -> None:
        options = {} if players is None else {"players": players}
        await self.handler.command(interaction, "scopa", options)


def make_bot(handler: ScriptedHandler, state: MemorySyncState | None = None) -> TavoloBot:
    return TavoloBot(
        handler=handler, sync_state=state or MemorySyncState(), guild_ready_timeout=0.05
    )


async def _lobby(fake: FakeDiscord, user: FakeUser) -> Any:
    record = await fake.slash(user, "scopa")
    (message,) = await record.wait_messages(1)
    return message


async def test_commands_sync_once_then_only_when_changed(fake: FakeDiscord) -> None:
    state = MemorySyncState()
    async with running(make_bot(ScriptedHandler(), state), fake):
        assert fake.command_overwrites == 1
    assert fake.command_names() == ["scopa"]  # the handler's cogs' commands
    async with running(make_bot(ScriptedHandler(), state), fake):
        assert fake.command_overwrites == 1  # a restart with the same tree does not sync
    state.fingerprint = "something older"
    async with running(make_bot(ScriptedHandler(), state), fake):
        assert fake.command_overwrites == 2


async def test_cli_sync_uses_rest_only_and_a_file(fake: FakeDiscord, tmp_path: Any) -> None:
    state = FileSyncState(tmp_path / "discord-commands.sha256")
    kwargs: dict[str, Any] = {"sync_state": state}
    assert await sync_commands_once(fake.token, **kwargs) is True
    assert await sync_commands_once(fake.token, **kwargs) is False
    assert await sync_commands_once(fake.token, force=True, **kwargs) is True
    assert fake.command_overwrites == 2 and fake.identifies == 0
    assert len((await state.load()) or "") == 64


async def test_italian_localizations_are_synced(fake: FakeDiscord) -> None:
    assert await sync_commands_once(fake.token, sync_state=MemorySyncState())
    commands = {c["name"]: c for c in fake.global_commands}
    assert commands["leaderboard"]["name_localizations"]["it"] == "classifica"
    assert commands["help"]["name_localizations"]["it"] == "aiuto"
    assert commands["scopa"]["description_localizations"]["it"].startswith("Apri un tavolo")
    options = {o["name"]: o for o in commands["scopa"]["options"]}
    assert options["players"]["name_localizations"]["it"] == "giocatori"
    assert [c["value"] for c in options["players"]["choices"]] == [2, 3, 4]
    levels = {c["value"]: c["name_localizations"]["it"] for c in options["level"]["choices"]}
    assert levels == {"easy": "facile", "medium": "medio", "hard": "difficile"}
    assert all("guild" not in c["name"] for c in commands.values())
    # Discord's own validation (names, lengths, <= 25 choices) is applied by the fake.
    assert fake.violations == []


async def test_only_the_seated_player_may_press(fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    handler = ScriptedHandler(seated={alice.id})
    async with running(make_bot(handler), fake):
        lobby = await _lobby(fake, alice)
        assert lobby.custom_ids() == [f"s{TABLE}:1:?pick", f"{TABLE}:1:@join", f"{TABLE}:1:7D"]
        refused = await fake.click(bob, lobby, f"{TABLE}:1:7D")
        (reply,) = await refused.wait_messages(1)
        assert reply.flags & EPHEMERAL and reply.content == "not your seat"
        assert handler.actions == [] and handler.refused[0][0] == bob.id
        # Anyone may join.
        join = await fake.click(bob, lobby, f"{TABLE}:1:@join")
        await join.wait_answer()
        assert join.callback_type == UPDATE_MESSAGE
        assert fake.messages[lobby.id].content == "joined: bob"
        assert fake.messages[lobby.id].custom_ids() == []


async def test_slow_work_is_deferred_first(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    handler = ScriptedHandler(seated={alice.id})
    async with running(make_bot(handler), fake):
        lobby = await _lobby(fake, alice)
        press = await fake.click(alice, lobby, f"{TABLE}:1:7D")
        await press.wait_answer()
        assert press.callback_type == DEFERRED_UPDATE  # acknowledged before the work is done
        handler.gate.set()
        await fake.wait_until(lambda: fake.messages[lobby.id].content == "played 7D")
        assert not press.late


async def test_multi_select_values_reach_the_handler(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    handler = ScriptedHandler(seated={alice.id})
    async with running(make_bot(handler), fake):
        lobby = await _lobby(fake, alice)
        pick = await fake.select(alice, lobby, f"s{TABLE}:1:?pick", ["7D", "9C"])
        (reply,) = await pick.wait_messages(1)
    assert reply.content == "picked 7D 9C" and reply.ephemeral
    assert handler.actions == [(alice.id, Action(TABLE, 1, Verb.FOCUS, "pick"), ["7D", "9C"])]


async def test_buttons_keep_working_after_a_restart(fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    async with running(make_bot(ScriptedHandler()), fake):
        lobby = await _lobby(fake, alice)
    handler = ScriptedHandler(seated={alice.id})
    handler.gate.set()
    async with running(make_bot(handler), fake):  # a new process: nothing in memory
        press = await fake.click(alice, lobby, f"{TABLE}:1:7D")
        await press.wait_answer()
        await fake.wait_until(lambda: fake.messages[lobby.id].content == "played 7D")
    assert handler.actions == [(alice.id, Action(TABLE, 1, Verb.MOVE, "7D"), [])]


async def test_private_message_by_dm_or_ephemeral_fallback(fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.closed_dms.add(bob.id)
    handler = ScriptedHandler(seated={alice.id, bob.id})
    async with running(make_bot(handler), fake) as bot:
        channel = bot.get_partial_messageable(fake.channel_id)
        view = build_view(table_id=TABLE, version=1, buttons=[ButtonSpec("Hand", "?hand")])
        table = await channel.send("table", view=view)
        by_dm = await fake.click(alice, table.id, f"{TABLE}:1:?hand")
        (note,) = await by_dm.wait_messages(1)
        fallback = await fake.click(bob, table.id, f"{TABLE}:1:?hand")
        (hand,) = await fallback.wait_messages(1)
    assert handler.delivered == [Delivered.DM, Delivered.EPHEMERAL]
    assert [m.content for m in fake.dm_messages(alice)] == ["hand: 7D 8S"]
    assert note.ephemeral and note.content == "sent by DM"
    assert hand.ephemeral and hand.content == "hand: 7D 8S\n\n(open your DMs)"
    assert fake.dm_messages(bob) == []
    assert all("7D" not in text for text in fake.public_texts())


async def test_table_message_edited_in_place_through_429s(fake: FakeDiscord) -> None:
    async with running(make_bot(ScriptedHandler()), fake) as bot:
        first = await post_or_edit(bot, fake.channel_id, None, "v1")
        fake.rate_limit("PATCH", rf"/channels/{fake.channel_id}/messages/{first}", times=2)
        second = await post_or_edit(bot, fake.channel_id, first, "v2")
        assert second == first and fake.messages[first].history == ["v1", "v2"]
        assert len(fake.rate_limited) == 2
        del fake.messages[first]  # someone deleted the table message
        third = await post_or_edit(bot, fake.channel_id, first, "v3" * 1500)
    assert third != first and len(fake.messages[third].content) == 2000
