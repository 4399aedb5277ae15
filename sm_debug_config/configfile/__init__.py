"""Configuration files: YAML or JSON that mirrors the Python API, with ``file:line:col`` errors.

A config file holds the keyword arguments of :func:`sm_debug_config.render` and the objects
they take, spelled as the Python keyword arguments (``debugger_hook_config``, ``rules``,
``profiler_config``, ``tensorboard_output_config``, ``disable_profiler``, ``region``...).
Every object is built through the real constructors (``Rule.sagemaker``, ``Rule.custom``,
``ProfilerRule.sagemaker``, ``CollectionConfig``...), so every check of the Python API
applies; a mistake is reported as a one-line :class:`ConfigFileError` (a ``ConfigError``)
that starts with ``file:line:column:`` of the offending key.

>>> cfg = loads('''
... region: us-east-1
... output_path: s3://my-bucket/out/
... rules:
...   - builtin: VanishingGradient
...     rule_parameters: {threshold: 0.0001}
... ''')
>>> cfg.rules[0].rule_parameters
{'rule_to_invoke': 'VanishingGradient', 'threshold': '0.0001'}
>>> cfg.locate(("rules", 0, "rule_parameters", "threshold"))
(6, 23)
>>> sorted(cfg.render())
['DebugHookConfig', 'DebugRuleConfigurations', 'ProfilerConfig']

The package follows the way a file goes, each module importing only those before it:
:mod:`.text` (bytes, size, decoding), :mod:`.parse` (YAML into a tree with positions; the
limits), :mod:`.jsonparse` (JSON, positions found when asked), :mod:`.document` (a file parsed
once: data, locator, tree), :mod:`.format` (the one description of the format), :mod:`.read`
(the tree into objects), :mod:`.dump` (objects back into a config mapping, reloaded by the
reader to check), :mod:`.load` (``LoadedConfig`` and the entry points, :func:`read_file` for one
read of a file) and :mod:`.schema` (the JSON Schema of the format).
"""
from __future__ import annotations

from typing import Any

from sm_debug_config.configfile.document import DocumentLocator
from sm_debug_config.configfile.dump import dump, to_config
from sm_debug_config.configfile.format import table
from sm_debug_config.configfile.load import (
    ConfigFile,
    LoadedConfig,
    load,
    load_with_errors,
    loads,
    read_document,
    read_file,
    read_text,
)
from sm_debug_config.configfile.parse import FORMATS, MAX_DEPTH, MAX_VALUES
from sm_debug_config.configfile.schema import config_schema
from sm_debug_config.configfile.text import MAX_BYTES, ConfigFileError

_TABLES = {  # the key tables of earlier versions: {key: (kind, description)}, now views of the format
    "TOP_KEYS": "config",
    "HOOK_KEYS": "debugger_hook_config",
    "COLLECTION_KEYS": "collection",
    "BUILTIN_RULE_KEYS": "builtin_rule",
    "CUSTOM_RULE_KEYS": "custom_rule",
    "CUSTOM_PROFILER_RULE_KEYS": "custom_profiler_rule",
    "RAW_RULE_KEYS": "exact_rule",
    "RAW_PROFILER_RULE_KEYS": "exact_profiler_rule",
    "PROFILER_CONFIG_KEYS": "profiler_config",
    "FRAMEWORK_PROFILE_KEYS": "framework_profile",
    "METRIC_KEYS": "DetailedProfilingConfig",
    "PROFILER_KEYS": "profiler",
    "TENSORBOARD_KEYS": "tensorboard_output_config",
}

__all__ = [
    "ConfigFile",
    "ConfigFileError",
    "DocumentLocator",
    "FORMATS",
    "LoadedConfig",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_VALUES",
    "config_schema",
    "dump",
    "load",
    "load_with_errors",
    "loads",
    "read_document",
    "read_file",
    "read_text",
    "to_config",
] + list(_TABLES)


def __getattr__(name: str) -> Any:
    if name in _TABLES:
        return table(_TABLES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
