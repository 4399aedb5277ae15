"""``sm-debug-config checks``: the finding codes, their severity and evidence; ``checks CODE``: the code's page."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, UsageError, dumps
from sm_debug_config.errors import ConfigError
from sm_debug_config.findings import CHECKS
from sm_debug_config.validation import list_checks
from sm_debug_config.validation.pages import check_page, find_check

EPILOG = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "code",
        nargs="?",
        metavar="CODE",
        help="print this code's page (docs/checks/CODE.md): what, why, a bad and a fixed example, how to suppress it",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--verbose", action="store_true", help="also the evidence behind each code's severity")


def run(args: argparse.Namespace) -> int:
    if args.code is not None:
        try:
            check = find_check(args.code)
        except ConfigError as err:  # a mistyped code is a usage error (exit 2), with a did-you-mean
            raise UsageError(" ".join(str(err).split())) from None
        page = check_page(check.code)
        if args.format == "json":
            fields = ("code", "severity", "description", "evidence", "url")
            sys.stdout.write(dumps(dict({name: getattr(check, name) for name in fields}, page=page)))
        else:
            sys.stdout.write(page)
        return EXIT_OK
    rows = [dict(row, url=CHECKS[row["code"]].url) for row in list_checks(verbose=args.verbose)]
    if args.format == "json":
        sys.stdout.write(dumps(rows))
        return EXIT_OK
    line = "{code}  {severity:<7}  {description}\n" + (
        "{:16}evidence: {evidence}\n{:16}page: {url}\n" if args.verbose else ""
    )
    sys.stdout.write("".join(line.format("", "", **row) for row in rows))
    return EXIT_OK
