"""Rebuild sm-debug-config objects from a ``CreateTrainingJob`` request or a ``DescribeTrainingJob`` response.

:func:`from_request` inverts :func:`~sm_debug_config.render` (``rebuilt.render() == fields``). It prefers the
objects a person would write (only non-default parameters, ``StopTraining()`` for the job's own name, ``None``
for defaulted paths and hooks) and falls back to a more literal form where that one would render differently.
``render`` merged the rules' collections into the hook, so the rebuilt hook carries them all (or none, when
they are exactly what the rules alone ask for), and a rule keeps the default collections the hook covers.
"""
from __future__ import annotations

import ast
import functools
import itertools
from typing import Any, Callable, Collection, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

import attrs

import rule_configs
from sm_debug_config import datafiles
from sm_debug_config.apischema import check_shape
from sm_debug_config.checked import render_model
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.merge import merge
from sm_debug_config.model import catalogue, regions
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import ActionList, StopTraining, parse_action_json
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import (
    ALL_METRIC_CONFIGS,
    FrameworkProfile,
    Profiler,
    ProfilerConfig,
)
from sm_debug_config.model.rules import (
    DETAILED_PROFILER_PREFIX,
    DetailedProfilerProcessingJobConfig,
    ProfilerRule,
    Rule,
)
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, render_arguments, settings_of
from sm_debug_config.rendering import FIELDS, detailed_profiler_rule

__all__ = ["REQUEST_SETTINGS", "RebuiltConfig", "from_request", "request_settings"]

_PLACEHOLDER_OUTPUT = "s3://sm-debug-config-placeholder/output/"
_FILE_ARGUMENTS = {
    "RotateMaxFileSizeInBytes": "file_max_size",
    "RotateFileCloseIntervalInSeconds": "file_close_interval",
    "FileOpenFailThreshold": "file_open_fail_threshold",
}  # ProfilingParameters -> FrameworkProfile
#: A metric config's keys (as ``model.profiler`` writes them) -> its arguments; the later key wins.
_METRIC_KEYS = {"StartStep": "start_step", "NumSteps": "num_steps", "StartTimeInSecSinceEpoch": "start_unix_time",
                "Duration": "duration", "DurationInSeconds": "duration", "MetricsRegex": "metrics_regex",
                "ProfilerName": "python_profiler", "cProfileTimer": "cprofile_timer"}


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

    ``present_fields`` lists the Debugger fields the source carried (a response may lack some).
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

        return render_model(*render_arguments(dict(self.render_kwargs(), **overrides))).request


def _region(source: Dict[str, Any], images: List[str]) -> Optional[str]:
    """The region of the job's ARN, else of the first rule or training image URI that tells one."""
    algorithm = source.get("AlgorithmSpecification")
    training_image = algorithm.get("TrainingImage") if isinstance(algorithm, dict) else None
    images = images + ([training_image] if isinstance(training_image, str) else [])
    found = itertools.chain([regions.region_of_arn(source.get("TrainingJobArn"))], map(regions.region_of_image, images))
    return next((region for region in found if region), None)


def _builtin_image(name: str, settings: JobSettings) -> Optional[str]:
    if settings.region is None:
        return None
    try:
        return regions.builtin_image_for(name, settings.region, settings.rule_image_uri)
    except ConfigError:
        return None


def _one_rule_settings(settings: JobSettings) -> Optional[JobSettings]:
    """What decides a rule entry rendered alone, of ``settings`` (built once per request, not per candidate): the image
    (region, rule_image_uri) and the actions' job name; ``None`` without a region (nothing renders)."""
    if settings.region is None:
        return None
    return JobSettings(
        region=settings.region,
        output_path=settings.output_path or _PLACEHOLDER_OUTPUT,
        job_name=settings.job_name,
        rule_image_uri=settings.rule_image_uri,
        validate=False,
    )


def _render_one(rule: Any, alone: Optional[JobSettings]) -> Optional[Dict[str, Any]]:
    """The entry ``rule`` renders to on its own with ``alone`` (:func:`_one_rule_settings`; ``None`` when it cannot
    be rendered there)."""

    if alone is None:
        return None
    try:
        if isinstance(rule, Rule):
            return render_model(DebuggerSetup(rules=[rule], disable_profiler=True), alone).request[
                "DebugRuleConfigurations"
            ][0]
        return render_model(DebuggerSetup(rules=[rule]), alone).request["ProfilerRuleConfigurations"][0]
    except ConfigError:
        return None


def _pick(builders: Sequence[Callable[[], Any]], matches: Callable[[Any], bool]) -> Tuple[Any, bool]:
    """The first candidate built that ``matches`` (and True); else the first one built, or None (and False)."""
    first = None
    for build in builders:
        try:
            candidate = build()
        except ConfigError:
            continue
        if candidate is not None and matches(candidate):
            return candidate, True
        first = candidate if first is None else first
    return first, False


def _action_variants(params: Dict[str, Any], field: str, job_name: Optional[str]) -> List[Any]:
    """The actions of ``action_json``: with ``StopTraining()`` for the job's own name first, then as written."""
    text = params.pop("action_json", None)
    if text is None:
        return [None]
    parsed = parse_action_json(text, field=field)
    items = list(parsed)
    defaulted = [
        StopTraining()
        if isinstance(a, StopTraining)
        and job_name is not None
        and a.action_parameters.get("training_job_prefix") == job_name
        else a
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


def _builtin_debugger(
    to_invoke: str, params: Dict[str, Any], common: Dict[str, Any], instance: Any, volume: Any, actions: Any
) -> Optional[Rule]:
    if instance is not None or volume is not None:
        return None
    kind, spec = catalogue.find(to_invoke)
    if kind != "debugger":
        return None

    base = getattr(rule_configs, spec["function"])()
    defaults = base["DebugRuleConfiguration"].get("RuleParameters", {})
    params = dict(params)
    trials = _other_trials(params)
    user = {k: val for k, val in params.items() if k != "rule_to_invoke" and defaults.get(k) != val}
    return Rule.sagemaker(
        base, **common, other_trials_s3_input_paths=trials or None, rule_parameters=user or None, actions=actions
    )


def _builtin_profiler(
    to_invoke: str, params: Dict[str, Any], common: Dict[str, Any], instance: Any, volume: Any, _actions: Any
) -> Optional[ProfilerRule]:
    base: Any = DetailedProfilerProcessingJobConfig()
    if common["name"].startswith(DETAILED_PROFILER_PREFIX):
        if params != base.rule_parameters:
            return None
    else:
        kind, _spec = catalogue.find(to_invoke)
        if kind != "profiler":
            return None

        base = getattr(rule_configs, catalogue.canonical_name(to_invoke))(
            **{k: val for k, val in params.items() if k != "rule_to_invoke"}
        )
    return ProfilerRule.sagemaker(base, **common, instance_type=instance, volume_size_in_gb=volume)


def _rule(entry: Any, field: str, settings: JobSettings, alone: Optional[JobSettings]) -> Any:
    """The rule of a ``DebugRuleConfigurations``/``ProfilerRuleConfigurations`` entry: built in, custom or literal
    (the one that renders back to it with ``alone``, :func:`_one_rule_settings`)."""
    if not isinstance(entry.get("RuleConfigurationName"), str):  # a pipeline variable
        raise ConfigError(
            f"expected a {field.partition('s[')[0]}, got {shorten(entry)}", field=field
        )  # a DebugRuleConfiguration
    # the service checks the image; a rebuilt rule keeps it
    name, image = entry["RuleConfigurationName"], entry.get("RuleEvaluatorImage")
    params, local, s3 = dict(entry.get("RuleParameters") or {}), entry.get("LocalPath"), entry.get("S3OutputPath")
    instance, volume = entry.get("InstanceType"), entry.get("VolumeSizeInGB")
    is_builtin = image == _builtin_image(name, settings)
    if volume == 0 and (is_builtin or _is_builtin_image(image)):
        # a DescribeTrainingJob response fills both into a built-in rule sent without them (the instance the service
        # chose, VolumeSizeInGB 0): not what was requested
        instance, volume = None, None
    debugger = field.startswith("Debug")
    cls: Any = Rule if debugger else ProfilerRule
    variants = (
        _action_variants(params, f"{field}.RuleParameters.action_json", settings.job_name) if debugger else [None]
    )

    def builtin(actions: Any) -> Any:
        to_invoke = params.get("rule_to_invoke")
        if "source_s3_uri" in params or not isinstance(to_invoke, str) or not is_builtin:
            return None
        common = dict(name=name, container_local_output_path=local, s3_output_path=s3)
        return (_builtin_debugger if debugger else _builtin_profiler)(
            to_invoke, params, common, instance, volume, actions
        )

    def custom(actions: Any) -> Any:
        if instance is None or volume is None:
            return None
        rest = dict(params)
        extra = dict(other_trials_s3_input_paths=_other_trials(rest) or None, actions=actions) if debugger else {}
        return cls.custom(
            name,
            image,
            instance,
            volume,
            source=rest.pop("source_s3_uri", None),
            rule_to_invoke=rest.pop("rule_to_invoke", None),
            container_local_output_path=local,
            s3_output_path=s3,
            rule_parameters=rest or None,
            **extra,
        )

    def literal(actions: Any) -> Any:
        return cls(name, image, instance, local, s3, volume, dict(params), *(([], actions) if debugger else ()))

    builders = [functools.partial(build, a) for build in (builtin, custom, literal) for a in variants]
    rule, _ = _pick(builders, lambda candidate: _render_one(candidate, alone) == entry)
    if rule is None:
        raise ConfigError(f"cannot rebuild rule {shorten(name)} from {shorten(entry)}", field="request")
    return rule


def _arguments(cls: Any, entry: Dict[str, Any], **converted: Any) -> Dict[str, Any]:
    """``cls``'s arguments that ``entry``'s members set (request_keys of data/config_format.json), and ``converted``."""
    names = {a.alias for a in attrs.fields(cls)}
    keys = datafiles.load("config_format")["request_keys"]
    return dict({keys[k]: val for k, val in entry.items() if keys.get(k) in names}, **converted)


def _unless_default(cls: Any, entry: Dict[str, Any], settings: JobSettings, **converted: Any) -> Any:
    """``cls`` of ``entry``'s members; None when each is unset or its default (None, False, the job's output path)."""
    arguments = _arguments(cls, entry, **converted)
    if arguments.get("s3_output_path") == settings.output_path:
        arguments["s3_output_path"] = None
    arguments = {k: val for k, val in arguments.items() if val is not None and val is not False}
    return cls(**arguments) if arguments else None


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
    hook = source.get("DebugHookConfig")  # check_shape made it a dict if present
    if hook is None:
        return None if settings.region is not None and not regions.supports_debugger(settings.region) else False
    entries = list(hook.get("CollectionConfigurations") or [])
    for index, entry in enumerate(entries):  # the API takes an entry without a name; no CollectionConfig has none
        if not isinstance(entry.get("CollectionName"), str):
            raise ConfigError(
                "a collection without CollectionName cannot be rebuilt",
                path=("DebugHookConfig", "CollectionConfigurations", index, "CollectionName"),
            )
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
    # None: the Estimator's (and render's) default hook
    return _unless_default(DebuggerHookConfig, hook, settings, collection_configs=collections)


def _metric_config(cls: type, text: str) -> Any:
    try:
        values = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        values = None
    if not isinstance(values, dict):
        raise ConfigError(
            f"{shorten(text)} is not a metrics configuration", field=f"ProfilingParameters.{cls.__name__}"
        )
    arguments = {a.alias for a in attrs.fields(cls)}  # type: ignore[arg-type]
    return cls(**{arg: values[key] for key, arg in _METRIC_KEYS.items() if key in values and arg in arguments})


def _framework_profile(params: Dict[str, Any]) -> FrameworkProfile:
    file_args: Dict[str, Any] = {"local_path": params["LocalPath"]} if isinstance(params.get("LocalPath"), str) else {}
    for key, arg in _FILE_ARGUMENTS.items():
        text = params.get(key)
        number = (
            v.parse_int(text) if v.parse_int(text) is not None or arg != "file_close_interval" else v.parse_float(text)
        )
        if number is not None:
            file_args[arg] = number

    def per_metric() -> FrameworkProfile:
        slots = {
            f.name.replace("_", ""): f.name for f in attrs.fields(FrameworkProfile)
        }  # by the class's name, lower-cased
        configs = {
            slots[c.name.lower()]: _metric_config(c, params[c.name]) for c in ALL_METRIC_CONFIGS if c.name in params
        }
        return FrameworkProfile(**file_args, **configs)

    builders: List[Callable[[], FrameworkProfile]] = [functools.partial(FrameworkProfile, **file_args), per_metric]
    profile, matched = _pick(builders, lambda candidate: candidate.profiling_parameters == params)
    if not matched:  # exact: the map as given
        profile = profile or FrameworkProfile()
        profile.profiling_parameters = dict(params)
    return profile


def _profiler(source: Dict[str, Any], settings: JobSettings) -> Tuple[Optional[ProfilerConfig], bool]:
    config = source.get("ProfilerConfig")  # check_shape made it a dict if present
    if config is None:
        return None, False
    disabled = config.get("DisableProfiler", False)
    if disabled is True and set(config) == {"DisableProfiler"}:
        return None, True
    params = config.get("ProfilingParameters")
    framework_profile = profile = None
    if isinstance(params, dict):
        if set(params) == set(Profiler().profiling_parameters):
            profile = Profiler(
                cpu_profiling_duration=params["CPUProfilingDuration"],
                file_rotation_interval=params["SMPFileRotationSecs"],
            )
        else:
            framework_profile = _framework_profile(params)
    built = _unless_default(ProfilerConfig, config, settings,
                            framework_profile_params=framework_profile, profile_params=profile)
    return built, False


def from_request(
    source: Dict[str, Any],
    *,
    settings: Optional[JobSettings] = None,
    region: Optional[str] = None,
    output_path: Any = None,
    job_name: Any = None,
    instance_type: Optional[str] = None,
    rule_image_uri: Optional[str] = None,
    defaults: Optional[str] = None,
    validate: Optional[bool] = None,
    framework: Optional[str] = None,
    disable_debugger: Optional[bool] = None,
    ignore: Optional[Collection[str]] = None,
    framework_version: Optional[str] = None,
    image_uri: Optional[str] = None,
    **unknown: NoReturn,
) -> RebuiltConfig:
    """Objects and settings that render to the Debugger fields of ``source`` (a ``CreateTrainingJob`` request
    or a ``DescribeTrainingJob`` response).

    The settings come from ``source`` (:data:`REQUEST_SETTINGS`; the region from ``TrainingJobArn`` or the
    image URIs); settings given stand in for what it does not hold, and a given ``region`` wins over the guessed one.

    >>> from sm_debug_config import Rule, render, rule_configs
    >>> fields = render([Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.001})],
    ...                 region="us-east-1", output_path="s3://bucket/out/", job_name="job-1")
    >>> rebuilt = from_request(dict(fields, TrainingJobName="job-1", OutputDataConfig={"S3OutputPath": "s3://bucket/out/"}))
    >>> rule = rebuilt.rules[0]
    >>> rule.builtin_rule, rule.rule_parameters, rule.collection_configs
    ('VanishingGradient', {'rule_to_invoke': 'VanishingGradient', 'threshold': '0.001'},
     [CollectionConfig(name='gradients', parameters={'save_interval': '500'})])
    >>> rebuilt.debugger_hook_config is None and rebuilt.render() == fields
    True
    """
    if not isinstance(source, dict):
        raise ConfigError(
            f"expected a CreateTrainingJob request or DescribeTrainingJob response (a dict), got {v.type_name(source)}",
            field="request",
        )
    check_shape(source)
    given = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    debugger_entries = list(source.get("DebugRuleConfigurations") or [])
    profiler_entries = list(source.get("ProfilerRuleConfigurations") or [])
    images = [
        e["RuleEvaluatorImage"]
        for e in debugger_entries + profiler_entries
        if isinstance(e, dict) and isinstance(e.get("RuleEvaluatorImage"), str)
    ]
    region = given.region if given.region is not None else _region(source, images)
    settings = attrs.evolve(given, region=region, **request_settings(source))

    alone = _one_rule_settings(settings) if debugger_entries or profiler_entries else None
    debugger_rules = [
        _rule(e, f"DebugRuleConfigurations[{i}]", settings, alone) for i, e in enumerate(debugger_entries)
    ]
    profiler_rules = [
        _rule(e, f"ProfilerRuleConfigurations[{i}]", settings, alone) for i, e in enumerate(profiler_entries)
    ]
    hook = _hook(source, debugger_rules, settings)
    profiler_config, disable_profiler = _profiler(source, settings)
    board = source.get("TensorBoardOutputConfig")
    tensorboard_config = TensorBoardOutputConfig(**_arguments(TensorBoardOutputConfig, board)) if board else None

    profile_params = profiler_config.profile_params if profiler_config is not None else None
    rules: Optional[List[Any]] = [*debugger_rules, *profiler_rules]
    if profile_params is not None and profiler_rules == [detailed_profiler_rule(settings.job_name, profile_params)]:
        rules = list(debugger_rules) or None  # render adds the processing rule again, under the same name
    elif not rules and profile_params is None:
        rules = None

    setup = DebuggerSetup(rules=rules, debugger_hook_config=hook, profiler_config=profiler_config,
                          tensorboard_output_config=tensorboard_config, disable_profiler=disable_profiler)
    return RebuiltConfig(setup=setup, settings=settings, present_fields=tuple(f for f in FIELDS if f in source))
