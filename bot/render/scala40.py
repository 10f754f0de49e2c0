"""Scala 40 in words: the table (pile, stock, melds, scores), a hand with its buttons (by kind
of move, or by tapping cards), the end of a hand; shared by every adapter through
:class:`bot.render.Renderer`.

Glossary: **scala** = a run of one suit; **pozzo** = the discard pile; **apertura** = the first
melds of a player, worth at least 40; **chiusura** = going out; **in mano** = going out in one
turn, never having opened before.

Card selection: a hand rendered with ``focus="#<hex mask>"`` shows a button per card (tapping
toggles it) and the moves the selected cards make (``selection_of`` reads the mask).
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
    MAX_PER_ROW,
    MAX_ROWS,
    N_,
    Button,
    Message,
    button_rows,
    card_text,
    cards_text,
)
from engine.scala40.view import Scala40View

if TYPE_CHECKING:
    from bot.render.kit import Kit

__all__ = [
    "PICKS_CARDS",
    "SCALA40_KINDS",
    "SELECT",
    "announcement_message",
    "game_over_message",
    "hand_message",
    "move_label",
    "moves_line",
    "played_card",
    "scala40_move_text",
    "selection_of",
    "summary_message",
    "table_message",
]

# Whether a hand's cards are picked one by one (``Message.pick_cards``):
# melds of several cards: the adapters add a card picker.
PICKS_CARDS = True


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


# A move told as a sentence ("Last move: Eva draws from the stock"), per kind.
SCALA40_DONE = {
    "t": N_("{name} draws from the stock"),
    "p": N_("{name} takes the discard"),
    "o": N_("{name} opens: {cards}"),
    "m": N_("{name} lays a meld: {cards}"),
    "a": N_("{name} attaches {cards} to meld {meld}"),
    "s": N_("{name} puts {cards} in place of the joker of meld {meld}"),
    "d": N_("{name} discards {cards}"),
    "in": N_("{name} re-enters"),
    "out": N_("{name} stays out"),
}


def scala40_move_sentence(name: str, move: str, t: gettext.NullTranslations) -> str:
    """``Eva``, ``d 7D`` -> ``Eva discards 7♦`` (a move told in a sentence, in the table's
    line of the last move)."""
    parts = move.split()
    kind = _scala40_kind(move)
    template = SCALA40_DONE.get(kind)
    if template is None:  # not a known kind: its label, as in the lists
        return f"{name}: {scala40_move_text(move, t)}"
    cards = " ".join(_meld_text(p) for p in parts[1:])
    meld = parts[0][1:] if kind in ("a", "s") else ""
    return t.gettext(template).format(name=name, cards=cards, meld=meld)


# A Scala 40 hand's focus starting with this is a card selection: a hex bit mask over the hand.
SELECT = "#"


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


def plain_card(card: object) -> str:
    """A card as move strings name it (no deck mark)."""
    return str(card).rstrip("'")


def move_cards(move: str) -> list[str]:
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


def table_message(kit: Kit, e: TableView, t: gettext.NullTranslations) -> Message:
    """The public table of a Scala 40 game."""
    _ = t.gettext
    table, view = e.table, _view(e)
    lines = [kit.title(table, t) + " · " + _("hand {n}").format(n=view.hand_number)]
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
                abs(view.scores[seat]),
            ).format(
                name=kit.seat_name(table, seat, t),
                n=view.hand_counts[seat],
                score=view.scores[seat],
            )
            + (f" ({', '.join(state)})" if state else "")
        )
    lines.append(_("Out at {limit} points.").format(limit=view.elimination))
    if view.last_move is not None:
        seat, move = view.last_move
        said = scala40_move_sentence(kit.seat_name(table, seat, t), move, t)
        lines.append(_("Last move: {move}").format(move=said))
    rows = kit.table_state(table, view.current_player, lines, t)
    return Message("\n".join(lines), tuple(rows))


def move_label(move: str, t: gettext.NullTranslations) -> str:
    """A move as buttons and lists write it: a draw, a meld, a lay-off, a discard in words."""
    return scala40_move_text(move, t)


def moves_line(view: object, t: gettext.NullTranslations) -> str:
    """The line above a list of the hand's moves (the player's own, e.g. Telegram's personal
    inline results): the top of the discard pile, and the card just drawn from the tallone."""
    _ = t.gettext
    pile_top = getattr(view, "pile_top")  # noqa: B009 (a Scala40View's; AttributeError for another)
    top = card_text(pile_top) if pile_top is not None else "—"
    line = _("Pile: {card}").format(card=top)
    drawn = getattr(view, "drawn", None)
    if drawn is not None:
        line += " · " + _("You drew {card}.").format(card=card_text(drawn))
    return line


def played_card(move: str) -> str | None:
    """None: Scala 40's moves are chosen from the private hand's menu, no card stands for one."""
    return None


def hand_message(kit: Kit, e: HandView, t: gettext.NullTranslations) -> Message:
    """A player's hand (with the card just drawn from the tallone, on their turn), the pile and
    the melds; on their turn a button per kind of move, or the cards to tap when the focus is a
    selection."""
    _ = t.gettext
    table, view = e.table, _view(e)
    lines = [kit.title(table, t)]
    lines.append(_("Your hand: {cards}").format(cards=cards_text(view.hand)))
    if view.drawn is not None:
        # The hand is shown sorted: this says which card came from the tallone (the player's
        # own view alone carries it, and only on their turn).
        lines.append(_("You drew {card}.").format(card=card_text(view.drawn)))
    top = card_text(view.pile_top) if view.pile_top is not None else "—"
    lines.append(_("Pile: {card}").format(card=top))
    for i, meld in enumerate(view.melds, start=1):
        lines.append(f"  {i}. {cards_text(meld.cards)}")
    moves: Sequence[str] = tuple(getattr(view, "legal_moves", ()) or ())
    if not moves:
        return kit.waiting(table, view, lines, t)
    lines.append(_("Your turn: choose a move."))
    if e.focus is not None and e.focus.startswith(SELECT):
        hand = [plain_card(c) for c in view.hand]
        selected = selection_of(e.focus, len(hand))
        if selected:
            picked = " ".join(card_text(hand[i]) for i in sorted(selected))
            lines.append(_("Selected: {cards}").format(cards=picked))
        rows = _selection(kit, table, moves, hand, selected, t)
        return Message("\n".join(lines), rows, pick_cards=PICKS_CARDS)
    buttons = button_rows(_buttons(kit, table, moves, e.focus, t))
    return Message("\n".join(lines), buttons, pick_cards=PICKS_CARDS)


def _buttons(
    kit: Kit,
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
        buttons = [kit.button(table, scala40_move_text(m, t), m) for m in options]
        buttons.append(kit.button(table, t.gettext("« Back"), "@hand"))
        return buttons
    buttons = []
    for kind, options in by_kind.items():
        if len(options) == 1:
            buttons.append(kit.button(table, scala40_move_text(options[0], t), options[0]))
        else:
            label = t.gettext(SCALA40_KINDS.get(kind, kind))
            buttons.append(kit.button(table, f"{label}…", f"?{kind}"))
    return buttons


def _selection(
    kit: Kit,
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
            actions.append(kit.button(table, scala40_move_text(m, t), m))
    for m in by_kind.get("o", ())[:1]:
        actions.append(kit.button(table, scala40_move_text(m, t), m))
    playing = any(k in by_kind for k in ("o", "m", "a", "s", "d"))
    card_rows: list[tuple[Button, ...]] = []
    if playing:
        mask = sum(1 << i for i in selected)
        cards = [
            kit.button(
                table,
                ("✓ " if i in selected else "") + card_text(card),
                f"?{SELECT}{mask ^ (1 << i):x}",
            )
            for i, card in enumerate(hand[: MAX_ROWS * MAX_PER_ROW])
        ]
        card_rows = [tuple(cards[i : i + MAX_PER_ROW]) for i in range(0, len(cards), MAX_PER_ROW)]
    if selected:
        chosen = sorted(hand[i] for i in selected)
        for kind in ("o", "m", "a", "s", "d"):
            for m in by_kind.get(kind, ()):
                if sorted(move_cards(m)) == chosen and m not in (b.data for b in actions):
                    actions.append(kit.button(table, scala40_move_text(m, t), m))
        actions.append(kit.button(table, _("Clear"), f"?{SELECT}0"))
    room = MAX_ROWS - len(card_rows)
    actions = actions[: max(room, 0) * MAX_PER_ROW]
    action_rows = [tuple(actions[i : i + MAX_PER_ROW]) for i in range(0, len(actions), MAX_PER_ROW)]
    return tuple(card_rows + action_rows)


def summary_message(kit: Kit, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
    """The end of a hand: who closed it (in hand?), each seat's penalty and total, who is out."""
    _ = t.gettext
    table = e.table
    closer = e.data.get("closer")
    text = (
        _("Hand {n} closed by {name}.")
        if not e.data.get("in_hand")
        else _("Hand {n} closed in hand by {name}!")
    )
    closer_seat = closer if isinstance(closer, int) else None
    lines = [text.format(n=e.number, name=kit.seat_name(table, closer_seat, t))]
    for seat, score in enumerate(e.scores):
        lines.append(
            _("{name}: +{penalty}, total {points}").format(
                name=kit.seat_name(table, seat, t),
                penalty=score.get("penalty", 0),
                points=e.points[seat] if seat < len(e.points) else 0,
            )
        )
    eliminated = e.data.get("eliminated")
    for out in eliminated if isinstance(eliminated, list) else ():
        if isinstance(out, int):
            lines.append(_("{name} is out.").format(name=kit.seat_name(table, out, t)))
    return Message("\n".join(lines))


def _view(e: TableView | HandView) -> Scala40View:
    """The event's view: a Scala 40 game's is the engine's ``Scala40View``."""
    if not isinstance(e.view, Scala40View):
        raise TypeError(f"a Scala 40 table needs a Scala40View, not {type(e.view).__name__}")
    return e.view


def game_over_message(kit: Kit, e: GameOver, t: gettext.NullTranslations) -> Message:
    """The end of the game: the ranking by score (as every game without its own)."""
    return generic.game_over_message(kit, e, t)


def announcement_message(kit: Kit, e: Announcement, t: gettext.NullTranslations) -> Message | None:
    """Scala 40 has no announcement of its own (a closed hand comes as its summary)."""
    return None
