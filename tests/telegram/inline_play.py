"""Players who never leave the group: inline queries and chosen results against the fake Bot API,
and the check that an inline answer shows nobody else's cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.render import card_text
from bot.service import decode_button, default_registry
from tests.fakes.telegram_api import JSON, FakeBotApi, StoredMessage
from tests.telegram.harness import Tavolo

LOOK = "~w"


@dataclass
class Mode:
    """How the client reports a choice: inline feedback, the posted message, which first."""

    feedback: bool = True
    post: bool = True
    message_first: bool = True


# (tavolo, table id) -> (moves replayed, the game after them): each check replays only the
# moves made since the last one.
_REPLAYED: dict[tuple[int, int], tuple[int, Any]] = {}


async def game_now(tavolo: Tavolo, table_id: int) -> tuple[Any, JSON]:
    """The table's engine state now (replayed from its log) and its export document."""
    assert tavolo.service is not None
    export = await tavolo.service.export_game(table_id)
    key = (id(tavolo), table_id)
    done, game = _REPLAYED.get(key, (0, None))
    if game is None or done > len(export["moves"]):
        kind = default_registry().get(export["game"])
        assert kind is not None
        options = {k: v for k, v in export["options"].items() if k not in kind.fixed}
        done, game = 0, kind.new_game(kind.rules(export["players"], options), export["seed"])
    for entry in export["moves"][done:]:
        game = game.play(entry["move"])
    _REPLAYED[key] = (len(export["moves"]), game)
    return game, export


def others_cards(game: Any, seat: int) -> set[str]:
    """Cards in other players' hands that the asker cannot see (not in their own hand, not on
    the table: Scala 40 has two of each card)."""
    mine = {card_text(c) for c in game.view(seat).hand}
    public = _public_cards(game.view(None))
    out: set[str] = set()
    for other in range(game.players):
        if other != seat:
            out.update(card_text(c) for c in game.view(other).hand)
    return out - mine - public


def _public_cards(view: Any) -> set[str]:
    from engine.cards import Card

    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Card):
            found.add(card_text(value))
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)
        elif hasattr(value, "__dataclass_fields__") and not isinstance(value, type):
            for name in value.__dataclass_fields__:
                walk(getattr(value, name))

    walk(view)
    return found


def result_texts(result: JSON) -> str:
    content = result.get("input_message_content") or {}
    return " ".join(
        str(x)
        for x in (result.get("title"), result.get("description"), content.get("message_text"))
    )


async def ask(tavolo: Tavolo, player: JSON, query: str) -> tuple[str, list[JSON], JSON]:
    """``player`` opens the inline panel with ``query``; every page of the answer."""
    api = tavolo.api
    query_id = api.inline_query(player, query)
    answer = await api.wait_inline_answer(query_id)
    assert answer.get("is_personal") is True and answer.get("cache_time") == 0, answer
    results = api.inline_results(query_id)
    offset = answer.get("next_offset") or ""
    for _ in range(20):  # pages of 50: far more than any hand's moves
        if not offset:
            break
        more_id = api.inline_query(player, query, offset=str(offset))
        more = await api.wait_inline_answer(more_id)
        results.extend(api.inline_results(more_id))
        offset = more.get("next_offset") or ""
    return query_id, results, answer


async def check_private(tavolo: Tavolo, player: JSON, table_id: int, results: list[JSON]) -> JSON:
    """No result names a card another player holds and the asker cannot see; returns the
    table's export document it checked against."""
    game, export = await game_now(tavolo, table_id)
    seat = next(
        i for i, s in enumerate(export["seats"]) if s and s.get("user_id") == str(player["id"])
    )
    hidden = others_cards(game, seat)
    for result in results:
        text = result_texts(result)
        leaked = {c for c in hidden if c in text}
        assert not leaked, f"{player['first_name']} sees {leaked}: {text!r}"
    return export


async def inline_turn(
    tavolo: Tavolo,
    player: JSON,
    table_id: int,
    chat: JSON,
    pick: Callable[[list[JSON]], JSON],
    *,
    mode: Mode,
) -> bool:
    """If it is ``player``'s turn, they open the panel from the table's "My cards" button,
    choose a move with ``pick`` and wait until the move is made; returns whether they moved."""
    api = tavolo.api
    query_id, results, _ = await ask(tavolo, player, str(table_id))
    export = await check_private(tavolo, player, table_id, results)
    moves = [r for r in results if not decode_button(r["id"]).action.startswith(LOOK)]
    if not moves:
        return False
    chosen = pick(moves)
    before = int(export["version"])
    posted = api.choose_inline_result(
        player,
        query_id,
        chosen["id"],
        chat=chat,
        feedback=mode.feedback,
        post=mode.post,
        message_first=mode.message_first,
    )
    if posted is not None and posted.chat["id"] in api.bot_admin_chats:
        # The bot deletes the posted move last, once the table message shows it.
        await api.wait_for(lambda: _moved(api, posted), what="the posted move cleared")
        assert await version_of(tavolo, table_id) != before, f"{chosen['id']} made no move"
        return True
    for _ in range(400):  # bounded: a move and its delivery take a few round trips
        await api.wait_idle(quiet=0.05)
        if await version_of(tavolo, table_id) != before:
            return True
    raise AssertionError(f"{chosen['id']} made no move")


def _moved(api: FakeBotApi, posted: StoredMessage | None) -> bool:
    if posted is None or posted.chat["id"] not in api.bot_admin_chats:
        return True
    return (posted.chat["id"], posted.message_id) not in api.messages


async def version_of(tavolo: Tavolo, table_id: int) -> int:
    assert tavolo.service is not None
    return int((await tavolo.service.export_game(table_id))["version"])


def random_pick(rng: random.Random) -> Callable[[list[JSON]], JSON]:
    return lambda moves: rng.choice(moves)
