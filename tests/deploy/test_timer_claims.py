"""Timer claims (``Store.claim_due``): on SQLite and PostgreSQL, each due timer is claimed by one
caller only, even when callers on separate connections claim at the same moment; a claim is a
lease that runs out if its process dies; a move after the claim voids it."""

from __future__ import annotations

import asyncio

from bot.store import Store, TableUpdate
from tests.store.conftest import db_url as db_url
from tests.store.test_store import table_values

TABLES = 30


async def _playing_tables(store: Store, count: int, *, deadline: float) -> list[int]:
    ids = []
    for i in range(count):
        table_id = await store.insert_table(
            table_values(chat_id=f"c{i}", status="playing"), [("telegram", f"u{i}")]
        )
        await store.save(
            TableUpdate(
                table_id=table_id,
                expected_version=1,
                values={"deadline": deadline + i / 1000, "deadline_kind": "remind"},
            )
        )
        ids.append(table_id)
    return ids


async def test_concurrent_claims_are_disjoint_and_leased(db_url: str) -> None:
    stores = [Store.open(db_url) for _ in range(3)]  # three "processes", three pools
    try:
        await stores[0].upgrade()
        ids = await _playing_tables(stores[0], TABLES, deadline=100.0)
        claims = await asyncio.gather(
            *(s.claim_due(200.0, lease=60.0, limit=TABLES // 2) for s in stores)
        )
        claimed = [c.table_id for batch in claims for c in batch]
        # No timer claimed twice.
        assert len(claimed) == len(set(claimed)) and set(claimed) <= set(ids)
        if not db_url.startswith("sqlite"):
            # SKIP LOCKED: a caller passes over the rows another one holds and takes the
            # next ones, so together they took every due timer at once.
            assert sorted(claimed) == sorted(ids)
        else:
            # SQLite: the losers of a compare-and-set take nothing this round; the next
            # rounds take the rest.
            for _ in range(TABLES):
                more = await stores[0].claim_due(200.0, lease=60.0, limit=TABLES // 2)
                if not more:
                    break
                claimed += [c.table_id for c in more]
            assert sorted(claimed) == sorted(ids)
        assert all(c.version == 2 and c.kind == "remind" for b in claims for c in b)
        assert all(c.deadline < 101.0 for b in claims for c in b)  # the deadline that was due
        # Leased: not due again until the lease runs out, then due again (a dead process).
        assert await stores[0].claim_due(259.0, lease=60.0) == []
        again = await stores[1].claim_due(260.5, lease=60.0)
        assert sorted(c.table_id for c in again) == sorted(ids)
        # The claim kept the version: the player's buttons stay valid, the reminder's
        # compare-and-set still works.
        first = again[0]
        assert await stores[2].move_deadline(
            first.table_id,
            version=first.version,
            kind="remind",
            deadline=500.0,
            new_kind="autoplay",
        )
    finally:
        for store in stores:
            await store.close()


async def test_finished_and_future_timers_are_not_claimed(db_url: str) -> None:
    store = Store.open(db_url)
    try:
        await store.upgrade()
        (due,) = await _playing_tables(store, 1, deadline=10.0)
        (later,) = await _playing_tables(store, 1, deadline=1000.0)
        (done,) = await _playing_tables(store, 1, deadline=10.0)
        await store.save(
            TableUpdate(table_id=done, expected_version=2, values={"status": "finished"})
        )
        assert [c.table_id for c in await store.claim_due(50.0, lease=5.0)] == [due]
        assert later not in [c.table_id for c in await store.claim_due(999.0, lease=5.0)]
    finally:
        await store.close()
