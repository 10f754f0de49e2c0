"""Service events -> text and buttons, in Italian or English; shared by every adapter.

Usage in an adapter::

    from bot.render import Renderer
    renderer = Renderer()                     # one per process (the composition root makes it)
    for event in result.events:
        message = renderer.render(event)      # Message(text, buttons)
        # message.text: plain text (no markup), at most 2000 characters (Discord's limit)
        # message.buttons: rows (<= 5) of Button(label, data) (<= 5 per row); data is
        # "<table>:<version>:<action>" (<= 64 bytes): hand it back to TableService.press()
    if result.refusal: alert = renderer.refusal(result.refusal)

Around the game: ``renderer.commands(locale)`` (command, description) pairs for
``setMyCommands`` / slash commands, ``renderer.help(locale)``, ``renderer.notice(key, locale)``
(``NOTICES``: deep-link and closed-DM hints...), ``renderer.game_label(game, locale)``,
``renderer.level_label(level, locale)``.

Pictures: ``bot.render.pictures.Pictures`` maps the same events (table, hand, stats) to the
scenes of ``bot.render.images`` and draws them off the event loop; the text stays the caption.
Scala 40 card selection: a hand rendered with ``focus="#<hex mask>"`` shows a button per card
(tapping toggles it) and the moves the selected cards make (``selection_of`` reads the mask).

Cards are shown with suit symbols (``7♦``); the locale is the event's own (resolved by the
service). Private hands only ever appear in ``HandView`` messages, which go to one user.
"""

from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.i18n import LOCALES, Catalogs
from bot.service.events import (
    Announcement,
    Event,
    GameOver,
    HandView,
    Leaderboard,
    LobbyView,
    Refusal,
    SmazzataSummary,
    Stats,
    TableInfo,
    TableView,
    TurnNotice,
    encode_button,
)

__all__ = [
    "COMMANDS",
    "LOCALES",
    "MAX_TEXT",
    "NOTICES",
    "QUIT",
    "SELECT",
    "Button",
    "Message",
    "Renderer",
    "card_text",
    "move_text",
    "scala40_move_text",
    "selection_of",
]

logger = logging.getLogger(__name__)

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


def _rule_value(key: str, value: str) -> str:
    """A rule text's param as shown: card codes (``7D``, ``*``) as the views write them."""
    if key not in _CARD_PARAMS or value[:1] in ("'", '"'):
        return value  # a quoted value is the player's own text: shown as typed
    return _CARD_TOKEN.sub(lambda m: card_text(m.group()), value)


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


class Renderer:
    """Renders service events for a locale (the event's own)."""

    def __init__(self, catalogs: Catalogs | None = None) -> None:
        self.catalogs = catalogs or Catalogs()

    def translations(self, locale: str | None) -> gettext.NullTranslations:
        return self.catalogs.get(locale)

    def render(self, event: Event) -> Message:
        t = self.translations(event.locale)
        renderers: dict[type, Callable[[Any, gettext.NullTranslations], Message]] = {
            LobbyView: self._lobby,
            TableView: self._table,
            HandView: self._hand,
            TurnNotice: self._turn,
            Announcement: self._announcement,
            SmazzataSummary: self._summary,
            GameOver: self._game_over,
            Leaderboard: self._leaderboard,
            Stats: self._stats,
        }
        message = renderers[type(event)](event, t)
        return _bounded(message)

    def commands(self, locale: str) -> list[tuple[str, str]]:
        """(command, description) for every chat command, in ``locale``."""
        t = self.translations(locale)
        return [(name, t.gettext(text)) for name, text in COMMANDS]

    def help(self, locale: str) -> str:
        return self.translations(locale).gettext(HELP)

    def notice(self, key: str, locale: str) -> str:
        """A short text by key (see ``NOTICES``); KeyError for an unknown key."""
        return self.translations(locale).gettext(NOTICES[key])

    def game_label(self, game: str, locale: str) -> str:
        """``scopa`` -> ``Scopa``, ``scientifico`` -> ``Scopone scientifico``."""
        return self.translations(locale).gettext(GAME_NAMES.get(game, game))

    def level_label(self, level: str, locale: str) -> str:
        return self.translations(locale).gettext(LEVEL_NAMES.get(level, level))

    def refusal(self, refusal: Refusal, *, limit: int | None = ALERT_LIMIT) -> str:
        """Why it was refused, cut to ``limit`` characters: by default a short alert (Telegram's
        callback alerts hold 200); where it goes as a message, pass ``MAX_TEXT`` (the list of a
        rule option's allowed values can be long), or ``None``."""
        _ = self.translations(refusal.locale).gettext
        text = _(REFUSAL_TEXTS.get(refusal.code, N_("That is not possible now.")))
        if refusal.code == "unknown_game" and refusal.detail:
            text += " " + _("Games: {games}").format(games=refusal.detail)
        elif refusal.code == "bad_players":
            allowed = ", ".join(map(str, refusal.params.get("allowed", ())))
            text += " " + _("Allowed: {allowed}").format(allowed=allowed)
        elif refusal.code in ("bad_option", "illegal_move") and refusal.detail:
            text += " " + self._rule_text(refusal)
        elif refusal.code in ("bad_level", "bad_locale") and refusal.detail:
            text += " " + _("Allowed: {allowed}").format(allowed=refusal.detail)
        return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"

    def _rule_text(self, refusal: Refusal) -> str:
        """The engine's reason in the refusal's language: its template translated, then filled
        in (cards as the views show them); the English detail when the template is unknown."""
        template = refusal.params.get("template")
        values = refusal.params.get("params")
        if not isinstance(template, str) or not isinstance(values, dict):
            return refusal.detail
        if not self.catalogs.knows(refusal.locale, template):
            logger.info("no translation for the rule text %r", template)
            return refusal.detail
        translated = self.translations(refusal.locale).gettext(template)
        shown = {str(k): _rule_value(str(k), str(v)) for k, v in values.items()}
        try:
            return translated.format_map(shown)
        except (KeyError, IndexError, ValueError):
            logger.warning("the translation of %r does not fit its params", template)
            return refusal.detail

    # -- pieces --------------------------------------------------------------------------------

    def game_name(self, table: TableInfo, t: gettext.NullTranslations) -> str:
        return t.gettext(GAME_NAMES.get(table.game, table.game))

    def _title(self, table: TableInfo, t: gettext.NullTranslations) -> str:
        _ = t.gettext
        return _("{game} · table {id}").format(game=self.game_name(table, t), id=table.id)

    def seat_name(self, table: TableInfo, seat: int | None, t: gettext.NullTranslations) -> str:
        if seat is None or not 0 <= seat < len(table.seats):
            return "—"
        info = table.seats[seat]
        if info is None:
            return t.gettext("(free)")
        if info.computer:
            # Numbered by seat: several computers may sit at one table.
            return t.gettext("Computer {n} ({level})").format(
                n=seat + 1, level=t.gettext(LEVEL_NAMES.get(info.user_id, info.user_id))
            )
        if info.left:
            return t.gettext("{name} (left: computer)").format(name=info.name)
        if info.away:
            return t.gettext("{name} (computer)").format(name=info.name)
        return info.name

    def side_name(self, table: TableInfo, side: Sequence[int], t: gettext.NullTranslations) -> str:
        return " + ".join(self.seat_name(table, s, t) for s in side)

    def _sides(self, table: TableInfo, view: Any) -> tuple[tuple[int, ...], ...]:
        sides = getattr(view, "sides", None)
        if sides:
            return tuple(tuple(s) for s in sides)
        return tuple((i,) for i in range(table.players))

    def _button(self, table: TableInfo, label: str, action: str) -> Button:
        return Button(label, encode_button(table.id, table.version, action))

    # -- events --------------------------------------------------------------------------------

    def _lobby(self, e: LobbyView, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table = e.table
        lines = [self._title(table, t)]
        if table.status == "abandoned":
            if e.reason in ("expired", "replaced"):
                lines.append(_("Nobody started this table in time: it was closed."))
            else:
                lines.append(_("The table was closed."))
            return Message("\n".join(lines))
        lines.append(t.ngettext("{n} player", "{n} players", table.players).format(n=table.players))
        if table.teams:
            lines.append(_("Pairs: seats 1 + 3 against seats 2 + 4."))
        for seat in range(table.players):
            lines.append(f"{seat + 1}. {self.seat_name(table, seat, t)}")
        options = self.options_text(table.options, t)
        if options:
            lines.append(_("Rules: {options}").format(options=options))
        if table.free_seats:
            lines.append(_("Waiting for players: join, or add the computer."))
        else:
            lines.append(_("The table is full: the creator can start."))
        rows: list[tuple[Button, ...]] = [
            (self._button(table, _("Join"), "@join"), self._button(table, _("Leave"), "@leave"))
        ]
        if table.free_seats:
            rows.append(
                tuple(
                    self._button(
                        table,
                        _("+ Computer ({level})").format(level=_(LEVEL_NAMES[lv])),
                        f"@ai.{lv}",
                    )
                    for lv in ("easy", "medium", "hard")
                )
            )
        if table.teams:
            rows.append(
                tuple(
                    self._button(table, _("Seat {n}").format(n=i + 1), f"@seat.{i}")
                    for i in range(table.players)
                    if table.seats[i] is None
                )
                or ()
            )
        start = [self._button(table, _("Start"), "@start")]
        if table.free_seats:
            start.append(self._button(table, _("Start with computers"), "@fill.easy"))
        rows.append(tuple(start))
        return Message("\n".join(lines), tuple(r for r in rows if r))

    def _table(self, e: TableView, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table, view = e.table, e.view
        if table.family in BRISCOLA_FAMILIES:
            from bot.render import briscola

            return briscola.table_message(self, e, t)
        if table.family == "scala40":
            return self._scala40_table(e, t)
        if table.family != "scopa":
            return self._generic_table(e, t)
        lines = [self._title(table, t) + " · " + _("hand {n}").format(n=view.smazzata)]
        lines.append(_("Table: {cards}").format(cards=cards_text(view.table)))
        lines.append(
            t.ngettext("Deck: {n} card", "Deck: {n} cards", view.deck_count).format(
                n=view.deck_count
            )
        )
        for seat in range(view.players):
            marker = "▶ " if view.current_player == seat else "  "
            lines.append(
                marker
                + _("{name}: {n} in hand").format(
                    name=self.seat_name(table, seat, t), n=view.hand_counts[seat]
                )
            )
        for i, side in enumerate(self._sides(table, view)):
            lines.append(
                t.ngettext(
                    "{side}: {points} point (taken {taken}, scope {scope})",
                    "{side}: {points} points (taken {taken}, scope {scope})",
                    view.points[i],
                ).format(
                    side=self.side_name(table, side, t),
                    points=view.points[i],
                    taken=view.captured_counts[i],
                    scope=view.scope[i],
                )
            )
        lines.append(_("Game to {target}.").format(target=view.target))
        if view.last_move is not None:
            seat, move = view.last_move
            lines.append(
                _("Last move: {name} {move}").format(
                    name=self.seat_name(table, seat, t), move=move_text(move)
                )
            )
        rows = self._table_state(table, view.current_player, lines, t)
        return Message("\n".join(lines), tuple(rows))

    def _table_state(
        self,
        table: TableInfo,
        current: int | None,
        lines: list[str],
        t: gettext.NullTranslations,
    ) -> list[tuple[Button, ...]]:
        """The end of a table message by its status: whose turn and "My hand" in play, "Game
        over." and "Rematch" when finished, "The table was closed." when abandoned (the lines
        are added to ``lines``; the buttons are returned)."""
        _ = t.gettext
        if table.status == "playing":
            if current is not None:
                lines.append(_("Turn: {name}").format(name=self.seat_name(table, current, t)))
            return [(self._button(table, _("My hand"), "@hand"),)]
        if table.status == "finished":
            lines.append(_("Game over."))
            return [(self._button(table, _("Rematch"), "@rematch"),)]
        if table.status == "abandoned":
            lines.append(_("The table was closed."))
        return []

    def _scala40_table(self, e: TableView, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table, view = e.table, e.view
        lines = [self._title(table, t) + " · " + _("hand {n}").format(n=view.hand_number)]
        lines.append(
            _("Pile: {card} ({n}) · stock: {stock}").format(
                card=card_text(view.pile_top) if view.pile_top is not None else "—",
                n=view.pile_count,
                stock=view.stock_count,
            )
        )
        if view.melds:
            lines.append(_("Melds on the table:"))
            for i, meld in enumerate(view.melds, start=1):
                lines.append(f"  {i}. {cards_text(meld.cards)}")
        for seat in range(view.players):
            marker = "▶ " if view.current_player == seat else "  "
            state = []
            if view.opened[seat]:
                state.append(_("opened"))
            if view.eliminated[seat]:
                state.append(_("out"))
            lines.append(
                marker
                + t.ngettext(
                    "{name}: {n} in hand, {score} point",
                    "{name}: {n} in hand, {score} points",
                    view.scores[seat],
                ).format(
                    name=self.seat_name(table, seat, t),
                    n=view.hand_counts[seat],
                    score=view.scores[seat],
                )
                + (f" ({', '.join(state)})" if state else "")
            )
        lines.append(_("Out at {limit} points.").format(limit=view.elimination))
        if view.last_move is not None:
            seat, move = view.last_move
            lines.append(
                _("Last move: {name} {move}").format(
                    name=self.seat_name(table, seat, t), move=scala40_move_text(move, t)
                )
            )
        rows: list[tuple[Button, ...]] = []
        if table.status == "playing":
            if view.current_player is not None:
                lines.append(
                    _("Turn: {name}").format(name=self.seat_name(table, view.current_player, t))
                )
            rows.append((self._button(table, _("My hand"), "@hand"),))
        elif table.status == "finished":
            lines.append(_("Game over."))
            rows.append((self._button(table, _("Rematch"), "@rematch"),))
        return Message("\n".join(lines), tuple(rows))

    def _generic_table(self, e: TableView, t: gettext.NullTranslations) -> Message:
        """Games without a dedicated layout: the public view's fields, cards with symbols."""
        _ = t.gettext
        table, view = e.table, e.view
        lines = [self._title(table, t)]
        lines.extend(_fields_text(view, skip={"seat", "hand", "legal_moves", "history"}))
        rows: list[tuple[Button, ...]] = []
        current = getattr(view, "current_player", None)
        if table.status == "playing":
            if current is not None:
                lines.append(_("Turn: {name}").format(name=self.seat_name(table, current, t)))
            rows.append((self._button(table, _("My hand"), "@hand"),))
        elif table.status == "finished":
            lines.append(_("Game over."))
            rows.append((self._button(table, _("Rematch"), "@rematch"),))
        return Message("\n".join(lines), tuple(rows))

    def _hand(self, e: HandView, t: gettext.NullTranslations) -> Message:
        if e.focus == QUIT:
            return self._quit(e, t)
        message = self._hand_moves(e, t)
        if e.table.status != "playing" or len(message.buttons) >= MAX_ROWS:
            return message
        leave = self._button(e.table, t.gettext("Leave the game…"), QUIT)
        return Message(message.text, (*message.buttons, (leave,)))

    def _quit(self, e: HandView, t: gettext.NullTranslations) -> Message:
        """The hand asks before a player leaves the game for good."""
        _ = t.gettext
        text = _(
            "Leave the game? The computer plays your seat to the end, and the game counts as "
            "lost for you."
        )
        buttons = (
            self._button(e.table, _("Yes, leave"), "@leave"),
            self._button(e.table, _("« Back"), "@hand"),
        )
        return Message(self._title(e.table, t) + "\n" + text, (buttons,))

    def _hand_moves(self, e: HandView, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table, view = e.table, e.view
        if table.family in BRISCOLA_FAMILIES:
            from bot.render import briscola

            return briscola.hand_message(self, e, t)
        lines = [self._title(table, t)]
        lines.append(_("Your hand: {cards}").format(cards=cards_text(view.hand)))
        if table.family == "scopa":
            lines.append(_("Table: {cards}").format(cards=cards_text(view.table)))
        elif table.family == "scala40":
            top = card_text(view.pile_top) if view.pile_top is not None else "—"
            lines.append(_("Pile: {card}").format(card=top))
            for i, meld in enumerate(view.melds, start=1):
                lines.append(f"  {i}. {cards_text(meld.cards)}")
        else:
            lines.extend(_fields_text(view, skip={"seat", "hand", "legal_moves", "history"}))
        moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
        current = getattr(view, "current_player", None)
        if not moves:
            if current is not None:
                lines.append(
                    _("Waiting for {name}.").format(name=self.seat_name(table, current, t))
                )
            return Message("\n".join(lines))
        lines.append(_("Your turn: choose a move."))
        buttons: list[Button] = []
        if table.family == "scopa":
            if e.focus is not None:
                lines.append(_("Choose what {card} captures.").format(card=card_text(e.focus)))
                options = [m for m in moves if _played_card(m) == e.focus]
                buttons = [self._button(table, move_text(m), m) for m in options]
                buttons.append(self._button(table, _("« Back"), "@hand"))
            else:
                by_card: dict[str, list[str]] = {}
                for m in moves:
                    by_card.setdefault(_played_card(m), []).append(m)
                for card, options in by_card.items():
                    if len(options) == 1:
                        buttons.append(self._button(table, move_text(options[0]), options[0]))
                    else:
                        label = _("{card} (choose…)").format(card=card_text(card))
                        buttons.append(self._button(table, label, f"?{card}"))
        elif table.family == "scala40" and e.focus is not None and e.focus.startswith(SELECT):
            hand = [_plain_card(c) for c in view.hand]
            selected = selection_of(e.focus, len(hand))
            if selected:
                picked = " ".join(card_text(hand[i]) for i in sorted(selected))
                lines.append(_("Selected: {cards}").format(cards=picked))
            rows = self._scala40_selection(table, moves, hand, selected, t)
            return Message("\n".join(lines), rows)
        elif table.family == "scala40":
            buttons = self._scala40_buttons(table, moves, e.focus, t)
        else:
            buttons = [self._button(table, move_text(m), m) for m in moves]
        return Message("\n".join(lines), _rows(buttons))

    def _scala40_buttons(
        self,
        table: TableInfo,
        moves: Sequence[str],
        focus: str | None,
        t: gettext.NullTranslations,
    ) -> list[Button]:
        """One button per kind of move (draw, open, meld, attach, swap, discard); a kind with
        several moves opens them as a second step (``?<kind>``), so 25 buttons always suffice."""
        by_kind: dict[str, list[str]] = {}
        for m in moves:
            by_kind.setdefault(_scala40_kind(m), []).append(m)
        if focus is not None and focus in by_kind:
            options = by_kind[focus][: MAX_ROWS * MAX_PER_ROW - 1]
            buttons = [self._button(table, scala40_move_text(m, t), m) for m in options]
            buttons.append(self._button(table, t.gettext("« Back"), "@hand"))
            return buttons
        buttons = []
        for kind, options in by_kind.items():
            if len(options) == 1:
                buttons.append(self._button(table, scala40_move_text(options[0], t), options[0]))
            else:
                label = t.gettext(SCALA40_KINDS.get(kind, kind))
                buttons.append(self._button(table, f"{label}…", f"?{kind}"))
        return buttons

    def _scala40_selection(
        self,
        table: TableInfo,
        moves: Sequence[str],
        hand: Sequence[str],
        selected: frozenset[int],
        t: gettext.NullTranslations,
    ) -> tuple[tuple[Button, ...], ...]:
        """Scala 40 by tapping cards: a button per card of the hand (tapping toggles it, the
        selection rides in the button data as a bit mask over the hand), then the moves the
        selection makes (meld, attach, swap, discard: those legal moves naming exactly the
        selected cards), the one-tap opening the helper found, the draws, and "clear".
        Matching is on the cards the move strings name: no rule is decided here."""
        _ = t.gettext
        by_kind: dict[str, list[str]] = {}
        for m in moves:
            by_kind.setdefault(_scala40_kind(m), []).append(m)
        actions: list[Button] = []
        for kind in ("t", "p", "in", "out"):
            for m in by_kind.get(kind, ()):
                actions.append(self._button(table, scala40_move_text(m, t), m))
        for m in by_kind.get("o", ())[:1]:
            actions.append(self._button(table, scala40_move_text(m, t), m))
        playing = any(k in by_kind for k in ("o", "m", "a", "s", "d"))
        card_rows: list[tuple[Button, ...]] = []
        if playing:
            mask = sum(1 << i for i in selected)
            cards = [
                self._button(
                    table,
                    ("✓ " if i in selected else "") + card_text(card),
                    f"?{SELECT}{mask ^ (1 << i):x}",
                )
                for i, card in enumerate(hand[: MAX_ROWS * MAX_PER_ROW])
            ]
            card_rows = [
                tuple(cards[i : i + MAX_PER_ROW]) for i in range(0, len(cards), MAX_PER_ROW)
            ]
        if selected:
            chosen = sorted(hand[i] for i in selected)
            for kind in ("o", "m", "a", "s", "d"):
                for m in by_kind.get(kind, ()):
                    if sorted(_move_cards(m)) == chosen and m not in (b.data for b in actions):
                        actions.append(self._button(table, scala40_move_text(m, t), m))
            actions.append(self._button(table, _("Clear"), f"?{SELECT}0"))
        room = MAX_ROWS - len(card_rows)
        actions = actions[: max(room, 0) * MAX_PER_ROW]
        action_rows = [
            tuple(actions[i : i + MAX_PER_ROW]) for i in range(0, len(actions), MAX_PER_ROW)
        ]
        return tuple(card_rows + action_rows)

    def _turn(self, e: TurnNotice, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        name = self._title(e.table, t)
        if e.reminder:
            return Message(_("Reminder: it is your turn ({table}).").format(table=name))
        return Message(_("It is your turn ({table}).").format(table=name))

    def _announcement(self, e: Announcement, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table, data = e.table, e.data
        seat = data.get("seat")
        name = self.seat_name(table, seat, t) if isinstance(seat, int) else ""
        if e.kind == "scopa":
            return Message(_("Scopa! {name}").format(name=name))
        if e.kind == "fuori":
            return Message(_("{name} declares fuori!").format(name=name))
        if e.kind == "timeout":
            return Message(_("Time is up: the computer played for {name}.").format(name=name))
        if e.kind == "taken_over":
            back = self._button(table, _("Take my seat back"), "@back")
            info = table.seats[seat] if isinstance(seat, int) else None
            real = info.name if info is not None else name
            text = _("{name} is away: the computer plays the seat until they take it back.")
            return Message(text.format(name=real), ((back,),))
        if e.kind == "taken_back":
            return Message(_("{name} is back at the table.").format(name=name))
        if e.kind == "abandoned":
            title = self._title(table, t)
            minutes, seconds = data.get("minutes"), data.get("seconds")
            if data.get("reason") in ("expired", "replaced") and isinstance(minutes, int):
                text = t.ngettext(
                    "{table}: nobody started the game for {n} minute, so the table was closed.",
                    "{table}: nobody started the game for {n} minutes, so the table was closed.",
                    minutes,
                )
                return Message(text.format(table=title, n=minutes))
            if data.get("reason") in ("expired", "replaced") and isinstance(seconds, int):
                text = t.ngettext(
                    "{table}: nobody started the game for {n} second, so the table was closed.",
                    "{table}: nobody started the game for {n} seconds, so the table was closed.",
                    seconds,
                )
                return Message(text.format(table=title, n=seconds))
            return Message(_("{table}: the table was closed.").format(table=title))
        if e.kind == "started":
            return Message(_("{table}: the cards are dealt!").format(table=self._title(table, t)))
        if e.kind == "rules":
            return Message(self._rules(e, t))
        if e.kind == "left":
            return self._left(e, t)
        if e.kind == "kick_list":
            buttons = [
                self._button(table, self.seat_name(table, s, t), f"@kick.{s}")
                for s in data.get("seats", ())
                if isinstance(s, int)
            ]
            if not buttons:
                return Message(_("Nobody at this table can be removed."))
            text = _("Who should leave the table? The computer will play their seat.")
            return Message(text, _rows(buttons, per_row=2))
        if table.family in BRISCOLA_FAMILIES:
            from bot.render import briscola

            said = briscola.announcement_message(self, e, t)
            if said is not None:
                return said
        return Message(f"{self._title(table, t)}: {e.kind}")

    def options_text(self, options: dict[str, Any], t: gettext.NullTranslations) -> str:
        """A table's rule options in words ("Asso piglia tutto: no; Points to win: 11")."""
        from bot.render.settings import option_label, value_label

        return "; ".join(
            f"{option_label(k, t)}: {value_label(v, t)}" for k, v in sorted(options.items())
        )

    def _rules(self, e: Announcement, t: gettext.NullTranslations) -> str:
        """/rules: every option in words, one a line, and where each value came from."""
        from bot.render.settings import option_label, sources_text, value_label

        _ = t.gettext
        options = e.data.get("options", {})
        lines = [self._title(e.table, t), _("Rules:")]
        lines.extend(
            f" · {option_label(k, t)}: {value_label(v, t)}" for k, v in sorted(options.items())
        )
        if not options:
            lines.append(" · " + _("the game's defaults"))
        table_options = e.data.get("table", {})
        sources = e.data.get("sources", {})
        if "rejoin" in table_options:
            lines.append(
                " · "
                + _("Players who leave may come back: {value}").format(
                    value=value_label(bool(table_options["rejoin"]), t)
                )
            )
        if "sources" in e.data:  # where each value came from (bot.render.settings)
            named = {**options, **{k: v for k, v in table_options.items() if k in sources}}
            lines.append(sources_text(named, sources, t))
        return "\n".join(lines)

    def _left(self, e: Announcement, t: gettext.NullTranslations) -> Message:
        """A player left the game, or was removed: the computer plays the seat to the end."""
        _ = t.gettext
        data = e.data
        name = str(data.get("name", ""))
        level = _(LEVEL_NAMES.get(str(data.get("level")), str(data.get("level"))))
        if data.get("by"):
            text = _(
                "{by} removed {name} from the game: the computer ({level}) plays the seat to "
                "the end, and the game counts as lost for {name}."
            ).format(by=data["by"], name=name, level=level)
        else:
            text = _(
                "{name} left the game: the computer ({level}) plays the seat to the end, and "
                "the game counts as lost for {name}."
            ).format(name=name, level=level)
        if not data.get("back"):
            return Message(text)
        back = self._button(e.table, _("Take my seat back"), "@back")
        return Message(text + "\n" + _("They may take the seat back."), ((back,),))

    def _summary(self, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table = e.table
        if table.family in BRISCOLA_FAMILIES:
            from bot.render import briscola

            return briscola.summary_message(self, e, t)
        if table.family == "scala40":
            return self._scala40_summary(e, t)
        lines = [_("End of hand {n}").format(n=e.number)]
        sides = _sides_of(table, len(e.scores))
        for i, score in enumerate(e.scores):
            parts = [
                f"{_(POINT_NAMES.get(k, k))} {v}" for k, v in score.items() if k != "total" and v
            ]
            total = score.get("total", sum(v for k, v in score.items() if k != "total"))
            lines.append(
                _("{side}: +{total} ({parts})").format(
                    side=self.side_name(table, sides[i], t),
                    total=total,
                    parts=", ".join(parts) or "—",
                )
            )
        lines.append(
            _("Score: {points}").format(
                points=" – ".join(
                    f"{self.side_name(table, sides[i], t)} {p}" for i, p in enumerate(e.points)
                )
            )
        )
        return Message("\n".join(lines))

    def _scala40_summary(self, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table = e.table
        closer = e.data.get("closer")
        text = (
            _("Hand {n} closed by {name}.")
            if not e.data.get("in_hand")
            else _("Hand {n} closed in hand by {name}!")
        )
        lines = [text.format(n=e.number, name=self.seat_name(table, closer, t))]
        for seat, score in enumerate(e.scores):
            lines.append(
                _("{name}: +{penalty}, total {points}").format(
                    name=self.seat_name(table, seat, t),
                    penalty=score.get("penalty", 0),
                    points=e.points[seat] if seat < len(e.points) else 0,
                )
            )
        for seat in e.data.get("eliminated", ()):
            lines.append(_("{name} is out.").format(name=self.seat_name(table, seat, t)))
        return Message("\n".join(lines))

    def _game_over(self, e: GameOver, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table = e.table
        if table.family in BRISCOLA_FAMILIES:
            from bot.render import briscola

            return briscola.game_over_message(self, e, t)
        sides = _sides_of(table, len(e.ranks))
        lines = [_("{table}: game over!").format(table=self._title(table, t))]
        for i in sorted(range(len(e.ranks)), key=lambda i: (e.ranks[i], i)):
            lines.append(
                t.ngettext(
                    "{rank}. {side}: {points} point", "{rank}. {side}: {points} points", e.points[i]
                ).format(
                    rank=e.ranks[i] + 1, side=self.side_name(table, sides[i], t), points=e.points[i]
                )
            )
        if e.multiplier == 2:
            lines.append(_("Double win!"))
        elif e.multiplier == 3:
            lines.append(_("Triple win!"))
        for d in e.ratings:
            lines.append(
                _("{name}: rating {before:.1f} → {after:.1f}").format(
                    name=d.name, before=d.before, after=d.after
                )
            )
        rematch = self._button(table, _("Rematch"), "@rematch")
        return Message("\n".join(lines), ((rematch,),))

    def _leaderboard(self, e: Leaderboard, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        game = _(GAME_NAMES.get(e.family, e.family))
        title = (
            _("Leaderboard of this chat: {game}") if e.scope == "chat" else _("Leaderboard: {game}")
        )
        lines = [title.format(game=game)]
        if e.season:
            lines.append(_("Season {season}").format(season=e.season))
        if not e.rows:
            lines.append(_("No games played yet."))
        for r in e.rows:
            lines.append(
                _("{rank}. {name} — {rating:.1f} ({record})").format(
                    rank=r.rank, name=r.name, rating=r.rating, record=_record(r, t)
                )
            )
        if e.season and e.previous:
            medals = ("🥇", "🥈", "🥉")
            podium = ", ".join(f"{medals[i]} {r.name}" for i, r in enumerate(e.previous[:3]))
            lines.append(
                _("Last season ({season}): {podium}").format(
                    season=e.previous_season, podium=podium
                )
            )
        elif e.season:
            lines.append(_("Last season ({season}): no games.").format(season=e.previous_season))
        return Message("\n".join(lines))

    def _stats(self, e: Stats, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        lines = [_("Statistics of {name}").format(name=e.name)]
        if not e.rows:
            lines.append(_("No games played yet."))
        for family, scope, r in e.rows:
            where = _("this chat") if scope == "chat" else _("everywhere")
            lines.append(
                _("{game} ({where}): rating {rating:.1f}, rank {rank}, {record}").format(
                    game=_(GAME_NAMES.get(family, family)),
                    where=where,
                    rating=r.rating,
                    rank=r.rank,
                    record=_record(r, t),
                )
            )
        return Message("\n".join(lines))


SCALA40_KINDS = {
    "t": N_("Draw from the stock"),
    "p": N_("Take the discard"),
    "o": N_("Open"),
    "m": N_("Meld"),
    "a": N_("Attach"),
    "s": N_("Swap a joker"),
    "d": N_("Discard"),
    "in": N_("Re-enter"),
    "out": N_("Stay out"),
}


# A Scala 40 hand's focus starting with this is a card selection: a hex bit mask over the hand.
SELECT = "#"
# A hand's focus (and its button's action) asking "leave the game?" (bot.service.seats.QUIT).
QUIT = "@quit"


def selection_of(focus: str | None, size: int) -> frozenset[int]:
    """The hand positions a selection focus (``#<hex mask>``) holds; anything else selects
    nothing (button data is untrusted)."""
    if not focus or not focus.startswith(SELECT) or len(focus) > 17:
        return frozenset()
    try:
        bits = int(focus[1:] or "0", 16)
    except ValueError:
        return frozenset()
    return frozenset(i for i in range(size) if bits >> i & 1)


def _plain_card(card: object) -> str:
    """A card as move strings name it (no deck mark)."""
    return str(card).rstrip("'")


def _move_cards(move: str) -> list[str]:
    """The cards a Scala 40 move string names (``o 7D8D9D KCKSKD`` -> 7D 8D 9D KC KS KD)."""
    cards: list[str] = []
    for token in move.split()[1:]:
        i = 0
        while i < len(token):
            if token[i] == "*":
                cards.append("*")
                i += 1
            elif token[i] in "<>":
                i += 1
            else:
                cards.append(token[i : i + 2].upper())
                i += 2
    return cards


def _scala40_kind(move: str) -> str:
    head = move.split(" ", 1)[0].lower()
    if head in ("in", "out"):
        return head
    return head[:1]


def scala40_move_text(move: str, t: gettext.NullTranslations) -> str:
    """``o 7D8D9D KCKSKD`` -> ``Open: 7♦8♦9♦ K♥K♠K♦``; ``a3 TD`` -> ``Attach 10♦ to 3``."""
    parts = move.split()
    kind = _scala40_kind(move)
    label = t.gettext(SCALA40_KINDS.get(kind, kind))
    if kind in ("t", "p", "in", "out") or len(parts) < 2:
        return label
    cards = [_meld_text(p) for p in parts[1:]]
    if kind in ("a", "s"):
        return f"{label} {' '.join(cards)} → {parts[0][1:]}"
    return f"{label}: {' '.join(cards)}"


def _meld_text(token: str) -> str:
    """``7D8D*`` -> ``7♦8♦🃏``; a trailing ``<``/``>`` (scala end) is kept."""
    out = []
    i = 0
    while i < len(token):
        if token[i] == "*":
            out.append("🃏")
            i += 1
        elif token[i] in "<>":
            out.append(token[i])
            i += 1
        else:
            out.append(card_text(token[i : i + 2]))
            i += 2
    return "".join(out)


def _played_card(move: str) -> str:
    return move.rstrip("!").split(":", 1)[0]


def _rows(buttons: Sequence[Button], per_row: int = 4) -> tuple[tuple[Button, ...], ...]:
    rows = [tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]
    return tuple(rows)


def _bounded(message: Message) -> Message:
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
    return Message(text, rows)


def _record(row: Any, t: gettext.NullTranslations) -> str:
    """ "3 games, 1 win" with the plural forms of the language."""
    games = t.ngettext("{n} game", "{n} games", row.games).format(n=row.games)
    wins = t.ngettext("{n} win", "{n} wins", row.wins).format(n=row.wins)
    return f"{games}, {wins}"


def _sides_of(table: TableInfo, count: int) -> tuple[tuple[int, ...], ...]:
    if count == table.players:
        return tuple((i,) for i in range(count))
    # Pairs: seat i plays with seat i + count.
    return tuple(tuple(range(i, table.players, count)) for i in range(count))


def _fields_text(view: Any, *, skip: set[str]) -> list[str]:
    """A readable line per field of a view we have no layout for."""
    try:
        fields = view.to_dict()
    except AttributeError:
        fields = dict(vars(view)) if hasattr(view, "__dict__") else {}
    lines = []
    for key, value in fields.items():
        if key in skip:
            continue
        lines.append(f"{key}: {_plain(value)}")
    return lines


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(_plain(v) for v in value) or "—"
    if isinstance(value, str) and _is_cardish(value):
        return card_text(value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    return str(value)
