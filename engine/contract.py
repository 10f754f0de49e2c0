"""The engine contract: what every game kind's module and its games provide to the rest of Tavolo.

A game kind is a module of ``engine`` (``engine.scopa``, ``engine.scala40``...) that the service
registers by import (``bot/service/games.py``). These :class:`typing.Protocol` classes say what
the service, the renderer, the archive and the tests may rely on; the modules implement them
structurally (nothing to inherit), and mypy checks the registration::

    from engine import contract, scopa
    module: contract.GameModule = scopa           # a type error if scopa breaks the contract
    rules = scopa.Rules.from_dict({"players": 2})   # RulesError (a ValueError) names a bad option
    game = scopa.new_game(rules, seed=7)            # the same seed and moves give the same game
    while not game.is_over:
        game = game.play(str(game.legal_moves()[0]))  # a new state; the old one is unchanged
    game.outcome()                                  # None until the game is over

What a game kind guarantees (``tests/engine/test_contract.py`` checks every registered kind):

* **Rules** are a frozen value: ``Rules.from_dict(rules.to_dict()) == rules``; an unknown option
  or a bad value raises a ``ValueError`` (``engine.errors.RuleText``) naming what is allowed.
  ``Rules.options()`` describes every option ``from_dict`` accepts (:class:`GameOption`, e.g.
  ``engine.options.Option``): its kind, allowed values, the default of ``Rules()``, and a short
  English help text, so menus and ``/rules`` are generated from the engine.
* **Moves** are short strings (``str(move)`` of every legal move; at most 64 bytes with the
  table's prefix, so they fit Telegram's callback data): ``play(str(m))`` accepts each of
  ``legal_moves()``; a string that cannot be read raises one ``ValueError`` subclass, a move that
  is not allowed now another, both with a reason a player can read.
* **Turns**: ``current_player`` is the seat to move, ``None`` once ``is_over``; ``outcome()`` is
  ``None`` until then, and then gives ``winner``, ``ranks`` and ``points`` per side (a player,
  or a pair) and the result's ``multiplier``. ``sides`` lists the seats of each side;
  ``points(side)`` is a side's score so far.
* **Views**: ``view(seat)`` is what that seat may see (its own hand, the legal moves on its turn,
  what it alone learnt in its turn, e.g. Scala 40's card drawn from the stock, and everything
  public); ``view(None)`` is the public view, with no hand at all. A view never holds a card of
  another seat's hand.
* **Events**: ``events`` are what the move that made a state did, in order (for a new game:
  its first deal), as values of the common shape :class:`GameEvent` (``engine.events.Event``
  in Scopa and Scala 40): captures, scope, fuori, draws, melds, discards, a deal or hand scored,
  the game over. Every event is public, so the service may announce any of them to the table. A
  state restored by ``from_dict`` may have none: an engine need not save them.
* **Saving**: ``to_dict()`` is JSON-safe and holds everything (hidden cards too: for storage,
  never for players); ``Game.from_dict(game.to_dict())`` is the same game, and a bad document
  raises ``ValueError``.
* **Purity**: no I/O, no clock, no global random; the seed is the only randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = [
    "GameClass",
    "GameEvent",
    "GameModule",
    "GameOption",
    "GameOutcome",
    "GameRules",
    "GameState",
    "GameView",
    "RulesClass",
]


class GameRules(Protocol):
    """A game kind's ``Rules``: the options a table is played with, a frozen value."""

    @property
    def players(self) -> int:
        """How many seats the table has."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Every option, defaults included, JSON-safe; ``Rules.from_dict`` reads it back."""
        ...


class GameOption(Protocol):
    """One rule option described for menus (``engine.options.Option`` is the engines' own)."""

    @property
    def name(self) -> str:
        """The option's name in ``Rules.from_dict`` (and after ``name=`` in a command)."""
        ...

    @property
    def kind(self) -> str:
        """``"choice"`` (one of ``choices``), ``"int"`` (``low`` to ``high``) or ``"bool"``."""
        ...

    @property
    def default(self) -> object:
        """The value ``Rules()`` has."""
        ...

    @property
    def choices(self) -> tuple[object, ...]: ...

    @property
    def low(self) -> int | None: ...

    @property
    def high(self) -> int | None: ...

    @property
    def help(self) -> str:
        """One short English sentence for players; also the message id of its translations."""
        ...


class RulesClass(Protocol):
    """The ``Rules`` class of a game kind (its class methods)."""

    def from_dict(self, data: Mapping[str, Any], /) -> GameRules:
        """Rules from a mapping of option names; an unknown option or a bad value raises a
        ``ValueError`` naming what is allowed."""
        ...

    def options(self) -> Sequence[GameOption]:
        """Every option ``from_dict`` accepts, described, in the order a menu shows them."""
        ...


class GameOutcome(Protocol):
    """How a finished game ended, per side (a player, or a pair)."""

    @property
    def winner(self) -> int | None:
        """The winning side; None only where a game lets first place be shared."""
        ...

    @property
    def ranks(self) -> tuple[int, ...]:
        """0 for the winner; equal results share a rank."""
        ...

    @property
    def points(self) -> tuple[int, ...]: ...

    @property
    def multiplier(self) -> int:
        """How much the win counts (FIGS single/double/triple); 1 where the game has no such
        rule."""
        ...


class GameView(Protocol):
    """What one seat (or, with ``seat`` None, anyone) may see of a game."""

    @property
    def seat(self) -> int | None: ...

    @property
    def hand(self) -> Sequence[object]:
        """The seat's own cards (``engine.cards.Card`` in the real games); empty in the public
        view."""
        ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def legal_moves(self) -> tuple[str, ...]:
        """The move strings of the seat, on its turn only."""
        ...

    @property
    def is_over(self) -> bool: ...

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, cards as their strings."""
        ...


class GameEvent(Protocol):
    """Something a move did, public (``engine.events.Event``; each engine has typed ones)."""

    @property
    def kind(self) -> str:
        """A short name (``"captured"``, ``"scopa"``, ``"discarded"``, ``"over"``...)."""
        ...

    @property
    def seat(self) -> int | None:
        """The seat the event concerns, None where it concerns no one seat."""
        ...

    @property
    def data(self) -> Mapping[str, Any]:
        """The rest of the event, JSON-safe (cards as their strings)."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "seat", "data"}``."""
        ...


class GameState(Protocol):
    """One state of a game: immutable from the outside, ``play`` returns the next one."""

    @property
    def rules(self) -> GameRules: ...

    @property
    def players(self) -> int: ...

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, in side order (pairs at 4 in the Scopa family)."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to move; None once the game is over."""
        ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over."""
        ...

    def points(self, side: int, /) -> int:
        """A side's score so far (what the game counts: points, or penalty points)."""
        ...

    def hand(self, seat: int, /) -> Sequence[object]:
        """A seat's cards (hidden information: for the engine and its tests, never shown)."""
        ...

    def legal_moves(self) -> Sequence[object]:
        """Every move the seat to move may make; ``str(move)`` is its move string."""
        ...

    def play(self, move: str, /) -> GameState:
        """The game after ``move`` (a move string); raises a ``ValueError`` subclass when the
        move cannot be read or is not allowed now."""
        ...

    def view(self, seat: int | None, /) -> GameView:
        """What ``seat`` may see; ``None``: the public view."""
        ...

    def outcome(self) -> GameOutcome | None:
        """None while the game goes on."""
        ...

    @property
    def events(self) -> Sequence[GameEvent]:
        """What the move that made this state did, in order; public."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-safe, for storage."""
        ...


class GameClass(Protocol):
    """The ``Game`` class of a game kind (its class methods)."""

    def from_dict(self, data: Mapping[str, Any], /) -> GameState:
        """The game saved by ``to_dict``; ``ValueError`` on a bad or foreign document."""
        ...


class GameModule(Protocol):
    """A game kind's module: ``Rules``, ``Game`` and ``new_game``."""

    @property
    def Rules(self) -> RulesClass: ...

    @property
    def Game(self) -> GameClass: ...

    def new_game(self, rules: Any, /, *, seed: int) -> GameState:
        """A new game, its first deal made, fixed by ``seed``. ``rules`` is the Rules value
        this module's ``Rules.from_dict`` made (each module takes only its own)."""
        ...
