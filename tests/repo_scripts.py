"""The repository's scripts/ as the tests use them: a path to run, or the module to call."""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script_path(name: str) -> str:
    """``scripts/<name>.py`` of this checkout."""
    return os.path.join(ROOT, "scripts", f"{name}.py")


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` imported as a module (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, script_path(name))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {script_path(name)}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
