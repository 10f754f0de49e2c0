"""Persistent buttons and select menus: all their state lives in the custom id.

A custom id is ``<table>:<version>:<action>`` (the service's button data; at most 100 characters,
and the service keeps it within Telegram's 64 bytes anyway). Discord sends the custom id back when
a component is used, even one sent before a restart, and ``DynamicItem`` rebuilds the item from
it, so no view has to be kept in memory. ``interaction_check`` asks the bot's action handler
whether this user may act (the seated player); the callback hands the action to the handler. No
game rule lives here: the action string is opaque to the adapter.

Actions starting with ``~`` are the adapter's own (turning a page of buttons) and never reach
the service.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

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

logger = logging.getLogger(__name__)

_CUSTOM_ID = r"(?P<table>[0-9]{1,19}):(?P<version>[0-9]{1,10}):(?P<action>[ -~]{1,80})"
TEMPLATE = re.compile(_CUSTOM_ID)
# discord.py tries every registered dynamic item class whose template matches a custom id, and
# builds it around whatever component carries that id, so buttons and selects must not share ids:
# a select menu's custom id is the same data behind an "s".
SELECT_PREFIX = "s"
SELECT_TEMPLATE = re.compile(SELECT_PREFIX + _CUSTOM_ID)
PAGE_PREFIX = "~p"
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


@dataclass(frozen=True, slots=True)
class ActionRef:
    """What a component carries: the table, the version it was drawn at, the action."""

    table_id: int
    version: int
    action: str

    @property
    def custom_id(self) -> str:
        custom_id = f"{self.table_id}:{self.version}:{self.action}"
        if len(custom_id) > MAX_CUSTOM_ID or not TEMPLATE.fullmatch(custom_id):
            raise ValueError(f"not a valid custom id: {custom_id!r}")
        return custom_id

    @property
    def page(self) -> int | None:
        """The page asked for, when this is the adapter's own page-turning action."""
        if not self.action.startswith(PAGE_PREFIX):
            return None
        number = self.action[len(PAGE_PREFIX) :]
        return int(number) if number.isdigit() else None

    @classmethod
    def parse(cls, custom_id: str) -> ActionRef:
        """The inverse of ``custom_id`` (a button's or a select's); ValueError for anything
        else (custom ids are input)."""
        match = None
        if len(custom_id) <= MAX_CUSTOM_ID:
            match = TEMPLATE.fullmatch(custom_id) or SELECT_TEMPLATE.fullmatch(custom_id)
        if match is None:
            raise ValueError(f"not a Tavolo custom id: {custom_id!r}")
        return cls._from_match(match)

    @classmethod
    def _from_match(cls, match: re.Match[str]) -> ActionRef:
        return cls(int(match["table"]), int(match["version"]), match["action"])


@runtime_checkable
class ActionHandler(Protocol):
    """What the components need from the bot: who may act, and doing the action."""

    async def may_act(self, interaction: Interaction, ref: ActionRef) -> bool:
        """True to go on; when False the handler has already answered the interaction."""

    async def act(self, interaction: Interaction, ref: ActionRef, values: Sequence[str]) -> None:
        """Do the action (``values``: the options chosen in a select menu, else empty)."""


def _handler(interaction: Interaction) -> ActionHandler:
    handler = getattr(interaction.client, "action_handler", None)
    if not isinstance(handler, ActionHandler):
        raise TypeError("the client has no action_handler: use bot.discord.bot.TavoloBot")
    return handler


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button that survives restarts."""

    def __init__(
        self,
        ref: ActionRef,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=clip(label, MAX_LABEL), style=style, custom_id=ref.custom_id, disabled=disabled
        )
        super().__init__(button, row=row)
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        label = getattr(item, "label", None) or "?"
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        return cls(ActionRef._from_match(match), label=label, style=style)

    async def interaction_check(self, interaction: Interaction) -> bool:
        return await _handler(interaction).may_act(interaction, self.ref)

    async def callback(self, interaction: Interaction) -> None:
        await _handler(interaction).act(interaction, self.ref, ())


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A string select menu that survives restarts (e.g. choosing cards to meld)."""

    def __init__(
        self,
        ref: ActionRef,
        *,
        options: Sequence[tuple[str, str]],
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise ValueError(f"a select menu has 1..{MAX_SELECT_OPTIONS} options")
        custom_id = SELECT_PREFIX + ref.custom_id
        if len(custom_id) > MAX_CUSTOM_ID:
            raise ValueError(f"custom id longer than {MAX_CUSTOM_ID}: {custom_id!r}")
        select: discord.ui.Select[Any] = discord.ui.Select(
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
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionSelect:
        options = [(o.label, o.value) for o in getattr(item, "options", [])]
        return cls(
            ActionRef._from_match(match),
            options=options or [("?", "?")],
            placeholder=getattr(item, "placeholder", None),
            min_values=getattr(item, "min_values", 1),
            max_values=getattr(item, "max_values", 1),
        )

    async def interaction_check(self, interaction: Interaction) -> bool:
        return await _handler(interaction).may_act(interaction, self.ref)

    async def callback(self, interaction: Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _handler(interaction).act(interaction, self.ref, values)


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A platform-neutral button: its label, the opaque action, a style name of ``STYLES``."""

    label: str
    action: str
    style: str = "secondary"
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class SelectSpec:
    """A platform-neutral select menu: (label, value) options, how many may be chosen."""

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
                ActionRef(table_id, version, menu.action),
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
                    ActionRef(table_id, version, spec.action),
                    label=spec.label,
                    style=STYLES.get(spec.style, discord.ButtonStyle.secondary),
                    disabled=spec.disabled,
                    row=len(menus) + offset,
                )
            )
    assert len(view.children) <= MAX_BUTTONS
    return view
