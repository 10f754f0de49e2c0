"""The web table's browser tests' harness: the real web application (bot/web) on 127.0.0.1
over a real store, Debian's Chromium driven by Playwright for Python, and players that play a
page through its DOM (taps on cards and buttons) while every WebSocket frame it receives is
kept, to check what it was sent."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import pytest

from bot.render import Renderer
from bot.render.i18n import Catalogs
from bot.service import (
    ChatRef,
    ComputerPlayers,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.store import Store
from bot.web.auth import sign_init_data
from bot.web.server import WebConfig, WebTable, build_web_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BOT_TOKEN = "123456:TEST-token-for-the-browser-tests"
GROUP = ChatRef("telegram", "-1001234")
PHONE = {"width": 360, "height": 740}
STEP_TIMEOUT = 15.0  # seconds a page may take to show the next version


def need_browser() -> None:
    """Skip (or, with CI set, fail) when Chromium or Playwright is missing."""
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(CHROMIUM)
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        missing.append("playwright (pip install -e '.[dev]')")
    if missing:
        message = "the browser tests need " + " and ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def screenshot_dir() -> Path:
    """Where the tests save their phone-size screenshots (TAVOLO_SCREENSHOTS, else a tmp dir)."""
    path = Path(os.environ.get("TAVOLO_SCREENSHOTS") or "/tmp/tavolo-web-screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class Server:
    url: str
    service: TableService
    web: WebTable
    seeds: list[int]
    runner: Any = None
    make: Any = None

    def user(self, user_id: int, name: str, lang: str = "en") -> UserRef:
        return UserRef("telegram", str(user_id), name, lang)

    async def restart(self) -> None:
        """Stop the web application (every socket closes) and serve a new one on the same
        port and database, as a restarted bot process does."""
        port = int(self.url.rsplit(":", 1)[1])
        await self.runner.cleanup()
        self.web, self.runner = await self.make(port)


@asynccontextmanager
async def serve(db_url: str, *, pace: float = 0.0, local: bool = False) -> AsyncIterator[Server]:
    """The web application as `python -m bot run` mounts it, on a free 127.0.0.1 port."""
    from aiohttp import web

    store = Store.open(db_url)
    await store.upgrade()
    seeds = iter(range(7, 1_000_000))
    used: list[int] = []

    def seed() -> int:
        value = next(seeds)
        used.append(value)
        return value

    service = TableService(
        store,
        registry=default_registry(),
        computers=ComputerPlayers(processes=0),
        timers=TimerSettings(reminder=0, chat_timers=False, lobby=0),
        default_locale="en",
        seeds=seed,
    )
    renderer = Renderer(Catalogs(default="en"))

    async def make(port: int) -> tuple[WebTable, Any]:
        web_table = WebTable(
            service,
            renderer,
            WebConfig(bot_token=BOT_TOKEN, local=local, pace=pace, rate=200, burst=400),
        )
        # No shutdown_timeout here: the app closes the pages' sockets itself on shutdown, so a
        # restart is quick (else aiohttp would wait up to 60 s for them).
        runner = web.AppRunner(build_web_app(web_table))
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port, reuse_address=True).start()
        return web_table, runner

    web_table, runner = await make(0)
    port = runner.addresses[0][1]
    server = Server(f"http://127.0.0.1:{port}", service, web_table, used, runner, make)
    try:
        yield server
    finally:
        await server.runner.cleanup()
        await service.computers.aclose()
        await store.close()


def init_data(
    user_id: int, name: str, *, start: int | None, lang: str = "en", age: float = 0.0
) -> str:
    """Init data as Telegram signs it for this test's bot token."""
    fields = {
        "user": json.dumps(
            {"id": user_id, "first_name": name, "language_code": lang}, separators=(",", ":")
        ),
        "auth_date": str(int(time.time() - age)),
        "query_id": f"AAH{user_id}",
    }
    if start is not None:
        fields["start_param"] = str(start)
    return sign_init_data(fields, BOT_TOKEN)


def page_url(server: Server, init: str, *, theme: dict[str, str] | None = None) -> str:
    """The address Telegram opens: the init data in the fragment, as Telegram passes it."""
    fragment = f"tgWebAppData={quote(init, safe='')}&tgWebAppVersion=8.0&tgWebAppPlatform=android"
    if theme is not None:
        fragment += "&tgWebAppThemeParams=" + quote(json.dumps(theme), safe="")
    return f"{server.url}/app/#{fragment}"


@asynccontextmanager
async def chromium(*, extra_args: tuple[str, ...] = ()) -> AsyncIterator[Any]:
    """Debian's Chromium, headless, with the flags this machine's closed network needs."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        args = [*CHROMIUM_ARGS, *extra_args]
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            yield browser
        finally:
            await browser.close()


@dataclass
class Player:
    """One browser page at the table, and every state frame it was pushed."""

    name: str
    user_id: int
    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refusals_seen: int = 0

    def states(self) -> dict[int, dict[str, Any]]:
        return {f["version"]: f["state"] for f in self.frames if f.get("type") == "state"}

    async def shown(self) -> tuple[int | None, dict[str, Any] | None]:
        """The version on screen and its state (as the page was sent it)."""
        text = await self.page.evaluate("document.body.dataset.version || ''")
        if not text or text in ("null", "undefined"):
            return None, None
        version = int(text)
        return version, self.states().get(version)


async def open_player(
    browser: Any, url: str, *, name: str, user_id: int, viewport: dict[str, int] = PHONE
) -> Player:
    context = await browser.new_context(viewport=viewport, device_scale_factor=2, has_touch=True)
    page = await context.new_page()
    player = Player(name, user_id, page)
    watch_page(player)
    await page.goto(url)
    return player


class Watched(Protocol):
    """What ``watch_page`` fills: a player's page and the frames, sends and errors seen."""

    page: Any
    frames: list[dict[str, Any]]
    sent: list[dict[str, Any]]
    errors: list[str]


def watch_page(player: Watched) -> None:
    """Record every WebSocket frame the page receives and sends, and its errors."""
    page = player.page

    def on_socket(ws: Any) -> None:
        def received(payload: Any) -> None:
            try:
                player.frames.append(json.loads(payload))
            except (TypeError, ValueError):
                player.errors.append(f"not JSON: {payload!r:.80}")

        def sent(payload: Any) -> None:
            with suppress(TypeError, ValueError):
                player.sent.append(json.loads(payload))

        ws.on("framereceived", received)
        ws.on("framesent", sent)

    page.on("websocket", on_socket)
    page.on("pageerror", lambda exc: player.errors.append(f"page error: {exc}"))
    page.on(
        "console",
        lambda msg: player.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
    )


async def wait_for(predicate: Any, *, timeout: float = STEP_TIMEOUT, what: str = "") -> Any:
    """Poll ``predicate`` (sync or async) until it returns a true value; bounded."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await asyncio.sleep(0.03)


async def pictures_loaded(page: Any) -> None:
    """Wait (bounded) for the card pictures on screen, before a screenshot."""
    # (Polled with evaluate: the page's CSP forbids the eval that wait_for_function uses.)
    await wait_for(
        lambda: page.evaluate("[...document.images].every(i => i.complete)"),
        what="the card pictures",
    )


# -- playing a page through its DOM ------------------------------------------------------------


def _bare(card: str) -> str:
    return card.rstrip("'").upper()


async def click_card(player: Player, card: str, *, keyboard: bool = False) -> None:
    """Tap (or, with ``keyboard``, reach with the arrow keys and press Enter) a hand card."""
    page = player.page
    cards: list[str] = await page.eval_on_selector_all(
        "#hand button.card", "els => els.map(e => e.dataset.card)"
    )
    matches = [i for i, c in enumerate(cards) if c == card] or [
        i for i, c in enumerate(cards) if _bare(c) == _bare(card)
    ]
    assert matches, f"{player.name}: {card} is not in the hand shown {cards}"
    index = matches[0]
    if keyboard:
        focused = await page.evaluate(
            "() => { const h = document.querySelector('#hand button.card[tabindex=\"0\"]');"
            " if (h) h.focus(); return [...document.querySelectorAll('#hand button.card')]"
            ".indexOf(document.activeElement); }"
        )
        at = max(0, focused)
        key = "ArrowRight" if index >= at else "ArrowLeft"
        for _ in range(abs(index - at)):
            await page.keyboard.press(key)
        name = await page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert name, "the focused card has no accessible name"
        await page.keyboard.press("Enter")
    else:
        await page.locator("#hand button.card").nth(index).click()


async def click_move(player: Player, move: str) -> None:
    await player.page.locator(f'#bar button[data-move="{move}"]').first.click()


async def click_action(player: Player, action: str) -> None:
    await player.page.locator(f'#bar button[data-action="{action}"]').first.click()


async def choose(player: Player, index: int) -> None:
    """Pick option ``index`` in the page's chooser (a capture, an end of a scala)."""
    dialog = player.page.locator("#chooser")
    await dialog.wait_for(state="visible", timeout=5000)
    await dialog.locator("button.choice").nth(index).click()


@dataclass
class Turns:
    """What the driver did: moves per family kind, refusals seen, choices made."""

    moves: int = 0
    choices: int = 0
    composed: int = 0
    attached: int = 0
    laid: int = 0
    bids: int = 0
    swapped: int = 0
    keyboard: int = 0
    drawn: int = 0  # Scala 40: turns whose page named the card just drawn from the stock
    refused: list[str] = field(default_factory=list)


def refusals(player: Player) -> list[dict[str, Any]]:
    return [f for f in player.frames if f.get("type") == "refused"]


async def take_turn(player: Player, state: dict[str, Any], turns: Turns, *, keyboard: bool) -> None:
    """One move of the seat on screen, made the way a person makes it on the page."""
    family = state["family"]
    moves = state["moves"]
    assert moves, f"{player.name}: my turn with no moves"
    if family == "scopa":
        by_card: dict[str, list[dict[str, Any]]] = {}
        for m in moves:
            by_card.setdefault(m["card"], []).append(m)
        # Prefer a card with a choice of captures (the chooser), then a capture, then any.
        card = next((c for c, ms in by_card.items() if len(ms) > 1), None)
        if card is None:
            card = next((m["card"] for m in moves if ":" in m["move"]), moves[0]["card"])
        await click_card(player, card, keyboard=keyboard)
        if keyboard:
            turns.keyboard += 1
        if len(by_card[card]) > 1:
            await choose(player, len(by_card[card]) - 1)
            turns.choices += 1
    elif family in ("briscola", "chiamata"):
        cards = [m for m in moves if m.get("card") and m["move"] == m["card"]]
        names = [m["move"] for m in moves]
        points = [n for n in names if n.isdigit() and int(n) > 20]
        if cards:
            await click_card(player, cards[-1]["card"], keyboard=keyboard)
            if keyboard:
                turns.keyboard += 1
        elif points and turns.bids < 1:
            # A point bid: chosen in the list, sent with the button.
            await player.page.locator('#bar select[data-role="points"]').select_option(points[0])
            await player.page.locator('#bar button[data-role="bid"]').click()
            turns.bids += 1
        elif "pass" in names and turns.bids < 1 and len(names) > 1:
            # Bid once (a rank), then pass: the page's auction and, if won, its call.
            await click_move(player, next(n for n in names if n != "pass" and n not in points))
            turns.bids += 1
        elif "pass" in names:
            await click_move(player, "pass")
        else:
            await click_move(player, moves[0]["move"])
    else:
        await scala_turn(player, state, turns)
    turns.moves += 1


async def scala_turn(player: Player, state: dict[str, Any], turns: Turns) -> None:
    moves = [m["move"] for m in state["moves"]]
    drawn = (state.get("view") or {}).get("drawn")
    if drawn:
        held = drawn in ((state.get("view") or {}).get("hand") or [])
        await check_drawn_shown(player, drawn, held=held)
        turns.drawn += 1
    tried = {f.get("action") for f in player.sent if f.get("type") == "act"}
    for simple in ("out", "t", "p"):
        if simple in moves and (simple != "p" or "t" not in moves):
            await click_move(player, simple)
            return
    # Lay melds a few times (composed from the cards, or the offered button), then only draw
    # and discard: the humans soon go out and the match ends in a few hands.
    opening = next((m for m in moves if m.startswith(("o ", "m "))), None)
    if opening is not None and turns.composed + turns.laid < 3:
        composed = " ".join(opening.split()[1:])
        if (
            not any(a and a.endswith(composed) and a != opening for a in tried)
            and len(refusals(player)) < 3
        ):
            # Compose it from the cards, meld by meld, as a person does.
            await compose(player, opening)
            turns.composed += 1
            return
        await click_move(player, opening)
        turns.laid += 1
        return
    # A joker swap first (rare: a joker on the table and its card in hand), else an attach.
    targeted = [m for m in moves if m[:1] in "as" and m[1:2].isdigit()]
    attach = next((m for m in targeted if m.startswith("s")), None) or next(iter(targeted), None)
    if attach is not None and turns.attached < 2:
        meld, card = attach[1:].split()[0], attach.split()[1].rstrip("<>")
        # The page offers, for that card and meld, the listed moves in their order.
        options = [
            m for m in targeted if m[1:].split()[0] == meld and m.split()[1].rstrip("<>") == card
        ]
        await click_card(player, card)
        await player.page.locator(f'.meld[data-meld="{meld}"]').click()
        if len(options) > 1:
            await choose(player, options.index(attach))
        turns.attached += 1
        if attach.startswith("s"):
            turns.swapped += 1
        return
    discards = [m for m in moves if m.startswith("d ")]
    card = discards[-1].split()[1]
    await click_card(player, card)
    await click_move(player, f"d {card}")


async def check_drawn_shown(player: Player, drawn: str, *, held: bool) -> None:
    """The page names the card its seat just drew from the stock and marks it in the hand
    (``held``: still there, not laid yet this turn)."""
    marked, said = await player.page.evaluate(
        """() => [[...document.querySelectorAll('#hand button.card.drawn')]
                    .map(e => [e.dataset.card, e.getAttribute('aria-describedby'),
                               e.getAttribute('aria-label')]),
                  (document.getElementById('drawn-hint') || {}).textContent || '']"""
    )
    assert said.strip(), f"{player.name}: the drawn card {drawn} is not named"
    if not held:
        assert marked == [], f"{player.name}: laid {drawn}, marked {marked}"
        return
    assert [m[:2] for m in marked] == [[drawn, "drawn-hint"]], (
        f"{player.name}: drew {drawn}, marked {marked}"
    )
    assert marked[0][2] and marked[0][2] in said, f"{player.name}: {said!r} names not {drawn}"


def _meld_cards(meld: str) -> list[str]:
    import re

    return re.findall(r"(?:10|[A2-9TJQK])[DCSB]|\*", meld.upper())


async def compose(player: Player, move: str) -> None:
    melds = move.split()[1:]
    for n, meld in enumerate(melds):
        for card in _meld_cards(meld):
            await select_unselected(player, card)
        if n < len(melds) - 1:
            await player.page.locator('#bar button[data-compose="group"]').click()
    await player.page.locator('#bar button[data-compose="meld"]').click()


async def select_unselected(player: Player, card: str) -> None:
    page = player.page
    index = await page.evaluate(
        """(card) => {
          const all = [...document.querySelectorAll('#hand button.card')];
          const bare = (c) => c.replace(/'+$/, '').toUpperCase();
          return all.findIndex(e => bare(e.dataset.card) === card
            && e.getAttribute('aria-pressed') !== 'true' && !e.classList.contains('staged'));
        }""",
        card,
    )
    assert index >= 0, f"{player.name}: no unselected {card} to select"
    await page.locator("#hand button.card").nth(index).click()


async def play_out(
    players: list[Player],
    *,
    max_steps: int = 3000,
    keyboard: Player | None = None,
    between: Any = None,
    timeout: float = 240.0,
) -> Turns:
    """Play every page's turns through the DOM until each shows the game over; bounded."""
    turns = Turns()
    acted: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    for _ in range(max_steps):
        progressed = False
        over = 0
        for player in players:
            version, state = await player.shown()
            if state is None:
                continue
            if state["status"] == "over":
                over += 1
                continue
            if (
                state["status"] != "playing"
                or state["you"] is None
                or state["turn"] != state["you"]
            ):
                continue
            if acted.get(player.name) == version and not await _refused_since(player, version):
                continue
            if await player.page.locator("body.busy").count():
                continue
            acted[player.name] = version
            await take_turn(player, state, turns, keyboard=player is keyboard)
            progressed = True
            if between is not None:
                await between(turns)
        if over == len(players):
            return turns
        if time.monotonic() > deadline:
            shown = [await p.shown() for p in players]
            raise AssertionError(
                "the game did not end in time: "
                + "; ".join(
                    f"{p.name} v{v} {s and s['status']} turn={s and s['turn']} you={s and s['you']}"
                    f" moves={s and [m['move'] for m in s['moves']][:6]}"
                    for p, (v, s) in zip(players, shown, strict=True)
                )
            )
        if not progressed:
            await asyncio.sleep(0.04)
    raise AssertionError("the game did not end within the step bound")


async def _refused_since(player: Player, version: int) -> bool:
    """A move of this version was refused (the page stays on it): try again, differently."""
    now = len(refusals(player))
    if now > player.refusals_seen:
        player.refusals_seen = now
        return True
    return False
