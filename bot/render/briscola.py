"""Briscola and Briscola chiamata in words: the table, a hand with its buttons, the end of a deal,
the announcements of the auction; shared by every adapter through :class:`bot.render.Renderer`.

Glossary: **briscola** = the trump suit of a deal (and the face-up card under the stock that
shows it); **presa** = a trick; **carichi** = the loaded cards, Asso and 3; **asta** = the
chiamata auction; **chiamante** = its winner, who calls a card; **socio** = the holder of the
called card, the chiamante's secret partner; **cappotto** = all 120 points to one side.

Only what the engine's view shows is written: card points are never shown during a deal (the
view has none), and the socio is named only once the view names them.
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
from bot.domain.records import JSON
from bot.render.texts import N_, SUIT_SYMBOLS, Message, card_text, cards_text, sides_of
from engine.briscola.view import BriscolaView
from engine.cards import parse_card

if TYPE_CHECKING:
    from bot.render.images import BriscolaScene
    from bot.render.kit import Kit
    from engine.briscola.records import Trick

__all__ = [
    "PICKS_CARDS",
    "announcement_message",
    "briscola_move_text",
    "game_over_message",
    "hand_message",
    "move_label",
    "moves_line",
    "played_card",
    "summary_message",
    "table_message",
    "table_scene",
]

# Whether a hand's cards are picked one by one (``Message.pick_cards``):
# a button per card or word.
PICKS_CARDS = False

# Point bids offered as buttons: the lowest legal ones, then round figures (25 buttons at most).
FIRST_POINT_BIDS = 10
POINT_BID_STEP = 5
MAX_MOVE_BUTTONS = 24


# Rank names for the auction ("chiamo il tre"): A 3 K Q J as words, the rest as numbers; the
# Italian deck's suits (denari, coppe, spade, bastoni).
RANK_NAMES = {
    "A": N_("Ace"),
    "3": N_("Three"),
    "K": N_("King"),
    "Q": N_("Knight"),
    "J": N_("Jack"),
}
SUIT_NAMES = {"D": N_("Coins"), "C": N_("Cups"), "S": N_("Swords"), "B": N_("Clubs")}


def _view(e: TableView | HandView) -> BriscolaView:
    """The event's view: a Briscola or chiamata game's is the engine's ``BriscolaView``."""
    if not isinstance(e.view, BriscolaView):
        raise TypeError(f"a Briscola table needs a BriscolaView, not {type(e.view).__name__}")
    return e.view


def _sides(value: JSON) -> list[tuple[int, ...]]:
    """The seats of each side as a summary's data lists them (none when it does not)."""
    if not isinstance(value, list):
        return []
    return [
        tuple(seat for seat in side if isinstance(seat, int))
        for side in value
        if isinstance(side, list)
    ]


def _card(card: object) -> str:
    return card_text(card)


def _cards(cards: Sequence[object]) -> str:
    return cards_text(cards)


def _suit(suit: str | None, t: gettext.NullTranslations) -> str:
    if not suit:
        return "—"
    return f"{SUIT_SYMBOLS.get(suit, suit)} {t.gettext(SUIT_NAMES.get(suit, suit))}"


def rank_name(rank: str, t: gettext.NullTranslations) -> str:
    """A rank called in the auction: its name, with the letter the cards show for a figure or
    the ace (``Knight (Q)``, as the hand shows ``Q♠``)."""
    if rank not in RANK_NAMES:
        return rank
    word = t.gettext(RANK_NAMES[rank])
    return word if rank.isdigit() else f"{word} ({rank})"


def briscola_move_text(move: str, t: gettext.NullTranslations) -> str:
    """A move string in words: ``AS`` -> ``A♠``, ``swap``, ``pass``, ``3`` (a rank called),
    ``71`` (a point bid), ``call 3D``."""
    _ = t.gettext
    text = move.strip()
    lower = text.lower()
    if lower == "pass":
        return _("Pass")
    if lower == "swap":
        return _("Swap with the briscola")
    if lower.startswith("call "):
        return _("Call {card}").format(card=_card(text[5:].strip().upper()))
    if text.isdigit() and len(text) >= 2:
        return _("{points} points").format(points=int(text))
    if len(text) == 1:
        return rank_name(text.upper(), t)
    return _card(text.upper())


def _bid_text(bid: str, t: gettext.NullTranslations) -> str:
    if bid == "pass":
        return t.gettext("passes")
    return briscola_move_text(bid, t)


def _side_label(
    kit: Kit, table: TableInfo, view: BriscolaView, side: int, t: gettext.NullTranslations
) -> str:
    return kit.side_name(table, view.sides[side], t)


def _score_unit(view: BriscolaView, count: int, t: gettext.NullTranslations) -> str:
    if view.variant == "chiamata" or view.rules.deal_scoring == "points":
        return t.ngettext("{n} point", "{n} points", abs(count)).format(n=count)
    return t.ngettext("{n} game", "{n} games", count).format(n=count)


def _contract_lines(
    kit: Kit, table: TableInfo, view: BriscolaView, t: gettext.NullTranslations
) -> list[str]:
    """Chiamata: the auction so far, or the call and what the caller's side needs."""
    _ = t.gettext
    lines: list[str] = []
    if view.phase in ("auction", "call") and view.auction:
        bids = ", ".join(
            f"{kit.seat_name(table, seat, t)} {_bid_text(bid, t)}" for seat, bid in view.auction
        )
        lines.append(_("Auction: {bids}").format(bids=bids))
    if view.phase == "call" and view.high_bidder is not None:
        lines.append(
            _("{name} won the auction and names the card.").format(
                name=kit.seat_name(table, view.high_bidder, t)
            )
        )
    if view.caller is not None and view.called is not None:
        lines.append(
            _("Chiamante: {name}, who called {card} (briscola {suit}); needs {points}.").format(
                name=kit.seat_name(table, view.caller, t),
                card=_card(view.called),
                suit=_suit(view.briscola_suit, t),
                points=view.threshold,
            )
        )
        if view.socio_revealed and view.socio is not None:
            if view.socio == view.caller:
                lines.append(_("The chiamante plays alone, one against four."))
            else:
                lines.append(_("Socio: {name}.").format(name=kit.seat_name(table, view.socio, t)))
        else:
            lines.append(_("Socio: still secret."))
    return lines


def _trick_text(kit: Kit, table: TableInfo, view: BriscolaView, t: gettext.NullTranslations) -> str:
    plays: str = " · ".join(
        f"{kit.seat_name(table, seat, t)} {_card(card)}" for seat, card in view.trick
    )
    return t.gettext("On the table: {cards}").format(cards=plays or "—")


def _last_trick(view: BriscolaView) -> Trick | None:
    """The trick taken last, while the next is not led yet, and only within its own deal: at the
    start of a new deal its cards are in the new hands (the deal's summary said how it ended)."""
    if view.trick or not view.tricks or view.last_trick is None:
        return None
    return view.last_trick


def _last_trick_text(
    kit: Kit, table: TableInfo, view: BriscolaView, t: gettext.NullTranslations
) -> str | None:
    last = _last_trick(view)
    if last is None:
        return None
    return t.gettext("Last trick: {name} took {cards}").format(
        name=kit.seat_name(table, last.winner, t), cards=_cards(last.cards)
    )


def _briscola_line(view: BriscolaView, t: gettext.NullTranslations) -> str | None:
    _ = t.gettext
    if view.variant == "chiamata":
        return None
    if view.briscola is not None:
        return _("Briscola: {card} · stock: {n} cards").format(
            card=_card(view.briscola), n=view.stock_count
        )
    return _("Briscola: {suit} · the stock is finished").format(suit=_suit(view.briscola_suit, t))


def table_message(kit: Kit, e: TableView, t: gettext.NullTranslations) -> Message:
    """The public table of a Briscola or chiamata game."""
    _ = t.gettext
    table, view = e.table, _view(e)
    head = kit.title(table, t)
    if view.variant == "chiamata":
        head += " · " + _("deal {n} of {deals}").format(n=view.deal_number, deals=view.deals)
    else:
        head += " · " + _("deal {n}").format(n=view.deal_number)
    lines = [head]
    briscola = _briscola_line(view, t)
    if briscola:
        lines.append(briscola)
    lines.extend(_contract_lines(kit, table, view, t))
    if view.phase == "play" or view.trick:
        lines.append(_trick_text(kit, table, view, t))
    last = _last_trick_text(kit, table, view, t)
    if last:
        lines.append(last)
    for seat in range(view.players):
        marker = "▶ " if view.current_player == seat else "  "
        note = ""
        if view.dealer == seat:
            note = " · " + _("dealer")
        lines.append(
            marker
            + _("{name}: {n} in hand").format(
                name=kit.seat_name(table, seat, t), n=view.hand_counts[seat]
            )
            + note
        )
    for side, _seats in enumerate(view.sides):
        if view.variant == "chiamata":
            # Chiamata's scores are the match's (+2, -1...), not card points.
            lines.append(
                _("{side}: {tricks} this deal · match score {score}").format(
                    side=_side_label(kit, table, view, side, t),
                    tricks=t.ngettext("{n} trick", "{n} tricks", view.side_tricks[side]).format(
                        n=view.side_tricks[side]
                    ),
                    score=view.scores[side],
                )
            )
            continue
        lines.append(
            _("{side}: {tricks} · {score}").format(
                side=_side_label(kit, table, view, side, t),
                tricks=t.ngettext("{n} trick", "{n} tricks", view.side_tricks[side]).format(
                    n=view.side_tricks[side]
                ),
                score=_score_unit(view, view.scores[side], t),
            )
        )
    if view.variant == "chiamata":
        lines.append(
            t.ngettext("Match of {n} deal.", "Match of {n} deals.", view.deals).format(n=view.deals)
        )
    else:
        lines.append(_("Match to {target}.").format(target=_score_unit(view, view.target, t)))
    rows = kit.table_state(table, view.current_player, lines, t)
    return Message("\n".join(lines), tuple(rows))


def move_label(move: str, t: gettext.NullTranslations) -> str:
    """A move as buttons and lists write it: a card, or the swap, a bid, the call in words."""
    return briscola_move_text(move, t)


def moves_line(view: object, t: gettext.NullTranslations) -> str:
    """The line above a list of the hand's moves: the cards of the trick in play."""
    _ = t.gettext
    trick = [card for _seat, card in getattr(view, "trick", ())]
    return _("Table: {cards}").format(cards=cards_text(trick))


def played_card(move: str) -> str | None:
    """The card a move plays; None for the swap, a bid, the call (words)."""
    played = move.rstrip("!").split(":", 1)[0]
    try:
        parse_card(played)
    except ValueError:
        return None
    return played


def hand_message(kit: Kit, e: HandView, t: gettext.NullTranslations) -> Message:
    """A player's hand: their cards, the briscola, the trick; on their turn a button per legal
    move (in the auction only the legal bids, a selection of them when the point bids are many;
    then the call, one button per suit)."""
    _ = t.gettext
    table, view = e.table, _view(e)
    lines = [kit.title(table, t)]
    lines.append(_("Your hand: {cards}").format(cards=_cards(view.hand)))
    briscola = _briscola_line(view, t)
    if briscola:
        lines.append(briscola)
    lines.extend(_contract_lines(kit, table, view, t))
    if view.variant == "chiamata" and view.socio == view.seat and not view.socio_revealed:
        if view.caller == view.seat:
            lines.append(_("You called your own card: you play alone (the others do not know)."))
        else:
            lines.append(_("You hold the called card: you are the socio (keep it secret)."))
    if view.phase == "play" or view.trick:
        lines.append(_trick_text(kit, table, view, t))
    moves: Sequence[str] = tuple(view.legal_moves or ())
    if not moves:
        return kit.waiting(table, view, lines, t)
    if view.phase == "auction":
        lines.append(_("Your turn in the auction: call a lower rank, bid points, or pass."))
    elif view.phase == "call":
        lines.append(
            _("You won the auction: name the suit of the {rank}.").format(
                rank=rank_name(view.bid_rank or "", t)
            )
        )
    else:
        lines.append(_("Your turn: play a card."))
    offered = offered_moves(moves)
    buttons = [kit.button(table, _hand_label(view, m, t), m) for m in offered]
    per_row = 5 if view.phase == "auction" else 4
    rows = tuple(tuple(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row))
    return Message("\n".join(lines), rows)


def _hand_label(view: BriscolaView, move: str, t: gettext.NullTranslations) -> str:
    """A hand's button: the scambio names the two cards it exchanges."""
    if move == "swap" and view.briscola is not None:
        rank = {"two": "2", "seven": "7"}.get(view.rules.swap)
        mine = [c for c in view.hand if c.rank == rank and c.suit == view.briscola_suit]
        if mine:
            return t.gettext("Swap {card} for {briscola}").format(
                card=_card(mine[0]), briscola=_card(view.briscola)
            )
    return briscola_move_text(move, t)


def offered_moves(moves: Sequence[str]) -> list[str]:
    """The moves a hand offers as buttons: every legal move, except that of many point bids
    only the lowest ones and round figures are offered (all of them legal); "pass" last."""
    points = [m for m in moves if m.isdigit() and len(m) >= 2]
    others = [m for m in moves if m not in points and m != "pass"]
    chosen = list(others)
    if points:
        values = sorted(int(m) for m in points)
        low = values[0]
        keep = [v for v in values if v < low + FIRST_POINT_BIDS or v % POINT_BID_STEP == 0]
        chosen.extend(str(v) for v in keep)
    chosen = chosen[: MAX_MOVE_BUTTONS - (1 if "pass" in moves else 0)]
    if "pass" in moves:
        chosen.append("pass")
    return chosen


def summary_message(kit: Kit, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
    """The end of a deal: card points (shown only now), who won it, the match scores."""
    _ = t.gettext
    table, data = e.table, e.data
    sides = _sides(data.get("sides")) or sides_of(table, len(e.points))
    lines = [_("End of deal {n}").format(n=e.number)]
    caller = data.get("caller")
    if isinstance(caller, int):
        socio = data.get("socio")
        called = data.get("called")
        who = kit.seat_name(table, caller, t)
        if socio == caller:
            lines.append(_("{name} played alone.").format(name=who))
        elif isinstance(socio, int):
            lines.append(
                _("Chiamante {name}, socio {socio}, with {card}.").format(
                    name=who, socio=kit.seat_name(table, socio, t), card=_card(called)
                )
            )
        won = _("won") if data.get("won") else _("lost")
        lines.append(
            _("The chiamante's side took {points} of {threshold} needed: {result}.").format(
                points=data.get("caller_points"), threshold=data.get("threshold"), result=won
            )
        )
        if data.get("cappotto"):
            lines.append(_("Cappotto! Every score is doubled."))
    winner = data.get("winner")
    for i, score in enumerate(e.scores):
        side = kit.side_name(table, sides[i], t)
        lines.append(
            _("{side}: {points} card points, {delta:+d} · total {total}").format(
                side=side,
                points=score.get("card_points", 0),
                delta=score.get("score", 0),
                total=e.points[i] if i < len(e.points) else 0,
            )
        )
    if caller is None:
        if isinstance(winner, int) and winner < len(sides):
            lines.append(
                _("{side} won the deal.").format(side=kit.side_name(table, sides[winner], t))
            )
        else:
            lines.append(_("A draw: nobody scores."))
    return Message("\n".join(lines))


def announcement_message(kit: Kit, e: Announcement, t: gettext.NullTranslations) -> Message | None:
    """The chiamata's announcements: the call, the socio revealed, a hand dealt again; the
    scambio. ``None`` for a kind that is not Briscola's."""
    _ = t.gettext
    table, data = e.table, e.data
    seat = data.get("seat")
    name = kit.seat_name(table, seat, t) if isinstance(seat, int) else ""
    if e.kind == "called":
        text = _("{name} calls {card}: briscola {suit}, {points} to win.").format(
            name=name,
            card=_card(data.get("card", "")),
            suit=_suit(str(data.get("suit", "")), t),
            points=data.get("threshold"),
        )
        return Message(text)
    if e.kind == "socio":
        if data.get("alone"):
            return Message(
                _("{name} played the called card: alone against four!").format(name=name)
            )
        return Message(_("{name} played the called card: the socio is revealed!").format(name=name))
    if e.kind == "redeal":
        return Message(_("Everybody passed: the cards are dealt again."))
    if e.kind == "swap":
        return Message(
            _("{name} swaps {card} for the briscola {took}.").format(
                name=name, card=_card(data.get("card", "")), took=_card(data.get("took", ""))
            )
        )
    return None


def table_scene(kit: Kit, e: TableView) -> BriscolaScene:
    """The public table as a picture (``bot.render.images.BriscolaScene``): the trick with who
    played each card, the stock with the face-up briscola under it (chiamata: the called card),
    and per seat the cards in hand, the tricks of their side and the match score."""
    from bot.render.images import BriscolaScene, SeatInfo

    t = kit.translations(e.locale)
    _ = t.gettext
    table, view = e.table, _view(e)
    side_of = {seat: side for side, seats in enumerate(view.sides) for seat in seats}
    seats = []
    for seat in range(view.players):
        notes = []
        if view.dealer == seat:
            notes.append(_("dealer"))
        if view.caller == seat:
            notes.append(_("chiamante"))
        if view.socio_revealed and view.socio == seat and view.socio != view.caller:
            notes.append(_("socio"))
        seats.append(
            SeatInfo(
                kit.seat_name(table, seat, t),
                cards=view.hand_counts[seat],
                captured=view.side_tricks[side_of[seat]],
                score=view.scores[side_of[seat]],
                to_move=view.current_player == seat,
                note=", ".join(notes),
            )
        )
    footer = ""
    last = _last_trick(view)
    if last is not None:
        footer = _("Last trick: {name} took {cards}").format(
            name=kit.seat_name(table, last.winner, t), cards=cards_text(last.cards)
        )
    elif view.last_move is not None and not view.trick:
        seat, move = view.last_move
        footer = f"{kit.seat_name(table, seat, t)}: {briscola_move_text(move, t)}"
    title = kit.title(table, t)
    if view.variant == "chiamata":
        title += " · " + _("deal {n} of {deals}").format(n=view.deal_number, deals=view.deals)
    else:
        title += " · " + _("deal {n}").format(n=view.deal_number)
    chiamata = view.variant == "chiamata"
    return BriscolaScene(
        title=title,
        seats=tuple(seats),
        table=tuple(card for _seat, card in view.trick),
        trick_names=tuple(kit.seat_name(table, seat, t) for seat, _card in view.trick),
        stock=None if chiamata else view.stock_count,
        briscola=view.briscola,
        briscola_suit=view.briscola_suit,
        called=view.called,
        briscola_label="" if chiamata else _("Briscola"),
        called_label=_("Called") if view.called is not None else "",
        footer=footer,
    )


def game_over_message(kit: Kit, e: GameOver, t: gettext.NullTranslations) -> Message:
    """The end of the match: each side's place and score, in games or points as the table
    counts them, and the rating changes."""
    _ = t.gettext
    table = e.table
    sides = sides_of(table, len(e.ranks))
    in_points = table.family == "chiamata" or table.options.get("deal_scoring") == "points"
    lines = [_("{table}: game over!").format(table=kit.title(table, t))]
    for i in sorted(range(len(e.ranks)), key=lambda i: (e.ranks[i], i)):
        count = e.points[i]
        score = (
            t.ngettext("{n} point", "{n} points", abs(count))
            if in_points
            else t.ngettext("{n} game", "{n} games", count)
        ).format(n=count)
        lines.append(
            _("{rank}. {side}: {score}").format(
                rank=e.ranks[i] + 1, side=kit.side_name(table, sides[i], t), score=score
            )
        )
    for d in e.ratings:
        lines.append(
            _("{name}: rating {before:.1f} → {after:.1f}").format(
                name=d.name, before=d.before, after=d.after
            )
        )
    rematch = kit.button(table, _("Rematch"), "@rematch")
    return Message("\n".join(lines), ((rematch,),))
