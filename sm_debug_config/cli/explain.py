"""``sm-debug-config explain``: merged collections, where each parameter came from, and what each rule reads."""
from __future__ import annotations

import argparse

from sm_debug_config.cli.common import CONFIG_WRONG, STRICT_HELP, add_setting_flags, dumps, exit_codes, recorded_warnings, write_output
from sm_debug_config.cli.configured import configured, locate_pointer, positioned, warn_findings

HELP = "show merged collections, where each parameter came from, and what each rule reads"
EPILOG = exit_codes(CONFIG_WRONG)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="the config file (YAML or JSON; - for standard input)")
    add_setting_flags(parser)
    parser.add_argument("--format", choices=("text", "json"), default="text", help="text: a report to read (default); json: the same as data")
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)


def run(args: argparse.Namespace) -> int:
    from sm_debug_config.explaining import explain_model, format_explanation

    with recorded_warnings() as caught:
        loaded, setup, settings, given = configured(args)
        report = positioned(loaded, lambda: explain_model(setup, settings), given)
        rendered = loaded.render_model(validate=False, **given)  # explain rendered it already: this cannot fail
        warn_findings(report["findings"], loaded.source, lambda at: locate_pointer(loaded, at, rendered))
        text = dumps(report) if args.format == "json" else format_explanation(report)
    return write_output(text, args, caught)
