"""Scala 40 (Italian rummy, 2-6 players, two French decks with 4 jokers): docs/rules.md "Scala 40".

Glossary:

* **pozzo**: the discard pile; only its top card can be taken.
* **tallone**: the stock, face down.
* **tris** / **quartetto**: 3 / 4 cards of one rank in different suits.
* **scala**: 3 or more consecutive cards of one suit (A-2-3 or Q-K-A, never K-A-2).
* **jolly**: the joker; in a meld it stands for one card.
* **apertura**: the first melds a player lays, worth ``opening_points`` (40) or more.
* **attaccare**: to add a card to any meld on the table (after opening).
* **chiusura**: emptying the hand, which ends the hand; **chiusura in mano**: doing it in the same
  turn as opening.
* **mano**: one deal, played until someone closes; **cartaio**: the dealer.
* **sballare**: reaching the ``elimination`` score (101); **rientro**: re-entering after it.

Usage::

    from engine import scala40
    game = scala40.new_game(scala40.Rules(players=4, elimination=101), seed=3)
    scala40.Rules.options()     # each option: kind, allowed values, default, help
    game.legal_moves()          # [Move(...), ...]; str(move) is its short string
    game = game.play("t")       # a new Game; the old one is unchanged
    game.events                 # what the move did: (Drew(seat=..., source="tallone"),)

A turn goes ``Phase.DRAW`` -> ``Phase.MELD`` (open, meld, attach, swap as often as allowed) and
ends with a discard, or when the hand is emptied by melding. Between hands, with the ``reentry``
option, ``Phase.REENTRY`` asks each newly eliminated player; ``Phase.OVER`` ends the match.

Move strings (case-insensitive; cards as in ``engine.cards`` without deck marks, ``*`` = joker;
a meld is its cards written together in laid order: a scala ascending with each joker at the
position of the card it stands for, e.g. ``5D*7D`` or ``QDKD*``):

============================  ===================================================================
``t``                         draw from the tallone
``p``                         take the pozzo's top card: to lay it at once (opened players), to
                              open with it now, or while ``first_pile_card_free`` applies
``o 7D8D9D KCKSKD``           open: one or more melds, together worth ``opening_points``
``m 4C5C6C``                  lay one or more further melds (after opening)
``a3 TD`` / ``a3 *<``         attach a card to table meld 3 (melds are numbered from 1 in the
                              order laid, ``Game.melds[2]``); ``<`` the low end of a scala,
                              ``>`` the high end, none: where it fits (the high end if both)
``s3 7D``                     swap: put 7D, the exact card the joker of meld 3 stands for, in its
                              place and take the joker into the hand
``d QS``                      discard QS (ends the turn)
``in`` / ``out``              re-enter the match after elimination, or stay out (``reentry``)
============================  ===================================================================

The longest string is an opening of 14 cards in 4 melds: 2 + 28 + 3 = 33 bytes, well under a
Telegram button's 64. Moves name cards, not hand positions, so no index is needed; the hand is
shown in the sorted-hand order of ``sort_key`` (suits D, C, S, B; A..K within a suit; jokers
last).

``Game.legal_moves()`` lists: the draws; for a player who has not opened, the best opening by
points (``find_opening``), if any; for an opened player, every meld the hand can lay, every attach
(both ends listed when a card fits both), every joker swap; and every allowed discard. ``play()``
validates any well-formed move, listed or not, and refuses it with ``IllegalMove`` and a reason.

Engine choices where docs/rules.md and Regole Scala 40 are silent (each documented where
implemented):

* A meld holds at least two real cards (only matters with ``jokers_per_meld`` >= 2).
* A joker in a tris stands for its rank in any suit the tris lacks; it is swapped by such a card.
* ``dealer_fourteen``: no card is turned up; the dealer starts, without drawing.
* A player who cannot draw (tallone empty and the pozzo cannot be re-formed into one) plays the
  turn without drawing.
* ``discard_attachable = "forbidden"``: when every card held fits a meld, any card may go.
* docs/rules.md: "a player who takes it [the pozzo's card] must use it": the card taken from the
  pozzo is laid by the first move after the draw (the opening that uses it, a meld holding it,
  attaching it, or swapping it for a joker), so ``p`` is listed only when that is possible. The
  free first card (``first_pile_card_free``) need not be laid, only kept that turn.
* Regole Scala 40's ``discard_attachable = "allowed"`` rule: a card discarded while it fitted a
  table meld, taken by the next player, may go into a new meld that turn but not onto a table meld.
* A move that would leave in hand only a card that may not be discarded is refused.
* In the first round, when nobody may close, a player keeps at least two cards before the
  discard, so the turn can always end.
* Chiusura in mano (``close_in_hand``) is closing in the turn the player opened. Regole Scala 40
  also waives the 40 points for it ("non è necessario che la somma ... sia di 40 punti");
  docs/rules.md does not, so the opening still needs ``opening_points``.
* ``Rules.max_restocks`` (default 0 = off, the rules as written) is an optional safeguard, not a
  rule of docs/rules.md: a hand can deadlock (every meld on the table complete, no jokers allowed,
  players left with one card each), and with the option set the hand then ends, unclosed, when
  the tallone runs out once more than that many re-formings; everybody pays the cards held.
"""

from __future__ import annotations

from .game import SCHEMA, Game, HandResult, Outcome, Phase, TableMeld, new_game
from .melds import (
    MeldShape,
    analyze_meld,
    attach_options,
    can_attach,
    card_penalty,
    hand_penalty,
    meld_points,
    sort_cards,
    sort_key,
    swap_position,
)
from .moves import IllegalMove, Move, MoveKind, MoveParseError, parse_move
from .opening import Opening, best_opening, find_opening, hand_melds
from .rules import OPTIONS, Rules, RulesError
from .view import Scala40View

__all__ = [
    "OPTIONS",
    "SCHEMA",
    "Game",
    "HandResult",
    "IllegalMove",
    "MeldShape",
    "Move",
    "MoveKind",
    "MoveParseError",
    "Opening",
    "Outcome",
    "Phase",
    "Rules",
    "RulesError",
    "Scala40View",
    "TableMeld",
    "analyze_meld",
    "attach_options",
    "best_opening",
    "can_attach",
    "card_penalty",
    "find_opening",
    "hand_melds",
    "hand_penalty",
    "meld_points",
    "new_game",
    "parse_move",
    "sort_cards",
    "sort_key",
    "swap_position",
]
