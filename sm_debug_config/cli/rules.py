"""``sm-debug-config rules list|show``: the built-in rule catalogue."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, FRAMEWORKS, KINDS, PROG, Parser, UsageError, dumps
from sm_debug_config.errors import ConfigError
from sm_debug_config.model import catalogue

EPILOG = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="rules_command", metavar="list|show", parser_class=Parser)
    commands.required = True
    listing = commands.add_parser("list", help="list built-in rules")
    listing.add_argument("--framework", choices=FRAMEWORKS)
    listing.add_argument("--kind", choices=KINDS)
    listing.add_argument("--format", choices=("text", "json"), default="text")
    show = commands.add_parser("show", help="parameters, defaults and collections of one rule")
    show.add_argument(
        "name", help="the rule's name (VanishingGradient) or its rule_configs function (vanishing_gradient)"
    )
    show.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(_text(args))
    return EXIT_OK


def _text(args: argparse.Namespace) -> str:
    if args.rules_command == "show":
        try:
            info = catalogue.describe(args.name)
        except ConfigError as err:  # a name not in the catalogue is a usage error (exit 2), with its did-you-mean
            raise UsageError(f"{PROG} rules show: {err.message} (see '{PROG} rules list')") from None
        return dumps(info) if args.format == "json" else catalogue.format_description(info) + "\n"
    rows = catalogue.list_rules(kind=args.kind, framework=args.framework)
    if args.format == "json":
        return dumps(rows)
    width = max((len(r["name"]) for r in rows), default=4)
    return "".join(
        f"{r['name']:<{width}}  {r['kind']:<8}  {','.join(r['frameworks']):<31}  {r['description']}\n" for r in rows
    )
