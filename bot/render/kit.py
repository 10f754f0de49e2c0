"""The kit every family's module writes with: a table's title, seat and side names, a button
(through the action codec), the end of a table message by its status and a hand that waits.

The :class:`bot.render.Renderer` makes one and hands it to the family's functions
(``bot.render.scopa`` / ``scala40`` / ``briscola`` / ``generic``), so a family imports this
module and never the renderer: the renderer imports the families, not the other way round.
"""

from __future__ import annotations

import gettext
from collections.abc import Sequence
from typing import Protocol

from bot.domain import Action
from bot.domain.events import TableInfo
from bot.render.i18n import Catalogs
from bot.render.texts import GAME_NAMES, LEVEL_NAMES, Button, Message

__all__ = ["Kit", "Translator"]


class Translator(Protocol):
    """What gives a locale's translations (the :class:`Kit`, the ``Renderer``)."""

    def translations(self, locale: str | None) -> gettext.NullTranslations: ...


class Kit:
    """The pieces shared by the families' messages, in the translations they are given."""

    def __init__(self, catalogs: Catalogs) -> None:
        self.catalogs = catalogs

    def translations(self, locale: str | None) -> gettext.NullTranslations:
        return self.catalogs.get(locale)

    def game_name(self, table: TableInfo, t: gettext.NullTranslations) -> str:
        return t.gettext(GAME_NAMES.get(table.game, table.game))

    def title(self, table: TableInfo, t: gettext.NullTranslations) -> str:
        _ = t.gettext
        return _("{game} · table {id}").format(game=self.game_name(table, t), id=table.id)

    def seat_name(self, table: TableInfo, seat: int | None, t: gettext.NullTranslations) -> str:
        if seat is None or not 0 <= seat < len(table.seats):
            return "—"
        info = table.seats[seat]
        if info is None:
            return t.gettext("(free)")
        if info.computer:
            # Numbered by seat: several computers may sit at one table.
            return t.gettext("Computer {n} ({level})").format(
                n=seat + 1, level=t.gettext(LEVEL_NAMES.get(info.user_id, info.user_id))
            )
        if info.left:
            return t.gettext("{name} (left: computer)").format(name=info.name)
        if info.away:
            return t.gettext("{name} (computer)").format(name=info.name)
        return info.name

    def side_name(self, table: TableInfo, side: Sequence[int], t: gettext.NullTranslations) -> str:
        return " + ".join(self.seat_name(table, s, t) for s in side)

    def button(self, table: TableInfo, label: str, action: str) -> Button:
        # Through the codec: an action it could not read back is an error here, not a dead button.
        data = Action.parse(action, table_id=table.id, version=table.version).encode()
        return Button(label, data)

    def table_state(
        self,
        table: TableInfo,
        current: int | None,
        lines: list[str],
        t: gettext.NullTranslations,
    ) -> list[tuple[Button, ...]]:
        """The end of a table message by its status: whose turn and "My hand" in play, "Game
        over." and "Rematch" when finished, "The table was closed." when abandoned (the lines
        are added to ``lines``; the buttons are returned)."""
        _ = t.gettext
        if table.status == "playing":
            if current is not None:
                lines.append(_("Turn: {name}").format(name=self.seat_name(table, current, t)))
            return [(self.button(table, _("My hand"), "@hand"),)]
        if table.status == "finished":
            lines.append(_("Game over."))
            return [(self.button(table, _("Rematch"), "@rematch"),)]
        if table.status == "abandoned":
            lines.append(_("The table was closed."))
        return []

    def waiting(
        self, table: TableInfo, view: object, lines: list[str], t: gettext.NullTranslations
    ) -> Message:
        """A hand with no move to make: its ``lines`` and whom it waits for."""
        current = getattr(view, "current_player", None)
        if current is not None:
            lines.append(
                t.gettext("Waiting for {name}.").format(name=self.seat_name(table, current, t))
            )
        return Message("\n".join(lines))
