"""``sm-debug-config server``: the language server (LSP over stdio) that checks documents as the editor holds them.

pygls and lsprotocol (the ``server`` extra) are imported when the server runs, not for ``--help``.
"""
from __future__ import annotations

import argparse

from sm_debug_config.cli.common import EXIT_OK, UsageError
from sm_debug_config.errors import install_hint

EPILOG = ("editors start it as `sm-debug-config server` and talk LSP over its standard input and output; "
          "docs/editors.md has the set-up for VS Code, Neovim, Helix and JupyterLab")
DESCRIPTION = ("A Language Server Protocol server: diagnostics (the findings of lint and validate on the unsaved "
               "text), quick fixes, hover and completion for launchers, notebooks and config files.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true",
                        help="talk LSP over standard input and output (the default and only transport; the flag "
                             "is taken because editors' clients pass it)")


def run(args: argparse.Namespace) -> int:
    try:
        # pygls and lsprotocol: optional (extra 'server'), loaded only when the server runs
        from sm_debug_config.server.app import serve
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        raise UsageError(f"the language server needs pygls and lsprotocol ({err.name} is missing): "
                         f"{install_hint('server')}") from None
    serve()
    return EXIT_OK
