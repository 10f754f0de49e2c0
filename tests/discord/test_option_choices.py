"""The slash commands' option choices come from the engines (``Rules.options()``) through the
service's game kinds: a value an engine adds appears in its choices, presets the engine no longer
allows go, the engine's default is always offered, an option that Discord could not show fails
when its choices are made (the cog's commands make them when ``bot.discord.game_commands`` is
imported), and the commands offer exactly the choices made from today's engines."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

import pytest
from discord import app_commands

from bot.discord.game_commands import GameCommands
from bot.discord.option_choices import CHOICE_LABELS, PRESETS, OptionChoices
from bot.service import GameKind, Registry, default_registry
from engine import scopa


def _command(name: str) -> Any:
    """The command ``name`` as the cog declares it."""
    found = [c for c in vars(GameCommands).values() if isinstance(c, app_commands.Command)]
    return next(c for c in found if c.name == name)


def _values(command: Any, parameter: str) -> list[object]:
    found = next(p for p in command.parameters if p.name == parameter)
    return [choice.value for choice in found.choices]


def _scopa_with(**changes: dict[str, Any]) -> Registry:
    """The default registry whose Scopa engine describes some options differently."""

    class Rules:
        @staticmethod
        def options() -> tuple[Any, ...]:
            return tuple(
                dataclasses.replace(o, **changes[o.name]) if o.name in changes else o
                for o in scopa.Rules.options()
            )

    registry = default_registry()
    module: Any = SimpleNamespace(Rules=Rules)
    registry.add(GameKind("scopa", "scopa", module, (2, 3, 4), 2, {"variant": "scopa"}))
    return registry


def test_word_choices_are_the_engines_values_with_their_labels() -> None:
    choices = OptionChoices()
    for game, name in (
        ("scopa", "primiera_missing_suit"),
        ("scala40", "close_in_hand"),
        ("scala40", "unopened_pays"),
        ("briscola", "deal_scoring"),
        ("briscola", "swap"),
    ):
        option = choices.option(game, name)
        offered = choices.words(game, name)
        assert [c.value for c in offered] == list(option.choices)
        # Every value of today's engines has a label (no raw "seven" in a menu).
        assert [str(c.name) for c in offered] == [CHOICE_LABELS[name][v] for v in option.choices]
    scala40 = choices.option("scala40", "elimination")
    assert [c.value for c in choices.numbers("scala40", "elimination")] == list(scala40.choices)


def test_labels_and_presets_name_what_the_engines_allow() -> None:
    choices = OptionChoices()
    games = {"variant": "scopa", "primiera_missing_suit": "scopa"}
    games |= {"close_in_hand": "scala40", "unopened_pays": "scala40"}
    games |= {"deal_scoring": "briscola", "swap": "briscola"}
    for name, labels in CHOICE_LABELS.items():
        assert set(labels) <= set(choices.option(games[name], name).choices), name
    for (game, name), preset in PRESETS.items():
        option = choices.option(game, name)
        assert option.kind == "int" and option.low is not None and option.high is not None
        assert all(option.low <= v <= option.high for v in preset), (game, name)
        assert option.default in preset, (game, name)


def test_seats_and_variants_follow_the_service_game_kinds() -> None:
    choices = OptionChoices()
    assert [c.value for c in choices.players("scala40")] == [2, 3, 4, 5, 6]
    assert [c.value for c in choices.computers("chiamata")] == [0, 1, 2, 3, 4]
    assert [c.value for c in choices.variants("scopone", besides="scopa")] == [
        "scopone",
        "scientifico",
    ]
    assert [c.value for c in choices.families()] == ["scopa", "scala40", "briscola", "chiamata"]


def test_a_value_the_engine_adds_appears_in_the_choices() -> None:
    registry = _scopa_with(
        primiera_missing_suit={"choices": ("void", "lenient", "halfway")},
        target={"high": 20},
    )
    choices = OptionChoices(registry)
    primiera = choices.words("scopa", "primiera_missing_suit")
    assert [c.value for c in primiera] == ["void", "lenient", "halfway"]
    assert str(primiera[-1].name) == "halfway"  # no label yet: shown as spelled
    assert [c.value for c in choices.numbers("scopa", "target")] == [11, 16]  # no 21, 31
    # The other games' choices are the same as ever.
    assert [c.value for c in choices.numbers("scopone", "target")] == [8, 11, 16, 21]


def test_the_commands_offer_the_choices_of_todays_engines() -> None:
    choices = OptionChoices()
    scopa = _command("scopa")
    assert _values(scopa, "primiera") == [
        c.value for c in choices.words("scopa", "primiera_missing_suit")
    ]
    assert _values(scopa, "target") == [c.value for c in choices.numbers("scopa", "target")]
    assert _values(scopa, "players") == [c.value for c in choices.players("scopa")]
    assert _values(_command("scopone"), "variant") == ["scopone", "scientifico"]
    scala40 = _command("scala40")
    assert _values(scala40, "elimination") == [
        c.value for c in choices.numbers("scala40", "elimination")
    ]
    assert _values(_command("briscola"), "swap") == [
        c.value for c in choices.words("briscola", "swap")
    ]
    assert _values(_command("chiamata"), "level") == [c.value for c in choices.levels()]


def test_the_default_is_always_offered() -> None:
    registry = _scopa_with(target={"default": 7})
    assert OptionChoices(registry).values("scopa", "target") == (7, 11, 16, 21, 31)


def test_options_discord_cannot_show_fail_when_their_choices_are_made() -> None:
    registry = _scopa_with(
        primiera_missing_suit={"choices": tuple(f"mode{n}" for n in range(26)), "default": "mode0"}
    )
    with pytest.raises(ValueError, match="at most 25"):
        OptionChoices(registry).words("scopa", "primiera_missing_suit")
    choices = OptionChoices(default_registry(), presets={})
    with pytest.raises(ValueError, match="give it presets"):
        choices.numbers("scopa", "target")  # 1..51 with no presets
    with pytest.raises(TypeError, match="scala40's option close_in_hand is not of int"):
        choices.numbers("scala40", "close_in_hand")
    with pytest.raises(KeyError, match="no rule option"):
        choices.option("scopa", "jokers_per_meld")
