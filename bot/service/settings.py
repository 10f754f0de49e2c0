"""Per-chat settings (``/settings``): what each one may be, where it is kept, the chat's view.

A chat (a group, a private chat, a Discord channel) may set:

* ``lang``: the language of its public messages (kept in ``chats.locale``, as ``/lang`` did);
* ``style``: the deck style of its card pictures (kept in the adapter state under ``style``,
  where ``/style`` keeps it, so a style chosen before ``/settings`` existed still holds);
* ``pictures``: card pictures on or off (where the bot draws pictures at all);
* ``timer``: the turn timer in seconds (0 = off; not set = the bot's ``TURN_TIMEOUT_SECONDS``);
  the reminder comes at the same fraction of the turn as the bot's default timers have it;
* ``open``: who may open tables, ``all`` or ``admins``;
* ``rejoin``: whether a player who leaves a game (or is kicked) may take the seat back, for the
  chat's new tables (a table's command may say otherwise with ``rejoin=on|off``);
* ``<game>.<option>``: a default rule option of one game (``scopa.target``,
  ``scala40.elimination``...), used by every new table of that game in the chat unless the
  table's command gives the option itself.

Values travel in buttons as short strings (:func:`encode_value`); a reset is :data:`RESET`.
The rule options offered per game, and their values, are generated from the engines'
descriptions (``Rules.options()``, see ``engine.options``) through the service's game kinds
(``bot.service.games``): every option a game kind plays is offered, with every value the engine
allows, or presets where a number ranges too widely for a menu (``MENU_PRESETS``). So an option
or a value an engine adds appears in the menu without an edit here (its words:
``bot.render.settings``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias, TypeGuard, TypeVar

from bot.domain import JSONObject, TableStore
from bot.domain.events import Event
from bot.service.games import GameKind, OptionValue, Registry, default_registry
from engine.contract import GameOption

__all__ = [
    "GAME_OPTIONS",
    "MENU_MAX",
    "MENU_PRESETS",
    "OPEN_CHOICES",
    "RESET",
    "SETTINGS_PREFIX",
    "STYLE_CHOICES",
    "TIMER_CHOICES",
    "ChatSettings",
    "Choice",
    "OptionSpec",
    "SettingValue",
    "SettingsKeeper",
    "SettingsView",
    "decode_value",
    "encode_value",
    "game_options",
    "is_timer",
    "menu_options",
    "menu_values",
]

# A setting's value: a switch, a number (the turn timer, a rule option's), a name (a language,
# a deck style, a rule option's choice); ``None``: not set, the bot's default holds.
SettingValue: TypeAlias = OptionValue | None
# The values of one setting (all names, all numbers or both switches): what a choice of them is.
Choice = TypeVar("Choice", bound=OptionValue)

# Button data of the settings menu: "cfg:@<page>" shows a page, "cfg:<key>=<value>" sets.
SETTINGS_PREFIX = "cfg:"
RESET = "*"  # the value that puts a setting back to the bot's default
TIMER_CHOICES: tuple[int, ...] = (0, 30, 60, 120, 300, 3600)
OPEN_CHOICES: tuple[str, ...] = ("all", "admins")
# The deck styles of ``bot.render.images`` and "default" (checked by the tests; the service
# knows no pictures).
STYLE_CHOICES: tuple[str, ...] = ("napoletane", "piacentine", "francesi", "francesi4", "default")
STYLE_KIND = "style"  # the adapter-state kind of a deck style (bot.render.pictures.STYLE)
# How long a process trusts its copy of a chat's settings: another process sharing the
# database sees a change within this many seconds.
CACHE_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A rule option a chat may give a default to, and the values offered."""

    name: str
    choices: tuple[OptionValue, ...]


_BOOL: tuple[OptionValue, ...] = (False, True)
# The most values an option's page lists (with "game default" and « Back it fills the five rows
# Discord shows); an engine option with more needs presets (``MENU_PRESETS``).
MENU_MAX = 7
# Engine options a chat does not choose in the menu: the game kind and the table's seats say them.
NOT_IN_MENU: tuple[str, ...] = ("variant", "players")
# The numbers offered where an engine allows too many to list, by (game, option): a preset the
# engine no longer allows is left out, and the engine's default is always offered.
MENU_PRESETS: Mapping[tuple[str, str], tuple[int, ...]] = MappingProxyType(
    {
        ("scopa", "target"): (11, 16, 21, 31),
        ("scopone", "target"): (8, 11, 16, 21),
        ("scientifico", "target"): (8, 11, 16, 21),
        ("scala40", "opening_points"): (40, 0),
        ("scala40", "max_restocks"): (0, 1, 2, 3, 5, 10),
        ("briscola", "target"): (1, 2, 3, 5),
        ("chiamata", "deals"): (1, 3, 5, 10),
    }
)


def menu_values(
    game: str,
    option: GameOption,
    presets: Mapping[tuple[str, str], tuple[int, ...]] = MENU_PRESETS,
) -> tuple[OptionValue, ...]:
    """The values the menu offers for ``game``'s engine ``option``: all the engine allows (yes/no
    as no, yes), or its presets where the engine allows more than ``MENU_MAX``; ``ValueError``
    when there are too many and no presets (or a value no setting can hold)."""
    if option.kind == "bool":
        return _BOOL
    allowed: tuple[OptionValue, ...] | range
    if option.kind == "int":
        assert option.low is not None and option.high is not None
        allowed = range(option.low, option.high + 1)
    else:
        allowed = _option_values(game, option.name, option.choices)
    if len(allowed) <= MENU_MAX:
        return tuple(allowed)
    preset = presets.get((game, option.name))
    if preset is None:
        raise ValueError(
            f"{game}'s option {option.name} has {len(allowed)} values, the settings menu lists "
            f"at most {MENU_MAX}: give it presets (bot.service.settings.MENU_PRESETS)"
        )
    values: tuple[OptionValue, ...] = tuple(v for v in preset if v in allowed)
    (default,) = _option_values(game, option.name, (option.default,))
    if default not in values:
        values = (default, *values)
    return values


def _option_values(game: str, name: str, values: Iterable[object]) -> tuple[OptionValue, ...]:
    """An engine option's values as settings hold them; ``ValueError`` for one they cannot."""
    found: list[OptionValue] = []
    for value in values:
        if not isinstance(value, str | int | bool):
            raise ValueError(f"{game}'s option {name}: a setting cannot hold the value {value!r}")
        found.append(value)
    return tuple(found)


def menu_options(
    kind: GameKind, presets: Mapping[tuple[str, str], tuple[int, ...]] = MENU_PRESETS
) -> tuple[OptionSpec, ...]:
    """The rule options of a game kind a chat may give defaults to, in the engine's order
    (``Rules.options()``): every one the kind plays, but the variant and the seats."""
    variant = kind.fixed.get("variant")
    specs = []
    for option in kind.module.Rules.options():
        name = option.name
        if name in NOT_IN_MENU or name in kind.fixed or name in kind.ignored:
            continue
        variants = getattr(option, "variants", ())  # where the option matters; () everywhere
        if variants and variant is not None and variant not in variants:
            continue
        specs.append(OptionSpec(name, menu_values(kind.name, option, presets)))
    return tuple(specs)


def game_options(registry: Registry) -> Mapping[str, tuple[OptionSpec, ...]]:
    """Each game kind's menu options (:func:`menu_options`), by name, in the registry's order."""
    found = {}
    for name in registry.names:
        kind = registry.get(name)
        if kind is not None:
            found[name] = menu_options(kind)
    return MappingProxyType(found)


# The menu's options of the bot's games, generated from the engines (read-only).
GAME_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = game_options(default_registry())


def encode_value(value: SettingValue) -> str:
    """A setting's value as a button carries it: ``True`` -> ``"1"``, ``16`` -> ``"16"``."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def is_timer(value: object) -> TypeGuard[int]:
    """Whether ``value`` is one of the turn timers a chat may choose (``TIMER_CHOICES``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in TIMER_CHOICES


def decode_value(text: str, choices: tuple[Choice, ...]) -> Choice:
    """The choice a button's value names; ``ValueError`` when it names none."""
    for choice in choices:
        if encode_value(choice) == text:
            return choice
    raise ValueError(f"not one of {', '.join(encode_value(c) for c in choices)}: {text!r}")


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's settings as they apply now (``None``: the chat chose nothing, the bot's
    default holds)."""

    platform: str
    chat_id: str
    language: str | None = None
    style: str | None = None
    pictures: bool = True
    timer: int | None = None  # seconds a turn lasts; 0 = no timer
    default_timer: int = 0  # the bot's turn timer (0 = off)
    open: str = "all"
    # Whether a player who leaves a game (or is kicked) may take the seat back at new tables.
    rejoin: bool = False
    # game -> option -> value: the chat's default rule options
    defaults: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    languages: tuple[str, ...] = ("it", "en")
    games: tuple[str, ...] = ()  # the games whose defaults may be set, in menu order

    @property
    def turn_time(self) -> int:
        """The seconds a turn lasts in this chat (0: no timer)."""
        return self.default_timer if self.timer is None else self.timer


@dataclass(frozen=True, slots=True, kw_only=True)
class SettingsView(Event):
    """The settings menu of a chat: ``page`` is ``main``, ``lang``, ``style``, ``timer``,
    ``open``, ``game.<game>`` or ``option.<game>.<option>``; ``saved`` the key just changed."""

    settings: ChatSettings
    page: str = "main"
    saved: str | None = None


class SettingsKeeper:
    """Reads and caches the ``chat_settings`` rows of chats (a few seconds, see
    ``CACHE_SECONDS``); writes go through to the store at once."""

    def __init__(self, store: TableStore, *, limit: int = 10_000) -> None:
        self.store = store
        self.limit = limit
        self._cache: dict[tuple[str, str], tuple[float, JSONObject]] = {}

    async def raw(self, platform: str, chat_id: str) -> JSONObject:
        """The chat's settings as stored, ``{key: value}`` (a setting never changed is absent)."""
        key = (platform, chat_id)
        found = self._cache.get(key)
        now = time.monotonic()
        if found is not None and now - found[0] < CACHE_SECONDS:
            return found[1]
        values = await self.store.chat_settings(platform=platform, chat_id=chat_id)
        if len(self._cache) >= self.limit:
            self._cache.clear()
        self._cache[key] = (now, values)
        return values

    async def put(self, value: SettingValue, *, platform: str, chat_id: str, key: str) -> None:
        await self.store.set_chat_setting(value, platform=platform, chat_id=chat_id, key=key)
        self._cache.pop((platform, chat_id), None)

    async def game_defaults(self, platform: str, chat_id: str, game: str) -> dict[str, OptionValue]:
        """The chat's default rule options of ``game`` (only those it still offers)."""
        raw = await self.raw(platform, chat_id)
        names = {spec.name for spec in GAME_OPTIONS.get(game, ())}
        prefix = game + "."
        return {
            k[len(prefix) :]: v
            for k, v in raw.items()
            if k.startswith(prefix)
            and k[len(prefix) :] in names
            and isinstance(v, str | int | bool)
        }


def option_spec(game: str, name: str) -> OptionSpec | None:
    for spec in GAME_OPTIONS.get(game, ()):
        if spec.name == name:
            return spec
    return None
