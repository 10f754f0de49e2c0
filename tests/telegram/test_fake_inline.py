"""The fake Bot API's inline mode, checked through the real PTB ``Bot``: Telegram's limits and
errors on answerInlineQuery, and the updates a chosen result brings."""

from __future__ import annotations

import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
)
from telegram.error import BadRequest

from tests.fakes.telegram_api import FakeBotApi, group_chat, user

ALICE = user(1001, "Alice")
GROUP = group_chat(-100800, "Prove")


def article(result_id: str, text: str = "7♦") -> InlineQueryResultArticle:
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton("🂠", switch_inline_query_current_chat="1")]]
    )
    return InlineQueryResultArticle(
        result_id, text, InputTextMessageContent(text), reply_markup=markup
    )


async def test_answer_limits_and_chosen_results() -> None:
    async with FakeBotApi(inline=True) as api:
        bot = Bot(api.token, base_url=api.base_url, base_file_url=api.base_file_url)
        async with bot:
            assert bot.supports_inline_queries
            for results, error in (
                ([article(str(i)) for i in range(51)], "RESULTS_TOO_MUCH"),
                ([article("x" * 65)], "RESULT_ID_INVALID"),
                ([article("a"), article("a", "8♦")], "RESULT_ID_DUPLICATE"),
            ):
                query_id = api.inline_query(ALICE, "1")
                with pytest.raises(BadRequest, match=r"(?i)" + error):
                    await bot.answer_inline_query(query_id, results, cache_time=0)
            with pytest.raises(BadRequest, match=r"(?i)query id is invalid"):
                await bot.answer_inline_query("nope", [article("a")])
            query_id = api.inline_query(ALICE, "1")
            results = [article(str(i), f"card {i}") for i in range(50)]
            assert await bot.answer_inline_query(
                query_id, results, cache_time=0, is_personal=True, next_offset="50"
            )
            with pytest.raises(BadRequest, match=r"(?i)query id is invalid"):
                await bot.answer_inline_query(query_id, results)  # answered already
            answer = api.inline_answers[query_id]
            assert answer["is_personal"] is True and answer["cache_time"] == 0
            # choosing result 7 posts its message "via @bot" and reports the choice
            posted = api.choose_inline_result(ALICE, query_id, "7", chat=GROUP)
            assert posted is not None and posted.via_bot is not None
            updates = await bot.get_updates(timeout=0)
            message = next(u.message for u in updates if u.message is not None)
            chosen = next(u.chosen_inline_result for u in updates if u.chosen_inline_result)
            assert message.via_bot is not None and message.via_bot.id == bot.id
            assert message.text == "card 7" and message.from_user is not None
            assert message.from_user.id == ALICE["id"]
            assert chosen.result_id == "7" and chosen.inline_message_id
            # the bot may edit it by its inline message id; delete it only as an admin
            await bot.edit_message_text("⚠️ no", inline_message_id=chosen.inline_message_id)
            assert api.message(GROUP["id"], posted.message_id).text == "⚠️ no"
            with pytest.raises(BadRequest, match=r"(?i)can.t be deleted"):
                await bot.delete_message(GROUP["id"], posted.message_id)
            api.make_bot_admin(GROUP["id"])
            assert await bot.delete_messages(GROUP["id"], [posted.message_id, 999])
            assert not api.via_bot_messages(GROUP["id"])
