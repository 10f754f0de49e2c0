"""Tavolo's composition root: ``python -m bot`` and the ``tavolo`` console script."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tavolo",
        description="Tavolo: Scopa, Scopone and Scala 40 on Telegram, Discord or in the terminal.",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    parser.parse_args(argv)
    print("Tavolo: terminal play is not wired up yet.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
