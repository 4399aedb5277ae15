"""``sm-debug-config lint``: Debugger configuration in Python sources and notebooks, checked without running them."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict, List, Sequence

from sm_debug_config.cli.common import PROG, UsageError, add_setting_flags, exit_codes, wrong_command
from sm_debug_config.cli.report import add_report_arguments, report, unreadable, where
from sm_debug_config.errors import ConfigError
from sm_debug_config.lint import lint_paths
from sm_debug_config.validation import check_codes
from sm_debug_config.validation.registry import SMD181

EPILOG = exit_codes("findings: an error (with --strict, a warning too)", "a file that cannot be read or parsed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help=".py and .ipynb files, or directories to search")
    add_report_arguments(parser)
    parser.add_argument("--verbose", action="store_true",
                        help="also say what was not checked (computed at run time), which files were skipped, and each "
                        "finding's page")
    add_setting_flags(parser, ("framework", "framework_version", "image_uri", "ignore"))


def run(args: argparse.Namespace) -> int:
    """Lint Python sources and notebooks (:mod:`sm_debug_config.lint`), printed as ``validate`` prints."""

    ignore: Sequence[str] = ()
    if args.ignore:  # the registry is imported only when needed: a tree with no Debugger file never loads it

        try:
            ignore = check_codes(args.ignore, field="--ignore")
        except ConfigError as err:
            raise UsageError(f"{PROG} lint: {err}") from None
    given = ("framework", "framework_version", "image_uri")
    defaults = {name: getattr(args, name) for name in given if getattr(args, name)}
    results: List[Dict[str, Any]] = []
    for path in args.paths:  # a YAML or JSON file named here is validate's: refused with the hint (exit 2)
        hint = None if os.path.isdir(path) else wrong_command(path, "lint")
        results += [unreadable(path, hint)] if hint else lint_paths([path], ignore=ignore, defaults=defaults)
    if args.verbose:  # on stderr, as validate's skip reasons: stdout stays the findings

        for result in results:
            for cell, line, column, text in result.get("notes", ()):
                place = where(result["file"] + (f":cell {cell}" if cell else ""), line, column)
                sys.stderr.write(f"{place}: {SMD181.severity} {SMD181.code} /: {text}\n")
    return report(results, args)
