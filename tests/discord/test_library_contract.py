"""The discord.py internals the tests (and only the tests) rely on: fail loudly if they move.

The fake server is reached by replacing ``discord.http.Route.BASE`` (REST and the webhook
adapter used for interaction callbacks) and ``DiscordWebSocket.DEFAULT_GATEWAY`` (a non-sharded
client connects there directly). pyproject pins ``discord.py>=2.7.1,<2.8``; a new version that
renames these must fail here, not as a hang in some end-to-end test.
"""

from __future__ import annotations

import importlib.metadata
import inspect

import discord
import discord.gateway
import discord.http
import discord.webhook.async_
import yarl
from packaging.version import Version


def test_discord_py_version_is_the_pinned_one() -> None:
    version = Version(importlib.metadata.version("discord.py"))
    assert Version("2.7.1") <= version < Version("2.8"), version


def test_rest_base_is_a_class_attribute_used_by_every_route() -> None:
    assert discord.http.Route.BASE.startswith("https://discord.com/api/v10")
    route = discord.http.Route("GET", "/users/@me")
    assert route.url == discord.http.Route.BASE + "/users/@me"
    # Interaction callbacks and follow-ups go through the webhook adapter, with the same Route.
    assert discord.webhook.async_.Route is discord.http.Route


def test_default_gateway_is_a_class_attribute_used_when_connecting() -> None:
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert isinstance(gateway, yarl.URL) and gateway.host == "gateway.discord.gg"
    source = inspect.getsource(discord.gateway.DiscordWebSocket.from_client)
    assert "cls.DEFAULT_GATEWAY" in source


def test_rate_limit_handling_still_needs_via_and_retry_after() -> None:
    source = inspect.getsource(discord.http.HTTPClient.request)
    assert "response.headers.get('Via')" in source
    assert "data['retry_after']" in source


def test_json_is_decoded_only_for_exact_content_type() -> None:
    source = inspect.getsource(discord.http.json_or_text)
    assert "== 'application/json'" in source


def test_patching_points_routes_at_the_fake(monkeypatch, fake) -> None:  # type: ignore[no-untyped-def]
    assert discord.http.Route("GET", "/gateway").url == fake.api_base + "/gateway"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("ws://127.0.0.1:")
