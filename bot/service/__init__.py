"""The platform-neutral game service: tables in chats, seats, turns, timers, results, ratings.

Adapters (Telegram, Discord, terminal) translate platform input into calls of
:class:`TableService` and deliver the returned events; they never build game text (they call
``bot.render.Renderer.render``) and never touch the engine or the store.

Building one (the composition root, ``bot.cli``, does this)::

    store = Store.open(settings.url); await store.upgrade()
    service = TableService(store, registry=default_registry(), computers=ComputerPlayers(),
                           timers=TimerSettings(reminder=60, autoplay=120, takeover_after=2))

Ids are platform-neutral strings: ``ChatRef(platform, chat_id)`` (a group, a private chat, a
Discord channel/thread, the terminal) and ``UserRef(platform, user_id, name, locale)`` (``locale``
= the platform's language hint, e.g. Telegram's ``language_code``). Platforms: ``"telegram"``,
``"discord"``, ``"terminal"`` (``"ai"`` is reserved for computer seats).

Use cases (all ``async``, all return :class:`Result`)::

    create_table(chat, user, game, *, players=None, options=None)   # game: scopa | scopone |
                        # scientifico | scala40 | briscola | chiamata; options: docs/rules.md names
    join(chat, user, table_id=None)
    leave(chat, user, table_id=None)   # a lobby; or mid-game: a computer of the table's level
                        # plays the seat to the end, the game counts as lost (bot.service.seats)
    kick(chat, user, *, target=None, seat=None, table_id=None, is_admin=False)   # the creator
                        # or an admin; no target: the players come back as buttons (kick_list)
    add_computer(chat, user, level="easy", table_id=None)            # easy | medium | hard
    choose_seat(chat, user, seat, *, table_id=None)   # 4 players: seats 0+2 vs 1+3
    start(chat, user, table_id=None, *, fill_with=None)   # creator; fill_with=level seats CPUs
    play(chat, user, table_id, *, version, move)   # move string; version = the one the user saw
    press(chat, user, data, *, is_admin=False, private=False)   # a button: its
                        # bot.domain.Action, or the string "<table>:<version>:<action>"
                        # (below); is_admin (bool, or coroutine function of the table's chat)
                        # only for @kick; private: pressed in the user's private chat (a hand
                        # sent there), played at the table's own chat
    take_back(chat, user, table_id=None)     # a player takes the seat back from the computer
    abandon(chat, user, table_id=None, *, is_admin=False)   # creator or chat admin
    rematch(chat, user, table_id)            # same seats and options, dealt at once
    show(chat, user, table_id=None, *, public=False)   # spectate / "My hand" / re-post table
    rules(chat, user, table_id=None)         # Announcement(kind="rules", data={"options": ...})
    leaderboard(family, *, user, chat=None, limit=10, period="all")  # per chat when chat is
                        # given, else global; period "season": this season's board and the
                        # last season's podium (bot.service.seasons)
    stats(user, *, chat=None)
    set_language(locale, *, user, chat=None)  # "it" | "en": the chat's when chat is given
    chat_hint(chat, locale)                  # sync: the platform's hint for a chat's language
    chat_locale(chat) / user_locale(user, *, chat=None) -> str   # the language in use
    fire_due_timers(now=None) -> list[Result]  # call every few seconds (one per table fired)
    open_tables(chat) / tables_of(user) -> list[TableInfo];  export_game(table_id) -> dict
    import_game(document, *, chat_id=None) -> Imported   # an export_game document, replayed,
                        # checked and stored once (bot.service.archive; archive.GameFileError)
    set_max_open_tables(chat, count)           # an admin setting: more open tables in a chat
    chat_settings(chat) -> ChatSettings       # /settings: language, deck style, pictures, turn
                        # timer, who opens tables, default options per game (bot.service.settings)
    settings_view(chat, user, *, page="main", public=True)   # the menu, as a SettingsView
    change_setting(chat, user, key, value, *, is_admin)   # an admin's (anyone's in private)
    locale_for(chat, user, *, public)         # the language of an adapter's own reply

When a table is not given, the service picks the chat's open table where the user sits, else the
chat's newest open table. A chat holds at most one open table unless ``set_max_open_tables``.

A :class:`Result` has ``events`` (deliver them in order), ``table`` (the :class:`TableInfo`
touched) and ``refusal`` (``None`` on success). A refused call changed nothing; render
``refusal`` with ``renderer.refusal(result.refusal)`` (a short alert, <= 200 characters).
Refusal codes are listed in ``bot.domain.events.REFUSALS`` (``stale``, ``not_your_turn``,
``illegal_move``, ``not_seated``...). For ``illegal_move`` and ``bad_option`` the engine's reason
travels as English ``detail`` and, when the engine gave one, as ``params["template"]`` and
``params["params"]`` (``engine.errors.RuleText``), which the renderer translates.

Events (``bot.domain.events``), each with ``audience`` (``Audience("chat"|"user", platform,
id)``) and ``locale`` (already resolved: a chat's events in the chat's language,
``/settings``, else the default; a user's in the user's choice > their platform hint > the
chat's > default):

* :class:`LobbyView` (chat): the lobby; buttons join/leave/add computer/start.
* :class:`TableView` (chat): the public view (``view`` = ``game.view(None)``), after every call
  that changed the table. Edit the chat's table message in place.
* :class:`HandView` (user): a player's private view (hand; legal moves on their turn), for
  every present human whose view changed: after a move, all of them (a hand message shows the
  trick, the auction, the table too). Send/edit their private message (DM / ephemeral).
* :class:`TurnNotice` (user): their turn has come (on the deal, or when the turn passed to them
  in this call; not again after their own Scala 40 draw or meld); ``reminder=True`` from the
  timer.
* :class:`Announcement` (chat): ``kind`` in scopa, fuori, timeout, taken_over (its message has a
  "take my seat back" button), taken_back, abandoned (a lobby closed by itself: ``reason``
  expired/replaced, bot.service.lobby_timer), started, left (a player left or was kicked);
  rules and kick_list (to a user).
* :class:`SmazzataSummary` (chat): the point breakdown of a finished smazzata (Scopa) or the
  penalties of a finished hand (Scala 40; ``data`` has closer, in_hand, eliminated), or a
  Briscola deal (``scores``: card_points and score per side; ``data``: winner, and in chiamata
  caller, socio, called, threshold, caller_points, won, cappotto; ``bot.service.briscola``).
* :class:`GameOver` (chat): ranks, points, FIGS multiplier, rating changes.
* :class:`Leaderboard`, :class:`Stats` (chat or user).

Rendering and buttons: ``Renderer().render(event) -> Message(text, buttons)`` where buttons are
rows of ``Button(label, data)``; ``data`` is ``"<table>:<version>:<action>"`` (at most 64 bytes,
so it fits Telegram's callback data and Discord's 100-character custom ids). Give ``data`` back
unchanged to :meth:`TableService.press` (or the :class:`bot.domain.Action` it decodes to).
Actions: a move string (``7D:3C+4S``), ``?<card>``
(second step: that card's capture choices), ``@join``, ``@leave``, ``@start``, ``@fill.<level>``,
``@ai.<level>``, ``@seat.<n>``, ``@back``, ``@hand``, ``@rematch``, ``@abandon``, ``@quit``
(the hand asks "leave the game?"), ``@kick.<seat>``. A press on an
older version is refused with ``stale``. The codec is :class:`bot.domain.Action`
(``Action.decode(data)``, ``action.encode()``); ``encode_button``/``decode_button`` frame it.

Computer players: ``ComputerPlayers`` maps the levels easy/medium/hard to ``engine.ai`` player
names (in ``bot/service/players.py``, the one place to change when stronger players arrive).

The code: ``bot/service/service.py`` says how :class:`TableService` is put together from one
module per concern (lobby, turns, timers, languages, settings, import/export, leaderboards):
composed, not inherited, it makes one ``TableCore`` (``core.py``: the tables) and gives it to
the use-case objects (``service.turns``, ``service.playing``, ``service.viewing``,
``service.lobby``, ...), whose use cases it offers under the names above.

Guarantees: every accepted move is committed before its events are returned; updates are
compare-and-set on the table's version (two processes on one database never apply two moves on
one version); computer turns run off the event loop (a thread, or for ``hard`` a worker process
when ``ComputerPlayers(processes=N)``) right after the move that leads to them and are stored
like any move; turn deadlines live in the database, so timers survive a restart.
"""

from __future__ import annotations

from bot.domain.events import (
    REFUSALS,
    Announcement,
    Audience,
    BoardRow,
    ButtonData,
    ChatRef,
    Event,
    GameOver,
    HandView,
    Leaderboard,
    LobbyView,
    RatingDelta,
    Refusal,
    Result,
    SeatInfo,
    SmazzataSummary,
    Stats,
    TableChange,
    TableEvent,
    TableInfo,
    TableView,
    TurnNotice,
    UserRef,
    decode_button,
    encode_button,
)
from bot.service.games import GameKind, Registry, default_registry
from bot.service.players import LEVELS, ComputerPlayers
from bot.service.service import Imported, TableService, TimerSettings
from bot.service.settings import ChatSettings, SettingsView

__all__ = [
    "LEVELS",
    "REFUSALS",
    "Announcement",
    "Audience",
    "BoardRow",
    "ButtonData",
    "ChatRef",
    "ChatSettings",
    "ComputerPlayers",
    "Event",
    "GameKind",
    "GameOver",
    "HandView",
    "Imported",
    "Leaderboard",
    "LobbyView",
    "RatingDelta",
    "Refusal",
    "Registry",
    "Result",
    "SeatInfo",
    "SettingsView",
    "SmazzataSummary",
    "Stats",
    "TableChange",
    "TableEvent",
    "TableInfo",
    "TableService",
    "TableView",
    "TimerSettings",
    "TurnNotice",
    "UserRef",
    "decode_button",
    "default_registry",
    "encode_button",
]
