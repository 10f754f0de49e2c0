"""A whole Tavolo behind the real PTB: a real TableService on SQLite, the Telegram adapter, and the
fake Bot API; plus the moves of simulated users (commands, button presses) and the checks."""

from __future__ import annotations

import dataclasses
import gettext
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from telegram.ext import BaseRateLimiter

from bot.cli.compose import build_pictures
from bot.render import Renderer, card_text, move_text, scala40_move_text
from bot.render.images import ImageRenderer
from bot.render.pictures import Pictures
from bot.service import (
    ComputerPlayers,
    TableService,
    TimerSettings,
    decode_button,
    default_registry,
)
from bot.service.presence import Presence
from bot.store import Store
from bot.telegram import TelegramBot, build_bot
from bot.telegram.settings import TelegramSettings
from engine.cards import Card
from tests.fakes.telegram_api import (
    JSON,
    FakeBotApi,
    RecordedRequest,
    StoredMessage,
    request_texts,
)
from tests.telegram.support import fast_rate_limiter

MAX_PRESSES = 2000  # far above any game the scenarios play; a bug cannot loop forever


class Tavolo:
    """Service + adapter on one database file; ``restart()`` builds both anew on the same file."""

    def __init__(
        self,
        api: FakeBotApi,
        db_path: Path,
        *,
        seed: int = 7,
        repost_after: int = 15,
        timers: bool = False,
        images: bool = False,
        rate_limiter: Callable[[], BaseRateLimiter[Any]] = fast_rate_limiter,
        ping_after_idle: float = 0.0,
    ) -> None:
        self.rate_limiter = rate_limiter
        # Who is looking (bot.service.presence), on a clock of its own that tests move
        # (``presence_now``); by default nobody counts as looking: a mention every turn.
        self.presence_now = 0.0
        self.presence = Presence(idle_after=ping_after_idle, clock=lambda: self.presence_now)
        self.timers = timers
        self.images = images
        self.pictures: Pictures | None = None
        self.api = api
        self.url = f"sqlite+aiosqlite:///{db_path}"
        self.settings = TelegramSettings(
            token=api.token, api_url=api.url, poll_timeout=2, repost_after=repost_after
        )
        self._seeds = iter(range(seed, seed + 10_000))
        self.renderer = Renderer()
        self.store: Store | None = None
        self.service: TableService | None = None
        self.bot: TelegramBot | None = None

    async def start(self) -> None:
        self.store = Store.open(self.url)
        await self.store.upgrade()
        self.service = TableService(
            self.store,
            registry=default_registry(),
            computers=ComputerPlayers(),
            timers=TimerSettings(reminder=60, autoplay=120) if self.timers else TimerSettings(0),
            seeds=lambda: next(self._seeds),
        )
        if self.images:
            # Small cards keep the picture tests quick; the drawing is the same at every size.
            # Wired by the composition root's own builder.
            self.pictures = build_pictures(
                self.renderer,
                ImageRenderer(table_card_width=40, hand_card_width=40, hand_max_width=400),
                store=self.store,
                service=self.service,
            )
        self.bot = build_bot(
            self.settings,
            service=self.service,
            renderer=self.renderer,
            rate_limiter=self.rate_limiter(),
            pictures=self.pictures,
            state=self.store,
            presence=self.presence,
        )
        await self.bot.start()

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.stop()
            self.bot = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    async def __aenter__(self) -> Tavolo:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # --- users -------------------------------------------------------------------------------

    async def say(
        self,
        chat: JSON,
        sender: JSON,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: StoredMessage | None = None,
    ) -> list[RecordedRequest]:
        """``sender`` writes in ``chat`` (in reply to ``reply_to``); returns once the bot has
        handled it."""
        before = len(self.api.requests)
        self.api.send_text(chat, sender, text, thread_id=thread_id, reply_to=reply_to)
        await self.api.wait_idle()
        return self.api.requests[before:]

    async def press(self, message: StoredMessage, sender: JSON, data: str) -> JSON:
        """``sender`` presses a button carrying ``data`` (or forges it); returns the answer."""
        query_id = self.api.press(message, sender, data=data)
        answer = await self.api.wait_answered(query_id)
        # The answer comes first, the messages after it: wait for them too.
        if self.bot is not None:
            await self.bot.delivery.settled()
        return answer

    async def press_action(self, message: StoredMessage, sender: JSON, action: str) -> JSON:
        return await self.press(message, sender, action_data(message, action))


def button_data(message: StoredMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


def action_data(message: StoredMessage, action: str) -> str:
    """The data of the button of ``message`` whose action is ``action``."""
    found = [d for d in button_data(message) if d.split(":", 2)[2] == action]
    if len(found) != 1:
        raise AssertionError(f"no single {action!r} button in {button_data(message)}")
    return found[0]


def table_messages(api: FakeBotApi, chat_id: int, table_id: int) -> list[StoredMessage]:
    """Bot messages in a chat whose buttons belong to ``table_id``."""
    return [
        m
        for m in api.bot_messages(chat_id)
        if any(decode_button(d).table_id == table_id for d in _decodable(button_data(m)))
    ]


def _decodable(data: list[str]) -> Iterator[str]:
    for d in data:
        try:
            decode_button(d)
        except ValueError:
            continue
        yield d


def move_buttons(message: StoredMessage) -> list[str]:
    """Buttons that play a move or open a capture choice (not lobby/table actions)."""
    return [d for d in _decodable(button_data(message)) if not d.split(":", 2)[2].startswith("@")]


def hand_message(api: FakeBotApi, user_id: int, table_id: int) -> StoredMessage | None:
    """The player's private hand message of the table: the one with move buttons, if any."""
    for message in reversed(api.bot_messages(user_id)):
        moves = move_buttons(message)
        if moves and decode_button(moves[0]).table_id == table_id:
            return message
    return None


async def play_turn(tavolo: Tavolo, player: JSON, table_id: int, rng: random.Random) -> bool:
    """If it is ``player``'s turn, press one of their move buttons (a capture choice as a second
    step). Returns whether they played."""
    api = tavolo.api
    message = hand_message(api, player["id"], table_id)
    if message is None:
        return False
    choice = rng.choice(move_buttons(message))
    answer = await tavolo.press(message, player, choice)
    if choice.split(":", 2)[2].startswith("?"):
        assert answer["text"] is None, answer
        # The second step edits the same private message with that card's captures.
        edited = api.message(player["id"], message.message_id)
        options = move_buttons(edited)
        assert options and all(":?" not in o for o in options), options
        answer = await tavolo.press(edited, player, rng.choice(options))
    assert answer["text"] is None, f"move refused: {answer}"
    return True


async def play_until_over(
    tavolo: Tavolo, players: list[JSON], table_id: int, *, seed: int = 1
) -> int:
    """Humans play (random legal buttons) until the table is over; returns the presses made."""
    rng = random.Random(seed)
    assert tavolo.service is not None
    for presses in range(MAX_PRESSES):
        if await table_status(tavolo, table_id) != "playing":
            return presses
        if not any([await play_turn(tavolo, p, table_id, rng) for p in players]):
            raise AssertionError(f"nobody can move at table {table_id}")
    raise AssertionError("the game did not end")


async def table_status(tavolo: Tavolo, table_id: int) -> str:
    assert tavolo.service is not None
    return str((await tavolo.service.export_game(table_id))["status"])


async def hidden_cards_by_version(tavolo: Tavolo, table_id: int) -> dict[int, set[str]]:
    """Replays the game with the engine: for every table version, the cards in players' hands
    (as the renderer writes them). A group message drawn at version v must show none of them."""
    assert tavolo.service is not None
    export = await tavolo.service.export_game(table_id)
    kind = default_registry().get(export["game"])
    assert kind is not None
    options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
    rules = kind.rules(export["players"], options)
    game = kind.new_game(rules, export["seed"])
    hidden: dict[int, set[str]] = {}
    moves = export["moves"]
    first = moves[0]["version"] if moves else 0
    for version in range(first):
        hidden[version] = _hands(game)
    for index, move in enumerate(moves):
        hidden[move["version"]] = _hands(game)
        game = game.play(move["move"])
        following = moves[index + 1]["version"] if index + 1 < len(moves) else move["version"] + 3
        for version in range(move["version"] + 1, following):
            hidden[version] = _hands(game)
    return hidden


def _hands(game: Any) -> set[str]:
    """Cards in hands, less those the public view shows too: Scala 40 has two of each card, so
    the twin of a card in a hand may be on the table or named by the last move."""
    cards: set[str] = set()
    for seat in range(game.players):
        cards.update(card_text(c) for c in game.view(seat).hand)
    public = game.view(None)
    shown = {card_text(c) for c in _cards_in(public)}
    last = getattr(public, "last_move", None)
    if last is not None:
        named = move_text(last[1]) + scala40_move_text(last[1], gettext.NullTranslations())
        shown |= {c for c in cards if c in named}
    return cards - shown


def _cards_in(value: Any) -> Iterator[Card]:
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name))


def assert_no_hidden_card_in_group(
    api: FakeBotApi, group_id: int, table_id: int, hidden: dict[int, set[str]]
) -> int:
    """Every text the bot put in the group: a table message (its buttons carry the version)
    shows no card still in a hand at that version; any other message shows no card at all.
    Returns how many table messages were checked."""
    every_card = set().union(*hidden.values()) if hidden else set()
    checked = 0
    for request in api.requests:
        if not request.ok or request.params.get("chat_id") != group_id:
            continue
        text = "\n".join(request_texts(request))
        if not text:
            continue
        markup = request.params.get("reply_markup") or {}
        versions = {
            decode_button(b["callback_data"]).version
            for row in markup.get("inline_keyboard", [])
            for b in row
            if "callback_data" in b and decode_button(b["callback_data"]).table_id == table_id
        }
        if versions and max(versions) in hidden:
            leaked = {c for c in hidden[max(versions)] if c in text}
            checked += 1
        else:
            leaked = {c for c in every_card if c in text}
        assert not leaked, f"hand cards {leaked} shown in the group: {text!r}"
    return checked
