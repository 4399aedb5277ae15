"""``sm-debug-config server``: the language server (LSP over stdio) that checks documents as the editor holds them.

pygls and lsprotocol come with the ``server`` extra; the command table imports this module only when the command
is asked for, so they are imported then, and their absence is said when the server is asked to run.
"""
from __future__ import annotations

import argparse
from typing import Optional

from sm_debug_config.cli.common import UsageError
from sm_debug_config.errors import install_hint

try:
    from sm_debug_config.server.app import serve
except ImportError as err:  # pygls or lsprotocol not installed: said when the server is asked to run
    if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
        raise
    serve = None  # type: ignore[assignment]
    _MISSING: Optional[str] = err.name
else:
    _MISSING = None

EPILOG = ("editors start it as `sm-debug-config server` and talk LSP over its standard input and output; "
          "docs/editors.md has the set-up for VS Code, Neovim, Helix and JupyterLab")
DESCRIPTION = ("A Language Server Protocol server: diagnostics (the findings of lint and validate on the unsaved "
               "text), quick fixes, hover and completion for launchers, notebooks and config files.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true",
                        help="talk LSP over standard input and output (the default and only transport; the flag "
                             "is taken because editors' clients pass it)")


def run(args: argparse.Namespace) -> int:
    if serve is None:
        raise UsageError(f"the language server needs pygls and lsprotocol ({_MISSING} is missing; Python 3.9 or "
                         f"later): {install_hint('server')}")
    return serve()  # 0 after a shutdown request, 1 for an exit without one (as LSP asks)
