"""``from_sdk``: objects built with the SageMaker SDK's debugger classes, as ours.

Takes objects of ``sagemaker.debugger`` (SDK v2), ``sagemaker.core.debugger`` (SDK v3) and
``smdebug_rulesconfig`` actions, recognised by class name and module (no SDK import), and returns
ours, which render the same ``CreateTrainingJob`` fields. Anything it cannot carry over is a
:class:`~sm_debug_config.ConfigError`: nothing is dropped silently. Given the SDK v2 hook and rules together, it
warns SMD117 for a collection the SDK would send more than once with different save configurations or reductions
(ours send one merged entry).
"""
from __future__ import annotations

import copy
import re
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.limits import check_depth
from sm_debug_config.merge import merge, sdk_v2_findings
from sm_debug_config.model import actions, catalogue
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import (
    DataloaderProfilingConfig,
    DetailedProfilingConfig,
    HorovodProfilingConfig,
    Profiler,
    ProfilerConfig,
    PythonProfilingConfig,
    SMDataParallelProfilingConfig,
)
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.reverse import from_request
from sm_debug_config.validation.run import raise_or_warn

__all__ = ["SDK_ARGUMENTS", "SDK_MODULES", "from_sdk", "is_sdk_object"]

#: The SDK ``Rule``/``ProfilerRule`` arguments kept as given, and the rendered rule entry keys they become.
RULE_KEYS = {
    "name": "RuleConfigurationName",
    "image_uri": "RuleEvaluatorImage",
    "instance_type": "InstanceType",
    "container_local_output_path": "LocalPath",
    "s3_output_path": "S3OutputPath",
    "volume_size_in_gb": "VolumeSizeInGB",
}
_RULE = tuple(RULE_KEYS)
#: Constructor arguments that our classes and their ``sagemaker.debugger`` namesakes both take and keep
#: as attributes of the same names (``collections_to_save`` is kept as ``collection_configs``).
SDK_ARGUMENTS: Dict[str, Tuple[str, ...]] = {
    "CollectionConfig": ("name", "parameters"),
    "DebuggerHookConfig": ("s3_output_path", "container_local_output_path", "hook_parameters", "collection_configs"),
    "TensorBoardOutputConfig": ("s3_output_path", "container_local_output_path"),
    "Rule": _RULE + ("rule_parameters", "collections_to_save", "actions"),
    "ProfilerRule": _RULE + ("rule_parameters",),
    "ProfilerConfig": (
        "s3_output_path",
        "system_monitor_interval_millis",
        "framework_profile_params",
        "profile_params",
        "disable_profiler",
    ),
}
#: Module prefixes whose debugger classes are converted.
SDK_MODULES = ("sagemaker.debugger", "sagemaker.core.debugger", "smdebug_rulesconfig")
_DEFAULT_IMAGE = "DEFAULT_RULE_EVALUATOR_IMAGE"
# An Estimator replaces the placeholder with the region's built-in rules image when it starts a job.
_BUILTIN_IMAGE = re.compile(r"^\d{12}\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com(\.cn)?/sagemaker-debugger-rules:")


def _builtin_image(uri: Any) -> bool:
    return uri == _DEFAULT_IMAGE or (isinstance(uri, str) and _BUILTIN_IMAGE.match(uri) is not None)


def is_sdk_object(obj: Any) -> bool:
    """True for an instance of a class defined in one of :data:`SDK_MODULES`."""
    module = type(obj).__module__ or ""
    return any(module == prefix or module.startswith(prefix + ".") for prefix in SDK_MODULES)


def _is_ours(obj: Any) -> bool:
    return (type(obj).__module__ or "").startswith(("sm_debug_config.", "rule_configs"))


def from_sdk(obj: Any) -> Any:
    """The sm-debug-config equivalent of an SDK debugger object (or of a list/dict of them).

    Convert before handing SDK objects to an Estimator: ``fit()`` writes job names and paths into them.

    >>> SDKCollectionConfig = type("CollectionConfig", (), {"__module__": "sagemaker.debugger.debugger"})
    >>> sdk = SDKCollectionConfig(); sdk.name, sdk.parameters = "losses", {"save_interval": "10"}
    >>> from_sdk(sdk)
    CollectionConfig(name='losses', parameters={'save_interval': '10'})
    """

    check_depth(obj, field="obj")
    converted = _convert(obj)
    raise_or_warn(_sent_more_than_once(obj, converted))
    return converted


def _top_items(value: Any) -> List[Any]:
    """The objects of a list, tuple or dict given to :func:`from_sdk` (and of the lists among its values)."""
    items = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, (list, tuple)) else []
    return [x for item in items for x in (item if isinstance(item, (list, tuple)) else [item])]


def _sent_more_than_once(given: Any, converted: Any) -> List[Any]:
    """SMD117 for the collections the SDK v2 would send more than once for the hook and rules ``given`` together
    (each distinct ``CollectionConfig``, in the order of a set that changes from launch to launch); ours send one
    merged entry per collection."""
    pairs = list(zip(_top_items(given), _top_items(converted)))
    v2 = [ours for sdk, ours in pairs if (type(sdk).__module__ or "").startswith("sagemaker.debugger")]
    rules = [o for o in v2 if isinstance(o, Rule)]
    hooks = [o for o in v2 if isinstance(o, DebuggerHookConfig)]
    if len(hooks) > 1 or not rules:
        return []
    hook = hooks[0] if hooks else None
    collections = merge(hook.collection_configs or [] if hook is not None else [], rules)
    return sdk_v2_findings(collections, hook.hook_parameters if hook is not None else None)


def _convert(obj: Any) -> Any:
    if obj is None or isinstance(obj, (bool, str, int, float)) or _is_ours(obj):
        return obj
    if isinstance(obj, (list, tuple)):
        return type(obj)(_convert(item) for item in obj)
    if isinstance(obj, dict):
        return {key: _convert(value) for key, value in obj.items()}
    converter = _CONVERTERS.get(type(obj).__name__) if is_sdk_object(obj) else None
    if converter is None:
        raise ConfigError(
            f"cannot convert a {type(obj).__module__}.{type(obj).__name__}",
            field=type(obj).__name__,
            allowed="objects of sagemaker.debugger (SDK v2), sagemaker.core.debugger (SDK v3) "
                    "or smdebug_rulesconfig actions: "
            + ", ".join(sorted(_CONVERTERS)),
        )
    return converter(obj)


def sdk_arguments(obj: Any, cls_name: str, convert: Callable[[Any], Any]) -> Dict[str, Any]:
    """``SDK_ARGUMENTS[cls_name]`` read from ``obj`` (ours or the SDK's), each value through ``convert``."""
    names = {arg: "collection_configs" if arg == "collections_to_save" else arg for arg in SDK_ARGUMENTS[cls_name]}
    return {arg: convert(getattr(obj, name, None)) for arg, name in names.items()}


def _value(value: Any) -> Any:
    """An attribute of an SDK object as ours takes it: maps copied, SDK objects converted, the rest as is."""
    if isinstance(value, dict):
        return dict(value)
    return _convert(value) if isinstance(value, (list, tuple)) or is_sdk_object(value) else value


#: Our class of each SDK class name built from the same arguments (or the same metrics window).
_OURS: Dict[str, Any] = {
    cls.__name__: cls
    for cls in (
        CollectionConfig,
        DebuggerHookConfig,
        TensorBoardOutputConfig,
        DetailedProfilingConfig,
        DataloaderProfilingConfig,
        PythonProfilingConfig,
        HorovodProfilingConfig,
        SMDataParallelProfilingConfig,
    )
}


def _same_arguments(sdk: Any) -> Any:
    cls_name = type(sdk).__name__
    return _OURS[cls_name](**sdk_arguments(sdk, cls_name, _value))


def _action(sdk: Any) -> Any:
    name = type(sdk).__name__
    if name == "ActionList":
        return actions.ActionList(*[from_sdk(action) for action in sdk.actions])
    value = dict(getattr(sdk, "action_parameters", {}) or {}).get(
        "training_job_prefix" if name == "StopTraining" else "endpoint"
    )
    return actions.StopTraining() if name == "StopTraining" and value is None else getattr(actions, name)(value)


def _builtin_base_config(builtin: str) -> Optional[Dict[str, Any]]:
    """A copy of the catalogue's base config whose ``rule_to_invoke`` is ``builtin``, if we know it."""

    for entry in catalogue.rules("debugger").values():
        if (entry["base_config"]["DebugRuleConfiguration"].get("RuleParameters") or {}).get(
            "rule_to_invoke"
        ) == builtin:
            return copy.deepcopy(entry["base_config"])
    return None


def _same_collections(ours: Optional[List[Any]], base: List[Dict[str, Any]]) -> bool:
    given = [(c.name, dict(c.parameters or {})) for c in ours or []]
    return given == [(c.get("CollectionName"), dict(c.get("CollectionParameters") or {})) for c in base]


def _debugger_rule(sdk: Any) -> Any:
    # A built-in (its image the placeholder or the region's) becomes Rule.sagemaker of the same
    # built-in, given only the parameters and collections that differ from its defaults.
    arguments = dict(sdk_arguments(sdk, "Rule", _value), rule_parameters=dict(sdk.rule_parameters or {}))
    params, collections, actions = arguments["rule_parameters"], arguments["collections_to_save"], arguments["actions"]
    if not _builtin_image(sdk.image_uri):
        return Rule(**arguments)
    builtin = params.get("rule_to_invoke") or sdk.name
    base = _builtin_base_config(builtin)
    known = base is not None
    if base is None:  # a built-in newer than our catalogue: keep what the SDK holds
        base = {
            "DebugRuleConfiguration": {"RuleConfigurationName": builtin, "RuleParameters": {"rule_to_invoke": builtin}},
            "CollectionConfigurations": [
                {"CollectionName": c.name, "CollectionParameters": dict(c.parameters or {})} for c in collections or []
            ],
        }
    defaults = base["DebugRuleConfiguration"].get("RuleParameters") or {}
    other_trials = [
        params[key]
        for key in sorted((k for k in params if k.startswith("other_trial_")), key=lambda k: int(k.rsplit("_", 1)[1]))
    ]
    user = {
        k: val
        for k, val in params.items()
        if k != "rule_to_invoke" and not k.startswith("other_trial_") and defaults.get(k) != val
    }
    rule = Rule.sagemaker(
        base,
        name=sdk.name,
        container_local_output_path=sdk.container_local_output_path,
        s3_output_path=sdk.s3_output_path,
        other_trials_s3_input_paths=other_trials or None,
        rule_parameters=user or None,
        collections_to_save=None
        if _same_collections(collections, base.get("CollectionConfigurations") or [])
        else collections,
        actions=actions,
        allow_unknown_parameters=not known,
    )
    # Rule.sagemaker has no instance or volume arguments; the SDK object may still hold them.
    if sdk.instance_type is not None:
        rule.instance_type = sdk.instance_type
    if sdk.volume_size_in_gb is not None:
        rule.volume_size_in_gb = sdk.volume_size_in_gb
    return rule


def _profiler_rule(sdk: Any) -> Any:
    params = dict(sdk.rule_parameters or {})
    if not _builtin_image(sdk.image_uri):
        return ProfilerRule(**dict(sdk_arguments(sdk, "ProfilerRule", _value), rule_parameters=params))
    base = types.SimpleNamespace(rule_name=params.get("rule_to_invoke") or sdk.name, rule_parameters=params)
    return ProfilerRule.sagemaker(base, name=sdk.name, container_local_output_path=sdk.container_local_output_path,
                                      s3_output_path=sdk.s3_output_path, instance_type=sdk.instance_type,
                                      volume_size_in_gb=sdk.volume_size_in_gb)


def _framework_profile(sdk: Any) -> Any:
    # the SDK's FrameworkProfile keeps only its ProfilingParameters: rebuilt from them as from_request does
    params = dict(sdk.profiling_parameters)
    rebuilt = from_request({"ProfilerConfig": {"ProfilingParameters": params}}, region="us-east-1")
    profile = rebuilt.profiler_config.framework_profile_params if rebuilt.profiler_config is not None else None
    if profile is None:
        raise ConfigError(
            f"the FrameworkProfile's profiling parameters {shorten(params)} do not describe a framework profile",
            field="FrameworkProfile",
        )
    return profile


def _profiler(sdk: Any) -> Any:
    params = dict(sdk.profiling_parameters)
    return Profiler(
        cpu_profiling_duration=params["CPUProfilingDuration"], file_rotation_interval=params["SMPFileRotationSecs"]
    )


def _profiler_config(sdk: Any) -> Any:
    arguments = sdk_arguments(sdk, "ProfilerConfig", _value)
    return ProfilerConfig(**dict(arguments, disable_profiler=bool(sdk.disable_profiler)))


def _enum_value(value: Any) -> Any:
    return getattr(value, "value", value)


def _metrics(sdk: Any) -> Any:
    window = vars(sdk.range)
    kwargs: Dict[str, Any] = {k: window.get(k) for k in ("start_step", "num_steps", "start_unix_time", "duration")}
    if hasattr(sdk, "metrics_regex"):
        kwargs["metrics_regex"] = sdk.metrics_regex
    if hasattr(sdk, "python_profiler"):
        kwargs["python_profiler"] = _enum_value(sdk.python_profiler)
        if getattr(sdk, "cprofile_timer", None) is not None:
            kwargs["cprofile_timer"] = _enum_value(sdk.cprofile_timer)
    return _OURS[type(sdk).__name__](**kwargs)


_CONVERTERS: Dict[str, Callable[[Any], Any]] = {
    **dict.fromkeys(("CollectionConfig", "DebuggerHookConfig", "TensorBoardOutputConfig"), _same_arguments),
    "Rule": _debugger_rule,
    "ProfilerRule": _profiler_rule,
    "ProfilerConfig": _profiler_config,
    "FrameworkProfile": _framework_profile,
    "Profiler": _profiler,
    **dict.fromkeys(
        (
            "DetailedProfilingConfig",
            "DataloaderProfilingConfig",
            "PythonProfilingConfig",
            "HorovodProfilingConfig",
            "SMDataParallelProfilingConfig",
        ),
        _metrics,
    ),
    **dict.fromkeys(("StopTraining", "Email", "SMS", "ActionList"), _action),
}
