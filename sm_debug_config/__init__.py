"""sm-debug-config: SageMaker Debugger configuration that is correct, fast and checkable.

The classes of ``sagemaker.debugger`` (port code by changing the import), a deterministic
merge of rule and hook collections, and ``render`` for the raw ``CreateTrainingJob`` fields.

>>> import sm_debug_config as smd
>>> rule = smd.Rule.sagemaker(smd.rule_configs.vanishing_gradient())
>>> sorted(smd.render([rule], region="us-east-1", output_path="s3://bucket/out/"))
['DebugHookConfig', 'DebugRuleConfigurations', 'ProfilerConfig']

Names are imported on first use, so ``import sm_debug_config`` itself costs almost nothing.
"""
from __future__ import annotations

import importlib
from typing import Any, List

__version__ = "0.1.0"

_EXPORTS = {
    "ConfigError": "errors",
    "ConfigWarning": "errors",
    "CollectionConfig": "hook",
    "DebuggerHookConfig": "hook",
    "TensorBoardOutputConfig": "hook",
    "Rule": "rules",
    "RuleBase": "rules",
    "ProfilerRule": "rules",
    "DetailedProfilerProcessingJobConfig": "rules",
    "ProfilerConfig": "profiler",
    "FrameworkProfile": "profiler",
    "DetailedProfilingConfig": "profiler",
    "DataloaderProfilingConfig": "profiler",
    "PythonProfilingConfig": "profiler",
    "HorovodProfilingConfig": "profiler",
    "SMDataParallelProfilingConfig": "profiler",
    "Profiler": "profiler",
    "PythonProfiler": "profiler",
    "cProfileTimer": "profiler",
    "get_rule_container_image_uri": "regions",
    "get_custom_rule_evaluator_image_uri": "regions",
    "render": "rendering",
    "artifact_paths": "rendering",
    "merge_collections": "merging",
    "validate": "validation",
    "Finding": "validation",
    "list_checks": "validation",
    "explain": "explain",
    "render_update": "update",
    "validate_api": "apischema",
    "check_api": "apischema",
    "SchemaError": "apischema",
    "create_training_job": "client",
    "training_job_request": "client",
    "upload_rule_sources": "client",
    "from_request": "from_request",
    "RebuiltConfig": "from_request",
    "to_sagemaker_core": "sagemaker_core",
    "ConfigFileError": "configfile",
    "load_config": "configfile",
    "event_pattern": "events",
    "stop_training_job_on_issues": "events",
    "rule_job_summary": "status",
    "rule_job_log_urls": "status",
}

_ALIASES = {"merge_collections": "merge", "load_config": "load"}

__all__ = sorted(list(_EXPORTS) + ["rule_configs"])


def __getattr__(name: str) -> Any:
    if name == "rule_configs":
        module = importlib.import_module("rule_configs")
        globals()[name] = module
        return module
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module 'sm_debug_config' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{where}"), _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> List[str]:
    return sorted(set(list(globals()) + __all__))
