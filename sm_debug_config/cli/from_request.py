"""``sm-debug-config from-request``: the config file that renders a CreateTrainingJob request."""
from __future__ import annotations

import argparse
from typing import Tuple

from sm_debug_config.cli.common import (
    STRICT_HELP,
    UsageError,
    add_setting_flags,
    dumps,
    exit_codes,
    settings_given,
    write_output,
)
from sm_debug_config.cli.files import read, read_json
from sm_debug_config.cli.configured import say_findings
from sm_debug_config.configfile import dump
from sm_debug_config.configfile.parse import pyyaml
from sm_debug_config.errors import pointer_parts
from sm_debug_config.reverse import from_request
from sm_debug_config.validation import validate

DESCRIPTION = ("Print the config file that renders a CreateTrainingJob request; "
               "settings given stand in for what the request does not hold.")
EPILOG = exit_codes("the request cannot be turned into a config file (with --strict, a warning too)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "request", metavar="REQUEST.json", help="a CreateTrainingJob request (or just its Debugger fields)"
    )
    parser.add_argument(
        "--format", choices=("yaml", "json"), default="yaml", help="the config file's format (default yaml)"
    )
    add_setting_flags(parser, ("region", "job_name", "output_path", "instance_type", "rule_image_uri"))
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)


def run(args: argparse.Namespace) -> int:
    text, warned = _config_text(args)
    return write_output(text, args, warned)


def _config_text(args: argparse.Namespace) -> Tuple[str, bool]:
    """The config file's text, and whether a warning was said on stderr."""

    request = read_json(args.request)
    if not isinstance(request, dict):
        raise UsageError(f"{args.request}: expected a JSON object")
    rebuilt = from_request(request, **settings_given(args))
    # read again for positions (only once the request is known to be valid JSON), as large as a request may be
    locator = read(args.request, "request").locate
    findings = validate(request, region=rebuilt.settings.region)  # the config renders these again: say so now
    warned = say_findings(findings, args.request, lambda at: locator(pointer_parts(at)))
    config = dump(**rebuilt.render_kwargs())
    if args.format == "json":
        return dumps(config), warned
    return pyyaml().safe_dump(config, sort_keys=False, allow_unicode=True, default_flow_style=False), warned
