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

import _thread  # the lock without importing threading (import time)
import importlib
from typing import Any, List

__version__ = "0.1.0"

#: The public names, by the module (under the package) each is imported from on first use.
_MODULES = {
    "errors": "ConfigError ConfigWarning",
    "model.hook": "CollectionConfig DebuggerHookConfig TensorBoardOutputConfig",
    "model.rules": "Rule RuleBase ProfilerRule DetailedProfilerProcessingJobConfig",
    "model.profiler": "ProfilerConfig FrameworkProfile DetailedProfilingConfig DataloaderProfilingConfig "
    "PythonProfilingConfig HorovodProfilingConfig SMDataParallelProfilingConfig Profiler PythonProfiler cProfileTimer",
    "model.regions": "get_rule_container_image_uri get_custom_rule_evaluator_image_uri",
    "checked": "render",
    "rendering": "artifact_paths",
    "model.settings": "JobSettings DebuggerSetup",
    "merge": "merge_collections",
    "findings": "Finding",
    "validation": "validate list_checks",
    "explaining": "explain",
    "update": "render_update",
    "apischema": "validate_api check_api SchemaError",
    "integrations.boto3_client": "create_training_job training_job_request upload_rule_sources",
    "reverse": "from_request RebuiltConfig",
    "integrations.sagemaker_core": "to_sagemaker_core",
    "integrations.sdk_objects": "from_sdk",
    "integrations.boto3_events": "attach_debugger",
    "documents.cloudformation": "to_cloudformation",
    "documents.terraform": "to_terraform",
    "model.images": "image_verdict",
    "configfile": "ConfigFileError load_config",
    "operations.events": "event_pattern stop_training_job_on_issues",
    "operations.status": "rule_job_summary rule_job_log_urls",
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names.split()}

_ALIASES = {"merge_collections": "merge", "load_config": "load", "attach_debugger": "attach"}

__all__ = sorted(list(_EXPORTS) + ["rule_configs"])


#: First uses from many threads at once import one at a time (the import system locks each module,
#: not the package namespace this fills in).
_IMPORT_LOCK = _thread.RLock()


def __getattr__(name: str) -> Any:
    """A public name on first use (later uses find it in the module's namespace).

    No public name is also a submodule's name (``from_request`` lives in ``reverse``, ``explain`` in
    ``explaining``): importing a submodule sets the package attribute of its name, which would
    replace a function of that name by the module.
    """
    if name != "rule_configs" and name not in _EXPORTS:
        raise AttributeError(f"module 'sm_debug_config' has no attribute {name!r}")
    with _IMPORT_LOCK:
        if name in globals():  # another thread got here first
            return globals()[name]
        # Packages first, then their modules: a thread that imports a package's module while
        # another imports the package (whose __init__ imports that module) can deadlock on the two
        # module locks, and CPython breaks that by failing one import (KeyError of the package).
        # validation is imported whole before any public name, because the functions behind the
        # names import its modules lazily from whatever thread calls them.
        importlib.import_module(f"{__name__}.validation")
        if name == "rule_configs":
            value: Any = importlib.import_module("rule_configs")
        else:
            parts = f"{__name__}.{_EXPORTS[name]}".split(".")
            for end in range(2, len(parts) + 1):
                module = importlib.import_module(".".join(parts[:end]))
            value = getattr(module, _ALIASES.get(name, name))
        globals()[name] = value
        return value


def __dir__() -> List[str]:
    return sorted(set(list(globals()) + __all__))


# Let plain ``estimator.fit()`` of the SDK v2 take our objects (inert without them; see integrations/sdk_patch.py).
from sm_debug_config.integrations import sdk_patch as _sdk_patch  # noqa: E402

_sdk_patch.install()
