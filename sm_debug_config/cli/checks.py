"""``sm-debug-config checks``: the table of check codes (code, name, severity, lifecycle, the inputs it applies to,
description, page); ``checks CODE`` (or its name): the code's page."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, UsageError, dumps
from sm_debug_config.codes import INPUTS, STABLE
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
        help="print this code's page (docs/checks/CODE.md; a code or its name): what, why, a bad and a fixed "
        "example, how to suppress it",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="json: the table (code, name, severity, lifecycle, applies_to, description, fixes, url)")
    parser.add_argument("--verbose", action="store_true",
                        help="also the inputs each code applies to and the evidence behind its severity")


def run(args: argparse.Namespace) -> int:
    if args.code is not None:
        try:
            check = find_check(args.code)
        except ConfigError as err:  # a mistyped code is a usage error (exit 2), with a did-you-mean
            raise UsageError(" ".join(str(err).split())) from None
        page = check_page(check.code)
        if args.format == "json":
            row = next(row for row in list_checks(verbose=True) if row["code"] == check.code)
            sys.stdout.write(dumps(dict(row, url=check.url, page=page)))
        else:
            sys.stdout.write(page)
        return EXIT_OK
    rows = [dict(row, url=CHECKS[row["code"]].url) for row in list_checks(verbose=args.verbose)]
    if args.format == "json":
        sys.stdout.write(dumps(rows))
        return EXIT_OK
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        lifecycle = f" ({row['lifecycle']})" if row["lifecycle"] != STABLE else ""
        sys.stdout.write(f"{row['code']}  {row['severity']:<7}  {row['name']:<{width}}  {row['description']}"
                         f"{lifecycle}\n")
        if args.verbose:
            every = set(row["applies_to"]) == set(INPUTS)
            inputs = "every input" if every else ", ".join(row["applies_to"])
            sys.stdout.write(f"{'':17}applies to: {inputs}\n{'':17}evidence: {row['evidence']}\n"
                             f"{'':17}page: {row['url']}\n")
    return EXIT_OK
