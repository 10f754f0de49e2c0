"""The shared renderer: what every game says alike (the lobby, a hand's "leave the game?",
turns, announcements around the game, rules, refusals, leaderboards, statistics) and a small
dispatch by family for the rest: each family's module (``bot.render.scopa``, ``scala40``,
``briscola``; ``generic`` for a game without its own layout) writes its table, hand, end of a
deal, end of the game and its own announcements with the :class:`bot.render.kit.Kit` it is
handed (titles, names, buttons, the end of a table message by its status).
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Protocol

from bot.domain.events import (
    Announcement,
    Event,
    GameOver,
    HandView,
    Leaderboard,
    LobbyView,
    Refusal,
    SmazzataSummary,
    Stats,
    TableInfo,
    TableView,
    TurnNotice,
)
from bot.domain.records import JSON, JSONObject
from bot.render import briscola, generic, scala40, scopa
from bot.render.i18n import Catalogs
from bot.render.kit import Kit
from bot.render.texts import (
    ALERT_LIMIT,
    COMMANDS,
    GAME_NAMES,
    HELP,
    LEVEL_NAMES,
    MAX_ROWS,
    N_,
    NOTICES,
    QUIT,
    REFUSAL_TEXTS,
    Button,
    Message,
    bounded,
    button_rows,
    record_text,
    rule_value,
)

__all__ = ["FAMILIES", "FamilyRenderer", "Renderer", "family_renderer"]

logger = logging.getLogger(__name__)


class FamilyRenderer(Protocol):
    """What a family's module writes (``bot.render.briscola`` is the model): the public table,
    a player's hand with its buttons, the end of a deal, the end of the game, and its own
    announcements (``None`` for a kind that is not the family's)."""

    def table_message(self, kit: Kit, e: TableView, t: gettext.NullTranslations) -> Message: ...

    def hand_message(self, kit: Kit, e: HandView, t: gettext.NullTranslations) -> Message: ...

    def summary_message(
        self, kit: Kit, e: SmazzataSummary, t: gettext.NullTranslations
    ) -> Message: ...

    def game_over_message(self, kit: Kit, e: GameOver, t: gettext.NullTranslations) -> Message: ...

    def announcement_message(
        self, kit: Kit, e: Announcement, t: gettext.NullTranslations
    ) -> Message | None: ...

    def move_label(self, move: str, t: gettext.NullTranslations) -> str: ...

    def moves_line(self, view: object, t: gettext.NullTranslations) -> str: ...

    def played_card(self, move: str) -> str | None: ...

    # Whether a hand's cards are picked one by one (its hand messages say ``pick_cards``).
    PICKS_CARDS: bool


# The families with a layout of their own (TableInfo.family); any other is drawn by ``generic``.
FAMILIES: Mapping[str, FamilyRenderer] = MappingProxyType(
    {"scopa": scopa, "scala40": scala40, "briscola": briscola, "chiamata": briscola}
)


def family_renderer(family: str) -> FamilyRenderer:
    """The module that writes a family's game (``generic`` for one without a layout)."""
    return FAMILIES.get(family, generic)


def _object(value: JSON) -> JSONObject:
    """An event's JSON object (an empty one where the data has none)."""
    return value if isinstance(value, dict) else {}


def _list(value: JSON) -> list[JSON]:
    """An event's JSON list (an empty one where the data has none)."""
    return value if isinstance(value, list) else []


class Renderer:
    """Renders service events for a locale (the event's own)."""

    def __init__(self, catalogs: Catalogs | None = None) -> None:
        self.catalogs = catalogs or Catalogs()
        self.kit = Kit(self.catalogs)

    def translations(self, locale: str | None) -> gettext.NullTranslations:
        return self.catalogs.get(locale)

    def render(self, event: Event) -> Message:
        t = self.translations(event.locale)
        # Each takes its own kind of event (the dict cannot say which: hence the ``...``).
        renderers: dict[type, Callable[..., Message]] = {
            LobbyView: self._lobby,
            TableView: self._table,
            HandView: self._hand,
            TurnNotice: self._turn,
            Announcement: self._announcement,
            SmazzataSummary: self._summary,
            GameOver: self._game_over,
            Leaderboard: self._leaderboard,
            Stats: self._stats,
        }
        message = renderers[type(event)](event, t)
        return bounded(message)

    def commands(self, locale: str) -> list[tuple[str, str]]:
        """(command, description) for every chat command, in ``locale``."""
        t = self.translations(locale)
        return [(name, t.gettext(text)) for name, text in COMMANDS]

    def help(self, locale: str) -> str:
        return self.translations(locale).gettext(HELP)

    def notice(self, key: str, locale: str) -> str:
        """A short text by key (see ``NOTICES``); KeyError for an unknown key."""
        return self.translations(locale).gettext(NOTICES[key])

    def game_label(self, game: str, locale: str) -> str:
        """``scopa`` -> ``Scopa``, ``scientifico`` -> ``Scopone scientifico``."""
        return self.translations(locale).gettext(GAME_NAMES.get(game, game))

    def move_label(self, family: str, move: str, locale: str | None) -> str:
        """A move of a game of ``family`` as buttons and lists write it, in ``locale``
        (``7D:3C+4S`` -> ``7♦ ➜ 3♣ 4♠``; Scala 40's and Briscola's words translated)."""
        return family_renderer(family).move_label(move, self.translations(locale))

    def picks_cards(self, family: str) -> bool:
        """Whether a hand of ``family`` is played by picking cards (Scala 40's melds): its hand
        messages say so too (``Message.pick_cards``), for an adapter that must know before."""
        return family_renderer(family).PICKS_CARDS

    def move_labels(self, family: str, locale: str | None) -> Callable[[str], str]:
        """:meth:`move_label` for many moves of one game in one language."""
        write = family_renderer(family).move_label
        t = self.translations(locale)
        return lambda move: write(move, t)

    def level_label(self, level: str, locale: str) -> str:
        return self.translations(locale).gettext(LEVEL_NAMES.get(level, level))

    def refusal(self, refusal: Refusal, *, limit: int | None = ALERT_LIMIT) -> str:
        """Why it was refused, cut to ``limit`` characters: by default a short alert (Telegram's
        callback alerts hold 200); where it goes as a message, pass ``MAX_TEXT`` (the list of a
        rule option's allowed values can be long), or ``None``."""
        _ = self.translations(refusal.locale).gettext
        text = _(REFUSAL_TEXTS.get(refusal.code, N_("That is not possible now.")))
        if refusal.code == "unknown_game" and refusal.detail:
            text += " " + _("Games: {games}").format(games=refusal.detail)
        elif refusal.code == "bad_players":
            counts = refusal.params.get("allowed")
            allowed = ", ".join(map(str, counts if isinstance(counts, list) else ()))
            text += " " + _("Allowed: {allowed}").format(allowed=allowed)
        elif refusal.code in ("bad_option", "illegal_move") and refusal.detail:
            text += " " + self._rule_text(refusal)
        elif refusal.code in ("bad_level", "bad_locale") and refusal.detail:
            text += " " + _("Allowed: {allowed}").format(allowed=refusal.detail)
        return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"

    def _rule_text(self, refusal: Refusal) -> str:
        """The engine's reason in the refusal's language: its template translated, then filled
        in (cards as the views show them); the English detail when the template is unknown."""
        template = refusal.params.get("template")
        values = refusal.params.get("params")
        if not isinstance(template, str) or not isinstance(values, dict):
            return refusal.detail
        if not self.catalogs.knows(refusal.locale, template):
            logger.info("no translation for the rule text %r", template)
            return refusal.detail
        translated = self.translations(refusal.locale).gettext(template)
        shown = {str(k): rule_value(str(k), str(v)) for k, v in values.items()}
        try:
            return translated.format_map(shown)
        except (KeyError, IndexError, ValueError):
            logger.warning("the translation of %r does not fit its params", template)
            return refusal.detail

    # -- pieces (the families' kit, bot.render.kit) -------------------------------------------

    def game_name(self, table: TableInfo, t: gettext.NullTranslations) -> str:
        return self.kit.game_name(table, t)

    def seat_name(self, table: TableInfo, seat: int | None, t: gettext.NullTranslations) -> str:
        return self.kit.seat_name(table, seat, t)

    def side_name(self, table: TableInfo, side: Sequence[int], t: gettext.NullTranslations) -> str:
        return self.kit.side_name(table, side, t)

    # -- events --------------------------------------------------------------------------------

    def _lobby(self, e: LobbyView, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        table = e.table
        lines = [self.kit.title(table, t)]
        if table.status == "abandoned":
            if e.reason in ("expired", "replaced"):
                lines.append(_("Nobody started this table in time: it was closed."))
            else:
                lines.append(_("The table was closed."))
            return Message("\n".join(lines))
        lines.append(t.ngettext("{n} player", "{n} players", table.players).format(n=table.players))
        if table.teams:
            lines.append(_("Pairs: seats 1 + 3 against seats 2 + 4."))
        for seat in range(table.players):
            lines.append(f"{seat + 1}. {self.seat_name(table, seat, t)}")
        options = self.options_text(table.options, t, players=table.players)
        if options:
            lines.append(_("Rules: {options}").format(options=options))
        if table.free_seats:
            lines.append(_("Waiting for players: join, or add the computer."))
        else:
            lines.append(_("The table is full: the creator can start."))
        rows: list[tuple[Button, ...]] = [
            (
                self.kit.button(table, _("Join"), "@join"),
                self.kit.button(table, _("Leave"), "@leave"),
            )
        ]
        if table.free_seats:
            rows.append(
                tuple(
                    self.kit.button(
                        table,
                        _("+ Computer ({level})").format(level=_(LEVEL_NAMES[lv])),
                        f"@ai.{lv}",
                    )
                    for lv in ("easy", "medium", "hard")
                )
            )
        if table.teams:
            rows.append(
                tuple(
                    self.kit.button(table, _("Seat {n}").format(n=i + 1), f"@seat.{i}")
                    for i in range(table.players)
                    if table.seats[i] is None
                )
                or ()
            )
        start = [self.kit.button(table, _("Start"), "@start")]
        if table.free_seats:
            start.append(self.kit.button(table, _("Start with computers"), "@fill.easy"))
        rows.append(tuple(start))
        return Message("\n".join(lines), tuple(r for r in rows if r))

    def _table(self, e: TableView, t: gettext.NullTranslations) -> Message:
        return family_renderer(e.table.family).table_message(self.kit, e, t)

    def _hand(self, e: HandView, t: gettext.NullTranslations) -> Message:
        if e.focus == QUIT:
            return self._quit(e, t)
        message = family_renderer(e.table.family).hand_message(self.kit, e, t)
        if e.table.status != "playing" or len(message.buttons) >= MAX_ROWS:
            return message
        leave = self.kit.button(e.table, t.gettext("Leave the game…"), QUIT)
        return replace(message, buttons=(*message.buttons, (leave,)))

    def closed_hand(self, table: TableInfo, locale: str | None, *, left: str | None = None) -> str:
        """What a hand message says once it has no moves any more: the table was closed, the
        game is over, or (``left``: ``"left"`` or ``"removed"``) the player no longer plays it."""
        t = self.translations(locale)
        _ = t.gettext
        if left == "removed":
            line = _("You were removed from this game: the computer plays your seat to the end.")
        elif left is not None:
            line = _("You left this game: the computer plays your seat to the end.")
        elif table.status == "finished":
            line = _("Game over.")
        else:
            line = _("The table was closed.")
        return self.kit.title(table, t) + "\n" + line

    def _quit(self, e: HandView, t: gettext.NullTranslations) -> Message:
        """The hand asks before a player leaves the game for good."""
        _ = t.gettext
        text = _(
            "Leave the game? The computer plays your seat to the end, and the game counts as "
            "lost for you."
        )
        buttons = (
            self.kit.button(e.table, _("Yes, leave"), "@leave"),
            self.kit.button(e.table, _("« Back"), "@hand"),
        )
        return Message(self.kit.title(e.table, t) + "\n" + text, (buttons,))

    def _turn(self, e: TurnNotice, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        name = self.kit.title(e.table, t)
        if e.reminder:
            return Message(_("Reminder: it is your turn ({table}).").format(table=name))
        return Message(_("It is your turn ({table}).").format(table=name))

    def _announcement(self, e: Announcement, t: gettext.NullTranslations) -> Message:
        """The family's own announcements first (a scopa, the chiamata's call...), then those
        around the game every table has."""
        _ = t.gettext
        table, data = e.table, e.data
        seat = data.get("seat")
        said = family_renderer(table.family).announcement_message(self.kit, e, t)
        if said is not None:
            return said
        name = self.seat_name(table, seat, t) if isinstance(seat, int) else ""
        if e.kind == "timeout":
            return Message(_("Time is up: the computer played for {name}.").format(name=name))
        if e.kind == "taken_over":
            back = self.kit.button(table, _("Take my seat back"), "@back")
            info = table.seats[seat] if isinstance(seat, int) else None
            real = info.name if info is not None else name
            text = _("{name} is away: the computer plays the seat until they take it back.")
            return Message(text.format(name=real), ((back,),))
        if e.kind == "taken_back":
            return Message(_("{name} is back at the table.").format(name=name))
        if e.kind == "abandoned":
            title = self.kit.title(table, t)
            minutes, seconds = data.get("minutes"), data.get("seconds")
            if data.get("reason") in ("expired", "replaced") and isinstance(minutes, int):
                text = t.ngettext(
                    "{table}: nobody started the game for {n} minute, so the table was closed.",
                    "{table}: nobody started the game for {n} minutes, so the table was closed.",
                    minutes,
                )
                return Message(text.format(table=title, n=minutes))
            if data.get("reason") in ("expired", "replaced") and isinstance(seconds, int):
                text = t.ngettext(
                    "{table}: nobody started the game for {n} second, so the table was closed.",
                    "{table}: nobody started the game for {n} seconds, so the table was closed.",
                    seconds,
                )
                return Message(text.format(table=title, n=seconds))
            return Message(_("{table}: the table was closed.").format(table=title))
        if e.kind == "started":
            return Message(
                _("{table}: the cards are dealt!").format(table=self.kit.title(table, t))
            )
        if e.kind == "rules":
            return Message(self._rules(e, t))
        if e.kind == "left":
            return self._left(e, t)
        if e.kind == "kick_list":
            buttons = [
                self.kit.button(table, self.seat_name(table, s, t), f"@kick.{s}")
                for s in _list(data.get("seats"))
                if isinstance(s, int)
            ]
            if not buttons:
                return Message(_("Nobody at this table can be removed."))
            text = _("Who should leave the table? The computer will play their seat.")
            return Message(text, button_rows(buttons, per_row=2))
        return Message(f"{self.kit.title(table, t)}: {e.kind}")

    def options_text(
        self,
        options: Mapping[str, object],
        t: gettext.NullTranslations,
        *,
        players: int | None = None,
    ) -> str:
        """A table's rule options in words ("Asso piglia tutto: no; Points to win: 11"), those
        that matter at ``players`` players."""
        from bot.render.settings import option_label, shown_options, value_label

        return "; ".join(
            f"{option_label(k, t, options)}: {value_label(v, t, k)}"
            for k, v in sorted(shown_options(options, players).items())
        )

    def _rules(self, e: Announcement, t: gettext.NullTranslations) -> str:
        """/rules: every option in words, one a line, and where each value came from."""
        from bot.render.settings import option_label, shown_options, sources_text, value_label

        _ = t.gettext
        options = _object(e.data.get("options"))
        lines = [self.kit.title(e.table, t), _("Rules:")]
        lines.extend(
            f" · {option_label(k, t, options)}: {value_label(v, t, k)}"
            for k, v in sorted(shown_options(options, e.table.players).items())
        )
        if not options:
            lines.append(" · " + _("the game's defaults"))
        table_options = _object(e.data.get("table"))
        sources = {k: v for k, v in _object(e.data.get("sources")).items() if isinstance(v, str)}
        if "rejoin" in table_options:
            lines.append(
                " · "
                + _("Players who leave may come back: {value}").format(
                    value=value_label(bool(table_options["rejoin"]), t)
                )
            )
        if "sources" in e.data:  # where each value came from (bot.render.settings)
            named = {**options, **{k: v for k, v in table_options.items() if k in sources}}
            lines.append(sources_text(named, sources, t))
        return "\n".join(lines)

    def _left(self, e: Announcement, t: gettext.NullTranslations) -> Message:
        """A player left the game, or was removed: the computer plays the seat to the end."""
        _ = t.gettext
        data = e.data
        name = str(data.get("name", ""))
        level = _(LEVEL_NAMES.get(str(data.get("level")), str(data.get("level"))))
        if data.get("by"):
            text = _(
                "{by} removed {name} from the game: the computer ({level}) plays the seat to "
                "the end, and the game counts as lost for {name}."
            ).format(by=data["by"], name=name, level=level)
        else:
            text = _(
                "{name} left the game: the computer ({level}) plays the seat to the end, and "
                "the game counts as lost for {name}."
            ).format(name=name, level=level)
        if not data.get("back"):
            return Message(text)
        back = self.kit.button(e.table, _("Take my seat back"), "@back")
        return Message(text + "\n" + _("They may take the seat back."), ((back,),))

    def _summary(self, e: SmazzataSummary, t: gettext.NullTranslations) -> Message:
        return family_renderer(e.table.family).summary_message(self.kit, e, t)

    def _game_over(self, e: GameOver, t: gettext.NullTranslations) -> Message:
        return family_renderer(e.table.family).game_over_message(self.kit, e, t)

    def _leaderboard(self, e: Leaderboard, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        game = _(GAME_NAMES.get(e.family, e.family))
        title = (
            _("Leaderboard of this chat: {game}") if e.scope == "chat" else _("Leaderboard: {game}")
        )
        lines = [title.format(game=game)]
        if e.season:
            lines.append(_("Season {season}").format(season=e.season))
        if not e.rows:
            lines.append(_("No games played yet."))
        for r in e.rows:
            lines.append(
                _("{rank}. {name} — {rating:.1f} ({record})").format(
                    rank=r.rank, name=r.name, rating=r.rating, record=record_text(r, t)
                )
            )
        if e.season and e.previous:
            medals = ("🥇", "🥈", "🥉")
            podium = ", ".join(f"{medals[i]} {r.name}" for i, r in enumerate(e.previous[:3]))
            lines.append(
                _("Last season ({season}): {podium}").format(
                    season=e.previous_season, podium=podium
                )
            )
        elif e.season:
            lines.append(_("Last season ({season}): no games.").format(season=e.previous_season))
        return Message("\n".join(lines))

    def _stats(self, e: Stats, t: gettext.NullTranslations) -> Message:
        _ = t.gettext
        lines = [_("Statistics of {name}").format(name=e.name)]
        if not e.rows:
            lines.append(_("No games played yet."))
        for family, scope, r in e.rows:
            where = _("this chat") if scope == "chat" else _("everywhere")
            lines.append(
                _("{game} ({where}): rating {rating:.1f}, rank {rank}, {record}").format(
                    game=_(GAME_NAMES.get(family, family)),
                    where=where,
                    rating=r.rating,
                    rank=r.rank,
                    record=record_text(r, t),
                )
            )
        return Message("\n".join(lines))
