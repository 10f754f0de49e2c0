"""Rendering: cards with suit symbols, both languages complete, buttons within the platforms'
limits, and no private card in any public message."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.domain.events import REFUSALS
from bot.render import Renderer, card_text, move_text
from bot.render.i18n import LOCALE_DIR, Catalogs
from bot.service import (
    Audience,
    HandView,
    LobbyView,
    Refusal,
    SeatInfo,
    TableInfo,
    TableView,
    decode_button,
)
from engine import scopa


@pytest.mark.parametrize(
    ("card", "text"),
    [("7D", "7♦"), ("KC", "K♥"), ("AS", "A♠"), ("JB", "J♣"), ("TD", "10♦"), ("*", "🃏")],
)
def test_card_text(card: str, text: str) -> None:
    # docs/rules.md "Card notation": D denari = quadri ♦, C coppe = cuori ♥, S spade = picche ♠,
    # B bastoni = fiori ♣.
    assert card_text(card) == text


@pytest.mark.parametrize(
    ("move", "text"),
    [("7D", "7♦"), ("7D:3C+4S", "7♦ ➜ 3♥ 4♠"), ("7D:7C!", "7♦ ➜ 7♥ !")],
)
def test_move_text(move: str, text: str) -> None:
    assert move_text(move) == text


def test_catalogs_complete_and_consistent() -> None:
    with (LOCALE_DIR / "tavolo.pot").open("rb") as fh:
        template = {m.id for m in read_po(fh) if m.id}
    for lang in ("it", "en"):
        po = Path(LOCALE_DIR / lang / "LC_MESSAGES" / "tavolo.po")
        with po.open("rb") as fh:
            catalog = read_po(fh)
        ids = {m.id for m in catalog if m.id}
        assert ids == template, lang
        untranslated = [m.id for m in catalog if m.id and not m.string]
        assert untranslated == [], lang
        for m in catalog:
            if m.id and isinstance(m.id, str):
                # Every placeholder survives translation.
                assert sorted(_fields(m.id)) == sorted(_fields(m.string)), m.id
            elif m.id:
                # A plural message: every form of the translation keeps the placeholders.
                assert isinstance(m.string, tuple) and all(m.string), m.id
                for form in m.string:
                    assert sorted(_fields(m.id[1])) == sorted(_fields(form)), m.id
    it = Catalogs().get("it")
    assert it.gettext("Join") == "Siediti"
    assert Catalogs().get("en").gettext("Join") == "Join"
    assert Catalogs().get("xx").gettext("Join") == "Siediti"  # unknown -> default (it)


def _fields(text: str) -> list[str]:
    import string

    return [f for _, f, _, _ in string.Formatter().parse(text) if f]


def table_info(status: str = "playing", players: int = 2, version: int = 12345) -> TableInfo:
    seats = tuple(
        SeatInfo(i, f"P{i}", "telegram", str(i), False, None, False) for i in range(players)
    )
    return TableInfo(
        id=987654,
        platform="telegram",
        chat_id="-1001234567890",
        game="scopa",
        family="scopa",
        status=status,
        version=version,
        players=players,
        options={"target": 11},
        seats=seats,
        creator="0",
        current_seat=0,
        teams=players == 4,
    )


@pytest.mark.parametrize("locale", ["it", "en"])
@pytest.mark.parametrize("variant", ["scopa", "scientifico"])
def test_views_fit_and_public_has_no_hand(locale: str, variant: str) -> None:
    renderer = Renderer()
    players = 2 if variant == "scopa" else 4
    game = scopa.new_game(scopa.Rules(variant=variant, players=players), seed=11)
    info = table_info(players=players)
    chat = Audience("chat", "telegram", info.chat_id)
    for _step in range(30):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        public = renderer.render(
            TableView(audience=chat, locale=locale, table=info, view=game.view(None))
        )
        assert public.text and len(public.text) <= 2000
        hand_view = game.view(seat)
        hand = renderer.render(
            HandView(
                audience=Audience("user", "telegram", str(seat)),
                locale=locale,
                table=info,
                seat=seat,
                view=hand_view,
            )
        )
        assert len(hand.text) <= 2000 and len(hand.buttons) <= 5
        assert all(len(row) <= 5 for row in hand.buttons)
        reachable: set[str] = set()
        for row in hand.buttons:
            for b in row:
                assert len(b.data.encode()) <= 64
                action = decode_button(b.data).action
                if action.startswith("?"):
                    focused = renderer.render(
                        HandView(
                            audience=Audience("user", "telegram", str(seat)),
                            locale=locale,
                            table=info,
                            seat=seat,
                            view=hand_view,
                            focus=action[1:],
                        )
                    )
                    reachable |= {decode_button(x.data).action for r in focused.buttons for x in r}
                else:
                    reachable.add(action)
        # Every legal move is reachable in at most two presses.
        assert set(hand_view.legal_moves) <= reachable
        game = game.play(hand_view.legal_moves[0])


def test_public_table_never_shows_a_hand() -> None:
    renderer = Renderer()
    game = scopa.new_game(scopa.Rules(players=2), seed=5)
    info = table_info()
    text = renderer.render(
        TableView(
            audience=Audience("chat", "telegram", "c"),
            locale="en",
            table=info,
            view=game.view(None),
        )
    ).text
    hands = {str(c) for s in range(2) for c in game.view(s).hand}
    table = {str(c) for c in game.view(None).table}
    shown = {c for c in hands | table if card_text(c) in text}
    assert shown == table


def test_lobby_buttons_and_refusals() -> None:
    renderer = Renderer()
    info = table_info(status="lobby", players=4)
    info = dataclasses.replace(info, seats=(info.seats[0], None, None, None))
    lobby = renderer.render(
        LobbyView(audience=Audience("chat", "telegram", "c"), locale="it", table=info)
    )
    actions = {decode_button(b.data).action for row in lobby.buttons for b in row}
    assert {"@join", "@leave", "@start", "@fill.easy", "@ai.hard", "@seat.1"} <= actions
    assert "Siediti" in {b.label for row in lobby.buttons for b in row}
    for code in REFUSALS:
        for locale in ("it", "en"):
            text = renderer.refusal(Refusal(code, locale, "detail", {"allowed": [2, 3]}))
            assert text and len(text) <= 200
    assert renderer.refusal(Refusal("stale", "en")).startswith("This move is no longer valid")


@pytest.mark.parametrize("locale", ["it", "en"])
def test_scala40_hand_buttons_reach_every_move(locale: str) -> None:
    import random

    from engine import scala40

    renderer = Renderer()
    game = scala40.new_game(scala40.Rules(players=3), seed=2)
    info = dataclasses.replace(table_info(players=3), game="scala40", family="scala40", teams=False)
    rng = random.Random(2)
    for _step in range(120):
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        audience = Audience("user", "telegram", str(seat))
        hand = renderer.render(
            HandView(audience=audience, locale=locale, table=info, seat=seat, view=view)
        )
        assert len(hand.buttons) <= 5 and all(len(r) <= 5 for r in hand.buttons)
        assert hand.pick_cards  # the adapters add their card picker to Scala 40's hand
        reachable: set[str] = set()
        for row in hand.buttons:
            for b in row:
                assert len(b.data.encode()) <= 64
                action = decode_button(b.data).action
                if action.startswith("?"):
                    focused = renderer.render(
                        HandView(
                            audience=audience,
                            locale=locale,
                            table=info,
                            seat=seat,
                            view=view,
                            focus=action[1:],
                        )
                    )
                    reachable |= {decode_button(x.data).action for r in focused.buttons for x in r}
                else:
                    reachable.add(action)
        moves = set(view.legal_moves)
        # Up to 24 moves of one kind fit the second step (docs/rules.md: a hand holds 13-14 cards).
        assert moves <= reachable or len(moves) > 24
        public = renderer.render(
            TableView(
                audience=Audience("chat", "telegram", "c"),
                locale=locale,
                table=info,
                view=game.view(None),
            )
        )
        # The public message is built from the public view, which holds no hand at all.
        assert game.view(None).hand == ()
        assert "Your hand" not in public.text and "La tua mano" not in public.text
        game = game.play(rng.choice(view.legal_moves))


@pytest.mark.parametrize("locale", ["it", "en"])
def test_texts_around_the_game(locale: str) -> None:
    from bot.render import COMMANDS, NOTICES

    renderer = Renderer()
    commands = renderer.commands(locale)
    assert [c for c, _ in commands] == [c for c, _ in COMMANDS]
    # Telegram: descriptions 1-256 characters; Discord: 1-100.
    assert all(0 < len(d) <= 100 for _, d in commands)
    assert "/scopa" in renderer.help(locale)
    for key in NOTICES:
        assert renderer.notice(key, locale)
    assert renderer.game_label("scientifico", locale) == "Scopone scientifico"
    assert renderer.level_label("hard", locale) == ("difficile" if locale == "it" else "hard")


@pytest.mark.parametrize(
    ("locale", "said"), [("en", "You drew {card}."), ("it", "Hai pescato {card}.")]
)
def test_scala40_hand_tells_the_card_drawn_from_the_stock(locale: str, said: str) -> None:
    # The hand is shown sorted, so a player on a phone could not tell the card just drawn: their
    # own hand says it; the table message and the other players' hands never do.
    from engine import scala40

    renderer = Renderer()
    game = scala40.new_game(scala40.Rules(players=3), seed=2)
    info = dataclasses.replace(table_info(players=3), game="scala40", family="scala40", teams=False)
    seat = game.current_player
    assert seat is not None and "t" in game.view(seat).legal_moves

    def hand_text(g: scala40.Game, s: int) -> str:
        audience = Audience("user", "telegram", str(s))
        return renderer.render(
            HandView(audience=audience, locale=locale, table=info, seat=s, view=g.view(s))
        ).text

    prefix = said.split("{")[0]
    assert prefix not in hand_text(game, seat)
    drew = game.play("t")
    assert drew.drawn is not None
    line = said.format(card=card_text(drew.drawn))
    assert line in hand_text(drew, seat).splitlines()
    for other in range(3):
        if other != seat:
            assert prefix not in hand_text(drew, other)
    table = renderer.render(
        TableView(
            audience=Audience("chat", "telegram", "c"),
            locale=locale,
            table=info,
            view=drew.view(None),
        )
    ).text
    assert prefix not in table
    # The line above the player's own list of moves (Telegram's personal inline results) too.
    from bot.render.scala40 import moves_line

    t = renderer.translations(locale)
    assert moves_line(drew.view(seat), t).endswith(" · " + line)
    assert prefix not in moves_line(drew.view((seat + 1) % 3), t)
    # The turn passes with the discard: the line goes with it.
    discard = next(m for m in drew.view(seat).legal_moves if m.startswith("d "))
    after = drew.play(discard)
    assert all(prefix not in hand_text(after, s) for s in range(3))
