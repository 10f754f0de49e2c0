"""Interactions -> ``TableService`` calls; the service's events -> Discord messages.

Where each event goes (its ``audience`` says chat or user):
* the table (``LobbyView``/``TableView`` for the chat): one channel message per table, edited in
  place; it is the slash command's own reply at first, and is re-learned from any press on it
  (after a restart too);
* other chat events (announcements, summaries, game over, leaderboards): new channel messages;
* a player's hand (``HandView``): one hand message per player and table (``bot.discord.hands``),
  edited in place as the game goes on, also after other players' moves, while Discord lets the
  bot edit it (an ephemeral message: 15 minutes from the last press on it; a DM: always); a new
  one (the old one removed) when the player asks for it, or in DM mode when their turn comes;
* a turn notice for another player: a channel message mentioning only them (``/notify``; none
  against the computer alone), with a "My hand" button, replacing the table's previous notice;
  by DM for players who asked for DMs;
* other events for a user (private views, stats): to the user who is interacting, ephemerally,
  or by DM for users who asked for DMs (``/hand dm:True``); closed DMs fall back to the
  ephemeral path with a hint.

Discord's 3 seconds: a component press is deferred before the service is called (the service
plays the computers' turns before it returns), a table-creating command is deferred too; fast
commands (leaderboard, stats, rules, help, language) answer directly.

No rule and no game text here: the service decides, ``bot.render`` writes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import os
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import discord

from bot.discord.commands import ITALIAN_NAMES
from bot.discord.components import (
    ActionButton,
    ActionRef,
    ButtonSpec,
    SelectSpec,
    build_view,
)
from bot.discord.delivery import (
    CANNOT_MESSAGE_USER,
    Delivered,
    answer,
    picture_to_edit,
    picture_to_send,
    post_or_edit,
    send_private,
    shown_picture,
)
from bot.discord.hands import HandPlace, LiveHands
from bot.discord.limits import (
    MAX_CONTENT,
    MAX_ROW_BUTTONS,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    fit_content,
    split_text,
)
from bot.discord.settings_menu import ACTION_PREFIX as SETTINGS_ACTION
from bot.discord.settings_menu import SettingsMenu, is_channel_admin
from bot.render import (
    BRISCOLA_FAMILIES,
    QUIT,
    Message,
    Renderer,
    card_text,
    move_text,
    scala40_move_text,
)
from bot.render.briscola import briscola_move_text
from bot.render.images import RenderedImage
from bot.render.pictures import DEFAULT_STYLE, Pictures
from bot.service import (
    Announcement,
    Audience,
    ChatRef,
    Event,
    HandView,
    Leaderboard,
    LobbyView,
    Refusal,
    Result,
    Stats,
    TableEvent,
    TableService,
    TableView,
    TurnNotice,
    UserRef,
)
from bot.service.ports import AdapterState, MemoryState

logger = logging.getLogger(__name__)

PLATFORM = "discord"
TABLE_GAMES = ("scopa", "scopone", "scientifico", "scala40", "briscola", "chiamata")
# Options of the table commands that are not rule options.
SEATING_OPTIONS = ("players", "computers", "level")
# Lobby actions anyone in the channel may press; every other action needs a seat at the table.
# ("@kick" is the creator's or an admin's, who need not play: the service says who may.)
OPEN_ACTIONS = (
    "@join",
    "@leave",
    "@start",
    "@fill",
    "@ai",
    "@seat",
    "@hand",
    "@rematch",
    "@kick",
)
MAX_REMEMBERED = 10_000
# The adapter's own action on a hand: narrow the moves to those naming the chosen cards.
PICK_CARDS = "~pick"
# Games whose hands always get the card picker (many moves per turn: melds, attaches, discards).
PICKER_FAMILIES = ("scala40",)
# Adapter-state kinds: a table's channel message, a user's wish for DMs, a user's wish for
# turn mentions (the same key as Telegram's: {"on": bool}, on when absent), the channel message
# of a table's last turn notice (one at a time: the next one replaces it).
TABLE_MESSAGE = "table"
DM_WISH = "dm"
NOTIFY = "notify"
TURN_MESSAGE = "turn"
# The adapter's own "My hand" button on a turn notice (the service gets "@hand"); adapter
# actions keep a turn notice from being taken for the table message.
TURN_HAND = "~hand"
# A table command answers with the table itself; only a slower service gets "thinking…" first.
DEFER_AFTER = 1.5
LANGUAGE_NAMES = {"it": "Italiano", "en": "English"}


def N_(message: str) -> str:
    """Marks a string for extraction (the catalogs of ``bot/render/locale``)."""
    return message


TEXTS = {
    "old_button": N_("This button is no longer in use."),
    "notify_on": N_("Turn notices: on. I will mention you in the channel when it is your turn."),
    "notify_off": N_("Turn notices: off. I will not mention you when it is your turn."),
    "lang_user": N_("Your language: {language}. Your hands and private messages will be in it."),
    "lang_chat": N_(
        "This channel's language: {language}. Its tables and public messages will be in it."
    ),
    "lang_admin": N_("Only a server admin can set this channel's language."),
}


def locale_hint(locale: discord.Locale | None) -> str:
    """The service's language hint from the user's Discord client language."""
    return "it" if locale is not None and locale.value.startswith("it") else "en"


class IdMap(Protocol):
    """A small int -> int map the handler keeps: which channel message shows each table (so it
    is edited in place), which users asked for DMs. Persistent implementations make both
    survive a restart."""

    def get(self, key: int) -> int | None: ...

    def remember(self, key: int, value: int) -> None: ...

    def forget(self, key: int) -> None: ...


class MemoryIdMap:
    """The map in memory, for the most recently used keys only."""

    def __init__(self, limit: int = MAX_REMEMBERED) -> None:
        self.limit = limit
        self._ids: OrderedDict[int, int] = OrderedDict()

    def get(self, key: int) -> int | None:
        return self._ids.get(key)

    def remember(self, key: int, value: int) -> None:
        self._ids[key] = value
        self._ids.move_to_end(key)
        while len(self._ids) > self.limit:
            self._ids.popitem(last=False)

    def forget(self, key: int) -> None:
        self._ids.pop(key, None)

    def items(self) -> list[tuple[int, int]]:
        return list(self._ids.items())


class FileIdMap(MemoryIdMap):
    """The map in a small JSON file (one process per file), rewritten atomically on change."""

    def __init__(self, path: Path, limit: int = MAX_REMEMBERED) -> None:
        super().__init__(limit)
        self.path = path
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            for key, value in list(stored.items())[-limit:]:
                self._ids[int(key)] = int(value)
        except FileNotFoundError:
            pass
        except (ValueError, AttributeError) as exc:
            logger.warning("ignoring the unreadable %s: %s", path, exc)

    def remember(self, key: int, value: int) -> None:
        if self._ids.get(key) == value:
            return
        super().remember(key, value)
        self._write()

    def forget(self, key: int) -> None:
        if key in self._ids:
            super().forget(key)
            self._write()

    def _write(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(self.path.suffix + ".tmp")
        temporary.write_text(json.dumps({str(k): v for k, v in self._ids.items()}), "utf-8")
        os.replace(temporary, self.path)


def view_of(message: Message) -> discord.ui.View | None:
    """Persistent components for the renderer's button rows (already within 5 rows of 5; rows
    are re-laid out if a renderer ever sends more)."""
    rows = [row for row in message.buttons if row]
    if not rows:
        return None
    if len(rows) > MAX_ROWS or any(len(row) > MAX_ROW_BUTTONS for row in rows):
        flat = [b for row in rows for b in row][: MAX_ROWS * MAX_ROW_BUTTONS]
        rows = [tuple(flat[i : i + MAX_ROW_BUTTONS]) for i in range(0, len(flat), MAX_ROW_BUTTONS)]
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows):
        for button in row:
            style = discord.ButtonStyle.secondary
            ref = ActionRef.parse(button.data)
            if not ref.action.startswith(("@", "?")):
                style = discord.ButtonStyle.primary  # a move
            view.add_item(ActionButton(ref, label=button.label, style=style, row=index))
    return view


def hand_view(
    event: HandView,
    message: Message,
    *,
    picked: Sequence[str] = (),
    page: int = 0,
    label: Callable[[str], str] = move_text,
) -> discord.ui.View | None:
    """The components of a hand. For Scala 40 (or when the renderer's 25 buttons could not hold
    every move) a multi-select of the hand's cards comes first; below it the renderer's buttons
    (Scala 40: draw, open, meld, attach, discard...), or, once cards are picked, the moves that
    name every picked card, labelled by ``label`` and paged if need be. Picking is plain text
    matching of the cards' own strings in the move strings: the adapter knows no rules."""
    if event.focus == QUIT:
        return view_of(message)  # "leave the game?": yes, or back
    moves = tuple(getattr(event.view, "legal_moves", ()) or ())
    # Move strings name cards without the deck mark (``7D'`` is the second deck's 7D).
    cards = list(dict.fromkeys(str(c).rstrip("'") for c in getattr(event.view, "hand", ())))
    shown = [button for row in message.buttons for button in row]
    if not moves or not cards:
        return view_of(message)
    truncated = len(shown) >= MAX_ROWS * MAX_ROW_BUTTONS and len(moves) > len(shown)
    if event.table.family not in PICKER_FAMILIES and not truncated:
        return view_of(message)
    picked = [c for c in picked if c in cards]
    if picked or truncated:
        wanted = [m for m in moves if all(c in m for c in picked)]
        buttons = [ButtonSpec(label(m), m, "primary") for m in wanted]
    else:
        buttons = []
        for button in shown:
            action = ActionRef.parse(button.data).action
            style = "secondary" if action.startswith(("@", "?")) else "primary"
            buttons.append(ButtonSpec(button.label, action, style))
    options = tuple((card_text(c), c) for c in cards[:MAX_SELECT_OPTIONS])
    return build_view(
        table_id=event.table.id,
        version=event.table.version,
        selects=[SelectSpec(PICK_CARDS, options, None, 1, len(options))],
        buttons=buttons,
        page=page,
    )


def _latest_table_views(events: Iterable[Event]) -> list[Event]:
    """The events to deliver: a table message is edited in place, so of several lobby/table
    views of one table for the chat only the last is shown."""
    events = list(events)
    last: dict[int, int] = {}
    for index, event in enumerate(events):
        if isinstance(event, LobbyView | TableView) and event.audience.kind == "chat":
            last[event.table.id] = index
    return [
        event
        for index, event in enumerate(events)
        if not (
            isinstance(event, LobbyView | TableView)
            and event.audience.kind == "chat"
            and last[event.table.id] != index
        )
    ]


class ServiceHandler:
    """The Discord front end of a :class:`TableService` (implements ``bot.discord.bot.Handler``)."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        *,
        state: AdapterState | None = None,
        pictures: Pictures | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.pictures = pictures
        # Which message shows each table (and the picture file it shows), who wants DMs: in the
        # store in production, so a restarted or second process edits the same message.
        self.state: AdapterState = state if state is not None else MemoryState()
        # Each player's hand message, kept up to date while Discord lets us edit it.
        self.hands = LiveHands(self.state, clock=clock)
        self.client: discord.Client | None = None
        self.settings_menu = SettingsMenu(service, renderer)

    def bind(self, client: discord.Client) -> None:
        """The client used for deliveries with no interaction at hand (turn timers)."""
        self.client = client

    # ------------------------------------------------------------------ identities

    @staticmethod
    def user_of(interaction: discord.Interaction[Any]) -> UserRef:
        user = interaction.user
        return UserRef(PLATFORM, str(user.id), user.display_name, locale_hint(interaction.locale))

    @staticmethod
    def chat_of(interaction: discord.Interaction[Any]) -> ChatRef:
        return ChatRef(PLATFORM, str(interaction.channel_id))

    async def _chat_for(self, interaction: discord.Interaction[Any], table_id: int) -> ChatRef:
        """A press in a DM (a hand sent there) plays at the table's own channel."""
        if interaction.guild_id is not None:
            return self.chat_of(interaction)
        for table in await self.service.tables_of(self.user_of(interaction)):
            if table.id == table_id:
                return ChatRef(table.platform, table.chat_id)
        return self.chat_of(interaction)

    def view_for(self, event: Event, message: Message) -> discord.ui.View | None:
        if isinstance(event, HandView):
            return hand_view(event, message, label=self.move_label(event))
        return view_of(message)

    async def picture(self, event: Event, *, picked: Sequence[str] = ()) -> RenderedImage | None:
        """The picture of a table or hand event (``None``: pictures off, or none for it)."""
        if self.pictures is None:
            return None
        if isinstance(event, TableView):
            return await self.pictures.table(event)
        if isinstance(event, HandView):
            hand = [str(c).rstrip("'") for c in getattr(event.view, "hand", ())]
            selected = frozenset(i for i, card in enumerate(hand) if card in picked)
            return await self.pictures.hand(event, selected=selected)
        if isinstance(event, Stats):
            return await self.pictures.stats(event)
        return None

    async def table_message(self, table_id: int) -> tuple[int | None, str | None]:
        """The message showing a table, and the picture file it shows (``None``: unknown)."""
        found = await self.state.state_get(
            platform=PLATFORM, kind=TABLE_MESSAGE, scope="", table_id=table_id
        )
        if not isinstance(found, dict) or not isinstance(found.get("message_id"), int):
            return None, None
        picture = found.get("picture")
        return found["message_id"], picture if isinstance(picture, str) else None

    async def _keep_table_message(
        self, picture: str | None, *, table_id: int, message_id: int
    ) -> None:
        await self.state.state_put(
            {"message_id": message_id, "picture": picture},
            platform=PLATFORM,
            kind=TABLE_MESSAGE,
            scope="",
            table_id=table_id,
        )

    def move_label(self, event: TableEvent) -> Callable[[str], str]:
        """How the renderer writes a move of this table's game, in the event's language."""
        if event.table.family == "scala40":
            translations = self.renderer.translations(event.locale)
            return lambda move: scala40_move_text(move, translations)
        if event.table.family in BRISCOLA_FAMILIES:
            words = self.renderer.translations(event.locale)
            return lambda move: briscola_move_text(move, words)
        return move_text

    async def wants_dm(self, user_id: int) -> bool:
        found = await self.state.state_get(platform=PLATFORM, kind=DM_WISH, scope=str(user_id))
        return bool(found)

    def text(self, key: str, locale: str | None) -> str:
        """One of the adapter's own few texts (``TEXTS``), in ``locale``."""
        return self.renderer.translations(locale).gettext(TEXTS[key])

    async def notify_on(self, user_id: int) -> bool:
        """Whether the user wants turn mentions (``/notify``; on unless they said off)."""
        found = await self.state.state_get(platform=PLATFORM, kind=NOTIFY, scope=str(user_id))
        return not (isinstance(found, dict) and found.get("on") is False)

    async def _set_notify(self, user_id: int, on: bool) -> None:
        await self.state.state_put({"on": on}, platform=PLATFORM, kind=NOTIFY, scope=str(user_id))

    async def _set_dm(self, user_id: int, wanted: bool) -> None:
        if wanted:
            await self.state.state_put(True, platform=PLATFORM, kind=DM_WISH, scope=str(user_id))
        else:
            await self.state.state_delete(platform=PLATFORM, kind=DM_WISH, scope=str(user_id))

    # ------------------------------------------------------------------ slash commands

    async def command(
        self, interaction: discord.Interaction[Any], name: str, options: Mapping[str, Any]
    ) -> None:
        """Run a slash command (one service use case each)."""
        chat, user = self.chat_of(interaction), self.user_of(interaction)
        self._hint_chat(interaction)
        if name in TABLE_GAMES:
            # No public "thinking…" unless the service is slow: a refusal (a table is already
            # open here) then stays private, and a new table is the command's own reply.
            opening = asyncio.ensure_future(
                self._open_table(chat, user, name, options, is_admin=is_channel_admin(interaction))
            )
            done, _ = await asyncio.wait({opening}, timeout=DEFER_AFTER)
            if not done:
                await _defer_command(interaction, private=False)
            result = await opening
        elif name == "hand":
            await self._set_dm(interaction.user.id, bool(options.get("dm")))
            await _defer_command(interaction, private=True)
            result = await self.service.show(chat, user)
        elif name == "leaderboard":
            scoped = options.get("scope") == "chat"
            result = await self.service.leaderboard(
                options.get("family") or "scopa",
                user=user,
                chat=chat if scoped else None,
                period="season" if options.get("period") == "season" else "all",
            )
            if not scoped and interaction.guild_id is not None:
                # The global board too is a public answer in the channel, like the chat's.
                where = Audience("chat", PLATFORM, chat.chat_id)
                locale = await self.service.chat_locale(chat)
                result = _retarget(result, where, locale)
        elif name == "stats":
            player = options.get("player")
            who = user
            if isinstance(player, discord.abc.User):
                who = UserRef(PLATFORM, str(player.id), player.display_name, user.locale)
            result = await self.service.stats(who, chat=chat)
            if who.user_id != user.user_id:
                # About another player, but for the asker to read, in the asker's language.
                asker = Audience("user", PLATFORM, user.user_id)
                locale = await self.service.user_locale(user, chat=chat)
                result = _retarget(result, asker, locale)
        elif name == "rules":
            result = await self.service.rules(chat, user)
        elif name == "lang":
            await self._language(interaction, chat, user, options)
            return
        elif name == "abandon":
            result = await self.service.abandon(chat, user, is_admin=is_channel_admin(interaction))
        elif name == "leave":
            result = await self.service.leave(chat, user)
        elif name == "kick":
            player = options.get("player")
            target = None
            if isinstance(player, discord.abc.User):
                target = UserRef(PLATFORM, str(player.id), player.display_name)
            result = await self.service.kick(
                chat, user, target=target, is_admin=is_channel_admin(interaction)
            )
        elif name == "notify":
            on = options.get("state") != "off"
            await self._set_notify(interaction.user.id, on)
            text = self.text(
                "notify_on" if on else "notify_off", await self.service.user_locale(user, chat=chat)
            )
            await answer(interaction, text, ephemeral=True)
            return
        elif name == "help":
            await answer(
                interaction,
                self._help(interaction, await self._locale(interaction)),
                ephemeral=True,
            )
            return
        elif name == "style":
            await answer(interaction, await self._style(interaction, options), ephemeral=True)
            return
        elif name == "settings":
            await self.settings_menu.command(interaction, chat, user)
            return
        else:
            raise ValueError(f"unknown command {name!r}")
        await self.deliver(result, interaction)

    def _hint_chat(self, interaction: discord.Interaction[Any]) -> None:
        """A server's preferred language is its channels' language until one is set."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self.service.chat_hint(self.chat_of(interaction), locale_hint(interaction.guild_locale))

    async def _locale(self, interaction: discord.Interaction[Any]) -> str:
        """The interacting user's language: their /lang, else their Discord client's."""
        return await self.service.user_locale(
            self.user_of(interaction), chat=self.chat_of(interaction)
        )

    async def _language(
        self,
        interaction: discord.Interaction[Any],
        chat: ChatRef,
        user: UserRef,
        options: Mapping[str, Any],
    ) -> None:
        """/lang: the user's own language, or (``scope:chat``, admins) the channel's."""
        code = str(options.get("language"))
        for_chat = options.get("scope") == "chat" and interaction.guild_id is not None
        if for_chat and not is_channel_admin(interaction):
            await answer(
                interaction,
                self.text("lang_admin", await self._locale(interaction)),
                ephemeral=True,
            )
            return
        result = await self.service.set_language(code, user=user, chat=chat if for_chat else None)
        if result.refusal is not None:
            await self.deliver(result, interaction)
            return
        name = LANGUAGE_NAMES.get(code, code)
        key = "lang_chat" if for_chat else "lang_user"
        await answer(
            interaction, self.text(key, code).format(language=name), ephemeral=not for_chat
        )

    async def _open_table(
        self,
        chat: ChatRef,
        user: UserRef,
        game: str,
        options: Mapping[str, Any],
        *,
        is_admin: bool = False,
    ) -> Result:
        rules = {k: v for k, v in options.items() if k not in SEATING_OPTIONS}
        result = await self.service.create_table(
            chat, user, game, players=options.get("players"), options=rules, is_admin=is_admin
        )
        computers = int(options.get("computers") or 0)
        if not result.ok or result.table is None or computers <= 0:
            return result
        events = list(result.events)
        level = str(options.get("level") or "easy")
        table_id = result.table.id
        for _ in range(min(computers, result.table.players - 1)):
            added = await self.service.add_computer(chat, user, level, table_id)
            if not added.ok:
                return Result(events, result.table, added.refusal)
            events.extend(added.events)
            result = added
        return Result(events, result.table)

    async def _style(
        self, interaction: discord.Interaction[Any], options: Mapping[str, Any]
    ) -> str:
        """Set the deck style of the pictures (this channel's, or the user's own); the reply."""
        locale = await self._locale(interaction)
        if self.pictures is None or not self.pictures.enabled:
            return self.renderer.notice("style_off", locale)
        deck = str(options.get("deck") or DEFAULT_STYLE)
        if deck not in self.pictures.style_choices():
            deck = DEFAULT_STYLE
        mine = options.get("scope") == "me" or interaction.guild_id is None
        owner = str(interaction.user.id) if mine else str(interaction.channel_id)
        await self.pictures.set_style(deck, platform=PLATFORM, owner=owner)
        label = self.pictures.style_label(deck, locale)
        return self.renderer.notice("style_set", locale).format(style=label)

    def _help(self, interaction: discord.Interaction[Any], locale: str) -> str:
        """The slash commands with their descriptions, in the user's language (the command
        catalog's own text: what to type, not how to play)."""
        italian = locale == "it"
        translations = self.renderer.translations(locale)
        client = interaction.client
        tree = getattr(client, "tree", None)
        lines = []
        for command in tree.get_commands() if tree is not None else ():
            if not isinstance(command, discord.app_commands.Command):
                continue
            name, description = command.name, command.description
            if italian:
                name = ITALIAN_NAMES.get(name, name)
            description = translations.gettext(description)
            lines.append(f"/{name} — {description}")
        return "\n".join(lines)

    # ------------------------------------------------------------------ components

    async def may_act(self, interaction: discord.Interaction[Any], ref: ActionRef) -> bool:
        """Lobby buttons are for anyone; moves only for a player seated at that table."""
        if ref.action.startswith(OPEN_ACTIONS) or ref.action.startswith("~"):
            return True
        try:
            chat = await self._chat_for(interaction, ref.table_id)
            tables = await self.service.open_tables(chat)
        except Exception as error:
            # discord.py would drop the press silently: say something and log why.
            await self.failed(interaction, error)
            return False
        table = next((t for t in tables if t.id == ref.table_id), None)
        if table is None or table.seat_of(PLATFORM, str(interaction.user.id)) is not None:
            return True  # an unknown or closed table: the service gives the precise refusal
        refusal = Refusal("not_seated", locale_hint(interaction.locale))
        await interaction.response.send_message(
            self.renderer.refusal(refusal, limit=MAX_CONTENT), ephemeral=True
        )
        return False

    async def act(
        self, interaction: discord.Interaction[Any], ref: ActionRef, values: Sequence[str]
    ) -> None:
        """A button press or a select: acknowledge at once, then hand it to the service."""
        if not interaction.response.is_done():
            await interaction.response.defer()
        self._hint_chat(interaction)
        if ref.action.startswith(SETTINGS_ACTION):
            try:
                await self.settings_menu.press(
                    interaction, ref, self.chat_of(interaction), self.user_of(interaction)
                )
            except Exception as error:
                await self.failed(interaction, error)
            return
        action = ref.action
        if action == TURN_HAND:
            action = "@hand"  # "My hand" on a turn notice
        elif action.startswith("~"):
            # The adapter's own: picking cards, turning a page of moves. No service action.
            if ref.action == PICK_CARDS or ref.page is not None:
                await self._redraw_hand(interaction, ref, picked=values, page=ref.page or 0)
            return
        if values:
            # A select menu's action is completed by the chosen values, joined with "+" (cards
            # picked for a meld: "<action>7D+8D+9D").
            action = action + "+".join(values)
        try:
            chat = await self._chat_for(interaction, ref.table_id)
            user = self.user_of(interaction)
            result = await self.service.press(
                chat,
                user,
                f"{ref.table_id}:{ref.version}:{action}",
                is_admin=is_channel_admin(interaction),
            )
            await self.deliver(result, interaction)
            source = interaction.message
            if action == "@leave" and result.ok and source is not None and source.flags.ephemeral:
                # Left the game from the hand's question: the hand keeps no buttons.
                try:
                    await interaction.edit_original_response(view=None)
                except discord.HTTPException as error:
                    logger.info("could not clear the left hand's buttons: %s", error)
            if (
                result.refusal is not None
                and result.refusal.code == "stale"
                and source is not None
                and source.flags.ephemeral
            ):
                # An old hand message: it heals, showing the current hand (and becomes the hand).
                await self._redraw_hand(interaction, ref, picked=(), page=0)
        except Exception as error:
            await self.failed(interaction, error)

    async def _redraw_hand(
        self,
        interaction: discord.Interaction[Any],
        ref: ActionRef,
        *,
        picked: Sequence[str],
        page: int,
    ) -> None:
        """Show the hand message again with the moves narrowed to the picked cards."""
        try:
            chat = await self._chat_for(interaction, ref.table_id)
            result = await self.service.show(chat, self.user_of(interaction), ref.table_id)
            if result.refusal is not None:
                await self._alert(
                    interaction, self.renderer.refusal(result.refusal, limit=MAX_CONTENT)
                )
                return
            mine = str(interaction.user.id)
            hand = next(
                (e for e in result.events if isinstance(e, HandView) and e.audience.id == mine),
                None,
            )
            if hand is None:
                return
            message = self.renderer.render(hand)
            view = hand_view(hand, message, picked=picked, page=page, label=self.move_label(hand))
            image = await self.picture(hand, picked=picked)
            kwargs: dict[str, Any] = {
                "view": view,
                **picture_to_edit(image, shown_picture(interaction.message), alt=message.text),
            }
            await interaction.edit_original_response(content=fit_content(message.text), **kwargs)
            source = interaction.message
            if source is not None and source.flags.ephemeral:
                # The pressed message is the player's hand from now on, with a fresh token.
                user_id, table_id = interaction.user.id, hand.table.id
                place = await self.hands.get(user_id, table_id)
                if place is not None and not place.is_message(source):
                    await self.hands.remove(interaction.client, place)
                picture = None if image is None else image.filename
                await self.hands.put(
                    user_id,
                    table_id,
                    self.hands.hook(interaction, source, original=True, picture=picture),
                )
        except Exception as error:
            await self.failed(interaction, error)

    async def failed(self, interaction: discord.Interaction[Any], error: Exception) -> None:
        """A command or press raised: logged with its stack; the user sees a generic refusal."""
        logger.error("interaction %s failed", interaction.id, exc_info=error)
        text = self.renderer.refusal(
            Refusal("bad_button", locale_hint(interaction.locale)), limit=MAX_CONTENT
        )
        try:
            await answer(interaction, text, ephemeral=True)
        except discord.HTTPException:
            logger.warning("could not tell the user that the command failed")

    # ------------------------------------------------------------------ delivery

    async def deliver(
        self, result: Result, interaction: discord.Interaction[Any] | None = None
    ) -> None:
        """Send a service result where it belongs (``interaction`` absent: a turn timer)."""
        if result.refusal is not None:
            if interaction is not None:
                await self._alert(
                    interaction, self.renderer.refusal(result.refusal, limit=MAX_CONTENT)
                )
            return
        edited_source = False
        # A player's hand already says whose turn it is and shows the table: their private
        # table view in the same result would only repeat it, and so would a private turn
        # notice (a channel mention is another matter: it is the notification).
        with_hand = {e.audience.id for e in result.events if isinstance(e, HandView)}
        turns = {
            e.audience.id for e in result.events if isinstance(e, TurnNotice) and not e.reminder
        }
        reached: set[str] = set()  # players whose hand message now shows this result
        events = _latest_table_views(result.events)
        if interaction is not None and not interaction.response.is_done():
            events = _reply_first(
                events, interaction, table_id=result.table.id if result.table else None
            )
        for event in events:
            if (
                event.audience.kind == "user"
                and isinstance(event, TableView)
                and event.audience.id in with_hand
            ):
                continue
            message = self.renderer.render(event)
            if event.audience.kind == "chat":
                if isinstance(event, LobbyView | TableView):
                    await self._show_table(event, message, interaction)
                    if event.table.status not in ("lobby", "playing"):
                        await self._clear_turn_message(event.table.id, interaction)
                        client = self._client(interaction)
                        if client is not None:
                            await self.hands.close_table(client, event.table.id)
                else:
                    await self._post(int(event.audience.id), message, interaction, event=event)
                    if isinstance(event, Announcement) and event.kind == "abandoned":
                        await self._closed(event, message, interaction)
                    elif isinstance(event, Announcement) and event.kind == "left":
                        await self._hand_left(event, interaction)
                continue
            target = int(event.audience.id)
            mine = interaction is not None and interaction.user.id == target
            if isinstance(event, HandView):
                shown, edited = await self._deliver_hand(
                    event,
                    message,
                    interaction if mine else None,
                    client=self._client(interaction),
                    can_edit_source=not edited_source,
                    turn=event.audience.id in turns,
                )
                edited_source |= edited
                if shown:
                    reached.add(event.audience.id)
                continue
            if isinstance(event, TurnNotice) and not mine:
                await self._turn_notice(
                    event, message, interaction, hand_shown=event.audience.id in reached
                )
                continue
            if isinstance(event, TurnNotice) and event.audience.id in with_hand:
                continue
            if mine:
                assert interaction is not None
                edited_source |= await self._to_interacting_user(
                    interaction, event, message, can_edit_source=not edited_source
                )
            elif await self.wants_dm(target):
                client = self._client(interaction)
                if client is not None:
                    view = self.view_for(event, message)
                    image = await self.picture(event)
                    await send_private(client, target, message.text, view=view, image=image)
        if interaction is not None and _original_pending(interaction):
            # A deferred command whose events all went elsewhere: clear its "thinking" reply.
            await interaction.delete_original_response()
            interaction.extras[_FILLED] = True
        if interaction is not None and not interaction.response.is_done():
            # Nothing to show (e.g. a setting changed): Discord still wants an answer.
            await answer(interaction, "✓", ephemeral=True)

    async def _hand_left(
        self, event: Announcement, interaction: discord.Interaction[Any] | None
    ) -> None:
        """A player left the game (or was removed): their hand message keeps no buttons."""
        seat = event.data.get("seat")
        info = event.table.seats[seat] if isinstance(seat, int) else None
        client = self._client(interaction)
        if info is None or client is None or info.platform != PLATFORM:
            return
        if info.user_id.isdigit():
            await self.hands.close_hand(client, int(info.user_id), event.table.id)

    def _client(self, interaction: discord.Interaction[Any] | None) -> discord.Client | None:
        return self.client or (interaction.client if interaction is not None else None)

    async def _alert(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A refusal, privately (a command's public "thinking" reply is removed first)."""
        if _original_pending(interaction):
            if interaction.extras.get(_DEFERRED) == "private":
                await _fill_original(interaction, text, None)
                return
            await interaction.delete_original_response()
            interaction.extras[_FILLED] = True
        await answer(interaction, text, ephemeral=True)

    async def _show_table(
        self,
        event: TableEvent,
        message: Message,
        interaction: discord.Interaction[Any] | None,
    ) -> None:
        """Edit the table's channel message in place, or post it (as the reply of the command
        that opened the table)."""
        channel_id = int(event.audience.id)
        table_id = event.table.id
        view = view_of(message)
        image = await self.picture(event)
        if (
            interaction is not None
            and interaction.channel_id == channel_id
            and _original_pending(interaction)
            and interaction.extras.get(_DEFERRED) == "public"
        ):
            sent = await _fill_original(interaction, message.text, view, image)
            picture = None if image is None else image.filename
            await self._keep_table_message(picture, table_id=table_id, message_id=sent.id)
            return
        if (
            interaction is not None
            and interaction.type is discord.InteractionType.application_command
            and interaction.channel_id == channel_id
            and not interaction.response.is_done()
        ):
            # A table command answered at once: the table is the command's own reply.
            reply = await answer(interaction, message.text, view=view, image=image)
            if reply is None:
                reply = await interaction.original_response()
            picture = None if image is None else image.filename
            await self._keep_table_message(picture, table_id=table_id, message_id=reply.id)
            return
        client = self._client(interaction)
        if client is None:
            logger.warning("no Discord client to show table %s", table_id)
            return
        known, shown = await self.table_message(table_id)
        source = None if interaction is None else interaction.message
        if (
            source is not None
            and interaction is not None
            and interaction.channel_id == channel_id
            and not source.flags.ephemeral
            and _shows_table(source, table_id)
        ):
            # A press on the table message itself: that is the message, whatever was known.
            known, shown = source.id, shown_picture(source)
        message_id = await post_or_edit(
            client, channel_id, known, message.text, view=view, image=image, shown=shown
        )
        picture = None if image is None else image.filename
        await self._keep_table_message(picture, table_id=table_id, message_id=message_id)

    async def _post(
        self,
        channel_id: int,
        message: Message,
        interaction: discord.Interaction[Any] | None,
        *,
        event: Event,
    ) -> None:
        view = view_of(message)
        image = await self.picture(event)
        if (
            interaction is not None
            and interaction.channel_id == channel_id
            and not interaction.response.is_done()
        ):
            # A command answered at once (a leaderboard, an abandon): the reply is the message.
            await answer(interaction, message.text, view=view, image=image)
            return
        client = self._client(interaction)
        if client is None:
            logger.warning("no Discord client to post in %s", channel_id)
            return
        channel = client.get_partial_messageable(channel_id)
        parts = split_text(message.text)
        for index, part in enumerate(parts):
            if index == len(parts) - 1:
                extra: dict[str, Any] = {} if view is None else {"view": view}
                await channel.send(part, **extra, **picture_to_send(image, alt=message.text))
            else:
                await channel.send(part)

    async def _deliver_hand(
        self,
        event: HandView,
        message: Message,
        interaction: discord.Interaction[Any] | None,
        *,
        client: discord.Client | None,
        can_edit_source: bool,
        turn: bool,
    ) -> tuple[bool, bool]:
        """Show a player their hand: in the one hand message they have at this table (edited
        in place while Discord allows), or in a new one when they asked for it (``interaction``
        is theirs) or it is their turn in DM mode. Returns (the hand is on their screen, the
        pressed message was edited)."""
        user_id, table_id = int(event.audience.id), event.table.id
        place = await self.hands.get(user_id, table_id)
        view = self.view_for(event, message)
        image = await self.picture(event)
        if await self.wants_dm(user_id):
            shown = await self._dm_hand(
                event, message, place, interaction, client=client, view=view, image=image, turn=turn
            )
            if shown or interaction is None:
                return shown, False
            place = await self.hands.get(user_id, table_id)  # DMs closed: ephemeral after all
        if interaction is None:
            # Another player's move changed this hand: edit it where it is, if we still can.
            if place is None or client is None or not self.hands.usable(place):
                return False, False
            try:
                place = await self.hands.edit(client, place, message.text, view=view, image=image)
            except discord.HTTPException as error:
                logger.info("hand of user %s unreachable (%s): forgotten", user_id, error.status)
                await self.hands.forget(user_id, table_id)
                return False, False
            await self.hands.put(user_id, table_id, place)
            return True, False
        source = interaction.message
        picture = None if image is None else image.filename
        if can_edit_source and source is not None and source.flags.ephemeral:
            # A press on a hand message (this one, or an older one that now shows the current
            # hand): edit it, and it is the hand from now on, with a fresh token.
            kwargs: dict[str, Any] = {
                "view": view,  # None clears the old move buttons
                **picture_to_edit(image, shown_picture(source), alt=message.text),
            }
            await interaction.edit_original_response(content=fit_content(message.text), **kwargs)
            if place is not None and not place.is_message(source) and client is not None:
                await self.hands.remove(client, place)
            new = self.hands.hook(interaction, source, original=True, picture=picture)
            await self.hands.put(user_id, table_id, new)
            return True, True
        # "My hand" on the table or a turn notice, or /hand: a new hand message, the old one
        # removed so no stale buttons stay on screen.
        if _original_pending(interaction) and interaction.extras.get(_DEFERRED) == "private":
            filled = await _fill_original(interaction, message.text, view, image)
            new = self.hands.hook(interaction, filled, original=True, picture=picture)
        else:
            sent = await answer(interaction, message.text, view=view, ephemeral=True, image=image)
            new = self.hands.hook(interaction, sent, original=False, picture=picture)
        if place is not None and client is not None:
            await self.hands.remove(client, place)
        await self.hands.put(user_id, table_id, new)
        return True, False

    async def _dm_hand(
        self,
        event: HandView,
        message: Message,
        place: HandPlace | None,
        interaction: discord.Interaction[Any] | None,
        *,
        client: discord.Client | None,
        view: discord.ui.View | None,
        image: RenderedImage | None,
        turn: bool,
    ) -> bool:
        """A hand by DM: the DM hand edited in place; posted anew (the old one deleted) when
        the player's turn comes (the new message is their notification) or they asked for it.
        DMs closed: the player's own interaction gets it ephemerally, with a hint."""
        user_id, table_id = int(event.audience.id), event.table.id
        if client is None:
            return False
        asked = interaction is not None and not (
            place is not None and place.is_message(interaction.message)
        )
        if place is not None and place.via == "dm" and not (turn or asked):
            try:
                place = await self.hands.edit(client, place, message.text, view=view, image=image)
                await self.hands.put(user_id, table_id, place)
                return True
            except discord.HTTPException as error:
                logger.info("DM hand of user %s not editable (%s)", user_id, error.status)
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
            extra: dict[str, Any] = {} if view is None else {"view": view}
            extra.update(picture_to_send(image, alt=message.text))
            sent = await channel.send(fit_content(message.text), **extra)
        except discord.Forbidden as error:
            if error.code != CANNOT_MESSAGE_USER:
                raise
            logger.info("DMs to user %s are closed", user_id)
            await self._set_dm(user_id, False)
            if interaction is not None:
                hint = self.renderer.notice("dm_closed_discord", event.locale)
                text = f"{message.text}\n\n{hint}"
                picture = None if image is None else image.filename
                if (
                    _original_pending(interaction)
                    and interaction.extras.get(_DEFERRED) == "private"
                ):
                    filled = await _fill_original(interaction, text, view, image)
                    new = self.hands.hook(interaction, filled, original=True, picture=picture)
                else:
                    sent_here = await answer(
                        interaction, text, view=view, ephemeral=True, image=image
                    )
                    new = self.hands.hook(interaction, sent_here, original=False, picture=picture)
                await self.hands.put(user_id, table_id, new)
                return True
            return False
        if place is not None:
            await self.hands.remove(client, place)
        picture = None if image is None else image.filename
        await self.hands.put(user_id, table_id, self.hands.dm(sent, picture=picture))
        return True

    async def _turn_notice(
        self,
        event: TurnNotice,
        message: Message,
        interaction: discord.Interaction[Any] | None,
        *,
        hand_shown: bool,
    ) -> None:
        """Tell a player their turn has come: by DM if they asked for DMs, else in the table's
        channel, mentioning them (only them) unless they turned mentions off or play alone
        against the computer; without a mention only when their hand could not be updated,
        as a fresh "My hand" prompt. A reminder adds nothing (one notification a turn)."""
        user_id = int(event.audience.id)
        client = self._client(interaction)
        if client is None:
            return
        if await self.wants_dm(user_id):
            if not hand_shown or event.reminder:
                await send_private(client, user_id, message.text)
            return
        if event.reminder:
            return  # the turn's notice (and its "My hand" button) is in the channel already
        humans = sum(1 for seat in event.table.seats if seat is not None and not seat.computer)
        mention = humans > 1 and await self.notify_on(user_id)
        if not mention and hand_shown:
            return
        table = event.table
        seat = table.seats[event.seat] if 0 <= event.seat < len(table.seats) else None
        if mention:
            text = f"<@{user_id}> {message.text}"
            allowed = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
            )
        else:
            name = discord.utils.escape_markdown(seat.name) if seat is not None else ""
            text = f"**{name}** {message.text}" if name else message.text
            allowed = discord.AllowedMentions.none()
        label = self.renderer.translations(event.locale).gettext("My hand")
        view = discord.ui.View(timeout=None)
        view.add_item(ActionButton(ActionRef(table.id, table.version, TURN_HAND), label=label))
        channel = client.get_partial_messageable(int(table.chat_id))
        sent = await channel.send(fit_content(text), view=view, allowed_mentions=allowed)
        await self._clear_turn_message(table.id, interaction)
        await self.state.state_put(
            {"channel_id": sent.channel.id, "message_id": sent.id},
            platform=PLATFORM,
            kind=TURN_MESSAGE,
            scope="",
            table_id=table.id,
        )

    async def _closed(
        self,
        event: Announcement,
        message: Message,
        interaction: discord.Interaction[Any] | None,
    ) -> None:
        """A closed table: its channel message says so and keeps no buttons (nor a picture of
        a game that is over); its turn notice goes, its hands lose their buttons."""
        table_id = event.table.id
        client = self._client(interaction)
        await self._clear_turn_message(table_id, interaction)
        if client is None:
            return
        await self.hands.close_table(client, table_id)
        known, shown = await self.table_message(table_id)
        if known is None:
            return
        channel = client.get_partial_messageable(int(event.audience.id))
        kwargs: dict[str, Any] = {"attachments": [], "embed": None} if shown else {}
        try:
            await channel.get_partial_message(known).edit(
                content=fit_content(message.text), view=None, **kwargs
            )
        except discord.HTTPException as error:
            logger.info("table message of closed table %s not edited: %s", table_id, error.status)
        await self._keep_table_message(None, table_id=table_id, message_id=known)

    async def _clear_turn_message(
        self, table_id: int, interaction: discord.Interaction[Any] | None
    ) -> None:
        """Delete a table's last turn notice: it has served (the channel keeps one at most)."""
        found = await self.state.state_get(
            platform=PLATFORM, kind=TURN_MESSAGE, scope="", table_id=table_id
        )
        if not isinstance(found, dict):
            return
        await self.state.state_delete(
            platform=PLATFORM, kind=TURN_MESSAGE, scope="", table_id=table_id
        )
        client = self._client(interaction)
        if client is None:
            return
        try:
            channel = client.get_partial_messageable(int(found["channel_id"]))
            await channel.get_partial_message(int(found["message_id"])).delete()
        except (discord.HTTPException, KeyError, TypeError, ValueError) as error:
            logger.info("old turn notice of table %s not deleted: %s", table_id, error)

    async def unknown_component(self, interaction: discord.Interaction[Any]) -> None:
        """A button or menu that is not Tavolo's current kind (left by an older version):
        acknowledged with a short notice instead of Discord's "This interaction failed"."""
        text = self.text("old_button", locale_hint(interaction.locale))
        try:
            await answer(interaction, text, ephemeral=True)
        except discord.HTTPException:
            logger.warning("could not answer a press on an unknown component")

    async def _to_interacting_user(
        self,
        interaction: discord.Interaction[Any],
        event: Event,
        message: Message,
        *,
        can_edit_source: bool,
    ) -> bool:
        """Deliver a private event to the user pressing; True when the source message was
        edited in place (only once per interaction)."""
        view = self.view_for(event, message)
        image = await self.picture(event)
        if await self.wants_dm(interaction.user.id):
            # Why a hand arrived here instead of by DM (the renderer's catalogs say it).
            hint = self.renderer.notice("dm_closed_discord", event.locale)
            delivered = await send_private(
                interaction.client,
                interaction.user.id,
                message.text,
                view=view,
                interaction=interaction,
                fallback_hint=hint,
                image=image,
            )
            if delivered is Delivered.EPHEMERAL:
                await self._set_dm(interaction.user.id, False)
            return False
        source = interaction.message
        if (
            can_edit_source
            and isinstance(event, HandView)
            and source is not None
            and source.flags.ephemeral
        ):
            kwargs: dict[str, Any] = {
                "view": view,  # None clears the old move buttons
                **picture_to_edit(image, shown_picture(source), alt=message.text),
            }
            await interaction.edit_original_response(content=fit_content(message.text), **kwargs)
            return True
        if _original_pending(interaction) and interaction.extras.get(_DEFERRED) == "private":
            await _fill_original(interaction, message.text, view, image)
            return False
        await answer(interaction, message.text, view=view, ephemeral=True, image=image)
        return False


def _reply_first(
    events: list[Event], interaction: discord.Interaction[Any], *, table_id: int | None = None
) -> list[Event]:
    """The events with the one that answers the interaction first: Discord hears back as soon
    as the service has decided, before the other messages are edited. An event of the result's
    own table comes before one of another table (a new table's lobby answers its command, not
    the stale lobby it replaced)."""
    channel = str(interaction.channel_id)
    user = str(interaction.user.id)
    found: list[int] = []
    for index, event in enumerate(events):
        here = event.audience.kind == "chat" and event.audience.id == channel
        if (here and interaction.guild_id is not None) or (
            event.audience.kind == "user" and event.audience.id == user
        ):
            found.append(index)
    own = [i for i in found if _table_of(events[i]) == table_id]
    chosen = own or found
    if not chosen:
        return events
    index = chosen[0]
    return [events[index], *events[:index], *events[index + 1 :]]


def _table_of(event: Event) -> int | None:
    return event.table.id if isinstance(event, TableEvent) else None


def _retarget(result: Result, audience: Audience, locale: str) -> Result:
    """The result with its leaderboard and stats events sent to ``audience`` in ``locale``."""
    events: list[Event] = [
        dataclasses.replace(e, audience=audience, locale=locale)
        if isinstance(e, Leaderboard | Stats)
        else e
        for e in result.events
    ]
    return Result(events, result.table, result.refusal)


_DEFERRED = "tavolo.deferred"  # "public" or "private": how a command was deferred
_FILLED = "tavolo.filled"  # the deferred reply got its content (or was deleted)


async def _defer_command(interaction: discord.Interaction[Any], *, private: bool) -> None:
    await interaction.response.defer(ephemeral=private, thinking=True)
    interaction.extras[_DEFERRED] = "private" if private else "public"


def _original_pending(interaction: discord.Interaction[Any]) -> bool:
    """A command was deferred and its "thinking" reply still waits for content."""
    return _DEFERRED in interaction.extras and not interaction.extras.get(_FILLED)


async def _fill_original(
    interaction: discord.Interaction[Any],
    text: str,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
) -> discord.Message:
    kwargs: dict[str, Any] = {} if view is None else {"view": view}
    kwargs.update(picture_to_edit(image, None, alt=text))
    sent = await interaction.edit_original_response(content=fit_content(text), **kwargs)
    interaction.extras[_FILLED] = True
    return sent


def _shows_table(message: discord.Message, table_id: int) -> bool:
    """Whether a channel message carries buttons of this table (so it is its table message)."""
    prefix = f"{table_id}:"
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None) or ""
            # The adapter's own actions ("~") ride on other messages too (a turn notice).
            if custom_id.startswith(prefix) and not custom_id.split(":", 2)[-1].startswith("~"):
                return True
    return False
