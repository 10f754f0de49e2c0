"""Numbers meet nouns with the language's plural forms ("1 carta", "1 card", never "1 carte" or
"1 cards"); /rules, the lobby and the leaving/kicking texts speak in words, not option keys."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.render import Renderer
from bot.service import (
    Announcement,
    Audience,
    BoardRow,
    GameOver,
    HandView,
    Leaderboard,
    LobbyView,
    SeatInfo,
    Stats,
    TableInfo,
    TableView,
    decode_button,
)
from engine import scopa

CHAT = Audience("chat", "telegram", "-100")
ME = Audience("user", "telegram", "1")
# A number 1 followed by a plural noun, in either language.
WRONG = re.compile(
    r"\b1 (carte|cards|games|wins|partite|vinte|points|punti|players|giocatori|minutes|minuti)\b"
)


def info(status: str = "playing", players: int = 2, options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    seats = tuple(
        SeatInfo(i, f"P{i}", "telegram", str(i + 1), False, None, False) for i in range(players)
    )
    return TableInfo(
        id=42,
        platform="telegram",
        chat_id="-100",
        game="scopa",
        family="scopa",
        status=status,
        version=3,
        players=players,
        options=options if options is not None else {"target": 11, "asso_piglia_tutto": False},
        seats=seats,
        creator="1",
        current_seat=0,
    )


def row(games: int, wins: int) -> BoardRow:
    return BoardRow(
        rank=1,
        name="Ada",
        platform="telegram",
        user_id="1",
        rating=1.5,
        games=games,
        wins=wins,
        win_points=wins,
    )


@pytest.mark.parametrize("locale", ["it", "en"])
def test_one_is_singular_everywhere(locale: str) -> None:
    renderer = Renderer()
    game = scopa.new_game(scopa.Rules(players=2), seed=3)
    public = dataclasses.replace(
        game.view(None), deck_count=1, points=(1, 0), scope=(1, 0), captured_counts=(1, 0)
    )
    texts = [
        renderer.render(TableView(audience=CHAT, locale=locale, table=info(), view=public)).text,
        renderer.render(
            Leaderboard(
                audience=CHAT, locale=locale, family="scopa", scope="chat", rows=(row(1, 1),)
            )
        ).text,
        renderer.render(
            Stats(audience=ME, locale=locale, name="Ada", rows=(("scopa", "global", row(1, 1)),))
        ).text,
        renderer.render(
            GameOver(
                audience=CHAT,
                locale=locale,
                table=info(),
                ranks=(0, 1),
                points=(1, 0),
                winner=0,
                multiplier=1,
                ratings=(),
            )
        ).text,
        renderer.render(
            Announcement(
                audience=CHAT,
                locale=locale,
                table=info("abandoned"),
                kind="abandoned",
                data={"by": "", "reason": "expired", "minutes": 1},
            )
        ).text,
        renderer.render(
            LobbyView(audience=CHAT, locale=locale, table=info("lobby", players=1))
        ).text,
    ]
    for text in texts:
        assert not WRONG.search(text), text
    joined = "\n".join(texts)
    if locale == "it":
        assert "Mazzo: 1 carta" in joined and "1 partita, 1 vinta" in joined
        assert "1 punto" in joined and "1 minuto" in joined and "1 giocatore" in joined
    else:
        assert "Deck: 1 card" in joined and "1 game, 1 win" in joined
        assert "1 point" in joined and "1 minute" in joined and "1 player" in joined
    many = renderer.render(
        Leaderboard(audience=CHAT, locale=locale, family="scopa", scope="chat", rows=(row(3, 2),))
    ).text
    assert ("3 partite, 2 vinte" if locale == "it" else "3 games, 2 wins") in many


def test_rules_and_lobby_in_words_with_sources() -> None:
    renderer = Renderer()
    event = Announcement(
        audience=ME,
        locale="it",
        table=info(options={"target": 16, "asso_piglia_tutto": False, "napola": True}),
        kind="rules",
        data={
            "options": {"target": 16, "asso_piglia_tutto": False, "napola": True},
            "sources": {"target": "chat", "rejoin": "command"},
            "table": {"rejoin": True},
        },
    )
    text = renderer.render(event).text
    assert "Asso piglia tutto: no" in text and "Napola: sì" in text
    assert "asso_piglia_tutto" not in text and "=" not in text
    assert "Chi lascia la partita può riprendere il posto: sì" in text
    lobby = renderer.render(LobbyView(audience=CHAT, locale="en", table=info("lobby"))).text
    assert "Asso piglia tutto: no" in lobby and "asso_piglia_tutto" not in lobby


def test_leaving_kicking_and_the_quit_question() -> None:
    renderer = Renderer()
    table = info()
    left = renderer.render(
        Announcement(
            audience=CHAT,
            locale="en",
            table=table,
            kind="left",
            data={"seat": 1, "name": "P1", "by": "", "level": "medium", "back": False},
        )
    )
    assert "P1 left the game" in left.text and not left.buttons
    kicked = renderer.render(
        Announcement(
            audience=CHAT,
            locale="it",
            table=table,
            kind="left",
            data={"seat": 1, "name": "P1", "by": "P0", "level": "easy", "back": True},
        )
    )
    assert "P0 ha allontanato P1" in kicked.text
    assert [decode_button(b.data).action for r in kicked.buttons for b in r] == ["@back"]
    listed = renderer.render(
        Announcement(
            audience=ME, locale="en", table=table, kind="kick_list", data={"seats": [0, 1]}
        )
    )
    assert [decode_button(b.data).action for r in listed.buttons for b in r] == [
        "@kick.0",
        "@kick.1",
    ]
    game = scopa.new_game(scopa.Rules(players=2), seed=3)
    seat = game.current_player
    assert seat is not None
    hand = renderer.render(
        HandView(audience=ME, locale="en", table=table, seat=seat, view=game.view(seat))
    )
    actions = [decode_button(b.data).action for r in hand.buttons for b in r]
    assert actions[-1] == "@quit"
    question = renderer.render(
        HandView(
            audience=ME, locale="en", table=table, seat=seat, view=game.view(seat), focus="@quit"
        )
    )
    assert "Leave the game?" in question.text
    assert [decode_button(b.data).action for r in question.buttons for b in r] == [
        "@leave",
        "@hand",
    ]
