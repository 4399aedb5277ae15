"""Rebuild sm-debug-config objects from a ``CreateTrainingJob`` request or a ``DescribeTrainingJob`` response.

:func:`from_request` is the inverse of :func:`~sm_debug_config.render`: rendering what it
returns gives the Debugger fields it was given (``rebuilt.render() == fields``) for every
request that ``render`` or the SDK v2 Estimator produced. It prefers the objects a person
would have written (``Rule.sagemaker(rule_configs.vanishing_gradient())`` with only the
non-default parameters, ``StopTraining()`` for the job's own name, ``None`` for defaulted
paths and hooks), checks each against the field it came from and falls back to an exact,
more literal form where the natural one would render differently.

Collections: ``render`` merged the hook's and the rules' collections into the hook, so the
rebuilt hook carries them all (or none, when they are exactly what the rules alone ask
for), and a rule keeps those default collections the hook's entries already cover.
"""
from __future__ import annotations

import ast
import functools
import re
from typing import Any, Dict, List, Optional, Tuple, Union

import attrs

from sm_debug_config.model import validators as v
from sm_debug_config.model import catalogue
from sm_debug_config.model import regions
from sm_debug_config.model.actions import ActionList, StopTraining, parse_action_json
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.limits import check_shape
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.merge import merge
from sm_debug_config.model.profiler import (
    ALL_METRIC_CONFIGS,
    DataloaderProfilingConfig,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
    PythonProfilingConfig,
)
from sm_debug_config.rendering import FIELDS, detailed_profiler_rule
from sm_debug_config.model.rules import DETAILED_PROFILER_PREFIX, DetailedProfilerProcessingJobConfig, ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings

__all__ = ["REQUEST_SETTINGS", "RebuiltConfig", "from_request", "request_settings"]

_OTHER_TRIAL_RE = re.compile(r"^other_trial_(\d+)$")
_PLACEHOLDER_OUTPUT = "s3://sm-debug-config-placeholder/output/"
_PROFILER_KEYS = ("CPUProfilingDuration", "SMPFileRotationSecs")


#: Where a ``CreateTrainingJob`` request (or ``DescribeTrainingJob`` response) holds
#: :class:`JobSettings` values; the region is told by the ARN or the images instead.
REQUEST_SETTINGS = {
    "job_name": ("TrainingJobName",),
    "output_path": ("OutputDataConfig", "S3OutputPath"),
    "instance_type": ("ResourceConfig", "InstanceType"),
}


def request_settings(source: Dict[str, Any]) -> Dict[str, Any]:
    """The :class:`JobSettings` values ``source`` (a request or response) holds, by setting name.

    >>> request_settings({"TrainingJobName": "job-1", "ResourceConfig": {"InstanceType": "ml.p3.2xlarge"}})
    {'job_name': 'job-1', 'instance_type': 'ml.p3.2xlarge'}
    """
    out: Dict[str, Any] = {}
    for name, keys in REQUEST_SETTINGS.items():
        value: Any = source
        for key in keys:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str):
            out[name] = value
    return out


@attrs.frozen
class RebuiltConfig:
    """The objects and settings a request was rendered from; ``render()`` gives its fields back.

    ``setup`` holds the objects, ``settings`` the job's settings; their fields read as
    attributes too (``rebuilt.rules``, ``rebuilt.region``...). ``present_fields`` lists the
    Debugger fields the source carried (a response may lack some: ``render`` always writes
    ``ProfilerConfig``, for instance).
    """

    setup: DebuggerSetup
    settings: JobSettings
    present_fields: Tuple[str, ...] = ()

    def __getattr__(self, name: str) -> Any:
        """``setup``'s and ``settings``' fields as attributes (``rebuilt.rules``, ``rebuilt.job_name``)."""
        for part in ("setup", "settings"):
            holder = object.__getattribute__(self, part)
            if name in type(holder).names():
                return getattr(holder, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def render_settings(self) -> JobSettings:
        """``settings``, checked to have a region (``ConfigError`` if the request did not tell it)."""
        if self.settings.region is None:
            raise ConfigError(
                "the region could not be told from the request (no TrainingJobArn, no rule or training image URI)",
                field="region",
                allowed="from_request(..., region='us-east-1')",
            )
        return self.settings

    def render_kwargs(self) -> Dict[str, Any]:
        """Keyword arguments for :func:`~sm_debug_config.render`: the objects and the settings that are not defaults."""
        settings = self.render_settings()
        defaults = JobSettings()
        changed = {k: val for k, val in settings.to_dict().items() if k == "region" or val != getattr(defaults, k)}
        return dict(self.setup.to_dict(), **changed)

    def render(self, **overrides: Any) -> Dict[str, Any]:
        """``render(**self.render_kwargs(), **overrides)``: the Debugger fields again."""
        from sm_debug_config.rendering import render_model

        setup = attrs.evolve(self.setup, **{k: val for k, val in overrides.items() if k in DebuggerSetup.names()})
        job = {k: val for k, val in overrides.items() if k not in DebuggerSetup.names()}
        return render_model(setup, JobSettings.build(self.render_settings(), job)).request


def _region(source: Dict[str, Any], images: List[str]) -> Optional[str]:
    found = regions.region_of_arn(source.get("TrainingJobArn"))
    if found:
        return found
    algorithm = source.get("AlgorithmSpecification")
    training_image = algorithm.get("TrainingImage") if isinstance(algorithm, dict) else None
    for image in images + ([training_image] if isinstance(training_image, str) else []):
        found = regions.region_of_image(image)
        if found:
            return found
    return None


def _builtin_image(name: str, settings: JobSettings) -> Optional[str]:
    if settings.region is None:
        return None
    try:
        return regions.builtin_image_for(name, settings.region, settings.rule_image_uri)
    except ConfigError:
        return None


def _render_one(rule: Any, settings: JobSettings) -> Optional[Dict[str, Any]]:
    """The entry ``rule`` renders to on its own with ``settings`` (``None`` when it cannot be rendered there)."""
    from sm_debug_config.rendering import render_model

    if settings.region is None:
        return None
    # only what decides a rule entry: the image (region, rule_image_uri) and the actions' job name
    alone = JobSettings(
        region=settings.region,
        output_path=settings.output_path or _PLACEHOLDER_OUTPUT,
        job_name=settings.job_name,
        rule_image_uri=settings.rule_image_uri,
        validate=False,
    )
    try:
        if isinstance(rule, Rule):
            return render_model(DebuggerSetup(rules=[rule], disable_profiler=True), alone).request["DebugRuleConfigurations"][0]
        return render_model(DebuggerSetup(rules=[rule]), alone).request["ProfilerRuleConfigurations"][0]
    except ConfigError:
        return None


def _first_matching(entry: Dict[str, Any], builders: List[Any], settings: JobSettings) -> Any:
    """The first candidate that renders to ``entry``; else the first that could be built."""
    built = []
    for build in builders:
        try:
            candidate = build()
        except ConfigError:
            continue
        if candidate is None:
            continue
        if _render_one(candidate, settings) == entry:
            return candidate
        built.append(candidate)
    if not built:
        raise ConfigError(f"cannot rebuild rule {shorten(entry.get('RuleConfigurationName'))} from {shorten(entry)}", field="request")
    return built[0]


def _action_variants(params: Dict[str, Any], field: str, job_name: Optional[str]) -> List[Any]:
    """The actions of ``action_json``: with ``StopTraining()`` for the job's own name first, then as written."""
    text = params.pop("action_json", None)
    if text is None:
        return [None]
    parsed = parse_action_json(text, field=field)
    items = list(parsed)
    defaulted = [
        StopTraining() if isinstance(a, StopTraining) and job_name is not None and a.action_parameters.get("training_job_prefix") == job_name else a
        for a in items
    ]
    if defaulted == items:
        return [parsed]
    return [ActionList(*defaulted) if isinstance(parsed, ActionList) else defaulted[0], parsed]


def _other_trials(params: Dict[str, Any]) -> List[Any]:
    trials = []
    index = 0
    while f"other_trial_{index}" in params:
        trials.append(params.pop(f"other_trial_{index}"))
        index += 1
    return trials


def _is_builtin_image(image: Any) -> bool:
    """A built-in rule image (``.../sagemaker-debugger-rules:latest``), whatever the region's account."""
    return isinstance(image, str) and image.rsplit("/", 1)[-1].split(":", 1)[0] == "sagemaker-debugger-rules"


def _requested_resources(entry: Dict[str, Any], builtin_image: bool) -> Tuple[Any, Any]:
    """``(InstanceType, VolumeSizeInGB)`` as requested: a ``DescribeTrainingJob`` response fills
    both into a built-in rule that was sent without them (``VolumeSizeInGB: 0`` and the instance
    the service chose), so those are dropped for a built-in rule image; a request keeps them."""
    instance, volume = entry.get("InstanceType"), entry.get("VolumeSizeInGB")
    if builtin_image and volume == 0:
        return None, None
    return instance, volume


def _debugger_rule(entry: Dict[str, Any], index: int, settings: JobSettings) -> Rule:
    if not isinstance(entry, dict) or not isinstance(entry.get("RuleConfigurationName"), str):
        raise ConfigError(f"expected a DebugRuleConfiguration, got {shorten(entry)}", field=f"DebugRuleConfigurations[{index}]")
    name = entry["RuleConfigurationName"]
    image: Any = entry.get("RuleEvaluatorImage")  # the service checks it; a rebuilt rule keeps what was sent
    all_params = dict(entry.get("RuleParameters") or {})
    variants = _action_variants(all_params, f"DebugRuleConfigurations[{index}].RuleParameters.action_json", settings.job_name)
    local, s3 = entry.get("LocalPath"), entry.get("S3OutputPath")
    instance, volume = _requested_resources(entry, image == _builtin_image(name, settings) or _is_builtin_image(image))

    def builtin(actions: Any) -> Optional[Rule]:
        to_invoke = all_params.get("rule_to_invoke")
        if instance is not None or volume is not None or "source_s3_uri" in all_params or not isinstance(to_invoke, str):
            return None
        if image != _builtin_image(name, settings):
            return None
        kind, spec = catalogue.find(to_invoke)
        if kind != "debugger":
            return None
        import rule_configs

        base = getattr(rule_configs, spec["function"])()
        defaults = base["DebugRuleConfiguration"].get("RuleParameters", {})
        params = dict(all_params)
        trials = _other_trials(params)
        user = {k: val for k, val in params.items() if k != "rule_to_invoke" and defaults.get(k) != val}
        return Rule.sagemaker(
            base,
            name=name,
            container_local_output_path=local,
            s3_output_path=s3,
            other_trials_s3_input_paths=trials or None,
            rule_parameters=user or None,
            actions=actions,
        )

    def custom(actions: Any) -> Optional[Rule]:
        if instance is None or volume is None:
            return None
        params = dict(all_params)
        trials = _other_trials(params)
        source, to_invoke = params.pop("source_s3_uri", None), params.pop("rule_to_invoke", None)
        return Rule.custom(
            name, image, instance, volume, source=source, rule_to_invoke=to_invoke,
            container_local_output_path=local, s3_output_path=s3, other_trials_s3_input_paths=trials or None,
            rule_parameters=params or None, actions=actions,
        )

    def literal(actions: Any) -> Rule:
        return Rule(name, image, instance, local, s3, volume, dict(all_params), [], actions)

    builders = [functools.partial(build, actions) for build in (builtin, custom, literal) for actions in variants]
    return _first_matching(entry, builders, settings)


def _profiler_rule(entry: Dict[str, Any], index: int, settings: JobSettings) -> ProfilerRule:
    if not isinstance(entry, dict) or not isinstance(entry.get("RuleConfigurationName"), str):
        raise ConfigError(f"expected a ProfilerRuleConfiguration, got {shorten(entry)}", field=f"ProfilerRuleConfigurations[{index}]")
    name = entry["RuleConfigurationName"]
    image: Any = entry.get("RuleEvaluatorImage")  # the service checks it; a rebuilt rule keeps what was sent
    all_params = dict(entry.get("RuleParameters") or {})
    local, s3 = entry.get("LocalPath"), entry.get("S3OutputPath")
    instance, volume = _requested_resources(entry, image == _builtin_image(name, settings) or _is_builtin_image(image))

    def builtin() -> Optional[ProfilerRule]:
        to_invoke = all_params.get("rule_to_invoke")
        if "source_s3_uri" in all_params or not isinstance(to_invoke, str) or image != _builtin_image(name, settings):
            return None
        if name.startswith(DETAILED_PROFILER_PREFIX):
            if all_params != DetailedProfilerProcessingJobConfig().rule_parameters:
                return None
            base: Any = DetailedProfilerProcessingJobConfig()
        else:
            kind, _spec = catalogue.find(to_invoke)
            if kind != "profiler":
                return None
            import rule_configs

            base = getattr(rule_configs, catalogue.canonical_name(to_invoke))(**{k: val for k, val in all_params.items() if k != "rule_to_invoke"})
        return ProfilerRule.sagemaker(base, name=name, container_local_output_path=local, s3_output_path=s3, instance_type=instance, volume_size_in_gb=volume)

    def custom() -> Optional[ProfilerRule]:
        if instance is None or volume is None:
            return None
        params = dict(all_params)
        source, to_invoke = params.pop("source_s3_uri", None), params.pop("rule_to_invoke", None)
        return ProfilerRule.custom(
            name, image, instance, volume, source=source, rule_to_invoke=to_invoke,
            container_local_output_path=local, s3_output_path=s3, rule_parameters=params or None,
        )

    def literal() -> ProfilerRule:
        return ProfilerRule(name, image, instance, local, s3, volume, dict(all_params))

    return _first_matching(entry, [builtin, custom, literal], settings)


def _covered(config: CollectionConfig, hook_entries: Dict[str, Dict[str, Any]]) -> bool:
    """Whether merging ``config`` into the hook's entry of that name changes nothing."""
    entry = hook_entries.get(config.name)
    if entry is None:
        return False
    if config.parameters is None:
        return True
    present = entry.get("CollectionParameters")
    return present is not None and all(key in present for key in config.parameters)


def _hook(source: Dict[str, Any], rules: List[Rule], settings: JobSettings) -> Union[DebuggerHookConfig, bool, None]:
    hook = source.get("DebugHookConfig")
    if hook is None:
        return None if settings.region is not None and not regions.supports_debugger(settings.region) else False
    if not isinstance(hook, dict):
        raise ConfigError(f"expected a dict, got {v.type_name(hook)}", field="DebugHookConfig")
    entries = list(hook.get("CollectionConfigurations") or [])
    for index, entry in enumerate(entries):  # the API takes an entry without a name; no CollectionConfig has none
        if not isinstance(entry.get("CollectionName"), str):
            raise ConfigError("a collection without CollectionName cannot be rebuilt", path=("DebugHookConfig", "CollectionConfigurations", index, "CollectionName"))
    from_rules: Optional[List[Dict[str, Any]]]
    try:
        from_rules = [m.to_request() for m in merge([], rules)]
    except ConfigError:
        from_rules = None
    collections: Optional[List[CollectionConfig]] = None
    if from_rules != entries:
        collections = [CollectionConfig(e["CollectionName"], e.get("CollectionParameters")) for e in entries]
        by_name = {e["CollectionName"]: e for e in entries}
        for rule in rules:
            keep = [c for c in rule.collection_configs or [] if _covered(c, by_name)]
            if len(keep) != len(rule.collection_configs or []):
                rule.collection_configs = keep
    path = hook.get("S3OutputPath")
    s3_output_path = None if path == settings.output_path else path
    local, params = hook.get("LocalPath"), hook.get("HookParameters")
    if collections is None and s3_output_path is None and local is None and params is None:
        return None  # the Estimator's (and render's) default hook
    return DebuggerHookConfig(s3_output_path=s3_output_path, container_local_output_path=local, hook_parameters=params, collection_configs=collections)


def _metric_config(cls: type, text: str) -> Any:
    try:
        values = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        raise ConfigError(f"{shorten(text)} is not a metrics configuration", field=f"ProfilingParameters.{cls.__name__}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{shorten(text)} is not a metrics configuration", field=f"ProfilingParameters.{cls.__name__}")
    kwargs: Dict[str, Any] = {
        "start_step": values.get("StartStep"),
        "num_steps": values.get("NumSteps"),
        "start_unix_time": values.get("StartTimeInSecSinceEpoch"),
        "duration": values.get("DurationInSeconds", values.get("Duration")),
    }
    if cls is DataloaderProfilingConfig and "MetricsRegex" in values:
        kwargs["metrics_regex"] = values["MetricsRegex"]
    if cls is PythonProfilingConfig:
        if "ProfilerName" in values:
            kwargs["python_profiler"] = values["ProfilerName"]
        if "cProfileTimer" in values:
            kwargs["cprofile_timer"] = values["cProfileTimer"]
    return cls(**kwargs)


def _framework_profile(params: Dict[str, Any]) -> FrameworkProfile:
    file_args: Dict[str, Any] = {}
    if isinstance(params.get("LocalPath"), str):
        file_args["local_path"] = params["LocalPath"]
    for key, arg in (("RotateMaxFileSizeInBytes", "file_max_size"), ("FileOpenFailThreshold", "file_open_fail_threshold")):
        number = v.parse_int(params.get(key))
        if number is not None:
            file_args[arg] = number
    close = params.get("RotateFileCloseIntervalInSeconds")
    close_number = v.parse_int(close) if v.parse_int(close) is not None else v.parse_float(close)
    if close_number is not None:
        file_args["file_close_interval"] = close_number

    def plain() -> FrameworkProfile:
        return FrameworkProfile(**file_args)

    def per_metric() -> FrameworkProfile:
        slots = {}
        for cls in ALL_METRIC_CONFIGS:
            if cls.name in params:
                slot = {
                    "DetailedProfilingConfig": "detailed_profiling_config",
                    "DataloaderProfilingConfig": "dataloader_profiling_config",
                    "PythonProfilingConfig": "python_profiling_config",
                    "HorovodProfilingConfig": "horovod_profiling_config",
                    "SMDataParallelProfilingConfig": "smdataparallel_profiling_config",
                }[cls.name]
                slots[slot] = _metric_config(cls, params[cls.name])
        return FrameworkProfile(**file_args, **slots)

    first = None
    for build in (plain, per_metric):
        try:
            candidate = build()
        except ConfigError:
            continue
        if candidate.profiling_parameters == params:
            return candidate
        first = first or candidate
    exact = first or FrameworkProfile()
    exact.profiling_parameters = dict(params)
    return exact


def _profiler(source: Dict[str, Any], settings: JobSettings) -> Tuple[Optional[ProfilerConfig], bool]:
    config = source.get("ProfilerConfig")
    if config is None:
        return None, False
    if not isinstance(config, dict):
        raise ConfigError(f"expected a dict, got {v.type_name(config)}", field="ProfilerConfig")
    disabled = config.get("DisableProfiler", False)
    if disabled is True and set(config) == {"DisableProfiler"}:
        return None, True
    params = config.get("ProfilingParameters")
    framework_profile = profile = None
    if isinstance(params, dict):
        if set(params) == set(_PROFILER_KEYS):
            profile = Profiler(cpu_profiling_duration=params["CPUProfilingDuration"], file_rotation_interval=params["SMPFileRotationSecs"])
        else:
            framework_profile = _framework_profile(params)
    path = config.get("S3OutputPath")
    s3_output_path = None if path == settings.output_path else path
    interval = config.get("ProfilingIntervalInMilliseconds")
    if disabled is False and s3_output_path is None and interval is None and params is None:
        return None, False
    return (
        ProfilerConfig(
            s3_output_path=s3_output_path,
            system_monitor_interval_millis=interval,
            framework_profile_params=framework_profile,
            profile_params=profile,
            disable_profiler=disabled,
        ),
        False,
    )


def from_request(
    source: Dict[str, Any],
    *,
    settings: Optional[JobSettings] = None,
    **job_settings: Any,
) -> RebuiltConfig:
    """Objects and settings that render to the Debugger fields of ``source``.

    ``source`` is a ``CreateTrainingJob`` request or a ``DescribeTrainingJob`` response.
    The :class:`JobSettings` come from it: ``output_path`` from ``OutputDataConfig``,
    ``job_name`` from ``TrainingJobName``, ``instance_type`` from ``ResourceConfig``
    (:data:`REQUEST_SETTINGS`), the region from ``TrainingJobArn`` or the image URIs.
    Settings given (as keywords or ``settings=``) stand in for what ``source`` does not
    hold (only the Debugger fields, say); a given ``region`` wins over the guessed one, and
    ``rule_image_uri`` tells which image built-in rules ran in when it is not the region's default.

    >>> from sm_debug_config import Rule, render, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.001})],
    ...                 region="us-east-1", output_path="s3://bucket/out/", job_name="job-1")
    >>> rebuilt = from_request(dict(fields, TrainingJobName="job-1", OutputDataConfig={"S3OutputPath": "s3://bucket/out/"}))
    >>> rule = rebuilt.rules[0]
    >>> rule.builtin_rule, rule.rule_parameters, rule.collection_configs
    ('VanishingGradient', {'rule_to_invoke': 'VanishingGradient', 'threshold': '0.001'}, [CollectionConfig(name='gradients', parameters={'save_interval': '500'})])
    >>> rebuilt.debugger_hook_config is None and rebuilt.render() == fields
    True
    """
    if not isinstance(source, dict):
        raise ConfigError(f"expected a CreateTrainingJob request or DescribeTrainingJob response (a dict), got {v.type_name(source)}", field="request")
    check_shape(source)
    given = JobSettings.build(settings, job_settings)
    debugger_entries = list(source.get("DebugRuleConfigurations") or [])
    profiler_entries = list(source.get("ProfilerRuleConfigurations") or [])
    images = [e["RuleEvaluatorImage"] for e in debugger_entries + profiler_entries if isinstance(e, dict) and isinstance(e.get("RuleEvaluatorImage"), str)]
    region = given.region if given.region is not None else _region(source, images)
    settings = attrs.evolve(given, region=region, **request_settings(source))

    debugger_rules = [_debugger_rule(e, i, settings) for i, e in enumerate(debugger_entries)]
    profiler_rules = [_profiler_rule(e, i, settings) for i, e in enumerate(profiler_entries)]
    hook = _hook(source, debugger_rules, settings)
    profiler_config, disable_profiler = _profiler(source, settings)
    tensorboard = source.get("TensorBoardOutputConfig")
    tensorboard_config = None
    if isinstance(tensorboard, dict):
        tensorboard_path: Any = tensorboard.get("S3OutputPath")  # checked by the class
        tensorboard_config = TensorBoardOutputConfig(tensorboard_path, container_local_output_path=tensorboard.get("LocalPath"))

    profile_params = profiler_config.profile_params if profiler_config is not None else None
    if profile_params is not None and len(profiler_rules) == 1:
        only = profiler_rules[0]
        expected = detailed_profiler_rule(settings.job_name, profile_params)
        if (
            only.name == expected.name
            and only.image_uri == expected.image_uri
            and only.instance_type == expected.instance_type
            and only.volume_size_in_gb == expected.volume_size_in_gb
            and only.rule_parameters == expected.rule_parameters
            and only.container_local_output_path is None
            and only.s3_output_path is None
        ):
            profiler_rules = []  # render adds it again, under the same name
            rules: Optional[List[Any]] = list(debugger_rules) or None
        else:
            rules = list(debugger_rules) + list(profiler_rules)
    else:
        rules = list(debugger_rules) + list(profiler_rules)
        if not rules:
            rules = [] if profile_params is not None else None

    return RebuiltConfig(
        setup=DebuggerSetup(
            rules=rules,
            debugger_hook_config=hook,
            profiler_config=profiler_config,
            tensorboard_output_config=tensorboard_config,
            disable_profiler=disable_profiler,
        ),
        settings=settings,
        present_fields=tuple(f for f in FIELDS if f in source),
    )
