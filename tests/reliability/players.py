"""Scripted Telegram players that cope the way people do when messages go missing or a bot
restarts: they press a button of their newest hand message, and when nothing answers usefully
they ask the bot for their hand again (``/start hand-<table>`` in the private chat: the deep
link the bot offers). They read only what the fake Bot API shows them.

Every move the bot acknowledged (a callback answer without an alert) is recorded, so a test can
check that each one is in the table's move log."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.service import decode_button
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage, private_chat
from tests.telegram.harness import move_buttons

MAX_STEPS = 5000  # far above any game; a bug cannot loop forever
Status = Callable[[int], Awaitable[str]]


@dataclass
class Ledger:
    """What the players saw: acknowledged moves per table, refusals, hand re-requests."""

    acked: dict[int, list[tuple[int, str]]] = field(default_factory=dict)
    refused: int = 0
    refetched: int = 0
    unanswered: int = 0
    answer_timeout: float = 20.0  # how long a player waits for the bot to answer a press
    patience: float = 3.0  # how long players wait for a hand before asking for it again
    # False: players never ask for their hand (no "My hand", no /start): they only press the
    # buttons of the newest hand they have, and wait for the bot to bring the rest.
    reask: bool = True


def newest_hand(api: FakeBotApi, user_id: int, table_id: int) -> StoredMessage | None:
    """The user's newest private message with move buttons of ``table_id``."""
    for message in reversed(api.bot_messages(user_id)):
        moves = move_buttons(message)
        if moves and decode_button(moves[0]).table_id == table_id:
            return message
    return None


def version_of(message: StoredMessage) -> int:
    return max(decode_button(d).version for d in move_buttons(message))


async def ask_for_hand(api: FakeBotApi, player: JSON, table_id: int, ledger: Ledger) -> None:
    ledger.refetched += 1
    api.send_text(private_chat(player), player, f"/start hand-{table_id}")
    # No hand with buttons: not their turn, or the bot is down; the next step looks again.
    with contextlib.suppress(AssertionError):
        await api.wait_for(
            lambda: newest_hand(api, player["id"], table_id), timeout=ledger.patience
        )


async def press(
    api: FakeBotApi, message: StoredMessage, player: JSON, data: str, ledger: Ledger
) -> JSON | None:
    """Press ``data`` on ``message``; the answer, or None if the bot never answered."""
    try:
        current = api.message(message.chat["id"], message.message_id)
    except KeyError:
        return None
    query = api.press(current, player, data=data)
    try:
        return await api.wait_answered(query, timeout=ledger.answer_timeout)
    except AssertionError:
        ledger.unanswered += 1
        return None


async def play_step(
    api: FakeBotApi, players: list[JSON], table_id: int, rng: random.Random, ledger: Ledger
) -> None:
    """One player action: the newest hand with buttons presses one; else hands are re-asked."""

    def ready_hands() -> list[tuple[JSON, StoredMessage]]:
        hands = [(p, newest_hand(api, p["id"], table_id)) for p in players]
        return [(p, m) for p, m in hands if m is not None]

    ready = ready_hands()
    if not ready:
        # The bot may still be delivering (flood limits, a restart): wait before asking again.
        try:
            ready = await api.wait_for(ready_hands, timeout=ledger.patience, what="a hand")
        except AssertionError:
            if ledger.reask:
                for player in players:
                    await ask_for_hand(api, player, table_id, ledger)
            return
    player, message = max(ready, key=lambda pm: version_of(pm[1]))
    choice = rng.choice(move_buttons(message))
    answer = await press(api, message, player, choice, ledger)
    action = choice.split(":", 2)[2]
    if answer is not None and answer["text"] is None and action.startswith("?"):

        def choices() -> list[str]:
            shown = api.messages.get((player["id"], message.message_id))
            found = [] if shown is None else move_buttons(shown)
            return [o for o in found if ":?" not in o]

        try:
            options = await api.wait_for(choices, timeout=ledger.patience, what="choices")
        except AssertionError:
            return
        edited = api.message(player["id"], message.message_id)
        choice = rng.choice(options)
        answer = await press(api, edited, player, choice, ledger)
        action = choice.split(":", 2)[2]
    if answer is None:
        return
    if answer["text"] is None:
        ledger.acked.setdefault(table_id, []).append((decode_button(choice).version, action))
        return
    ledger.refused += 1
    # A stale or refused button: this player's view is behind; ask for the hand again (a
    # patient player waits: the bot sends it again after a stale press).
    if ledger.reask:
        await ask_for_hand(api, player, table_id, ledger)
        return
    pressed = decode_button(choice).version

    def moved_on() -> bool:
        hand = newest_hand(api, player["id"], table_id)
        return hand is None or version_of(hand) != pressed

    with contextlib.suppress(AssertionError):
        await api.wait_for(moved_on, timeout=ledger.patience, what="the hand sent again")


async def play_table(
    api: FakeBotApi,
    players: list[JSON],
    table_id: int,
    *,
    status: Status,
    ledger: Ledger,
    seed: int,
    between: Callable[[int], Awaitable[None]] | None = None,
) -> int:
    """Plays until ``status(table_id)`` is no longer ``playing``; returns the steps taken."""
    rng = random.Random(seed)
    for step in range(MAX_STEPS):
        if await status(table_id) != "playing":
            return step
        await play_step(api, players, table_id, rng, ledger)
        if between is not None:
            await between(step)
        await asyncio.sleep(0)
    raise AssertionError(f"table {table_id} did not end in {MAX_STEPS} steps")
