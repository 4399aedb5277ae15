"""Debugger and profiler rules: ``Rule.sagemaker`` / ``Rule.custom``, ``ProfilerRule.sagemaker`` / ``.custom``.

Signatures follow ``sagemaker.debugger`` (SDK v2.257); built-in rule parameters are checked against the catalogue.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Dict, Iterable, List, NoReturn, Optional, Tuple, Type, TypeVar, Union, cast

import attrs

from sm_debug_config.apischema import validate_api
from sm_debug_config.errors import ConfigError, PathT, pointer_parts, shorten
from sm_debug_config.findings import WARNING, adopt, building_as_written, built_here, collecting, declare, report
from sm_debug_config.limits import check_depth
from sm_debug_config.model import catalogue
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import Action, ActionList, rule_actions
from sm_debug_config.model.hook import CollectionConfig
from sm_debug_config.model.profiler import (
    DETAIL_PROF_PROCESSING_DEFAULT_INSTANCE_TYPE,
    DETAIL_PROF_PROCESSING_DEFAULT_VOLUME_SIZE,
)

DEFAULT_RULE_EVALUATOR_IMAGE = "DEFAULT_RULE_EVALUATOR_IMAGE"
DETAILED_PROFILER_PREFIX = "DetailedProfilerProcessingJobConfig"
_R = TypeVar("_R", bound="RuleBase")

SMD124 = declare(
    "SMD124", WARNING, "SimilarAcrossRuns has no other trial to compare with.",
    "The API accepts it; the built-in rule container's source is not public and no public report shows the rule job "
    "failing without other_trials; at best the rule has nothing to compare.")


def _image(instance: Any, attribute: Any, value: Any) -> None:
    if value != DEFAULT_RULE_EVALUATOR_IMAGE:
        v.string(1, 255)(instance, attribute, value)


def _rule_parameters(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, dict):
        v.fail(
            instance,
            attribute,
            f"expected a dict, got {v.type_name(value)}",
            allowed="a dict of parameter names to values",
        )
    for key in value:
        if not isinstance(key, str) or not 1 <= len(key) <= 256:
            v.fail(instance, attribute, f"parameter name {shorten(key)} is not a string of 1-256 characters")


@attrs.define(field_transformer=v.as_written_fields)
class RuleBase:
    """Fields shared by debugger and profiler rules (as ``sagemaker.debugger.RuleBase``)."""

    name: str = attrs.field(validator=v.string(1, 256))
    image_uri: str = attrs.field(validator=_image)
    instance_type: Optional[str] = attrs.field(validator=v.optional(v.string(1, 64)))
    container_local_output_path: Optional[str] = attrs.field(validator=v.optional(v.container_path))
    s3_output_path: Optional[str] = attrs.field(validator=v.optional(v.s3_uri))
    volume_size_in_gb: Optional[int] = attrs.field(validator=v.optional(v.integer(0, code=v.API_LIMIT)))
    rule_parameters: Optional[Dict[str, Any]] = attrs.field(
        converter=v.dict_copy, validator=v.optional(_rule_parameters)
    )

    def __attrs_post_init__(self) -> None:
        built_here(self)  # where the user built it: the edge warns its findings there

    @property
    def is_builtin(self) -> bool:
        return self.image_uri == DEFAULT_RULE_EVALUATOR_IMAGE

    @classmethod
    def _custom(
        cls: Type[_R],
        name: Any,
        image_uri: Any,
        instance_type: Any,
        volume_size_in_gb: Any,
        source: Any,
        rule_to_invoke: Any,
        container_local_output_path: Any,
        s3_output_path: Any,
        other_trials: Any,
        rule_parameters: Any,
        **more: Any,
    ) -> _R:
        """``Rule.custom``/``ProfilerRule.custom``, checked: trials, source, rule to invoke,
        then the user's parameters."""
        where = f"{cls.__name__}.custom"
        for value, attribute in ((instance_type, "instance_type"), (volume_size_in_gb, "volume_size_in_gb")):
            if value is None:
                _fail(
                    "a custom rule needs instance_type and volume_size_in_gb",
                    where,
                    (attribute,),
                    "e.g. instance_type='ml.m5.xlarge', volume_size_in_gb=30",
                )
        params = _user_parameters(rule_parameters, f"{where}.rule_parameters")
        trials = _other_trials(other_trials, f"{where}.other_trials_s3_input_paths")
        if bool(source) ^ bool(rule_to_invoke):
            _fail(
                "a custom rule needs both source and rule_to_invoke, or neither",
                where,
                ("rule_parameters", "source_s3_uri" if not source else "rule_to_invoke"),
                "source= a Python file (local path or s3:// URI) together with rule_to_invoke= the rule class in it",
            )
        fixed = {}
        for value, argument, key, what in (
            (source, "source", "source_s3_uri", "a path or s3:// URI"),
            (rule_to_invoke, "rule_to_invoke", "rule_to_invoke", "a class name"),
        ):
            if value is not None and not v.is_pipeline_variable(value) and (not isinstance(value, str) or not value):
                _fail(f"expected {what}, got {shorten(value)}", f"{where}.{argument}", ("rule_parameters", key))
            if value:
                fixed[key] = value
        merged = _merged(trials, fixed, params, f"{where}.rule_parameters")
        return cls(
            name,
            image_uri,
            instance_type,
            container_local_output_path,
            s3_output_path,
            volume_size_in_gb,
            merged,
            **more,
        )


def _fail(message: str, field: str, path: PathT, allowed: Optional[str] = None) -> NoReturn:
    """An error of a factory argument (``Rule.sagemaker(...)``): ``field`` names the argument,
    ``path`` the attribute it goes to."""
    raise ConfigError(message, field=field, allowed=allowed, path=path)


def _other_trials(paths: Any, field: str) -> List[Any]:
    """``other_trials_s3_input_paths``: they become the ``other_trial_<i>`` rule parameters."""
    if paths is None:
        return []
    if isinstance(paths, (str, bytes)) or not isinstance(paths, (list, tuple)):
        _fail(f"expected a list of s3:// URIs, got {v.type_name(paths)}", field, ("rule_parameters",))
    for index, path in enumerate(paths):
        if not v.is_pipeline_variable(path) and (not isinstance(path, str) or not v.S3_URI_RE.match(path)):
            _fail(
                f"{shorten(path)} is not an s3:// URI",
                f"{field}[{index}]",
                ("rule_parameters", f"other_trial_{index}"),
                "s3:// URIs of other training jobs' debug output",
            )
    return list(paths)


def _user_parameters(rule_parameters: Any, field: str) -> Dict[str, Any]:
    if rule_parameters is None:
        return {}
    if not isinstance(rule_parameters, dict):
        _fail(
            f"expected a dict, got {v.type_name(rule_parameters)}",
            field,
            ("rule_parameters",),
            "a dict of parameter names to values",
        )
    for key in rule_parameters:
        if not isinstance(key, str):
            _fail(f"parameter name {shorten(key)} is not a string", field, ("rule_parameters",))
    if "action_json" in rule_parameters:
        _fail(
            "set actions with actions=StopTraining()/Email()/SMS()/ActionList(...), not action_json",
            f"{field}.action_json",
            ("rule_parameters", "action_json"),
        )
    return dict(rule_parameters)


def builtin_of(name: Any) -> Optional[Tuple[str, str]]:
    """``(kind, catalogue name)`` of the built-in rule ``name`` names (any case), else None."""
    return catalogue.lookup(name)


def has_other_trial(params: Dict[str, Any]) -> bool:
    """Whether rule parameters name another trial (what SimilarAcrossRuns compares with)."""
    return "other_trials" in params or any(str(k).startswith("other_trial_") for k in params)


def _merged(other_trials: List[Any], fixed: Dict[str, Any], params: Dict[str, Any], field: str) -> Dict[str, Any]:
    """The rule parameters: ``other_trial_<i>``, then the rule's own, then the user's (as API strings; ``field``
    names the argument they came from)."""
    merged: Dict[str, Any] = {f"other_trial_{index}": path for index, path in enumerate(other_trials)}
    merged.update(fixed)
    for key, val in params.items():
        merged[key] = catalogue.to_api_string(val, f"{field}.{key}", ("rule_parameters", key))
    return merged


def _same_json(a: Any, b: Any) -> bool:
    """``a == b`` for JSON data, comparing types too (a value of another type that says it is equal is not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return isinstance(a, (str, int, float, bool)) and a == b


def _is_catalogue_config(base_config: Dict[str, Any]) -> bool:
    """Whether ``base_config`` is the catalogue's base config of the debugger rule it names, unchanged (what a
    ``rule_configs`` function returns, and what every ``builtin:`` entry of a config file is built from)."""
    name = base_config["DebugRuleConfiguration"].get("RuleConfigurationName")
    entry = catalogue.rules("debugger").get(name) if isinstance(name, str) else None
    return entry is not None and _same_json(base_config, entry["base_config"])


def _check_base_config(base_config: Dict[str, Any]) -> None:
    """Refuse a hand-made ``Rule.sagemaker`` base config whose members have the wrong type (RuleParameters not a
    map of strings, CollectionConfigurations not a list of collection objects...), by the API's own shapes: the
    same botocore-model check as requests get, so that the code below may rely on the types."""

    if _is_catalogue_config(base_config):  # a rule_configs function's own dict, unchanged: well-formed (tested)
        return
    field = "Rule.sagemaker.base_config"
    check_depth(base_config, field, ("builtin_rule",))
    rule = {k: val for k, val in base_config["DebugRuleConfiguration"].items() if val is not None}
    request: Dict[str, Any] = {"DebugRuleConfigurations": [rule]}
    if base_config.get("CollectionConfigurations") is not None:
        request["DebugHookConfig"] = {"CollectionConfigurations": base_config["CollectionConfigurations"]}
    broken = [e for e in validate_api(request) if e.keyword == "type"]
    if not broken:
        return
    parts = pointer_parts(broken[0].path)
    where: PathT
    path: PathT
    if parts[0] == "DebugRuleConfigurations":
        where, path = ("DebugRuleConfiguration", *parts[2:]), ("rule_parameters",)
    else:
        where, path = parts[1:], ("collection_configs", *parts[2:3])
    field += "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where)
    raise ConfigError(broken[0].message, field=field, path=path)


@attrs.define(field_transformer=v.as_written_fields)
class Rule(RuleBase):
    """A debugging rule: built in (``Rule.sagemaker``) or your own (``Rule.custom``). The constructor is the SDK's
    (``collections_to_save`` is stored as ``collection_configs``); ``Rule.sagemaker`` sets the keyword-only fields.

    >>> from sm_debug_config import rule_configs
    >>> rule = Rule.sagemaker(rule_configs.vanishing_gradient(), rule_parameters={"threshold": 0.0001})
    >>> rule.rule_parameters
    {'rule_to_invoke': 'VanishingGradient', 'threshold': '0.0001'}
    >>> attrs.evolve(rule, name="VG").name
    'VG'
    """

    collection_configs: Optional[List[CollectionConfig]] = attrs.field(
        alias="collections_to_save",
        converter=v.tuple_to_list,
        validator=v.optional(v.list_of(CollectionConfig, "CollectionConfig objects")),
    )
    actions: Optional[Union[Action, ActionList]] = attrs.field(
        default=None, converter=rule_actions,
        validator=v.optional(v.instance_of(Action, ActionList, allowed="an action")),  # for revalidate()
    )
    builtin_rule: Optional[str] = attrs.field(default=None, kw_only=True, repr=False)
    uses_default_collections: bool = attrs.field(default=False, kw_only=True, repr=False)
    #: The rule parameters not in the catalogue that ``allow_unknown_parameters`` let through (SMD122 for them).
    passed_through: Tuple[str, ...] = attrs.field(
        default=(), kw_only=True, repr=False, eq=False, converter=v.list_to_tuple,
        validator=v.satisfies(lambda names: isinstance(names, tuple) and all(isinstance(n, str) for n in names),
                              "a tuple of parameter names"),
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
        """A built-in debugging rule from a ``rule_configs`` function's dict, its parameters checked against the rule's
        schema (``allow_unknown_parameters=True`` or a list of names: unknown names pass with a warning).

        >>> from sm_debug_config import rule_configs
        >>> Rule.sagemaker(rule_configs.loss_not_decreasing(), rule_parameters={"mode": "TRAIN"}).name
        'LossNotDecreasing'
        """
        if not isinstance(base_config, dict) or not isinstance(base_config.get("DebugRuleConfiguration"), dict):
            what = (
                "expected a built-in rule config such as rule_configs.vanishing_gradient(), "
                f"got {v.type_name(base_config)}"
            )
            _fail(what, "Rule.sagemaker.base_config", ("builtin_rule",))
        params = _user_parameters(rule_parameters, "Rule.sagemaker.rule_parameters")
        if params.pop("rule_to_invoke", None) is not None:
            what = "rule_to_invoke cannot be set for a built-in rule; use Rule.custom for your own rule"
            _fail(what, "Rule.sagemaker.rule_parameters.rule_to_invoke", ("rule_parameters", "rule_to_invoke"))
        other_trials = _other_trials(other_trials_s3_input_paths, "Rule.sagemaker.other_trials_s3_input_paths")
        _check_base_config(base_config)
        base = base_config["DebugRuleConfiguration"]
        defaults = dict(base.get("RuleParameters") or {})
        builtin = defaults.get("rule_to_invoke") or base.get("RuleConfigurationName")
        found = builtin_of(builtin)
        known = found is not None and found[0] == "debugger"
        builtin = found[1] if found else builtin
        passed: Tuple[str, ...] = ()
        with collecting(as_written=building_as_written()) as found_problems:  # reported for the rule, once built
            if known:
                problems = catalogue.check_parameters(builtin, params, allow_unknown=allow_unknown_parameters)
                passed = tuple(str(p.path[0]) for p in problems if p.code == catalogue.SMD122.code and p.path)
                catalogue.raise_errors(problems, "Rule.sagemaker.rule_parameters", ("rule_parameters",))
                # its warnings (SMD120-SMD122) are the request's: the one pass finds them, the edge warns them here
                if (
                    builtin == "SimilarAcrossRuns" and not other_trials and not has_other_trial(params)
                ):  # the SDK builds it too
                    report(SMD124.at(("rule_parameters", "other_trial_0"),
                                     "SimilarAcrossRuns compares with another trial and none was given"),
                           "Rule.sagemaker.other_trials_s3_input_paths")
        if not known and not allow_unknown_parameters:
            _fail(
                f"{shorten(builtin)} is not a built-in debugger rule of this catalogue",
                "Rule.sagemaker.base_config",
                ("builtin_rule",),
                ", ".join(catalogue.all_names("debugger")) + " (or allow_unknown_parameters=True for a newer rule)",
            )
        base_collections = []
        for index, config in enumerate(base_config.get("CollectionConfigurations", []) or []):
            try:
                base_collections.append(
                    CollectionConfig(
                        name=config.get("CollectionName"), parameters=config.get("CollectionParameters") or {}
                    )
                )
            except ConfigError as err:  # a hand-made base_config: the collection it names is this rule's
                raise err.under(("collection_configs", index)) from None
        collections = v.tuple_to_list(collections_to_save) or base_collections
        rule = cls(
            name or base.get("RuleConfigurationName"),
            DEFAULT_RULE_EVALUATOR_IMAGE,
            None,
            container_local_output_path,
            s3_output_path,
            None,
            _merged(other_trials, defaults, params, "Rule.sagemaker.rule_parameters"),
            collections,
            actions,
            builtin_rule=builtin if known else None,
            uses_default_collections=not collections_to_save,
            passed_through=passed,
        )
        adopt(rule, found_problems)
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
        return cls._custom(
            name,
            image_uri,
            instance_type,
            volume_size_in_gb,
            source,
            rule_to_invoke,
            container_local_output_path,
            s3_output_path,
            other_trials_s3_input_paths,
            rule_parameters,
            collections_to_save=v.tuple_to_list(collections_to_save) or [],
            actions=actions,
        )

    def prepare_actions(self, training_job_name: str) -> None:
        """SDK-compatible: write ``action_json`` into ``rule_parameters``,
        changing this rule as the SDK's does (``render`` never calls it)."""
        params = {k: val for k, val in (self.rule_parameters or {}).items() if k != "action_json"}
        if self.actions is not None:
            params["action_json"] = self.actions.serialize(training_job_name)
        self.rule_parameters = params

    def to_debugger_rule_config_dict(self) -> Dict[str, Any]:
        """The ``DebugRuleConfiguration`` this object alone renders to (no region defaults)."""
        v.revalidate(self)
        return rule_request(self)


def rule_request(rule: RuleBase, **changes: Any) -> Dict[str, Any]:
    """A rule configuration; like the SDK, optional fields are sent only when truthy (0 and "" are left out).

    ``changes``: field values to send instead of the rule's, converted and checked by their fields as
    ``attrs.evolve(rule, **changes)`` would (render sends each rule with its region's image and parameters),
    without building a rule: its other fields were checked when they were set.
    """
    if changes:
        fields = attrs.fields_dict(type(rule))
        for name, value in changes.items():
            field = fields[name]
            if field.converter is not None:  # a plain function on the rule's fields, not an attrs.Converter
                value = cast(Callable[[Any], Any], field.converter)(value)
            if field.validator is not None:
                field.validator(rule, field, value)
            changes[name] = value
    sent = ("name", "image_uri", "instance_type", "volume_size_in_gb", "container_local_output_path",
            "s3_output_path", "rule_parameters")
    name, image_uri, instance_type, volume, local, s3, params = (
        changes[f] if f in changes else getattr(rule, f) for f in sent)
    request: Dict[str, Any] = {"RuleConfigurationName": name, "RuleEvaluatorImage": image_uri}
    for key, value in (
        ("InstanceType", instance_type),
        ("VolumeSizeInGB", volume),
        ("LocalPath", local),
        ("S3OutputPath", s3),
    ):
        if value:
            request[key] = value
    if params:
        request["RuleParameters"] = dict(params)
    return request


def api_strings(parameters: Optional[Dict[str, Any]], field: str = "ProfilerRule.rule_parameters") -> Dict[str, Any]:
    """Profiler rule parameters as the SDK sends them: ``str()`` of each value (pipeline variables kept; junk
    refused by :func:`validators.api_string`, naming ``field.<key>``)."""
    return v.api_strings(parameters, field, ("rule_parameters",), lists="repr")


@attrs.define(field_transformer=v.as_written_fields)
class ProfilerRule(RuleBase):
    """A profiling rule: built in (``ProfilerRule.sagemaker``) or your own (``ProfilerRule.custom``).

    >>> from sm_debug_config import rule_configs
    >>> rule = ProfilerRule.sagemaker(rule_configs.CPUBottleneck(threshold=70))
    >>> rule.to_profiler_rule_config_dict()["RuleParameters"]["threshold"]
    '70'
    """

    builtin_rule: Optional[str] = attrs.field(default=None, kw_only=True, repr=False)

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
            _fail(
                f"expected a profiler rule such as rule_configs.ProfilerReport(), got {v.type_name(base_config)}",
                "ProfilerRule.sagemaker.base_config",
                ("builtin_rule",),
            )
        used_name = name or rule_name
        builtin = None
        if not rule_name.startswith(DETAILED_PROFILER_PREFIX):
            try:
                kind, _entry = catalogue.find(rule_name)
            except ConfigError as err:
                raise err.under(("builtin_rule",)) from None
            if kind != "profiler":
                _fail(
                    f"{rule_name} is a debugger rule; use Rule.sagemaker",
                    "ProfilerRule.sagemaker.base_config",
                    ("builtin_rule",),
                )
            builtin = catalogue.canonical_name(rule_name)
            with collecting(as_written=building_as_written()) as found_problems:  # reported for the rule, once built
                if builtin == "ProfilerReport":  # its <Rule>_<parameter> keys, as rule_configs.ProfilerReport checks
                    catalogue.check_profiler_report({k: val for k, val in parameters.items() if k != "rule_to_invoke"})
                else:
                    problems = catalogue.check_parameters(builtin, parameters)
                    catalogue.raise_errors(
                        problems, f"ProfilerRule.sagemaker({builtin}).rule_parameters", ("rule_parameters",)
                    )  # its warnings are the request's (see Rule.sagemaker)
        elif isinstance(used_name, str) and used_name.startswith(DETAILED_PROFILER_PREFIX):
            volume_size_in_gb = (
                DETAIL_PROF_PROCESSING_DEFAULT_VOLUME_SIZE if volume_size_in_gb is None else volume_size_in_gb
            )
            instance_type = DETAIL_PROF_PROCESSING_DEFAULT_INSTANCE_TYPE if instance_type is None else instance_type
        rule = cls(
            used_name,
            DEFAULT_RULE_EVALUATOR_IMAGE,
            instance_type,
            container_local_output_path,
            s3_output_path,
            volume_size_in_gb,
            dict(parameters),
            builtin_rule=builtin,
        )
        if builtin is not None:
            adopt(rule, found_problems)
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
        return cls._custom(
            name,
            image_uri,
            instance_type,
            volume_size_in_gb,
            source,
            rule_to_invoke,
            container_local_output_path,
            s3_output_path,
            None,
            rule_parameters,
        )

    def to_profiler_rule_config_dict(self) -> Dict[str, Any]:
        """The ``ProfilerRuleConfiguration`` this object alone renders to (values ``str()``-ed as the SDK does)."""
        v.revalidate(self)
        return rule_request(attrs.evolve(self, rule_parameters=api_strings(self.rule_parameters)))


@attrs.frozen(field_transformer=v.as_written_fields)
class DetailedProfilerProcessingJobConfig:
    """The processing rule that turns ``Profiler()`` output into reports (added by ``render``)."""

    rule_name: ClassVar[str] = "DetailedProfilerProcessingJobConfig"

    @property
    def rule_parameters(self) -> Dict[str, str]:
        return {"rule_to_invoke": "DetailedProfilerProcessing"}
