"""Playing from the group with Telegram's inline mode, and the turn mentions in the group.

How a player plays without leaving the group:

* the table message carries "🂠 My cards", a ``switch_inline_query_current_chat`` button whose
  query names the table (``"12"``); typing ``@<bot>`` alone lists every table the player sits at;
* the bot answers the inline query personally (``is_personal``, ``cache_time=0``) with the
  player's legal moves (Scopa: one result per card and capture, "7♦ ➜ 3♣ 4♠"; Scala 40: every
  move of the private hand's menu, with a link to the private hand for picking cards one by
  one), or, when it is not their turn, their hand read-only under a "waiting for X" header;
* choosing a result posts a message "via @bot" showing only the move (public once made) and
  makes the move. Each result id is ``<table>:<version>:<move>`` (the button data format, at
  most 64 bytes; a longer move travels as its index ``~<n>`` in the legal moves of that
  version), so a stale or forged result (or one never offered to that user) is refused like a
  stale button: nothing changes, and the posted message is turned into a short notice. The
  results offered to a user are kept in the adapter state too (kind ``offered``, for an hour),
  so a result chosen across a restart still plays;
* once the table message shows the move, the bot deletes the posted message (when it may: an
  admin with the right to delete messages), with the table's old copy, in one
  ``deleteMessages``; while the group's budget is short those deletions wait and gather, so a
  busy group spends about one request per move (``sweeper``), and the group keeps no more
  messages than before.

Which update makes the move: ``chosen_inline_result`` (it carries the result id: exact) when
inline feedback is on (``/setinlinefeedback``), else the message posted "via @bot", matched to
the result of that user's latest answers with the same text. Both may come, in either order and
at once (updates are handled concurrently): a lock per user and the results already handled
make the move happen once. The posted message alone suffices, so a bot whose feedback is off
still plays; feedback only makes the match exact.

Private hands: in a group, with inline mode on (``getMe`` says ``supports_inline_queries``), a
player's hand is sent privately only to those who asked for it (the table's "💬 In private"
button or the deep link, remembered per user) or who already keep a hand message at that table;
everyone else plays inline. With inline mode off everything works as before.

Turn mentions: when a player who plays inline (or whose private chat is closed) gets the turn
at a group table with at least two humans, they are mentioned (a ``text_mention``; ``/notify
off`` turns them off, per user). A mention notifies only in a new message, so the table message
of the same result is posted anew opening with it and its old copy deleted (``plan``,
``table_with_mention``): the group gets one message, and the bot spends one or two of the
group's ~20 requests a minute per move (a post, and a deletion when the budget has room for it)
instead of three. When the next to move is the player who just moved or a computer, no mention
is due and the table message is edited in place. When that cannot be (a
picture whose text is too long for a caption), a separate mention message with the "My cards"
button replaces the table's previous one and goes when the turn has moved on or the table
closes. A timer's reminder adds nothing (one notification a turn); the player who just moved
never gets one (the service sends no notice to the mover).

The parts, one module each: ``answers`` (inline queries -> results), ``moves`` (how each game's
moves read), ``choices`` (chosen results -> moves), ``mentions`` (the delivery hooks and the
turn mentions), ``base`` (limits, texts, memory and deletions), ``sweeper`` (the deletions sent
when the group's budget has room).
"""

from __future__ import annotations

from bot.telegram.inline.answers import InlineAnswers
from bot.telegram.inline.base import (
    CAPTION_LIMIT,
    HANDS,
    INDEX,
    LOOK,
    MAX_MESSAGE,
    MAX_RESULT_ID,
    MAX_RESULTS,
    MENTION,
    NOTIFY,
    PARK_WAIT,
    PLAN_WAIT,
    TEXTS,
    CardPhotos,
    Choice,
    Handled,
    NoticeWay,
    parse_query,
    utf16_length,
)
from bot.telegram.inline.choices import InlineChoices
from bot.telegram.inline.mentions import TurnMentions
from bot.telegram.inline.sweeper import RETRY_DELETE_AFTER, Sweeper

__all__ = [
    "CAPTION_LIMIT",
    "HANDS",
    "INDEX",
    "LOOK",
    "MAX_MESSAGE",
    "MAX_RESULTS",
    "MAX_RESULT_ID",
    "MENTION",
    "NOTIFY",
    "PARK_WAIT",
    "PLAN_WAIT",
    "RETRY_DELETE_AFTER",
    "TEXTS",
    "CardPhotos",
    "Choice",
    "Handled",
    "InlinePlay",
    "NoticeWay",
    "Sweeper",
    "parse_query",
    "utf16_length",
]


class InlinePlay(TurnMentions, InlineAnswers, InlineChoices):
    """Inline queries and chosen results -> service calls; the delivery hooks for inline play."""
