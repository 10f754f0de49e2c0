"""Discord's API base for the bot itself: ``DISCORD_API_URL`` other than Discord's own (a test
double, a proxy) points discord.py's REST calls there, and its gateway at the URL that API's
``/gateway`` answers. Done once when the bot starts (discord.py keeps both on its classes)."""

from __future__ import annotations

import logging

import aiohttp

__all__ = ["DEFAULT_API", "point_library_at"]

logger = logging.getLogger(__name__)

DEFAULT_API = "https://discord.com/api/v10"


async def point_library_at(api_url: str, bot_token: str, *, timeout: float = 10.0) -> bool:
    """Point discord.py at ``api_url`` (no change for Discord's own); True when changed."""
    api = api_url.rstrip("/")
    if api == DEFAULT_API:
        return False
    import discord.gateway
    import discord.http
    import yarl

    headers = {"Authorization": f"Bot {bot_token}"}
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout)) as session,
        session.get(f"{api}/gateway", headers=headers) as response,
    ):
        response.raise_for_status()
        body = await response.json(content_type=None)
    gateway = body.get("url") if isinstance(body, dict) else None
    if not isinstance(gateway, str) or not gateway.startswith(("ws://", "wss://")):
        raise ValueError(f"{api}/gateway gave no gateway URL")
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway.rstrip("/") + "/")
    logger.info("Discord API at %s, gateway at %s", api, gateway)
    return True
