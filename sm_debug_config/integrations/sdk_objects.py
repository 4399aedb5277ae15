"""``from_sdk``: objects built with the SageMaker SDK's debugger classes, as ours.

Existing setups move without rewriting: ``from_sdk(obj)`` takes an object of
``sagemaker.debugger`` (SDK v2), of its SDK v3 port ``sagemaker.core.debugger``, or an action
of ``smdebug_rulesconfig``, and returns the equivalent object of this package, which renders
the same ``CreateTrainingJob`` fields the SDK would send. Lists, tuples and dicts (for
example an Estimator's keyword arguments) are converted item by item.

Objects are recognised by class name and module, so neither SDK is imported here. The
conversions follow what the SDK keeps on each object:

* a built-in ``Rule`` (image ``DEFAULT_RULE_EVALUATOR_IMAGE``, or the region's
  ``sagemaker-debugger-rules`` image an Estimator put there) becomes ``Rule.sagemaker`` of
  the same built-in, with the parameters and collections that differ from the built-in's
  defaults passed as the user's; other rules keep their image, instance and parameters;
* a built-in ``ProfilerRule`` becomes ``ProfilerRule.sagemaker`` of the same rule;
* ``FrameworkProfile`` keeps only its ``ProfilingParameters`` in the SDK, so it is rebuilt
  from them the way :func:`sm_debug_config.from_request` rebuilds a request;
* convert before handing the SDK objects to an Estimator: ``fit()`` writes the job's name,
  paths and action JSON into them;
* anything else of the SDK raises :class:`~sm_debug_config.ConfigError` naming the class;
  an attribute our class has no place for raises too (nothing is dropped silently).
"""
from __future__ import annotations

import re
import types
from typing import Any, Callable, Dict, List, Optional

import sm_debug_config as smd
from sm_debug_config.errors import ConfigError
from sm_debug_config.errors import shorten

__all__ = ["SDK_MODULES", "from_sdk", "is_sdk_object"]

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

    >>> import types
    >>> SDKCollectionConfig = type("CollectionConfig", (), {"__module__": "sagemaker.debugger.debugger"})
    >>> sdk = SDKCollectionConfig(); sdk.name, sdk.parameters = "losses", {"save_interval": "10"}
    >>> from_sdk(sdk)
    CollectionConfig(name='losses', parameters={'save_interval': '10'})
    """
    from sm_debug_config.limits import check_depth

    check_depth(obj, field="obj")
    return _convert(obj)


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
            allowed="objects of sagemaker.debugger (SDK v2), sagemaker.core.debugger (SDK v3) or smdebug_rulesconfig actions: "
            + ", ".join(sorted(_CONVERTERS)),
        )
    return converter(obj)


def _collections(configs: Any) -> Optional[List[Any]]:
    if configs is None:
        return None
    return [from_sdk(config) for config in configs]


def _collection(sdk: Any) -> Any:
    return smd.CollectionConfig(sdk.name, dict(sdk.parameters) if sdk.parameters is not None else None)


def _hook(sdk: Any) -> Any:
    return smd.DebuggerHookConfig(
        s3_output_path=getattr(sdk, "s3_output_path", None),
        container_local_output_path=sdk.container_local_output_path,
        hook_parameters=dict(sdk.hook_parameters) if sdk.hook_parameters is not None else None,
        collection_configs=_collections(sdk.collection_configs),
    )


def _tensorboard(sdk: Any) -> Any:
    return smd.TensorBoardOutputConfig(sdk.s3_output_path, sdk.container_local_output_path)


def _actions(sdk: Any) -> Any:
    if sdk is None:
        return None
    return from_sdk(sdk)


def _action(cls_name: str, parameter: str) -> Callable[[Any], Any]:
    def convert(sdk: Any) -> Any:
        from sm_debug_config.model import actions

        value = dict(getattr(sdk, "action_parameters", {}) or {}).get(parameter)
        return getattr(actions, cls_name)(value) if (value is not None or cls_name != "StopTraining") else actions.StopTraining()

    return convert


def _action_list(sdk: Any) -> Any:
    from sm_debug_config.model import actions

    return actions.ActionList(*[from_sdk(action) for action in sdk.actions])


def _builtin_base_config(builtin: str) -> Optional[Dict[str, Any]]:
    """Our ``rule_configs`` base config whose ``rule_to_invoke`` is ``builtin``, if we know it."""
    rule_configs = smd.rule_configs
    for attr in dir(rule_configs):
        if not attr[:1].islower() or attr == "get_collection":
            continue
        function = getattr(rule_configs, attr)
        if not isinstance(function, types.FunctionType) or function.__code__.co_argcount:
            continue  # rule functions take no arguments
        base = function()
        if isinstance(base, dict) and ((base.get("DebugRuleConfiguration") or {}).get("RuleParameters") or {}).get("rule_to_invoke") == builtin:
            return base
    return None


def _same_collections(ours: Optional[List[Any]], base: List[Dict[str, Any]]) -> bool:
    given = [(c.name, dict(c.parameters or {})) for c in ours or []]
    return given == [(c.get("CollectionName"), dict(c.get("CollectionParameters") or {})) for c in base]


def _debugger_rule(sdk: Any) -> Any:
    params = dict(sdk.rule_parameters or {})
    collections = _collections(sdk.collection_configs)
    actions = _actions(getattr(sdk, "actions", None))
    if not _builtin_image(sdk.image_uri):
        return smd.Rule(sdk.name, sdk.image_uri, sdk.instance_type, sdk.container_local_output_path, sdk.s3_output_path,
                        sdk.volume_size_in_gb, params, collections, actions)
    builtin = params.get("rule_to_invoke") or sdk.name
    base = _builtin_base_config(builtin)
    known = base is not None
    if base is None:  # a built-in newer than our catalogue: keep what the SDK holds
        base = {"DebugRuleConfiguration": {"RuleConfigurationName": builtin, "RuleParameters": {"rule_to_invoke": builtin}},
                "CollectionConfigurations": [{"CollectionName": c.name, "CollectionParameters": dict(c.parameters or {})} for c in collections or []]}
    defaults = base["DebugRuleConfiguration"].get("RuleParameters") or {}
    other_trials = [params[key] for key in sorted((k for k in params if k.startswith("other_trial_")), key=lambda k: int(k.rsplit("_", 1)[1]))]
    user = {k: val for k, val in params.items() if k != "rule_to_invoke" and not k.startswith("other_trial_") and defaults.get(k) != val}
    rule = smd.Rule.sagemaker(
        base,
        name=sdk.name,
        container_local_output_path=sdk.container_local_output_path,
        s3_output_path=sdk.s3_output_path,
        other_trials_s3_input_paths=other_trials or None,
        rule_parameters=user or None,
        collections_to_save=None if _same_collections(collections, base.get("CollectionConfigurations") or []) else collections,
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
        return smd.ProfilerRule(sdk.name, sdk.image_uri, sdk.instance_type, sdk.container_local_output_path, sdk.s3_output_path,
                                sdk.volume_size_in_gb, params)
    base = types.SimpleNamespace(rule_name=params.get("rule_to_invoke") or sdk.name, rule_parameters=params)
    return smd.ProfilerRule.sagemaker(base, name=sdk.name, container_local_output_path=sdk.container_local_output_path,
                                      s3_output_path=sdk.s3_output_path, instance_type=sdk.instance_type,
                                      volume_size_in_gb=sdk.volume_size_in_gb)


def _framework_profile(sdk: Any) -> Any:
    params = dict(sdk.profiling_parameters)
    rebuilt = smd.from_request({"ProfilerConfig": {"ProfilingParameters": params}}, region="us-east-1")
    profile = rebuilt.profiler_config.framework_profile_params if rebuilt.profiler_config is not None else None
    if profile is None:
        raise ConfigError(f"the FrameworkProfile's profiling parameters {shorten(params)} do not describe a framework profile", field="FrameworkProfile")
    return profile


def _profiler(sdk: Any) -> Any:
    params = dict(sdk.profiling_parameters)
    return smd.Profiler(cpu_profiling_duration=params["CPUProfilingDuration"], file_rotation_interval=params["SMPFileRotationSecs"])


def _profiler_config(sdk: Any) -> Any:
    return smd.ProfilerConfig(
        s3_output_path=getattr(sdk, "s3_output_path", None),
        system_monitor_interval_millis=sdk.system_monitor_interval_millis,
        framework_profile_params=from_sdk(sdk.framework_profile_params),
        profile_params=from_sdk(getattr(sdk, "profile_params", None)),
        disable_profiler=bool(sdk.disable_profiler),
    )


def _enum_value(value: Any) -> Any:
    return getattr(value, "value", value)


def _metrics(cls_name: str) -> Callable[[Any], Any]:
    def convert(sdk: Any) -> Any:
        window = vars(sdk.range)
        kwargs: Dict[str, Any] = {k: window.get(k) for k in ("start_step", "num_steps", "start_unix_time", "duration")}
        if hasattr(sdk, "metrics_regex"):
            kwargs["metrics_regex"] = sdk.metrics_regex
        if hasattr(sdk, "python_profiler"):
            kwargs["python_profiler"] = _enum_value(sdk.python_profiler)
            if getattr(sdk, "cprofile_timer", None) is not None:
                kwargs["cprofile_timer"] = _enum_value(sdk.cprofile_timer)
        return getattr(smd, cls_name)(**kwargs)

    return convert


_CONVERTERS: Dict[str, Callable[[Any], Any]] = {
    "CollectionConfig": _collection,
    "DebuggerHookConfig": _hook,
    "TensorBoardOutputConfig": _tensorboard,
    "Rule": _debugger_rule,
    "ProfilerRule": _profiler_rule,
    "ProfilerConfig": _profiler_config,
    "FrameworkProfile": _framework_profile,
    "Profiler": _profiler,
    "DetailedProfilingConfig": _metrics("DetailedProfilingConfig"),
    "DataloaderProfilingConfig": _metrics("DataloaderProfilingConfig"),
    "PythonProfilingConfig": _metrics("PythonProfilingConfig"),
    "HorovodProfilingConfig": _metrics("HorovodProfilingConfig"),
    "SMDataParallelProfilingConfig": _metrics("SMDataParallelProfilingConfig"),
    "StopTraining": _action("StopTraining", "training_job_prefix"),
    "Email": _action("Email", "endpoint"),
    "SMS": _action("SMS", "endpoint"),
    "ActionList": _action_list,
}
