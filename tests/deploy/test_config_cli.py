"""Settings (every one in .env.example; a bad one stops start-up with one line naming it), the
CLI's commands, replaying an exported game, the structured logs and the metrics."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import build_parser, replay_export
from bot.config import BadSetting, Settings, load_settings
from bot.domain import Action, Verb
from bot.observability import Metrics, ObservedService, configure_logging, serve_http
from engine import scopa
from tests.deploy.conftest import ROOT, bot_env

COMPOSE_ONLY = {"POSTGRES_PASSWORD", "TAVOLO_DOMAIN"}


def _example_names() -> list[str]:
    text = (ROOT / ".env.example").read_text()
    return re.findall(r"^([A-Z][A-Z0-9_]*)=", text, re.M)


def test_env_example_lists_every_setting_with_a_comment() -> None:
    names = _example_names()
    fields = {name.upper() for name in Settings.model_fields}
    assert set(names) - COMPOSE_ONLY == fields
    assert len(names) == len(set(names))
    lines = (ROOT / ".env.example").read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^[A-Z][A-Z0-9_]*=", line):
            # Each setting follows a comment (directly, or after the settings of its group).
            above = [x for x in lines[:i] if x.strip()]
            assert any(x.startswith("#") for x in above[-4:]), line


def test_env_example_values_load() -> None:
    values = {}
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.match(r"^([A-Z][A-Z0-9_]*)=(.*)$", line)
        if match and match[1] not in COMPOSE_ONLY:
            values[match[1].lower()] = match[2]
    settings = load_settings(**values)
    assert settings.telegram_token is None and settings.metrics_port is None
    assert settings.computer_processes is None  # empty: every core but one
    assert settings.takeover_level == "medium"
    assert load_settings(computer_processes="0").computer_processes == 0  # in a thread


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"TELEGRAM_WEBHOOK_PORT": "http"}, "TELEGRAM_WEBHOOK_PORT"),
        ({"TELEGRAM_WEBHOOK_PORT": "70000"}, "TELEGRAM_WEBHOOK_PORT"),
        ({"TELEGRAM_WEBHOOK_SECRET": "bad secret!"}, "TELEGRAM_WEBHOOK_SECRET"),
        ({"TELEGRAM_WEBHOOK_URL": "ftp://x"}, "TELEGRAM_WEBHOOK_URL"),
        ({"TELEGRAM_TOKEN": "nocolon-secret-value"}, "TELEGRAM_TOKEN"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"METRICS_PORT": "-1"}, "METRICS_PORT"),
        ({"DISCORD_SHARD_ID": "1"}, "DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_ID": "2"}, "DISCORD_SHARD_ID"),
        ({"TIMER_LEASE_SECONDS": "0"}, "TIMER_LEASE_SECONDS"),
        ({"COMPUTER_PROCESSES": "-1"}, "COMPUTER_PROCESSES"),
        ({"SHUTDOWN_GRACE_SECONDS": "x"}, "SHUTDOWN_GRACE_SECONDS"),
        ({"TURN_REMINDER_SECONDS": "60", "TURN_TIMEOUT_SECONDS": "30"}, "TURN_TIMEOUT_SECONDS"),
        ({"LOBBY_TIMEOUT": "ten"}, "LOBBY_TIMEOUT"),
        ({"LOBBY_TIMEOUT": "xm"}, "LOBBY_TIMEOUT"),
        ({"LOBBY_TIMEOUT": "-5"}, "LOBBY_TIMEOUT"),
        ({"SEASON": "week"}, "SEASON"),
    ],
)
def test_a_bad_setting_is_named_in_one_line(env: dict[str, str], named: str) -> None:
    with pytest.raises(BadSetting) as caught:
        load_settings(**{k.lower(): v for k, v in env.items()})
    message = str(caught.value)
    assert "\n" not in message and named.lower() in message.lower()
    for value in env.values():
        if len(value) > 6:
            assert value not in message  # never the value: it may be a secret


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"TELEGRAM_TOKEN": "nocolon-secret-value"}, "TELEGRAM_TOKEN"),
        ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_ID": "2"}, "DISCORD_SHARD_ID"),
    ],
)
def test_a_bad_setting_stops_start_up_with_one_line(
    env: dict[str, str], named: str, tmp_path: Path
) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        env=bot_env(DATA_DIR=str(tmp_path / "data"), **env),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and named.lower() in lines[0].lower(), run.stderr
    for value in env.values():
        if len(value) > 6:
            assert value not in run.stderr  # never the value: it may be a secret


@pytest.mark.parametrize(
    ("value", "seconds"), [("10m", 600.0), ("90s", 90.0), ("1h", 3600.0), ("45", 45.0), ("0", 0.0)]
)
def test_lobby_timeout_in_seconds_or_with_a_unit(value: str, seconds: float) -> None:
    assert load_settings(lobby_timeout=value).lobby_timeout == seconds
    assert load_settings().lobby_timeout == 600.0 and load_settings().season == "month"


def test_webhook_settings_reach_the_telegram_adapter() -> None:
    from bot.telegram.settings import TelegramSettings

    settings = load_settings(
        telegram_token="1:abc",
        telegram_webhook_url="https://bot.example.org/telegram",
        telegram_webhook_secret="s3cret_",
        telegram_webhook_port="9443",
        telegram_webhook_listen="0.0.0.0",
    )
    adapter = TelegramSettings.from_settings(settings)
    assert adapter is not None and adapter.uses_webhook
    assert (adapter.webhook_listen, adapter.webhook_port) == ("0.0.0.0", 9443)
    assert adapter.webhook_secret == "s3cret_"


def test_discord_shard_options() -> None:
    from bot.discord.app import shard_options

    assert shard_options(load_settings()) == {}
    second = load_settings(discord_shard_count="4", discord_shard_id="1")
    assert shard_options(second) == {"shard_id": 1, "shard_count": 4, "sync_on_start": False}
    first = load_settings(discord_shard_count="4", discord_shard_id="0")
    assert shard_options(first)["sync_on_start"] is True


def test_help_lists_every_command() -> None:
    text = build_parser().format_help()
    for command in ("run", "play", "simulate", "db", "export-game", "replay", "discord", "health"):
        assert re.search(rf"^\s+{re.escape(command)}\b", text, re.M), command


def test_simulate_hands_its_command_line_to_bot_simulate(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "--help"],
        env=bot_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if (ROOT / "bot" / "simulate.py").exists():
        # Its own options, not the tavolo parser's.
        assert run.returncode == 0 and "--games" in run.stdout, run.stderr
    else:
        assert run.returncode == 2 and "bot.simulate" in run.stderr


def test_discord_sync_commands_needs_a_token(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bot", "discord", "sync-commands"],
        env=bot_env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and run.stderr.strip() == "tavolo: DISCORD_TOKEN is not set"


def _played(seed: int) -> dict[str, Any]:
    """An export-game document of a finished 2-player Scopa to 1 point (greedy-ish moves)."""
    rules = scopa.Rules(variant="scopa", players=2, target=1)
    game = scopa.new_game(rules, seed=seed)
    moves = []
    while not game.is_over:
        move = str(game.legal_moves()[0])
        moves.append({"version": len(moves) + 2, "seat": game.current_player, "move": move})
        game = game.play(move)
    outcome = game.outcome()
    assert outcome is not None
    return {
        "table": 1,
        "game": "scopa",
        "players": 2,
        "options": {"variant": "scopa", "target": 1},
        "seed": seed,
        "status": "finished",
        "moves": moves,
        "result": {"ranks": list(outcome.ranks)},
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_reproduces_an_exported_game(seed: int) -> None:
    data = _played(seed)
    replayed = replay_export(data)
    assert replayed["is_over"] and replayed["matches_record"] is True
    assert replayed["moves"] == len(data["moves"])


def test_replay_names_the_bad_move_and_the_cli_fails(tmp_path: Path) -> None:
    data = _played(4)
    data["moves"][3]["move"] = "7D:1C+2C+3C"
    with pytest.raises(ValueError, match="move 4"):
        replay_export(data)
    swapped = _played(4)
    swapped["result"]["ranks"] = list(reversed(swapped["result"]["ranks"]))
    assert replay_export(swapped)["matches_record"] is False
    for document, code in ((data, 1), (_played(5), 0)):
        path = tmp_path / "game.json"
        path.write_text(json.dumps(document))
        run = subprocess.run(
            [sys.executable, "-m", "bot", "replay", str(path)],
            env=bot_env(),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == code, run.stderr
        assert len(run.stderr.strip().splitlines()) <= 1


@pytest.fixture
def restored_logging() -> Iterator[logging.Logger]:
    """The root logger; its handlers, level and the record factory are put back afterwards
    (configure_logging changes all three, and a test must not leave them to the next one)."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level, logging.getLogRecordFactory())
    try:
        yield root
    finally:
        root.handlers, root.level = saved[0], saved[1]
        logging.setLogRecordFactory(saved[2])


@pytest.mark.parametrize("fmt", ["json", "kv"])
@pytest.mark.usefixtures("restored_logging")
def test_structured_log_lines_carry_fields_and_hide_secrets(
    fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging("INFO", fmt, secrets=["123:SECRET-token"])
    log = logging.getLogger("bot.test")
    log.info(
        "moved with %s",
        "123:SECRET-token",
        extra={"table_id": 7, "platform": "telegram", "latency_ms": 3.5},
    )
    try:
        raise RuntimeError("bad 123:SECRET-token")
    except RuntimeError:
        log.exception("failed")
    err = capsys.readouterr().err
    assert "SECRET" not in err
    first = err.splitlines()[0]
    if fmt == "json":
        record = json.loads(first)
        assert record["table_id"] == 7 and record["platform"] == "telegram"
        assert record["latency_ms"] == 3.5 and record["msg"] == "moved with ***"
    else:
        assert "table_id=7" in first and "platform=telegram" in first
        assert 'msg="moved with ***"' in first


def test_a_handler_added_after_start_up_never_sees_a_secret(
    restored_logging: logging.Logger,
) -> None:
    seen: list[str] = []

    class Late(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(self.format(record))

    before = logging.getLogRecordFactory()
    configure_logging("INFO", "kv", secrets=["123:SECRET-token", ""])
    configure_logging("INFO", "kv", secrets=["123:SECRET-token"])  # again: not stacked
    assert getattr(logging.getLogRecordFactory(), "base", None) is before
    restored_logging.addHandler(Late())
    log = logging.getLogger("bot.test.late")
    log.warning("url https://api/bot%s/getMe", "123:SECRET-token")
    try:
        raise RuntimeError("bad 123:SECRET-token")
    except RuntimeError:
        log.exception("failed")
    assert len(seen) == 2 and all("SECRET" not in line for line in seen)
    assert "https://api/bot***/getMe" in seen[0] and "bad ***" in seen[1]


class _Result:
    def __init__(self, refusal: object = None) -> None:
        self.refusal = refusal
        self.table = None


class _Service:
    async def play(self, chat: Any, user: Any, table_id: int, *, version: int, move: str) -> Any:
        await asyncio.sleep(0)
        return _Result(None if move != "bad" else "illegal_move")

    async def press(self, chat: Any, user: Any, data: str) -> Any:
        if data == "boom":
            raise RuntimeError("boom")
        return _Result()


class _Chat:
    platform = "discord"


async def test_metrics_count_moves_errors_and_latency() -> None:
    metrics = Metrics()

    async def tables() -> float:
        return 3.0

    metrics.gauges["tavolo_live_tables"] = tables
    service = ObservedService(_Service(), metrics)
    chat = _Chat()
    await service.play(chat, None, 1, version=1, move="7D")
    await service.play(chat, None, 1, version=1, move="bad")
    await service.press(chat, None, "1:2:@join")
    await service.press(chat, None, "1:2:7D")
    with pytest.raises(RuntimeError):
        await service.press(chat, None, "boom")
    assert service.in_flight == 0 and await service.wait_idle(0.1)
    assert metrics.value("tavolo_moves_total", platform="discord") == 2
    assert metrics.value("tavolo_errors_total", call="press", platform="discord") == 1
    text = await metrics.exposition()
    assert 'tavolo_calls_total{call="play",outcome="refused",platform="discord"} 1' in text
    assert 'tavolo_call_latency_seconds_bucket{le="+Inf"} 5' in text
    assert "tavolo_call_latency_seconds_count 5" in text
    assert "# TYPE tavolo_live_tables gauge\ntavolo_live_tables 3" in text

    healthy = {"ok": True}

    async def health() -> dict[str, Any]:
        return dict(healthy)

    server = await serve_http(host="127.0.0.1", port=0, metrics=metrics, health=health)
    port = server.sockets[0].getsockname()[1]
    try:
        assert (await _get(port, "/metrics"))[0] == 200
        status, body = await _get(port, "/health")
        assert status == 200 and json.loads(body) == {"ok": True}
        healthy["ok"] = False
        assert (await _get(port, "/health"))[0] == 503
        assert (await _get(port, "/nothing"))[0] == 404
    finally:
        server.close()
        await server.wait_closed()


async def test_a_pressed_action_counts_as_a_move_unless_a_menu_button() -> None:
    metrics = Metrics()
    service = ObservedService(_Service(), metrics)
    chat = _Chat()
    await service.press(chat, None, Action(1, 2, Verb.MOVE, "7D"))
    await service.press(chat, None, Action(1, 2, Verb.JOIN))
    await service.press(chat, None, Action(1, 2, Verb.FOCUS, "7D"))
    assert metrics.value("tavolo_moves_total", platform="discord") == 1
    assert metrics.value("tavolo_calls_total", call="press", outcome="ok", platform="discord") == 3


async def _get(port: int, path: str) -> tuple[int, str]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_bad_setting_message_never_echoes_the_value() -> None:
    with pytest.raises(BadSetting) as caught:
        load_settings(telegram_token="no-colon-here-secret")
    assert "no-colon" not in str(caught.value)
    assert str(caught.value).startswith("bad setting TELEGRAM_TOKEN")
