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
The rule options offered per game, and their values, are the engines' own (``GAME_OPTIONS``
is checked against ``engine.scopa.rules`` and ``engine.scala40.rules`` by the tests).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.service.events import Event

__all__ = [
    "GAME_OPTIONS",
    "OPEN_CHOICES",
    "RESET",
    "SETTINGS_PREFIX",
    "STYLE_CHOICES",
    "TIMER_CHOICES",
    "ChatSettings",
    "OptionSpec",
    "SettingsKeeper",
    "SettingsView",
    "decode_value",
    "encode_value",
    "is_timer",
]

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
    choices: tuple[Any, ...]


_BOOL = (False, True)
_SCOPA_COMMON = (
    OptionSpec("primiera_missing_suit", ("void", "lenient")),
    OptionSpec("napola", _BOOL),
    OptionSpec("re_bello", _BOOL),
    OptionSpec("win_by_two", _BOOL),
)
GAME_OPTIONS: Mapping[str, tuple[OptionSpec, ...]] = {
    "scopa": (
        OptionSpec("target", (11, 16, 21, 31)),
        *_SCOPA_COMMON,
        OptionSpec("asso_piglia_tutto", _BOOL),
        OptionSpec("scopa_a_15", _BOOL),
        OptionSpec("obbligo_di_presa", _BOOL),
    ),
    "scopone": (OptionSpec("target", (8, 11, 16, 21)), *_SCOPA_COMMON),
    "scientifico": (OptionSpec("target", (8, 11, 16, 21)), *_SCOPA_COMMON),
    "scala40": (
        OptionSpec("elimination", (101, 151, 201, 501)),
        OptionSpec("opening_points", (40, 0)),
        OptionSpec("jokers_per_meld", (1, 2)),
        OptionSpec("close_in_hand", ("double", "bonus", "off")),
        OptionSpec("unopened_pays", ("sum", "100")),
        OptionSpec("discard_attachable", ("allowed", "forbidden")),
        OptionSpec("dealer_fourteen", _BOOL),
        OptionSpec("first_pile_card_free", _BOOL),
        OptionSpec("reentry", _BOOL),
    ),
    "briscola": (
        OptionSpec("target", (1, 2, 3, 5)),
        OptionSpec("deal_scoring", ("win", "points")),
        OptionSpec("swap", ("off", "two", "seven")),
    ),
    "chiamata": (
        OptionSpec("deals", (1, 3, 5, 10)),
        OptionSpec("point_bids", _BOOL),
        OptionSpec("cappotto", _BOOL),
    ),
}


def encode_value(value: Any) -> str:
    """A setting's value as a button carries it: ``True`` -> ``"1"``, ``16`` -> ``"16"``."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value)


def is_timer(value: Any) -> bool:
    """Whether ``value`` is one of the turn timers a chat may choose (``TIMER_CHOICES``)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in TIMER_CHOICES


def decode_value(text: str, choices: tuple[Any, ...]) -> Any:
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
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
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

    def __init__(self, store: Any, *, limit: int = 10_000) -> None:
        self.store = store
        self.limit = limit
        self._cache: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}

    async def raw(self, platform: str, chat_id: str) -> dict[str, Any]:
        key = (platform, chat_id)
        found = self._cache.get(key)
        now = time.monotonic()
        if found is not None and now - found[0] < CACHE_SECONDS:
            return found[1]
        reader = getattr(self.store, "chat_settings", None)
        values = {} if reader is None else await reader(platform=platform, chat_id=chat_id)
        if len(self._cache) >= self.limit:
            self._cache.clear()
        self._cache[key] = (now, values)
        return values

    async def put(self, value: Any, *, platform: str, chat_id: str, key: str) -> None:
        await self.store.set_chat_setting(value, platform=platform, chat_id=chat_id, key=key)
        self._cache.pop((platform, chat_id), None)

    async def game_defaults(self, platform: str, chat_id: str, game: str) -> dict[str, Any]:
        """The chat's default rule options of ``game`` (only those it still offers)."""
        raw = await self.raw(platform, chat_id)
        names = {spec.name for spec in GAME_OPTIONS.get(game, ())}
        prefix = game + "."
        return {
            k[len(prefix) :]: v
            for k, v in raw.items()
            if k.startswith(prefix) and k[len(prefix) :] in names
        }


def option_spec(game: str, name: str) -> OptionSpec | None:
    for spec in GAME_OPTIONS.get(game, ()):
        if spec.name == name:
            return spec
    return None
