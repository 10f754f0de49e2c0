"""Hands that follow the game: one private hand message per player and table, kept up to date.

A player's hand is an ephemeral message (or a DM, for players who asked for DMs). Discord lets
a bot edit an ephemeral message only through an interaction token: the token of the interaction
that posted it (its follow-up message id, or ``@original`` for a command's own reply), or of a
later press on one of its buttons (``@original`` is then the message pressed). A token works for
15 minutes, so every press on the hand renews it; when it has run out the hand cannot be reached
any more and the player gets a fresh "My hand" prompt with their turn notice instead. A DM hand
is a normal message, edited in place with the bot token at any time.

Where each player's hand is lives in the adapter state (kind ``"hand"``, scope = user id, the
table's id), so a restarted or second process edits the same message.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any

import discord

from bot.discord.delivery import picture_to_edit
from bot.discord.interaction import Interaction
from bot.discord.limits import fit_content
from bot.render.images import RenderedImage
from bot.service.ports import AdapterState

logger = logging.getLogger(__name__)

PLATFORM = "discord"
HAND = "hand"
ORIGINAL = "@original"
# Discord: an interaction token works for follow-ups and edits for 15 minutes.
TOKEN_LIFETIME = 15 * 60.0
# A token is not trusted in its last minute: the edit must land before it runs out.
TOKEN_MARGIN = 60.0


@dataclass(frozen=True, slots=True)
class HandPlace:
    """Where a player's hand message is: through an interaction's webhook (``token``,
    ``message`` = a message id or ``@original``, usable until ``expires``) or in a DM channel
    (``channel_id``, ``message`` = its id). ``picture``: the file name it shows, if any."""

    via: str  # "hook" | "dm"
    message: str
    message_id: int = 0  # the message's own id (also when reached as "@original")
    token: str = ""
    expires: float = 0.0
    channel_id: int = 0
    picture: str | None = None

    @classmethod
    def from_value(cls, value: object) -> HandPlace | None:
        if not isinstance(value, dict) or value.get("via") not in ("hook", "dm"):
            return None
        try:
            return cls(
                via=str(value["via"]),
                message=str(value["message"]),
                message_id=int(value.get("message_id") or 0),
                token=str(value.get("token") or ""),
                expires=float(value.get("expires") or 0.0),
                channel_id=int(value.get("channel_id") or 0),
                picture=value.get("picture") if isinstance(value.get("picture"), str) else None,
            )
        except (KeyError, TypeError, ValueError):
            return None

    def is_message(self, message: discord.Message | None) -> bool:
        """Whether ``message`` is this place (a pressed message is known by its id only)."""
        return message is not None and self.message_id == message.id


class LiveHands:
    """The players' hand messages: where they are, and editing or removing them."""

    def __init__(self, state: AdapterState, *, clock: Callable[[], float] = time.time) -> None:
        self.state = state
        self.clock = clock

    async def get(self, user_id: int, table_id: int) -> HandPlace | None:
        found = await self.state.state_get(
            platform=PLATFORM, kind=HAND, scope=str(user_id), table_id=table_id
        )
        return HandPlace.from_value(found)

    async def put(self, user_id: int, table_id: int, place: HandPlace) -> None:
        await self.state.state_put(
            asdict(place), platform=PLATFORM, kind=HAND, scope=str(user_id), table_id=table_id
        )

    async def forget(self, user_id: int, table_id: int) -> None:
        await self.state.state_delete(
            platform=PLATFORM, kind=HAND, scope=str(user_id), table_id=table_id
        )

    def hook(
        self,
        interaction: Interaction,
        message: discord.Message | None,
        *,
        original: bool,
        picture: str | None,
    ) -> HandPlace:
        """The place of a hand shown through ``interaction``: its own reply or the pressed
        message (``original``), or a follow-up ``message``; usable for the token's life."""
        message_id = 0 if message is None else message.id
        return HandPlace(
            via="hook",
            message=ORIGINAL if original else str(message_id),
            message_id=message_id,
            token=interaction.token,
            expires=self.clock() + TOKEN_LIFETIME - TOKEN_MARGIN,
            picture=picture,
        )

    @staticmethod
    def dm(message: discord.Message, *, picture: str | None) -> HandPlace:
        return HandPlace(
            via="dm",
            message=str(message.id),
            message_id=message.id,
            channel_id=message.channel.id,
            picture=picture,
        )

    def usable(self, place: HandPlace) -> bool:
        """A DM hand always is; an ephemeral one while its token works."""
        return place.via == "dm" or self.clock() < place.expires

    async def edit(
        self,
        client: discord.Client,
        place: HandPlace,
        text: str,
        *,
        view: discord.ui.View | None,
        image: RenderedImage | None,
    ) -> HandPlace:
        """Show ``text`` (and ``view``: ``None`` clears the buttons) in the hand message; the
        place with the picture it shows now. Raises ``discord.HTTPException`` when the message
        cannot be edited (gone, or the token ran out)."""
        content = fit_content(text)
        shown = picture_to_edit(image, place.picture, alt=text)
        if place.via == "dm":
            channel = client.get_partial_messageable(place.channel_id)
            message = channel.get_partial_message(int(place.message))
            await message.edit(content=content, view=view, **shown)
        else:
            await self._webhook(client, place).edit_message(
                self._message_id(place), content=content, view=view, **shown
            )
        picture = None if image is None else image.filename
        return dataclasses.replace(place, picture=picture)

    async def close_table(
        self,
        client: discord.Client,
        table_id: int,
        text: Callable[[int], Awaitable[str]],
    ) -> None:
        """The table is over: every hand message of it says so (``text(user_id)``: the table
        was closed, the game is over), loses its buttons (best effort) and is forgotten."""
        for scope, value in await self.state.state_of_table(
            platform=PLATFORM, kind=HAND, table_id=table_id
        ):
            place = HandPlace.from_value(value)
            if place is not None and scope.isdigit():
                await self._clear(client, place, await text(int(scope)))
            await self.state.state_delete(
                platform=PLATFORM, kind=HAND, scope=scope, table_id=table_id
            )

    async def close_hand(
        self, client: discord.Client, user_id: int, table_id: int, text: str
    ) -> None:
        """One player's hand of a table says ``text`` (they left the game, or were removed),
        loses its buttons and is forgotten."""
        place = await self.get(user_id, table_id)
        if place is not None:
            await self._clear(client, place, text)
        await self.forget(user_id, table_id)

    async def _clear(self, client: discord.Client, place: HandPlace, text: str) -> None:
        """A hand message with no moves any more: ``text`` instead of the hand, no buttons and
        no picture (best effort, while Discord lets us edit it)."""
        if not self.usable(place):
            return
        content = fit_content(text)
        picture = picture_to_edit(None, place.picture, alt=text)
        try:
            if place.via == "dm":
                channel = client.get_partial_messageable(place.channel_id)
                message = channel.get_partial_message(int(place.message))
                await message.edit(content=content, view=None, **picture)
            else:
                webhook = self._webhook(client, place)
                await webhook.edit_message(
                    self._message_id(place), content=content, view=None, **picture
                )
        except discord.HTTPException as error:
            logger.info("could not clear an old hand's buttons: %s", error.status)

    async def remove(self, client: discord.Client, place: HandPlace) -> None:
        """Delete an old hand message, so no stale buttons stay on screen (best effort: one
        whose token ran out stays, and a press on it shows the current hand)."""
        if not self.usable(place):
            return
        try:
            if place.via == "dm":
                channel = client.get_partial_messageable(place.channel_id)
                await channel.get_partial_message(int(place.message)).delete()
            else:
                await self._webhook(client, place).delete_message(self._message_id(place))
        except discord.HTTPException as error:
            logger.info("could not remove an old hand message: %s", error.status)

    @staticmethod
    def _webhook(client: discord.Client, place: HandPlace) -> discord.Webhook:
        application_id = client.application_id
        if application_id is None:
            raise RuntimeError("the Discord client has no application id yet")
        return discord.Webhook.partial(application_id, place.token, client=client)

    @staticmethod
    def _message_id(place: HandPlace) -> Any:
        # A message id, or "@original" (Discord's own alias of the message an interaction
        # answered: a pressed hand was not sent with this token, so its id would not do).
        # discord.py types the webhook's message id as an int but formats it into the route,
        # so the alias works: the one value of the adapter its types cannot say.
        return place.message if place.message == ORIGINAL else int(place.message)
