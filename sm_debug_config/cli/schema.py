"""``sm-debug-config schema``: the config-file JSON Schema."""
from __future__ import annotations

import argparse
import sys

from sm_debug_config.cli.common import EXIT_OK, dumps
from sm_debug_config.configfile import config_schema

EPILOG = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """No arguments."""


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(dumps(config_schema()))
    return EXIT_OK
