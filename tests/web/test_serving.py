"""The web table inside ``python -m bot run``: the same process's service, /metrics (written by
prometheus_client) and /health on the web server, tokens shared by the processes of one bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from bot.cli.compose import build_app, build_service, open_store
from bot.config import load_settings
from bot.observability import Metrics
from bot.web.auth import Identity, TokenSigner
from bot.web.serving import start_web, token_secret
from tests.web.conftest import BOT_TOKEN


async def test_the_bot_process_serves_the_web_table_metrics_and_health(tmp_path: Path) -> None:
    settings = load_settings(
        telegram_token=BOT_TOKEN,
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'run.sqlite3'}",
        web_port=0,
        public_url="https://tavolo.example.org/",
        images=False,
    )
    assert settings.public_url == "https://tavolo.example.org"
    store = await open_store(settings)
    service = build_service(settings, store, timers=True, processes=0)
    app = build_app(settings, store=store, service=service, stop=asyncio.Event())
    metrics = Metrics()

    async def health() -> dict[str, object]:
        return {"ok": True, "database": "ok"}

    runner = await start_web(app, metrics=metrics, health=health)
    try:
        assert app.web is not None
        port = runner.addresses[0][1]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/health") as r:
                assert r.status == 200 and (await r.json())["ok"] is True
            async with session.get(f"http://127.0.0.1:{port}/metrics") as r:
                text = await r.text()
                assert r.status == 200 and r.content_type == "text/plain"
            assert "tavolo_web_connections 0.0" in text
            assert "tavolo_web_push_seconds_p99 0.0" in text
            assert "# TYPE tavolo_moves_total counter" in text
            assert "tavolo_call_latency_seconds_count" in text
            async with session.get(f"http://127.0.0.1:{port}/api/texts?locale=en") as r:
                assert r.status == 200
    finally:
        await runner.cleanup()
        await service.computers.aclose()
        await store.close()


def test_processes_of_one_bot_accept_each_others_tokens() -> None:
    one = load_settings(telegram_token=BOT_TOKEN)
    other = load_settings(telegram_token=BOT_TOKEN)
    secret = token_secret(one)
    assert secret is not None and secret == token_secret(other)
    token = TokenSigner(secret).issue(Identity("telegram", "1", "A"))
    other_secret = token_secret(other)
    assert other_secret is not None
    assert TokenSigner(other_secret).check(token).user_id == "1"
    assert token_secret(load_settings(telegram_token="1:another")) != secret
    assert token_secret(load_settings(web_token_secret="s" * 20)) == b"s" * 20
