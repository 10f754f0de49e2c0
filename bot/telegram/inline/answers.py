"""Answering an inline query: the asker's moves (or their hand, read-only) at their tables.

Each result id is ``<table>:<version>:<move>``, or the move's index among the legal moves when
the move is too long (``bot.telegram.inline.base.INDEX``); how each game's moves read is in
``bot.telegram.inline.moves``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import (
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultCachedPhoto,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.render import card_text, cards_text
from bot.service import ChatRef, HandView, TableInfo, UserRef, encode_button
from bot.telegram.ids import PLATFORM, hand_payload
from bot.telegram.inline.base import INDEX, LOOK, MAX_RESULTS, InlineBase, parse_query
from bot.telegram.inline.moves import first_token, moves_of

logger = logging.getLogger(__name__)

# One result of an answer: a move (or a card of the hand) as a text, or as its card's picture.
Answer = InlineQueryResultArticle | InlineQueryResultCachedPhoto


class InlineAnswers:
    """Inline queries -> the asker's results."""

    def __init__(self, ground: InlineBase) -> None:
        self._ground = ground

    async def on_inline_query(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """An inline query: the asker's own moves (or hand) at their tables, nobody else's."""
        query = update.inline_query
        if query is None:
            return
        user = query.from_user
        who = UserRef(PLATFORM, str(user.id), user.full_name, user.language_code)
        table_id, wanted = parse_query(query.query)
        # A choice of this user being made right now goes first: the answer offers the moves
        # after it, not the one just made (a move waits for nothing else, so this is short).
        async with self._ground.lock(user.id):
            pass
        # From a group, the group tables (Telegram does not say which group); from the
        # private chat with the bot, a quick game too.
        in_group = query.chat_type in ("group", "supergroup")
        tables = [
            t
            for t in await self._ground.service.tables_of(who)
            if t.status == "playing"
            and (table_id is None or t.id == table_id)
            and (self._ground.group_table(t) or not in_group)
        ]
        # Where it is the player's turn first, then the newest.
        tables.sort(key=lambda t: (t.current_seat != t.seat_of(PLATFORM, who.user_id), -t.id))
        results: list[Answer] = []
        texts: dict[str, str] = {}
        used: set[str] = set()
        button: InlineQueryResultsButton | None = None
        locale = await self._ground.service.user_locale(who)
        for table in tables:
            hand = await self._ground.hand(who, table)
            if hand is None:
                continue
            built, header = await self._results(
                hand, several=len(tables) > 1, wanted=wanted, used=used
            )
            results.extend(built)
            if button is None and header is not None:
                button = header
            locale = hand.locale
        if not tables:
            button = InlineQueryResultsButton(
                text=self._ground.t(locale, "not_playing"), start_parameter="help"
            )
        offset = int(query.offset) if query.offset.isdigit() else 0
        page = results[offset : offset + MAX_RESULTS]
        # (After a restart: the earlier answers' results.)
        await self._ground.recall_offered(user.id)
        offered = self._ground.per_user(self._ground.offered_ids, user.id)
        for result in page:
            self._ground.remember(offered, result.id, None)
            content = result.input_message_content
            if isinstance(content, InputTextMessageContent):
                text = content.message_text
                # Two results with one text cannot be told apart from their message.
                texts[text] = "" if text in texts and texts[text] != result.id else result.id
        self._ground.remember_offered(user.id, texts)
        more = offset + MAX_RESULTS < len(results)
        try:
            await query.answer(
                page,
                cache_time=0,
                is_personal=True,
                next_offset=str(offset + MAX_RESULTS) if more else "",
                button=button,
            )
        except TelegramError as error:
            logger.info("answerInlineQuery failed: %s", error)
        # After the answer (the player waits for it): kept for a result chosen across a restart.
        await self._ground.keep_offered(user.id)

    async def _results(
        self, hand: HandView, *, several: bool, wanted: str, used: set[str]
    ) -> tuple[list[Answer], InlineQueryResultsButton | None]:
        """The results of one table, and the header button above them (``used``: the texts
        the answer's results post so far)."""
        table, view = hand.table, hand.view
        t = self._ground.renderer.translations(hand.locale)
        prefix = f"{self._ground.renderer.game_name(table, t)} #{table.id} · " if several else ""
        moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
        hand_cards = cards_text(view.hand)
        # What a result posts is public: in the table's chat's language (the panel itself
        # speaks the player's).
        public = hand.locale
        if self._ground.group_table(table):
            public = await self._ground.service.chat_locale(ChatRef(PLATFORM, table.chat_id))
        said_t = self._ground.renderer.translations(public)
        markup = InlineKeyboardMarkup([[self._ground.cards_button(table.id, public)]])
        listing = moves_of(table.family)
        context = listing.context(view, t)
        results: list[Answer] = []
        if not moves:
            current = getattr(view, "current_player", None)
            name = (
                self._ground.renderer.seat_name(table, current, t) if current is not None else "—"
            )
            waiting = self._ground.t(hand.locale, "waiting").format(name=name)
            looking = self._ground.t(public, "looking")
            results.append(
                self._article(
                    encode_button(table.id, table.version, LOOK),
                    prefix + waiting,
                    self._ground.t(hand.locale, "your_hand").format(cards=hand_cards),
                    looking,
                    markup,
                )
            )
            for index, card in enumerate(view.hand):
                result_id = encode_button(table.id, table.version, f"{LOOK}{index}")
                results.append(
                    await self._card_result(
                        result_id, card, prefix + card_text(card), waiting, looking, markup, hand
                    )
                )
            waiting_button = InlineQueryResultsButton(
                text=waiting, start_parameter=hand_payload(table.id)
            )
            return results, waiting_button
        # A card's picture says it all when the card has one move; with capture choices the
        # text ("7♦ ➜ 3♣ 4♠") tells them apart.
        per_card: dict[str, int] = {}
        for move in moves:
            card = first_token(move)
            per_card[card] = per_card.get(card, 0) + 1
        for index, move in enumerate(moves):
            title = listing.title(move, t)
            if wanted and wanted.lower() not in (title + " " + move).lower():
                continue
            result_id = self._result_id(table, move, index)
            description = (
                context + " · " + self._ground.t(hand.locale, "your_hand").format(cards=hand_cards)
            )
            # The posted text names the move; two moves that read alike (Scala 40's two decks
            # hold twin cards) get a number, so the message alone tells which was chosen.
            posted = listing.title(move, said_t) if public != hand.locale else title
            said, named = posted, title
            for number in range(2, len(moves) + 2):
                if said not in used:
                    break
                said, named = f"{posted} ({number})", f"{title} ({number})"
            used.add(said)
            played = listing.played(move)
            if played is not None and per_card.get(played) == 1:
                results.append(
                    await self._card_result(
                        result_id, played, prefix + title, description, said, markup, hand
                    )
                )
            else:
                results.append(self._article(result_id, prefix + named, description, said, markup))
        header: InlineQueryResultsButton | None = None
        if listing.picks_in_private:
            header = InlineQueryResultsButton(
                text=self._ground.t(hand.locale, "pick_private"),
                start_parameter=hand_payload(table.id),
            )
        return results, header

    @staticmethod
    def _result_id(table: TableInfo, move: str, index: int) -> str:
        return result_id(table, move, index)

    @staticmethod
    def _article(
        result_id: str,
        title: str,
        description: str,
        text: str,
        markup: InlineKeyboardMarkup,
    ) -> InlineQueryResultArticle:
        return InlineQueryResultArticle(
            id=result_id,
            title=title,
            description=description,
            input_message_content=InputTextMessageContent(text),
            reply_markup=markup,
        )

    async def _card_result(
        self,
        result_id: str,
        card: object,
        title: str,
        description: str,
        text: str,
        markup: InlineKeyboardMarkup,
        hand: HandView,
    ) -> Answer:
        """A card's picture (a cached photo: the result shows it, the posted message carries
        only ``text``) when pictures are on for the table, else a plain article."""
        file_id = None
        if self._ground.photos is not None:
            file_id = await self._ground.photos.file_id(card, hand.table)
        if file_id is None:
            return self._article(result_id, title, description, text, markup)
        return InlineQueryResultCachedPhoto(
            id=result_id,
            photo_file_id=file_id,
            title=title,
            description=description,
            input_message_content=InputTextMessageContent(text),
            reply_markup=markup,
        )


def result_id(table: TableInfo, move: str, index: int) -> str:
    """A result's id: the button data of ``move``, or its ``index`` when the move is too long."""
    try:
        return encode_button(table.id, table.version, move)
    except ValueError:
        return encode_button(table.id, table.version, f"{INDEX}{index}")
