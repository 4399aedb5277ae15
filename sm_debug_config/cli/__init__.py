"""The ``sm-debug-config`` command: render, validate and explain Debugger configs in CI.

Exit codes: 0 no error (no warning either under ``--strict``), 1 findings, 2 usage errors and
files that cannot be read or parsed. Every failure is one line on stderr, never a traceback.

Each command is a module with ``add_arguments(parser)`` and ``run(args) -> exit code`` (it
writes its own output), named in :data:`COMMANDS`: adding a command is one module and one row.
``main`` builds the parser of the command asked for only (the whole parser for ``--help``, an
unknown command or none), and heavy modules (yaml, boto3, the catalogue) are imported only by
the commands that need them, so that ``validate`` starts fast.
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Callable, Dict, Optional, Sequence

from sm_debug_config.cli import (
    checks,
    events,
    explain,
    from_request,
    lint,
    plan,
    render,
    rules,
    schema,
    status,
    validate,
)
from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_USAGE, PROG, SETTING_FLAGS, Parser, UsageError
from sm_debug_config.cli.render import RENDER_FORMATS
from sm_debug_config.errors import ConfigError, ConfigWarning

__all__ = ["COMMANDS", "Command", "PROG", "RENDER_FORMATS", "SETTING_FLAGS", "UsageError", "build_parser", "main"]


class Command:
    """A subcommand: how its arguments are declared, what runs it (returning the exit code), its ``--help`` texts."""

    __slots__ = ("add_arguments", "run", "help", "epilog", "description")

    def __init__(self, add_arguments: Callable[[argparse.ArgumentParser], None],
                 run: Callable[[argparse.Namespace], int], help: str,  # noqa: A002 - argparse's name
                 epilog: Optional[str] = None, description: Optional[str] = None) -> None:
        self.add_arguments, self.run = add_arguments, run
        self.help, self.epilog, self.description = help, epilog, description


#: Every subcommand, in the order ``--help`` lists them.
COMMANDS: Dict[str, Command] = {
    "render": Command(render.add_arguments, render.run, render.HELP, render.EPILOG),
    "validate": Command(validate.add_arguments, validate.run, validate.HELP, validate.EPILOG),
    "lint": Command(lint.add_arguments, lint.run, lint.HELP, lint.EPILOG),
    "explain": Command(explain.add_arguments, explain.run, explain.HELP, explain.EPILOG),
    "plan": Command(plan.add_arguments, plan.run, plan.HELP, plan.EPILOG, plan.DESCRIPTION),
    "rules": Command(rules.add_arguments, rules.run, rules.HELP, rules.EPILOG),
    "schema": Command(schema.add_arguments, schema.run, schema.HELP, schema.EPILOG),
    "checks": Command(checks.add_arguments, checks.run, checks.HELP, checks.EPILOG),
    "from-request": Command(from_request.add_arguments, from_request.run, from_request.HELP, from_request.EPILOG,
                            from_request.DESCRIPTION),
    "status": Command(status.add_arguments, status.run, status.HELP, status.EPILOG),
    "events": Command(events.add_arguments, events.run, events.HELP, events.EPILOG),
}


def build_parser(command: Optional[str] = None) -> argparse.ArgumentParser:
    """The command line: every subcommand, or only ``command`` (what ``main`` builds to run it)."""
    from sm_debug_config import __version__

    parser = Parser(prog=PROG, description="Render, validate and explain SageMaker Debugger configuration.",
                    epilog="exit codes: 0 success, 1 findings or a wrong configuration, 2 usage error or an "
                           "unreadable file (each command's --help says what they mean for it)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for name, spec in COMMANDS.items():
        if command is None or name == command:
            sub = commands.add_parser(name, help=spec.help, epilog=spec.epilog, description=spec.description)
            spec.add_arguments(sub)
    return parser


def _warning_line(caught: warnings.WarningMessage) -> str:
    """A Python warning a command let through, as one line: ours like a finding
    (``file:line:col: warning SMD120 /pointer: message``), another library's as Python prints it
    (``file:line: Category: message``), never under this program's name."""
    warning = caught.message
    if isinstance(warning, ConfigWarning):
        return warning.one_line(PROG)
    category = caught.category.__name__
    return f"{caught.filename}:{caught.lineno}: {category}: " + " ".join(str(warning).split())


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (0, 1 or 2)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                code = COMMANDS[args.command].run(args)  # it writes its output
                sys.stdout.flush()  # a full disk or closed pipe shows here, not as a traceback at exit
                return code
            finally:
                for warning in caught:
                    sys.stderr.write(_warning_line(warning) + "\n")
    except UsageError as err:  # every command's errors start with the program's name, as validate's do
        text = str(err)
        sys.stderr.write(f"{text if text.startswith(PROG) else PROG + ': ' + text}\n")
        return EXIT_USAGE
    except ConfigError as err:  # the configuration is wrong (unknown key, bad value, failed validation)
        sys.stderr.write(f"{PROG}: " + " ".join(str(err).split()) + "\n")
        return EXIT_FINDINGS
    except BrokenPipeError:
        return 0
    except OSError as err:  # e.g. writing the output failed (a full disk: render > /dev/full)
        if sys.stdout is sys.__stdout__:  # drop the unwritten output, or the flush at exit fails (unless embedded)
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - lives until exit
        sys.stderr.write(f"{PROG}: " + " ".join(f"{err.strerror or err}".split()) + "\n")
        return EXIT_FINDINGS
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except SystemExit as err:  # argparse --help / --version
        return int(err.code or 0)
    except Exception as err:  # noqa: BLE001 - the promise is: never a traceback
        sys.stderr.write(f"{PROG}: internal error: {type(err).__name__}: {err} (please report this)\n")
        return 70
