"""The words of issue 41: negative counts take the singular of their size, Italian's article
before a number ("agli 11", "ai 21"), Scala 40's last move told as a sentence, the rating not
called a score, the auction's ranks as the hand shows them, no doubled brackets, and Scopa's
summary saying where the last cards went."""

from __future__ import annotations

import dataclasses
import re

import pytest

from bot.render import Renderer
from bot.render.briscola import rank_name
from bot.render.scala40 import scala40_move_sentence
from bot.render.texts import said_with_a_vowel
from bot.service import GameOver, SmazzataSummary, TableView
from engine import scopa
from tests.render.test_plurals_and_words import CHAT, info


@pytest.mark.parametrize(("locale", "line"), [("it", "1. P0: -1 punto"), ("en", "1. P0: -1 point")])
def test_minus_one_is_singular(locale: str, line: str) -> None:
    over = GameOver(
        audience=CHAT,
        locale=locale,
        table=info(),
        ranks=(0, 1),
        points=(-1, -3),
        winner=0,
        multiplier=1,
        ratings=(),
    )
    text = Renderer().render(over).text
    assert line in text.splitlines(), text


@pytest.mark.parametrize(
    ("target", "italian"),
    [(11, "Si gioca agli 11."), (21, "Si gioca ai 21."), (8, "Si gioca agli 8."), (16, "ai 16")],
)
def test_the_italian_article_before_a_number(target: int, italian: str) -> None:
    public = dataclasses.replace(
        scopa.new_game(scopa.Rules(players=2), seed=1).view(None), target=target
    )
    for locale, expected in (("it", italian), ("en", f"Game to {target}.")):
        text = Renderer().render(TableView(audience=CHAT, locale=locale, table=info(), view=public))
        assert expected in text.text, text.text
    assert [n for n in range(1, 120) if said_with_a_vowel(n)] == [1, 8, 11, *range(80, 90)]


@pytest.mark.parametrize(
    ("move", "it", "en"),
    [
        ("t", "Eva pesca dal tallone", "Eva draws from the stock"),
        ("p", "Eva prende dal pozzo", "Eva takes the discard"),
        ("d 7D", "Eva scarta 7♦", "Eva discards 7♦"),
        ("a3 TD", "Eva attacca 10♦ alla combinazione 3", "Eva attaches 10♦ to meld 3"),
        ("o 7D8D9D KCKSKD", "Eva apre: 7♦8♦9♦ K♥K♠K♦", "Eva opens: 7♦8♦9♦ K♥K♠K♦"),
    ],
)
def test_scala40_moves_told_as_sentences(move: str, it: str, en: str) -> None:
    renderer = Renderer()
    assert scala40_move_sentence("Eva", move, renderer.translations("it")) == it
    assert scala40_move_sentence("Eva", move, renderer.translations("en")) == en


def test_the_rating_is_no_score_and_ranks_show_their_letter() -> None:
    it = Renderer().translations("it")
    rating = it.gettext("{name}: rating {before:.1f} → {after:.1f}")
    assert "valutazione" in rating and "punteggio" not in rating
    assert rank_name("Q", it) == "Cavallo (Q)" and rank_name("3", it) == "Tre"
    assert rank_name("Q", Renderer().translations("en")) == "Knight (Q)"


@pytest.mark.parametrize("locale", ["it", "en"])
def test_scopa_summary_says_where_the_last_cards_went(locale: str) -> None:
    summary = SmazzataSummary(
        audience=CHAT,
        locale=locale,
        table=info(),
        number=1,
        scores=({"carte": 1, "total": 1}, {"total": 0}),
        points=(1, 0),
        data={"rest": {"side": 1, "cards": ["4S", "KB"]}},
    )
    text = Renderer().render(summary).text
    expected = {
        "it": "Le carte rimaste in tavola vanno a P1.",
        "en": "The cards left on the table go to P1.",
    }
    assert expected[locale] in text, text
    assert ") (" not in text


@pytest.mark.parametrize("locale", ["it", "en"])
def test_scala40_parse_errors_show_cards_as_the_views_do(locale: str) -> None:
    from bot.domain.events import Refusal

    for template, params in (
        (
            "cannot read the move {move}: expected t, p, o <melds>, m <melds>, a<n> <card>[<|>], "
            "s<n> <card>, d <card>, in or out (e.g. 'o 7D8D9D KCKSKD', 'a2 5D', 'd QS')",
            {"move": "'d 2D 3D'"},
        ),
        (
            "cannot read the meld {meld}: write its cards one after the other, "
            "e.g. 7D8D9D or KCKSKD or 5D*7D",
            {"meld": "'7D8'"},
        ),
    ):
        english = template.format(**params)
        refusal = Refusal("illegal_move", locale, english, {"template": template, "params": params})
        text = Renderer().refusal(refusal, limit=None)
        assert "7♦8♦9♦" in text and "K♥K♠K♦" in text, text
        assert not re.search(r"\b(7D|2D|KC|QS|5D)\b", text), text
