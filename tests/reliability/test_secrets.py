"""Secrets: the bot token comes only from the environment (or ``.env``), never from the command
line, and never shows in any log record of a full game at DEBUG level (every logger: PTB,
httpx, aiohttp, the adapter, the service). Real processes' logs are grepped too, in
``test_crash_restart.py`` (``python -m bot run`` at ``LOG_LEVEL=DEBUG``)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import build_parser
from bot.telegram.app import redact_token_in_logs
from tests.fakes.telegram_api import FakeBotApi, group_chat, user
from tests.reliability.players import Ledger, play_table
from tests.telegram.harness import Tavolo, action_data, table_status

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = user(6001, "Alice"), user(6002, "Bob")
GROUP = group_chat(-600, "Segreti")


def test_no_command_line_option_takes_a_token() -> None:
    options = [option for action in build_parser()._actions for option in action.option_strings]
    assert not [o for o in options if "token" in o.lower()], options
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--token", "123:abc"])


async def test_a_full_game_at_debug_level_never_logs_the_token(
    api: FakeBotApi, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # the root logger: every library's records
    # As the composition root does (bot.telegram.serve): redaction on the root's handlers,
    # which now include the one capturing this test's records.
    redact_token_in_logs(api.token)
    async with Tavolo(api, tmp_path / "s.sqlite3") as tavolo:
        await tavolo.say(GROUP, ALICE, "/scopa 2 target=1")
        lobby = api.last_bot_message(GROUP["id"])
        await tavolo.press_action(lobby, BOB, "@join")
        await tavolo.press_action(api.message(GROUP["id"], lobby.message_id), ALICE, "@start")
        table_id = int(action_data(api.last_bot_message(GROUP["id"]), "@hand").split(":")[0])
        api.inject_server_error("editMessageText")  # error paths log too
        await play_table(
            api, [ALICE, BOB], table_id, status=lambda t: table_status(tavolo, t),
            ledger=Ledger(answer_timeout=5), seed=1,
        )  # fmt: skip
    assert len(caplog.records) > 100, "too few records: DEBUG logging was not on"
    secret = api.token.split(":", 1)[1]
    for record in caplog.records:
        text = record.getMessage() + str(record.args) + str(record.exc_text or "")
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        assert secret not in text, f"the token is in a {record.name} record"


def test_python_m_bot_takes_no_token_on_its_command_line(
    tmp_path: Path,
) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run", "--token", "123:secret"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2 and "unrecognized arguments" in done.stderr
