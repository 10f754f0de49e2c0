"""Persistent buttons and select menus: all their state lives in the custom id.

A custom id is ``<table>:<version>:<action>``, the domain's action codec (``bot.domain.Action``:
a move, ``@<verb>``, ``?<card>``; at most 100 characters, and the renderer keeps it within
Telegram's 64 bytes anyway), read once into a typed action when a component is used. Discord
sends the custom id back even for a component sent before a restart, and ``DynamicItem``
rebuilds the item from it, so no view has to be kept in memory. ``interaction_check`` asks the
bot's action handler whether this user may act (the seated player); the callback hands the
action to the handler. No game rule lives here: a move string is opaque to the adapter.

Actions starting with ``~`` are the adapter's own (:class:`AdapterAction`: picking cards,
turning a page of buttons, a settings button) and never reach the service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias, runtime_checkable

import discord

from bot.discord.interaction import Interaction
from bot.discord.limits import (
    MAX_BUTTONS,
    MAX_CUSTOM_ID,
    MAX_LABEL,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    clip,
    pages_of,
    rows_of,
)
from bot.domain import Action

logger = logging.getLogger(__name__)

_CUSTOM_ID = r"(?P<table>[0-9]{1,19}):(?P<version>[0-9]{1,10}):(?P<action>[ -~]{1,80})"
TEMPLATE = re.compile(_CUSTOM_ID)
# discord.py tries every registered dynamic item class whose template matches a custom id, and
# builds it around whatever component carries that id, so buttons and selects must not share ids:
# a select menu's custom id is the same data behind an "s".
SELECT_PREFIX = "s"
SELECT_TEMPLATE = re.compile(SELECT_PREFIX + _CUSTOM_ID)
# The adapter's own actions start with "~" (page-turning: "~p<n>").
ADAPTER_MARK = "~"
PAGE_PREFIX = "~p"
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class AdapterAction:
    """The adapter's own action, ``~<name>`` in a custom id (picking cards, turning a page of
    moves, a turn notice's "My hand", a settings button): it never reaches the service."""

    table_id: int
    version: int
    token: str  # the whole ``<action>`` part, "~" first: "~pick", "~p2", "~cfg:timer=30"

    def __post_init__(self) -> None:
        if not self.token.startswith(ADAPTER_MARK):
            raise ValueError(f"not an adapter action: {self.token!r}")

    @property
    def page(self) -> int | None:
        """The page asked for, when this is the adapter's page-turning action."""
        if not self.token.startswith(PAGE_PREFIX):
            return None
        number = self.token[len(PAGE_PREFIX) :]
        return int(number) if number.isdigit() else None


# What a component carries: a player's action for the service (the domain's typed action), or
# the adapter's own.
ComponentAction: TypeAlias = Action | AdapterAction


def read_action(token: str, *, table_id: int, version: int) -> ComponentAction:
    """The action of a custom id's ``<action>`` part: the adapter's own when it starts with
    ``~``, else read by the domain's codec; ValueError for anything else."""
    if token.startswith(ADAPTER_MARK):
        return AdapterAction(table_id, version, token)
    return Action.parse(token, table_id=table_id, version=version)


def custom_id_of(action: ComponentAction) -> str:
    """A button's custom id, ``<table>:<version>:<action>`` (a select menu's has ``s`` first);
    ValueError when it is no valid custom id or would be read back as another action."""
    custom_id = f"{action.table_id}:{action.version}:{action.token}"
    match = TEMPLATE.fullmatch(custom_id) if len(custom_id) <= MAX_CUSTOM_ID else None
    if match is None or _read(match) != action:
        raise ValueError(f"not a valid custom id: {custom_id!r}")
    return custom_id


def parse_custom_id(custom_id: str) -> ComponentAction:
    """The action of a Tavolo button's or select menu's custom id (the inverse of
    :func:`custom_id_of`); ValueError for anything else (custom ids are input)."""
    match = None
    if len(custom_id) <= MAX_CUSTOM_ID:
        match = TEMPLATE.fullmatch(custom_id) or SELECT_TEMPLATE.fullmatch(custom_id)
    if match is None:
        raise ValueError(f"not a Tavolo custom id: {custom_id!r}")
    return _read(match)


def _read(match: re.Match[str]) -> ComponentAction:
    return read_action(match["action"], table_id=int(match["table"]), version=int(match["version"]))


def _read_or_none(match: re.Match[str]) -> ComponentAction | None:
    # Framed like Tavolo's but naming no action this version knows (an older version's): the
    # bot's ``on_interaction`` answers it (bot.discord.bot), the item lets it pass unhandled.
    try:
        return _read(match)
    except ValueError:
        return None


@runtime_checkable
class ActionHandler(Protocol):
    """What the components need from the bot: who may act, and doing the action."""

    async def may_act(self, interaction: Interaction, action: ComponentAction) -> bool:
        """True to go on; when False the handler has already answered the interaction."""

    async def act(
        self, interaction: Interaction, action: ComponentAction, values: Sequence[str]
    ) -> None:
        """Do the action (``values``: the options chosen in a select menu, else empty)."""


def _handler(interaction: Interaction) -> ActionHandler:
    handler = getattr(interaction.client, "action_handler", None)
    if not isinstance(handler, ActionHandler):
        raise TypeError("the client has no action_handler: use bot.discord.bot.TavoloBot")
    return handler


# The components' own type parameter: the view they are laid out in.
Button: TypeAlias = discord.ui.Button[discord.ui.View]
Select: TypeAlias = discord.ui.Select[discord.ui.View]


class ActionButton(discord.ui.DynamicItem[Button], template=TEMPLATE):
    """A button that survives restarts: a new one is drawn from its ``action``; one pressed is
    rebuilt from its ``custom_id`` (its action ``None`` when the id is framed like Tavolo's but
    names an action this version does not know)."""

    def __init__(
        self,
        action: ComponentAction | None,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        button: Button = discord.ui.Button(
            label=clip(label, MAX_LABEL),
            style=style,
            custom_id=custom_id or custom_id_of(_given(action)),
            disabled=disabled,
        )
        super().__init__(button, row=row)
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[discord.ui.View | discord.ui.LayoutView],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        label, style = "?", discord.ButtonStyle.secondary
        if isinstance(item, discord.ui.Button):
            label, style = item.label or label, item.style
        return cls(_read_or_none(match), label=label, style=style, custom_id=match.string)

    async def interaction_check(self, interaction: Interaction) -> bool:
        if self.action is None:
            return False  # answered by the bot's on_interaction
        return await _handler(interaction).may_act(interaction, self.action)

    async def callback(self, interaction: Interaction) -> None:
        if self.action is not None:
            await _handler(interaction).act(interaction, self.action, ())


class ActionSelect(discord.ui.DynamicItem[Select], template=SELECT_TEMPLATE):
    """A string select menu that survives restarts (e.g. choosing cards to meld); drawn and
    rebuilt as :class:`ActionButton`."""

    def __init__(
        self,
        action: ComponentAction | None,
        *,
        options: Sequence[tuple[str, str]],
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise ValueError(f"a select menu has 1..{MAX_SELECT_OPTIONS} options")
        custom_id = custom_id or SELECT_PREFIX + custom_id_of(_given(action))
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
        select: Select = discord.ui.Select(
            custom_id=custom_id,
            placeholder=None if placeholder is None else clip(placeholder, 150),
            min_values=max(0, min(min_values, len(options))),
            max_values=max(1, min(max_values, len(options))),
            options=[
                discord.SelectOption(label=clip(label, MAX_LABEL), value=value)
                for label, value in options
            ],
        )
        super().__init__(select, row=row)
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[discord.ui.View | discord.ui.LayoutView],
        match: re.Match[str],
        /,
    ) -> ActionSelect:
        if not isinstance(item, discord.ui.Select):
            return cls(_read_or_none(match), options=[("?", "?")], custom_id=match.string)
        return cls(
            _read_or_none(match),
            options=[(o.label, o.value) for o in item.options] or [("?", "?")],
            placeholder=item.placeholder,
            min_values=item.min_values,
            max_values=item.max_values,
            custom_id=match.string,
        )

    async def interaction_check(self, interaction: Interaction) -> bool:
        if self.action is None:
            return False  # answered by the bot's on_interaction
        return await _handler(interaction).may_act(interaction, self.action)

    async def callback(self, interaction: Interaction) -> None:
        if self.action is not None:
            await _handler(interaction).act(interaction, self.action, self.item.values)


def _given(action: ComponentAction | None) -> ComponentAction:
    if action is None:
        raise ValueError("a new component needs its action")
    return action


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A platform-neutral button: its label, its action (the ``<action>`` part of its custom
    id: a move, ``@<verb>``, ``?<card>``, or the adapter's ``~<name>``), a style name of
    ``STYLES``."""

    label: str
    action: str
    style: str = "secondary"
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A platform-neutral select menu: its action (as a button's), (label, value) options, how
    many may be chosen (the chosen values complete the action, joined with ``+``)."""

    action: str
    options: tuple[tuple[str, str], ...]
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1

    def __post_init__(self) -> None:
        # Splitting a menu in two would change what one choice means, so the caller pages.
        if not 1 <= len(self.options) <= MAX_SELECT_OPTIONS:
            raise ValueError(f"a select menu has 1..{MAX_SELECT_OPTIONS} options")


def build_view(
    *,
    table_id: int,
    version: int,
    buttons: Sequence[ButtonSpec] = (),
    selects: Sequence[SelectSpec] = (),
    page: int = 0,
) -> discord.ui.View:
    """A persistent view: ``selects`` one per row, then ``buttons`` in the rows left; buttons
    that do not fit are paged, with page-turning buttons in the last row. Discord's limits hold
    for any input."""
    view = discord.ui.View(timeout=None)
    menus = list(selects)
    if len(menus) > MAX_ROWS - (1 if buttons else 0):
        raise ValueError(f"{len(menus)} select menus leave no room for the buttons")
    for row, menu in enumerate(menus):
        view.add_item(
            ActionSelect(
                read_action(menu.action, table_id=table_id, version=version),
                options=menu.options,
                placeholder=menu.placeholder,
                min_values=menu.min_values,
                max_values=menu.max_values,
                row=row,
            )
        )
    free_rows = MAX_ROWS - len(menus)
    capacity = free_rows * MAX_ROW_BUTTONS
    if len(buttons) <= capacity:
        shown: Sequence[ButtonSpec] = buttons
        navigation: list[ButtonSpec] = []
    else:
        # One row is kept for the page-turning buttons.
        size = (free_rows - 1) * MAX_ROW_BUTTONS
        if size < 1:
            raise ValueError("no room for paged buttons")
        pages = pages_of(buttons, size=size)
        page = max(0, min(page, len(pages) - 1))
        shown = pages[page]
        navigation = [
            ButtonSpec("◀", f"{PAGE_PREFIX}{max(page - 1, 0)}", disabled=page == 0),
            ButtonSpec(f"{page + 1}/{len(pages)}", "~n", disabled=True),
            ButtonSpec(
                "▶",
                f"{PAGE_PREFIX}{min(page + 1, len(pages) - 1)}",
                disabled=page == len(pages) - 1,
            ),
        ]
    laid_out = rows_of(list(shown), rows=free_rows - (1 if navigation else 0))
    if navigation:
        laid_out.append(navigation)
    for offset, row_specs in enumerate(laid_out):
        for spec in row_specs:
            view.add_item(
                ActionButton(
                    read_action(spec.action, table_id=table_id, version=version),
                    label=spec.label,
                    style=STYLES.get(spec.style, discord.ButtonStyle.secondary),
                    disabled=spec.disabled,
                    row=len(menus) + offset,
                )
            )
    assert len(view.children) <= MAX_BUTTONS
    return view
