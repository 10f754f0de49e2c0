"""A player's hand and private messages: the one hand message per player and table
(``bot.discord.hands``), edited in place while Discord allows, posted anew when the player asks or,
in DM mode, when their turn comes; DMs closed: the ephemeral path with a hint.
"""

from __future__ import annotations

import logging

import discord

from bot.discord.delivery import (
    CANNOT_MESSAGE_USER,
    Delivered,
    answer,
    picture_to_edit,
    picture_to_send,
    send_private,
    shown_picture,
    view_given,
)
from bot.discord.handler_core import HandlerCore
from bot.discord.hands import HandPlace
from bot.discord.interaction import Interaction
from bot.discord.limits import fit_content
from bot.discord.replies import fill_original, pending_private
from bot.render import Message
from bot.render.images import RenderedImage
from bot.service import Event, HandView

logger = logging.getLogger(__name__)


class HandDelivery:
    """Hands and private events, to the player's screen or their DMs."""

    def __init__(self, core: HandlerCore) -> None:
        self.core = core

    async def deliver_hand(
        self,
        event: HandView,
        message: Message,
        interaction: Interaction | None,
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
        place = await self.core.hands.get(user_id, table_id)
        view = self.core.view_for(event, message)
        image = await self.core.picture(event)
        if await self.core.wants_dm(user_id):
            shown = await self._dm_hand(
                event, message, place, interaction, client=client, view=view, image=image, turn=turn
            )
            if shown or interaction is None:
                return shown, False
            place = await self.core.hands.get(user_id, table_id)  # DMs closed: ephemeral after all
        if interaction is None:
            # Another player's move changed this hand: edit it where it is, if we still can.
            if place is None or client is None or not self.core.hands.usable(place):
                return False, False
            try:
                place = await self.core.hands.edit(
                    client, place, message.text, view=view, image=image
                )
            except discord.HTTPException as error:
                logger.info("hand of user %s unreachable (%s): forgotten", user_id, error.status)
                await self.core.hands.forget(user_id, table_id)
                return False, False
            await self.core.hands.put(user_id, table_id, place)
            return True, False
        source = interaction.message
        picture = None if image is None else image.filename
        if can_edit_source and source is not None and source.flags.ephemeral:
            # A press on a hand message (this one, or an older one that now shows the current
            # hand): edit it, and it is the hand from now on, with a fresh token.
            await interaction.edit_original_response(
                content=fit_content(message.text),
                view=view,  # None clears the old move buttons
                **picture_to_edit(image, shown_picture(source), alt=message.text),
            )
            if place is not None and not place.is_message(source) and client is not None:
                await self.core.hands.remove(client, place)
            new = self.core.hands.hook(interaction, source, original=True, picture=picture)
            await self.core.hands.put(user_id, table_id, new)
            return True, True
        # "My hand" on the table or a turn notice, or /hand: a new hand message, the old one
        # removed so no stale buttons stay on screen.
        if pending_private(interaction):
            filled = await fill_original(interaction, message.text, view, image)
            new = self.core.hands.hook(interaction, filled, original=True, picture=picture)
        else:
            sent = await answer(interaction, message.text, view=view, ephemeral=True, image=image)
            new = self.core.hands.hook(interaction, sent, original=False, picture=picture)
        if place is not None and client is not None:
            await self.core.hands.remove(client, place)
        await self.core.hands.put(user_id, table_id, new)
        return True, False

    async def _dm_hand(
        self,
        event: HandView,
        message: Message,
        place: HandPlace | None,
        interaction: Interaction | None,
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
                place = await self.core.hands.edit(
                    client, place, message.text, view=view, image=image
                )
                await self.core.hands.put(user_id, table_id, place)
                return True
            except discord.HTTPException as error:
                logger.info("DM hand of user %s not editable (%s)", user_id, error.status)
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            channel = user.dm_channel or await user.create_dm()
            sent = await channel.send(
                fit_content(message.text),
                **view_given(view),
                **picture_to_send(image, alt=message.text),
            )
        except discord.Forbidden as error:
            if error.code != CANNOT_MESSAGE_USER:
                raise
            logger.info("DMs to user %s are closed", user_id)
            await self.core.set_dm(user_id, False)
            if interaction is not None:
                hint = self.core.renderer.notice("dm_closed_discord", event.locale)
                text = f"{message.text}\n\n{hint}"
                picture = None if image is None else image.filename
                if pending_private(interaction):
                    filled = await fill_original(interaction, text, view, image)
                    new = self.core.hands.hook(interaction, filled, original=True, picture=picture)
                else:
                    sent_here = await answer(
                        interaction, text, view=view, ephemeral=True, image=image
                    )
                    new = self.core.hands.hook(
                        interaction, sent_here, original=False, picture=picture
                    )
                await self.core.hands.put(user_id, table_id, new)
                return True
            return False
        if place is not None:
            await self.core.hands.remove(client, place)
        picture = None if image is None else image.filename
        await self.core.hands.put(user_id, table_id, self.core.hands.dm(sent, picture=picture))
        return True

    async def to_interacting_user(
        self,
        interaction: Interaction,
        event: Event,
        message: Message,
        *,
        can_edit_source: bool,
    ) -> bool:
        """Deliver a private event to the user pressing; True when the source message was
        edited in place (only once per interaction)."""
        view = self.core.view_for(event, message)
        image = await self.core.picture(event)
        if await self.core.wants_dm(interaction.user.id):
            # Why a hand arrived here instead of by DM (the renderer's catalogs say it).
            hint = self.core.renderer.notice("dm_closed_discord", event.locale)
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
                await self.core.set_dm(interaction.user.id, False)
            return False
        source = interaction.message
        if (
            can_edit_source
            and isinstance(event, HandView)
            and source is not None
            and source.flags.ephemeral
        ):
            await interaction.edit_original_response(
                content=fit_content(message.text),
                view=view,  # None clears the old move buttons
                **picture_to_edit(image, shown_picture(source), alt=message.text),
            )
            return True
        if pending_private(interaction):
            await fill_original(interaction, message.text, view, image)
            return False
        await answer(interaction, message.text, view=view, ephemeral=True, image=image)
        return False
