"""What every part of the Discord handler stands on: its dependencies, who is interacting and in
which chat, the adapter's own state (table messages, DM and mention wishes), the components and
picture of an event, and the generic refusal.

``ServiceHandler`` (``bot.discord.handler``) is this core with its parts on top, one module each:
``hand_delivery`` (hands and private messages), ``routing`` (a service result to its places),
``presses`` (buttons and menus), and the slash commands' cogs (``game_commands``,
``table_commands``, ``chat_commands``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.discord.activity import CoalescedEdits
from bot.discord.command_base import OptionValue
from bot.discord.delivery import answer
from bot.discord.hands import LiveHands
from bot.discord.inflight import InFlight
from bot.discord.interaction import Interaction
from bot.discord.limits import MAX_CONTENT
from bot.discord.message_views import hand_view, view_of
from bot.discord.newest import Newest
from bot.discord.replies import DEFERRED, FILLED, fill_original, original_pending
from bot.discord.settings_menu import SettingsMenu
from bot.render import N_, Message, Renderer
from bot.render.images import RenderedImage
from bot.render.pictures import Pictures
from bot.service import (
    ChatRef,
    Event,
    HandView,
    Refusal,
    Result,
    Stats,
    TableEvent,
    TableService,
    TableView,
    UserRef,
)
from bot.service.ports import AdapterState, MemoryState
from bot.service.presence import Presence

logger = logging.getLogger(__name__)

PLATFORM = "discord"
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
LANGUAGE_NAMES = {"it": "Italiano", "en": "English"}


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


@dataclass(frozen=True, slots=True)
class SlashCall:
    """A slash command as the handler's parts receive it (unset options left out)."""

    interaction: Interaction
    chat: ChatRef
    user: UserRef
    options: Mapping[str, OptionValue]

    def text(self, name: str) -> str | None:
        """The option ``name`` when it is a word (a choice's value)."""
        value = self.options.get(name)
        return value if isinstance(value, str) else None

    def number(self, name: str) -> int | None:
        """The option ``name`` when it is a whole number."""
        value = self.options.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def member(self, name: str) -> discord.abc.User | None:
        """The option ``name`` when it is a member of the server (or a user)."""
        value = self.options.get(name)
        return value if isinstance(value, discord.abc.User) else None


# A slash command's part: its reply sent already (None), or a service result to deliver.
CommandRun = Callable[[SlashCall], Awaitable[Result | None]]


class HandlerCore:
    """The handler's dependencies and the helpers every part of it uses."""

    def __init__(
        self,
        service: TableService,
        renderer: Renderer,
        *,
        state: AdapterState | None = None,
        pictures: Pictures | None = None,
        clock: Callable[[], float] = time.time,
        presence: Presence | None = None,
    ) -> None:
        self.service = service
        self.renderer = renderer
        self.pictures = pictures
        # Which message shows each table (and the picture file it shows), who wants DMs: in the
        # store in production, so a restarted or second process edits the same message.
        self.state: AdapterState = state if state is not None else MemoryState()
        # Each player's hand message, kept up to date while Discord lets us edit it.
        self.hands = LiveHands(self.state, clock=clock)
        # Edits of one hand in version order, only the newest of those waiting sent.
        self.hand_edits = Newest()
        # The interactions and deliveries under way: a stop waits for them (bot.discord.app).
        self.in_flight = InFlight()
        # Set once the client is closing: a turn timer's late result is not sent any more.
        self.closing = False
        # Who is looking at their game (marked on each interaction): no turn mention for them.
        self.presence = presence if presence is not None else Presence()
        self.client: discord.Client | None = None
        self.settings_menu = SettingsMenu(service, renderer)
        # The web table as an Activity (bot/discord/activity.py): the table message's launch
        # button when on (who has the table open is in ``presence``: no mention for them).
        self.activity = False
        self.table_edits: CoalescedEdits | None = None  # while pages look

    def bind(self, client: discord.Client) -> None:
        """The client used for deliveries with no interaction at hand (turn timers)."""
        self.client = client

    @staticmethod
    def user_of(interaction: Interaction) -> UserRef:
        user = interaction.user
        return UserRef(PLATFORM, str(user.id), user.display_name, locale_hint(interaction.locale))

    @staticmethod
    def chat_of(interaction: Interaction) -> ChatRef:
        return ChatRef(PLATFORM, str(interaction.channel_id))

    async def chat_for(self, interaction: Interaction, table_id: int) -> ChatRef:
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
        if not isinstance(found, dict):
            return None, None
        message_id, picture = found.get("message_id"), found.get("picture")
        if not isinstance(message_id, int):
            return None, None
        return message_id, picture if isinstance(picture, str) else None

    async def keep_table_message(
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
        return self.renderer.move_labels(event.table.family, event.locale)

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

    async def set_notify(self, user_id: int, on: bool) -> None:
        await self.state.state_put({"on": on}, platform=PLATFORM, kind=NOTIFY, scope=str(user_id))

    async def set_dm(self, user_id: int, wanted: bool) -> None:
        if wanted:
            await self.state.state_put(True, platform=PLATFORM, kind=DM_WISH, scope=str(user_id))
        else:
            await self.state.state_delete(platform=PLATFORM, kind=DM_WISH, scope=str(user_id))

    def hint_chat(self, interaction: Interaction) -> None:
        """A server's preferred language is its channels' language until one is set."""
        if interaction.guild_id is not None and interaction.guild_locale is not None:
            self.service.chat_hint(self.chat_of(interaction), locale_hint(interaction.guild_locale))

    def mark_seen(self, interaction: Interaction) -> None:
        """The user interacted: they are looking at their game (``bot.service.presence``)."""
        self.presence.seen(PLATFORM, str(interaction.user.id))

    def client_of(self, interaction: Interaction | None) -> discord.Client | None:
        return self.client or (interaction.client if interaction is not None else None)

    async def alert(self, interaction: Interaction, text: str) -> None:
        """A refusal, privately (a command's public "thinking" reply is removed first)."""
        if original_pending(interaction):
            if interaction.extras.get(DEFERRED) == "private":
                await fill_original(interaction, text, None)
                return
            await interaction.delete_original_response()
            interaction.extras[FILLED] = True
        await answer(interaction, text, ephemeral=True)

    async def failed(self, interaction: Interaction, error: Exception) -> None:
        """A command or press raised: logged with its stack; the user sees a generic refusal."""
        async with self.in_flight.track():
            await self._failed(interaction, error)

    async def _failed(self, interaction: Interaction, error: Exception) -> None:
        logger.error("interaction %s failed", interaction.id, exc_info=error)
        text = self.renderer.refusal(
            Refusal("bad_button", locale_hint(interaction.locale)), limit=MAX_CONTENT
        )
        try:
            await answer(interaction, text, ephemeral=True)
        except discord.HTTPException:
            logger.warning("could not tell the user that the command failed")
