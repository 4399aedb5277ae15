"""Lazy, cached access to the JSON data files shipped with the package (botocore-style)."""
from __future__ import annotations

import functools
import json
import os
from typing import Any

_HERE = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = os.path.join(_HERE, "data")
CATALOGUE_DIR = os.path.join(os.path.dirname(_HERE), "rule_configs")


@functools.lru_cache(maxsize=None)
def load(name: str) -> Any:
    """The parsed ``sm_debug_config/data/<name>.json`` (read once per process)."""
    with open(os.path.join(DATA_DIR, name + ".json"), encoding="utf-8") as handle:
        return json.load(handle)


@functools.lru_cache(maxsize=None)
def load_catalogue(name: str) -> Any:
    """The parsed ``rule_configs/<name>.json`` (``debugger_rules``, ``profiler_rules``, ``collections``), read once
    per process: callers copy what they hand out."""
    with open(os.path.join(CATALOGUE_DIR, name + ".json"), encoding="utf-8") as handle:
        return json.load(handle)
