"""``tavolo import`` (issue 9): a game exported from one database and imported into another
counts there exactly as it did at home (results, per-chat and global leaderboards, ratings),
once; an ongoing game resumes; a corrupt or edited file is refused and nothing is written.

The source database is always SQLite; the target is SQLite and, with ``TAVOLO_TEST_PG_URL``
set, PostgreSQL (``db_url`` of tests/store: with ``CI`` set a missing PostgreSQL fails).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from bot.__main__ import replay_export
from bot.service import (
    ChatRef,
    ComputerPlayers,
    HandView,
    TableService,
    TimerSettings,
    UserRef,
    default_registry,
)
from bot.service.archive import GameFileError, digest, replay
from bot.store import Store, schema
from tests.deploy.conftest import ROOT
from tests.store import conftest as store_fixtures

db_url = store_fixtures.db_url

CHAT = ChatRef("telegram", "-1001")
OTHER_CHAT = ChatRef("telegram", "-1002")
ANNA = UserRef("telegram", "1", "Anna", "it")
BRUNO = UserRef("telegram", "2", "Bruno", "en")
CARLA = UserRef("telegram", "3", "Carla", "it")
BOARDS = [(scope, family) for scope in ("global", "telegram:-1001") for family in ("scopa",)]


class Services:
    """Services over named databases, closed at the end of the test."""

    def __init__(self) -> None:
        self.stores: list[Store] = []
        self.seeds = iter(range(101, 1_000_000))

    async def open(self, url: str, *, timers: bool = False) -> TableService:
        store = Store.open(url)
        await store.upgrade()
        self.stores.append(store)
        return TableService(
            store,
            registry=default_registry(),
            computers=ComputerPlayers(),
            timers=TimerSettings(reminder=60 if timers else 0),
            seeds=lambda: next(self.seeds),
        )


@pytest.fixture
async def services() -> AsyncIterator[Services]:
    opened = Services()
    yield opened
    for store in opened.stores:
        await store.close()


async def new_game(
    service: TableService,
    chat: ChatRef,
    people: list[UserRef],
    game: str,
    *,
    players: int,
    options: dict[str, Any],
) -> int:
    created = await service.create_table(chat, people[0], game, players=players, options=options)
    assert created.ok and created.table is not None, created.refusal
    for person in people[1:]:
        assert (await service.join(chat, person)).ok
    started = await service.start(chat, people[0], fill_with="easy")
    assert started.ok, started.refusal
    return created.table.id


async def drive(
    service: TableService,
    chat: ChatRef,
    table_id: int,
    people: list[UserRef],
    rng: random.Random,
    *,
    max_moves: int = 5000,
) -> str:
    """Humans play random legal moves (computers answer inside the calls) until the game ends
    or ``max_moves`` human moves are made; the table's status then."""
    by_id = {p.user_id: p for p in people}
    for _ in range(max_moves):
        info = (await service.show(chat, people[0], table_id)).table
        assert info is not None
        if info.status != "playing":
            return info.status
        seat = info.seats[info.current_seat]  # type: ignore[index]
        assert seat is not None
        user = by_id[seat.user_id]
        shown = await service.show(chat, user, table_id)
        hand = next(e for e in shown.events if isinstance(e, HandView))
        move = rng.choice(hand.view.legal_moves)
        played = await service.play(chat, user, table_id, version=info.version, move=move)
        assert played.ok, played.refusal
    info = (await service.show(chat, people[0], table_id)).table
    assert info is not None
    return info.status


async def counts(store: Store) -> dict[str, int]:
    """Rows per table of the schema: "nothing written" is these staying equal."""
    out = {}
    async with store.engine.connect() as conn:
        for table in schema.metadata.sorted_tables:
            query = sa.select(sa.func.count()).select_from(table)
            out[table.name] = int((await conn.execute(query)).scalar_one())
    return out


async def boards(store: Store) -> dict[tuple[str, str], list[Any]]:
    return {
        (scope, family): await store.leaderboard(scope=scope, family=family, limit=100)
        for scope, family in BOARDS
    }


async def histories(store: Store) -> dict[str, list[tuple[float, float]]]:
    return {
        p.user_id: await store.rating_history(
            platform=p.platform, user_id=p.user_id, family="scopa"
        )
        for p in (ANNA, BRUNO, CARLA)
    }


@pytest.fixture
def source_url(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite+aiosqlite:///{tmp_path / 'source.sqlite3'}"


async def finished_games(service: TableService) -> list[int]:
    """Three finished games in one chat: 1v1, a three-way game, a pair game with computers
    (so new players, repeat players, computer anchors and a FIGS multiplier all occur)."""
    rng = random.Random(11)
    plans: list[tuple[list[UserRef], str, int, dict[str, Any]]] = [
        ([ANNA, BRUNO], "scopa", 2, {"target": 1}),
        ([ANNA, BRUNO, CARLA], "scopa", 3, {"target": 1}),
        ([BRUNO, CARLA], "scopone", 4, {"target": 1}),
    ]
    ids = []
    for people, game, players, options in plans:
        table_id = await new_game(service, CHAT, people, game, players=players, options=options)
        assert await drive(service, CHAT, table_id, people, rng) == "finished"
        ids.append(table_id)
    return ids


async def test_imported_games_count_as_at_home(
    services: Services, source_url: str, db_url: str
) -> None:
    source = await services.open(source_url)
    ids = await finished_games(source)
    documents = [await source.export_game(i) for i in ids]
    # The target already has a table of its own: imported ids cannot be the file's.
    target = await services.open(db_url)
    native = await new_game(target, OTHER_CHAT, [CARLA], "scopa", players=2, options={})
    before_native = await target.export_game(native)
    imported = []
    for doc in documents:
        # Through a JSON text, as the CLI reads it.
        done = await target.import_game(json.loads(json.dumps(doc, indent=2)))
        assert done.created and done.status == "finished"
        imported.append(done.table_id)
    assert native not in imported and len(set(imported)) == 3
    assert await boards(target.store) == await boards(source.store)
    assert await histories(target.store) == await histories(source.store)
    for source_id, target_id in zip(ids, imported, strict=True):
        home, here = await source.store.result(source_id), await target.store.result(target_id)
        assert home is not None and here is not None
        assert {**home, "table_id": 0} == {**here, "table_id": 0}
        moved = await target.export_game(target_id)
        # The same game: same origin, players, chat, moves; only the table id differs.
        for key in ("origin", "platform", "chat_id", "seats", "seed", "moves", "created_at"):
            assert moved[key] == documents[ids.index(source_id)][key], key
    assert await target.export_game(native) == before_native

    # A second import of any of them, and an import back into the source database, write
    # nothing and say where the game is.
    written = await counts(target.store)
    for doc, target_id in zip(documents, imported, strict=True):
        again = await target.import_game(doc)
        assert not again.created and again.table_id == target_id
    assert await counts(target.store) == written
    home_rows = await counts(source.store)
    for doc, source_id in zip(documents, ids, strict=True):
        back = await source.import_game(await target.export_game(imported[ids.index(source_id)]))
        assert not back.created and back.table_id == source_id
        assert not (await source.import_game(doc)).created
    assert await counts(source.store) == home_rows


async def test_an_ongoing_game_resumes_after_import(
    services: Services, source_url: str, db_url: str
) -> None:
    source = await services.open(source_url)
    table_id = await new_game(source, CHAT, [ANNA, BRUNO], "scopa", players=2, options={})
    status = await drive(source, CHAT, table_id, [ANNA, BRUNO], random.Random(3), max_moves=7)
    assert status == "playing"
    doc = await source.export_game(table_id)
    assert doc["status"] == "playing" and len(doc["moves"]) == 7

    target = await services.open(db_url, timers=True)
    # The chat's one open table is taken: an ongoing game does not squeeze in, nothing written.
    blocker = await new_game(target, CHAT, [CARLA], "scopa", players=2, options={})
    written = await counts(target.store)
    with pytest.raises(GameFileError, match="limit of open tables"):
        await target.import_game(doc)
    assert await counts(target.store) == written
    abandoned = await target.abandon(CHAT, CARLA, blocker)
    assert abandoned.ok, abandoned.refusal

    done = await target.import_game(doc)
    assert done.created and done.status == "playing" and done.table_id != blocker
    row = await target.store.load_table(done.table_id)
    assert row is not None and row.deadline_kind == "remind"  # the player to move is timed
    assert [t.id for t in await target.tables_of(ANNA)] == [done.table_id]
    assert await drive(target, CHAT, done.table_id, [ANNA, BRUNO], random.Random(4)) == "finished"
    for person in (ANNA, BRUNO):
        rows = await target.store.player_ratings(platform=person.platform, user_id=person.user_id)
        # All time (and, with "@", the season the game finished in: bot.service.seasons).
        assert {(r.scope, r.games) for r in rows if "@" not in r.scope} == {
            ("global", 1),
            ("telegram:-1001", 1),
        }
        assert len([r for r in rows if "@" in r.scope]) == 2
    # The file is a prefix of the game now stored: importing it again is a no-op.
    written = await counts(target.store)
    assert not (await target.import_game(doc)).created
    # The game went on differently at home: that later file is refused, not merged.
    await drive(source, CHAT, table_id, [ANNA, BRUNO], random.Random(9), max_moves=3)
    with pytest.raises(GameFileError, match="another move log"):
        await target.import_game(await source.export_game(table_id))
    assert await counts(target.store) == written


async def test_chat_option_moves_the_game(
    services: Services, source_url: str, tmp_path: Path
) -> None:
    source = await services.open(source_url)
    [table_id, *_] = await finished_games(source)
    doc = await source.export_game(table_id)
    target = await services.open(f"sqlite+aiosqlite:///{tmp_path / 'target.sqlite3'}")
    done = await target.import_game(doc, chat_id=OTHER_CHAT.chat_id)
    assert done.created
    here = await target.store.leaderboard(scope="telegram:-1002", family="scopa")
    assert {r.user_id for r in here} == {"1", "2"}
    assert await target.store.leaderboard(scope="telegram:-1001", family="scopa") == []
    # Moved or not, it is the same game: not imported twice.
    assert not (await target.import_game(doc)).created
    with pytest.raises(GameFileError, match="chat id"):
        await target.import_game(doc, chat_id="x" * 65)


def _resealed(doc: dict[str, Any]) -> dict[str, Any]:
    doc["digest"] = digest(doc)
    return doc


def _edit(name: str, doc: dict[str, Any]) -> dict[str, Any]:
    """One way to corrupt a finished game's document (the cases below)."""
    if name == "no format":
        del doc["format"]
    elif name == "schema 2":
        doc["schema"] = 2
        return _resealed(doc)
    elif name == "edited, digest kept":
        doc["seed"] += 1
    elif name == "other seed":
        doc["seed"] += 1
        return _resealed(doc)
    elif name == "other rules":
        doc["options"]["target"] = 11
        return _resealed(doc)
    elif name == "illegal move":
        doc["moves"][2]["move"] = "7D:1C+2C+3C+4C"
        return _resealed(doc)
    elif name == "wrong seat":
        doc["moves"][0]["seat"] = 1 - doc["moves"][0]["seat"]
        return _resealed(doc)
    elif name == "swapped result":
        doc["result"]["data"]["ranks"].reverse()
        return _resealed(doc)
    elif name == "status":
        doc["status"] = "playing"
        return _resealed(doc)
    elif name == "missing seats":
        del doc["seats"]
        return _resealed(doc)
    elif name == "long user id":
        doc["seats"][0]["user_id"] = "9" * 65
        return _resealed(doc)
    elif name == "lobby":
        doc["status"] = "lobby"
        return _resealed(doc)
    return doc


EDITS = {
    "no format": "no format/schema",
    "schema 2": "unsupported schema 2",
    "edited, digest kept": "digest does not match",
    "other seed": "move|result|over",
    "other rules": "move|result|over",
    "illegal move": "move 3",
    "wrong seat": "move 1 .* is by seat",
    "swapped result": "stored result differs",
    "status": "replayed game is over",
    "missing seats": "missing field 'seats'",
    "long user id": "user_id must be",
    "lobby": "never dealt",
}


async def test_a_corrupt_or_edited_file_is_refused_and_nothing_written(
    services: Services, source_url: str, db_url: str
) -> None:
    source = await services.open(source_url)
    [table_id, *_] = await finished_games(source)
    doc = await source.export_game(table_id)
    target = await services.open(db_url)
    written = await counts(target.store)
    for name, message in EDITS.items():
        with pytest.raises(GameFileError, match=message) as refused:
            await target.import_game(_edit(name, copy.deepcopy(doc)))
        assert "\n" not in str(refused.value), name
        assert await counts(target.store) == written, name
    assert (await target.import_game(doc)).created  # the genuine file still goes in


def _env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_TOKEN")}
    env.update({"DATABASE_URL": database_url, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING"})
    return env


def tavolo(
    *args: str, database_url: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=_env(database_url),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def tavolo_start(*args: str, database_url: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        env=_env(database_url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
async def test_the_cli(services: Services, source_url: str, db_url: str, tmp_path: Path) -> None:
    source = await services.open(source_url)
    [table_id, *_] = await finished_games(source)
    exported = tavolo("export-game", str(table_id), database_url=source_url)
    assert exported.returncode == 0, exported.stderr
    good = tmp_path / "game.json"
    good.write_text(exported.stdout)

    first = tavolo("import", str(good), database_url=db_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "imported as table 1 (finished, 2 player rating(s) updated)"
    second = tavolo("import", "-", database_url=db_url, stdin=exported.stdout)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "already imported as table 1: nothing written"

    target = await services.open(db_url)
    written = await counts(target.store)
    # Two players, four scopes each: global and the chat, all time and this season.
    assert written["results"] == 1 and written["rating_changes"] == 8
    edited = json.loads(exported.stdout)
    edited["moves"][0]["move"] = "1C"
    bad = {"edited.json": json.dumps(_resealed(edited)), "junk.json": '{"moves": ['}
    for name, text in bad.items():
        (tmp_path / name).write_text(text)
    # The refusals run side by side: each is a whole interpreter start on a busy machine.
    refusals = [
        tavolo_start("import", str(tmp_path / name), database_url=db_url)
        for name in (*bad, "missing.json")
    ]
    for process in refusals:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 1, (process.args, out)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tavolo: cannot import"), err
    assert await counts(target.store) == written

    helped = tavolo("import", "--help", database_url=db_url)
    assert helped.returncode == 0 and "--chat CHAT_ID" in helped.stdout
    # tavolo replay reads the same document and now compares the stored result for real.
    assert replay_export(json.loads(exported.stdout))["matches_record"] is True
    swapped = json.loads(exported.stdout)
    swapped["result"]["data"]["ranks"].reverse()
    assert replay_export(swapped)["matches_record"] is False


async def test_two_imports_at_once_store_the_game_once(
    services: Services, source_url: str, db_url: str
) -> None:
    """Two processes importing one file together: the unique origin lets exactly one in."""
    source = await services.open(source_url)
    [table_id, *_] = await finished_games(source)
    doc = await source.export_game(table_id)
    first, second = await services.open(db_url), await services.open(db_url)
    done = await asyncio.gather(first.import_game(doc), second.import_game(doc))
    assert sorted(d.created for d in done) == [False, True]
    assert done[0].table_id == done[1].table_id
    written = await counts(first.store)
    assert (written["tables"], written["results"], written["rating_changes"]) == (1, 1, 8)


async def test_a_computer_to_move_plays_from_the_timer_loop_and_abandoned_stays_closed(
    services: Services, source_url: str, db_url: str
) -> None:
    source = await services.open(source_url)
    table_id = await new_game(source, CHAT, [ANNA, BRUNO], "scopa", players=2, options={})
    status = await drive(source, CHAT, table_id, [ANNA, BRUNO], random.Random(5), max_moves=3)
    assert status == "playing"
    doc = await source.export_game(table_id)
    # The seat to move was taken over by the computer (its player timed out) at home.
    to_move = replay(doc, default_registry()).game.current_player
    doc["seats"][to_move] = dict(doc["seats"][to_move], away=True, level="easy")
    target = await services.open(db_url)  # turn timers off: the computer still plays
    done = await target.import_game(_resealed(doc))
    row = await target.store.load_table(done.table_id)
    assert row is not None and row.deadline_kind == "computer"
    assert row.deadline is not None and row.deadline <= target.clock()
    fired = await target.fire_due_timers()
    assert [r.table.id for r in fired if r.table is not None] == [done.table_id]
    moves = await target.store.moves(done.table_id)
    assert len(moves) == len(doc["moves"]) + 1 and moves[-1].seat == to_move
    assert moves[-1].actor == "computer"

    # An abandoned game goes in closed: no result, no ratings, no place among open tables.
    other = await new_game(source, OTHER_CHAT, [CARLA], "scopa", players=2, options={})
    status = await drive(source, OTHER_CHAT, other, [CARLA], random.Random(6), max_moves=2)
    assert status == "playing"
    assert (await source.abandon(OTHER_CHAT, CARLA, other)).ok
    closed = await target.import_game(await source.export_game(other))
    assert closed.created and closed.status == "abandoned"
    assert await target.store.result(closed.table_id) is None
    assert await target.store.player_ratings(platform="telegram", user_id=CARLA.user_id) == []
    assert await target.open_tables(OTHER_CHAT) == []

    # A human of another platform at this table's seats is refused.
    foreign = await source.export_game(table_id)
    foreign["seats"][0] = dict(foreign["seats"][0], platform="discord")
    with pytest.raises(GameFileError, match="discord user at a telegram table"):
        await target.import_game(_resealed(foreign))
