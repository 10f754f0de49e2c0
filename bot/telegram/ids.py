"""Telegram places and people as the service's platform-neutral string ids, and deep links.

A forum topic is a chat of its own for the service (``"<chat>/<topic>"``), so a table opened in a
topic lives, and is announced, only there.
"""

from __future__ import annotations

import re

from bot.telegram.messenger import Where

PLATFORM = "telegram"

_CHAT_KEY = re.compile(r"(-?\d{1,20})(?:/(\d{1,12}))?")
# Telegram allows 1-64 characters of A-Z, a-z, 0-9, _ and - in a /start payload.
_PAYLOAD = re.compile(r"hand-(\d{1,18})")


def chat_key(where: Where) -> str:
    """The service's ``chat_id`` for a chat, or a topic in a forum group."""
    if where.thread_id is None:
        return str(where.chat_id)
    return f"{where.chat_id}/{where.thread_id}"


def where_of(chat_id: str) -> Where:
    """The inverse of ``chat_key``; ``ValueError`` for an id that is not ours."""
    match = _CHAT_KEY.fullmatch(chat_id)
    if match is None:
        raise ValueError(f"not a Telegram chat key: {chat_id!r}")
    thread = match.group(2)
    return Where(int(match.group(1)), int(thread) if thread else None)


def hand_payload(table_id: int) -> str:
    """The ``/start`` payload that delivers one's hand of a table in the private chat."""
    return f"hand-{table_id}"


def parse_hand_payload(payload: str) -> int | None:
    """The table id of a ``hand_payload``; ``None`` for any other payload."""
    match = _PAYLOAD.fullmatch(payload)
    return int(match.group(1)) if match else None


def deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the private chat and sends ``/start``."""
    return f"https://t.me/{bot_username}?start={payload}"
