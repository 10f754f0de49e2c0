"""/settings through the real PTB and the fake Bot API: an admin sets the turn timer of one group
(another keeps the bot's default), also after a restart; a non-admin is refused; default options
per game apply to new tables under the command's own; /rules says where each value comes from;
the chat's language for its public messages; who may open tables."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.service import decode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import Tavolo, action_data, button_data, hand_message

ADA = user(2001, "Ada")
BEA = user(2002, "Bea", lang="en")
GROUP_A = group_chat(-100600, "Circolo A")
GROUP_B = group_chat(-100700, "Circolo B")


def settings_button(message: StoredMessage, data: str) -> str:
    assert data in button_data(message), (data, button_data(message))
    return data


async def open_settings(tavolo: Tavolo, group: JSON, admin: JSON) -> StoredMessage:
    await tavolo.say(group, admin, "/settings")
    menu = tavolo.api.last_bot_message(int(group["id"]))
    assert any(d.startswith("cfg:") for d in button_data(menu)), menu.text
    return menu


async def press_setting(
    tavolo: Tavolo, menu: StoredMessage, sender: JSON, data: str
) -> tuple[StoredMessage, object]:
    answer = await tavolo.press(menu, sender, settings_button(menu, data))
    return tavolo.api.message(int(menu.chat["id"]), menu.message_id), answer["text"]


async def start_game(tavolo: Tavolo, group: JSON) -> int:
    api = tavolo.api
    gid = int(group["id"])
    await tavolo.say(group, ADA, "/scopa 2")
    lobby = api.last_bot_message(gid)
    table_id = decode_button(action_data(lobby, "@join")).table_id
    await tavolo.press_action(lobby, BEA, "@join")
    await tavolo.press_action(api.message(gid, lobby.message_id), ADA, "@start")
    assert hand_message(api, ADA["id"], table_id) or hand_message(api, BEA["id"], table_id)
    return table_id


async def fired_tables(tavolo: Tavolo, after: float) -> set[int]:
    assert tavolo.service is not None and tavolo.bot is not None
    results = await tavolo.service.fire_due_timers(now=time.time() + after)
    for result in results:
        await tavolo.bot.deliver(result)
        await tavolo.bot.delivery.settled()  # timer results are queued
    await tavolo.bot.delivery.settled()  # timer results are queued, not awaited
    return {r.table.id for r in results if r.table is not None}


async def test_timer_of_one_group_also_after_a_restart(api: FakeBotApi, tmp_path: Path) -> None:
    api.make_admin(GROUP_A["id"], ADA["id"])
    api.make_admin(GROUP_B["id"], ADA["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3", timers=True) as tavolo:
        # A member who is no admin is refused, in their own language.
        await tavolo.say(GROUP_A, BEA, "/settings")
        refusal = api.last_bot_message(GROUP_A["id"])
        assert refusal.text == "Only the chat's admins can change its settings."
        assert not button_data(refusal)

        menu = await open_settings(tavolo, GROUP_A, ADA)
        assert "Tempo del turno: 2 min (predefinito del bot)" in (menu.text or "")
        menu, alert = await press_setting(tavolo, menu, ADA, "cfg:@timer")
        assert alert is None and "cfg:timer=30" in button_data(menu)
        # Bea presses the admin's menu: refused, nothing changes.
        _, alert = await press_setting(tavolo, menu, BEA, "cfg:timer=60")
        assert alert == "Only the chat's admins can change its settings."
        menu, alert = await press_setting(tavolo, menu, ADA, "cfg:timer=30")
        assert alert is None
        assert "Tempo del turno: 30 s" in (menu.text or "") and "Salvato." in (menu.text or "")

        table_a = await start_game(tavolo, GROUP_A)
        table_b = await start_game(tavolo, GROUP_B)
        # 20 s on: chat A's reminder (15 s into a 30 s turn) is due, chat B's (60 s) is not.
        assert await fired_tables(tavolo, 20) == {table_a}
        assert table_b not in await fired_tables(tavolo, 25)

        await tavolo.restart()
        # After the restart chat A's turns still last 30 s: its autoplay comes at 30 s...
        assert await fired_tables(tavolo, 40) == {table_a}
        assert any("Tempo scaduto" in t for t in api.texts_sent_to(GROUP_A["id"]))
        assert not any("Tempo scaduto" in t for t in api.texts_sent_to(GROUP_B["id"]))
        # ...and the next human turn there has a 30 s timer again; chat B still has none due.
        assert await fired_tables(tavolo, 20) == {table_a}
        assert table_b not in await fired_tables(tavolo, 45)
        assert table_b in await fired_tables(tavolo, 70)


@pytest.mark.slow
async def test_defaults_rules_sources_language_and_openers(api: FakeBotApi, tmp_path: Path) -> None:
    api.make_admin(GROUP_A["id"], ADA["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3") as tavolo:
        menu = await open_settings(tavolo, GROUP_A, ADA)
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:@game.scopa")
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:@option.scopa.target")
        menu, alert = await press_setting(tavolo, menu, ADA, "cfg:scopa.target=16")
        assert alert is None and "Punti per vincere: 16" in (menu.text or ""), menu.text

        # A new table takes the chat's default; /rules says it is the chat's.
        await tavolo.say(GROUP_A, ADA, "/scopa")
        await tavolo.say(GROUP_A, ADA, "/rules")
        rules = _last_text_with(api, "Impostazione della chat", ADA["id"], GROUP_A["id"])
        assert "16" in rules
        await tavolo.say(GROUP_A, ADA, "/abandon")
        # The command's option wins over the chat's default.
        await tavolo.say(GROUP_A, ADA, "/scopa target=21")
        await tavolo.say(GROUP_A, ADA, "/rules")
        rules = _last_text_with(api, "Comando di questo tavolo", ADA["id"], GROUP_A["id"])
        assert "21" in rules and "16" not in rules
        await tavolo.say(GROUP_A, ADA, "/abandon")

        # The chat's language: the group's public messages in English from now on.
        menu = await open_settings(tavolo, GROUP_A, ADA)
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:@lang")
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:lang=en")
        assert "Language: English" in (menu.text or "")
        await tavolo.say(GROUP_A, ADA, "/scopa")
        lobby = api.last_bot_message(GROUP_A["id"])
        labels = [str(b.get("text")) for b in lobby.buttons()]
        assert "Join" in labels, labels
        await tavolo.say(GROUP_A, ADA, "/abandon")
        await tavolo.say(GROUP_A, ADA, "/help")
        assert (api.last_bot_message(GROUP_A["id"]).text or "").startswith("Tavolo")
        assert "In a group" in (api.last_bot_message(GROUP_A["id"]).text or "")

        # Only admins may open tables.
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:@open")
        menu, _ = await press_setting(tavolo, menu, ADA, "cfg:open=admins")
        await tavolo.say(GROUP_A, BEA, "/scopa")
        assert api.last_bot_message(GROUP_A["id"]).text == (
            "In this chat only the admins can open tables."
        )
        await tavolo.say(GROUP_A, ADA, "/scopa")
        assert "@join" in " ".join(button_data(api.last_bot_message(GROUP_A["id"])))


def _last_text_with(api: FakeBotApi, needle: str, *chats: int) -> str:
    for chat in chats:
        for text in reversed(api.texts_sent_to(chat)):
            if needle in text:
                return text
    raise AssertionError(f"no message with {needle!r}")


async def test_pictures_off_in_one_group(api: FakeBotApi, tmp_path: Path) -> None:
    api.make_admin(GROUP_A["id"], ADA["id"])
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        menu = await open_settings(tavolo, GROUP_A, ADA)
        menu, alert = await press_setting(tavolo, menu, ADA, "cfg:pictures=0")
        assert alert is None and "Immagini delle carte: no" in (menu.text or "")
        table_a = await start_game(tavolo, GROUP_A)
        table_b = await start_game(tavolo, GROUP_B)
        shown_a = [m for m in api.bot_messages(GROUP_A["id"]) if f"{table_a}:" in str(m.buttons())]
        shown_b = [m for m in api.bot_messages(GROUP_B["id"]) if f"{table_b}:" in str(m.buttons())]
        assert shown_a and not any(m.has_photo for m in shown_a)
        assert any(m.has_photo for m in shown_b)
        hand = hand_message(api, ADA["id"], table_a) or hand_message(api, BEA["id"], table_a)
        assert hand is not None and not hand.has_photo
