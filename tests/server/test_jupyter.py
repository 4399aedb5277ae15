"""jupyter-lsp's entry point: setup.cfg names the spec function, which starts this package's server (runs without
the ``server`` extra: jupyter-lsp loads the spec in the Jupyter server's process)."""
from __future__ import annotations

import configparser
import importlib
import importlib.util
import os
import subprocess

from sm_debug_config.server import jupyter
from tests.server.lsphelpers import ENV, ROOT


def test_setup_cfg_registers_the_spec_under_jupyter_lsps_group():
    config = configparser.ConfigParser()
    config.read(os.path.join(ROOT, "setup.cfg"), encoding="utf-8")
    entries = dict(line.split(" = ", 1) for line in
                   config["options.entry_points"]["jupyter_lsp_spec_v1"].strip().splitlines())
    module, _, name = entries["sm-debug-config"].partition(":")
    assert getattr(importlib.import_module(module), name) is jupyter.spec


def test_the_spec_is_given_only_where_the_server_can_run():
    specs = jupyter.spec(None)
    installed = importlib.util.find_spec("pygls") is not None and importlib.util.find_spec("lsprotocol") is not None
    assert bool(specs) == installed
    if installed:
        found = specs["sm-debug-config"]
        assert found["version"] == 2 and "python" in found["languages"]
        run = subprocess.run([*found["argv"], "--help"], capture_output=True, text=True, env=ENV, check=False)
        assert run.returncode == 0 and "--stdio" in run.stdout
