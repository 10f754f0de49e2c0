"""Per-chat settings through the service, on the real stores: the turn timer of one chat,
after a restart too; admins only; default options per game and the command's options over
them; /rules says where each value comes from; the chat's language for public messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

import pytest

from bot.render.images import style_names
from bot.service import (
    Announcement,
    ChatRef,
    ComputerPlayers,
    HandView,
    SettingsView,
    TableService,
    UserRef,
    default_registry,
)
from bot.service.settings import GAME_OPTIONS, RESET, STYLE_CHOICES, encode_value
from engine.scala40 import rules as scala40_rules
from engine.scopa import rules as scopa_rules
from tests.service.conftest import Clock

CHAT_A = ChatRef("telegram", "-100")
CHAT_B = ChatRef("telegram", "-200")
ADMIN = UserRef("telegram", "1", "Ada", "it")
OTHER = UserRef("telegram", "2", "Bea", "en")


async def real_service(make_service: Callable[..., Any]) -> TableService:
    service: TableService = await make_service(
        registry=default_registry(), computers=ComputerPlayers()
    )
    return service


async def started(service: TableService, chat: ChatRef, user: UserRef) -> int:
    created = await service.create_table(chat, user, "scopa")
    assert created.ok and created.table is not None, created.refusal
    dealt = await service.start(chat, user, created.table.id, fill_with="easy")
    assert dealt.ok, dealt.refusal
    return created.table.id


async def deadline_of(service: TableService, table_id: int) -> tuple[float | None, str | None]:
    row = await service.store.load_table(table_id)
    assert row is not None
    return row.deadline, row.deadline_kind


async def test_timer_of_one_chat_only_and_after_a_restart(
    make_service: Callable[..., Any], clock: Clock
) -> None:
    service = await real_service(make_service)
    changed = await service.change_setting(CHAT_A, ADMIN, "timer", "30", is_admin=True)
    assert changed.ok, changed.refusal
    view = changed.events[0]
    assert isinstance(view, SettingsView) and view.settings.timer == 30
    a = await started(service, CHAT_A, ADMIN)
    b = await started(service, CHAT_B, ADMIN)
    # The human moves first or after the computer: either way a human turn has its deadline.
    assert await deadline_of(service, a) == (clock.now + 15, "remind")
    assert await deadline_of(service, b) == (clock.now + 60, "remind")  # the bot's default
    # Chat A's reminder, then the computer plays the idle turn at 30 s (not 120 s).
    clock.now += 15
    fired = await service.fire_due_timers()
    assert [r.table.id for r in fired if r.table] == [a]
    assert await deadline_of(service, a) == (clock.now + 15, "autoplay")

    # A restart: a new service on the same database still gives chat A 30 s turns.
    again = await real_service(make_service)
    assert (await again.chat_settings(CHAT_A)).turn_time == 30
    assert (await again.chat_settings(CHAT_B)).turn_time == 120
    clock.now += 15
    fired = await again.fire_due_timers()
    assert any(isinstance(e, Announcement) and e.kind == "timeout" for r in fired for e in r.events)
    deadline, kind = await deadline_of(again, a)
    assert kind == "remind" and deadline == clock.now + 15
    # A new table in chat A after the restart: 30 s too; chat B keeps the default.
    await again.abandon(CHAT_A, ADMIN, a, is_admin=True)
    a2 = await started(again, CHAT_A, ADMIN)
    assert await deadline_of(again, a2) == (clock.now + 15, "remind")
    b_deadline, _ = await deadline_of(again, b)
    assert b_deadline is not None and b_deadline > clock.now


async def test_timer_off_and_back_to_default(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    assert (await service.change_setting(CHAT_A, ADMIN, "timer", 0, is_admin=True)).ok
    a = await started(service, CHAT_A, ADMIN)
    assert await deadline_of(service, a) == (None, None)
    assert (await service.change_setting(CHAT_A, ADMIN, "timer", RESET, is_admin=True)).ok
    settings = await service.chat_settings(CHAT_A)
    assert settings.timer is None and settings.turn_time == 120


async def test_non_admin_is_refused_and_nothing_changes(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    refused = await service.change_setting(CHAT_A, OTHER, "timer", "30", is_admin=False)
    assert refused.refusal is not None and refused.refusal.code == "not_admin"
    assert refused.refusal.locale == "en"
    assert (await service.chat_settings(CHAT_A)).timer is None


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("timer", "45"),
        ("open", "nobody"),
        ("lang", "fr"),
        ("scopa.target", "12"),
        ("scopa.nonsense", "1"),
        ("chess.target", "11"),
        ("pictures", "maybe"),
        ("style", "x"),
    ],
)
async def test_bad_settings_are_refused(
    make_service: Callable[..., Any], key: str, value: str
) -> None:
    service = await real_service(make_service)
    refused = await service.change_setting(CHAT_A, ADMIN, key, value, is_admin=True)
    assert refused.refusal is not None and refused.refusal.code == "bad_setting"


async def test_defaults_per_game_and_the_command_wins(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    for key, value in (("scopa.target", "16"), ("scopa.napola", "1"), ("scala40.elimination", 201)):
        assert (await service.change_setting(CHAT_A, ADMIN, key, value, is_admin=True)).ok
    settings = await service.chat_settings(CHAT_A)
    assert settings.defaults == {
        "scopa": {"target": 16, "napola": True},
        "scala40": {"elimination": 201},
    }
    plain = await service.create_table(CHAT_A, ADMIN, "scopa")
    assert plain.table is not None
    assert plain.table.options["target"] == 16 and plain.table.options["napola"] is True
    await service.abandon(CHAT_A, ADMIN, plain.table.id)
    given = await service.create_table(CHAT_A, ADMIN, "scopa", options={"target": 21})
    assert given.table is not None
    assert given.table.options["target"] == 21 and given.table.options["napola"] is True
    rules = await service.rules(CHAT_A, ADMIN)
    event = rules.events[0]
    assert isinstance(event, Announcement)
    assert event.data["sources"] == {"target": "command", "napola": "chat"}
    await service.abandon(CHAT_A, ADMIN, given.table.id)
    # Another chat: the game's own defaults.
    other = await service.create_table(CHAT_B, ADMIN, "scopa")
    assert other.table is not None and other.table.options["target"] == 11
    assert (await service.rules(CHAT_B, ADMIN)).events[0].data["sources"] == {}  # type: ignore[attr-defined]
    scala = await service.create_table(CHAT_A, ADMIN, "scala40")
    assert scala.table is not None and scala.table.options["elimination"] == 201
    # Back to the game's default.
    assert (await service.change_setting(CHAT_A, ADMIN, "scopa.target", RESET, is_admin=True)).ok
    assert (await service.chat_settings(CHAT_A)).defaults["scopa"] == {"napola": True}


async def test_a_default_that_cannot_go_with_the_command_is_left_out(
    make_service: Callable[..., Any],
) -> None:
    service = await real_service(make_service)
    assert (await service.change_setting(CHAT_A, ADMIN, "scopone.target", "8", is_admin=True)).ok
    # fuori is played only to 8: the command's target wins, fuori follows it.
    made = await service.create_table(CHAT_A, ADMIN, "scopone", options={"target": 11})
    assert made.ok and made.table is not None
    assert made.table.options["target"] == 11 and made.table.options["fuori"] is False
    # A bad option in the command is still refused, naming it.
    await service.abandon(CHAT_A, ADMIN, made.table.id)
    bad = await service.create_table(CHAT_A, ADMIN, "scopone", options={"nonsense": 1})
    assert bad.refusal is not None and bad.refusal.code == "bad_option"


async def test_the_options_added_to_the_menu_make_tables(
    make_service: Callable[..., Any],
) -> None:
    """fuori (Scopone to 8), Scala 40's restocks, Briscola's removed 2: set in the menu, used by
    the chat's next tables; fuori without a game to 8 is refused by the engine's reason."""
    service = await real_service(make_service)
    early = await service.change_setting(CHAT_A, ADMIN, "scopone.fuori", "1", is_admin=True)
    assert early.refusal is not None and early.refusal.code == "bad_setting"
    assert "fuori" in early.refusal.detail
    for key, value in (
        ("scopone.target", "8"),
        ("scopone.fuori", "0"),
        ("scala40.max_restocks", "3"),
        ("briscola.removed_two", "2D"),
    ):
        changed = await service.change_setting(CHAT_A, ADMIN, key, value, is_admin=True)
        assert changed.ok, (key, changed.refusal)
    for game, name, value in (
        ("scopone", "fuori", False),
        ("scala40", "max_restocks", 3),
        ("briscola", "removed_two", "2D"),
    ):
        made = await service.create_table(CHAT_A, ADMIN, game)
        assert made.table is not None and made.table.options[name] == value, game
        await service.abandon(CHAT_A, ADMIN, made.table.id)


async def test_who_may_open_tables(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    assert (await service.change_setting(CHAT_A, ADMIN, "open", "admins", is_admin=True)).ok
    refused = await service.create_table(CHAT_A, OTHER, "scopa")
    assert refused.refusal is not None and refused.refusal.code == "admins_only"
    asked: list[bool] = []

    async def admin() -> bool:
        asked.append(True)
        return True

    assert (await service.create_table(CHAT_A, ADMIN, "scopa", is_admin=admin)).ok
    assert asked == [True]
    # Elsewhere nobody is asked.
    asked.clear()
    assert (await service.create_table(CHAT_B, OTHER, "scopa", is_admin=admin)).ok
    assert asked == []


async def test_chat_language_for_public_messages(make_service: Callable[..., Any]) -> None:
    service = await real_service(make_service)
    assert (await service.change_setting(CHAT_A, ADMIN, "lang", "en", is_admin=True)).ok
    result = await service.create_table(CHAT_A, ADMIN, "scopa")
    assert result.table is not None
    dealt = await service.start(CHAT_A, ADMIN, result.table.id, fill_with="easy")
    public = [e for e in dealt.events if e.audience.kind == "chat"]
    private = [e for e in dealt.events if e.audience.kind == "user"]
    assert public and all(e.locale == "en" for e in public)
    assert private and all(e.locale == "it" for e in private)  # Ada's own hint
    assert await service.locale_for(CHAT_A, ADMIN, public=True) == "en"
    assert await service.locale_for(CHAT_A, ADMIN, public=False) == "it"
    assert await service.locale_for(CHAT_B, OTHER, public=True) == "en"  # no chat choice
    view = (await service.settings_view(CHAT_A, OTHER)).events[0]
    assert isinstance(view, SettingsView) and view.locale == "en" and view.audience.kind == "chat"


async def test_style_and_pictures_share_the_places_style_used(
    make_service: Callable[..., Any],
) -> None:
    service = await real_service(make_service)
    # A style chosen with /style before /settings existed (the adapter state) shows.
    await service.store.state_put("piacentine", platform="telegram", kind="style", scope="-100")
    assert (await service.chat_settings(CHAT_A)).style == "piacentine"
    assert (await service.change_setting(CHAT_A, ADMIN, "style", "francesi", is_admin=True)).ok
    found = await service.store.state_get(platform="telegram", kind="style", scope="-100")
    assert found == "francesi"
    assert (await service.change_setting(CHAT_A, ADMIN, "style", "default", is_admin=True)).ok
    assert (await service.chat_settings(CHAT_A)).style is None
    assert await service.pictures_on("telegram", "-100")
    assert (await service.change_setting(CHAT_A, ADMIN, "pictures", "0", is_admin=True)).ok
    assert not await service.pictures_on("telegram", "-100")
    assert await service.pictures_on("telegram", "-200")


def test_style_choices_are_the_renderers() -> None:
    assert (*style_names(), "default") == STYLE_CHOICES


# Values the engine accepts only with another option: fuori is played in games to 8.
COMPANIONS: dict[str, dict[str, Any]] = {"fuori": {"target": 8}}


@pytest.mark.parametrize("game", sorted(GAME_OPTIONS))
def test_game_options_are_the_engines(game: str) -> None:
    """Every offered value is one the engine accepts, the enumerations are the engine's, and
    every option the game kind plays is offered (every rule option is a real option of a
    table)."""
    kind = default_registry().get(game)
    assert kind is not None
    for spec in GAME_OPTIONS[game]:
        for choice in spec.choices:
            companions = COMPANIONS.get(spec.name, {}) if choice is True else {}
            kind.rules(kind.default_players, {**companions, spec.name: choice})
            assert len(f"cfg:{game}.{spec.name}={encode_value(choice)}".encode()) <= 64
    names = {f.name for f in fields(kind.module.Rules)}
    assert {spec.name for spec in GAME_OPTIONS[game]} <= names
    enums = {
        "primiera_missing_suit": scopa_rules.PRIMIERA_MODES,
        "close_in_hand": scala40_rules.CLOSE_IN_HAND,
        "unopened_pays": scala40_rules.UNOPENED_PAYS,
        "elimination": scala40_rules.ELIMINATION,
        "discard_attachable": scala40_rules.DISCARD_ATTACHABLE,
    }
    for spec in GAME_OPTIONS[game]:
        if spec.name in enums:
            assert set(spec.choices) == set(enums[spec.name]), spec.name
    played = set()
    for option in kind.module.Rules.options():
        if option.name in ("variant", "players", *kind.fixed, *kind.ignored):
            continue
        variants = getattr(option, "variants", ())
        if variants and kind.fixed.get("variant") not in variants:
            continue  # not played by this kind (fuori outside Scopone)
        played.add(option.name)
    assert {spec.name for spec in GAME_OPTIONS[game]} == played


def test_the_menu_has_the_options_chats_could_not_set_before() -> None:
    offered = {game: {spec.name for spec in specs} for game, specs in GAME_OPTIONS.items()}
    assert "fuori" in offered["scopone"] and "fuori" in offered["scientifico"]
    assert "fuori" not in offered["scopa"]
    assert "max_restocks" in offered["scala40"] and "reentry" in offered["scala40"]
    assert "removed_two" in offered["briscola"] and "removed_two" not in offered["chiamata"]


def test_a_value_an_engine_adds_shows_up_in_the_menu() -> None:
    """The menu is generated from ``Rules.options()``: a new value, or a new option, appears;
    a preset the engine no longer allows goes, the engine's default is always offered; a wide
    number without presets is refused when the menu is made, not when a chat uses it."""
    from types import SimpleNamespace

    from bot.service.games import GameKind
    from bot.service.settings import menu_options
    from engine.options import Option

    def kind_with(*options: Option) -> GameKind:
        rules = SimpleNamespace(options=lambda: options)
        module = SimpleNamespace(Rules=rules)
        return GameKind("scopa", "scopa", module, (2,), 2, {"variant": "scopa"})  # type: ignore[arg-type]

    kind = kind_with(
        Option("variant", "choice", "scopa", ("scopa", "scopone")),
        Option("primiera_missing_suit", "choice", "void", ("void", "lenient", "strictest")),
        Option("target", "int", 9, low=9, high=40),
        Option("sette_bello_doubles", "bool", False),
        Option("fuori", "bool", False, variants=("scopone",)),
    )
    menu = {spec.name: spec.choices for spec in menu_options(kind)}
    assert menu == {
        "primiera_missing_suit": ("void", "lenient", "strictest"),
        "target": (9, 11, 16, 21, 31),
        "sette_bello_doubles": (False, True),
    }
    with pytest.raises(ValueError, match="presets"):
        menu_options(kind_with(Option("hand", "int", 3, low=1, high=30)))


async def test_a_rematch_keeps_where_the_options_came_from(service: TableService) -> None:
    """The toy game: a table made with a command option, played out, then its rematch."""
    chat, anna = ChatRef("telegram", "-300"), UserRef("telegram", "1", "Anna")
    created = await service.create_table(chat, anna, "toy", options={"hand": 1})
    assert created.table is not None
    table_id = created.table.id
    assert await service.store.option_sources(table_id) == {"hand": "command"}
    assert (await service.start(chat, anna, table_id, fill_with="easy")).ok
    for _ in range(50):
        shown = await service.show(chat, anna, table_id)
        assert shown.table is not None
        if shown.table.status != "playing":
            break
        hand = next(e for e in shown.events if isinstance(e, HandView))
        move = hand.view.legal_moves[0]
        played = await service.play(chat, anna, table_id, version=shown.table.version, move=move)
        assert played.ok, played.refusal
    again = await service.rematch(chat, anna, table_id)
    assert again.ok and again.table is not None and again.table.id != table_id
    assert await service.store.option_sources(again.table.id) == {"hand": "command"}
    rules = (await service.rules(chat, anna, again.table.id)).events[0]
    assert isinstance(rules, Announcement) and rules.data["sources"] == {"hand": "command"}
