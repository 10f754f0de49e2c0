"""docker-compose.yml serves the web table over HTTPS: Caddy (automatic certificates) in front of
the bots' WEB_PORT, WebSockets through, /metrics and /health not public (checked without
Docker, as tests/deploy does)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_puts_caddy_in_front_of_the_web_table() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    bot, caddy = compose["services"]["bot"], compose["services"]["caddy"]
    port = bot["environment"]["WEB_PORT"]
    assert bot["environment"]["WEB_LISTEN"] == "0.0.0.0"
    assert bot["environment"]["PUBLIC_URL"].startswith("https://")
    assert port in bot["expose"]
    assert caddy["image"].startswith("caddy:2")
    assert "443:443" in caddy["ports"] and "80:80" in caddy["ports"]
    assert caddy["environment"]["WEB_PORT"] == port
    mounted = {v.split(":")[0]: v.split(":")[1] for v in caddy["volumes"]}
    assert mounted["./deploy/Caddyfile"] == "/etc/caddy/Caddyfile"
    assert "caddy_data" in compose["volumes"]  # the certificates survive a restart
    assert "8080" in (ROOT / "Dockerfile").read_text().split("EXPOSE", 1)[1].splitlines()[0]


def test_the_caddyfile_proxies_to_every_bot_and_hides_the_internals() -> None:
    text = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$TAVOLO_DOMAIN}" in text
    assert "reverse_proxy" in text and "dynamic a bot {$WEB_PORT:8080}" in text
    assert "@internal path /metrics /health /healthz" in text
    assert "respond @internal 404" in text
