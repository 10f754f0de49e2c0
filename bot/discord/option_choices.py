"""The choices of the slash commands' options, generated from what the engines and the service say.

A rule option's values and default are the engine's (``Rules.options()``, see ``engine.options``),
reached through the service's game kinds (``bot.service.games``), which also say how many seats a
game has; so a value an engine adds appears in its command without an edit here. The adapter adds
only what Discord needs:

* a label per value (``CHOICE_LABELS``, English message ids translated by the catalogs; a value
  without a label is shown as it is spelled);
* presets for numbers that range too widely for Discord's 25 choices (a target from 1 to 51):
  a preset the engine no longer allows is left out, and the engine's default is always offered
  (a chat may have another default, and the player may want the engine's back).

A command whose option cannot be offered (more than 25 values and no presets, a value of the
wrong type) fails when the commands are built, not when a player uses it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from discord.app_commands import Choice, locale_str

from bot.render import GAME_NAMES, LEVEL_NAMES, N_
from bot.service import GameKind, Registry, default_registry
from engine.contract import GameOption

__all__ = ["CHOICE_LABELS", "MAX_CHOICES", "PRESETS", "OptionChoices"]

T = TypeVar("T", int, str)

MAX_CHOICES = 25  # Discord's limit per option

# Labels of option values, by the engine's option name.
CHOICE_LABELS: Mapping[str, Mapping[object, str]] = {
    "variant": {"scopone": N_("Scopone (FIGS)"), "scientifico": N_("Scopone scientifico")},
    "primiera_missing_suit": {
        "void": N_("strict (no suit, no primiera)"),
        "lenient": N_("lenient"),
    },
    "close_in_hand": {
        "double": N_("pay double"),
        "bonus": N_("bonus to the closer"),
        "off": N_("no effect"),
    },
    "unopened_pays": {"sum": N_("the sum of the hand"), "100": N_("a flat 100")},
    "deal_scoring": {
        "win": N_("one game to the deal's winner"),
        "points": N_("card points add up"),
    },
    "swap": {"off": N_("no swap"), "two": N_("the 2"), "seven": N_("the 7")},
}

# The numbers offered where an engine allows too many to list, by (game, option).
PRESETS: Mapping[tuple[str, str], tuple[int, ...]] = {
    ("scopa", "target"): (11, 16, 21, 31),
    ("scopone", "target"): (8, 11, 16, 21),
    ("scala40", "opening_points"): (40, 0),
    ("scala40", "jokers_per_meld"): (1, 2),
    ("briscola", "target"): (1, 2, 3, 5, 121, 241),  # games, or card points (deal_scoring)
    ("chiamata", "deals"): (1, 5, 10),
}


def _named(value: object, labels: Mapping[object, str]) -> locale_str:
    return locale_str(labels.get(value, str(value)))


class OptionChoices:
    """The choices of each game's options, from the service's game kinds (``registry``)."""

    def __init__(
        self,
        registry: Registry | None = None,
        *,
        presets: Mapping[tuple[str, str], tuple[int, ...]] = PRESETS,
    ) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.presets = presets

    def option(self, game: str, name: str) -> GameOption:
        """The engine's description of ``game``'s option ``name`` (KeyError: no such option)."""
        for option in self._kind(game).module.Rules.options():
            if option.name == name:
                return option
        raise KeyError(f"{game} has no rule option {name!r}")

    def values(self, game: str, name: str) -> tuple[object, ...]:
        """The values offered for the option: the engine's, or the presets it allows."""
        option = self.option(game, name)
        if option.kind == "bool":
            return (True, False)
        if option.kind == "int":
            assert option.low is not None and option.high is not None
            allowed: Sequence[object] = range(option.low, option.high + 1)
        else:
            allowed = option.choices
        preset = self.presets.get((game, name))
        if preset is None:
            values = tuple(allowed)
        else:
            values = tuple(v for v in preset if v in allowed)
            if option.default not in values:
                values = (option.default, *values)
        if len(values) > MAX_CHOICES:
            raise ValueError(
                f"{game}'s option {name} has {len(values)} values, Discord offers at most "
                f"{MAX_CHOICES}: give it presets (bot.discord.option_choices.PRESETS)"
            )
        return values

    def numbers(self, game: str, name: str) -> list[Choice[int]]:
        """The choices of a whole-number option, each named by its number."""
        return [Choice(name=str(v), value=v) for v in self._typed(game, name, int)]

    def words(self, game: str, name: str) -> list[Choice[str]]:
        """The choices of an option of words, named by ``CHOICE_LABELS``."""
        labels = CHOICE_LABELS.get(name, {})
        return [Choice(name=_named(v, labels), value=v) for v in self._typed(game, name, str)]

    def variants(self, game: str, *, besides: str) -> list[Choice[str]]:
        """The values of ``game``'s engine option ``variant`` that the service plays as games of
        their own, ``besides`` the one with its own command (``/scopone`` offers Scopone and
        Scopone scientifico, not Scopa)."""
        labels = CHOICE_LABELS.get("variant", {})
        names = self.registry.names
        offered = [v for v in self._typed(game, "variant", str) if v in names and v != besides]
        return [Choice(name=_named(v, labels), value=v) for v in offered]

    def players(self, game: str) -> list[Choice[int]]:
        """How many players ``game`` seats (the service's game kind)."""
        return [Choice(name=str(n), value=n) for n in self._kind(game).players]

    def computers(self, game: str) -> list[Choice[int]]:
        """How many computers may be seated at once: none, up to all seats but one."""
        most = max(self._kind(game).players) - 1
        return [Choice(name=str(n), value=n) for n in range(most + 1)]

    def levels(self) -> list[Choice[str]]:
        """The computer players' levels."""
        return [Choice(name=locale_str(label), value=level) for level, label in LEVEL_NAMES.items()]

    def families(self) -> list[Choice[str]]:
        """The games that have leaderboards (one per family)."""
        return [
            Choice(name=locale_str(GAME_NAMES.get(family, family)), value=family)
            for family in self.registry.families
        ]

    def _kind(self, game: str) -> GameKind:
        kind = self.registry.get(game)
        if kind is None:
            raise KeyError(f"the service plays no game {game!r}")
        return kind

    def _typed(self, game: str, name: str, kind: type[T]) -> list[T]:
        values = self.values(game, name)
        wrong = [v for v in values if not isinstance(v, kind) or isinstance(v, bool)]
        if wrong:
            raise TypeError(f"{game}'s option {name} is not of {kind.__name__}: {wrong!r}")
        return [v for v in values if isinstance(v, kind)]
