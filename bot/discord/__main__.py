"""``python -m bot.discord sync [--force]``: upload the slash commands to Discord.

The bot also syncs on start when the commands changed since the last sync (a fingerprint in
``DATA_DIR``); this command is for doing it by hand, e.g. after a deploy, or with ``--force``
when the commands were changed elsewhere. Settings (``DISCORD_TOKEN``, ``DATA_DIR``) come from
the environment and ``.env`` like every Tavolo setting.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from bot.config import BadSetting, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.discord")
    sub = parser.add_subparsers(dest="command", required=True)
    sync = sub.add_parser("sync", help="upload the slash commands if they changed")
    sync.add_argument("--force", action="store_true", help="upload even if unchanged")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except BadSetting as exc:
        print(f"tavolo: {exc}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print("tavolo: DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level)
    from bot.discord.app import sync_commands_cli

    synced = asyncio.run(
        sync_commands_cli(
            settings.discord_token.get_secret_value(), settings.data_dir, force=args.force
        )
    )
    print("synced" if synced else "unchanged: not synced")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
