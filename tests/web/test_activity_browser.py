"""The web table as a Discord Activity in a real browser: Debian's headless Chromium opens a
test page playing the Discord client's side of the Embedded App SDK's protocol (HANDSHAKE,
READY, AUTHORIZE answered with a code from the fake Discord, AUTHENTICATE) with the Activity
in its iframe. Two humans launch it from the table message in the channel (LAUNCH_ACTIVITY),
the second joins the lobby from the Activity, and they play a whole Scopa 2 and a whole
Briscola 4 (computers in the other seats) by tapping cards; the channel's table message follows
the game. A refused code gets no table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.discord_api import FakeUser
from tests.fakes.discord_oauth import LAUNCH_ACTIVITY
from tests.web.activity_harness import (  # noqa: F401 - no_library_errors: a fixture
    Player,
    Stack,
    activity_stack,
    chromium,
    need_browser,
    no_library_errors,
    open_client,
    play_out,
    wait_for,
)

pytestmark = pytest.mark.slow

_TOKEN = re.compile(r"(?<![A-Za-z0-9*])((?:10|[A2-9TJQK])[DCSB])(?![A-Za-z0-9])")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'tavolo.sqlite3'}"


@pytest.fixture(autouse=True)
def _browser() -> None:
    need_browser()


async def launch(stack: Stack, user: FakeUser, table_message: int) -> None:
    """The user presses the table message's Activity button: Discord launches the Activity."""
    message = stack.fake.messages[table_message]
    pressed = await stack.fake.click(user, message, stack.launch_id(message))
    await pressed.wait_answer()
    assert pressed.callback_type == LAUNCH_ACTIVITY


async def first_state(player: Player) -> dict[str, Any]:
    frame = await wait_for(player.latest, what=f"{player.name}'s first state")
    assert isinstance(frame, dict)
    return frame


async def start_from_page(creator: Player, players: list[Player]) -> None:
    """The creator presses the lobby's start button in the Activity once every seat is taken."""

    def full() -> bool:
        frame = creator.latest()
        return frame is not None and all(not s["free"] for s in frame["state"]["seats"])

    await wait_for(full, what="every seat taken")
    await creator.activity.locator('button[data-action="@start"]').first.click()
    for player in players:
        await wait_for(
            lambda p=player: (p.latest() or {}).get("state", {}).get("status") == "playing",
            what=f"{player.name} sees the game start",
        )


def check_private(players: list[Player]) -> int:
    """No state frame a page was pushed names a card of the other page's hand at that version."""
    checked = 0
    hands = {
        p.name: {
            f["version"]: set((f["state"]["view"] or {}).get("hand") or [])
            for f in p.frames
            if f.get("type") == "state" and f["state"]["status"] == "playing"
        }
        for p in players
    }
    for p in players:
        for frame in p.frames:
            if frame.get("type") != "state":
                continue
            view = dict(frame["state"].get("view") or {})
            view.pop("rules", None)
            tokens = set(_TOKEN.findall(json.dumps({**frame["state"], "view": view})))
            # Public cards: the last move (a new deal may put its cards in a hand again), the
            # turned-up briscola (taken into a hand at the last draw), the tricks.
            public = [
                view.get(k) for k in ("last_move", "briscola", "turned_up", "trick", "last_trick")
            ]
            tokens -= set(_TOKEN.findall(json.dumps(public)))
            for q in players:
                if q is p:
                    continue
                other = hands[q.name].get(frame["version"], set())
                leak = tokens & other
                where = f"{p.name} v{frame['version']}"
                assert not leak, f"{where} names {q.name}'s {leak}: {json.dumps(frame):.1500}"
                checked += 1
    return checked


async def check_client(stack: Stack, player: Player) -> None:
    """The Discord client's side saw the whole protocol and the access token of this user."""
    log = await player.page.evaluate("window.discordLog")
    kinds = [(op, cmd) for op, cmd in log]
    assert kinds[0] == [0, None] or kinds[0] == (0, None), kinds
    assert [1, "AUTHORIZE"] in kinds or (1, "AUTHORIZE") in kinds
    token = await player.page.evaluate("window.authenticated")
    assert stack.fake.oauth.tokens.get(token) == player.user.id
    assert player.errors == [], player.errors


async def test_scopa_2_and_briscola_4_in_the_activity(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with activity_stack(db, monkeypatch) as stack, chromium() as browser:
        fake = stack.fake
        alice, bob = fake.add_user("alice"), fake.add_user("bob")

        # -- Scopa, 2 humans ---------------------------------------------------------------
        record = await fake.slash(alice, "scopa", locale="en-US")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        assert record.original is not None
        lobby = record.original.id
        table_id = int(stack.launch_id(record.original).split(":")[1])
        for who in (alice, bob):
            await launch(stack, who, lobby)
        a = await open_client(browser, stack.parent_url(alice), name="alice", user=alice, fake=fake)
        b = await open_client(browser, stack.parent_url(bob), name="bob", user=bob, fake=fake)
        for p in (a, b):
            frame = await first_state(p)
            assert frame["table"] == table_id
        await start_from_page(a, [a, b])
        before = len(fake.messages[lobby].history)
        moves = await play_out([a, b])
        assert moves >= 10
        export = await stack.service.export_game(table_id)
        assert export["status"] == "finished" and export["result"] is not None
        # One game: the channel's table message followed the moves made in the Activity.
        assert len(fake.messages[lobby].history) > before
        assert check_private([a, b]) > 0
        for p in (a, b):
            await check_client(stack, p)
            await p.page.context.close()

        # -- Briscola, 4 seats: 2 humans and 2 computers -----------------------------------
        record = await fake.slash(alice, "briscola", players=4, computers=2, level="easy")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        assert record.original is not None
        lobby = record.original.id
        table_id = int(stack.launch_id(record.original).split(":")[1])
        for who in (bob, alice):
            await launch(stack, who, lobby)
        a = await open_client(
            browser, stack.parent_url(alice, instance="i-2"), name="alice", user=alice, fake=fake
        )
        b = await open_client(
            browser, stack.parent_url(bob, instance="i-2"), name="bob", user=bob, fake=fake
        )
        for p in (a, b):
            frame = await first_state(p)
            assert frame["table"] == table_id
        await start_from_page(a, [a, b])
        moves = await play_out([a, b])
        assert moves >= 20  # 40 cards, 10 tricks of 4: each human plays 10 cards
        export = await stack.service.export_game(table_id)
        assert export["status"] == "finished" and export["result"] is not None
        assert check_private([a, b]) > 0
        for p in (a, b):
            await check_client(stack, p)
        assert fake.violations == []


async def test_a_refused_code_gets_no_table(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with activity_stack(db, monkeypatch) as stack, chromium() as browser:
        fake = stack.fake
        alice, eve = fake.add_user("alice"), fake.add_user("eve")
        record = await fake.slash(alice, "scopa")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        forged = await open_client(
            browser, stack.parent_url(eve, code="forged-code"), name="eve", user=eve, fake=fake
        )

        async def notice() -> bool:
            shown = forged.activity.locator("#notice")
            return bool(await shown.count()) and await shown.is_visible()

        await wait_for(notice, what="the sign-in refused")
        assert forged.frames == []  # no WebSocket, no state
        assert "invalid_grant" in fake.oauth.refused
        assert await forged.page.evaluate("window.authenticated") is None
        log = [cmd for _, cmd in await forged.page.evaluate("window.discordLog")]
        assert "AUTHORIZE" in log and "AUTHENTICATE" not in log  # the server said no
        # From the page itself: a forged code, and the WebSocket with a forged token.
        answers = await forged.activity.evaluate(
            """async () => {
              const r = await fetch("/api/auth/discord", {method: "POST",
                headers: {"Content-Type": "application/json"},
                body: JSON.stringify({code: "made-up", channel_id: "1", guild_id: "2"})});
              const ws = await new Promise((resolve) => {
                const s = new WebSocket(`ws://${location.host}/ws?token=eyJwIjoiZGlzY29yZCJ9.AAAA`);
                s.onopen = () => resolve("open");
                s.onerror = () => resolve("refused");
              });
              return [r.status, await r.json(), ws];
            }"""
        )
        assert answers == [401, {"error": "unauthorized"}, "refused"]
        # An outsider with a real code: refused the same way.
        fake.oauth.outsiders.add(eve.id)
        outsider = await open_client(
            browser, stack.parent_url(eve), name="eve2", user=eve, fake=fake
        )
        await wait_for(
            lambda: outsider.activity.locator("#notice").is_visible(), what="outsider refused"
        )
        assert outsider.frames == []


async def test_no_other_site_may_frame_the_activity(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another site playing the Discord client gets nothing: the page's CSP frame-ancestors
    names Discord's clients only, so the browser does not even load it there."""
    async with activity_stack(db, monkeypatch) as stack, chromium() as browser:
        fake = stack.fake
        alice = fake.add_user("alice")
        record = await fake.slash(alice, "scopa")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        evil = "https://evil.example"
        other = await open_client(
            browser,
            stack.parent_url(alice, client=evil),
            name="evil",
            user=alice,
            fake=fake,
            client=evil,
        )
        # The browser refuses the frame (its error page stands in the iframe).
        await wait_for(
            lambda: any(f.url.startswith("chrome-error:") for f in other.page.frames),
            what="the frame refused",
        )
        assert not any("/app/" in f.url for f in other.page.frames)
        assert other.frames == []
        assert await other.page.evaluate("window.discordLog") == []
        assert fake.oauth.exchanged == []


async def test_a_client_page_on_this_machine_may_frame_the_activity(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A developer's (or a test's) client page on the loopback, another origin than the web
    table's, frames it and signs in as Discord's would."""
    async with activity_stack(db, monkeypatch) as stack, chromium() as browser:
        fake = stack.fake
        alice = fake.add_user("alice")
        record = await fake.slash(alice, "scopa")
        await record.wait_for(lambda r: r.original is not None and bool(r.original.components))
        local = "http://localhost:9"
        player = await open_client(
            browser,
            stack.parent_url(alice, client=local),
            name="alice",
            user=alice,
            fake=fake,
            client=local,
        )
        frame = await first_state(player)
        assert frame["state"]["you"] == 0
        await check_client(stack, player)
