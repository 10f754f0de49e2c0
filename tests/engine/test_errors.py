"""Player-facing engine errors carry an English template and params (engine/errors.py).

Every raise site writes its template as a string literal, so ``pybabel extract`` finds it and the
bot can translate it; the checks here read the engine's source to make sure no f-string or ready
text slips in.
"""

from __future__ import annotations

import ast
import pickle
import string
from pathlib import Path

import pytest

from engine import scala40, scopa
from engine.cards import CardParseError, parse_card
from engine.errors import Problem, RuleText
from engine.scala40 import analyze_meld, swap_position

ENGINE = Path(__file__).resolve().parents[2] / "engine"
# The callables whose first argument is a template (the `pybabel extract -k` keywords).
TEMPLATE_CALLS = frozenset(
    {"RuleText", "Problem", "IllegalMove", "MoveParseError", "RulesError", "CardParseError"}
)


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize(
    "error",
    [
        scopa.IllegalMove,
        scopa.MoveParseError,
        scopa.RulesError,
        scala40.IllegalMove,
        scala40.MoveParseError,
        scala40.RulesError,
        CardParseError,
    ],
)
def test_every_player_facing_error_is_a_rule_text_and_a_value_error(error: type) -> None:
    assert issubclass(error, RuleText) and issubclass(error, ValueError)
    exc = error("{card} is not in your hand", card="7D")
    assert str(exc) == "7D is not in your hand"
    assert (exc.template, exc.params) == ("{card} is not in your hand", {"card": "7D"})
    again = pickle.loads(pickle.dumps(exc))
    assert type(again) is error and again.template == exc.template and again.params == exc.params


def test_problem_is_the_english_sentence_and_keeps_template_and_params() -> None:
    problem = Problem("opening needs {points} points, you have {total}", points=40, total=27)
    assert isinstance(problem, str) and problem == "opening needs 40 points, you have 27"
    assert problem.params == {"points": "40", "total": "27"}  # params are strings
    error = scala40.IllegalMove.of(problem)
    assert str(error) == problem and error.template == problem.template
    assert pickle.loads(pickle.dumps(problem)).params == problem.params
    # Ready text with braces (from outside the engine) is shown as it is, never a crash.
    assert str(RuleText("a {b} c")) == "a {b} c"


@pytest.mark.parametrize(
    ("cards", "template"),
    [
        ("7D 7C", "{cards} is not a meld: a meld needs at least 3 cards"),
        ("7D 7D' 7C", "{cards} is not a meld: a tris needs different suits ({card} twice)"),
        ("KD AD 2D", "{cards} is not a meld: in a scala the ace is low (A-2-3) or high"),
        ("5D * * 8D", "{cards} is not a meld: a meld may hold at most 1 joker"),
        ("5D 7C 9S", "{cards} is not a meld: a tris is one rank, a scala is one suit"),
    ],
)
def test_meld_reasons_are_whole_sentence_templates(cards: str, template: str) -> None:
    shape = analyze_meld([parse_card(c) for c in cards.split()])
    assert isinstance(shape, Problem)
    assert shape.template.startswith(template)
    assert shape.params["cards"] == cards
    assert _fields(shape.template) == set(shape.params)


def test_swap_reason_names_the_wanted_card() -> None:
    reason = swap_position([parse_card(c) for c in ["5D", "*", "7D"]], parse_card("6C"))
    assert isinstance(reason, Problem) and reason == "the joker in 5D * 7D stands for 6D, not 6C"
    assert reason.template == "the joker in {meld} stands for {wanted}, not {card}"


def test_card_parse_error_names_the_token() -> None:
    with pytest.raises(CardParseError) as caught:
        parse_card("9X")
    assert caught.value.template == "not a card: {card}"
    assert caught.value.params == {"card": "'9X'"}


def _template_calls() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "errors.py":
            continue  # the machinery itself passes templates along
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in TEMPLATE_CALLS
            ):
                found.append((str(path.relative_to(ENGINE.parent)), node.lineno, node))
    return found


def test_every_template_in_the_engine_is_a_literal_with_its_params() -> None:
    """A template must be a plain string literal (what pybabel extracts), never an f-string or
    a variable, and the keyword params must be exactly its fields."""
    calls = _template_calls()
    assert len(calls) > 80  # the scan does see the engine's raise sites
    bad = []
    for where, line, call in calls:
        first = call.args[0] if call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            bad.append(f"{where}:{line}: template is not a string literal")
            continue
        names = {k.arg for k in call.keywords}
        if None in names or len(call.args) != 1:
            bad.append(f"{where}:{line}: params must be plain keywords")
        elif names != _fields(first.value):
            bad.append(f"{where}:{line}: params {sorted(map(str, names))} != fields")
    assert bad == []


def test_no_player_facing_error_is_raised_with_ready_text() -> None:
    """``raise IllegalMove(...)`` & co. only through a literal template (checked above) or
    ``.of(problem)``; nothing else constructs them."""
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                func = node.exc.func
                if isinstance(func, ast.Attribute) and func.attr == "of":
                    assert isinstance(func.value, ast.Name) and func.value.id in TEMPLATE_CALLS
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name):
                # A bare class raised (no message) would carry no template.
                assert node.exc.id not in TEMPLATE_CALLS, f"{path}:{node.lineno}"
