"""Profiling changes for a running job: the ``ProfilerConfig`` / ``ProfilerRuleConfigurations`` fields of an
``UpdateTrainingJob`` request, as the SDK v2 Estimator's ``disable_profiling()`` (``disable_profiler=True``),
``enable_default_profiling()`` (nothing given) and ``update_profiler(...)`` (a config or rules) send them.
"""
from __future__ import annotations

from typing import Any, Collection, Dict, List, NoReturn, Optional, Sequence

from sm_debug_config.apischema import check_shape
from sm_debug_config.errors import ConfigError, shorten
from sm_debug_config.model import regions
from sm_debug_config.model import validators as v
from sm_debug_config.model.profiler import FrameworkProfile, ProfilerConfig
from sm_debug_config.model.rules import ProfilerRule
from sm_debug_config.model.settings import JobSettings, settings_of
from sm_debug_config.rendering import _profiler_rule_request, expressions
from sm_debug_config.validation import raise_or_warn, run


def _current_rules(current: Optional[Dict[str, Any]]) -> List[str]:
    names = []
    for key in ("ProfilerRuleConfigurations", "ProfilerRuleEvaluationStatuses"):
        for rule in (current or {}).get(key) or []:
            if isinstance(rule, dict) and isinstance(rule.get("RuleConfigurationName"), str):
                names.append(rule["RuleConfigurationName"])
    return list(dict.fromkeys(names))


def _check_current(current: Any) -> Optional[Dict[str, Any]]:
    if current is None:
        return None
    if not isinstance(current, dict):
        raise ConfigError(f"expected a DescribeTrainingJob response dict, got {v.type_name(current)}", field="current")
    check_shape(current, ("current",), required=False)  # only the fields read here need to be there
    return current


def render_update(
    profiler_config: Optional[ProfilerConfig] = None,
    profiler_rules: Optional[Sequence[ProfilerRule]] = None,
    disable_profiler: bool = False,
    *,
    current: Optional[Dict[str, Any]] = None,
    disable_framework_metrics: bool = False,
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
) -> Dict[str, Any]:
    """The Debugger fields of an ``UpdateTrainingJob`` request; ``current`` (a ``DescribeTrainingJob`` response)
    has the change checked against the job. The settings are :func:`~sm_debug_config.render`'s (``output_path``
    is where default profiling writes when ``current`` does not tell).

    >>> render_update(region="us-east-1", output_path="s3://bucket/out/")
    {'ProfilerConfig': {'S3OutputPath': 's3://bucket/out/', 'DisableProfiler': False}}
    >>> render_update(disable_profiler=True, region="us-east-1")
    {'ProfilerConfig': {'DisableProfiler': True}}
    """
    job = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    region = regions.required_region(job.region)  # checked in JobSettings: an update needs one
    current = _check_current(current)
    if not regions.supports_debugger(region) or not regions.supports_profiler(region):
        raise ConfigError(
            f"region {region} does not support the SageMaker profiler, so it cannot be updated", field="region"
        )
    if profiler_config is not None and not isinstance(profiler_config, ProfilerConfig):
        raise ConfigError(
            f"got {v.type_name(profiler_config)}", field="profiler_config", allowed="a ProfilerConfig or None"
        )
    if not isinstance(disable_profiler, bool) or not isinstance(disable_framework_metrics, bool):
        raise ConfigError(
            "expected True or False",
            field="disable_profiler" if not isinstance(disable_profiler, bool) else "disable_framework_metrics",
        )
    if profiler_rules is not None and (
        isinstance(profiler_rules, (str, bytes, dict)) or not isinstance(profiler_rules, (list, tuple))
    ):
        raise ConfigError(f"expected a list of ProfilerRule, got {v.type_name(profiler_rules)}", field="profiler_rules")
    rules = list(profiler_rules or [])
    for index, rule in enumerate(rules):
        if not isinstance(rule, ProfilerRule):
            raise ConfigError(
                f"item {index} is {v.type_name(rule)}",
                field=f"profiler_rules[{index}]",
                allowed="ProfilerRule objects (debugger rules cannot be added to a running job)",
            )
    status = (current or {}).get("ProfilingStatus")
    existing_path = ((current or {}).get("ProfilerConfig") or {}).get("S3OutputPath")

    if disable_profiler or (profiler_config is not None and profiler_config.disable_profiler is True):
        if (
            rules
            or disable_framework_metrics
            or (
                profiler_config is not None
                and (profiler_config.framework_profile_params or profiler_config.system_monitor_interval_millis)
            )
        ):
            raise ConfigError(
                "disabling profiling takes no profiler rules or settings",
                field="disable_profiler",
                allowed="disable_profiler=True alone",
            )
        if status == "Disabled":
            raise ConfigError("profiling is already disabled for this job", field="current.ProfilingStatus")
        return {"ProfilerConfig": ProfilerConfig._to_profiler_disabled_request_dict()}

    if profiler_config is None and not rules and not disable_framework_metrics:
        if status == "Enabled":
            raise ConfigError(
                "profiling is already enabled; pass a profiler_config or profiler_rules to change it",
                field="current.ProfilingStatus",
            )
        path = existing_path or job.output_path
        if path is None:
            raise ConfigError(
                "enabling default profiling needs an S3 path",
                field="output_path",
                allowed="output_path=, or current= with ProfilerConfig.S3OutputPath",
            )
        return {"ProfilerConfig": ProfilerConfig(s3_output_path=path)._to_request_dict()}

    config = profiler_config or ProfilerConfig()
    if config.profile_params is not None:
        raise ConfigError(
            "the SageMaker Profiler (profile_params) cannot be changed on a running job",
            field="profiler_config.profile_params",
            allowed="framework_profile_params, system_monitor_interval_millis, s3_output_path",
        )
    if disable_framework_metrics and config.framework_profile_params is not None:
        raise ConfigError(
            "framework_profile_params cannot be set together with disable_framework_metrics=True",
            field="disable_framework_metrics",
        )
    if (
        config.s3_output_path is not None
        and existing_path
        and not v.is_pipeline_variable(config.s3_output_path)
        and config.s3_output_path != existing_path
    ):
        raise ConfigError(
            f"the job already writes profiler output to {existing_path}; it cannot change",
            field="profiler_config.s3_output_path",
            allowed=f"None or {existing_path}",
        )
    running = _current_rules(current)
    for index, rule in enumerate(rules):
        if rule.name in running:
            raise ConfigError(
                f"profiler rule {shorten(rule.name)} already runs on this job; rules can only be added",
                field=f"profiler_rules[{index}].name",
                allowed="a rule name not in: " + ", ".join(running),
            )
    names = [r.name for r in rules]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ConfigError(f"rule names {duplicates} appear more than once", field="profiler_rules")
    if len(running) + len(rules) > 20:
        raise ConfigError(
            f"{len(running)} profiler rules run and {len(rules)} would be added; a job takes at most 20",
            field="profiler_rules",
        )

    framework_profile = config.framework_profile_params
    if disable_framework_metrics:
        framework_profile = FrameworkProfile(profiling_parameters={})
    request: Dict[str, Any] = {
        "ProfilerConfig": ProfilerConfig(
            s3_output_path=config.s3_output_path,
            system_monitor_interval_millis=config.system_monitor_interval_millis,
            framework_profile_params=framework_profile,
        )._to_request_dict()
    }
    if rules:
        request["ProfilerRuleConfigurations"] = [
            _profiler_rule_request(rule, region, job.rule_image_uri) for rule in rules
        ]
    request = expressions(request)
    if job.validate:
        raise_or_warn(run.validate_job(request, job, operation="UpdateTrainingJob"))  # job checked: not again
    return request
