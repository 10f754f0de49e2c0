"""A service result to its places: the table's channel message (edited in place), other channel
messages, hands, turn notices, private messages; the interaction answered first, and always.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterable

import discord

from bot.discord.activity import LAUNCH_LABEL, add_launch_button, looking
from bot.discord.components import ActionButton, AdapterAction
from bot.discord.delivery import (
    answer,
    picture_to_edit,
    picture_to_send,
    post_or_edit,
    send_private,
    shown_picture,
    view_given,
)
from bot.discord.hand_delivery import HandDelivery
from bot.discord.handler_core import PLATFORM, TURN_HAND, TURN_MESSAGE, HandlerCore
from bot.discord.interaction import Interaction
from bot.discord.limits import MAX_CONTENT, fit_content, split_text
from bot.discord.message_views import view_of
from bot.discord.replies import DEFERRED, FILLED, fill_original, original_pending
from bot.render import Message
from bot.service import (
    Announcement,
    Event,
    HandView,
    LobbyView,
    Result,
    TableEvent,
    TableInfo,
    TableView,
    TurnNotice,
    UserRef,
)

logger = logging.getLogger(__name__)


class EventRouting:
    """``deliver``: every event of a service result where it belongs."""

    def __init__(self, core: HandlerCore, hand_delivery: HandDelivery) -> None:
        self.core = core
        self.hand_delivery = hand_delivery

    async def deliver(self, result: Result, interaction: Interaction | None = None) -> None:
        """Send a service result where it belongs (``interaction`` absent: a turn timer)."""
        if self.core.closing and interaction is None:
            # The process is stopping and the HTTP session is going: the table shows this
            # result at its next change (the move itself is committed).
            table = result.table.id if result.table is not None else None
            logger.warning("Discord is closing: a timer result of table %s not delivered", table)
            return
        async with self.core.in_flight.track():
            await self._deliver(result, interaction)

    async def _deliver_to_channel(
        self, event: Event, message: Message, interaction: Interaction | None
    ) -> None:
        """A public event: the table message edited (a closed table closes the hands too), or
        a post in the channel."""
        if isinstance(event, LobbyView | TableView):
            await self._show_table(event, message, interaction)
            if event.table.status not in ("lobby", "playing"):
                await self._clear_turn_message(event.table.id, interaction)
                client = self.core.client_of(interaction)
                if client is not None:
                    await self.core.hands.close_table(
                        client, event.table.id, self._closed_hand_text(event.table)
                    )
                self._forget_hand_edits(event.table.id)
            return
        await self._post(int(event.audience.id), message, interaction, event=event)
        if isinstance(event, Announcement) and event.kind == "abandoned":
            await self._closed(event, message, interaction)
        elif isinstance(event, Announcement) and event.kind == "left":
            await self._hand_left(event, interaction)

    async def _deliver(self, result: Result, interaction: Interaction | None) -> None:
        if result.refusal is not None:
            if interaction is not None:
                await self.core.alert(
                    interaction, self.core.renderer.refusal(result.refusal, limit=MAX_CONTENT)
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
        events = latest_table_views(result.events)
        if interaction is not None and not interaction.response.is_done():
            events = reply_first(
                events, interaction, table_id=result.table.id if result.table else None
            )
        for event in events:
            if (
                event.audience.kind == "user"
                and isinstance(event, TableView)
                and event.audience.id in with_hand
            ):
                continue
            message = self.core.renderer.render(event)
            if event.audience.kind == "chat":
                await self._deliver_to_channel(event, message, interaction)
                continue
            target = int(event.audience.id)
            mine = interaction is not None and interaction.user.id == target
            if isinstance(event, HandView):
                delivery = functools.partial(
                    self.hand_delivery.deliver_hand,
                    event,
                    message,
                    interaction if mine else None,
                    client=self.core.client_of(interaction),
                    can_edit_source=not edited_source,
                    # A DM hand is posted anew (a notification) when the turn comes, unless
                    # the player is looking: then it is edited in place like the others.
                    turn=event.audience.id in turns
                    and not self.core.presence.looking(PLATFORM, event.audience.id, event.table.id),
                )
                # The player's own press is always answered; another's hand shows only the
                # newest state (a newer one on its way or shown: this one is dropped).
                outcome = await self.core.hand_edits.run(
                    (event.audience.id, event.table.id),
                    event.table.version,
                    delivery,
                    always=mine,
                )
                shown, edited = (True, False) if outcome is None else outcome
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
                edited_source |= await self.hand_delivery.to_interacting_user(
                    interaction, event, message, can_edit_source=not edited_source
                )
            elif await self.core.wants_dm(target):
                client = self.core.client_of(interaction)
                if client is not None:
                    view = self.core.view_for(event, message)
                    image = await self.core.picture(event)
                    await send_private(client, target, message.text, view=view, image=image)
        if interaction is not None:
            await self._settle(interaction)

    @staticmethod
    async def _settle(interaction: Interaction) -> None:
        """An interaction whose events all went elsewhere still gets its answer."""
        if original_pending(interaction):
            # A deferred command whose events all went elsewhere: clear its "thinking" reply.
            await interaction.delete_original_response()
            interaction.extras[FILLED] = True
        if not interaction.response.is_done():
            # Nothing to show (e.g. a setting changed): Discord still wants an answer.
            await answer(interaction, "✓", ephemeral=True)

    def _forget_hand_edits(self, table_id: int) -> None:
        self.core.hand_edits.forget(lambda key: isinstance(key, tuple) and key[1] == table_id)

    async def _hand_left(self, event: Announcement, interaction: Interaction | None) -> None:
        """A player left the game (or was removed): their hand message keeps no buttons."""
        seat = event.data.get("seat")
        info = event.table.seats[seat] if isinstance(seat, int) else None
        client = self.core.client_of(interaction)
        if info is None or client is None or info.platform != PLATFORM:
            return
        if info.user_id.isdigit():
            text = await self.left_hand_text(
                event.table, int(info.user_id), removed=bool(event.data.get("by"))
            )
            await self.core.hands.close_hand(client, int(info.user_id), event.table.id, text)

    async def left_hand_text(self, table: TableInfo, user_id: int, *, removed: bool) -> str:
        """What the hand of a player who left (or was removed) says, in their language."""
        locale = await self.core.service.user_locale(UserRef(PLATFORM, str(user_id)))
        return self.core.renderer.closed_hand(table, locale, left="removed" if removed else "left")

    def _closed_hand_text(self, table: TableInfo) -> Callable[[int], Awaitable[str]]:
        """What each player's hand of a table no longer in play says, in their language."""

        async def text(user_id: int) -> str:
            locale = await self.core.service.user_locale(UserRef(PLATFORM, str(user_id)))
            return self.core.renderer.closed_hand(table, locale)

        return text

    async def _show_table(
        self,
        event: TableEvent,
        message: Message,
        interaction: Interaction | None,
    ) -> None:
        """Edit the table's channel message in place, or post it (as the reply of the command
        that opened the table)."""
        channel_id = int(event.audience.id)
        table_id = event.table.id
        edits = self.core.table_edits
        if edits is not None:
            # Players in the Activity see every move: the channel's message can wait a little.
            if interaction is None and edits.wanted(
                self.core.presence, table_id, event.table.status
            ):
                edits.later(table_id, lambda: self._show_table(event, message, None))
                return
            edits.now(table_id)
        view = view_of(message)
        if self.core.activity and event.table.status in ("lobby", "playing"):
            label = self.core.renderer.translations(event.locale).gettext(LAUNCH_LABEL)
            view = add_launch_button(view, table_id, label)
        image = await self.core.picture(event)
        if (
            interaction is not None
            and interaction.channel_id == channel_id
            and original_pending(interaction)
            and interaction.extras.get(DEFERRED) == "public"
        ):
            sent = await fill_original(interaction, message.text, view, image)
            picture = None if image is None else image.filename
            await self.core.keep_table_message(picture, table_id=table_id, message_id=sent.id)
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
            await self.core.keep_table_message(picture, table_id=table_id, message_id=reply.id)
            return
        client = self.core.client_of(interaction)
        if client is None:
            logger.warning("no Discord client to show table %s", table_id)
            return
        known, shown = await self.core.table_message(table_id)
        source = None if interaction is None else interaction.message
        if (
            source is not None
            and interaction is not None
            and interaction.channel_id == channel_id
            and not source.flags.ephemeral
            and shows_table(source, table_id)
        ):
            # A press on the table message itself: that is the message, whatever was known.
            known, shown = source.id, shown_picture(source)
        message_id = await post_or_edit(
            client, channel_id, known, message.text, view=view, image=image, shown=shown
        )
        picture = None if image is None else image.filename
        await self.core.keep_table_message(picture, table_id=table_id, message_id=message_id)

    async def _post(
        self,
        channel_id: int,
        message: Message,
        interaction: Interaction | None,
        *,
        event: Event,
    ) -> None:
        view = view_of(message)
        image = await self.core.picture(event)
        if (
            interaction is not None
            and interaction.channel_id == channel_id
            and not interaction.response.is_done()
        ):
            # A command answered at once (a leaderboard, an abandon): the reply is the message.
            await answer(interaction, message.text, view=view, image=image)
            return
        client = self.core.client_of(interaction)
        if client is None:
            logger.warning("no Discord client to post in %s", channel_id)
            return
        channel = client.get_partial_messageable(channel_id)
        parts = split_text(message.text)
        for index, part in enumerate(parts):
            if index == len(parts) - 1:
                await channel.send(
                    part, **view_given(view), **picture_to_send(image, alt=message.text)
                )
            else:
                await channel.send(part)

    async def _turn_notice(
        self,
        event: TurnNotice,
        message: Message,
        interaction: Interaction | None,
        *,
        hand_shown: bool,
    ) -> None:
        """Tell a player their turn has come: by DM if they asked for DMs, else in the table's
        channel, mentioning them (only them) unless they turned mentions off, play alone
        against the computer, or are looking (an interaction within PING_AFTER_IDLE_SECONDS:
        their hand, edited to "Your turn", is in front of them); without a mention only when
        their hand could not be updated, as a fresh "My hand" prompt. A reminder adds nothing
        (one notification a turn)."""
        user_id = int(event.audience.id)
        client = self.core.client_of(interaction)
        if client is None:
            return
        if await self.core.wants_dm(user_id):
            if not hand_shown or event.reminder:
                await send_private(client, user_id, message.text)
            return
        if event.reminder:
            return  # the turn's notice (and its "My hand" button) is in the channel already
        if looking(self.core.presence, event.table.id, user_id):
            return  # they have the table open in the Activity: they see their turn live
        humans = sum(1 for seat in event.table.seats if seat is not None and not seat.computer)
        mention = (
            humans > 1
            and not self.core.presence.looking(PLATFORM, str(user_id), event.table.id)
            and await self.core.notify_on(user_id)
        )
        if not mention and hand_shown:
            # Nothing to post; an older notice (another player's turn) has served too.
            await self._clear_turn_message(event.table.id, interaction)
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
        label = self.core.renderer.translations(event.locale).gettext("My hand")
        view = discord.ui.View(timeout=None)
        view.add_item(ActionButton(AdapterAction(table.id, table.version, TURN_HAND), label=label))
        channel = client.get_partial_messageable(int(table.chat_id))
        sent = await channel.send(fit_content(text), view=view, allowed_mentions=allowed)
        await self._clear_turn_message(table.id, interaction)
        await self.core.state.state_put(
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
        interaction: Interaction | None,
    ) -> None:
        """A closed table: its channel message says so and keeps no buttons (nor a picture of
        a game that is over); its turn notice goes, its hands lose their buttons."""
        table_id = event.table.id
        if self.core.table_edits is not None:
            self.core.table_edits.now(table_id)  # the closed table's text is the last word
        client = self.core.client_of(interaction)
        await self._clear_turn_message(table_id, interaction)
        if client is None:
            return
        await self.core.hands.close_table(client, table_id, self._closed_hand_text(event.table))
        self._forget_hand_edits(table_id)
        known, shown = await self.core.table_message(table_id)
        if known is None:
            return
        channel = client.get_partial_messageable(int(event.audience.id))
        try:
            await channel.get_partial_message(known).edit(
                content=fit_content(message.text),
                view=None,
                **picture_to_edit(None, shown, alt=message.text),
            )
        except discord.HTTPException as error:
            logger.info("table message of closed table %s not edited: %s", table_id, error.status)
        await self.core.keep_table_message(None, table_id=table_id, message_id=known)

    async def _clear_turn_message(self, table_id: int, interaction: Interaction | None) -> None:
        """Delete a table's last turn notice: it has served (the channel keeps one at most)."""
        found = await self.core.state.state_get(
            platform=PLATFORM, kind=TURN_MESSAGE, scope="", table_id=table_id
        )
        if not isinstance(found, dict):
            return
        await self.core.state.state_delete(
            platform=PLATFORM, kind=TURN_MESSAGE, scope="", table_id=table_id
        )
        client = self.core.client_of(interaction)
        if client is None:
            return
        channel_id, message_id = found.get("channel_id"), found.get("message_id")
        if not isinstance(channel_id, int) or not isinstance(message_id, int):
            logger.info("old turn notice of table %s not deleted: no ids in %s", table_id, found)
            return
        try:
            channel = client.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as error:
            logger.info("old turn notice of table %s not deleted: %s", table_id, error)


def latest_table_views(events: Iterable[Event]) -> list[Event]:
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


def reply_first(
    events: list[Event], interaction: Interaction, *, table_id: int | None = None
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
    own = [i for i in found if table_of(events[i]) == table_id]
    chosen = own or found
    if not chosen:
        return events
    index = chosen[0]
    return [events[index], *events[:index], *events[index + 1 :]]


def table_of(event: Event) -> int | None:
    return event.table.id if isinstance(event, TableEvent) else None


def shows_table(message: discord.Message, table_id: int) -> bool:
    """Whether a channel message carries buttons of this table (so it is its table message)."""
    prefix = f"{table_id}:"
    for row in message.components:
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None) or ""
            # The adapter's own actions ("~") ride on other messages too (a turn notice).
            if custom_id.startswith(prefix) and not custom_id.split(":", 2)[-1].startswith("~"):
                return True
    return False
