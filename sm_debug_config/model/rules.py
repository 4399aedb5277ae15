"""Debugger and profiler rules: ``Rule.sagemaker`` / ``Rule.custom``, ``ProfilerRule.sagemaker`` / ``.custom``.

Signatures follow ``sagemaker.debugger`` (SDK v2.257). Built-in rule parameters are checked
against the catalogue when the rule is built; an explicit ``allow_unknown_parameters`` lets a
parameter newer than the catalogue through with a warning.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Union

import attrs

from sm_debug_config.model import validators as v
from sm_debug_config.model import catalogue
from sm_debug_config.model.actions import Action, ActionList, coerce_actions
from sm_debug_config.errors import ConfigError
from sm_debug_config.model.hook import CollectionConfig

DEFAULT_RULE_EVALUATOR_IMAGE = "DEFAULT_RULE_EVALUATOR_IMAGE"
DETAILED_PROFILER_PREFIX = "DetailedProfilerProcessingJobConfig"
DETAILED_PROFILER_INSTANCE_TYPE = "ml.m5.4xlarge"
DETAILED_PROFILER_VOLUME_SIZE = 128
_RESERVED_PARAMETERS = ("action_json", "source_s3_uri")


def _image(instance: Any, attribute: Any, value: Any) -> None:
    if value == DEFAULT_RULE_EVALUATOR_IMAGE:
        return
    v.string(1, 255)(instance, attribute, value)


def _rule_parameters(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        raise ConfigError(f"expected a dict, got {v.type_name(value)}", field=v.field_name(instance, attribute), allowed="a dict of parameter names to values")
    for key in value:
        if not isinstance(key, str) or not 1 <= len(key) <= 256:
            raise ConfigError(f"parameter name {key!r} is not a string of 1-256 characters", field=v.field_name(instance, attribute))


def _collections_to_save(instance: Any, attribute: Any, value: Any) -> None:
    if value is None:
        return
    where = f"{type(instance).__name__}.collections_to_save"
    if not isinstance(value, list):
        raise ConfigError(f"expected a list of CollectionConfig, got {v.type_name(value)}", field=where)
    for index, item in enumerate(value):
        if not isinstance(item, CollectionConfig):
            raise ConfigError(f"item {index} is {v.type_name(item)}", field=f"{where}[{index}]", allowed="CollectionConfig objects")


def _as_list(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


@attrs.define(eq=True, repr=True)
class RuleBase:
    """Fields shared by debugger and profiler rules (as ``sagemaker.debugger.RuleBase``)."""

    name: str = attrs.field(validator=v.string(1, 256))
    image_uri: str = attrs.field(validator=_image)
    instance_type: Optional[str] = attrs.field(validator=v.optional(v.string(1, 64)))
    container_local_output_path: Optional[str] = attrs.field(validator=v.optional(v.container_path))
    s3_output_path: Optional[str] = attrs.field(validator=v.optional(v.s3_uri))
    volume_size_in_gb: Optional[int] = attrs.field(validator=v.optional(v.integer(0)))
    rule_parameters: Optional[Dict[str, Any]] = attrs.field(converter=lambda d: dict(d) if isinstance(d, dict) else d, validator=_rule_parameters)

    @property
    def is_builtin(self) -> bool:
        return self.image_uri == DEFAULT_RULE_EVALUATOR_IMAGE


def _check_other_trials(paths: Any, field: str) -> List[Any]:
    if paths is None:
        return []
    if isinstance(paths, (str, bytes)) or not isinstance(paths, (list, tuple)):
        raise ConfigError(f"expected a list of s3:// URIs, got {v.type_name(paths)}", field=field)
    for index, path in enumerate(paths):
        if v.is_pipeline_variable(path):
            continue
        if not isinstance(path, str) or not v.S3_URI_RE.match(path):
            raise ConfigError(f"{path!r} is not an s3:// URI", field=f"{field}[{index}]", allowed="s3:// URIs of other training jobs' debug output")
    return list(paths)


def _check_user_parameters(rule_parameters: Any, field: str) -> Dict[str, Any]:
    if rule_parameters is None:
        return {}
    if not isinstance(rule_parameters, dict):
        raise ConfigError(f"expected a dict, got {v.type_name(rule_parameters)}", field=field, allowed="a dict of parameter names to values")
    for key in rule_parameters:
        if not isinstance(key, str):
            raise ConfigError(f"parameter name {key!r} is not a string", field=field)
    if "action_json" in rule_parameters:
        raise ConfigError("set actions with actions=StopTraining()/Email()/SMS()/ActionList(...), not action_json", field=f"{field}.action_json")
    return dict(rule_parameters)


def _custom_parameters(source: Any, rule_to_invoke: Any, other_trials: List[Any], rule_parameters: Dict[str, Any], cls_name: str) -> Dict[str, Any]:
    if bool(source) ^ bool(rule_to_invoke):
        raise ConfigError(
            "a custom rule needs both source and rule_to_invoke, or neither",
            field=f"{cls_name}.custom",
            allowed="source= a Python file (local path or s3:// URI) together with rule_to_invoke= the rule class in it",
        )
    if source is not None and not v.is_pipeline_variable(source) and (not isinstance(source, str) or not source):
        raise ConfigError(f"expected a path or s3:// URI, got {source!r}", field=f"{cls_name}.custom.source")
    if rule_to_invoke is not None and not v.is_pipeline_variable(rule_to_invoke) and (not isinstance(rule_to_invoke, str) or not rule_to_invoke):
        raise ConfigError(f"expected a class name, got {rule_to_invoke!r}", field=f"{cls_name}.custom.rule_to_invoke")
    merged: Dict[str, Any] = {}
    for index, path in enumerate(other_trials):
        merged[f"other_trial_{index}"] = path
    if source:
        merged["source_s3_uri"] = source
    if rule_to_invoke:
        merged["rule_to_invoke"] = rule_to_invoke
    merged.update({k: catalogue.to_api_string(val) for k, val in rule_parameters.items()})
    return merged


@attrs.define(eq=True, repr=True, init=False)
class Rule(RuleBase):
    """A debugging rule: built in (``Rule.sagemaker``) or your own (``Rule.custom``).

    >>> from sm_debug_config import rule_configs
    >>> rule = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001})
    >>> rule.rule_parameters
    {'rule_to_invoke': 'VanishingGradient', 'threshold': '0.0001'}
    """

    collection_configs: Optional[List[CollectionConfig]] = attrs.field(default=None, converter=_as_list, validator=_collections_to_save)
    actions: Optional[Union[Action, ActionList]] = attrs.field(default=None)
    builtin_rule: Optional[str] = attrs.field(default=None, repr=False)
    uses_default_collections: bool = attrs.field(default=False, repr=False)

    def __init__(
        self,
        name: str,
        image_uri: str,
        instance_type: Optional[str],
        container_local_output_path: Optional[str],
        s3_output_path: Optional[str],
        volume_size_in_gb: Optional[int],
        rule_parameters: Optional[Dict[str, Any]],
        collections_to_save: Optional[List[CollectionConfig]],
        actions: Optional[Union[Action, ActionList]] = None,
    ) -> None:
        self.__attrs_init__(  # type: ignore[attr-defined]
            name,
            image_uri,
            instance_type,
            container_local_output_path,
            s3_output_path,
            volume_size_in_gb,
            rule_parameters,
            collections_to_save,
            coerce_actions(actions, "Rule.actions"),
        )

    @classmethod
    def sagemaker(
        cls,
        base_config: Dict[str, Any],
        name: Optional[str] = None,
        container_local_output_path: Optional[str] = None,
        s3_output_path: Optional[str] = None,
        other_trials_s3_input_paths: Optional[List[str]] = None,
        rule_parameters: Optional[Dict[str, Any]] = None,
        collections_to_save: Optional[List[CollectionConfig]] = None,
        actions: Optional[Union[Action, ActionList]] = None,
        *,
        allow_unknown_parameters: Union[bool, Iterable[str]] = False,
    ) -> "Rule":
        """A built-in debugging rule from a ``rule_configs`` function's dict.

        Parameters are checked against the rule's schema: ``threshhold`` is an error with
        "did you mean 'threshold'?"; ``allow_unknown_parameters=True`` (or a list of names)
        passes unknown names through with a warning instead.

        >>> from sm_debug_config import rule_configs
        >>> Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}).name
        'LossNotDecreasing'
        """
        if not isinstance(base_config, dict) or not isinstance(base_config.get("DebugRuleConfiguration"), dict):
            raise ConfigError(
                f"expected a built-in rule config such as rule_configs.vanishing_gradient(), got {v.type_name(base_config)}",
                field="Rule.sagemaker.base_config",
            )
        params = _check_user_parameters(rule_parameters, "Rule.sagemaker.rule_parameters")
        if params.get("rule_to_invoke") is not None:
            raise ConfigError("rule_to_invoke cannot be set for a built-in rule; use Rule.custom for your own rule", field="Rule.sagemaker.rule_parameters.rule_to_invoke")
        params.pop("rule_to_invoke", None)
        other_trials = _check_other_trials(other_trials_s3_input_paths, "Rule.sagemaker.other_trials_s3_input_paths")
        base = base_config["DebugRuleConfiguration"]
        defaults = dict(base.get("RuleParameters") or {})
        builtin = defaults.get("rule_to_invoke") or base.get("RuleConfigurationName")
        try:
            builtin = catalogue.canonical_name(builtin)
            known = catalogue.find(builtin)[0] == "debugger"
        except ConfigError:
            known = False
        if known:
            problems = catalogue.check_parameters(builtin, params, allow_unknown=allow_unknown_parameters)
            catalogue.raise_errors(problems, "Rule.sagemaker.rule_parameters")
            catalogue.warn(problems)
            if builtin == "SimilarAcrossRuns" and not other_trials and "other_trials" not in params and not any(
                k.startswith("other_trial_") for k in params
            ):
                raise ConfigError(
                    "SimilarAcrossRuns compares with another trial and none was given",
                    field="Rule.sagemaker.other_trials_s3_input_paths",
                    allowed="a list of s3:// URIs of other jobs' debug output",
                )
        elif not allow_unknown_parameters:
            raise ConfigError(
                f"{builtin!r} is not a built-in debugger rule of this catalogue",
                field="Rule.sagemaker.base_config",
                allowed=", ".join(catalogue.all_names("debugger")) + " (or allow_unknown_parameters=True for a newer rule)",
            )
        merged: Dict[str, Any] = {}
        for index, path in enumerate(other_trials):
            merged[f"other_trial_{index}"] = path
        merged.update(defaults)
        merged.update({k: catalogue.to_api_string(val) for k, val in params.items()})
        base_collections = []
        for config in base_config.get("CollectionConfigurations", []) or []:
            base_collections.append(CollectionConfig(name=config.get("CollectionName"), parameters=config.get("CollectionParameters") or {}))
        rule = cls(
            name=name or base.get("RuleConfigurationName"),
            image_uri=DEFAULT_RULE_EVALUATOR_IMAGE,
            instance_type=None,
            container_local_output_path=container_local_output_path,
            s3_output_path=s3_output_path,
            volume_size_in_gb=None,
            rule_parameters=merged,
            collections_to_save=_as_list(collections_to_save) or base_collections,
            actions=actions,
        )
        rule.builtin_rule = builtin if known else None
        rule.uses_default_collections = not collections_to_save
        return rule

    @classmethod
    def custom(
        cls,
        name: str,
        image_uri: str,
        instance_type: str,
        volume_size_in_gb: int,
        source: Optional[str] = None,
        rule_to_invoke: Optional[str] = None,
        container_local_output_path: Optional[str] = None,
        s3_output_path: Optional[str] = None,
        other_trials_s3_input_paths: Optional[List[str]] = None,
        rule_parameters: Optional[Dict[str, Any]] = None,
        collections_to_save: Optional[List[CollectionConfig]] = None,
        actions: Optional[Union[Action, ActionList]] = None,
    ) -> "Rule":
        """Your own debugging rule, run in ``image_uri`` (see ``get_rule_container_image_uri``).

        >>> Rule.custom("MyRule", "111122223333.dkr.ecr.us-east-1.amazonaws.com/r:1", "ml.m5.xlarge", 30,
        ...             source="s3://bucket/rules/my_rule.py", rule_to_invoke="MyRule").rule_parameters
        {'source_s3_uri': 's3://bucket/rules/my_rule.py', 'rule_to_invoke': 'MyRule'}
        """
        if instance_type is None or volume_size_in_gb is None:
            raise ConfigError("a custom rule needs instance_type and volume_size_in_gb", field="Rule.custom", allowed="e.g. instance_type='ml.m5.xlarge', volume_size_in_gb=30")
        params = _check_user_parameters(rule_parameters, "Rule.custom.rule_parameters")
        other_trials = _check_other_trials(other_trials_s3_input_paths, "Rule.custom.other_trials_s3_input_paths")
        merged = _custom_parameters(source, rule_to_invoke, other_trials, params, "Rule")
        return cls(
            name=name,
            image_uri=image_uri,
            instance_type=instance_type,
            container_local_output_path=container_local_output_path,
            s3_output_path=s3_output_path,
            volume_size_in_gb=volume_size_in_gb,
            rule_parameters=merged,
            collections_to_save=_as_list(collections_to_save) or [],
            actions=actions,
        )

    def prepare_actions(self, training_job_name: str) -> None:
        """SDK-compatible: write ``action_json`` into ``rule_parameters`` (``render`` does not need this)."""
        if self.actions is None:
            (self.rule_parameters or {}).pop("action_json", None)
            return
        self.actions.update_training_job_prefix_if_not_specified(training_job_name)
        self.rule_parameters = dict(self.rule_parameters or {}, action_json=self.actions.serialize())

    def to_debugger_rule_config_dict(self) -> Dict[str, Any]:
        """The ``DebugRuleConfiguration`` this object alone renders to (no region defaults)."""
        return _rule_request(self, self.image_uri, self.rule_parameters)


def _rule_request(rule: RuleBase, image_uri: str, parameters: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """A rule configuration; like the SDK, optional fields are sent only when truthy (0 and "" are left out)."""
    request: Dict[str, Any] = {"RuleConfigurationName": rule.name, "RuleEvaluatorImage": image_uri}
    for key, value in (
        ("InstanceType", rule.instance_type),
        ("VolumeSizeInGB", rule.volume_size_in_gb),
        ("LocalPath", rule.container_local_output_path),
        ("S3OutputPath", rule.s3_output_path),
    ):
        if value:
            request[key] = value
    if parameters:
        request["RuleParameters"] = dict(parameters)
    return request


@attrs.define(eq=True, repr=True, init=False)
class ProfilerRule(RuleBase):
    """A profiling rule: built in (``ProfilerRule.sagemaker``) or your own (``ProfilerRule.custom``).

    >>> from sm_debug_config import rule_configs
    >>> ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70)).to_profiler_rule_config_dict()["RuleParameters"]["threshold"]
    '70'
    """

    builtin_rule: Optional[str] = attrs.field(default=None, repr=False)

    def __init__(
        self,
        name: str,
        image_uri: str,
        instance_type: Optional[str],
        container_local_output_path: Optional[str],
        s3_output_path: Optional[str],
        volume_size_in_gb: Optional[int],
        rule_parameters: Optional[Dict[str, Any]],
    ) -> None:
        self.__attrs_init__(name, image_uri, instance_type, container_local_output_path, s3_output_path, volume_size_in_gb, rule_parameters)  # type: ignore[attr-defined]

    @classmethod
    def sagemaker(
        cls,
        base_config: Any,
        name: Optional[str] = None,
        container_local_output_path: Optional[str] = None,
        s3_output_path: Optional[str] = None,
        instance_type: Optional[str] = None,
        volume_size_in_gb: Optional[int] = None,
    ) -> "ProfilerRule":
        """A built-in profiling rule from a ``rule_configs`` class instance (``ProfilerReport()``...).

        >>> from sm_debug_config import rule_configs
        >>> ProfilerRule.sagemaker(rule_configs.ProfilerReport()).name
        'ProfilerReport'
        """
        rule_name = getattr(base_config, "rule_name", None)
        parameters = getattr(base_config, "rule_parameters", None)
        if not isinstance(rule_name, str) or not isinstance(parameters, dict):
            raise ConfigError(
                f"expected a profiler rule such as rule_configs.ProfilerReport(), got {v.type_name(base_config)}",
                field="ProfilerRule.sagemaker.base_config",
            )
        used_name = name or rule_name
        builtin = None
        if not rule_name.startswith(DETAILED_PROFILER_PREFIX):
            kind, _entry = catalogue.find(rule_name)
            if kind != "profiler":
                raise ConfigError(f"{rule_name} is a debugger rule; use Rule.sagemaker", field="ProfilerRule.sagemaker.base_config")
            builtin = catalogue.canonical_name(rule_name)
            if builtin == "ProfilerReport":
                from rule_configs import ProfilerReport  # the covered-rule key check lives there

                ProfilerReport(**{k: val for k, val in parameters.items() if k != "rule_to_invoke"})
            else:
                problems = catalogue.check_parameters(builtin, parameters)
                catalogue.raise_errors(problems, f"ProfilerRule.sagemaker({builtin}).rule_parameters")
        elif isinstance(used_name, str) and used_name.startswith(DETAILED_PROFILER_PREFIX):
            volume_size_in_gb = DETAILED_PROFILER_VOLUME_SIZE if volume_size_in_gb is None else volume_size_in_gb
            instance_type = DETAILED_PROFILER_INSTANCE_TYPE if instance_type is None else instance_type
        rule = cls(
            name=used_name,
            image_uri=DEFAULT_RULE_EVALUATOR_IMAGE,
            instance_type=instance_type,
            container_local_output_path=container_local_output_path,
            s3_output_path=s3_output_path,
            volume_size_in_gb=volume_size_in_gb,
            rule_parameters=dict(parameters),
        )
        rule.builtin_rule = builtin
        return rule

    @classmethod
    def custom(
        cls,
        name: str,
        image_uri: str,
        instance_type: str,
        volume_size_in_gb: int,
        source: Optional[str] = None,
        rule_to_invoke: Optional[str] = None,
        container_local_output_path: Optional[str] = None,
        s3_output_path: Optional[str] = None,
        rule_parameters: Optional[Dict[str, Any]] = None,
    ) -> "ProfilerRule":
        """Your own profiling rule, run in ``image_uri``."""
        if instance_type is None or volume_size_in_gb is None:
            raise ConfigError("a custom rule needs instance_type and volume_size_in_gb", field="ProfilerRule.custom", allowed="e.g. instance_type='ml.m5.xlarge', volume_size_in_gb=30")
        params = _check_user_parameters(rule_parameters, "ProfilerRule.custom.rule_parameters")
        merged = _custom_parameters(source, rule_to_invoke, [], params, "ProfilerRule")
        return cls(name, image_uri, instance_type, container_local_output_path, s3_output_path, volume_size_in_gb, merged)

    def to_profiler_rule_config_dict(self) -> Dict[str, Any]:
        """The ``ProfilerRuleConfiguration`` this object alone renders to (values ``str()``-ed as the SDK does)."""
        params = {k: (val if v.is_pipeline_variable(val) else str(val)) for k, val in (self.rule_parameters or {}).items()}
        return _rule_request(self, self.image_uri, params)


class DetailedProfilerProcessingJobConfig:
    """The processing rule that turns ``Profiler()`` output into reports (added by ``render``)."""

    def __init__(self) -> None:
        self.rule_name = type(self).__name__
        self.rule_parameters = {"rule_to_invoke": "DetailedProfilerProcessing"}
