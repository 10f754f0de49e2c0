"""Buttons and select menus: who may press, the press handed to the service (or to the settings
menu), and the adapter's own actions on a hand (picking cards, turning a page of moves).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

import discord

from bot.discord.components import AdapterAction, ComponentAction
from bot.discord.delivery import answer, picture_to_edit, shown_picture
from bot.discord.handler_core import PLATFORM, TURN_HAND, HandlerCore, locale_hint
from bot.discord.interaction import Interaction
from bot.discord.limits import MAX_CONTENT, fit_content
from bot.discord.message_views import PICK_CARDS, hand_view
from bot.discord.routing import EventRouting
from bot.discord.settings_menu import ACTION_PREFIX as SETTINGS_ACTION
from bot.discord.settings_menu import is_channel_admin
from bot.domain import Action, Verb
from bot.service import HandView, Refusal

logger = logging.getLogger(__name__)

# Lobby actions anyone in the channel may press; every other action needs a seat at the table.
# (Kicking is the creator's or an admin's, who need not play: the service says who may.)
OPEN_VERBS = frozenset(
    {
        Verb.JOIN,
        Verb.LEAVE,
        Verb.START,
        Verb.FILL,
        Verb.AI,
        Verb.SEAT,
        Verb.HAND,
        Verb.REMATCH,
        Verb.KICK,
    }
)


class Presses:
    """Component presses -> ``TableService.press``."""

    def __init__(self, core: HandlerCore, routing: EventRouting) -> None:
        self.core = core
        self.routing = routing

    async def may_act(self, interaction: Interaction, action: ComponentAction) -> bool:
        """Lobby buttons are for anyone; moves only for a player seated at that table."""
        async with self.core.in_flight.track():
            return await self._may_act(interaction, action)

    async def _may_act(self, interaction: Interaction, action: ComponentAction) -> bool:
        if isinstance(action, AdapterAction) or action.verb in OPEN_VERBS:
            return True
        try:
            chat = await self.core.chat_for(interaction, action.table_id)
            tables = await self.core.service.open_tables(chat)
        except Exception as error:
            # discord.py would drop the press silently: say something and log why.
            await self.core.failed(interaction, error)
            return False
        table = next((t for t in tables if t.id == action.table_id), None)
        if table is None or table.seat_of(PLATFORM, str(interaction.user.id)) is not None:
            return True  # an unknown or closed table: the service gives the precise refusal
        refusal = Refusal("not_seated", locale_hint(interaction.locale))
        await interaction.response.send_message(
            self.core.renderer.refusal(refusal, limit=MAX_CONTENT), ephemeral=True
        )
        return False

    async def act(
        self, interaction: Interaction, action: ComponentAction, values: Sequence[str]
    ) -> None:
        """A button press or a select: acknowledge at once, then hand it to the service."""
        self.core.mark_seen(interaction)
        async with self.core.in_flight.track():
            await self._act(interaction, action, values)

    async def _act(
        self, interaction: Interaction, action: ComponentAction, values: Sequence[str]
    ) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()
        self.core.hint_chat(interaction)
        if isinstance(action, AdapterAction):
            if action.token != TURN_HAND:
                await self._adapter_action(interaction, action, values)
                return
            # "My hand" on a turn notice.
            action = Action(action.table_id, action.version, Verb.HAND)
        try:
            if values:
                # A select menu's action is completed by the chosen values, joined with "+"
                # (cards picked for a meld: "<action>7D+8D+9D").
                action = replace(action, arg=action.arg + "+".join(values))
            await self._press(interaction, action)
        except Exception as error:
            await self.core.failed(interaction, error)

    async def _adapter_action(
        self, interaction: Interaction, action: AdapterAction, values: Sequence[str]
    ) -> None:
        """The adapter's own: a settings button, picking cards, turning a page of moves."""
        if action.token.startswith(SETTINGS_ACTION):
            try:
                await self.core.settings_menu.press(
                    interaction,
                    action,
                    self.core.chat_of(interaction),
                    self.core.user_of(interaction),
                )
            except Exception as error:
                await self.core.failed(interaction, error)
        elif action.token == PICK_CARDS or action.page is not None:
            await self._redraw_hand(
                interaction, action.table_id, picked=values, page=action.page or 0
            )

    async def _press(self, interaction: Interaction, action: Action) -> None:
        """The service's press, delivered; a hand left or gone stale is redrawn."""
        user = self.core.user_of(interaction)
        # The action as parsed from the custom id, typed (TableService.press takes it as is);
        # a hand in a DM plays at its table's own channel, which the service finds.
        result = await self.core.service.press(
            self.core.chat_of(interaction),
            user,
            action,
            is_admin=is_channel_admin(interaction),
            private=interaction.guild_id is None,
        )
        await self.routing.deliver(result, interaction)
        source = interaction.message
        if (
            action.verb is Verb.LEAVE
            and result.ok
            and source is not None
            and source.flags.ephemeral
        ):
            # Left the game from the hand's question: the hand says so, with no buttons.
            try:
                assert result.table is not None
                text = await self.routing.left_hand_text(
                    result.table, interaction.user.id, removed=False
                )
                await interaction.edit_original_response(
                    content=fit_content(text),
                    view=None,
                    **picture_to_edit(None, shown_picture(source), alt=text),
                )
            except discord.HTTPException as error:
                logger.info("could not clear the left hand's buttons: %s", error)
        if (
            result.refusal is not None
            and result.refusal.code == "stale"
            and source is not None
            and source.flags.ephemeral
        ):
            # An old hand message: it heals, showing the current hand (and becomes the hand).
            await self._redraw_hand(interaction, action.table_id, picked=(), page=0)

    async def _redraw_hand(
        self,
        interaction: Interaction,
        table_id: int,
        *,
        picked: Sequence[str],
        page: int,
    ) -> None:
        """Show the hand message again with the moves narrowed to the picked cards."""
        try:
            chat = await self.core.chat_for(interaction, table_id)
            result = await self.core.service.show(chat, self.core.user_of(interaction), table_id)
            if result.refusal is not None:
                await self.core.alert(
                    interaction, self.core.renderer.refusal(result.refusal, limit=MAX_CONTENT)
                )
                return
            mine = str(interaction.user.id)
            hand = next(
                (e for e in result.events if isinstance(e, HandView) and e.audience.id == mine),
                None,
            )
            if hand is None:
                return
            message = self.core.renderer.render(hand)
            view = hand_view(
                hand, message, picked=picked, page=page, label=self.core.move_label(hand)
            )
            image = await self.core.picture(hand, picked=picked)
            await interaction.edit_original_response(
                content=fit_content(message.text),
                view=view,
                **picture_to_edit(image, shown_picture(interaction.message), alt=message.text),
            )
            source = interaction.message
            if source is not None and source.flags.ephemeral:
                # The pressed message is the player's hand from now on, with a fresh token.
                user_id, table_id = interaction.user.id, hand.table.id
                place = await self.core.hands.get(user_id, table_id)
                if place is not None and not place.is_message(source):
                    await self.core.hands.remove(interaction.client, place)
                picture = None if image is None else image.filename
                await self.core.hands.put(
                    user_id,
                    table_id,
                    self.core.hands.hook(interaction, source, original=True, picture=picture),
                )
        except Exception as error:
            await self.core.failed(interaction, error)

    async def unknown_component(self, interaction: Interaction) -> None:
        """A button or menu that is not Tavolo's current kind (left by an older version):
        acknowledged with a short notice instead of Discord's "This interaction failed"."""
        async with self.core.in_flight.track():
            await self._unknown_component(interaction)

    async def _unknown_component(self, interaction: Interaction) -> None:
        text = self.core.text("old_button", locale_hint(interaction.locale))
        try:
            await answer(interaction, text, ephemeral=True)
        except discord.HTTPException:
            logger.warning("could not answer a press on an unknown component")
