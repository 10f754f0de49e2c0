"""Card pictures on Telegram, through the real PTB and the fake Bot API.

With pictures on, the table and each hand are photo messages whose caption is the text view (the
accessible form) and whose keyboard is the usual one; they are edited in place with
``editMessageMedia`` when the picture changes, with ``editMessageCaption`` (no upload) when it does
not. With pictures off, only text goes out.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

from bot.service import ChatRef, UserRef, decode_button
from bot.telegram import writer
from tests.fakes.telegram_api import FakeBotApi, StoredMessage, group_chat, user
from tests.telegram.harness import (
    Tavolo,
    action_data,
    assert_no_hidden_card_in_group,
    hidden_cards_by_version,
    play_turn,
    play_until_over,
    table_status,
)

ALICE = user(1001, "Alice")
BOB = user(1002, "Bob", lang="en")
GROUP = group_chat(-100700, "Carte")
TURNS = 12


async def start_game(tavolo: Tavolo, game: str = "scopa") -> int:
    api = tavolo.api
    await tavolo.say(GROUP, ALICE, f"/{game} 2")
    lobby = api.last_bot_message(GROUP["id"])
    table_id = decode_button(action_data(lobby, "@join")).table_id
    assert (await tavolo.press_action(lobby, BOB, "@join"))["text"] is None
    lobby = api.message(GROUP["id"], lobby.message_id)
    assert (await tavolo.press_action(lobby, ALICE, "@start"))["text"] is None
    return table_id


def photo_table(api: FakeBotApi, table_id: int) -> StoredMessage:
    """The group's photo message that carries this table's buttons."""
    found = [
        m
        for m in api.bot_messages(GROUP["id"])
        if m.has_photo
        and any(
            decode_button(b["callback_data"]).table_id == table_id
            for b in m.buttons()
            if "callback_data" in b
        )
    ]
    assert len(found) == 1, [m.message_id for m in found]
    return found[0]


async def test_pictures_on_table_and_hands_are_photos_edited_in_place(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        table_id = await start_game(tavolo)
        table = photo_table(api, table_id)
        # the caption is the text view: whose turn, the table's cards, and the usual button
        assert table.caption and "Alice" in table.caption and "Bob" in table.caption
        assert table.photo_data is not None
        Image.open(io.BytesIO(table.photo_data)).verify()
        pictures = {table.photo_data}
        rng = random.Random(5)
        for _ in range(TURNS):
            played = [await play_turn(tavolo, p, table_id, rng) for p in (ALICE, BOB)]
            assert any(played)
            now = api.message(GROUP["id"], table.message_id)
            assert now.photo_data is not None
            pictures.add(now.photo_data)
        # one table message, its picture replaced as the table changed
        assert photo_table(api, table_id).message_id == table.message_id
        assert len(pictures) >= TURNS // 2, len(pictures)
        media_edits = api.calls("editMessageMedia", chat_id=GROUP["id"])
        assert len(media_edits) >= TURNS // 2
        # hands are photos too, with their move buttons, edited rather than re-sent
        for player in (ALICE, BOB):
            photos = [m for m in api.bot_messages(player["id"]) if m.has_photo]
            assert photos, player
            assert api.calls("editMessageMedia", chat_id=player["id"])
            assert len(api.calls("sendPhoto", chat_id=player["id"])) <= 2
        # no card of a hand in any caption of the group
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > TURNS // 2
        # an unchanged picture is never uploaded again: every upload is a new picture
        uploads = [r for r in api.requests if r.ok and r.files]
        digests = [bytes(next(iter(r.files.values()))) for r in uploads]
        assert len(digests) == len(set(digests)), "a picture was uploaded twice"


async def show_table(tavolo: Tavolo, table_id: int) -> None:
    """Alice asks for the table again (the service's public ``show``), delivered as usual."""
    assert tavolo.service is not None and tavolo.bot is not None
    shown = await tavolo.service.show(
        ChatRef("telegram", str(GROUP["id"])),
        UserRef("telegram", str(ALICE["id"]), "Alice"),
        table_id,
        public=True,
    )
    await tavolo.bot.deliver(shown)
    await tavolo.bot.delivery.settled()
    await tavolo.api.wait_idle()


async def test_same_picture_is_not_uploaded_again_and_a_style_changes_it(
    api: FakeBotApi, tmp_path: Path
) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        table_id = await start_game(tavolo)
        table = photo_table(api, table_id)
        first = table.photo_data  # the fake edits its stored message in place
        media_edits = len(api.calls("editMessageMedia", chat_id=GROUP["id"]))
        uploads = len([r for r in api.requests if r.files])
        await show_table(tavolo, table_id)
        # the same picture: nothing uploaded, nothing replaced
        assert len(api.calls("editMessageMedia", chat_id=GROUP["id"])) == media_edits
        assert len([r for r in api.requests if r.files]) == uploads
        assert api.message(GROUP["id"], table.message_id).photo_data == first
        # the group picks another deck: the same table, drawn anew, replaces the picture
        assert tavolo.pictures is not None
        await tavolo.pictures.set_style("piacentine", platform="telegram", owner=str(GROUP["id"]))
        await show_table(tavolo, table_id)
        assert len(api.calls("editMessageMedia", chat_id=GROUP["id"])) == media_edits + 1
        assert api.message(GROUP["id"], table.message_id).photo_data != first


async def test_pictures_off_sends_text_only(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=False) as tavolo:
        table_id = await start_game(tavolo)
        await play_until_over(tavolo, [ALICE, BOB], table_id)
        assert await table_status(tavolo, table_id) == "finished"
        assert not api.calls("sendPhoto")
        assert not api.calls("editMessageMedia")


async def test_style_command_sets_the_groups_deck(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        assert tavolo.pictures is not None
        await tavolo.say(GROUP, ALICE, "/style")
        menu = api.last_bot_message(GROUP["id"])
        labels = [b["text"] for b in menu.buttons()]
        assert len(labels) == 5 and "Carte piacentine" in labels, labels  # Alice reads Italian
        answer = await tavolo.press(menu, BOB, str(menu.button("piacentine")["callback_data"]))
        assert answer["text"] is None
        assert "piacentine" in (api.message(GROUP["id"], menu.message_id).text or "").lower()
        owner = str(GROUP["id"])
        assert await tavolo.pictures.preferred("telegram", owner) == "piacentine"
        # typed with a name; in private it is the user's own
        await tavolo.say(GROUP, ALICE, "/style francesi4")
        assert await tavolo.pictures.preferred("telegram", owner) == "francesi4"
        await tavolo.say(GROUP, ALICE, "/style default")
        assert await tavolo.pictures.preferred("telegram", owner) is None
        # a forged style button changes nothing
        await tavolo.press(menu, BOB, "sty:0:../../etc")
        assert await tavolo.pictures.preferred("telegram", owner) is None


async def test_style_command_with_pictures_off(api: FakeBotApi, tmp_path: Path) -> None:
    async with Tavolo(api, tmp_path / "t.sqlite3", images=False) as tavolo:
        await tavolo.say(GROUP, BOB, "/style")
        assert "off" in (api.last_bot_message(GROUP["id"]).text or "")


async def test_a_text_too_long_for_a_caption_goes_under_its_picture(
    api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past Telegram's 1024-character caption the picture is posted alone and the text, with
    the buttons, right under it; both are then edited in place."""
    monkeypatch.setattr(writer, "CAPTION_LIMIT", 20)
    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        table_id = await start_game(tavolo)
        photos = [m for m in api.bot_messages(GROUP["id"]) if m.has_photo]
        assert len(photos) == 1 and photos[0].caption is None and not photos[0].buttons()
        texts = [
            m for m in api.bot_messages(GROUP["id"]) if m.message_id == photos[0].message_id + 1
        ]
        assert texts and texts[0].text and action_data(texts[0], "@hand")
        first = photos[0].photo_data
        rng = random.Random(2)
        for _ in range(3):
            for player in (ALICE, BOB):
                await play_turn(tavolo, player, table_id, rng)
        # still one picture and one text: the picture replaced, the text edited
        assert [m.message_id for m in api.bot_messages(GROUP["id"]) if m.has_photo] == [
            photos[0].message_id
        ]
        assert api.message(GROUP["id"], photos[0].message_id).photo_data != first
        assert api.calls("editMessageText", chat_id=GROUP["id"])
        hidden = await hidden_cards_by_version(tavolo, table_id)
        assert assert_no_hidden_card_in_group(api, GROUP["id"], table_id, hidden) > 0


async def test_stats_come_with_the_rating_chart(api: FakeBotApi, tmp_path: Path) -> None:
    import sqlalchemy as sa

    from bot.store import schema
    from tests.fakes.telegram_api import private_chat

    async with Tavolo(api, tmp_path / "t.sqlite3", images=True) as tavolo:
        assert tavolo.store is not None
        async with tavolo.store.engine.begin() as conn:
            for table_id, at in ((1, 1_700_000_000.0), (2, 1_700_090_000.0)):
                values = {"platform": "telegram", "chat_id": "c", "game": "scopa"}
                await conn.execute(
                    sa.insert(schema.tables).values(
                        id=table_id,
                        family="scopa",
                        players=2,
                        options="{}",
                        status="finished",
                        creator="u",
                        seats="[]",
                        seed=1,
                        version=1,
                        created_at=at,
                        updated_at=at,
                        **values,
                    )
                )
                await conn.execute(
                    sa.insert(schema.results).values(
                        table_id=table_id,
                        family="scopa",
                        winner_side=0,
                        multiplier=1,
                        data="{}",
                        finished_at=at,
                        **values,
                    )
                )
                await conn.execute(
                    sa.insert(schema.rating_changes).values(
                        table_id=table_id,
                        scope="global",
                        platform="telegram",
                        user_id=str(BOB["id"]),
                        mu_before=25.0,
                        sigma_before=8.0,
                        mu_after=26.0 + table_id,
                        sigma_after=7.0,
                    )
                )
            await conn.execute(
                sa.insert(schema.ratings).values(
                    scope="global",
                    family="scopa",
                    platform="telegram",
                    user_id=str(BOB["id"]),
                    name="Bob",
                    mu=28.0,
                    sigma=7.0,
                    ordinal=7.0,
                    games=2,
                    wins=1,
                    win_points=1,
                )
            )
        requests = await tavolo.say(private_chat(BOB), BOB, "/stats")
        photos = [r for r in requests if r.method == "sendPhoto" and r.ok]
        assert len(photos) == 1 and "Bob" in photos[0].params["caption"]
        Image.open(io.BytesIO(photos[0].files["photo"])).verify()
