"""The ``tavolo`` command line's arguments: every command, option and ``--help`` text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["build_parser", "program"]


def build_parser() -> argparse.ArgumentParser:
    """The command line: its commands, options and --help texts."""
    parser = argparse.ArgumentParser(
        prog=program(),
        description="Tavolo: Scopa, Scopone, Scala 40 and Briscola on Telegram, Discord or in the "
        "terminal. With no command: serve the bots whose tokens are set, or, with no token, "
        "play in the terminal (the saved game, else Scopa). Settings come from the environment "
        "and .env (see .env.example).",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="with no command and no token: deal a new Scopa game, abandoning the saved Scopa "
        "game if there is one (other saved games are kept; play GAME --new: another game)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "run",
        help="serve the Telegram/Discord bots whose tokens are set; with no token, play in "
        "the terminal (the default command)",
    )
    play = sub.add_parser(
        "play",
        help="play in the terminal against the computer (resumes the saved game of that game)",
        description="Play in the terminal against computer players. The game is saved after "
        "every move, one saved game per game: quitting and running again resumes it. Terminal "
        "play keeps its database in the user's data directory (on Linux "
        "~/.local/share/tavolo), unless DATA_DIR or DATABASE_URL is set.",
        epilog="At the table: type the number of a move, or the move as it is shown (7♦); "
        "h shows the game's help, v the table, q quits; Ctrl-C and Ctrl-D leave too. The "
        "language is the system's (LANG), or DEFAULT_LOCALE (it, en) when set.",
    )
    play.add_argument(
        "game",
        nargs="?",
        default=None,
        help="scopa, scopone, scientifico, scala40, briscola or chiamata (default: the saved "
        "game played last, else scopa)",
    )
    play.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of players at the table, you included (default: the game's usual "
        "number: Scopa 2, Scopone 4, Scala 40 2, Briscola 2, chiamata 5)",
    )
    play.add_argument(
        "--level",
        choices=("easy", "medium", "hard"),
        default="easy",
        help="strength of the computer players (default: easy)",
    )
    play.add_argument(
        "--new",
        action="store_true",
        help="abandon the saved game of GAME (only that one; no GAME: Scopa) and deal a new one",
    )
    play.add_argument(
        "--name",
        default=None,
        help="your name at the table (asked on the first run, then remembered)",
    )
    web_cmd = sub.add_parser(
        "web",
        help="serve the web table on this computer for play against the computer (prints the "
        "address to open in a browser)",
        description="Serve the web table (the same page as Telegram's Mini App) on 127.0.0.1 "
        "for one local player against computer players; no Telegram or Discord identity. "
        "Games are saved in the configured database. Ctrl-C stops it.",
    )
    web_cmd.add_argument(
        "--port", type=int, default=8080, help="the port to listen on (default 8080; 0: any free)"
    )
    web_cmd.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1: this computer only)",
    )
    web_cmd.add_argument("--name", default=None, help="your name at the table (default: login)")
    sub.add_parser(
        "simulate",
        help="computer-vs-computer games for measuring the computer players "
        f"({program()} simulate --help: its options)",
        add_help=False,
    )
    db = sub.add_parser("db", help="database maintenance")
    db_sub = db.add_subparsers(dest="db_command", metavar="DB_COMMAND", required=True)
    db_sub.add_parser("upgrade", help="apply the database migrations (also done at start-up)")
    backup = db_sub.add_parser(
        "backup",
        help="copy the SQLite database to PATH while the bot runs (SQLite's online backup)",
    )
    backup.add_argument("path", help="the backup file to write")
    restore = db_sub.add_parser(
        "restore", help="replace the SQLite database with the backup at PATH (stop the bot first)"
    )
    restore.add_argument("path", help="the backup file to restore")
    export = sub.add_parser(
        "export-game", help="print a game's move log, seed and rules as JSON (replayable)"
    )
    export.add_argument("table_id", type=int)
    replay = sub.add_parser(
        "replay",
        help="replay an exported game (export-game's JSON) with the engine and print the result",
        description="Load a move log written by export-game, replay every move with the rules "
        "engine and print the final score; exit 1 if a move is illegal or the result differs "
        "from the one recorded.",
    )
    replay.add_argument("file", help="the JSON file ('-' = standard input)")
    imported = sub.add_parser(
        "import",
        help="store a game written by export-game in this database, as a table of its own",
        description="Check a file written by export-game (its digest, every field) and replay "
        "every move with the rules engine, then store the game in the configured database in "
        "one transaction, under a new table id, in the same chat and with the same players. "
        "A finished game counts in the results, leaderboards and ratings once; an ongoing "
        "game can be resumed here. A game already in the database is not imported again. "
        "Ratings move in import order: import several games in the order they were played. "
        "Exit 0 when imported or already there; 1, with one line saying why and nothing "
        "written, when refused.",
    )
    imported.add_argument("file", help="the JSON file ('-' = standard input)")
    imported.add_argument(
        "--chat",
        metavar="CHAT_ID",
        default=None,
        help="store the game in this chat of the same platform instead of the file's (e.g. a "
        "Telegram group that became a supergroup and got a new id)",
    )
    discord = sub.add_parser("discord", help="Discord maintenance")
    discord_sub = discord.add_subparsers(
        dest="discord_command", metavar="DISCORD_COMMAND", required=True
    )
    sync = discord_sub.add_parser(
        "sync-commands",
        help="upload the slash commands if they changed since the last upload",
    )
    sync.add_argument("--force", action="store_true", help="upload even if unchanged")
    sub.add_parser(
        "health",
        help="exit 0 if the database answers and (with METRICS_PORT set) the running "
        "process's /health says ok; the Docker HEALTHCHECK",
    )
    return parser


def program() -> str:
    """How the player started us, to say how to resume: ``tavolo`` or ``python -m bot``."""
    return "tavolo" if Path(sys.argv[0]).stem == "tavolo" else "python -m bot"
