"""jupyter-lsp's spec of the language server, so that JupyterLab and SageMaker Studio (with jupyterlab-lsp) start
``sm-debug-config server`` for notebooks and config files: setup.cfg names :func:`spec` under jupyter-lsp's
``jupyter_lsp_spec_v1`` entry point group, which jupyter-lsp reads when it looks for the servers installed.

This module imports nothing of pygls: jupyter-lsp loads it in the Jupyter server's process.

>>> server_spec()["argv"][1:], server_spec()["languages"]
(['-m', 'sm_debug_config', 'server'], ['python', 'yaml', 'json'])
"""
from __future__ import annotations

import importlib.util
import sys
from typing import Any, Dict

__all__ = ["server_spec", "spec"]

HOME = "https://github.com/sm-debug-config/sm-debug-config"


def spec(manager: Any) -> Dict[str, Dict[str, Any]]:
    """jupyter-lsp's specs by name: the server's (:func:`server_spec`), none when the ``server`` extra is not
    installed (jupyter-lsp would start a server that cannot run). ``manager``: jupyter-lsp's
    ``LanguageServerManager`` (not needed)."""
    if importlib.util.find_spec("pygls") is None or importlib.util.find_spec("lsprotocol") is None:
        return {}
    return {"sm-debug-config": server_spec()}


def server_spec() -> Dict[str, Any]:
    """The server's spec, version 2 of jupyter-lsp's schema."""
    return {
        "version": 2,
        "display_name": "sm-debug-config (SageMaker Debugger configuration)",
        # the Python of this installation: the Jupyter server's environment has the package and its extra
        "argv": [sys.executable, "-m", "sm_debug_config", "server"],
        "languages": ["python", "yaml", "json"],
        "mime_types": ["text/x-python", "text/x-ipython", "text/x-yaml", "text/yaml", "application/json"],
        "urls": {"home": HOME, "issues": HOME + "/issues"},
        "install": {"pip": 'pip install "sm-debug-config[server]"'},
    }
