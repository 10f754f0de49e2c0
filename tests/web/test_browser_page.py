"""The web table's page in Debian's headless Chromium: signing in (forged, expired or missing
init data gets nothing), Telegram's theme, a refused move's reason, resuming after the server
went away, the first load's weight, and `tavolo web`'s local play against the computer."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser.harness import (
    BOT_TOKEN,
    GROUP,
    PHONE,
    Player,
    Server,
    chromium,
    click_card,
    click_move,
    init_data,
    need_browser,
    open_player,
    page_url,
    pictures_loaded,
    play_out,
    screenshot_dir,
    serve,
    wait_for,
)

pytestmark = pytest.mark.slow

DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}"


@pytest.fixture(autouse=True)
def _browser() -> None:
    need_browser()


async def new_table(
    server: Server, game: str, players: int, options: dict[str, Any] | None = None
) -> int:
    creator = server.user(101, "Alice")
    created = await server.service.create_table(
        GROUP, creator, game, players=players, options=options, computers=players - 1
    )
    assert created.table is not None, created.refusal
    started = await server.service.start(GROUP, creator, created.table.id)
    assert started.refusal is None, started.refusal
    return created.table.id


async def shown_state(player: Player) -> dict[str, Any] | None:
    _, state = await player.shown()
    return state


def forged(init: str) -> str:
    """The same init data with another user id: the hash no longer matches."""
    return init.replace("%22id%22%3A101", "%22id%22%3A202")


@pytest.mark.parametrize("case", ["forged", "expired", "missing", "other bot"])
async def test_a_page_without_valid_init_data_gets_no_table(db: str, case: str) -> None:
    async with serve(db) as server:
        table = await new_table(server, "scopa", 2, {"target": 1})
        good = init_data(101, "Alice", start=table)
        if case == "forged":
            url = page_url(server, forged(good))
            assert forged(good) != good
        elif case == "expired":
            url = page_url(server, init_data(101, "Alice", start=table, age=2 * 86400))
        elif case == "other bot":
            from bot.web.auth import sign_init_data

            fields = dict(p.split("=", 1) for p in init_data(101, "Alice", start=table).split("&"))
            fields.pop("hash")
            other = sign_init_data(
                {k: _unquote(v) for k, v in fields.items()}, BOT_TOKEN.replace("TEST", "EVIL")
            )
            url = page_url(server, other)
        else:
            url = f"{server.url}/app/"
        async with chromium() as browser:
            player = await open_player(browser, url, name="Alice", user_id=101)
            notice = player.page.locator("#notice")
            await notice.wait_for(state="visible", timeout=10000)
            assert (await notice.inner_text()).strip()
            assert await player.page.locator("#app").is_hidden()
            assert not player.frames, "a refused page got frames"
            assert "7D" not in await player.page.content()


def _unquote(text: str) -> str:
    from urllib.parse import unquote_plus

    return unquote_plus(text)


async def test_telegram_theme_and_italian_names(db: str) -> None:
    async with serve(db) as server:
        table = await new_table(server, "briscola", 2)
        url = page_url(server, init_data(101, "Alice", start=table, lang="it"), theme=DARK)
        async with chromium() as browser:
            player = await open_player(browser, url, name="Alice", user_id=101)
            await wait_for(lambda: shown_state(player), what="a state")
            background = await player.page.evaluate(
                "getComputedStyle(document.body).backgroundColor"
            )
            assert background == "rgb(23, 33, 43)"
            assert await player.page.evaluate("document.documentElement.lang") == "it"
            names = await player.page.eval_on_selector_all(
                "#hand button.card", "els => els.map(e => e.getAttribute('aria-label'))"
            )
            assert names and all(
                re.fullmatch(r"(Asso|Fante|Cavallo|Re|[2-7]) di (denari|coppe|spade|bastoni)", n)
                for n in names
            ), names
            width = await player.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"]
            await pictures_loaded(player.page)
            await player.page.screenshot(path=str(screenshot_dir() / "briscola-dark-it.png"))


async def test_a_refused_move_shows_the_reason_and_changes_nothing(db: str) -> None:
    async with serve(db) as server:
        table = await new_table(server, "scala40", 2)
        url = page_url(server, init_data(101, "Alice", start=table))
        async with chromium() as browser:
            player = await open_player(browser, url, name="Alice", user_id=101)

            async def my_turn() -> dict[str, Any] | None:
                state = await shown_state(player)
                ok = state and state["turn"] == state["you"] and state["moves"]
                return state if ok else None

            state = await wait_for(my_turn, what="Alice's turn")
            if state["view"]["phase"] == "draw":
                await click_move(player, "t")
                state = await wait_for(
                    lambda: _phase(player, "meld"), what="the meld phase after drawing"
                )
            hand = state["view"]["hand"]
            # Three cards of three ranks and three suits: no meld.
            chosen: list[str] = []
            for card in hand:
                if card.startswith("*"):
                    continue
                if all(
                    card[0] != c[0] and card.rstrip("'")[-1] != c.rstrip("'")[-1] for c in chosen
                ):
                    chosen.append(card)
                if len(chosen) == 3:
                    break
            assert len(chosen) == 3, hand
            for card in chosen:
                await click_card(player, card)
            version = await player.page.evaluate("document.body.dataset.version")
            await player.page.locator('#bar button[data-compose="meld"]').click()
            toast = player.page.locator("#toast")
            await toast.wait_for(state="visible", timeout=10000)
            reason = (await toast.inner_text()).strip()
            refused = [f for f in player.frames if f.get("type") == "refused"]
            assert refused and reason == refused[-1]["reason"], (reason, refused)
            assert await player.page.evaluate("document.body.dataset.version") == version
            await pictures_loaded(player.page)
            await player.page.screenshot(path=str(screenshot_dir() / "scala40-refused.png"))


async def _phase(player: Player, phase: str) -> dict[str, Any] | None:
    state = await shown_state(player)
    return state if state and state["view"] and state["view"]["phase"] == phase else None


async def test_the_page_resumes_after_the_server_went_away(db: str) -> None:
    async with serve(db) as server:
        table = await new_table(server, "briscola", 2)
        url = page_url(server, init_data(101, "Alice", start=table))
        async with chromium() as browser:
            player = await open_player(browser, url, name="Alice", user_id=101)
            await wait_for(lambda: shown_state(player), what="a state")
            before = int(await player.page.evaluate("document.body.dataset.version"))
            await server.restart()
            # The page signs in again (a new process knows no old token) and asks for what
            # came after the version it shows.
            await wait_for(
                lambda: [
                    f for f in player.sent if f.get("type") == "watch" and f.get("since") == before
                ],
                what="a watch with since",
                timeout=20,
            )
            await wait_for(lambda: shown_state(player), what="a state again")
            # And plays on: a card tapped after the resume is a move.
            state = await wait_for(lambda: _my_turn(player), what="Alice's turn")
            version = int(await player.page.evaluate("document.body.dataset.version"))
            await click_card(player, state["moves"][0]["card"])
            await wait_for(
                lambda: player.page.evaluate(f"Number(document.body.dataset.version) > {version}"),
                what="the move after the resume",
            )


async def _my_turn(player: Player) -> dict[str, Any] | None:
    state = await shown_state(player)
    return state if state and state["turn"] == state["you"] and state["moves"] else None


async def test_first_load_weighs_under_150_kb_besides_the_cards(db: str) -> None:
    async with serve(db) as server:
        table = await new_table(server, "scopa", 2, {"target": 1})
        url = page_url(server, init_data(101, "Alice", start=table))
        sizes: dict[str, int] = {}
        async with chromium() as browser:
            context = await browser.new_context(viewport=PHONE)
            page = await context.new_page()

            async def on_response(response: Any) -> None:
                if "/cards/" in response.url or response.request.resource_type == "websocket":
                    return
                try:
                    sizes[response.url] = len(await response.body())
                except Exception:  # a redirect has no body
                    sizes[response.url] = 0

            page.on("response", on_response)
            await page.goto(url)
            await page.locator("#hand button.card").first.wait_for(timeout=10000)
            await page.wait_for_load_state("networkidle")
        total = sum(sizes.values())
        assert any(u.endswith("/static/app.js") for u in sizes), sizes
        assert total < 150 * 1024, json.dumps(sizes, indent=1)


async def test_local_play_against_the_computer(db: str) -> None:
    async with serve(db, local=True) as server, chromium() as browser:
        player = await open_player(browser, f"{server.url}/app/", name="local", user_id=0)
        form = player.page.locator("#newgame")
        await form.wait_for(state="visible", timeout=10000)
        await pictures_loaded(player.page)
        await player.page.screenshot(path=str(screenshot_dir() / "local-new-game.png"))
        await form.locator("select[name=game]").select_option("scopa")
        await form.locator("select[name=players]").select_option("2")
        await form.locator("button.primary").click()
        await wait_for(lambda: shown_state(player), what="the new game's state")
        state = await shown_state(player)
        assert state is not None and state["you"] == 0 and state["status"] == "playing"
        turns = await play_out([player], timeout=200)
        assert turns.moves > 0
        await player.page.locator('#bar button[data-action="@rematch"]').wait_for()


async def test_every_computer_move_is_shown_one_by_one(db: str) -> None:
    """Three computers answer each move: the page shows each of their versions in turn, none
    skipped (the server paces them; here a short pace, the page's own pace off)."""
    async with serve(db, pace=0.05) as server:
        table = await new_table(server, "scopone", 4, {"target": 1})
        url = page_url(server, init_data(101, "Alice", start=table))
        async with chromium() as browser:
            player = await open_player(browser, url, name="Alice", user_id=101)
            await wait_for(lambda: shown_state(player), what="a state")
            await player.page.evaluate(
                """() => {
                  window.seenVersions = [Number(document.body.dataset.version)];
                  new MutationObserver(() => {
                    const v = Number(document.body.dataset.version);
                    const seen = window.seenVersions;
                    if (seen[seen.length - 1] !== v) seen.push(v);
                  }).observe(document.body, { attributes: true });
                }"""
            )
            turns = await play_out([player], timeout=120)
            seen = await player.page.evaluate("window.seenVersions")
        assert turns.moves >= 9
        assert len(seen) >= 3 * turns.moves, seen
        assert all(b == a + 1 for a, b in itertools.pairwise(seen)), seen


async def test_leaving_from_the_page_asks_first(db: str) -> None:
    async with serve(db) as server:
        creator = server.user(101, "Alice")
        created = await server.service.create_table(GROUP, creator, "briscola", players=2)
        assert created.table is not None
        table = created.table.id
        await server.service.join(GROUP, server.user(102, "Bruno"), table)
        await server.service.start(GROUP, creator, table)
        async with chromium() as browser:
            bruno = await open_player(
                browser,
                page_url(server, init_data(102, "Bruno", start=table)),
                name="Bruno",
                user_id=102,
            )
            await wait_for(lambda: shown_state(bruno), what="Bruno's state")
            await bruno.page.locator('#bar button[data-action="@quit"]').click()
            dialog = bruno.page.locator("#chooser")
            await dialog.wait_for(state="visible")
            # Cancel first: nothing happens.
            await bruno.page.locator("#chooser-cancel").click()
            assert not [f for f in bruno.sent if f.get("action") == "@leave"]
            await bruno.page.locator('#bar button[data-action="@quit"]').click()
            await dialog.locator("button.choice").first.click()

            async def left() -> bool:
                state = await shown_state(bruno)
                return bool(state) and state["you"] is None

            await wait_for(left, what="Bruno out of his seat")
            state = await shown_state(bruno)
            assert state is not None and state["seats"][1]["computer"]
            assert not state["view"]["hand"]
            assert not await bruno.page.locator("#hand button.card").count()
