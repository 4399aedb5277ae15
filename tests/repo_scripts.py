"""The repository's scripts/ as the tests use them: a path to run, or the module to call."""

from __future__ import annotations

import importlib.util
import json
import os
from types import ModuleType

import pytest

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


def skip_unless_botocore_is_at_least_the_data_source(data_file: str) -> None:
    """Skip a drift test (a data file a script generated vs the installed botocore) when botocore is
    older than the one the file records (``x-botocore-version``): an older model, as at the oldest
    end of scripts/test_deps_range.sh, says nothing about drift. Newer or equal: the test runs."""
    import botocore

    with open(os.path.join(ROOT, "sm_debug_config", "data", data_file), encoding="utf-8") as handle:
        recorded = json.load(handle)["x-botocore-version"]

    def as_tuple(version: str) -> tuple:
        return tuple(int(p) for p in version.split(".")[:3])

    if as_tuple(botocore.__version__) < as_tuple(recorded):
        pytest.skip(f"botocore {botocore.__version__} is older than {recorded}, which {data_file} was generated from")
