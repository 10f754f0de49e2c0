"""Public messages follow the chat's language, private ones the user's: an Italian group with a
player whose Telegram speaks English (issue 41). The turn mention opening the table message,
the "🂠 My cards" button on a posted move, a refusal said in the group and the /stats answer
said in the group (the asker's private chat being closed) are all Italian; what is said to the
player privately stays English."""

from __future__ import annotations

from pathlib import Path

from bot.service import decode_button
from tests.fakes.telegram_api import FakeBotApi, group_chat, private_chat, user
from tests.telegram.harness import Tavolo, action_data, table_messages
from tests.telegram.inline_play import LOOK, ask, game_now
from tests.telegram.test_group_budget import lobby_message, made

ALDO = user(4101, "Aldo", lang="it")
BEN = user(4102, "Ben", lang="en")
GROUP = group_chat(-100950, "Circolo")
GID = int(GROUP["id"])
MAX_MOVES = 12  # bounded: Ben's turn comes within two moves


async def open_game(tavolo: Tavolo) -> int:
    api = tavolo.api
    api.make_admin(GID, ALDO["id"])
    await tavolo.say(GROUP, ALDO, "/lang it")
    await tavolo.say(GROUP, ALDO, "/scopa 2")
    lobby = await api.wait_for(lambda: lobby_message(api, GID), timeout=30, what="the lobby")
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(api.message(GID, lobby.message_id), BEN, "@join")
    await tavolo.press_action(api.message(GID, lobby.message_id), ALDO, "@start")
    await api.wait_idle()
    return table_id


async def test_an_italian_group_reads_italian_whoever_plays(tmp_path: Path) -> None:
    async with FakeBotApi(inline=True) as api:
        api.make_bot_admin(GID)
        for player in (ALDO, BEN):
            api.block_private(player["id"])  # both play inline, from the group
        async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
            table_id = await open_game(tavolo)
            players = {ALDO["id"]: ALDO, BEN["id"]: BEN}
            posted_by_ben = None
            mentioned_ben = False
            for _ in range(MAX_MOVES):
                game, export = await game_now(tavolo, table_id)
                seats = [int(s["user_id"]) for s in export["seats"]]
                player = players[seats[game.current_player]]
                if player is BEN:
                    table = await api.wait_for(
                        lambda: next(
                            (
                                m
                                for m in reversed(table_messages(api, GID, table_id))
                                if (m.text or "").startswith("Ben,")
                            ),
                            None,
                        ),
                        timeout=30,
                        what="the table opening with Ben's mention",
                    )
                    text = table.text or ""
                    # The table opens with Ben's mention, in the group's language.
                    assert text.startswith("Ben, tocca a te"), text
                    assert "your turn" not in text
                    mentioned_ben = True
                query_id, results, _ = await ask(tavolo, player, str(table_id))
                moves = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
                posted = api.choose_inline_result(player, query_id, moves[0]["id"], chat=GROUP)
                if player is BEN:
                    posted_by_ben = posted
                    break
                await made(tavolo, table_id, int(export["version"]))
                await api.wait_idle()
            assert mentioned_ben and posted_by_ben is not None
            # The move Ben posted in the group carries the Italian button.
            labels = [
                b["text"] for row in posted_by_ben.reply_markup["inline_keyboard"] for b in row
            ]
            assert labels == ["🂠 Le mie carte"], labels
            await api.wait_idle()
            # A refusal said in the group: Italian (Ben did not open the table).
            start = len(api.requests)
            await tavolo.say(GROUP, BEN, "/abandon")
            said = [
                str(r.params.get("text"))
                for r in api.requests[start:]
                if r.ok and r.method == "sendMessage" and r.chat_id == GID
            ]
            assert said == ["Solo chi ha aperto il tavolo o un amministratore può farlo."], said


async def test_refusals_and_stats_said_in_the_group_are_in_its_language(
    tmp_path: Path,
) -> None:
    async with FakeBotApi() as api:
        api.block_private(BEN["id"])  # Ben never opened the bot: answers go to the group
        async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
            await open_game(tavolo)
            # Ben's hand cannot reach him: the group is offered the link, in Italian.
            offer = [m for m in api.bot_messages(GID) if (m.text or "").startswith("Ben:")]
            assert offer and "non posso ancora scriverti in privato" in (offer[-1].text or "")
            assert [b["text"] for b in offer[-1].buttons()] == ["Ricevi le mie carte"]
            start = len(api.requests)
            await tavolo.say(GROUP, BEN, "/notify off")
            said = [
                str(r.params.get("text"))
                for r in api.requests[start:]
                if r.ok and r.method == "sendMessage" and r.chat_id == GID
            ]
            assert said == ["Avvisi di turno: disattivati. Non ti menzionerò quando tocca a te."], (
                said
            )
            start = len(api.requests)
            await tavolo.say(GROUP, BEN, "/kick 1")  # neither creator nor admin
            said = [
                str(r.params.get("text"))
                for r in api.requests[start:]
                if r.ok and r.method == "sendMessage" and r.chat_id == GID
            ]
            assert said == ["Solo chi ha aperto il tavolo o un amministratore può farlo."], said
            aldo_says = api.send_text(GROUP, ALDO, "ciao")
            await api.wait_idle()
            start = len(api.requests)
            await tavolo.say(GROUP, BEN, "/stats", reply_to=aldo_says)
            said = [
                str(r.params.get("text"))
                for r in api.requests[start:]
                if r.ok and r.method == "sendMessage" and r.chat_id == GID
            ]
            assert len(said) == 1 and said[0].startswith("Statistiche di Aldo"), said
            # Privately, Ben's own language: once his chat is open, /stats there is English.
            api.unblock_private(BEN["id"])
            await tavolo.say(private_chat(BEN), BEN, "/start")
            start = len(api.requests)
            await tavolo.say(private_chat(BEN), BEN, "/stats")
            private = [
                str(r.params.get("text"))
                for r in api.requests[start:]
                if r.ok and r.method == "sendMessage" and r.chat_id == BEN["id"]
            ]
            assert any(t.startswith("Statistics of Ben") for t in private), private
