"""Refused moves and options reach the player in their language: the service passes the engine's
template and params, the renderer translates them (Anna plays in Italian, Bruno in English)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.render import Renderer, card_text
from bot.service import ChatRef, ComputerPlayers, HandView, TableService, UserRef, default_registry
from engine.cards import italian_deck

CHAT = ChatRef("discord", "chan-1")
ANNA = UserRef("discord", "a", "Anna", "it")
BRUNO = UserRef("discord", "b", "Bruno", "en")
USERS = {0: ANNA, 1: BRUNO}


@pytest.fixture
async def real(make_service: Callable[..., Any]) -> AsyncIterator[TableService]:
    service: TableService = await make_service(
        registry=default_registry(), computers=ComputerPlayers()
    )
    yield service
    for store in make_service.stores:  # type: ignore[attr-defined]
        await store.close()


async def _started(service: TableService, game: str, **options: Any) -> tuple[int, Any]:
    created = await service.create_table(CHAT, ANNA, game, players=2, options=options)
    assert created.ok and created.table is not None, created.refusal
    assert (await service.join(CHAT, BRUNO)).ok
    started = await service.start(CHAT, ANNA)
    assert started.ok and started.table is not None, started.refusal
    return created.table.id, started.table


async def _refused(
    service: TableService, table_id: int, info: Any, move: str, *, seat: int | None = None
) -> str:
    user = USERS[info.current_seat if seat is None else seat]
    result = await service.play(CHAT, user, table_id, version=info.version, move=move)
    assert result.refusal is not None and result.refusal.code == "illegal_move", result.refusal
    assert result.refusal.locale == user.locale
    return Renderer().refusal(result.refusal)


async def _hand(service: TableService, user: UserRef, table_id: int) -> Any:
    shown = await service.show(CHAT, user, table_id)
    return next(e for e in shown.events if isinstance(e, HandView)).view


# docs/rules.md, Scopa: "the card played captures ... or stays on the table"; fuori only in Scopone
# games to 8 (FIGS art. 16).
SCOPA_CASES = [
    ("not_in_hand", "it", "Mossa non consentita. non hai {card} in mano"),
    ("not_in_hand", "en", "That move is not allowed. {card} is not in your hand"),
    ("fuori", "it", "Mossa non consentita. a questo tavolo non si gioca col fuori"),
    ("fuori", "en", "That move is not allowed. fuori is not played at this table"),
    ("unreadable", "it", "Mossa non consentita. non è una mossa: '9X' ('9X' non è una carta)"),
    # The player's own move, its cards as the views write them (never the engine's 7D).
    ("empty_capture", "it", "Mossa non consentita. non è una mossa: '7♦:' (niente dopo i ':')"),
]


@pytest.mark.parametrize(("case", "locale", "expected"), SCOPA_CASES)
async def test_scopa_refusals_read_in_the_players_language(
    real: TableService, case: str, locale: str, expected: str
) -> None:
    table_id, info = await _started(real, "scopa")
    seat = info.current_seat
    user = USERS[seat]
    if user.locale != locale:
        # The other player moves first so that the player of this case is to move.
        other = await _hand(real, user, table_id)
        moved = await real.play(
            CHAT, user, table_id, version=info.version, move=other.legal_moves[0]
        )
        assert moved.ok and moved.table is not None
        info = moved.table
    user = USERS[info.current_seat]
    assert user.locale == locale
    hand = await _hand(real, user, table_id)
    missing = next(c for c in italian_deck() if c not in hand.hand)
    move = {
        "not_in_hand": str(missing),
        "fuori": hand.legal_moves[0] + "!",
        "unreadable": "9X",
        "empty_capture": "7D:",
    }[case]
    text = await _refused(real, table_id, info, move)
    assert text == expected.format(card=card_text(missing))


async def test_scopa_must_capture_names_the_choices(real: TableService) -> None:
    """docs/rules.md: a card that can capture must capture (the player chooses which)."""
    table_id, info = await _started(real, "scopa")
    for _turn in range(40):
        user = USERS[info.current_seat]
        hand = await _hand(real, user, table_id)
        captures = [m for m in hand.legal_moves if ":" in m]
        if captures:
            card = captures[0].split(":")[0]
            text = await _refused(real, table_id, info, card)
            start = {
                "it": f"Mossa non consentita. {card_text(card)} deve fare presa: prendi ",
                "en": f"That move is not allowed. {card_text(card)} must capture: take ",
            }[user.locale or "it"]
            assert text.startswith(start), text
            assert card_text(captures[0].split(":")[1].split("+")[0]) in text
            return
        moved = await real.play(
            CHAT, user, table_id, version=info.version, move=hand.legal_moves[0]
        )
        assert moved.ok and moved.table is not None
        info = moved.table
    pytest.fail("no capture came up in 40 turns")


# docs/rules.md, Scala 40: draw first; open with 40 points; tris = one rank in different suits.
SCALA40_CASES = [
    (
        [],
        "d QS",
        "it",
        "Mossa non consentita. prima pesca: t (dal tallone) o p (la carta in cima al pozzo)",
    ),
    (
        [],
        "d QS",
        "en",
        "That move is not allowed. draw first: t (from the tallone) or p (the pozzo's top card)",
    ),
    (["t"], "t", "it", "Mossa non consentita. hai già pescato in questo turno"),
    (
        ["t"],
        "a1 5D",
        "it",
        "Mossa non consentita. prima devi aprire (o): solo dopo l'apertura puoi attaccare o "
        "scambiare il jolly (per aprire servono 40 punti)",
    ),
    (
        ["t"],
        "o 2D3D",
        "it",
        "Mossa non consentita. 2♦ 3♦ non è una combinazione valida: servono almeno 3 carte",
    ),
    (
        ["t"],
        "o 7D7D'7C",
        "it",
        "Mossa non consentita. 7♦ 7♦ 7♥ non è una combinazione valida: un tris vuole semi "
        "diversi (7♦ due volte)",
    ),
    (
        ["t"],
        "o 7D7D'7C",
        "en",
        "That move is not allowed. 7♦ 7♦ 7♥ is not a meld: a tris needs different suits (7♦ twice)",
    ),
    (
        ["t"],
        "m 5D6D7D",
        "it",
        "Mossa non consentita. prima devi aprire (o): le prime combinazioni calate devono "
        "fare 40 punti",
    ),
]


@pytest.mark.parametrize(("before", "move", "locale", "expected"), SCALA40_CASES)
async def test_scala40_refusals_read_in_the_players_language(
    real: TableService, before: list[str], move: str, locale: str, expected: str
) -> None:
    table_id, info = await _started(real, "scala40")
    if USERS[info.current_seat].locale != locale:
        user = USERS[info.current_seat]
        for step in ("t", None):
            hand = await _hand(real, user, table_id)
            chosen = step or next(m for m in hand.legal_moves if m.startswith("d "))
            moved = await real.play(CHAT, user, table_id, version=info.version, move=chosen)
            assert moved.ok and moved.table is not None, moved.refusal
            info = moved.table
    user = USERS[info.current_seat]
    assert user.locale == locale
    for step in before:
        moved = await real.play(CHAT, user, table_id, version=info.version, move=step)
        assert moved.ok and moved.table is not None, moved.refusal
        info = moved.table
    assert await _refused(real, table_id, info, move) == expected


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            {"target": 0},
            "Opzione di regola non valida. target (i punti per vincere) dev'essere un numero "
            "intero da 1 a 51 (di solito 11; nello Scopone anche 8, 16, 21); ricevuto 0",
        ),
        (
            {"win_by_two": "yes"},
            "Opzione di regola non valida. win_by_two dev'essere vero o falso (true/false); "
            "ricevuto 'yes'",
        ),
        (
            {"sette_e_mezzo": True},
            "Opzione di regola non valida. opzione sconosciuta sette_e_mezzo; le opzioni sono: ",
        ),
        (
            {"variant": "scopone"},
            "Opzione di regola non valida. l'opzione variant è fissata dal gioco scopa",
        ),
    ],
)
async def test_bad_options_read_in_italian(
    real: TableService, options: dict[str, Any], expected: str
) -> None:
    result = await real.create_table(CHAT, ANNA, "scopa", players=2, options=options)
    assert result.refusal is not None and result.refusal.code == "bad_option"
    text = Renderer().refusal(result.refusal)
    assert text.startswith(expected), text
    assert len(text) <= 200
