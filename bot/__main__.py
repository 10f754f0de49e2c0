"""``python -m bot``: Tavolo's command line, :func:`bot.cli.main` (the composition root is
:mod:`bot.cli`; the names below are re-exported for code that imported them from here)."""

from __future__ import annotations

from bot.cli import App, build_parser, main, replay_export, terminal_locale
from bot.cli.serving import timer_loop as _timers

__all__ = ["App", "_timers", "build_parser", "main", "replay_export", "terminal_locale"]

if __name__ == "__main__":
    raise SystemExit(main())
