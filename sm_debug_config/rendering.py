"""Render configuration objects into the five Debugger fields of a ``CreateTrainingJob`` request: the one
rendering path, with the defaults the SageMaker Python SDK v2 Estimator applies (hook, profiler, rule images,
detailed-profiler rule...) and the merge of :mod:`sm_debug_config.merge`, without mutating its inputs.

A job is rendered as written. What the service takes is sent as given and left to the request's checks (a
profiler rule while the profiler is off: SMD160; a local custom-rule source: SMD152; an action_json over 256
characters: SMD150; a hook in a region without Debugger: SMD161). What cannot be sent as given (the SDK v2
refuses it, or nothing can stand in the request for it) is kept as a finding in :attr:`Rendered.refusals`, at
the request pointer it concerns, with the code the request's checks use for it (SMD002 where none has one),
and the render goes on, so that every other finding of the job is still found. Only a value of the wrong type
(or settings a render cannot go without: a region with no rule image, a StopTraining without a job name) is
raised at once; the public edge (:mod:`sm_debug_config.checked`) raises one ``ConfigError`` for every error.
"""
from __future__ import annotations

from typing import Any, Collection, Dict, List, Mapping, Optional, Tuple

import attrs

from sm_debug_config.apischema import SMD100
from sm_debug_config.errors import ERROR, ConfigError, pointer, shorten
from sm_debug_config.findings import DEBUG_FIELDS as FIELDS  # the five Debugger fields, in request order
from sm_debug_config.findings import SMD002, Finding, sort_key
from sm_debug_config.limits import check_depth
from sm_debug_config.merge import MergedCollection, merge, merge_findings
from sm_debug_config.model import regions
from sm_debug_config.model.regions import SMD161
from sm_debug_config.model import validators as v
from sm_debug_config.model.hook import DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import ProfilerConfig
from sm_debug_config.model.rules import (
    DETAILED_PROFILER_PREFIX,
    DetailedProfilerProcessingJobConfig,
    ProfilerRule,
    Rule,
    api_strings,
    rule_request,
)
from sm_debug_config.model.settings import (
    DebuggerSetup,
    JobSettings,
    render_arguments,  # noqa: F401 - the CLI and config files import it from here
)
from sm_debug_config.variables import pipeline_expr


def split_rules(rules: Any) -> Tuple[List[Rule], List[ProfilerRule]]:
    """Debugger rules and profiler rules from a ``rules=`` list (``ConfigError`` for anything else)."""
    if rules is None:
        return [], []
    if isinstance(rules, (str, bytes, dict)) or not isinstance(rules, (list, tuple)):
        raise ConfigError(
            f"expected a list of Rule and ProfilerRule objects, got {v.type_name(rules)}", path=("rules",),
            code=SMD002.code,
        )
    debugger: List[Rule] = []
    profiler: List[ProfilerRule] = []
    for index, rule in enumerate(rules):
        if isinstance(rule, Rule):
            debugger.append(rule)
        elif isinstance(rule, ProfilerRule):
            profiler.append(rule)
        else:
            raise ConfigError(
                f"item {index} is {v.type_name(rule)}",
                path=("rules", index),
                allowed="Rule.sagemaker(...), Rule.custom(...), ProfilerRule.sagemaker(...) "
                        "or ProfilerRule.custom(...)",
                code=SMD002.code,
            )
    return debugger, profiler


def _wrong_type(value: Any, argument: str, allowed: str) -> ConfigError:
    """A render argument of a type nothing can be rendered from (the one kind of refusal raised at once)."""
    return ConfigError(f"got {v.type_name(value)}", path=(argument,), allowed=allowed, code=SMD002.code)


def refusal(code: str, path: Tuple[Any, ...], message: str) -> Finding:
    """What the render could not send as written, as a finding (an error) at the request pointer ``path``, with
    ``code``: the code of the request check that covers it, else SMD002."""
    return Finding(ERROR, code, path, message)


#: A region without Debugger or profiler support.
_REGION_CODE = SMD161.code
#: The API's limits: here, the required S3OutputPath of the hook.
_API_CODE = SMD100.code


def _resolve_hook(hook: Any, region: str, has_debugger_rules: bool, defaults: str) -> Optional[DebuggerHookConfig]:
    if hook is True or hook == {}:
        hook = DebuggerHookConfig()
    if hook is not None and hook is not False and not isinstance(hook, DebuggerHookConfig):
        raise _wrong_type(hook, "debugger_hook_config", "a DebuggerHookConfig, True, False or None")
    if not regions.supports_debugger(region):
        # a hook given here is sent as written: the request's check (SMD161) says the SDK v2 and the service refuse it
        return hook if isinstance(hook, DebuggerHookConfig) else None
    if hook is None and (defaults != "explicit" or has_debugger_rules):
        return DebuggerHookConfig()
    return hook or None  # False, or None under defaults="explicit" without rules: no hook


def _debugger_rule_request(
    rule: Rule, index: int, region: str, job_name: Optional[str], rule_image_uri: Optional[str]
) -> Dict[str, Any]:
    params = dict(rule.rule_parameters or {})
    check_depth(params, path=("rules", index, "rule_parameters"))  # set past the validators? expressions() recurses
    if rule.actions is None:
        params.pop("action_json", None)
    else:
        try:
            params["action_json"] = rule.actions.serialize(job_name)
        except ConfigError as err:  # B904: re-raised as it is (or at the rule's path), there is no new cause to chain
            raise err.with_prefix(("rules", index, "actions")) if err.field != "job_name" else err  # noqa: B904
        # an action_json over the API's 256 characters is sent as written: the request's check (SMD150) says it
    return _as_run(rule, params, region, rule_image_uri)


def _as_run(rule: Any, params: Dict[str, Any], region: str, rule_image_uri: Optional[str]) -> Dict[str, Any]:
    """The entry of ``rule`` as the job runs it: these parameters and, for a built-in rule, the region's image on a
    managed instance (instance settings cleared, except for the detailed-profiler processing rule). A local
    ``source_s3_uri`` is sent as written: the request's check (SMD152) says the rule container cannot read it."""
    if not rule.is_builtin:
        return rule_request(rule, rule_parameters=params)
    image = regions.builtin_image_for(rule.name, region, rule_image_uri)
    processing = isinstance(rule.name, str) and rule.name.startswith(DETAILED_PROFILER_PREFIX)
    managed = {} if processing else {"instance_type": None, "volume_size_in_gb": None}
    return rule_request(rule, image_uri=image, rule_parameters=params, **managed)


def _profiler_rule_request(rule: ProfilerRule, region: str, rule_image_uri: Optional[str]) -> Dict[str, Any]:
    return _as_run(rule, api_strings(rule.rule_parameters), region, rule_image_uri)


def detailed_profiler_rule(job_name: Optional[str], profiler: Any) -> ProfilerRule:
    """The processing rule the SDK adds for ``Profiler()``, named from the job (not the clock)."""
    name = DETAILED_PROFILER_PREFIX if not isinstance(job_name, str) else f"{DETAILED_PROFILER_PREFIX}-{job_name}"[:256]
    return ProfilerRule.sagemaker(
        DetailedProfilerProcessingJobConfig(),
        name=name,
        instance_type=profiler.instanceType,
        volume_size_in_gb=profiler.volumeSizeInGB,
    )


def _resolve_profiler(
    profiler_config: Any,
    profiler_rules: List[ProfilerRule],
    rules: Any,
    disable_profiler: Any,
    region: str,
    settings: JobSettings,
    refusals: List[Finding],
) -> Tuple[Dict[str, Any], List[ProfilerRule]]:
    """The ``ProfilerConfig`` request and the profiler rules to send, as the SDK v2 decides them; what it refuses is
    added to ``refusals``. Profiler rules while the profiler is off are sent as written (the request's check, SMD160,
    says they have no data); an enabled ``profiler_config`` in a region without the profiler too (SMD161)."""
    if profiler_config is not None and not isinstance(profiler_config, ProfilerConfig):
        raise _wrong_type(profiler_config, "profiler_config", "a ProfilerConfig or None")
    if not isinstance(disable_profiler, bool):
        raise ConfigError(f"got {shorten(disable_profiler)}", path=("disable_profiler",), allowed="True or False",
                          code=SMD002.code)
    no_region = not regions.supports_profiler(region)
    off = None  # why the profiler is off whatever profiler_config says (the SDK v2 sets its disable_profiler)
    if no_region:
        off = f"region {region} has no SageMaker profiler"
    elif not regions.supports_profiler(region, settings.instance_type):
        off = f"instance type {settings.instance_type} (Trainium) has no SageMaker profiler"
    elif disable_profiler:
        off = "disable_profiler=True"
    enabled = profiler_config.disable_profiler is not True if profiler_config is not None else False
    if no_region and profiler_rules:  # no rule image in such a region: nothing to send them with
        refusals.append(refusal(
            _REGION_CODE, ("ProfilerConfig",),
            f"{off}, so the profiler rules {_names(profiler_rules)} cannot run (the SDK v2 refuses them)"))
        profiler_rules = []
    if off and profiler_config is not None and enabled:
        if no_region:  # sent as written: the request's check (SMD161) says the region has no profiler
            return _profiler_request(profiler_config, settings), []
        refusals.append(refusal(
            SMD002.code, ("ProfilerConfig",),
            f"profiler_config: {off}, but profiler_config enables the profiler (allowed: "
            "ProfilerConfig(disable_profiler=True) or None; the SDK v2 refuses it)"))
        return ProfilerConfig._to_profiler_disabled_request_dict(), list(profiler_rules)
    if off:  # profiler rules are sent as written (SMD160)
        shape = profiler_config.request_shape() if profiler_config is not None else None
        return shape or ProfilerConfig._to_profiler_disabled_request_dict(), list(profiler_rules)
    if profiler_config is None:
        if settings.defaults == "explicit" and not profiler_rules:
            return ProfilerConfig._to_profiler_disabled_request_dict(), []
        profiler_config = ProfilerConfig()
    rules_out = list(profiler_rules)
    if profiler_config.profile_params is not None and (rules is None or (len(rules) > 0 and not profiler_rules)):
        rules_out.append(detailed_profiler_rule(settings.job_name, profiler_config.profile_params))
    return _profiler_request(profiler_config, settings), rules_out


def _profiler_request(profiler_config: ProfilerConfig, settings: JobSettings) -> Dict[str, Any]:
    """``profiler_config``'s request, its S3 path defaulted to the job's output path as the SDK v2 does (left out
    without one: the API takes a ProfilerConfig without it)."""
    request = profiler_config.request_shape()
    if profiler_config.disable_profiler is False and profiler_config.s3_output_path is None and (
        settings.output_path is not None
    ):
        request = {"S3OutputPath": settings.output_path, **request}
    return request


def _names(rules: List[Any]) -> str:
    return ", ".join(str(r.name) for r in rules)


def _check_nothing_to_drop(rules: Any, hook: Any, profiler_config: Any) -> None:
    """With ``disable_debugger=True`` nothing Debugger-related may be configured: never drop it silently."""
    configured = {
        "rules": bool(rules),
        "debugger_hook_config": isinstance(hook, DebuggerHookConfig) or hook is True,
        "profiler_config": isinstance(profiler_config, ProfilerConfig) and profiler_config.disable_profiler is not True,
    }
    given = [name for name, on in configured.items() if on]
    if given:
        raise ConfigError(
            f"disable_debugger=True turns off the hook and the profiler, but {', '.join(given)} "
            f"{'is' if len(given) == 1 else 'are'} configured",
            path=("disable_debugger",),
            allowed="disable_debugger=True with no rules, hook or enabled profiler config",
            code=SMD002.code,
        )


TUNING_KEYS = (
    "HyperParameterTuningJobConfig",
    "TrainingJobDefinition",
    "TrainingJobDefinitions",
    "HyperParameterTuningJobName",
)


def merge_into_request(request: Dict[str, Any], fields: Dict[str, Any], *, replace: bool = False) -> Dict[str, Any]:
    """A copy of a ``CreateTrainingJob`` request with the rendered Debugger ``fields`` put in; a ``ConfigError``
    for Debugger fields already there (unless ``replace=True``) and for tuning requests."""
    refuse_tuning_request(request)
    present = [f for f in FIELDS if f in request]
    if present and not replace:
        raise ConfigError(
            f"the request already has {', '.join(present)}; refusing to overwrite them silently",
            field="request",
            allowed="a request without Debugger fields, or replace=True",
        )
    merged = {k: val for k, val in request.items() if k not in FIELDS}
    merged.update(fields)
    return merged


def refuse_tuning_request(request: Any) -> None:
    """``ConfigError`` for anything but a ``CreateTrainingJob`` request dict: a tuning job's training job
    definitions have no Debugger fields (the service would drop the hook silently)."""
    if not isinstance(request, dict):
        raise ConfigError(f"expected a CreateTrainingJob request dict, got {v.type_name(request)}", field="request")
    tuning = [k for k in TUNING_KEYS if k in request]
    if tuning:
        raise ConfigError(
            f"this is a hyperparameter tuning request ({', '.join(tuning)}); "
            "tuning job training definitions have no Debugger fields, "
            f"so a hook, rules or profiler settings cannot be attached to it",
            field="request",
            allowed="a CreateTrainingJob request (configure Debugger on individual training jobs)",
        )


def request_image(request: Any, settings: JobSettings) -> Optional[str]:
    """The training image of a ``CreateTrainingJob`` request (``AlgorithmSpecification.TrainingImage``) to
    validate against, when ``settings`` name no image (``image_uri``) or version (``framework_version``):
    so a boto3 or SDK v3 user hears that the hook does not run in that image (SMD170).

    >>> request_image({"AlgorithmSpecification": {"TrainingImage": "img:1"}}, JobSettings())
    'img:1'
    """
    if settings.image_uri is not None or settings.framework_version is not None or not isinstance(request, dict):
        return None
    spec = request.get("AlgorithmSpecification")
    image = spec.get("TrainingImage") if isinstance(spec, dict) else None
    return image if isinstance(image, str) and image.strip() else None


def expressions(value: Any) -> Any:
    """The request with every pipeline variable replaced by its pipeline expression. Each field's depth is checked
    first (``ConfigError`` naming it): the walk recurses, and a value set past the validators may nest without end."""
    for key, item in value.items() if isinstance(value, dict) else [("request", value)]:
        check_depth(item, path=(key,))
    return _expressions(value)


def _expressions(value: Any) -> Any:
    if v.is_pipeline_variable(value):
        return pipeline_expr(value)
    if isinstance(value, dict):
        return {k: _expressions(item) for k, item in value.items()}
    if isinstance(value, list):
        return [_expressions(item) for item in value]
    return value


@attrs.define
class Rendered:
    """Everything one render decided: the request fields and the merged collections behind them."""

    request: Dict[str, Any]
    collections: List[MergedCollection]
    debugger_rules: List[Rule]
    profiler_rules: List[ProfilerRule]
    hook: Optional[DebuggerHookConfig]
    origins: Dict[str, Any] = attrs.field(factory=dict)  # request pointer -> the object it came from (see with_origins)
    #: what could not be sent as written, as error findings at request pointers (see the module's docstring)
    refusals: List[Finding] = attrs.field(factory=list)

    def objects_at(self, request_pointer: str) -> Tuple[Any, ...]:
        """The objects the request part at ``request_pointer`` was rendered from: its origin, and for a merged
        collection the ``CollectionConfig`` objects of the hook and the rules that asked for it."""
        origin = self.origins.get(request_pointer)
        if origin is None:
            return ()
        if not isinstance(origin, MergedCollection):
            return (origin,)
        configs: List[Any] = []
        rules: List[Any] = []  # a collection no config of the user's names: the rule whose defaults brought it
        for contribution in origin.contributions:
            owners: List[Any] = [self.hook] if contribution.level == "hook" else [
                r for r in self.debugger_rules if getattr(r, "name", None) == contribution.origin]
            configs += [c for owner in owners for c in getattr(owner, "collection_configs", None) or []
                        if getattr(c, "name", None) == origin.name]
            rules += [] if contribution.level == "hook" else owners
        return tuple({id(obj): obj for obj in configs + rules}.values())  # each once


def render_unchecked(setup: DebuggerSetup, settings: JobSettings, *, built_here: bool = False) -> Rendered:
    """The request of ``setup`` with ``settings``, and the merged model (for ``explain`` and the integrations), not
    validated: ``settings.validate`` is for :func:`sm_debug_config.checked.render_model`,
    which validates this request. The objects' own checks run again first (a field set past them is refused),
    except with ``built_here``: a source of this package built them just now, as written, and their checks ran then
    (parse once, trust afterwards; re-checking was a tenth of ``validate``'s time per config file)."""
    if not built_here:
        v.revalidate(setup.rules, setup.debugger_hook_config, setup.profiler_config, setup.tensorboard_output_config)
    return _render(setup, settings)  # checked above or when built: _render uses their request_shape


def _render(setup: DebuggerSetup, settings: JobSettings) -> Rendered:
    region = regions.required_region(settings.region)  # checked in JobSettings: a render needs one
    rules, debugger_hook_config, profiler_config = setup.rules, setup.debugger_hook_config, setup.profiler_config
    tensorboard_output_config, disable_profiler = setup.tensorboard_output_config, setup.disable_profiler
    if settings.disable_debugger:
        _check_nothing_to_drop(rules, debugger_hook_config, profiler_config)
        debugger_hook_config, disable_profiler = False, True
    if tensorboard_output_config is not None and not isinstance(tensorboard_output_config, TensorBoardOutputConfig):
        raise _wrong_type(tensorboard_output_config, "tensorboard_output_config", "a TensorBoardOutputConfig or None")
    debugger_rules, profiler_rules = split_rules(rules)

    refusals: List[Finding] = []
    request: Dict[str, Any] = {}
    hook = _resolve_hook(debugger_hook_config, region, bool(debugger_rules), settings.defaults)
    collections: List[MergedCollection] = []
    if hook is not None:
        collections = merge(hook.collection_configs or [], debugger_rules)
        refusals += merge_findings(collections)  # SMD116: a source's value not sent (the merge sends the last)
        hook_request = dict(hook.request_shape(), S3OutputPath=hook.s3_output_path or settings.output_path)
        if hook_request["S3OutputPath"] is None:  # the API requires it: sent without, said here (not by SMD100 too)
            del hook_request["S3OutputPath"]
            refusals.append(refusal(
                _API_CODE, ("DebugHookConfig", "S3OutputPath"),
                "DebuggerHookConfig has no s3_output_path and there is no output_path to default it to (allowed: "
                "an s3://bucket/prefix URI, the Estimator's output_path)"))
        hook_request["CollectionConfigurations"] = [c.to_request() for c in collections]
        request["DebugHookConfig"] = hook_request
    if debugger_rules and not regions.supports_debugger(region):  # no rule image in such a region
        refusals.append(refusal(
            _REGION_CODE, ("DebugRuleConfigurations",),
            f"region {region} does not support SageMaker Debugger, so the rules {_names(debugger_rules)} cannot run"))
        debugger_rules = []
    if debugger_rules:
        request["DebugRuleConfigurations"] = [
            _debugger_rule_request(rule, index, region, settings.job_name, settings.rule_image_uri)
            for index, rule in enumerate(debugger_rules)
        ]
    request["ProfilerConfig"], all_profiler_rules = _resolve_profiler(
        profiler_config, profiler_rules, rules, disable_profiler, region, settings, refusals
    )
    if all_profiler_rules:
        request["ProfilerRuleConfigurations"] = [
            _profiler_rule_request(r, region, settings.rule_image_uri) for r in all_profiler_rules
        ]
    if tensorboard_output_config is not None:
        request["TensorBoardOutputConfig"] = tensorboard_output_config.request_shape()
    request = expressions(request)
    rendered = Rendered(request, collections, debugger_rules, all_profiler_rules, hook, refusals=refusals)
    return with_origins(rendered, setup)


def with_refusals(rendered: Rendered, findings: List[Finding], ignore: Collection[str] = ()) -> List[Finding]:
    """``findings`` of ``rendered``'s request with what the render could not send as written (its ``refusals``, but
    those of the codes in ``ignore``), sorted: a refusal stands for the request check's finding of the same code at
    the same pointer (it says why, in the user's terms: no output_path to default the hook's S3 path to...).

    >>> rendered = render_unchecked(DebuggerSetup(), JobSettings(region="us-east-1"))
    >>> [(f.code, f.pointer) for f in with_refusals(rendered, [])]
    [('SMD100', '/DebugHookConfig/S3OutputPath')]
    """
    refused = [f for f in rendered.refusals if f.code not in ignore]
    taken = {(f.code, f.path) for f in refused}
    kept = [f for f in findings if (f.code, f.path) not in taken]
    return sorted(dict.fromkeys(refused + kept), key=sort_key)


def with_origins(rendered: Rendered, setup: DebuggerSetup) -> Rendered:
    """``rendered`` with ``origins``: each request pointer mapped to the object it was rendered from, so that
    a finding in the request names where the user wrote the thing (a collection maps to its ``MergedCollection``,
    a processing rule render added for ``Profiler()`` to that ``Profiler``)."""

    origins: Dict[str, Any] = {}
    for field, objects in (
        ("DebugRuleConfigurations", rendered.debugger_rules),
        ("ProfilerRuleConfigurations", rendered.profiler_rules),
    ):
        for index, rule in enumerate(objects):
            given = any(rule is r for r in setup.rules or [])
            profile = getattr(setup.profiler_config, "profile_params", None)
            origins[pointer(field, index)] = rule if given or profile is None else profile
    for index, collection in enumerate(rendered.collections):
        origins[pointer("DebugHookConfig", "CollectionConfigurations", index)] = collection
    for field, obj in (
        ("DebugHookConfig", rendered.hook),
        ("ProfilerConfig", setup.profiler_config),
        ("TensorBoardOutputConfig", setup.tensorboard_output_config),
    ):
        if obj is not None and field in rendered.request:
            origins[pointer(field)] = obj
    rendered.origins = origins
    return rendered


def settings_from(given: JobSettings, found: Mapping[str, Any], source: str) -> JobSettings:
    """``given`` with the settings ``source`` decides (a request's job name, a client's region...).

    A different value given for one of them is a ``ConfigError``, never silently replaced.
    """
    for name, value in found.items():
        mine = getattr(given, name)
        if mine is not None and mine != value:
            raise ConfigError(
                f"{name}={shorten(mine)} was given, but {source} says {shorten(value)}",
                field=name,
                allowed=f"no {name} (it comes from {source})",
            )
    return attrs.evolve(given, **found)


def _s3_join(*parts: Any) -> Any:
    """``parts`` joined by single slashes; a pipeline join where one of them is a pipeline variable."""
    head, *rest = parts
    pieces: List[Any] = [head.rstrip("/") if isinstance(head, str) else head]
    for part in rest:
        pieces += ["/", part.strip("/") if isinstance(part, str) else part]
    return v.concat(pieces)


def artifact_paths(request: Dict[str, Any], job_name: Any, output_path: Any = None) -> Dict[str, Any]:
    """Where a job's Debugger artifacts land in S3, from its rendered (or described) request.

    >>> artifact_paths({"DebugHookConfig": {"S3OutputPath": "s3://b/out/"}}, "job-1")
    {'debug-output': 's3://b/out/job-1/debug-output'}
    """
    if not isinstance(request, dict):
        raise ConfigError(f"expected a request (a dict), got {type(request).__name__}", field="request")
    for name, value in (("job_name", job_name), ("output_path", output_path)):
        if (
            not isinstance(value, str)
            and not v.is_pipeline_variable(value)
            and (value is not None or name == "job_name")
        ):
            raise ConfigError(f"expected a string (or a pipeline variable), got {type(value).__name__}", field=name)
    out: Dict[str, Any] = {}  # str values, or pipeline joins where job_name or output_path is a pipeline variable
    for name, field in (
        ("debug-output", "DebugHookConfig"),
        ("tensorboard-output", "TensorBoardOutputConfig"),
        ("profiler-output", "ProfilerConfig"),
    ):
        config = request.get(field)
        if (
            isinstance(config, dict)
            and isinstance(config.get("S3OutputPath"), str)
            and not config.get("DisableProfiler")
        ):
            out[name] = _s3_join(config["S3OutputPath"], job_name, name)
    if output_path is not None and (
        request.get("DebugRuleConfigurations") or request.get("ProfilerRuleConfigurations")
    ):
        out["rule-output"] = _s3_join(output_path, job_name, "rule-output")
    return out
