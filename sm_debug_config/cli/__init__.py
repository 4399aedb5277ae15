"""The ``sm-debug-config`` command: render, validate and explain Debugger configs in CI.

Exit codes: 0 no error (no warning either under ``--strict``), 1 findings, 2 usage errors and
files that cannot be read or parsed. Every failure is one line on stderr, never a traceback.

:data:`COMMANDS` is the command table, as pip keeps one: each name with the module that declares
and runs it (``add_arguments(parser)``, ``run(args) -> exit code``, its ``EPILOG`` and
``DESCRIPTION``) and its one-line summary. Only the module of the command asked for is imported
(every one for ``--help``, an unknown command or none), so command modules import what they
use at their top: adding a command is one module and one row.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import Callable, Dict, NamedTuple, Optional, Sequence

from sm_debug_config import __version__
from sm_debug_config.cli.common import EXIT_FINDINGS, EXIT_USAGE, PROG, SETTING_FLAGS, Parser, UsageError
from sm_debug_config.errors import ConfigError

__all__ = ["COMMANDS", "Command", "PROG", "SETTING_FLAGS", "UsageError", "build_parser", "main"]


class Command(NamedTuple):
    """A subcommand: the module that declares and runs it, and its one-line summary (``--help``'s list).

    A named tuple, not an attrs class: ``--help`` and ``--version`` would otherwise import attrs (half their
    start-up) for this one record.
    """

    module: str
    summary: str

    def load(self) -> ModuleType:
        """The command's module (imported on first use)."""
        return importlib.import_module(self.module)

    @property
    def add_arguments(self) -> Callable[[argparse.ArgumentParser], None]:
        return self.load().add_arguments  # type: ignore[no-any-return]

    @property
    def run(self) -> Callable[[argparse.Namespace], int]:
        return self.load().run  # type: ignore[no-any-return]


#: Every subcommand, in the order ``--help`` lists them.
COMMANDS: Dict[str, Command] = {
    "render": Command("sm_debug_config.cli.render", "print the CreateTrainingJob Debugger fields of a config file"),
    "validate": Command("sm_debug_config.cli.validate", "check config files and request JSON"),
    "lint": Command("sm_debug_config.cli.lint",
                    "check Debugger configuration in Python sources and notebooks without running them"),
    "explain": Command("sm_debug_config.cli.explain",
                       "show merged collections, where each parameter came from, and what each rule reads"),
    "plan": Command("sm_debug_config.cli.plan",
                    "run a launcher script against a local AWS (moto) and check every training job it starts"),
    "rules": Command("sm_debug_config.cli.rules", "the built-in rule catalogue"),
    "schema": Command("sm_debug_config.cli.schema", "print the config-file JSON Schema"),
    "checks": Command("sm_debug_config.cli.checks", "list the validation finding codes"),
    "from-request": Command("sm_debug_config.cli.from_request",
                            "the config file that renders a CreateTrainingJob request"),
    "status": Command("sm_debug_config.cli.status", "rule evaluation status of a training job"),
    "events": Command("sm_debug_config.cli.events", "EventBridge helpers"),
    "server": Command("sm_debug_config.cli.server",
                      "the language server (LSP over stdio) for editors: diagnostics, fixes, hover, completion"),
}


def build_parser(command: Optional[str] = None, *, listing: bool = False) -> argparse.ArgumentParser:
    """The command line: every subcommand, or only ``command`` (what ``main`` builds to run it); ``listing``: every
    subcommand by its summary only, importing no command module (``--help``, an unknown command or none)."""
    parser = Parser(prog=PROG, description="Render, validate and explain SageMaker Debugger configuration.",
                    epilog="exit codes: 0 success, 1 findings or a wrong configuration, 2 usage error or an "
                           "unreadable file (each command's --help says what they mean for it)")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for name, spec in COMMANDS.items():
        if listing:
            commands.add_parser(name, help=spec.summary)
        elif command is None or name == command:
            module = spec.load()
            sub = commands.add_parser(name, help=spec.summary, epilog=getattr(module, "EPILOG", None),
                                      description=getattr(module, "DESCRIPTION", None))
            module.add_arguments(sub)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code (0, 1 or 2)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        chosen = argv[0] if argv and argv[0] in COMMANDS else None
        args = build_parser(chosen, listing=chosen is None).parse_args(argv)
        # its findings are values it prints; another library's warnings print as Python prints them
        code = COMMANDS[args.command].load().run(args)  # it writes its output
        sys.stdout.flush()  # a full disk or closed pipe shows here, not as a traceback at exit
        return code
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
