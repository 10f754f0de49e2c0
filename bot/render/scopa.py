"""Scopa, Scopone and Scopone scientifico in words: the table (cards on it, the deck, the
points), a hand with a button per capture, the announcements (scopa, fuori); shared by every
adapter through :class:`bot.render.Renderer`.

Glossary: **presa** = a capture; **scopa** = a capture that sweeps the table (a point);
**smazzata** = one deal, played out; **fuori** = declaring the game won during a deal
(a move string ending in ``!``).
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.domain.events import (
    Announcement,
    GameOver,
    HandView,
    SmazzataSummary,
    TableInfo,
    TableView,
)
from bot.render import generic
from bot.render.texts import (
    Button,
    Message,
    button_rows,
    card_text,
    cards_text,
    move_text,
    said_with_a_vowel,
)
from engine.scopa.view import ScopaView

if TYPE_CHECKING:
    from bot.render.kit import Kit

__all__ = [
    "PICKS_CARDS",
    "announcement_message",
    "game_over_message",
    "hand_message",
    "move_label",
    "moves_line",
    "played_card",
    "summary_message",
    "table_message",
]

# Whether a hand's cards are picked one by one (``Message.pick_cards``):
# a button per card, or per capture.
PICKS_CARDS = False


def table_message(kit: Kit, e: TableView, t: gettext.NullTranslations) -> Message:
    """The public table of a Scopa-family game."""
    _ = t.gettext
    table, view = e.table, _view(e)
    lines = [kit.title(table, t) + " · " + _("hand {n}").format(n=view.smazzata)]
    lines.append(_("Table: {cards}").format(cards=cards_text(view.table)))
    lines.append(
        t.ngettext("Deck: {n} card", "Deck: {n} cards", view.deck_count).format(n=view.deck_count)
    )
    for seat in range(view.players):
        marker = "▶ " if view.current_player == seat else "  "
        lines.append(
            marker
            + _("{name}: {n} in hand").format(
                name=kit.seat_name(table, seat, t), n=view.hand_counts[seat]
            )
        )
    for i, side in enumerate(_sides(table, view)):
        lines.append(
            t.ngettext(
                "{side}: {points} point (taken {taken}, scope {scope})",
                "{side}: {points} points (taken {taken}, scope {scope})",
                abs(view.points[i]),  # -1 point, as 1 point
            ).format(
                side=kit.side_name(table, side, t),
                points=view.points[i],
                taken=view.captured_counts[i],
                scope=view.scope[i],
            )
        )
    if said_with_a_vowel(view.target):  # "Si gioca agli 11", "ai 21"
        # (the context a literal, so that pybabel extract keeps it)
        said = t.pgettext("a number said with a vowel", "Game to {target}.")
        lines.append(said.format(target=view.target))
    else:
        lines.append(_("Game to {target}.").format(target=view.target))
    if view.last_move is not None:
        seat, move = view.last_move
        lines.append(
            _("Last move: {name} {move}").format(
                name=kit.seat_name(table, seat, t), move=move_text(move)
            )
        )
    rows = kit.table_state(table, view.current_player, lines, t)
    return Message("\n".join(lines), tuple(rows))


def move_label(move: str, t: gettext.NullTranslations) -> str:
    """A move as buttons and lists write it: ``7♦ ➜ 3♣ 4♠`` (fuori adds ``!``)."""
    return move_text(move)


# The line above a list of the hand's moves: the table's cards; the card a move plays: its first.
moves_line = generic.moves_line
played_card = generic.played_card


def hand_message(kit: Kit, e: HandView, t: gettext.NullTranslations) -> Message:
    """A player's hand and the table; on their turn a button per card, or per capture of the
    card in focus (a card with several captures asks first: ``?<card>``)."""
    _ = t.gettext
    table, view = e.table, _view(e)
    lines = [kit.title(table, t)]
    lines.append(_("Your hand: {cards}").format(cards=cards_text(view.hand)))
    lines.append(_("Table: {cards}").format(cards=cards_text(view.table)))
    moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
    if not moves:
        return kit.waiting(table, view, lines, t)
    lines.append(_("Your turn: choose a move."))
    buttons: list[Button] = []
    if e.focus is not None:
        lines.append(_("Choose what {card} captures.").format(card=card_text(e.focus)))
        options = [m for m in moves if _played_card(m) == e.focus]
        buttons = [kit.button(table, move_text(m), m) for m in options]
        buttons.append(kit.button(table, _("« Back"), "@hand"))
    else:
        by_card: dict[str, list[str]] = {}
        for m in moves:
            by_card.setdefault(_played_card(m), []).append(m)
        for card, options in by_card.items():
            if len(options) == 1:
                buttons.append(kit.button(table, move_text(options[0]), options[0]))
            else:
                label = _("{card} (choose…)").format(card=card_text(card))
                buttons.append(kit.button(table, label, f"?{card}"))
    return Message("\n".join(lines), button_rows(buttons))


def summary_message(kit: Kit, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
    """The end of a smazzata: each side's points by name (cards, denari, settebello...)."""
    return generic.summary_message(kit, e, t)


def game_over_message(kit: Kit, e: GameOver, t: gettext.NullTranslations) -> Message:
    """The end of the game: the ranking by points."""
    return generic.game_over_message(kit, e, t)


def announcement_message(kit: Kit, e: Announcement, t: gettext.NullTranslations) -> Message | None:
    """A scopa, a fuori declared; ``None`` for a kind that is not Scopa's."""
    _ = t.gettext
    seat = e.data.get("seat")
    name = kit.seat_name(e.table, seat, t) if isinstance(seat, int) else ""
    if e.kind == "scopa":
        return Message(_("Scopa! {name}").format(name=name))
    if e.kind == "fuori":
        return Message(_("{name} declares fuori!").format(name=name))
    return None


def _view(e: TableView | HandView) -> ScopaView:
    """The event's view: a Scopa-family game's is the engine's ``ScopaView``."""
    if not isinstance(e.view, ScopaView):
        raise TypeError(f"a Scopa-family table needs a ScopaView, not {type(e.view).__name__}")
    return e.view


def _played_card(move: str) -> str:
    return move.rstrip("!").split(":", 1)[0]


def _sides(table: TableInfo, view: object) -> tuple[tuple[int, ...], ...]:
    """The view's sides (Scopone: the pairs), one seat a side otherwise."""
    sides = getattr(view, "sides", None)
    if sides:
        return tuple(tuple(s) for s in sides)
    return tuple((i,) for i in range(table.players))
