"""``sm-debug-config events pattern``: the EventBridge pattern of rules reporting IssuesFound."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, Parser, dumps
from sm_debug_config.operations.events import command_line_pattern

EPILOG = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="events_command", metavar="pattern", parser_class=Parser)
    commands.required = True
    pattern = commands.add_parser("pattern", help="the event pattern for rules reporting IssuesFound")
    pattern.add_argument("--rule", action="append", help="only these rule names (repeatable)")
    pattern.add_argument("--status", action="append", help="rule statuses to match (default IssuesFound; repeatable)")
    pattern.add_argument("--include-profiler", action="store_true", help="match profiler rule statuses too")
    pattern.add_argument("--job-status", action="append", help="only events with this TrainingJobStatus (repeatable)")


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(dumps(command_line_pattern(args.rule, args.status, args.include_profiler, args.job_status)))
    return EXIT_OK
