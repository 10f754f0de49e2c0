"""Discord's limits hold by construction: custom ids, labels, rows, pages, message length."""

from __future__ import annotations

import random

import pytest

from bot.discord.components import (
    AdapterAction,
    ButtonSpec,
    SelectSpec,
    build_view,
    custom_id_of,
    parse_custom_id,
)
from bot.discord.limits import (
    MAX_CONTENT,
    MAX_CUSTOM_ID,
    MAX_LABEL,
    clip,
    fit_content,
    pages_of,
    rows_of,
    split_text,
)
from bot.domain import Action, Verb


@pytest.mark.parametrize(
    "custom_id",
    [
        "12:3:7D",
        "1:0:7D:3C+4S",
        "99:12:7D:3C+4S!",
        "5:1:@join",
        "5:2:?hand",
        "s5:2:?pick",
        "7:4:o 7D8D9D KCKSKD",
        "7:4:~p2",
        "0:0:~cfg:timer=30",
    ],
)
def test_custom_ids_round_trip(custom_id: str) -> None:
    action = parse_custom_id(custom_id)
    assert custom_id_of(action) == custom_id.removeprefix("s")


def test_a_custom_id_reads_as_a_typed_action() -> None:
    assert parse_custom_id("12:3:7D:3C+4S") == Action(12, 3, Verb.MOVE, "7D:3C+4S")
    assert parse_custom_id("5:1:@seat.2") == Action(5, 1, Verb.SEAT, "2")
    assert parse_custom_id("s5:2:?pick") == Action(5, 2, Verb.FOCUS, "pick")
    assert parse_custom_id("7:4:~p2") == AdapterAction(7, 4, "~p2")
    assert AdapterAction(7, 4, "~p2").page == 2 and AdapterAction(7, 4, "~pick").page is None


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "x:1:7D",
        "1:x:7D",
        "1:1:",
        "1:1:7D\n",
        "1:1:" + "A" * 81,
        "1" * 20 + ":1:7D",
        "1:1:è",
        "1:1:@nothing",
        "1:1:@seat.x",
    ],
)
def test_foreign_custom_ids_are_refused(custom_id: str) -> None:
    with pytest.raises(ValueError):
        parse_custom_id(custom_id)


def test_a_custom_id_never_exceeds_100_characters() -> None:
    with pytest.raises(ValueError):
        custom_id_of(Action(10**18, 10**9, Verb.MOVE, "M" * 80))
    assert len(custom_id_of(Action(10**17, 1, Verb.MOVE, "M" * 70))) <= MAX_CUSTOM_ID
    with pytest.raises(ValueError):  # a move read back as the adapter's own action
        custom_id_of(Action(1, 1, Verb.MOVE, "~p2"))


@pytest.mark.parametrize("count", [0, 1, 5, 6, 24, 25, 26, 40, 200])
def test_any_number_of_buttons_fits_five_rows_of_five(count: int) -> None:
    buttons = [ButtonSpec(f"b{i}", f"m{i}") for i in range(count)]
    seen: set[str] = set()
    pages = 1 if count <= 25 else -(-count // 20)
    for page in range(pages):
        view = build_view(table_id=1, version=1, buttons=buttons, page=page)
        rows = view.to_components()
        assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
        ids = [c["custom_id"] for r in rows for c in r["components"]]
        assert len(ids) == len(set(ids)), "custom ids must be unique on a message"
        seen |= {i.split(":", 2)[2] for i in ids if not i.split(":", 2)[2].startswith("~")}
    assert seen == {f"m{i}" for i in range(count)}


def test_selects_take_a_row_each_and_buttons_page_around_them() -> None:
    options = tuple((f"c{i}", f"c{i}") for i in range(25))
    view = build_view(
        table_id=1,
        version=1,
        selects=[SelectSpec("?pick", options, None, 1, 25)],
        buttons=[ButtonSpec(str(i), f"m{i}") for i in range(30)],
    )
    rows = view.to_components()
    assert len(rows) == 5 and rows[0]["components"][0]["type"] == 3
    assert all(len(r["components"]) <= 5 for r in rows)
    with pytest.raises(ValueError):
        SelectSpec("?pick", (*options, ("x", "x")))


def test_labels_are_clipped() -> None:
    view = build_view(table_id=1, version=1, buttons=[ButtonSpec("L" * 200, "m")])
    label = view.to_components()[0]["components"][0]["label"]
    assert len(label) == MAX_LABEL and label.endswith("…")
    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…"


def test_split_text_keeps_every_character_and_the_limit() -> None:
    rng = random.Random(6)
    for _ in range(200):
        lines = ["x" * rng.randrange(0, 2500) for _ in range(rng.randrange(1, 8))]
        text = "\n".join(lines)
        parts = split_text(text)
        assert all(len(p) <= MAX_CONTENT for p in parts)
        assert "".join(parts).replace("\n", "") == text.replace("\n", "")
    assert split_text("") == [""]
    assert len(fit_content("y" * 5000)) == MAX_CONTENT


def test_rows_and_pages() -> None:
    assert rows_of([1, 2, 3, 4, 5, 6]) == [[1, 2, 3, 4, 5], [6]]
    with pytest.raises(ValueError):
        rows_of(list(range(26)))
    assert pages_of([], size=3) == [[]]
    assert pages_of([1, 2, 3, 4], size=3) == [[1, 2, 3], [4]]
