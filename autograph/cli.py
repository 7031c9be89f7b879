"""The ``autograph`` command line (``python -m autograph`` is the same program)."""
from __future__ import annotations

import argparse
import sys

from graph import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograph",
        description="Convert Python functions into staged graphs and look at the result.")
    parser.add_argument("--version", action="version", version=f"autograph {__version__}")
    parser.add_subparsers(dest="command", metavar="COMMAND")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
