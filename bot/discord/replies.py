"""The state of a slash command's own reply: deferred ("thinking…", publicly or privately), and
whether that reply got its content yet. Kept in ``interaction.extras`` so every part of the
handler sees the same interaction's state.
"""

from __future__ import annotations

import discord

from bot.discord.delivery import picture_to_edit, view_given
from bot.discord.interaction import Interaction
from bot.discord.limits import fit_content
from bot.render.images import RenderedImage

DEFERRED = "tavolo.deferred"  # "public" or "private": how a command was deferred
FILLED = "tavolo.filled"  # the deferred reply got its content (or was deleted)


async def defer_command(interaction: Interaction, *, private: bool) -> None:
    """Answer "thinking…" now (only the user sees it when ``private``), the content later."""
    await interaction.response.defer(ephemeral=private, thinking=True)
    interaction.extras[DEFERRED] = "private" if private else "public"


def original_pending(interaction: Interaction) -> bool:
    """A command was deferred and its "thinking" reply still waits for content."""
    return DEFERRED in interaction.extras and not interaction.extras.get(FILLED)


async def fill_original(
    interaction: Interaction,
    text: str,
    view: discord.ui.View | None,
    image: RenderedImage | None = None,
) -> discord.Message:
    """Give the deferred reply its content; the message it became."""
    sent = await interaction.edit_original_response(
        content=fit_content(text), **view_given(view), **picture_to_edit(image, None, alt=text)
    )
    interaction.extras[FILLED] = True
    return sent


def pending_private(interaction: Interaction) -> bool:
    """A command deferred privately still waits for its reply's content."""
    return original_pending(interaction) and interaction.extras.get(DEFERRED) == "private"
