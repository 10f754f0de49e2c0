"""The one mapping of service events to picture scenes (``bot.render.pictures``), both adapters'.

Seeded playouts check the invariants: every seat drawn with its hand's card count and whose turn
it is, the public scene holds no card of any hand, every move changes the picture; a hand scene
is the hand in the engine's order; the deck style follows the chat's (or user's) choice where the
style can draw the game's deck.
"""

from __future__ import annotations

import random

import pytest

from bot.render import SELECT, Renderer, move_cards, plain_card, selection_of
from bot.render.images import ImageRenderer
from bot.render.pictures import STYLE, Pictures, deck_of, hand_scene, table_scene
from bot.service import Audience, BoardRow, HandView, SeatInfo, Stats, TableInfo, TableView
from bot.store.adapter_state import MemoryState
from engine import scala40, scopa


def info(family: str, game: str, players: int, version: int = 1) -> TableInfo:
    seats = tuple(
        SeatInfo(i, f"P{i}", "telegram", str(100 + i), False, None, False) for i in range(players)
    )
    return TableInfo(
        id=42,
        platform="telegram",
        chat_id="-100777",
        game=game,
        family=family,
        status="playing",
        version=version,
        players=players,
        options={},
        seats=seats,
        creator="100",
    )


CHAT = Audience("chat", "telegram", "-100777")


@pytest.fixture(scope="module")
def images() -> ImageRenderer:
    return ImageRenderer(table_card_width=40, hand_card_width=40, hand_max_width=400)


@pytest.mark.parametrize(("variant", "players", "seed"), [("scopa", 2, 3), ("scopone", 4, 4)])
def test_scopa_playout_scenes(images: ImageRenderer, variant: str, players: int, seed: int) -> None:
    renderer = Renderer()
    rng = random.Random(seed)
    game = scopa.new_game(scopa.Rules(variant=variant, players=players), seed=seed)
    digests: set[str] = set()
    for version in range(30):  # bounded
        if game.is_over:
            break
        table = info("scopa", variant, players, version)
        public = game.view(None)
        event = TableView(audience=CHAT, locale="en", table=table, view=public)
        scene = table_scene(renderer, event)
        assert scene is not None
        assert [s.cards for s in scene.seats] == list(public.hand_counts)
        assert [s.to_move for s in scene.seats] == [
            seat == public.current_player for seat in range(players)
        ]
        assert scene.table == public.table and scene.stock == public.deck_count
        in_hands = {c for seat in range(players) for c in game.view(seat).hand}
        assert not in_hands & set(scene.cards()), "a hand card in the public picture"
        digests.add(images.table_digest(scene, style="napoletane"))
        seat = game.current_player
        assert seat is not None
        hand = HandView(
            audience=Audience("user", "telegram", str(100 + seat)),
            locale="it",
            table=table,
            seat=seat,
            view=game.view(seat),
        )
        hand_picture = hand_scene(renderer, hand)
        assert hand_picture is not None and hand_picture.cards == game.view(seat).hand
        game = game.play(rng.choice(game.legal_moves()))
    assert len(digests) >= 25, "every move changes the table's picture"


def test_scala40_playout_scenes() -> None:
    renderer = Renderer()
    rng = random.Random(5)
    game = scala40.new_game(scala40.Rules(players=3), seed=5)
    melds = 0
    for version in range(300):  # bounded
        if game.is_over:
            break
        public = game.view(None)
        event = TableView(
            audience=CHAT, locale="it", table=info("scala40", "scala40", 3, version), view=public
        )
        scene = table_scene(renderer, event)
        assert scene is not None
        assert len(scene.melds) == len(public.melds) and scene.pile_top == public.pile_top
        assert all(m.owner.startswith("P") for m in scene.melds)
        assert [s.cards for s in scene.seats] == list(public.hand_counts)
        melds = max(melds, len(scene.melds))
        game = game.play(rng.choice(game.legal_moves()))
    assert melds > 0


async def test_styles_follow_the_choice_where_they_can(images: ImageRenderer) -> None:
    state = MemoryState()
    pictures = Pictures(Renderer(), images, state=state)
    await pictures.set_style("piacentine", platform="telegram", owner="-100777")
    await pictures.set_style("francesi4", platform="telegram", owner="100")
    italian, french = info("scopa", "scopa", 2), info("scala40", "scala40", 2)
    assert deck_of(italian) == "italian" and deck_of(french) == "french"
    assert await pictures.style_for(italian, "-100777") == "piacentine"
    # piacentine cannot draw the 54-card French deck: Scala 40 falls back to francesi
    assert await pictures.style_for(french, "-100777") == "francesi"
    # a user's own choice first, then the chat's
    assert await pictures.style_for(italian, "100", "-100777") == "francesi4"
    assert await pictures.style_for(italian, "101", "-100777") == "piacentine"
    # a name stored by an older version that is no style now is ignored
    await state.state_put("no-such-style", platform="telegram", kind=STYLE, scope="-100777")
    assert await pictures.style_for(italian, "-100777") == "napoletane"
    await pictures.set_style("default", platform="telegram", owner="100")
    assert await pictures.preferred("telegram", "100") is None
    with pytest.raises(ValueError, match="piacentine"):
        await pictures.set_style("toscane", platform="telegram", owner="100")
    # labels in both languages
    assert pictures.style_label("piacentine", "it") == "Carte piacentine"
    assert pictures.style_label(None, "en").startswith("Default")

    class Broken(MemoryState):
        async def state_get(self, **key: object) -> object:  # type: ignore[override]
            raise RuntimeError("database away")

    broken = Pictures(Renderer(), images, state=Broken())
    assert await broken.style_for(italian, "x") == "napoletane"


async def test_pictures_off_draws_nothing(images: ImageRenderer) -> None:
    game = scopa.new_game(scopa.Rules(variant="scopa", players=2), seed=1)
    event = TableView(
        audience=CHAT, locale="it", table=info("scopa", "scopa", 2), view=game.view(None)
    )
    assert await Pictures(Renderer(), images, enabled=False).table(event) is None
    drawn = await Pictures(Renderer(), images).table(event)
    assert drawn is not None and drawn.data.startswith(b"\x89PNG")


@pytest.mark.parametrize("seed", [3, 8])
def test_scala40_selection_keyboard_offers_every_selected_move(seed: int) -> None:
    """Selecting exactly a legal meld's, attach's, swap's or discard's cards offers that move;
    the keyboard stays within 5 rows of 5 and every button within 64 bytes."""
    renderer = Renderer()
    rng = random.Random(seed)
    game = scala40.new_game(scala40.Rules(players=2), seed=seed)
    table = info("scala40", "scala40", 2)
    offered = 0
    for _ in range(120):  # bounded
        if game.is_over:
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        hand = [plain_card(c) for c in view.hand]
        audience = Audience("user", "telegram", str(100 + seat))
        for move in view.legal_moves:
            if move.split()[0][:1] not in "masd" or len(move.split()) < 2:
                continue
            used: set[int] = set()
            for card in move_cards(move):
                used.add(next(i for i, h in enumerate(hand) if h == card and i not in used))
            focus = SELECT + format(sum(1 << i for i in used), "x")
            event = HandView(
                audience=audience, locale="en", table=table, seat=seat, view=view, focus=focus
            )
            message = renderer.render(event)
            actions = [b.data.split(":", 2)[2] for row in message.buttons for b in row]
            assert move in actions
            assert len(message.buttons) <= 5 and all(len(r) <= 5 for r in message.buttons)
            assert all(len(b.data.encode()) <= 64 for row in message.buttons for b in row)
            assert selection_of(focus, len(hand)) == frozenset(used)
            offered += 1
        game = game.play(rng.choice(game.legal_moves()))
    assert offered > 20
    # untrusted focus: garbage selects nothing
    assert selection_of("#zz", 5) == frozenset() and selection_of("#" + "f" * 40, 5) == frozenset()
    assert selection_of("#ff", 3) == frozenset({0, 1, 2})


async def test_stats_picture_is_the_rating_over_time(images: ImageRenderer) -> None:
    asked: list[dict[str, object]] = []

    async def history(**who: object) -> list[tuple[float, float]]:
        asked.append(who)
        return [(1_700_000_000.0 + 86_400 * i, 10.0 + i) for i in range(5)]

    row = BoardRow(
        rank=1,
        name="Anna",
        platform="telegram",
        user_id="7",
        rating=14.0,
        games=5,
        wins=3,
        win_points=3,
    )
    event = Stats(
        audience=Audience("user", "telegram", "7"),
        locale="it",
        name="Anna",
        rows=(("scala40", "chat", row), ("scopa", "global", row)),
    )
    chart = await Pictures(Renderer(), images, history=history).stats(event)
    assert chart is not None and chart.data.startswith(b"\x89PNG")
    # the global row's family, for the row's player
    assert asked == [{"platform": "telegram", "user_id": "7", "family": "scopa"}]

    async def one_game(**who: object) -> list[tuple[float, float]]:
        return [(1_700_000_000.0, 3.0)]

    assert await Pictures(Renderer(), images, history=one_game).stats(event) is None
    assert await Pictures(Renderer(), images, history=history, enabled=False).stats(event) is None
    assert await Pictures(Renderer(), images).stats(event) is None  # no history at hand
