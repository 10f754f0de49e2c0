"""One renderer call writes a move of any family, the way that family's buttons write it; the
renderer says which families' hands are played by picking cards."""

from __future__ import annotations

from bot.render import Renderer, move_text, scala40_move_text
from bot.render.briscola import briscola_move_text


def test_move_label_dispatches_by_family() -> None:
    renderer = Renderer()
    it, en = renderer.translations("it"), renderer.translations("en")
    assert renderer.move_label("scopa", "7D:3C+4S", "en") == move_text("7D:3C+4S") == "7♦ ➜ 3♥ 4♠"
    assert renderer.move_label("scala40", "o 7D8D9D KCKSKD", "it") == scala40_move_text(
        "o 7D8D9D KCKSKD", it
    )
    for family in ("briscola", "chiamata"):
        assert renderer.move_label(family, "swap", "en") == briscola_move_text("swap", en)
        assert renderer.move_label(family, "AS", "it") == briscola_move_text("AS", it)
    # A family without a layout of its own reads its moves as cards.
    assert renderer.move_label("toy", "7D", "en") == move_text("7D")
    labels = renderer.move_labels("scala40", "it")
    assert labels("a3 TD") == scala40_move_text("a3 TD", it)


def test_the_renderer_says_which_hands_pick_cards() -> None:
    renderer = Renderer()
    assert renderer.picks_cards("scala40")
    assert not any(renderer.picks_cards(f) for f in ("scopa", "briscola", "chiamata", "toy"))


def test_a_list_of_moves_in_the_familys_words() -> None:
    """What a list of a hand's moves needs (Telegram's inline answers): the line above it and
    the card each move plays."""
    from types import SimpleNamespace

    from bot.render import family_renderer

    it = Renderer().translations("it")
    scopa, briscola, scala40 = (family_renderer(f) for f in ("scopa", "briscola", "scala40"))
    assert scopa.moves_line(SimpleNamespace(table=("7D", "3C")), it) == "In tavola: 7♦ 3♥"
    assert scopa.played_card("7D:3C+4S!") == "7D"
    trick = SimpleNamespace(trick=((0, "AS"),))
    assert briscola.moves_line(trick, it) == "In tavola: A♠"
    assert briscola.played_card("AS") == "AS" and briscola.played_card("swap") is None
    assert scala40.moves_line(SimpleNamespace(pile_top=None), it) == "Pozzo: —"
    assert scala40.played_card("d AD") is None
