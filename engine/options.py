"""How a game kind describes its rule options, so menus, ``/rules`` texts and checks are generated
from the engine instead of repeating it.

Each game kind's ``Rules.options()`` returns a tuple of :class:`Option`, one per option that
``Rules.from_dict`` accepts, in the order a menu shows them::

    from engine import scopa
    for option in scopa.Rules.options():
        option.name, option.kind, option.default   # "target", "int", 11
        option.allowed()                           # (1, 2, ..., 51)
        option.help                                 # English; also a translation message id

``default`` is the value of ``Rules()`` (where a default depends on another option, such as
Scopone's 4 players, ``help`` says so). ``tests/engine/test_options.py`` checks every description
against ``Rules.from_dict``; ``tests/test_docs.py`` against the tables of docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import Problem

__all__ = ["KINDS", "Option", "OptionKind"]

OptionKind = Literal["choice", "int", "bool"]
KINDS: tuple[OptionKind, ...] = ("choice", "int", "bool")


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option as a menu would offer it.

    * ``kind``: ``"choice"`` (one of ``choices``), ``"int"`` (a whole number from ``low`` to
      ``high``) or ``"bool"`` (true or false).
    * ``default``: the value ``Rules()`` has.
    * ``variants``: the variants where the option matters; empty: every variant.
    * ``help``: one short English sentence for players, also the message id translations use.
    """

    name: str
    kind: OptionKind
    default: object
    choices: tuple[object, ...] = ()
    low: int | None = None
    high: int | None = None
    variants: tuple[str, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name}: kind must be one of {KINDS}, not {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"option {self.name}: a choice needs its choices")
        if self.kind == "int" and (self.low is None or self.high is None or self.low > self.high):
            raise ValueError(f"option {self.name}: a number needs low <= high")
        if self.kind == "bool" and not self.choices:
            object.__setattr__(self, "choices", (False, True))
        if self.default not in self.allowed():
            raise ValueError(f"option {self.name}: the default {self.default!r} is not allowed")

    def allowed(self) -> tuple[object, ...] | range:
        """Every value the option takes (for ``int``: ``range(low, high + 1)``)."""
        if self.kind == "int":
            assert self.low is not None and self.high is not None
            return range(self.low, self.high + 1)
        return self.choices

    def to_dict(self) -> dict[str, object]:
        """JSON-safe."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "low": self.low,
            "high": self.high,
            "variants": list(self.variants),
            "help": self.help,
        }


def options_problem(data: Any, known: Collection[str]) -> Problem | None:
    """Why ``data`` is not a mapping of option names from ``known`` (every unknown option named,
    the known ones listed), or None when it is; the game raises its RulesError ``.of`` it."""
    if not isinstance(data, Mapping):
        return Problem("rules must be a mapping of options; got {value}", value=type(data).__name__)
    unknown = sorted(str(key) for key in data if key not in known)
    options = ", ".join(sorted(known))
    if len(unknown) == 1:
        return Problem(
            "unknown option {unknown}; the options are: {options}",
            unknown=unknown[0],
            options=options,
        )
    if unknown:
        return Problem(
            "unknown options {unknown}; the options are: {options}",
            unknown=", ".join(unknown),
            options=options,
        )
    return None
