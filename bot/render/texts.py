"""The words of the game shared by every renderer: names (games, levels, Scopa's points),
refusals, chat commands and notices, cards and moves as people read them, the ``Message`` and
``Button`` a renderer returns and the platforms' limits they are kept within.

Pure text: nothing here knows a renderer or a family (``bot.render.renderer`` is the shared
renderer, ``bot.render.scopa`` / ``scala40`` / ``briscola`` / ``generic`` the families).
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.domain.events import TableInfo

__all__ = [
    "ALERT_LIMIT",
    "BRISCOLA_FAMILIES",
    "COMMANDS",
    "DEFAULT_STYLE",
    "GAME_NAMES",
    "HELP",
    "LEVEL_NAMES",
    "MAX_PER_ROW",
    "MAX_ROWS",
    "MAX_TEXT",
    "NOTICES",
    "N_",
    "POINT_KEYS",
    "POINT_NAMES",
    "QUIT",
    "REFUSAL_TEXTS",
    "STYLE_LABELS",
    "SUIT_SYMBOLS",
    "Button",
    "Message",
    "card_text",
    "cards_text",
    "move_text",
    "said_with_a_vowel",
]

MAX_TEXT = 2000  # Discord's message limit (Telegram allows 4096)
ALERT_LIMIT = 200  # Telegram's callback query alerts
MAX_ROWS = 5  # Discord: 5 action rows of 5 buttons
MAX_PER_ROW = 5

SUIT_SYMBOLS = {"D": "♦", "C": "♥", "S": "♠", "B": "♣"}
# Families drawn by bot.render.briscola.
BRISCOLA_FAMILIES = ("briscola", "chiamata")
# Scopa-family point names, in the order of a summary.
POINT_KEYS = ("carte", "denari", "settebello", "primiera", "scope", "re_bello", "napola")


def N_(message: str) -> str:
    """Marks a string for extraction, translated later."""
    return message


POINT_NAMES = {
    "carte": N_("cards"),
    "denari": N_("coins (denari)"),
    "settebello": N_("settebello"),
    "primiera": N_("primiera"),
    "scope": N_("scope"),
    "re_bello": N_("re bello"),
    "napola": N_("napola"),
    "total": N_("total"),
}

GAME_NAMES = {
    "scopa": N_("Scopa"),
    "scopone": N_("Scopone"),
    "scientifico": N_("Scopone scientifico"),
    "scala40": N_("Scala 40"),
    "briscola": N_("Briscola"),
    "chiamata": N_("Briscola chiamata"),
}

LEVEL_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}

# A deck style a chat or user has not chosen (bot.render.pictures draws the family's usual one).
DEFAULT_STYLE = "default"

# How each deck style is called in a chat (a style's own ``title`` is its Italian name).
STYLE_LABELS = {
    "napoletane": N_("Neapolitan cards"),
    "piacentine": N_("Piacentine cards"),
    "francesi": N_("French cards"),
    "francesi4": N_("French cards, four colours"),
    DEFAULT_STYLE: N_("Default (Neapolitan; French for Scala 40)"),
}

REFUSAL_TEXTS = {
    "no_table": N_("There is no open table here."),
    "too_many_tables": N_("This chat already has an open table."),
    "unknown_game": N_("Unknown game."),
    "bad_option": N_("Invalid rule option."),
    "bad_players": N_("That number of players is not allowed for this game."),
    "not_in_lobby": N_("The game has already started."),
    "table_full": N_("The table is full."),
    "already_seated": N_("You are already seated."),
    "not_seated": N_("You are not playing at this table."),
    "not_creator": N_("Only the table's creator or an admin can do that."),
    "seat_taken": N_("That seat is taken."),
    "not_full": N_("There are still free seats."),
    "not_playing": N_("This table is not being played."),
    "stale": N_("This move is no longer valid: the table has changed."),
    "not_your_turn": N_("It is not your turn."),
    "illegal_move": N_("That move is not allowed."),
    "bad_level": N_("Unknown computer level."),
    "bad_button": N_("This button is not valid."),
    "bad_locale": N_("Unknown language."),
    "not_away": N_("You are already playing your seat."),
    "conflict": N_("The table changed at the same moment: please try again."),
    "not_admin": N_("Only the chat's admins can change its settings."),
    "bad_setting": N_("That setting cannot take this value."),
    "admins_only": N_("In this chat only the admins can open tables."),
    "no_player": N_("That player is not playing at this table."),
    "no_return": N_("At this table a player who left cannot take the seat back."),
}


# Chat commands both adapters offer, with their descriptions (Telegram setMyCommands, Discord
# slash command descriptions): every language from the one catalog.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("scopa", N_("Open a table of Scopa (2, 3 or 4 players)")),
    ("scopone", N_("Open a table of Scopone (4 players, in pairs)")),
    ("scala40", N_("Open a table of Scala 40 (2 to 6 players)")),
    ("briscola", N_("Open a table of Briscola (2, 3 or 4 players)")),
    ("chiamata", N_("Open a table of Briscola chiamata (5 players)")),
    ("new", N_("Choose a game and open a table")),
    ("play", N_("Play against the computer")),
    ("leaderboard", N_("The best players of this chat")),
    ("stats", N_("Your games, wins and rating")),
    ("rules", N_("The rules of the table")),
    ("lang", N_("Language: it or en")),
    ("abandon", N_("Close the table (its creator or an admin)")),
    ("help", N_("How to play with Tavolo")),
)

HELP = N_(
    "Tavolo: Scopa, Scopone, Scala 40, Briscola and Briscola chiamata.\n"
    "Open a table with /scopa, /scopone, /scala40, /briscola or /chiamata, join with the "
    "buttons, add the computer if you like, then start. Your cards come to you privately "
    "with a button for every move.\n"
    "/leaderboard and /stats show the ratings, /rules the table's options, /lang the language, "
    "/abandon closes the table."
)

# Short texts adapters need around the game (the game text itself comes from render()).
NOTICES = {
    "open_private": N_("Your cards are waiting in a private chat with me: press the button."),
    "open_private_button": N_("Open my cards"),
    "dm_closed": N_("I cannot send you direct messages: use the My hand button."),
    "thinking": N_("The computer is thinking…"),
    "choose_game": N_("Which game?"),
    "new_table": N_("New table"),
    "dm_closed_discord": N_("I cannot DM you: allow direct messages from this server's members."),
    "style_choose": N_("Card pictures: {style}. Choose the deck style:"),
    "style_set": N_("Card pictures: {style}."),
    "style_off": N_("Card pictures are switched off on this bot."),
}


@dataclass(frozen=True, slots=True)
class Button:
    label: str
    data: str  # "<table>:<version>:<action>", at most 64 bytes


@dataclass(frozen=True, slots=True)
class Message:
    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    # A hand whose cards are better picked one by one (Scala 40's melds): an adapter adds its
    # card picker (Discord's multi-select; Telegram's hand starts with an empty selection).
    pick_cards: bool = False


def card_text(card: object) -> str:
    """``7D`` -> ``7♦``; ``*`` (joker) -> ``🃏``; French ``T`` -> ``10``."""
    s = str(card).rstrip("'")
    if s == "*":
        return "🃏"
    rank, suit = s[:-1], s[-1:]
    rank = "10" if rank == "T" else rank
    return rank + SUIT_SYMBOLS.get(suit, suit)


# Params of the engine's rule texts that hold card codes (see engine.errors).
_CARD_PARAMS = frozenset({"card", "cards", "meld", "choices", "wanted"})
_CARD_TOKEN = re.compile(r"(?<![\w*])(?:10|[A2-9TJQK])[DCSB]'?(?![\w])|(?<![\w*])\*'?(?![\w*])")


def rule_value(key: str, value: str) -> str:
    """A rule text's param as shown: card codes (``7D``, ``*``) as the views write them."""
    if value[:1] in ("'", '"') and key in _TYPED_PARAMS:
        # The player's own text (a front end may have read their 7♦ as 7D): its words made
        # of cards alone as the views write them, never the engine's notation.
        return _TYPED_WORD.sub(lambda m: _TYPED_CARD.sub(_typed_card, m.group()), value)
    if key not in _CARD_PARAMS or value[:1] in ("'", '"'):
        return value  # a quoted value is the player's own text: shown as typed
    return _CARD_TOKEN.sub(lambda m: card_text(m.group()), value)


# The params that quote a player's move or meld, and in them a word made of cards alone.
_TYPED_PARAMS = frozenset({"move", "meld"})
_TYPED_WORD = re.compile(r"(?<![\w*])(?:(?:10|[A2-9TJQK])[DCSB]|\*)+[<>]?(?![\w*])")
_TYPED_CARD = re.compile(r"(?:10|[A2-9TJQK])[DCSB]")


def _typed_card(match: re.Match[str]) -> str:
    return card_text(match.group())


def cards_text(cards: Iterable[object]) -> str:
    return " ".join(card_text(c) for c in cards) or "—"


def move_text(move: str) -> str:
    """A move string as people read it: ``7D:3C+4S`` -> ``7♦ ➜ 3♥ 4♠``; fuori adds ``!``."""
    fuori = move.endswith("!")
    core = move.rstrip("!")
    if ":" in core and all(_is_cardish(p) for p in core.replace(":", "+").split("+")):
        played, taken = core.split(":", 1)
        text = f"{card_text(played)} ➜ {' '.join(card_text(c) for c in taken.split('+'))}"
    elif _is_cardish(core):
        text = card_text(core)
    else:
        text = core
    return text + (" !" if fuori else "")


def _is_cardish(token: str) -> bool:
    t = token.rstrip("'")
    return t == "*" or (2 <= len(t) <= 3 and t[-1] in SUIT_SYMBOLS)


# A hand's focus (and its button's action) asking "leave the game?" (bot.service.seats.QUIT).
QUIT = "@quit"


def button_rows(buttons: Sequence[Button], per_row: int = 4) -> tuple[tuple[Button, ...], ...]:
    rows = [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]
    return tuple(rows)


def bounded(message: Message) -> Message:
    """Keep within every platform's limits (2000 characters, 5 rows of 5 buttons)."""
    text = message.text if len(message.text) <= MAX_TEXT else message.text[: MAX_TEXT - 1] + "…"
    buttons = [b for row in message.buttons for b in row]
    fits = len(message.buttons) <= MAX_ROWS and all(len(r) <= MAX_PER_ROW for r in message.buttons)
    if fits:
        rows = message.buttons
    else:
        per_row = MAX_PER_ROW
        rows = tuple(tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row))[
            :MAX_ROWS
        ]
    return Message(text, rows, message.pick_cards)


class _Record(Protocol):
    """A player's record (a leaderboard's or a stats row)."""

    @property
    def games(self) -> int: ...

    @property
    def wins(self) -> int: ...


def record_text(row: _Record, t: gettext.NullTranslations) -> str:
    """ "3 games, 1 win" with the plural forms of the language."""
    games = t.ngettext("{n} game", "{n} games", row.games).format(n=row.games)
    wins = t.ngettext("{n} win", "{n} wins", row.wins).format(n=row.wins)
    return f"{games}, {wins}"


def sides_of(table: TableInfo, count: int) -> tuple[tuple[int, ...], ...]:
    if count == table.players:
        return tuple((i,) for i in range(count))
    # Pairs: seat i plays with seat i + count.
    return tuple(tuple(range(i, table.players, count)) for i in range(count))


def fields_text(view: object, *, skip: Container[str]) -> list[str]:
    """A readable line per field of a view we have no layout for."""
    try:
        fields = getattr(view, "to_dict")()  # noqa: B009 (any view: duck-typed)
    except AttributeError:
        fields = dict(vars(view)) if hasattr(view, "__dict__") else {}
    lines = []
    for key, value in fields.items():
        if key in skip:
            continue
        lines.append(f"{key}: {_plain(value)}")
    return lines


def _plain(value: object) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_plain(v) for v in value) or "—"
    if isinstance(value, str) and _is_cardish(value):
        return card_text(value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)


def said_with_a_vowel(number: int) -> bool:
    """Whether ``number``'s Italian word begins with a vowel (uno, otto, undici, ottanta,
    ottocento, undicimila...), which takes "agli", "degli", "gli" before it: a sentence before
    such a number is looked up with the gettext context "a number said with a vowel"
    (``pgettext``), so that Italian says "Si gioca agli 11" and "ai 21"."""
    digits = str(abs(number))
    return (
        digits in ("1", "11")
        or digits.startswith("8")
        or (len(digits) == 5 and digits.startswith("11"))
    )
