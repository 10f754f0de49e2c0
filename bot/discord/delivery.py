"""Getting text and components to people: interaction replies, DMs, table messages.

Discord wants every interaction acknowledged within 3 seconds, once: ``answer`` sends the first
reply when nothing was sent yet and a follow-up afterwards, so callers need not track it, and
``acknowledge`` defers (the "thinking..." state) before slow work such as a computer's turn.
A DM can be refused (the user closed DMs from server members: error 50007); ``send_private``
then falls back to an ephemeral message in the channel, with a hint, when an interaction is at
hand.
"""

from __future__ import annotations

import enum
import io
import logging
from typing import TypedDict

import discord

from bot.discord.interaction import Interaction
from bot.discord.limits import fit_content, split_text
from bot.render.images import RenderedImage

logger = logging.getLogger(__name__)

CANNOT_MESSAGE_USER = 50007
MAX_ALT = 1024  # an attachment's description (alt text)


class Delivered(enum.Enum):
    DM = "dm"
    EPHEMERAL = "ephemeral"
    NOWHERE = "nowhere"


class ViewGiven(TypedDict, total=False):
    """A message's components as keyword arguments: given only when there are some (discord.py
    tells "no view given" from ``view=None``, which clears an edited message's components)."""

    view: discord.ui.View


class PictureToSend(TypedDict, total=False):
    """A new message's picture as keyword arguments of ``send``."""

    file: discord.File
    embed: discord.Embed


class PictureToEdit(TypedDict, total=False):
    """An edited message's picture as keyword arguments of ``edit``: nothing to keep it,
    the new file, or no attachments and no embed to remove it."""

    attachments: list[discord.File]
    embed: discord.Embed | None


def view_given(view: discord.ui.View | None) -> ViewGiven:
    """``view=view`` when there is a view, else nothing (an edit keeps its components)."""
    return ViewGiven() if view is None else ViewGiven(view=view)


def picture_to_send(image: RenderedImage | None, *, alt: str) -> PictureToSend:
    """A new message's picture: the file, and an embed that shows it. ``alt``: the picture's
    alt text (the text view of the same event), for screen readers and failed loads."""
    if image is None:
        return PictureToSend()
    return PictureToSend(file=_file(image, alt), embed=_embed(image))


def picture_to_edit(image: RenderedImage | None, shown: str | None, *, alt: str) -> PictureToEdit:
    """An edit's picture, given the file name ``shown`` now (``None``: no picture, or unknown).

    The same picture (file names carry the digest) is not uploaded again; no picture any more
    (pictures switched off) removes the old one, so it cannot show an outdated table.
    """
    if image is None:
        return PictureToEdit(attachments=[], embed=None) if shown else PictureToEdit()
    if shown == image.filename:
        return PictureToEdit()
    return PictureToEdit(attachments=[_file(image, alt)], embed=_embed(image))


def shown_picture(message: discord.Message | None) -> str | None:
    """The file name of the picture a message shows, if any."""
    if message is None or not message.attachments:
        return None
    return message.attachments[0].filename


def alt_text(text: str) -> str:
    """A picture's alt text from its message's text (Discord keeps up to 1024 characters)."""
    text = text.strip() or "-"
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def _file(image: RenderedImage, alt: str) -> discord.File:
    return discord.File(io.BytesIO(image.data), filename=image.filename, description=alt_text(alt))


def _embed(image: RenderedImage) -> discord.Embed:
    return discord.Embed().set_image(url=f"attachment://{image.filename}")


async def acknowledge(interaction: Interaction, *, ephemeral: bool = False) -> None:
    """Defer the interaction unless it is already answered (keeps Discord's 3 s promise)."""
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component and not ephemeral:
        # A component's public reply edits its own message later: no "thinking" message.
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def answer(
    interaction: Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
    ephemeral: bool = False,
    image: RenderedImage | None = None,
) -> discord.Message | None:
    """Reply to the interaction: the first reply, or a follow-up when already answered. Long
    text goes out as several messages; the view (and the picture) ride on the last one."""
    parts = split_text(content)
    message: discord.Message | None = None
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        given = view_given(view) if last else ViewGiven()
        picture = picture_to_send(image, alt=content) if last else PictureToSend()
        if not interaction.response.is_done():
            callback = await interaction.response.send_message(
                part, ephemeral=ephemeral, **given, **picture
            )
            resource = callback.resource
            message = resource if isinstance(resource, discord.Message) else None
        else:
            message = await interaction.followup.send(
                part, ephemeral=ephemeral, wait=True, **given, **picture
            )
    return message


async def edit_source(
    interaction: Interaction,
    content: str,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Replace the message whose component was used (first reply or after a defer)."""
    text = fit_content(content)
    if not interaction.response.is_done():
        await interaction.response.edit_message(content=text, **view_given(view))
    else:
        await interaction.edit_original_response(content=text, **view_given(view))


async def send_private(
    client: discord.Client,
    user_id: int,
    content: str,
    *,
    view: discord.ui.View | None = None,
    interaction: Interaction | None = None,
    fallback_hint: str = "",
    image: RenderedImage | None = None,
) -> Delivered:
    """DM ``user_id``; when DMs are closed, answer ``interaction`` ephemerally (if it is that
    user's) with ``fallback_hint`` appended, else give up and say so."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        channel = user.dm_channel or await user.create_dm()
        parts = split_text(content)
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            given = view_given(view) if last else ViewGiven()
            picture = picture_to_send(image, alt=content) if last else PictureToSend()
            await channel.send(part, **given, **picture)
        return Delivered.DM
    except discord.Forbidden as error:
        if error.code != CANNOT_MESSAGE_USER:
            raise
        logger.info("DMs to user %s are closed", user_id)
    if interaction is None or interaction.user.id != user_id:
        return Delivered.NOWHERE
    text = f"{content}\n\n{fallback_hint}" if fallback_hint else content
    await answer(interaction, text, view=view, ephemeral=True, image=image)
    return Delivered.EPHEMERAL


async def post_or_edit(
    client: discord.Client,
    channel_id: int,
    message_id: int | None,
    content: str,
    *,
    view: discord.ui.View | None = None,
    image: RenderedImage | None = None,
    shown: str | None = None,
) -> int:
    """Edit message ``message_id`` in the channel in place, or post a new one when there is none
    (or it was deleted). Returns the id of the message now showing ``content``. Rate limits are
    waited out by discord.py (it retries after the 429's ``retry_after``).

    ``image``: the picture to show with the text (in an embed); ``shown``: the file name of the
    picture the message shows now, so an unchanged picture is not uploaded again."""
    text = fit_content(content)
    channel = client.get_partial_messageable(channel_id)
    if message_id is not None:
        try:
            edited = await channel.get_partial_message(message_id).edit(
                content=text, **view_given(view), **picture_to_edit(image, shown, alt=content)
            )
            return edited.id
        except discord.NotFound:
            logger.info("table message %s is gone: posting a new one", message_id)
    sent = await channel.send(text, **view_given(view), **picture_to_send(image, alt=content))
    return sent.id
