"""SageMaker Python SDK v2: use sm-debug-config objects with any Estimator.

Build the Estimator with our objects and start it with :func:`fit` (or
``estimator.fit(inputs, job_name=prepare(estimator))``), or pass :func:`to_sagemaker`'s result as
``Estimator(..., **kwargs)``: the request then carries exactly what :func:`sm_debug_config.render`
returns. :func:`to_sagemaker_object` converts one object to the SDK's own class instead (the SDK's
defaults and collection union then apply). Needs the SDK v2 (the extra ``sagemaker``);
without it every function raises ``ConfigError``.
"""
from __future__ import annotations

from typing import Any, Collection, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

import attrs

from sm_debug_config.checked import render_model
from sm_debug_config.errors import ConfigError, ConfigWarning, install_hint, warn_user
from sm_debug_config.integrations.boto3_client import local_source, upload_rule_sources
from sm_debug_config.integrations.sdk_objects import RULE_KEYS, is_sdk_object, sdk_arguments
from sm_debug_config.integrations.sdk_quirks import hook_dropped_by_sdk
from sm_debug_config.model import validators as v
from sm_debug_config.model.actions import ACTION_JSON_MAX, Action, ActionList
from sm_debug_config.model.catalogue import FRAMEWORKS
from sm_debug_config.model.hook import CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig
from sm_debug_config.model.profiler import FrameworkProfile, Profiler, ProfilerConfig
from sm_debug_config.model.rules import ProfilerRule, Rule
from sm_debug_config.model.settings import DebuggerSetup, JobSettings, settings_of
from sm_debug_config.rendering import settings_from
from sm_debug_config.validation.installed_botocore import check_botocore

try:  # the SDK v2 and the smdebug-rulesconfig it depends on
    import sagemaker.debugger as _sdk
    import smdebug_rulesconfig as _rulesconfig
except ImportError as _err:  # pragma: no cover - exercised only without the extra
    _sdk = None  # type: ignore[assignment]
    _rulesconfig = None  # type: ignore[assignment]
    _IMPORT_ERROR: Optional[BaseException] = _err
else:
    _IMPORT_ERROR = None

__all__ = [
    "ESTIMATOR_ATTRIBUTES",
    "MergedDebuggerHookConfig",
    "SageMakerActions",
    "estimator_settings",
    "fit",
    "prepare",
    "to_sagemaker",
    "to_sagemaker_object",
]

#: The Estimator arguments (and attributes) :func:`to_sagemaker` returns and :func:`prepare` sets.
ESTIMATOR_ATTRIBUTES = DebuggerSetup.names()
_STATE = "_sm_debug_config_state"
#: Rendered where the Estimator's output path goes when it is not known yet (the objects returned leave it out).
_PLACEHOLDER_OUTPUT = "s3://sm-debug-config-placeholder/estimator-output-path/"


def _require_sdk() -> None:
    if _sdk is None:
        raise ConfigError(
            f"the SageMaker Python SDK v2 is not importable ({_IMPORT_ERROR})",
            field="sagemaker",
            allowed=f"{install_hint('sagemaker')}; for SDK v3 use sm_debug_config.integrations.sagemaker_core",
        )


if _sdk is not None:
    class SageMakerActions(_rulesconfig.ActionList):
        """Our rule actions as the ``smdebug_rulesconfig.ActionList`` that the SDK's ``Rule`` requires.

        Serialised as ours are (``Email`` accepts addresses smdebug's pattern refuses); the
        Estimator tells it the job name (for ``StopTraining()``) at ``fit``.

        >>> from sm_debug_config.model.actions import StopTraining
        >>> actions = SageMakerActions(StopTraining())
        >>> actions.update_training_job_prefix_if_not_specified("job-1")
        >>> actions.serialize()
        '{\\\\"name\\\\": \\\\"stoptraining\\\\", \\\\"training_job_prefix\\\\": \\\\"job-1\\\\"}'
        """

        def __init__(
            self, actions: Union[Action, ActionList]
        ) -> None:  # no super(): its check wants smdebug's own actions
            if not isinstance(actions, (Action, ActionList)):
                raise ConfigError(
                    f"got {v.type_name(actions)}",
                    field="actions",
                    allowed="an Action (StopTraining, Email, SMS) or an ActionList",
                )
            self.source = actions
            self.actions = tuple(actions)
            self.training_job_name: Optional[str] = None

        def update_training_job_prefix_if_not_specified(self, training_job_name: str) -> None:
            """Remember the job name; our objects are never mutated."""
            self.training_job_name = training_job_name

        def serialize(self) -> str:
            """The ``action_json`` our actions render to for the job name given by the Estimator."""
            text = self.source.serialize(self.training_job_name)
            if len(text) > ACTION_JSON_MAX:
                raise ConfigError(
                    f"the serialised actions are {len(text)} characters long: {text[:60]}...",
                    field="actions",
                    allowed=f"at most {ACTION_JSON_MAX} characters of action_json: use fewer actions or a shorter job "
                            "name/prefix",
                )
            return text

        def __repr__(self) -> str:
            return f"SageMakerActions({self.source!r})"

    class MergedDebuggerHookConfig(_sdk.DebuggerHookConfig):
        """An SDK ``DebuggerHookConfig`` whose collections keep render's merged order.

        The Estimator assigns ``collection_configs`` a ``set`` (its union with the rules'
        collections); this lists it in build order, unknown ones (rules changed since) last, sorted.
        """
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._order: Dict[Any, int] = {}
            super().__init__(*args, **kwargs)
            self._order = {_collection_key(c): index for index, c in enumerate(self._collections or [])}

        @property  # type: ignore[override]
        def collection_configs(self) -> Optional[List[Any]]:
            return self._collections

        @collection_configs.setter
        def collection_configs(self, value: Any) -> None:
            if value is None:
                self._collections = None
                return
            items = list(value)
            if isinstance(value, (set, frozenset)):
                items.sort(key=self._position)
            self._collections = items

        def _position(self, config: Any) -> Tuple[int, int, str]:
            key = _collection_key(config)
            if key in self._order:
                return (0, self._order[key], "")
            return (1, 0, repr(key))

else:  # pragma: no cover

    class SageMakerActions:  # type: ignore[no-redef]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            _require_sdk()

    class MergedDebuggerHookConfig:  # type: ignore[no-redef]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            _require_sdk()


def _collection_key(config: Any) -> Any:
    params = getattr(config, "parameters", None) or {}
    return (repr(getattr(config, "name", None)), tuple(sorted((str(k), repr(val)) for k, val in params.items())))


def _restore(request_value: Any, own_value: Any) -> Any:
    """The object's own value where render turned a pipeline variable into its expression."""
    if request_value is not None and v.is_pipeline_variable(own_value):
        return own_value
    return request_value


#: Our classes converted with ``sdk_objects.SDK_ARGUMENTS`` to their ``sagemaker.debugger`` namesakes.
_SAME_ARGUMENTS = (CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig, Rule, ProfilerRule, ProfilerConfig)


def _sdk_rule_arguments(entry: Dict[str, Any], own: Any) -> Dict[str, Any]:
    """An SDK ``Rule``/``ProfilerRule``'s arguments: the rendered entry, with our rule's pipeline variables back."""
    arguments = {argument: _restore(entry.get(key), getattr(own, argument)) for argument, key in RULE_KEYS.items()}
    own_parameters = own.rule_parameters or {}
    arguments["rule_parameters"] = {
        k: _restore(val, own_parameters.get(k)) for k, val in (entry.get("RuleParameters") or {}).items()
    }
    return arguments


# --- one object at a time: the SDK's own classes ------------------------------------------------


def _sdk_value(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return [_sdk_value(item) for item in value]
    if isinstance(value, (*_SAME_ARGUMENTS, Profiler, FrameworkProfile, Action, ActionList)):
        return to_sagemaker_object(value)
    return value


def to_sagemaker_object(obj: Any) -> Any:
    """One sm-debug-config object as the equivalent ``sagemaker.debugger`` object (actions: :class:`SageMakerActions`).

    The Estimator then treats it as the SDK's own; for requests identical to ``render``'s use :func:`to_sagemaker`.

    >>> from sm_debug_config import CollectionConfig
    >>> sdk = to_sagemaker_object(CollectionConfig("losses", {"save_interval": "10"}))
    >>> type(sdk).__module__, sdk._to_request_dict()
    ('sagemaker.debugger.debugger', {'CollectionName': 'losses', 'CollectionParameters': {'save_interval': '10'}})
    """

    _require_sdk()
    if isinstance(obj, (Action, ActionList)):
        return SageMakerActions(obj)
    # The SDK's own deprecation notice for framework profiling (a DeprecationWarning, which Python shows only
    # to __main__, and a log line) is the SDK's word to a user who asks for its objects: not hidden here, since
    # hiding it would mean swapping the process's warning filters (not thread-safe, and not ours).
    if isinstance(obj, FrameworkProfile):  # the SDK keeps only the parameters it renders
        sdk_profile = _sdk.FrameworkProfile()
        sdk_profile.profiling_parameters = dict(obj.profiling_parameters)
        return sdk_profile
    if isinstance(obj, Profiler):
        return _sdk.Profiler(
            cpu_profiling_duration=obj.cpu_profiling_duration, file_rotation_interval=obj.file_rotation_interval
        )
    for cls in _SAME_ARGUMENTS:
        if isinstance(obj, cls):
            arguments = sdk_arguments(obj, cls.__name__, _sdk_value)
            if isinstance(obj, (Rule, ProfilerRule)):
                arguments["rule_parameters"] = dict(obj.rule_parameters or {})
            if isinstance(obj, Rule):
                arguments["collections_to_save"] = arguments["collections_to_save"] or []
            return getattr(_sdk, cls.__name__)(**arguments)
    raise ConfigError(
        f"cannot convert {v.type_name(obj)}",
        field="obj",
        allowed="an sm_debug_config CollectionConfig, DebuggerHookConfig, TensorBoardOutputConfig, Rule, ProfilerRule, "
                "ProfilerConfig, FrameworkProfile, Profiler or action",
    )


# --- all objects together: exactly render() ------------------------------------------------------


def _without_actions(rules: Any) -> Any:
    """Copies of rules without actions: the Estimator serialises them at fit, with the real job name."""
    if not isinstance(rules, (list, tuple)):
        return rules
    return [attrs.evolve(r, actions=None) if isinstance(r, Rule) and r.actions is not None else r for r in rules]


def to_sagemaker(
    rules: Optional[Sequence[Union[Rule, ProfilerRule]]] = None,
    debugger_hook_config: Union[DebuggerHookConfig, bool, None] = None,
    profiler_config: Optional[ProfilerConfig] = None,
    tensorboard_output_config: Optional[TensorBoardOutputConfig] = None,
    disable_profiler: bool = False,
    *,
    settings: Optional[JobSettings] = None,
    service_model: Any = None,
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
    """``Estimator(..., **kwargs)`` arguments (``sagemaker.debugger`` objects)
    whose request carries exactly ``render``'s fields.

    Settings as for ``render``, with the Estimator session's ``region``. ``job_name`` only names the
    ``Profiler()`` processing rule (``StopTraining()`` gets the real name at ``fit``); with no
    ``output_path`` the Estimator fills in its own. ``service_model`` (the caller's botocore model)
    makes a botocore too old for the request a ``ConfigError``. Upload local custom-rule sources
    first (:func:`~sm_debug_config.integrations.boto3_client.upload_rule_sources`, or use :func:`fit`).

    >>> from sm_debug_config import Rule, rule_configs
    >>> kwargs = to_sagemaker([Rule.sagemaker(rule_configs.vanishing_gradient())], region="us-west-2")
    >>> [c._to_request_dict() for c in kwargs["debugger_hook_config"].collection_configs]
    [{'CollectionName': 'gradients', 'CollectionParameters': {'save_interval': '500'}}]
    >>> kwargs["rules"][0].image_uri
    '895741380848.dkr.ecr.us-west-2.amazonaws.com/sagemaker-debugger-rules:latest'
    """
    setup = DebuggerSetup(
        rules=rules,
        debugger_hook_config=debugger_hook_config,
        profiler_config=profiler_config,
        tensorboard_output_config=tensorboard_output_config,
        disable_profiler=disable_profiler,
    )
    job = settings_of(
        settings, unknown, region=region, output_path=output_path, job_name=job_name, instance_type=instance_type,
        rule_image_uri=rule_image_uri, defaults=defaults, validate=validate, framework=framework,
        disable_debugger=disable_debugger, ignore=ignore, framework_version=framework_version, image_uri=image_uri,
    )
    _require_sdk()
    rules, profiler_config, output_path = setup.rules, setup.profiler_config, job.output_path
    model = render_model(
        attrs.evolve(setup, rules=_without_actions(rules) if job.job_name is None else rules),
        job if output_path is not None else attrs.evolve(job, output_path=_PLACEHOLDER_OUTPUT),  # no copy if given
    )
    request = model.request
    if service_model is not None:  # the caller's botocore: name the version it needs before the SDK fails

        check_botocore(request, service_model=service_model)
    own_rules = [r for r in (rules or []) if isinstance(r, Rule)]

    # The SDK objects come from this one render, so the Estimator has nothing left to change: rules carry
    # render's images and parameters and no collections (the hook holds the merged ones, in render's order).
    sdk_rules: List[Any] = []
    for own, entry in zip(own_rules, request.get("DebugRuleConfigurations", [])):
        arguments = _sdk_rule_arguments(entry, own)
        arguments["rule_parameters"].pop("action_json", None)
        actions = SageMakerActions(own.actions) if own.actions is not None else None
        sdk_rules.append(_sdk.Rule(**arguments, collections_to_save=[], actions=actions))
    for own_profiler_rule, entry in zip(model.profiler_rules, request.get("ProfilerRuleConfigurations", [])):
        sdk_rules.append(_sdk.ProfilerRule(**_sdk_rule_arguments(entry, own_profiler_rule)))

    hook: Any = False
    if "DebugHookConfig" in request and model.hook is not None:
        arguments = sdk_arguments(model.hook, "DebuggerHookConfig", _sdk_value)
        arguments["collection_configs"] = [
            _sdk.CollectionConfig(name=m.name, parameters=_sdk_value(m.parameters)) for m in model.collections
        ]
        if arguments["s3_output_path"] is None:
            arguments["s3_output_path"] = output_path
        hook = MergedDebuggerHookConfig(**arguments)

    profiler_request = request.get("ProfilerConfig", {})
    profiler_off = profiler_request.get("DisableProfiler") is True and (
        setup.disable_profiler or profiler_config is None or profiler_config.disable_profiler is not True
    )
    if profiler_config is not None:
        sdk_profiler = to_sagemaker_object(profiler_config)
        if profiler_config.s3_output_path is None:
            sdk_profiler.s3_output_path = None if profiler_off else output_path
    elif profiler_off:
        sdk_profiler = _sdk.ProfilerConfig(disable_profiler=True)  # type: ignore[arg-type]  # the SDK's hint says str
    else:
        sdk_profiler = _sdk.ProfilerConfig(s3_output_path=output_path)

    return {
        "rules": sdk_rules if (rules is not None or sdk_rules) else None,
        "debugger_hook_config": hook,
        "profiler_config": sdk_profiler,
        "tensorboard_output_config": _sdk_value(setup.tensorboard_output_config),
        "disable_profiler": bool(profiler_off),
    }


# --- an Estimator built with our objects ---------------------------------------------------------


def _is_ours(value: Any) -> bool:
    return isinstance(
        value, (Rule, ProfilerRule, DebuggerHookConfig, ProfilerConfig, TensorBoardOutputConfig, FrameworkProfile)
    )


def _attributes(estimator: Any) -> Dict[str, Any]:
    """The Estimator's Debugger attributes, with our objects back where :func:`prepare` converted them."""
    state = getattr(estimator, _STATE, None)
    attributes = {k: getattr(estimator, k, None) for k in ESTIMATOR_ATTRIBUTES}
    for key, value in attributes.items():
        if state is not None and value is state["converted"][key]:
            attributes[key] = state["originals"][key]
    return attributes


def _objects(attributes: Dict[str, Any]) -> List[Any]:
    rules = attributes.get("rules")
    items = list(rules) if isinstance(rules, (list, tuple)) else [rules]
    return items + [attributes.get(k) for k in ESTIMATOR_ATTRIBUTES if k != "rules"]


def _framework(estimator: Any) -> Optional[str]:
    name = getattr(estimator, "_framework_name", None)
    return name if name in FRAMEWORKS else None


def estimator_settings(estimator: Any) -> Dict[str, Any]:
    """The :class:`~sm_debug_config.JobSettings` values an Estimator decides: its session's
    region, its output path, instance type, framework and its version or image (those it knows;
    the image lets validation say whether the hook runs there)."""
    output_path = estimator.output_path
    version, image = getattr(estimator, "framework_version", None), getattr(estimator, "image_uri", None)
    found = {
        "region": estimator.sagemaker_session.boto_region_name,
        "output_path": output_path if isinstance(output_path, str) or v.is_pipeline_variable(output_path) else None,
        "instance_type": estimator.instance_type if isinstance(estimator.instance_type, str) else None,
        "framework": _framework(estimator),
        "framework_version": version if isinstance(version, str) and version.strip() else None,
        "image_uri": image if isinstance(image, str) and image.strip() else None,
    }
    return {name: value for name, value in found.items() if value is not None}


def _hook_the_sdk_keeps(estimator: Any, attributes: Dict[str, Any]) -> Any:
    """The hook to render where the SDK would drop it silently (``sdk_quirks``): a configured hook or
    debugger rules are a ``ConfigError``, the default hook is left out with a ``ConfigWarning``."""

    hook = attributes["debugger_hook_config"]
    reason = hook_dropped_by_sdk(_framework(estimator), estimator)
    if reason is None or hook is False:
        return hook
    rules = attributes["rules"] if isinstance(attributes["rules"], (list, tuple)) else []
    debugger_rules = [r.name for r in rules if isinstance(r, Rule)]
    if isinstance(hook, DebuggerHookConfig) or hook is True or debugger_rules:
        configured = "the debugger hook" if not debugger_rules else "debugger rules " + ", ".join(debugger_rules)
        raise ConfigError(
            f"{reason}, but {configured} {'is' if not debugger_rules else 'are'} configured and would see no data",
            field="estimator",
            allowed="turn checkpointing or distribution off, or use debugger_hook_config=False and no debugger rules",
        )
    warn_user(ConfigWarning(f"{reason}; the default hook is left out of this job"))
    return False


def prepare(
    estimator: Any, job_name: Optional[str] = None, *, settings: Optional[JobSettings] = None, **job_settings: Any
) -> str:
    """Convert an Estimator's sm-debug-config objects in place; return the job name to fit with.

    ``estimator.fit(inputs, job_name=prepare(estimator))`` sends exactly ``render(<its objects>)``, with
    the settings the Estimator decides (:func:`estimator_settings`) and those given here. Local
    custom-rule sources are uploaded next to the output path. Your objects are kept for the next
    ``prepare``; an Estimator with only SDK objects is left as it is.
    """
    _require_sdk()
    attributes = _attributes(estimator)
    objects = _objects(attributes)
    name = estimator._get_or_create_name(job_name)  # noqa: SLF001 - the name the SDK's fit() would give
    if not any(_is_ours(o) for o in objects):
        return name
    sdk_objects = [type(o).__name__ for o in objects if is_sdk_object(o)]
    if sdk_objects:
        raise ConfigError(
            f"the Estimator mixes sm_debug_config objects with sagemaker.debugger objects ({', '.join(sdk_objects)})",
            field="estimator",
            allowed="only sm_debug_config objects (convert SDK ones by rebuilding them with sm_debug_config)",
        )
    job = settings_from(
        JobSettings.build(settings, job_settings), dict(estimator_settings(estimator), job_name=name), "the Estimator"
    )
    rules = attributes["rules"]
    session = estimator.sagemaker_session

    listed = rules if isinstance(rules, (list, tuple)) else []
    if any(local_source(r) is not None for r in listed if isinstance(r, (Rule, ProfilerRule))):
        destination = (
            job.output_path if isinstance(job.output_path, str) and job.output_path.startswith("s3://") else None
        )
        if destination is None:
            from sagemaker import s3 as _s3

            destination = _s3.s3_path_join(
                "s3://", session.default_bucket(), session.default_bucket_prefix, with_end_slash=True
            )
        rules = upload_rule_sources(
            rules, output_path=destination, s3_client=session.s3_client or session.boto_session.client("s3")
        )
    hook = _hook_the_sdk_keeps(estimator, attributes)
    converted = to_sagemaker(
        rules,
        hook,
        attributes["profiler_config"],
        attributes["tensorboard_output_config"],
        False if attributes["disable_profiler"] is None else attributes["disable_profiler"],
        settings=job,
        service_model=getattr(getattr(getattr(session, "sagemaker_client", None), "meta", None), "service_model", None),
    )
    for key, value in converted.items():
        setattr(estimator, key, value)
    # "prepared_for": the post-import hook (sdk_patch) skips converting again for this job
    setattr(estimator, _STATE, {"originals": attributes, "converted": converted, "prepared_for": name})
    return name


def fit(
    estimator: Any,
    inputs: Any = None,
    wait: bool = True,
    logs: str = "All",
    job_name: Optional[str] = None,
    experiment_config: Optional[Dict[str, str]] = None,
    *,
    settings: Optional[JobSettings] = None,
    **job_settings: Any,
) -> Any:
    """``estimator.fit(...)`` for an Estimator built with sm-debug-config objects, converted first by :func:`prepare`.

    >>> # sm_debug_config.integrations.sagemaker_v2.fit(estimator, "s3://bucket/train", wait=False)
    """
    name = prepare(estimator, job_name, settings=settings, **job_settings)
    return estimator.fit(inputs, wait=wait, logs=logs, job_name=name, experiment_config=experiment_config)
