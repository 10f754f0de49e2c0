"""Briscola and Briscola chiamata rendered: the table and the hand in words (both languages) and as
pictures, over seeded playouts of every variant.

Invariants: the public text and picture scene hold no card of any hand (except the cards the
public view itself shows: the face-up briscola, the called card); card points never show during
a deal; every hand button is a legal move, and in the auction every legal bid up to a point is
offered; every picture draws; the move labels read as words.
"""

from __future__ import annotations

import dataclasses
import gettext
import random

import pytest

from bot.render import Renderer, card_text
from bot.render.briscola import briscola_move_text, offered_moves
from bot.render.images import BriscolaScene, ImageRenderer
from bot.render.pictures import table_scene
from bot.service import Audience, HandView, LobbyView, SeatInfo, TableInfo, TableView

briscola = pytest.importorskip("engine.briscola", reason="the Briscola engine has not landed yet")

CHAT = Audience("chat", "telegram", "-100777")


def info(game: str, players: int, version: int = 1, status: str = "playing") -> TableInfo:
    seats = tuple(
        SeatInfo(i, f"P{i}", "telegram", str(100 + i), False, None, False) for i in range(players)
    )
    return TableInfo(
        id=42,
        platform="telegram",
        chat_id="-100777",
        game=game,
        family=game,
        status=status,
        version=version,
        players=players,
        options={},
        seats=seats,
        creator="100",
        teams=players == 4,
    )


@pytest.fixture(scope="module")
def images() -> ImageRenderer:
    return ImageRenderer(table_card_width=40, hand_card_width=40, hand_max_width=400)


CASES = [
    ("briscola", {"players": 2}, 1),
    ("briscola", {"players": 3}, 2),
    ("briscola", {"players": 4, "swap": "seven"}, 3),
    ("briscola", {"players": 2, "deal_scoring": "points", "target": 121}, 4),
    ("chiamata", {"variant": "chiamata", "deals": 2}, 5),
]


@pytest.mark.parametrize(("game", "options", "seed"), CASES)
def test_playout_text_and_pictures(
    images: ImageRenderer, game: str, options: dict[str, object], seed: int
) -> None:
    renderer = Renderer()
    rules = briscola.Rules.from_dict(options)
    state = briscola.new_game(rules, seed=seed)
    rng = random.Random(seed)
    pictures = 0
    for version in range(400):  # bounded: a chiamata match of 2 deals takes ~100 moves
        if state.is_over:
            break
        table = info(game, rules.players, version)
        public = state.view(None)
        hands = {card_text(c) for s in range(rules.players) for c in state.hand(s)}
        shown = {card_text(c) for c in (public.briscola, public.called) if c is not None}
        for locale in ("it", "en"):
            text = renderer.render(
                TableView(audience=CHAT, locale=locale, table=table, view=public)
            )
            leaked = {c for c in hands - shown if c in text.text}
            assert not leaked, (leaked, text.text)
            assert "card points" not in text.text and "punti carta" not in text.text
        scene = table_scene(
            renderer, TableView(audience=CHAT, locale="it", table=table, view=public)
        )
        assert isinstance(scene, BriscolaScene)
        assert {card_text(c) for c in scene.cards()} & (hands - shown) == set()
        assert len(scene.seats) == rules.players
        if version % 7 == 0:
            image = images.table(scene, style="napoletane" if version % 2 else "piacentine")
            assert image.data and image.width > 0
            pictures += 1
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        hand = renderer.render(
            HandView(
                audience=Audience("user", "telegram", str(100 + seat)),
                locale="it" if version % 2 else "en",
                table=table,
                seat=seat,
                view=view,
            )
        )
        # Moves only: "@..." actions are the service's (the hand's "Leave the game…").
        actions = [b.data.split(":", 2)[2] for row in hand.buttons for b in row]
        offered = [a for a in actions if not a.startswith("@")]
        assert offered and set(offered) <= set(view.legal_moves)
        ranks_and_calls = [m for m in view.legal_moves if not (m.isdigit() and len(m) > 1)]
        assert set(ranks_and_calls) <= set(offered)  # only point bids are ever thinned
        state = state.play(rng.choice(offered))
    assert state.is_over
    assert pictures > 0
    final = renderer.render(
        TableView(
            audience=CHAT,
            locale="en",
            table=info(game, rules.players, status="finished"),
            view=state.view(None),
        )
    )
    assert "Game over." in final.text


def test_point_bids_are_thinned_to_the_lowest_and_round_figures() -> None:
    moves = ["pass", *(str(p) for p in range(64, 121))]
    offered = offered_moves(moves)
    assert offered[-1] == "pass" and len(offered) <= 25
    assert offered[:10] == [str(p) for p in range(64, 74)]
    assert "75" in offered and "120" in offered and "76" not in offered


def test_move_labels() -> None:
    t = gettext.NullTranslations()
    assert briscola_move_text("AS", t) == "A♠"
    assert briscola_move_text("call 3D", t) == "Call 3♦"
    assert briscola_move_text("pass", t) == "Pass"
    assert briscola_move_text("3", t) == "Three"
    assert briscola_move_text("71", t) == "71 points"
    assert briscola_move_text("swap", t) == "Swap with the briscola"


@pytest.mark.parametrize("locale", ["it", "en"])
def test_lobby_names_only_the_options_that_matter_in_the_right_unit(locale: str) -> None:
    """A 2-player Briscola lobby does not list the 2 taken out at 3 players, and a match won
    deal by deal counts games, not points."""
    renderer = Renderer()
    t = renderer.translations(locale)
    options = briscola.Rules.from_dict({"players": 2}).to_dict()
    for players, listed in ((2, False), (3, True), (4, False)):
        table = dataclasses.replace(
            info("briscola", players, status="lobby"), options=options, seats=(None,) * players
        )
        text = renderer.render(LobbyView(audience=CHAT, locale=locale, table=table)).text
        assert (t.gettext("The 2 taken out at 3 players") in text) is listed, text
        assert t.gettext("Games to win") + ": 1" in text, text
        assert t.gettext("Points to win") not in text, text
    points = {**options, "deal_scoring": "points", "target": 121}
    table = dataclasses.replace(info("briscola", 2, status="lobby"), options=points)
    text = renderer.render(LobbyView(audience=CHAT, locale=locale, table=table)).text
    assert t.gettext("Points to win") + ": 121" in text, text


@pytest.mark.parametrize("locale", ["it", "en"])
def test_chiamata_scores_read_as_the_match_score_not_card_points(locale: str) -> None:
    renderer = Renderer()
    rules = briscola.Rules.from_dict({"variant": "chiamata"})
    state = briscola.new_game(rules, seed=3)
    text = renderer.render(
        TableView(audience=CHAT, locale=locale, table=info("chiamata", 5), view=state.view(None))
    ).text
    t = renderer.translations(locale)
    line = t.gettext("{side}: {tricks} this deal · match score {score}").format(
        side="P0", tricks=t.ngettext("{n} trick", "{n} tricks", 0).format(n=0), score=0
    )
    assert line in text, text
    assert t.ngettext("{n} point", "{n} points", 0).format(n=0) not in text, text
