"""``sm-debug-config status``: the rule evaluation status of a training job."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_USAGE, PROG, exit_codes

EPILOG = exit_codes("a rule needs attention (IssuesFound or Error)", "the status cannot be read")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("job_name", metavar="JOB_NAME")
    parser.add_argument("--region")


def run(args: argparse.Namespace) -> int:
    from sm_debug_config.operations.status import status_main

    text, code = status_main(args.job_name, args.region)
    if code == EXIT_USAGE:
        sys.stderr.write(f"{PROG}: {text.strip()}\n")
    else:
        sys.stdout.write(text)  # status_main's text ends with a newline
    return code
