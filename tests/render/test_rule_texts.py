"""The engine's rule texts (engine/errors.py templates) are in the catalogs and read in Italian.

The catalogs must hold exactly what a fresh ``pybabel extract`` (the command of
``bot/render/i18n.py``) finds in ``bot/`` and ``engine/``; seeded playouts that try wrong moves
collect the templates the engine really raises and check each one translates.
"""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

from bot.render import MAX_TEXT, Renderer
from bot.render.i18n import LOCALE_DIR, Catalogs
from bot.service import Refusal
from engine import scala40, scopa
from engine.cards import french_deck, italian_deck
from engine.errors import RuleText

ROOT = Path(__file__).resolve().parents[2]
# The keywords of the extract command in bot/render/i18n.py.
KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    **dict.fromkeys(
        ["N_", "RuleText", "Problem", "IllegalMove", "MoveParseError", "RulesError"], None
    ),
    "CardParseError": None,
}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _extracted() -> set[str]:
    ids: set[str] = set()
    for folder in ("bot", "engine"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            ids.add(message if isinstance(message, str) else message[0])
    return ids


def test_catalogs_hold_a_fresh_extraction_of_bot_and_engine() -> None:
    with (LOCALE_DIR / "tavolo.pot").open("rb") as fh:
        # A plural entry's id is (singular, plural): named by its singular, as extracted.
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}
    extracted = _extracted()
    assert extracted == template
    assert "{card} is not in your hand" in extracted  # the engine is part of it


def _italian(error: RuleText, catalogs: Catalogs) -> str:
    assert catalogs.knows("it", error.template), error.template
    assert _fields(error.template) == set(error.params), error.template
    translated = catalogs.get("it").gettext(error.template)
    assert _fields(translated) == _fields(error.template), error.template
    return translated.format_map(error.params)


def _scopa_tries(game: scopa.Game, rng: random.Random) -> list[str]:
    view = game.view(game.current_player)
    deck = [str(c) for c in italian_deck()]
    table = [str(c) for c in view.table]
    tries = [
        rng.choice(deck),
        rng.choice(deck) + ":" + "+".join(rng.sample(table, min(len(table), rng.randint(1, 2)))),
        rng.choice(view.legal_moves) + "!",
        str(view.hand[0]) if view.hand else "7D",
        rng.choice(["9X", "7D:", "7D:3C+3C", "", "xx yy", "TD"]),
    ]
    return tries


def _scala40_tries(game: scala40.Game, rng: random.Random) -> list[str]:
    seat = game.current_player
    assert seat is not None
    hand = [str(c) for c in game.hand(seat)]
    deck = [str(c).rstrip("'") for c in french_deck(0)]
    some = rng.sample(hand, min(3, len(hand)))
    n = len(game.melds)
    return [
        rng.choice(["t", "p", "in", "out"]),
        "d " + rng.choice(hand + deck),
        f"a{rng.randint(1, n + 1)} {rng.choice(hand)}{rng.choice(['', '<', '>'])}",
        f"s{rng.randint(1, n + 1)} {rng.choice([*hand, '*'])}",
        rng.choice(["o ", "m "]) + "".join(some),
        rng.choice(
            ["o 2D3D", "o 7D7D7C", "m 5D**8D", "o KDAD2D", "s1 5D<", "a0 5D", "zz", "o 7D8X"]
        ),
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_template_the_engine_raises_reads_in_italian(seed: int) -> None:
    catalogs = Catalogs()
    rng = random.Random(seed)
    seen: set[str] = set()
    # Scopa (Scopone to 8 has fuori) and Scala 40: random legal moves, wrong ones tried too.
    games: list[Any] = [
        scopa.new_game(scopa.Rules(variant="scopone", target=8), seed=seed),
        scopa.new_game(scopa.Rules(players=2, obbligo_di_presa=True), seed=seed),
        scala40.new_game(scala40.Rules(players=3), seed=seed),
        scala40.new_game(scala40.Rules(players=2, discard_attachable="forbidden"), seed=seed),
    ]
    for game in games:
        tries = _scopa_tries if isinstance(game, scopa.Game) else _scala40_tries
        for _step in range(400):
            if game.is_over:
                break
            for text in tries(game, rng):
                if text in {str(m) for m in game.legal_moves()}:
                    continue
                try:
                    game.play(text)
                except (
                    scopa.IllegalMove,
                    scopa.MoveParseError,
                    scala40.IllegalMove,
                    scala40.MoveParseError,
                ) as exc:
                    seen.add(exc.template)
                    _italian(exc, catalogs)
            game = game.play(rng.choice(game.legal_moves()))
    # The playouts reach many different reasons, not just one or two.
    assert len(seen) >= 20, sorted(seen)
    assert all(catalogs.get("it").gettext(t) != t for t in seen)


@pytest.mark.parametrize(
    ("module", "options"),
    [
        (scopa, {"variant": "briscola"}),
        (scopa, {"players": 5}),
        (scopa, {"variant": "scopone", "players": 2}),
        (scopa, {"target": 0}),
        (scopa, {"win_by_two": "yes"}),
        (scopa, {"fuori": True}),
        (scopa, {"primiera_missing_suit": "strict"}),
        (scala40, {"players": 7}),
        (scala40, {"elimination": 100}),
        (scala40, {"close_in_hand": "triple"}),
        (scala40, {"reentry": None}),
        (scala40, {"max_restocks": -1}),
    ],
)
def test_rules_errors_read_in_italian(module: Any, options: dict[str, Any]) -> None:
    with pytest.raises(module.RulesError) as caught:
        module.Rules(**options)
    assert _italian(caught.value, Catalogs())
    with pytest.raises(module.RulesError) as unknown:
        module.Rules.from_dict({"sette_e_mezzo": True})
    assert _italian(unknown.value, Catalogs())


def _refusal(code: str, locale: str, error: ValueError, **params: Any) -> Refusal:
    extra = (
        {"template": error.template, "params": error.params} if isinstance(error, RuleText) else {}
    )
    return Refusal(code, locale, str(error), {**params, **extra})


@pytest.mark.parametrize(
    ("error", "it", "en"),
    [
        (
            scopa.IllegalMove("{card} is not in your hand", card="KB"),
            "Mossa non consentita. non hai K♣ in mano",
            "That move is not allowed. K♣ is not in your hand",
        ),
        (
            scopa.IllegalMove(
                "{card} must capture: take {choices}", card="7D", choices="7C, 3C+4S"
            ),
            "Mossa non consentita. 7♦ deve fare presa: prendi 7♥, 3♥+4♠",
            "That move is not allowed. 7♦ must capture: take 7♥, 3♥+4♠",
        ),
        (
            scopa.MoveParseError(
                "not a move: {move} (not a card: {card})", move="'9X'", card="'9X'"
            ),
            "Mossa non consentita. non è una mossa: '9X' ('9X' non è una carta)",
            "That move is not allowed. not a move: '9X' (not a card: '9X')",
        ),
        (
            # Without a template (a game that raises a plain ValueError): the English detail.
            ValueError("'x' is not legal now"),
            "Mossa non consentita. 'x' is not legal now",
            "That move is not allowed. 'x' is not legal now",
        ),
        (
            # A template the catalogs do not know: the English detail.
            scopa.IllegalMove("{card} is new here", card="7D"),
            "Mossa non consentita. 7D is new here",
            "That move is not allowed. 7D is new here",
        ),
    ],
)
def test_renderer_translates_the_template_or_falls_back(
    error: ValueError, it: str, en: str
) -> None:
    renderer = Renderer()
    assert renderer.refusal(_refusal("illegal_move", "it", error, move="m")) == it
    assert renderer.refusal(_refusal("illegal_move", "en", error, move="m")) == en


def test_a_translation_that_does_not_fit_its_params_falls_back_to_english() -> None:
    refusal = Refusal(
        "illegal_move",
        "it",
        "KB is not in your hand",
        {"template": "{card} is not in your hand", "params": {"wrong": "KB"}},
    )
    assert Renderer().refusal(refusal) == "Mossa non consentita. KB is not in your hand"


def test_long_rule_texts_are_cut_to_an_alert() -> None:
    error = scala40.MoveParseError(
        "cannot read the move {move}: expected t, p, o <melds>, m <melds>, a<n> <card>[<|>], "
        "s<n> <card>, d <card>, in or out (e.g. 'o 7D8D9D KCKSKD', 'a2 5D', 'd QS')",
        move=repr("x" * 60),
    )
    for locale in ("it", "en"):
        text = Renderer().refusal(_refusal("illegal_move", locale, error))
        assert len(text) == 200 and text.endswith("…")


def test_a_refusal_sent_as_a_message_keeps_the_whole_list_of_options() -> None:
    # Only a callback alert is cut to 200 characters: a command's refusal is a message, and the
    # options a table offers must all be named.
    with pytest.raises(scala40.RulesError) as refused:
        scala40.Rules.from_dict({"colour": "red"})
    for locale in ("it", "en"):
        refusal = _refusal("bad_option", locale, refused.value)
        whole = Renderer().refusal(refusal, limit=MAX_TEXT)
        assert len(whole) > 200 and whole.endswith("max_restocks"), whole
        assert Renderer().refusal(refusal, limit=None) == whole
        assert len(Renderer().refusal(refusal)) == 200
