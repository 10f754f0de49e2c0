"""The components of a rendered message: the renderer's button rows as persistent buttons, and a
hand's card picker (pick cards, see the moves that name them).

Picking is plain text matching of the cards' own strings in the move strings: the adapter knows no
rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from bot.discord.components import ActionButton, ButtonSpec, SelectSpec, build_view
from bot.discord.limits import MAX_ROW_BUTTONS, MAX_ROWS, MAX_SELECT_OPTIONS
from bot.domain import Action, Verb
from bot.render import QUIT, Message, card_text, move_text
from bot.service import HandView

# The adapter's own action on a hand: narrow the moves to those naming the chosen cards.
PICK_CARDS = "~pick"


def view_of(message: Message) -> discord.ui.View | None:
    """Persistent components for the renderer's button rows (already within 5 rows of 5; rows
    are re-laid out if a renderer ever sends more)."""
    rows = [row for row in message.buttons if row]
    if not rows:
        return None
    if len(rows) > MAX_ROWS or any(len(row) > MAX_ROW_BUTTONS for row in rows):
        flat = [b for row in rows for b in row][: MAX_ROWS * MAX_ROW_BUTTONS]
        rows = [tuple(flat[i : i + MAX_ROW_BUTTONS]) for i in range(0, len(flat), MAX_ROW_BUTTONS)]
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for button in row:
            action = Action.decode(button.data)
            style = discord.ButtonStyle.secondary
            if action.verb is Verb.MOVE:
                style = discord.ButtonStyle.primary
            view.add_item(ActionButton(action, label=button.label, style=style, row=index))
    return view


def hand_view(
    event: HandView,
    message: Message,
    *,
    picked: Sequence[str] = (),
    page: int = 0,
    label: Callable[[str], str] = move_text,
) -> discord.ui.View | None:
    """The components of a hand. When the renderer's hand message asks for it
    (``Message.pick_cards``: Scala 40), or when its 25 buttons could not hold every move, a
    multi-select of the hand's cards comes first; below it the renderer's buttons
    (Scala 40: draw, open, meld, attach, discard...), or, once cards are picked, the moves that
    name every picked card, labelled by ``label`` and paged if need be. Picking is plain text
    matching of the cards' own strings in the move strings: the adapter knows no rules."""
    if event.focus == QUIT:
        return view_of(message)  # "leave the game?": yes, or back
    moves = tuple(getattr(event.view, "legal_moves", ()) or ())
    # Move strings name cards without the deck mark (``7D'`` is the second deck's 7D).
    cards = list(dict.fromkeys(str(c).rstrip("'") for c in getattr(event.view, "hand", ())))
    shown = [button for row in message.buttons for button in row]
    if not moves or not cards:
        return view_of(message)
    truncated = len(shown) >= MAX_ROWS * MAX_ROW_BUTTONS and len(moves) > len(shown)
    if not message.pick_cards and not truncated:
        return view_of(message)
    picked = [c for c in picked if c in cards]
    if picked or truncated:
        wanted = [m for m in moves if all(c in m for c in picked)]
        buttons = [ButtonSpec(label(m), m, "primary") for m in wanted]
    else:
        buttons = []
        for button in shown:
            action = Action.decode(button.data)
            style = "primary" if action.verb is Verb.MOVE else "secondary"
            buttons.append(ButtonSpec(button.label, action.token, style))
    options = tuple((card_text(c), c) for c in cards[:MAX_SELECT_OPTIONS])
    return build_view(
        table_id=event.table.id,
        version=event.table.version,
        selects=[SelectSpec(PICK_CARDS, options, None, 1, len(options))],
        buttons=buttons,
        page=page,
    )
