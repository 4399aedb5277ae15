"""``sm-debug-config checks``: the finding codes, their severity and evidence."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, dumps
from sm_debug_config.validation import list_checks

EPILOG = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--verbose", action="store_true", help="also the evidence behind each code's severity")


def run(args: argparse.Namespace) -> int:
    rows = list_checks(verbose=args.verbose)
    if args.format == "json":
        sys.stdout.write(dumps(rows))
        return EXIT_OK
    line = "{code}  {severity:<7}  {description}\n" + ("{:16}evidence: {evidence}\n" if args.verbose else "")
    sys.stdout.write("".join(line.format("", **row) for row in rows))
    return EXIT_OK
