"""What a typed line means at the terminal's prompt: numbers, moves typed as the menu shows
them, cards with symbols or the language's letters, and the answers when a line names no move
or several."""

from __future__ import annotations

import io
from typing import cast

import pytest

from bot.render import Renderer, move_text, scala40_move_text
from bot.service import TableService, UserRef
from bot.terminal import TerminalPlay, columns, wrap

SCOPA_MOVES = ["7D:3C+4S", "7D:7C", "3B", "KS"]
SCALA40_MOVES = ["d 7D", "d 8D", "a1 7D", "o 7D8D9D KCKSKD", "s2 5S"]


def terminal(locale: str) -> tuple[TerminalPlay, io.StringIO]:
    out = io.StringIO()

    async def no_input() -> str | None:
        return None

    play = TerminalPlay(
        cast(TableService, None),  # _choose asks nothing of the service
        Renderer(),
        user=UserRef("terminal", "eva", "Eva", locale),
        read=no_input,
        out=out,
        width=lambda: 80,
    )
    return play, out


def choose(line: str, locale: str, family: str) -> tuple[str | None, str]:
    play, out = terminal(locale)
    moves = SCALA40_MOVES if family == "scala40" else SCOPA_MOVES
    tr = Renderer().translations(locale)
    labels = [scala40_move_text(m, tr) if family == "scala40" else move_text(m) for m in moves]
    return play._choose(line, moves, labels, family), out.getvalue()


@pytest.mark.parametrize(
    ("line", "locale", "move"),
    [
        ("3", "en", "3B"),
        ("3)", "it", "3B"),
        # Exactly as the menu shows it, arrow and all; or the cards in any order.
        ("7♦ ➜ 3♥ 4♠", "en", "7D:3C+4S"),
        ("7♦ 4♠ 3♥", "it", "7D:3C+4S"),
        ("7♦ 7♥", "en", "7D:7C"),
        ("3♣", "en", "3B"),
        ("K♠", "it", "KS"),
        ("k♤", "en", "KS"),  # the outline symbol, lower case
        # English letters: C is clubs, H hearts.
        ("3c", "en", "3B"),
        ("7d 4s 3h", "en", "7D:3C+4S"),
        # Italian letters: B bastoni, C coppe, S spade; R re.
        ("3B", "it", "3B"),
        ("7D 7C", "it", "7D:7C"),
        ("RS", "it", "KS"),
        ("3F", "it", "3B"),  # F fiori
        # A card not in the list goes to the service, which says why (not in your hand...).
        ("5♠", "en", "5S"),
    ],
)
def test_scopa_lines(line: str, locale: str, move: str) -> None:
    chosen, said = choose(line, locale, "scopa")
    assert chosen == move, said


def test_a_card_with_several_captures_is_answered_with_the_numbered_choices() -> None:
    chosen, said = choose("7♦", "en", "scopa")
    assert chosen is None
    assert "7♦ can be played in different ways: type the number of your choice." in said
    assert "1) 7♦ ➜ 3♥ 4♠  2) 7♦ ➜ 7♥" in said


def test_the_other_reading_of_c_is_offered_never_played() -> None:
    # Italian C is coppe (♥): 3♥ is not a move, 3♣ (the English reading) is: asked, not played.
    chosen, said = choose("3C", "it", "scopa")
    assert chosen is None
    assert "3) 3♣" in said and "♥" in said
    # English C is clubs: 7♣ is no move, 7♥ (Italian coppe) with the 7♦ is: asked too.
    chosen, said = choose("7D 7C", "en", "scopa")
    assert chosen is None and "2) 7♦ ➜ 7♥" in said


@pytest.mark.parametrize(
    ("line", "locale", "said"),
    [
        ("9", "en", "Choose a number from 1 to 4."),
        ("0", "it", "Scegli un numero da 1 a 4."),
        ("xyz", "en", "“xyz” is not a move. Type a number from 1 to 4, or a card as it is shown"),
        ("7x", "it", "“7x” non è una mossa. Scrivi un numero da 1 a 4"),
    ],
)
def test_lines_that_name_no_move_say_why_once(line: str, locale: str, said: str) -> None:
    chosen, out = choose(line, locale, "scopa")
    assert chosen is None
    assert said in out
    assert out.count(line) <= 1  # no self-repetition


@pytest.mark.parametrize(
    ("line", "locale", "move"),
    [
        ("8♦", "en", "d 8D"),  # a card alone: the one listed move made of it
        ("Discard: 8♦", "en", "d 8D"),  # as the menu shows it
        ("discard 8♦", "en", "d 8D"),
        ("Scarta: 8♦", "it", "d 8D"),
        ("scarta 8d", "it", "d 8D"),
        ("d 8D", "en", "d 8D"),
        ("D 8♦", "en", "d 8D"),
        ("7♦8♦9♦ K♥K♠K♦", "en", "o 7D8D9D KCKSKD"),
        ("o 7d8d9d khkskd", "en", "o 7D8D9D KCKSKD"),
        ("Apri: 7♦8♦9♦ K♥K♠K♦", "it", "o 7D8D9D KCKSKD"),
        ("5♠", "it", "s2 5S"),
        ("4♣", "en", "d 4B"),  # not listed: the engine says why
        ("t", "en", "t"),
        ("a3 10♦", "it", "a3 TD"),
    ],
)
def test_scala40_lines(line: str, locale: str, move: str) -> None:
    chosen, said = choose(line, locale, "scala40")
    assert chosen == move, said


def test_scala40_a_card_that_can_go_two_ways_is_asked() -> None:
    chosen, said = choose("7♦", "en", "scala40")
    assert chosen is None
    assert "1) Discard: 7♦" in said and "3) Attach 7♦ → 1" in said


@pytest.mark.parametrize("line", ["zz 7♦", "d 7x", "o 7♦8♦9♦ KKK", "scarta"])
def test_scala40_lines_that_are_no_move(line: str) -> None:
    chosen, said = choose(line, "en", "scala40")
    assert chosen is None and f"“{line}” is not a move" in said


def test_scala40_help_is_its_own() -> None:
    play, _ = terminal("en")
    scala40, scopa = play._help("scala40"), play._help("scopa")
    assert "t                draws from the stock" in scala40 and "7♦ 3♥ 4♠" not in scala40
    assert "7♦ 3♥ 4♠" in scopa and "draws" not in scopa
    # Commands never clash with a move: v (table), h, q are no Scala 40 move heads.
    for command in ("v", "h", "q"):
        assert f"\n  {command} " not in scala40
    italian, _ = terminal("it")
    assert "pesca dal tallone" in italian._help("scala40")
    assert "D/Q ♦  C ♥  S/P ♠  B/F ♣" in italian._help("scopa")


def test_columns_and_wrapping_fit_the_width() -> None:
    items = ["1) Open: 5♥🃏7♥ 10♥J♥🃏"] + [f"{i}) Discard: {i}♦" for i in range(2, 15)]
    for width in (59, 79, 109):
        lines = columns(items, width)
        assert all(len(line) + line.count("🃏") <= width for line in lines)
        assert sorted(int(x) for line in lines for x in _numbers(line)) == list(range(1, 15))
    assert len(columns(items, 109)) < len(columns(items, 59))
    text = "Suits can be typed as letters: H ♥  D ♦  C ♣  S ♠; the joker as *."
    for part in wrap(text, 30):
        assert len(part) <= 30
    assert " ".join(wrap(text, 30)) == text  # cut at spaces only, the spacing kept
    assert wrap("  You: " + "x" * 50, 20)[1].startswith("    ")  # continuations indented


def _numbers(line: str) -> list[str]:
    import re

    return re.findall(r"(\d+)\) ", line)


def test_terminal_language_follows_the_system() -> None:
    from bot.__main__ import terminal_locale
    from bot.config import load_settings

    settings = load_settings()
    if "default_locale" in settings.model_fields_set:
        pytest.skip("DEFAULT_LOCALE is set in this environment")
    assert terminal_locale(settings, {"LANG": "en_US.UTF-8"}) == "en"
    assert terminal_locale(settings, {"LANG": "it_IT.UTF-8"}) == "it"
    assert terminal_locale(settings, {"LC_ALL": "it_CH", "LANG": "en_US"}) == "it"
    assert terminal_locale(settings, {"LC_MESSAGES": "en_GB", "LANG": "it_IT"}) == "en"
    assert terminal_locale(settings, {"LANG": "C.UTF-8"}) == "it"  # no language: the default
    assert terminal_locale(settings, {}) == "it"
    for chosen in ("en", "it"):
        settings = load_settings(default_locale=chosen)
        for lang in ("it_IT.UTF-8", "en_US.UTF-8"):
            assert terminal_locale(settings, {"LANG": lang}) == chosen  # DEFAULT_LOCALE wins


@pytest.mark.parametrize(
    ("line", "locale", "move"),
    [
        ("2♠", "en", "call 2S"),  # the card as the menu shows it ("Call 2♠")
        ("Call 2♠", "en", "call 2S"),  # the menu's own text
        ("3) ", "en", "call 2S"),
        ("2s", "en", "call 2S"),
        ("2♦", "it", "call 2D"),
        ("Chiamo 2♦", "it", "call 2D"),
        ("3♠", "en", "call 3S"),  # not a listed call: the engine says which rank to call
    ],
)
def test_chiamata_the_called_card_typed_as_shown(line: str, locale: str, move: str) -> None:
    play, out = terminal(locale)
    moves = ["call 2D", "call 2C", "call 2S", "call 2B"]
    labels = [play._label("chiamata", m) for m in moves]
    assert play._choose(line.strip(), moves, labels, "chiamata") == move, out.getvalue()


def test_the_call_refusal_shows_no_engine_notation() -> None:
    for locale in ("en", "it"):
        tr = Renderer().translations(locale)
        text = tr.gettext("you won the auction: call a card of rank {rank}, e.g. call {rank}D")
        assert "2D" not in text.format(rank="2") and "2♦" in text.format(rank="2")
