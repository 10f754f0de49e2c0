"""Player-facing rule texts: a stable English template plus its parameters.

The engine speaks English only; a reader (the bot's renderer) translates ``template`` with its
catalogs and fills in ``params``. Templates are plain ``str.format`` fields (``{card}``); params
are strings: card codes as the notation writes them (``7D``), numbers, option names. A text that
is itself English (``low``/``high``...) is never a param: each variant is a whole template.

Every template is a string literal at the place it is raised, so ``pybabel extract`` finds it
(keywords ``RuleText``, ``Problem``, ``IllegalMove``, ``MoveParseError``, ``RulesError``,
``CardParseError``; see ``bot/render/i18n.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

__all__ = ["Problem", "RuleText"]


def _format(template: str, params: Mapping[str, str]) -> str:
    try:
        return template.format_map(params)
    except (KeyError, IndexError, ValueError):
        # A caller outside the engine passed ready text with braces in it: show it as it is.
        return template


def _strings(params: Mapping[str, object]) -> dict[str, str]:
    return {key: str(value) for key, value in params.items()}


class Problem(str):
    """Why something is not allowed, as a value: the English sentence (it *is* a ``str``, so
    helpers that return "a shape or the reason" keep their contract) with ``template`` and
    ``params`` kept for translation."""

    template: str
    params: dict[str, str]

    def __new__(cls, template: str, /, **params: object) -> Self:
        values = _strings(params)
        self = super().__new__(cls, _format(template, values))
        self.template = template
        self.params = values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_problem, (type(self), self.template, self.params))


def _problem(cls: type[Problem], template: str, params: dict[str, str]) -> Problem:
    return cls(template, **params)


class RuleText(ValueError):
    """A ``ValueError`` whose message is ``template.format(**params)``; the base of the engine's
    player-facing errors (IllegalMove, MoveParseError, RulesError, CardParseError)."""

    template: str
    params: dict[str, str]

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = _strings(params)
        super().__init__(_format(template, self.params))

    @classmethod
    def of(cls, problem: Problem | RuleText) -> Self:
        """The error for a reason computed elsewhere (a helper's Problem, another RuleText)."""
        return cls(problem.template, **problem.params)

    @property
    def problem(self) -> Problem:
        return Problem(self.template, **self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rule_text, (type(self), self.template, self.params))


def _rule_text(cls: type[RuleText], template: str, params: dict[str, str]) -> RuleText:
    return cls(template, **params)
