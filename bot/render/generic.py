"""Games without a dedicated layout in words (the public view's fields, a button per legal
move), and the pieces the families share: the end of a deal as points by name, the end of the
game as a ranking; shared by every adapter through :class:`bot.render.Renderer`.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.domain.events import Announcement, GameOver, HandView, SmazzataSummary, TableView
from bot.render.texts import (
    POINT_NAMES,
    Message,
    button_rows,
    cards_text,
    fields_text,
    move_text,
    sides_of,
)

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
# a button per move.
PICKS_CARDS = False

# A view's fields that are not public or not for reading.
_SKIP = frozenset({"seat", "hand", "legal_moves", "history"})


def table_message(kit: Kit, e: TableView, t: gettext.NullTranslations) -> Message:
    """The public view's fields, cards with symbols."""
    table, view = e.table, e.view
    lines = [kit.title(table, t)]
    lines.extend(fields_text(view, skip=_SKIP))
    rows = kit.table_state(table, getattr(view, "current_player", None), lines, t)
    return Message("\n".join(lines), tuple(rows))


def move_label(move: str, t: gettext.NullTranslations) -> str:
    """A move as buttons and lists write it: its cards (a card, and what it takes)."""
    return move_text(move)


def moves_line(view: object, t: gettext.NullTranslations) -> str:
    """The line above a list of the hand's moves (Telegram's inline answers): the table."""
    _ = t.gettext
    return _("Table: {cards}").format(cards=cards_text(getattr(view, "table", ())))


def played_card(move: str) -> str | None:
    """The card a move plays, when it plays one (its picture may stand for the move)."""
    return move.rstrip("!").split(":", 1)[0]


def hand_message(kit: Kit, e: HandView, t: gettext.NullTranslations) -> Message:
    """A player's hand and the view's fields; on their turn a button per legal move."""
    _ = t.gettext
    table, view = e.table, e.view
    lines = [kit.title(table, t)]
    lines.append(_("Your hand: {cards}").format(cards=cards_text(view.hand)))
    lines.extend(fields_text(view, skip=_SKIP))
    moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
    if not moves:
        return kit.waiting(table, view, lines, t)
    lines.append(_("Your turn: choose a move."))
    buttons = [kit.button(table, move_text(m), m) for m in moves]
    return Message("\n".join(lines), button_rows(buttons))


def summary_message(kit: Kit, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
    """The end of a deal: each side's points by name (Scopa's: cards, denari...) and the score."""
    _ = t.gettext
    table = e.table
    lines = [_("End of hand {n}").format(n=e.number)]
    sides = sides_of(table, len(e.scores))
    rest = e.data.get("rest")
    side = rest.get("side") if isinstance(rest, dict) else None
    if (
        isinstance(rest, dict)
        and rest.get("cards")
        and isinstance(side, int)
        and 0 <= side < len(sides)
    ):
        # Scopa: the cards left on the table go to the side that took last (not named: the
        # table showed them, and the next deal may put them in a hand).
        lines.append(
            _("The cards left on the table go to {side}.").format(
                side=kit.side_name(table, sides[side], t),
            )
        )
    for i, score in enumerate(e.scores):
        parts = [f"{_(POINT_NAMES.get(k, k))} {v}" for k, v in score.items() if k != "total" and v]
        total = score.get("total", sum(v for k, v in score.items() if k != "total"))
        lines.append(
            _("{side}: +{total} ({parts})").format(
                side=kit.side_name(table, sides[i], t),
                total=total,
                parts=", ".join(parts) or "—",
            )
        )
    lines.append(
        _("Score: {points}").format(
            points=" – ".join(
                f"{kit.side_name(table, sides[i], t)} {p}" for i, p in enumerate(e.points)
            )
        )
    )
    return Message("\n".join(lines))


def game_over_message(kit: Kit, e: GameOver, t: gettext.NullTranslations) -> Message:
    """The end of the game: each side's place and points, a double or triple win, the rating
    changes, and "Rematch"."""
    _ = t.gettext
    table = e.table
    sides = sides_of(table, len(e.ranks))
    lines = [_("{table}: game over!").format(table=kit.title(table, t))]
    for i in sorted(range(len(e.ranks)), key=lambda i: (e.ranks[i], i)):
        lines.append(
            t.ngettext(
                "{rank}. {side}: {points} point",
                "{rank}. {side}: {points} points",
                abs(e.points[i]),  # -1 point, as 1 point
            ).format(
                rank=e.ranks[i] + 1, side=kit.side_name(table, sides[i], t), points=e.points[i]
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
    rematch = kit.button(table, _("Rematch"), "@rematch")
    return Message("\n".join(lines), ((rematch,),))


def announcement_message(kit: Kit, e: Announcement, t: gettext.NullTranslations) -> Message | None:
    """No announcement of its own."""
    return None
