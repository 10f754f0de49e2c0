"""The Discord Activity's test stack: the fake Discord (REST, gateway, OAuth2), the real
discord.py bot with the Discord adapter, the real service on SQLite, and the web table's
application with Discord's sign-in, all on 127.0.0.1, sharing one service as `python -m bot run`
does. The browser side: Debian's Chromium (Playwright for Python) opens a test page that plays
the Discord client (tests/web/activity_parent/) with the Activity in its iframe."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from aiohttp import web

from bot.discord.activity import CoalescedEdits
from bot.discord.bot import TavoloBot
from bot.discord.handler import ServiceHandler
from bot.discord.sync import MemorySyncState
from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import ComputerPlayers, TableService, TimerSettings, default_registry
from bot.store import Store
from bot.web.discord_auth import DiscordAuthConfig
from bot.web.server import WebConfig, WebTable, build_web_app
from tests.discord.conftest import no_library_errors, running
from tests.fakes.discord_api import FakeDiscord, FakeUser, StoredMessage
from tests.fakes.discord_oauth import CLIENT_SECRET
from tests.web.browser import harness as browser_harness
from tests.web.browser.harness import need_browser

# no_library_errors: the Discord tests' fixture (discord.py's swallowed errors fail); need_browser:
# the browser tests' skip (or, with CI set, failure) without Chromium or Playwright.
__all__ = ["need_browser", "no_library_errors"]

# The client's page stands for https://discord.com (routed inside the browser) and frames the
# Activity on 127.0.0.1, where Discord's proxy would be: a public page framing a local one.
FRAMING_ARGS = ("--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations",)
PARENT = Path(__file__).resolve().parent / "activity_parent"
PHONE = {"width": 360, "height": 740}
STEP_TIMEOUT = 20.0
LAUNCH_PREFIX = "~activity:"
DISCORD_CLIENT = "https://discord.com"


@dataclass
class Stack:
    fake: FakeDiscord
    service: TableService
    handler: ServiceHandler
    web: WebTable
    url: str

    def launch_id(self, message: StoredMessage) -> str:
        found = [c for c in message.custom_ids() if c.startswith(LAUNCH_PREFIX)]
        assert found, f"no Activity button on {message.content!r}: {message.custom_ids()}"
        return found[0]

    def parent_url(
        self,
        user: FakeUser,
        *,
        instance: str = "i-1",
        code: str | None = None,
        client: str = DISCORD_CLIENT,
    ) -> str:
        query = {
            "frame_id": f"frame-{user.id}",
            "instance_id": instance,
            "client_id": self.fake.oauth.client_id,
            "guild_id": str(self.fake.guild_id),
            "channel_id": str(self.fake.channel_id),
            "user": str(user.id),
        }
        if code is not None:
            query["code"] = code
        query["app"] = self.url
        # The client's page at Discord's own origin (served by the browser's routing, below):
        # the Activity is framed cross-origin, as in Discord.
        return f"{client}/test-discord/parent.html?{urlencode(query)}"


@asynccontextmanager
async def activity_stack(db_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Stack]:
    fake = FakeDiscord()
    await fake.start()
    fake.patch_client_urls(monkeypatch)
    store = Store.open(db_url)
    await store.upgrade()
    seeds = iter(range(7, 1_000_000))
    service = TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(processes=0),
        timers=TimerSettings(reminder=0, chat_timers=False, lobby=0),
        default_locale="en",
        seeds=lambda: next(seeds),
    )
    renderer = Renderer(Catalogs(default="en"))
    handler = ServiceHandler(service, renderer, state=store)
    handler.activity = True
    bot = TavoloBot(handler=handler, sync_state=MemorySyncState(), guild_ready_timeout=0.05)
    handler.bind(bot)
    web_table = WebTable(
        service,
        renderer,
        WebConfig(
            discord=DiscordAuthConfig(
                client_id=fake.oauth.client_id,
                client_secret=CLIENT_SECRET,
                bot_token=fake.token,
                api_url=fake.api_base,
            ),
            deliveries={"discord": handler.deliver},
            pace=0.0,
            rate=200,
            burst=400,
            token_secret=b"0123456789abcdef0123456789abcdef",
        ),
    )
    handler.presence = web_table.presence
    handler.table_edits = CoalescedEdits(0.3)
    app = build_web_app(web_table)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with running(bot, fake):
            yield Stack(fake, service, handler, web_table, f"http://127.0.0.1:{port}")
    finally:
        await runner.cleanup()
        if isinstance(handler.table_edits, CoalescedEdits):
            await handler.table_edits.close()
        await service.computers.aclose()
        await store.close()
        await fake.stop()


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """The browser tests' Chromium, allowed to frame the local Activity from discord.com."""
    async with browser_harness.chromium(extra_args=FRAMING_ARGS) as browser:
        yield browser


@dataclass
class Player:
    """One Discord client with the Activity open, and every frame its page was pushed."""

    name: str
    user: FakeUser
    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acted: int | None = None
    refusals_seen: int = 0

    @property
    def activity(self) -> Any:
        """The Activity's frame (the web table) inside the client's page."""
        for frame in self.page.frames:
            if "/app/" in frame.url:
                return frame
        raise AssertionError(
            f"{self.name}: no Activity frame in {[f.url for f in self.page.frames]}"
        )

    def latest(self) -> dict[str, Any] | None:
        states = [f for f in self.frames if f.get("type") == "state"]
        return max(states, key=lambda f: f["version"]) if states else None

    def acts(self) -> list[dict[str, Any]]:
        return [f for f in self.sent if f.get("type") == "act"]

    def refusals(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "refused"]


async def open_client(
    browser: Any,
    url: str,
    *,
    name: str,
    user: FakeUser,
    fake: FakeDiscord,
    client: str = DISCORD_CLIENT,
) -> Player:
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True)
    await context.route(f"{client}/**", lambda route: _discord_client(route, fake))
    page = await context.new_page()
    player = Player(name, user, page)
    browser_harness.watch_page(player)
    await page.goto(url)
    return player


async def _discord_client(route: Any, fake: FakeDiscord) -> None:
    """https://discord.com in the test's browser: the client's page and the codes its
    AUTHORIZE hands out; nothing else (nothing leaves 127.0.0.1)."""
    url = urlsplit(route.request.url)
    name = url.path.removeprefix("/test-discord/")
    if name in ("parent.html", "parent.js"):
        kind = "text/html" if name.endswith(".html") else "text/javascript"
        await route.fulfill(status=200, content_type=kind, body=(PARENT / name).read_text())
    elif url.path == "/test-discord-code":
        user = fake.users[int(parse_qs(url.query)["user"][0])]
        body = json.dumps({"code": fake.oauth.code_for(user)})
        await route.fulfill(status=200, content_type="application/json", body=body)
    elif url.path == "/favicon.ico":
        await route.fulfill(status=204, body="")
    else:
        await route.fulfill(status=404, body="")


async def wait_for(predicate: Any, *, timeout: float = STEP_TIMEOUT, what: str = "") -> Any:
    """Poll ``predicate`` (sync or async) until it returns a true value; bounded."""
    return await browser_harness.wait_for(predicate, timeout=timeout, what=what)


async def hand_shown(player: Player) -> list[str]:
    cards: list[str] = await player.activity.eval_on_selector_all(
        "#hand button.card", "els => els.map(e => e.dataset.card)"
    )
    return cards


async def take_turn(player: Player, state: dict[str, Any]) -> None:
    """One move, the way a person makes it on the page: tap a card (and pick a capture)."""
    moves = state["moves"]
    frame = player.activity
    with_card = [m for m in moves if m.get("card")]
    if not with_card:
        await frame.locator(f'button[data-move="{moves[0]["move"]}"]').first.click()
        return
    card = with_card[-1]["card"]
    cards = await hand_shown(player)
    index = cards.index(card) if card in cards else [c.rstrip("'") for c in cards].index(card)
    await frame.locator("#hand button.card").nth(index).click()
    if sum(1 for m in with_card if m["card"] == card) > 1:
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        chooser = frame.locator("#chooser")
        try:
            await chooser.wait_for(state="visible", timeout=2000)
        except PlaywrightTimeout:
            return  # the page was still on an older version: the caller tries again
        await chooser.locator("button.choice").first.click()


async def play_out(players: list[Player], *, timeout: float = 300.0, max_steps: int = 20000) -> int:
    """Every page plays its turns through its DOM until each shows the game over; bounded."""
    moves = 0
    deadline = time.monotonic() + timeout
    for _ in range(max_steps):
        over = 0
        for player in players:
            frame = player.latest()
            if frame is None:
                continue
            state = frame["state"]
            if state["status"] == "over":
                over += 1
                continue
            if (
                state["status"] != "playing"
                or state["you"] is None
                or state["turn"] != state["you"]
            ):
                continue
            refused = len(player.refusals())
            if player.acted == frame["version"] and refused == player.refusals_seen:
                continue
            hand = [c for c in (state["view"] or {}).get("hand") or []]
            if sorted(await hand_shown(player)) != sorted(hand):
                continue  # the page is not showing this version yet
            if await player.activity.locator("body.busy").count():
                continue
            if (
                state["view"].get("hand")
                and not await player.activity.locator("#hand button.card.playable").count()
            ):
                continue  # the page shows an older version, where it was not our turn
            player.acted, player.refusals_seen = frame["version"], refused
            acts = len(player.acts())
            await take_turn(player, state)
            try:
                await wait_for(
                    lambda p=player, n=acts: len(p.acts()) > n, timeout=2.0, what="an act"
                )
            except AssertionError:
                player.acted = None  # the page still showed an older version: again
                continue
            moves += 1
        if over == len(players):
            return moves
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end in time: {await _where(players)}")
        await asyncio.sleep(0.03)
    raise AssertionError("the game did not end within the step bound")


async def _where(players: list[Player]) -> str:
    out = []
    for p in players:
        frame = p.latest() or {}
        state = frame.get("state") or {}
        shown = await hand_shown(p)
        out.append(
            f"{p.name}: v{frame.get('version')} {state.get('status')} turn {state.get('turn')}"
            f" you {state.get('you')} hand {(state.get('view') or {}).get('hand')} shown {shown}"
            f" moves {[m['move'] for m in state.get('moves') or []]}"
            f" refused {p.refusals()[-2:]} errors {p.errors[-3:]}"
        )
    return "; ".join(out)
